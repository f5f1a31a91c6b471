// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report's data, gathered from the loaded result files before
 * anything is drawn: a run's verdict, share of the median and length on
 * the time axis; a group's intervals binned into heat-map columns on the
 * kernel's log-linear scale (two rows per octave, so that every kernel
 * bucket falls in exactly one row); histogram buckets merged across runs
 * for percentiles; outsider tasks ranked so that colours follow the
 * worst; sweep points sorted by their swept value.  Kept apart from the
 * drawing so that each section reads what it shows, not how the JSON
 * lays it out across runs and files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/causes.h"
#include "output/html/html_fmt.h"
#include "output/html/view.h"
#include "output/html/view_budget.h"

/* ---- log-linear positions ---------------------------------------------- */

static int msb64(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/*
 * Bin of lo with k (a power of two) linear bins per octave: the same
 * layout as the kernel's histograms, coarser, so that every kernel
 * bucket falls in exactly one bin.
 */
int ll_bin(uint64_t lo, int k)
{
	int e, kb = __builtin_ctz((unsigned int)k);
	uint64_t off;

	if (!lo)
		return 0;
	e = msb64(lo);
	off = lo - (1ULL << e);
	if (e >= kb)
		return e * k + (int)(off >> (e - kb));
	return e * k + (int)((off << kb) >> e);
}

int report_hm_row(uint64_t lo)
{
	return ll_bin(lo, HM_PER_OCTAVE);
}

/* The continuous position of v on the same scale: bin b spans [b, b+1). */
double ll_pos(double v, int k)
{
	int e;

	if (v < 1)
		return 0;
	e = (int)floor(log2(v));
	return e * k + k * (v / ldexp(1, e) - 1);
}

/* ---- the diagnosis' words ---------------------------------------------- */

const char *view_cause_words(const char *kind)
{
	int k;

	if (!kind)
		return "unknown cause";
	k = cause_by_name(kind);
	return k >= 0 ? cause_table[k].words : kind;
}

/* Older files have no depth or noise: the depth from the dip's median. */
void view_dip(const json_t *d, struct dip_view *out)
{
	const json_t *kind = json_object_get(d, "kind");

	memset(out, 0, sizeof(*out));
	out->from_s = jnum(d, "from_s");
	out->to_s = jnum(d, "to_s");
	out->throughput = jnum(d, "throughput");
	out->median = jnum(d, "median");
	out->noise_pct = jnum(d, "noise_pct");
	out->depth_pct = jnum(d, "depth_pct");
	if (!json_object_get(d, "depth_pct") && out->median > 0)
		out->depth_pct = 100 * (1 - out->throughput / out->median);
	if (json_is_string(kind))
		out->words = view_cause_words(json_string_value(kind));
	out->sentence = jstr(d, "sentence");
}

/*
 * A dip in words, unescaped, into b: its depth against the run's steady
 * rate beside the noise of its intervals (what a dip had to exceed to
 * be one), then its cause or "unexplained"; returns b.
 */
const char *view_dip_says(char *b, size_t n, const struct dip_view *d)
{
	char rate[32], ref[64] = "deep", noise[48] = "";

	if (d->median > 0)
		snprintf(ref, sizeof(ref), "below the steady %s msg/s",
			 fmt_rate(rate, sizeof(rate), d->median));
	if (d->noise_pct > 0)
		snprintf(noise, sizeof(noise), " (intervals vary ±%.0f %%)",
			 d->noise_pct);
	snprintf(b, n, "%.0f %% %s%s: %s", d->depth_pct, ref, noise,
		 d->words ? d->words : "unexplained");
	return b;
}

/* ---- bucket sets ------------------------------------------------------- */

/* Adds the {"lo","hi","count"} array arr (a histogram's buckets). */
int bset_add(struct bset *s, const json_t *arr)
{
	const json_t *e, *hi;
	size_t i;

	json_array_foreach(arr, i, e) {
		struct results_bucket b;

		b.lo = ju64(json_object_get(e, "lo"));
		hi = json_object_get(e, "hi");
		b.hi = json_is_integer(hi) ? ju64(hi) : UINT64_MAX;
		b.count = ju64(json_object_get(e, "count"));
		if (!b.count || b.hi <= b.lo)
			continue;
		if (s->n == s->cap) {
			size_t ncap = s->cap ? s->cap * 2 : 128;
			struct results_bucket *nb = realloc(s->b,
							    ncap * sizeof(*nb));

			if (!nb)
				return -1;
			s->b = nb;
			s->cap = ncap;
		}
		s->b[s->n++] = b;
		s->total += b.count;
	}
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct results_bucket *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Sorted, equal buckets added: what results_buckets_percentile reads. */
static void bset_merge(struct bset *s)
{
	size_t i, k = 0;

	if (!s->n)
		return;
	qsort(s->b, s->n, sizeof(*s->b), cmp_bucket);
	for (i = 0; i < s->n; i++) {
		if (k && s->b[k - 1].lo == s->b[i].lo) {
			s->b[k - 1].count += s->b[i].count;
			continue;
		}
		s->b[k++] = s->b[i];
	}
	s->n = k;
}

uint64_t bset_pct(struct bset *s, double p)
{
	bset_merge(s);
	return results_buckets_percentile(s->b, s->n, p);
}

void bset_free(struct bset *s)
{
	free(s->b);
	memset(s, 0, sizeof(*s));
}

/* ---- what the page is drawn from --------------------------------------- */

/* Group group of files[file] as the page shows it, id unique on it. */
/*
 * Whose kernel record a run's figures are: the client's host's, else that
 * of the server's host (chat_s traced on another machine), which is then
 * also kept beside the client's for the budget.
 */
static void view_hosts(struct run_view *rv)
{
	const json_t *sh = json_object_get(rv->r->json, "server_host");
	const json_t *sk = json_object_get(sh, "kernel");

	rv->kernel = json_object_get(rv->r->json, "kernel");
	if (!json_is_object(rv->kernel))
		rv->kernel = NULL;
	if (!json_is_object(sk))
		sk = NULL;
	rv->server_name = json_string_value(json_object_get(sh, "name")) ?: "";
	if (!rv->kernel && sk) {
		rv->kernel = sk;
		rv->kernel_is_server = true;
	} else {
		rv->server_kernel = sk;
	}
}

int view_group(struct group_view *v, const struct result_file *files,
	       size_t file, size_t group, int id)
{
	const struct result_group *g = &files[file].groups[group];
	size_t i;

	memset(v, 0, sizeof(*v));
	v->file = &files[file];
	v->file_idx = file;
	v->g = g;
	v->id = id;
	v->n = g->nr_runs;
	v->runs = calloc(v->n ? v->n : 1, sizeof(*v->runs));
	if (!v->runs)
		return -1;
	v->verdict = json_object_get(g->summary.json, "verdict");
	if (!json_is_object(v->verdict))
		v->verdict = NULL;
	if (g->summary.present && g->summary.median > 0)
		v->median = g->summary.median;
	else if (!results_median(g, results_run_throughput, &v->median))
		v->median = 0;
	for (i = 0; i < v->n; i++) {
		struct run_view *rv = &v->runs[i];
		const json_t *slow, *iv, *last;

		rv->r = &g->runs[i];
		rv->failed = !rv->r->ok;
		slow = json_object_get(rv->r->json, "slow");
		v->has_verdicts |= json_is_boolean(slow);
		rv->slow = !rv->failed && json_is_true(slow);
		rv->disturbed = !rv->failed &&
				json_is_true(json_object_get(rv->r->json,
							     "disturbed"));
		v->nslow += rv->slow;
		v->nquiet += rv->disturbed && !rv->slow;
		v->nok += !rv->failed;
		if (v->median > 0 && !rv->failed)
			rv->shortfall = 1 - rv->r->throughput / v->median;
		if (rv->r->throughput > v->max_tp)
			v->max_tp = rv->r->throughput;
		view_hosts(rv);
		v->ntraced += rv->kernel != NULL;
		if (rv->kernel_is_server || rv->server_kernel) {
			if (!v->nserver)
				v->server_name = rv->server_name;
			v->nserver++;
		}
		iv = json_object_get(rv->kernel, "intervals");
		rv->intervals = json_array_size(iv) ? iv : NULL;
		/* The series' own clock when it has one, else the run's. */
		last = json_array_get(iv, json_array_size(iv) - 1);
		if (last)
			rv->span_ns = ju64(json_object_get(last, "start_ns")) +
				      ju64(json_object_get(last, "duration_ns"));
		if (!rv->span_ns && rv->r->elapsed_s > 0)
			rv->span_ns = (uint64_t)(rv->r->elapsed_s * 1e9);
		view_budget(rv);
		v->nbudget += rv->bv.valid;
	}
	return 0;
}

/* ---- the heat map's columns -------------------------------------------- */

void timeline_free(struct timeline *t)
{
	free(t->cols);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

/*
 * The heat map of v: its intervals merged by ceil(n / budget) within each
 * run, their buckets counted per row.  -1 when out of memory; t is to be
 * freed by timeline_free either way.
 */
int timeline_build(struct timeline *t, const struct group_view *v,
		   size_t budget)
{
	size_t i, k, c, base = 0;
	const json_t *iv, *b;

	memset(t, 0, sizeof(*t));
	t->rmin = HM_NR_ROWS;
	t->rmax = -1;
	for (i = 0; i < v->n; i++)
		t->nintervals += json_array_size(v->runs[i].intervals);
	if (!t->nintervals)
		return 0;
	t->merge = (t->nintervals + budget - 1) / budget;
	for (i = 0; i < v->n; i++)
		t->ncols += (json_array_size(v->runs[i].intervals) + t->merge -
			     1) / t->merge;
	t->cols = calloc(t->ncols, sizeof(*t->cols));
	t->counts = calloc(t->ncols * HM_NR_ROWS, sizeof(*t->counts));
	if (!t->cols || !t->counts)
		return -1;
	for (c = 0; c < t->ncols; c++)
		t->cols[c].rows = t->counts + c * HM_NR_ROWS;
	for (i = 0; i < v->n; i++) {
		const json_t *arr = v->runs[i].intervals;

		json_array_foreach(arr, k, iv) {
			struct hm_col *col = &t->cols[base + k / t->merge];
			const json_t *bk = json_object_get(iv, "rq_buckets");
			uint64_t p99 = ju64(json_object_get(iv, "rq_p99_ns"));
			size_t j;

			col->run = i;
			if (k % t->merge == 0)
				col->t0_ns = ju64(json_object_get(iv, "start_ns"));
			col->dur_ns += ju64(json_object_get(iv, "duration_ns"));
			col->messages += ju64(json_object_get(iv, "messages"));
			if (p99 > col->p99_ns)
				col->p99_ns = p99;
			json_array_foreach(bk, j, b) {
				uint64_t n = ju64(json_object_get(b, "count"));
				int r = report_hm_row(ju64(json_object_get(b, "lo")));

				if (n)
					col->rows[r] += n;
			}
		}
		base += (json_array_size(arr) + t->merge - 1) / t->merge;
	}
	for (c = 0; c < t->ncols; c++) {
		struct hm_col *col = &t->cols[c];
		int r;

		if (col->dur_ns) {
			double tp = (double)col->messages * 1e9 /
				    (double)col->dur_ns;

			if (tp > t->max_tp)
				t->max_tp = tp;
		}
		for (r = 0; r < HM_NR_ROWS; r++) {
			if (!col->rows[r])
				continue;
			t->ncells++;
			if (r < t->rmin)
				t->rmin = r;
			if (r > t->rmax)
				t->rmax = r;
			if (col->rows[r] > t->max_count)
				t->max_count = col->rows[r];
		}
	}
	return 0;
}

/* ---- who took the CPU -------------------------------------------------- */

static int cmp_outsider(const void *a, const void *b)
{
	const struct outsider *x = a, *y = b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

/* Outsider tasks of the group by CPU taken, so colours follow the worst. */
size_t rank_outsiders(const struct group_view *v, struct outsider *out,
		      size_t max)
{
	size_t i, k, j, n = 0;
	const json_t *s;

	for (i = 0; i < v->n; i++) {
		const json_t *st = json_object_get(v->runs[i].kernel,
						   "stealers");

		json_array_foreach(st, k, s) {
			const char *comm = jstr(s, "comm");

			if (!comm || json_is_true(json_object_get(s, "is_benchmark")))
				continue;
			for (j = 0; j < n; j++)
				if (!strcmp(out[j].comm, comm))
					break;
			if (j == n) {
				if (n == max)
					continue;
				out[n].comm = comm;
				out[n++].ns = 0;
			}
			out[j].ns += (double)ju64(json_object_get(s, "ns"));
		}
	}
	qsort(out, n, sizeof(*out), cmp_outsider);
	return n;
}

/* ---- several groups: the sweep ----------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_pt(const void *a, const void *b)
{
	const struct sweep_pt *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* The place of v among the swept values vals[0..nv), 0 when not there. */
size_t value_index(const double *vals, size_t nv, double v)
{
	size_t i;

	for (i = 0; i < nv; i++)
		if (vals[i] == v)
			return i;
	return 0;
}

/*
 * Named values (--sweep sched=other,batch) go on the axis in the order
 * they first appear in the files: index into names, added when new.
 */
static double named_value(const char *text, const char **names, size_t *n)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(names[i], text))
			return (double)i;
	names[*n] = text;
	return (double)(*n)++;
}

static void fill_pt(struct sweep_pt *p, const struct result_group *g,
		    const char **names, size_t *nnames)
{
	const json_t *v = json_object_get(g->sweep, "value");

	memset(p, 0, sizeof(*p));
	p->g = g;
	if (json_is_string(v)) {
		p->text = json_string_value(v);
		p->value = named_value(p->text, names, nnames);
	} else {
		p->value = json_number_value(v);
	}
	results_throughput(g, &p->avg, &p->min, &p->max, &p->runs);
	p->has_lat = results_median(g, results_run_lat_p99, &p->lat) > 0;
	p->has_rq = results_median(g, results_run_rq_p99, &p->rq) > 0;
}

/*
 * The sweep of the first swept parameter in files, one series per file
 * that has it; sw->param stays NULL when no group is a sweep point.  -1
 * when out of memory; sw is to be freed by sweep_free either way.
 */
int sweep_build(struct sweep *sw, const struct result_file *files,
		size_t nfiles, char **labels)
{
	size_t i, j, k, total = 0, nnames = 0;
	const char **names = NULL;
	int ret = -1;

	memset(sw, 0, sizeof(*sw));
	sw->ser = calloc(nfiles, sizeof(*sw->ser));
	if (!sw->ser)
		return -1;
	sw->cap = nfiles;
	for (i = 0; i < nfiles; i++)
		total += files[i].nr_groups;
	sw->vals = calloc(total ? total : 1, sizeof(*sw->vals));
	names = calloc(total ? total : 1, sizeof(*names));
	if (!sw->vals || !names)
		goto out;
	for (i = 0; i < nfiles; i++) {
		const struct result_file *rf = &files[i];

		for (j = 0; j < rf->nr_groups && !sw->param; j++)
			sw->param = rf->groups[j].sweep_param;
	}
	ret = 0;
	if (!sw->param)
		goto out;
	ret = -1;
	for (i = 0; i < nfiles; i++) {
		const struct result_file *rf = &files[i];
		struct sweep_series *s = &sw->ser[sw->ns];

		s->label = labels[i];
		s->pt = calloc(rf->nr_groups ? rf->nr_groups : 1,
			       sizeof(*s->pt));
		if (!s->pt)
			goto out;
		for (j = 0; j < rf->nr_groups; j++) {
			const struct result_group *g = &rf->groups[j];

			/* One parameter per chart: others are not on its x. */
			if (!g->sweep_param ||
			    strcmp(g->sweep_param, sw->param))
				continue;
			fill_pt(&s->pt[s->n++], g, names, &nnames);
			for (k = 0; k < sw->nv; k++)
				if (sw->vals[k] == s->pt[s->n - 1].value)
					break;
			if (k == sw->nv)
				sw->vals[sw->nv++] = s->pt[s->n - 1].value;
		}
		if (!s->n) {	/* a file without this sweep: not a series */
			free(s->pt);
			memset(s, 0, sizeof(*s));
			continue;
		}
		qsort(s->pt, s->n, sizeof(*s->pt), cmp_pt);
		sw->ns++;
	}
	qsort(sw->vals, sw->nv, sizeof(*sw->vals), cmp_double);
	ret = 0;
out:
	free(names);
	return ret;
}

const char *sweep_value_text(const struct sweep *sw, double v)
{
	size_t s, i;

	for (s = 0; s < sw->ns; s++)
		for (i = 0; i < sw->ser[s].n; i++)
			if (sw->ser[s].pt[i].value == v)
				return sw->ser[s].pt[i].text;
	return NULL;
}

void sweep_free(struct sweep *sw)
{
	size_t i;

	for (i = 0; i < sw->cap; i++)
		free(sw->ser[i].pt);
	free(sw->ser);
	free(sw->vals);
	memset(sw, 0, sizeof(*sw));
}
