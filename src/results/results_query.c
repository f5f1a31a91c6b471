// SPDX-License-Identifier: GPL-2.0
/*
 * What the tools ask of a loaded result file: per-run values, their
 * medians, a group's throughput, whether its summary agrees with its run
 * lines, and the group of a sweep point.  Failed runs give no values:
 * their figures are partial.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/jfield.h"
#include "results/results.h"
#include "util/fmt.h"

bool results_run_lat_p99(const struct result_run *r, double *v)
{
	if (!r->ok || !r->has_latency)
		return false;
	*v = (double)r->lat_p99_ns;
	return true;
}

bool results_run_rq_p99(const struct result_run *r, double *v)
{
	if (!r->ok || !r->has_rq_p99)
		return false;
	*v = (double)r->rq_p99_ns;
	return true;
}

size_t results_median(const struct result_group *g, results_value_fn fn,
		      double *median)
{
	size_t k = 0;
	double *v;

	if (!g->nr_runs)
		return 0;
	v = results_values(g, fn, &k);
	if (!v)
		return 0;
	if (k)
		*median = stats_median(v, k);
	free(v);
	return k;
}

void results_throughput(const struct result_group *g, double *avg,
			double *min, double *max, int *n)
{
	if (g->summary.present) {
		*avg = g->summary.avg;
		*min = g->summary.min;
		*max = g->summary.max;
		*n = g->summary.runs;
		return;
	}
	*avg = g->stats.avg;
	*min = g->stats.min;
	*max = g->stats.max;
	*n = (int)g->stats.n;
}

static bool differs(double a, double b)
{
	double scale = fmax(fmax(fabs(a), fabs(b)), 1.0);

	return fabs(a - b) > 1e-9 * scale;
}

int results_check_summary(const struct result_group *g, char *msg,
			  size_t len)
{
	const struct result_summary *s = &g->summary;
	const struct stats *st = &g->stats;

	if (!s->present || !g->nr_runs)
		return 0;
	if ((size_t)s->runs != st->n) {
		fmt_err(msg, len,
			"summary line %zu counts %d completed runs, the file has %zu",
			s->line, s->runs, st->n);
		return 1;
	}
	if (!st->n)
		return 0;
	if (differs(s->avg, st->avg) || differs(s->min, st->min) ||
	    differs(s->max, st->max)) {
		fmt_err(msg, len,
			"summary line %zu (avg %.0f, min %.0f, max %.0f) disagrees with its runs (avg %.0f, min %.0f, max %.0f)",
			s->line, s->avg, s->min, s->max, st->avg, st->min,
			st->max);
		return 1;
	}
	return 0;
}

const struct result_group *results_find_group(const struct result_file *f,
					      const json_t *sweep)
{
	size_t i;

	for (i = 0; i < f->nr_groups; i++)
		if (results_sweep_equal(f->groups[i].sweep, sweep))
			return &f->groups[i];
	return NULL;
}
