// SPDX-License-Identifier: GPL-2.0
/*
 * The time budget as text: for each role, its threads' time in percent of
 * threads x wall, on CPU, waiting to run (with what held the CPUs) and
 * blocked (with why), and gone (threads that ended early); then the CPUs'
 * time.  Compact by default, the two largest parts of each; verbose shows
 * every part that is not zero.  Lines stay under 100 columns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/budget.h"
#include "util/roles.h"
#include "output/text/budget_text.h"

struct part {
	const char *name;
	uint64_t ns;
};

static int by_ns(const void *x, const void *y)
{
	uint64_t a = ((const struct part *)x)->ns;
	uint64_t b = ((const struct part *)y)->ns;

	return (a < b) - (a > b);
}

/* ", name N.N" for the largest parts of at least 0.1 % of whole. */
static void print_parts(FILE *f, struct part *p, int n, int max,
			double whole)
{
	int i, shown = 0;

	qsort(p, (size_t)n, sizeof(*p), by_ns);
	for (i = 0; i < n && shown < max; i++) {
		if (100.0 * p[i].ns / whole < 0.1)
			break;
		fprintf(f, "%s%s %.1f", shown ? ", " : " (", p[i].name,
			100.0 * p[i].ns / whole);
		shown++;
	}
	if (shown)
		fputc(')', f);
}

static void print_role(FILE *f, const char *name, const struct kb_threads *t,
		       bool verbose)
{
	struct part p[CB_NR_HOLDERS + CB_NR_BLOCKS + 1];
	double whole = t->total_ns ? (double)t->total_ns : 1;
	int max = verbose ? 99 : 2, i, n = 0;

	fprintf(f, "  %-9s %4" PRIu64 " thr: cpu %.1f%% | wait %.1f%%", name,
		t->threads, 100.0 * t->oncpu_ns / whole,
		100.0 * t->wait_ns / whole);
	for (i = 0; i < CB_NR_HOLDERS; i++)
		p[n++] = (struct part){ kb_holder_name(i), t->wait_by[i] };
	p[n++] = (struct part){ "unknown", t->wait_unknown_ns };
	print_parts(f, p, n, max, whole);
	if (verbose)
		fprintf(f, "\n %14s", "");
	fprintf(f, " | blocked %.1f%%", 100.0 * t->blocked_ns / whole);
	for (i = 0, n = 0; i < CB_NR_BLOCKS; i++)
		p[n++] = (struct part){ kb_block_names[i], t->blocked_by[i] };
	print_parts(f, p, n, max, whole);
	fprintf(f, " | gone %.1f%%\n", 100.0 * (double)t->gone_ns / whole);
}

void budget_print_text(FILE *f, const struct ks_budget *b, bool verbose)
{
	struct part p[KB_NR_CPU_LINES];
	double whole;
	int r, i, n = 0, shown = 0;

	if (!b || !b->valid)
		return;
	fprintf(f, "  budget  : %% of threads x wall (thr), largest parts; "
		"cpus %% of %" PRIu64 " x %.2fs\n", b->cpus.ncpus,
		b->wall_ns / 1e9);
	for (r = 0; r < CB_NR_ROLES; r++)
		if (b->role[r].threads)
			print_role(f, role_name(r), &b->role[r], verbose);
	whole = b->cpus.supply_ns ? (double)b->cpus.supply_ns : 1;
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		if (b->cpus.line[i] > 0)
			p[n++] = (struct part){ kb_cpu_names[i],
						(uint64_t)b->cpus.line[i] };
	qsort(p, (size_t)n, sizeof(*p), by_ns);
	fprintf(f, "  cpus    :");
	for (i = 0; i < n; i++) {
		double pct = 100.0 * p[i].ns / whole;

		if (!verbose && (shown >= 6 || pct < 0.1))
			break;
		if (shown && shown % 5 == 0)
			fprintf(f, "\n            ");
		fprintf(f, "%s %s %.1f%%", shown % 5 ? "," : "", p[i].name,
			pct);
		shown++;
	}
	fputc('\n', f);
}
