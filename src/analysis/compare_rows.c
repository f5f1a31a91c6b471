// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of the comparison: labels that tell every file apart, one row
 * per file and sweep point, points of one parameter in numeric order, and
 * the ratio of each row to the base file's row at the same point (never
 * across points: rooms=4 of one kernel against rooms=4 of the other),
 * with the interval and rank test that say whether it is more than noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/infer.h"

/* "dir/6.1.json" -> "6.1"; with parent, "dir/6.1". */
static char *file_label(const char *path, bool parent)
{
	const char *start = strrchr(path, '/'), *end;
	size_t n;
	char *s;

	start = start ? start + 1 : path;
	if (parent && start > path) {
		const char *p = start - 1;

		while (p > path && p[-1] != '/')
			p--;
		if (p == start - 1)	/* "/x.json": no parent name */
			return NULL;
		start = p;
	} else if (parent) {
		return NULL;
	}
	n = strlen(start);
	end = start + n;
	if (n > 5 && !strcmp(end - 5, ".json"))
		end -= 5;
	else if (n > 6 && !strcmp(end - 6, ".jsonl"))
		end -= 6;
	s = strndup(start, (size_t)(end - start));
	return s;
}

static char *kernel_label(const struct cmp_input *in)
{
	if (in->file.kernel_release && *in->file.kernel_release)
		return strdup(in->file.kernel_release);
	return file_label(in->file.path, false);
}

static size_t count_label(const struct cmp_input *in, size_t n,
			  const char *l)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(in[i].label, l))
			k++;
	return k;
}

/*
 * Equal labels (two runs on one kernel, or dir1/res.json and dir2/res.json)
 * are told apart first by saying more (the file beside the kernel, the
 * directory beside the file), then by numbering what is still equal.
 */
static int disambiguate(struct cmp_input *in, size_t n, enum cmp_label_by by)
{
	bool *dup = calloc(n, sizeof(*dup));
	size_t i, j, k;
	char *l, *f, *same;
	int ret = -1;

	if (!dup)
		return -1;
	for (i = 0; i < n; i++)
		dup[i] = count_label(in, n, in[i].label) > 1;
	for (i = 0; i < n; i++) {
		if (!dup[i])
			continue;
		if (by == CMP_LABEL_KERNEL) {
			f = file_label(in[i].file.path, false);
			if (!f || asprintf(&l, "%s (%s)", in[i].label, f) < 0)
				l = NULL;
			free(f);
		} else {
			l = file_label(in[i].file.path, true);
		}
		if (!l)
			continue;
		free(in[i].label);
		in[i].label = l;
	}
	for (i = 0; i < n; i++)
		dup[i] = count_label(in, n, in[i].label) > 1;
	for (i = 0; i < n; i++) {
		if (!dup[i])
			continue;
		same = strdup(in[i].label);
		if (!same)
			goto cleanup;
		for (j = i, k = 0; j < n; j++) {
			if (!dup[j] || strcmp(in[j].label, same))
				continue;
			if (asprintf(&l, "%s#%zu", same, ++k) < 0) {
				free(same);
				goto cleanup;
			}
			free(in[j].label);
			in[j].label = l;
			dup[j] = false;
		}
		free(same);
	}
	ret = 0;
cleanup:
	free(dup);
	return ret;
}

int cmp_make_labels(struct cmp_input *in, size_t n, enum cmp_label_by by)
{
	size_t i;

	for (i = 0; i < n; i++) {
		in[i].label = by == CMP_LABEL_KERNEL ? kernel_label(&in[i]) :
						   file_label(in[i].file.path,
							      false);
		if (!in[i].label)
			return -1;
		if (!*in[i].label) {
			free(in[i].label);
			in[i].label = strdup(in[i].file.path);
			if (!in[i].label)
				return -1;
		}
	}
	return disambiguate(in, n, by);
}

static void warn_group(const struct cmp_input *in,
		       const struct result_group *g)
{
	const char *at = *g->sweep_label ? " at " : "";
	char msg[320];

	if (!g->summary.present) {
		fprintf(stderr, CMP_PROG ": warning: %s%s%s: %zu run line%s without a summary line; figures computed from the runs\n",
			in->file.path, at, g->sweep_label, g->nr_runs,
			g->nr_runs == 1 ? "" : "s");
		return;
	}
	if (results_check_summary(g, msg, sizeof(msg)))
		fprintf(stderr, CMP_PROG ": warning: %s%s%s: %s; using the summary\n",
			in->file.path, at, g->sweep_label, msg);
	if (g->summary.interrupted)
		fprintf(stderr, CMP_PROG ": warning: %s%s%s: interrupted, %d of %d runs completed\n",
			in->file.path, at, g->sweep_label, g->summary.runs,
			g->summary.runs_attempted);
}

static void fill_row(struct cmp_row *r, const struct cmp_input *in)
{
	const struct result_group *g = r->g;

	results_throughput(g, &r->avg, &r->min, &r->max, &r->runs);
	r->attempted = g->summary.present ? g->summary.runs_attempted :
					    (int)g->nr_runs;
	r->has_lat = results_median(g, results_run_lat_p99, &r->lat_p99) > 0;
	r->has_rq = results_median(g, results_run_rq_p99, &r->rq_p99) > 0;
	snprintf(r->label, sizeof(r->label), "%s", in->label);
}

/* Sweep points in the order they first appear, inputs taken in order. */
static size_t point_index(const json_t **points, size_t *nr_points,
			  const json_t *sweep)
{
	size_t i;

	for (i = 0; i < *nr_points; i++) {
		if (!points[i] || !sweep) {
			if (points[i] == sweep)
				return i;
			continue;
		}
		if (json_equal((json_t *)points[i], (json_t *)sweep))
			return i;
	}
	points[(*nr_points)++] = sweep;
	return i;
}

struct point_key {
	size_t first;		/* first-appearance index */
	size_t param;		/* first appearance of its parameter */
	bool numeric;
	double value;
};

static int cmp_point_keys(const void *pa, const void *pb)
{
	const struct point_key *a = pa, *b = pb;

	if (a->param != b->param)
		return a->param < b->param ? -1 : 1;
	if (a->numeric && b->numeric && a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

static const char *point_param(const json_t *sweep)
{
	return sweep ? json_string_value(json_object_get(sweep, "param")) :
		       "";
}

/*
 * Rank of every sweep point: points of one parameter together, numeric
 * values in increasing order (rooms=4 before rooms=8 whichever file came
 * first), anything else in first-appearance order.
 */
static int rank_points(const json_t **points, size_t n, size_t *rank)
{
	struct point_key *k = calloc(n ? n : 1, sizeof(*k));
	const json_t *v;
	size_t i, j;

	if (!k)
		return -1;
	for (i = 0; i < n; i++) {
		k[i].first = i;
		for (j = 0; j < i; j++)
			if (!strcmp(point_param(points[j]),
				    point_param(points[i])))
				break;
		k[i].param = j < i ? k[j].param : i;
		v = points[i] ? json_object_get(points[i], "value") : NULL;
		k[i].numeric = json_is_number(v);
		k[i].value = k[i].numeric ? json_number_value(v) : 0;
	}
	qsort(k, n, sizeof(*k), cmp_point_keys);
	for (i = 0; i < n; i++)
		rank[k[i].first] = i;
	free(k);
	return 0;
}

static int cmp_rows_none(const struct cmp_row *a, const struct cmp_row *b)
{
	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	return (a->group > b->group) - (a->group < b->group);
}

static enum cmp_sort_by sort_key;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct cmp_row *a = pa, *b = pb;
	int c;

	if (a->point != b->point)
		return a->point < b->point ? -1 : 1;
	if (sort_key == CMP_SORT_LABEL) {
		c = strcmp(a->label, b->label);
		if (c)
			return c;
	} else if (sort_key == CMP_SORT_AVG && a->avg != b->avg) {
		return a->avg > b->avg ? -1 : 1;
	}
	return cmp_rows_none(a, b);
}

/*
 * Builds the rows, one per group of every input; a file holding the same
 * sweep point twice (two outputs concatenated) gets "#2" on the second.
 */
struct cmp_row *cmp_build_rows(const struct cmp_input *in, size_t n_in,
			       size_t *n_rows)
{
	size_t i, j, k, n = 0, nr_points = 0, same, *rank = NULL;
	const json_t **points;
	struct cmp_row *rows;

	for (i = 0; i < n_in; i++)
		n += in[i].file.nr_groups;
	rows = calloc(n ? n : 1, sizeof(*rows));
	points = calloc(n ? n : 1, sizeof(*points));
	rank = calloc(n ? n : 1, sizeof(*rank));
	if (!rows || !points || !rank)
		goto fail;
	for (i = 0, k = 0; i < n_in; i++) {
		for (j = 0; j < in[i].file.nr_groups; j++, k++) {
			struct cmp_row *r = &rows[k];

			r->input = i;
			r->group = j;
			r->g = &in[i].file.groups[j];
			r->point = point_index(points, &nr_points, r->g->sweep);
			fill_row(r, &in[i]);
			same = (size_t)(r->g - results_find_group(&in[i].file,
								  r->g->sweep));
			if (same)
				snprintf(r->label, sizeof(r->label), "%s#%zu",
					 in[i].label, same + 1);
			warn_group(&in[i], r->g);
		}
	}
	if (rank_points(points, nr_points, rank))
		goto fail;
	for (k = 0; k < n; k++)
		rows[k].point = rank[rows[k].point];
	free(points);
	free(rank);
	*n_rows = n;
	return rows;
fail:
	free(rows);
	free(points);
	free(rank);
	return NULL;
}

int cmp_find_base(const struct cmp_input *in, size_t n, const char *base,
		  size_t *out)
{
	char list[512] = "";
	size_t i, used = 0;

	if (!base) {
		*out = 0;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(in[i].label, base)) {
			*out = i;
			return 0;
		}
	}
	/* The path as given on the command line is accepted too. */
	for (i = 0; i < n; i++) {
		if (!strcmp(in[i].file.path, base)) {
			*out = i;
			return 0;
		}
	}
	for (i = 0; i < n && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", i ? ", " : "", in[i].label);
	fprintf(stderr, CMP_PROG ": unknown --base label '%s' (labels: %s)\n", base,
		list);
	return -1;
}

/*
 * The statistics of row r against the base group bg: the ok runs of both
 * resampled for the interval of the ratio, ranked for the p-value, their
 * pooled noise turned into the runs a difference of resolve would need.
 */
static int set_inference(struct cmp_row *r, const struct result_group *bg,
			 double resolve)
{
	size_t nx, ny;
	struct infer_mw mw;
	double *x, *y;
	int ret = -1;

	x = results_values(r->g, results_run_throughput, &nx);
	y = results_values(bg, results_run_throughput, &ny);
	if (!x || !y)
		goto cleanup;
	ret = 0;
	if (nx < 2 || ny < 2) {
		r->few_runs = true;
		goto cleanup;
	}
	r->noise = infer_pooled_rel_sd(x, nx, y, ny);
	r->runs_needed = infer_runs_needed(r->noise, resolve, INFER_ALPHA,
					   INFER_POWER);
	if (r->runs_needed < 0)
		r->runs_needed = 0;
	if (r->is_base)
		goto cleanup;
	if (!infer_ratio_ci(x, nx, y, ny, NULL, r->ci)) {
		r->has_ci = true;
		r->significant = r->ci[0] > 1 || r->ci[1] < 1;
	}
	if (!infer_mann_whitney(x, nx, y, ny, INFER_MW_AUTO, &mw)) {
		r->has_p = true;
		r->p = mw.p;
	}
cleanup:
	free(x);
	free(y);
	return ret;
}

int cmp_set_ratios(struct cmp_row *rows, size_t n, const struct cmp_ctx *c)
{
	const struct result_group *bg;
	double bavg, bmin, bmax;
	size_t i;
	int bn;

	for (i = 0; i < n; i++) {
		rows[i].noise = NAN;
		bg = results_find_group(&c->in[c->base].file, rows[i].g->sweep);
		if (!bg)
			continue;
		rows[i].is_base = rows[i].g == bg;
		if (set_inference(&rows[i], bg, c->resolve))
			return -1;
		results_throughput(bg, &bavg, &bmin, &bmax, &bn);
		if (bn <= 0 || bavg <= 0)
			continue;
		rows[i].has_ratio = true;
		rows[i].ratio = rows[i].is_base ? 1.0 : rows[i].avg / bavg;
	}
	return 0;
}

void cmp_row_name(char *buf, size_t len, const struct cmp_row *r)
{
	if (*r->g->sweep_label)
		snprintf(buf, len, "%s %s", r->label, r->g->sweep_label);
	else
		snprintf(buf, len, "%s", r->label);
}

const char *cmp_row_kernel(const struct cmp_row *r, const struct cmp_input *in)
{
	if (r->g->summary.present && r->g->summary.kernel_release)
		return r->g->summary.kernel_release;
	return in[r->input].file.kernel_release;
}

void cmp_sort_rows(struct cmp_row *rows, size_t n, enum cmp_sort_by by)
{
	sort_key = by;
	qsort(rows, n, sizeof(*rows), cmp_rows);
}
