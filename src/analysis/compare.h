/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison of result files (chatbench-compare): a row per file and
 * sweep point with its throughput, its ratio to the base file's at the
 * same point with whether the runs say that ratio is real (its interval,
 * a rank test, the runs a small difference would need), and the median
 * latencies, built from files loaded by src/results/results.c.  The
 * tool's main is src/study/compare_main.c, its table and CSV
 * src/output/text/compare_text.c, its JSON src/output/json/compare_json.c.
 */
#ifndef CHATBENCH_COMPARE_H
#define CHATBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/explain_record.h"
#include "results/results.h"

#define CMP_PROG	"chatbench-compare"

enum cmp_label_by { CMP_LABEL_FILE, CMP_LABEL_KERNEL };
enum cmp_sort_by { CMP_SORT_NONE, CMP_SORT_LABEL, CMP_SORT_AVG };

struct cmp_input {
	struct result_file file;
	char *label;
};

struct cmp_row {
	size_t input;		/* index into the inputs */
	size_t group;		/* index into its file's groups */
	size_t point;		/* rank of its sweep point (rank_points) */
	const struct result_group *g;
	char label[192];
	int runs;
	int attempted;
	double avg, min, max;
	bool has_ratio;
	double ratio;
	bool is_base;		/* the base file's group at this point */
	bool few_runs;		/* < 2 ok runs on a side: no CI, p, runs */
	bool has_ci;
	double ci[2];		/* INFER_LEVEL bootstrap interval of ratio */
	bool significant;	/* ci excludes 1 */
	bool has_p;
	double p;		/* Mann-Whitney of the runs against the base's */
	int runs_needed;	/* per side to resolve cmp_ctx.resolve; 0: - */
	double noise;		/* pooled relative robust SD; NAN: unknown */
	bool has_lat;
	double lat_p99;
	bool has_rq;
	double rq_p99;
	struct explain *ex;	/* --explain, against the base; or NULL */
};

/* Labels from file names or kernel releases, equal ones told apart. */
int cmp_make_labels(struct cmp_input *in, size_t n, enum cmp_label_by by);
/* The input labelled (or named) base, 0 without; -1 after one line. */
int cmp_find_base(const struct cmp_input *in, size_t n, const char *base,
		  size_t *out);
/* One row per group of every input, warnings on stderr; NULL: no memory. */
struct cmp_row *cmp_build_rows(const struct cmp_input *in, size_t n_in,
			       size_t *n_rows);

/* What every row is compared against, and how. */
struct cmp_ctx {
	const struct cmp_input *in;
	size_t n_in;
	size_t base;		/* index of the base input */
	double resolve;		/* relative difference runs_needed is for */
	bool explain;		/* rows carry their explanations */
};

/*
 * Each row's ratio to the base group at its point, and the statistics of
 * that ratio; the base group's own row gets ratio 1 and runs_needed at
 * its own noise, no interval or p-value.  -1 when out of memory.
 */
int cmp_set_ratios(struct cmp_row *rows, size_t n, const struct cmp_ctx *c);
/*
 * --explain: every row that has a base group at its point, other than
 * the base's own, gets its difference explained (analysis/explain.h).
 * -1 with a one-line reason in err (a malformed run line, no memory).
 */
int cmp_explain_rows(struct cmp_row *rows, size_t n, const struct cmp_ctx *c,
		     char *err, size_t len);
/* Frees the rows and what they own. */
void cmp_free_rows(struct cmp_row *rows, size_t n);
/* Points in order, rows of one point by the key. */
void cmp_sort_rows(struct cmp_row *rows, size_t n, enum cmp_sort_by by);

/* The table and its legend on stdout; -1 when out of memory. */
int cmp_print_table(const struct cmp_row *rows, size_t n,
		    const struct cmp_ctx *c);
/* RFC 4180 CSV with a header line, on stdout. */
void cmp_print_csv(const struct cmp_row *rows, size_t n,
		   const struct cmp_ctx *c);
/* JSON lines on stdout: a "compare" header object, then one per row. */
int cmp_print_json(const struct cmp_row *rows, size_t n,
		   const struct cmp_ctx *c);
/*
 * --explain as text (the sentence, the budgets side by side, the
 * figures) after the table; as CSV, one row per row and line instead of
 * the table's.
 */
int cmp_print_explain(const struct cmp_row *rows, size_t n,
		      const struct cmp_ctx *c);
void cmp_print_explain_csv(const struct cmp_row *rows, size_t n,
			   const struct cmp_ctx *c);
/* A row as the outputs name it: "label", or "label rooms=4" in a sweep. */
void cmp_row_name(char *buf, size_t len, const struct cmp_row *r);
/* The kernel release of a row: its summary's, else its file's; or NULL. */
const char *cmp_row_kernel(const struct cmp_row *r, const struct cmp_input *in);

#endif
