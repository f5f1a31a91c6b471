/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the HTML report's sections draw, prepared from the loaded result
 * files: per group, its runs with their verdicts, time budgets and place
 * on the time axis; the heat map's columns; histogram buckets merged
 * across runs; the outsider tasks ranked by the CPU they took; the points
 * of a sweep.  Gathering across runs and files happens here, once, so that a
 * section only lays out and draws; a section still reads a run's own
 * small objects (its causes, dips, stealers) straight from its JSON.
 */
#ifndef CHATBENCH_REPORT_VIEW_H
#define CHATBENCH_REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/html/jget.h"
#include "output/html/run_view.h"
#include "results/results.h"

#define HM_PER_OCTAVE	2	/* heat-map rows per octave of latency */
#define HM_NR_ROWS	(64 * HM_PER_OCTAVE)

/*
 * A cause kind's words for a newcomer, from the diagnosis' one table
 * (analysis/causes.h); a kind it does not know (a newer file) shows as
 * its name, a missing one as "unknown cause".
 */
const char *view_cause_words(const char *kind);

/* The log-linear scale of the kernel's histograms, k bins per octave. */
int ll_bin(uint64_t lo, int k);
double ll_pos(double v, int k);
/*
 * Heat-map row of a bucket starting at lo: two rows per octave,
 * 2 * floor(log2 lo) + (lo >= 1.5 * 2^floor(log2 lo)); lo 0 is row 0.
 */
int report_hm_row(uint64_t lo);

/* Histogram buckets of several runs, for their percentiles and shape. */
struct bset {
	struct results_bucket *b;
	size_t n;
	size_t cap;
	uint64_t total;
};

int bset_add(struct bset *s, const json_t *arr);
uint64_t bset_pct(struct bset *s, double p);
void bset_free(struct bset *s);

struct group_view {
	const struct result_file *file;
	const struct result_group *g;
	size_t file_idx;
	int id;			/* unique on the page */
	struct run_view *runs;
	size_t n;
	size_t nslow;
	size_t nquiet;		/* disturbed, throughput within the noise */
	size_t nok;
	size_t ntraced;
	size_t nbudget;		/* runs with a valid time budget */
	size_t nserver;		/* runs with figures of the server's host */
	const char *server_name;	/* its name, from the first of them */
	bool has_verdicts;	/* the runs carry the diagnosis' "slow" */
	const json_t *verdict;	/* the summary's; NULL in older files */
	double median;
	double max_tp;
};

/*
 * A dip inside a run as the diagnosis found it: depth against the run's
 * steady median and the noise of its intervals (0 when the file does
 * not say), and its cause in words, NULL when unexplained.
 */
struct dip_view {
	double from_s, to_s;
	double throughput;
	double median;
	double depth_pct;
	double noise_pct;
	const char *words;
	const char *sentence;
};

void view_dip(const json_t *d, struct dip_view *out);
const char *view_dip_says(char *b, size_t n, const struct dip_view *d);

int view_group(struct group_view *v, const struct result_file *files,
	       size_t file, size_t group, int id);

/* A group's heat map: a column is merge consecutive intervals of a run. */
struct hm_col {
	size_t run;
	uint64_t t0_ns;		/* from the run's start */
	uint64_t dur_ns;
	uint64_t messages;
	uint64_t p99_ns;	/* the worst interval's, when merged */
	uint64_t *rows;		/* HM_NR_ROWS counts */
};

struct timeline {
	struct hm_col *cols;
	size_t ncols;
	size_t nintervals;
	size_t merge;
	uint64_t *counts;
	int rmin, rmax;		/* non-empty rows; rmax < rmin: none */
	uint64_t max_count;
	double max_tp;
	size_t ncells;
};

int timeline_build(struct timeline *t, const struct group_view *v,
		   size_t budget);
void timeline_free(struct timeline *t);

/* A task outside the benchmark and the CPU it took over a group. */
struct outsider {
	const char *comm;
	double ns;
};

size_t rank_outsiders(const struct group_view *v, struct outsider *out,
		      size_t max);

/* A sweep: one series per file, one point per swept value. */
struct sweep_pt {
	const struct result_group *g;
	double value;		/* a named value's place in the sweep */
	const char *text;	/* a named value (sched=batch), else NULL */
	double avg, min, max;
	int runs;
	bool has_lat, has_rq;
	double lat, rq;
};

struct sweep_series {
	const char *label;
	struct sweep_pt *pt;
	size_t n;
};

struct sweep {
	const char *param;	/* NULL: no group is a sweep point */
	struct sweep_series *ser;
	size_t ns;
	size_t cap;		/* slots in ser, freed by sweep_free */
	double *vals;		/* the swept values, in increasing order */
	size_t nv;
};

int sweep_build(struct sweep *sw, const struct result_file *files,
		size_t nfiles, char **labels);
void sweep_free(struct sweep *sw);
size_t value_index(const double *vals, size_t nv, double v);
/* The name of swept value v when the sweep names its values, or NULL. */
const char *sweep_value_text(const struct sweep *sw, double v);

#endif
