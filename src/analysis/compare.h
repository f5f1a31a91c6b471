/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comparison of result files (chatbench-compare): a row per file and
 * sweep point with its throughput, its ratio to the base file's at the
 * same point, and the median latencies, built from files loaded by
 * src/output/json/results.c.  The tool's main is src/analysis/compare.c,
 * its table src/output/text/compare_text.c.
 */
#ifndef CHATBENCH_COMPARE_H
#define CHATBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json/results.h"

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
	bool has_lat;
	double lat_p99;
	bool has_rq;
	double rq_p99;
};

/* Labels from file names or kernel releases, equal ones told apart. */
int cmp_make_labels(struct cmp_input *in, size_t n, enum cmp_label_by by);
/* The input labelled (or named) base, 0 without; -1 after one line. */
int cmp_find_base(const struct cmp_input *in, size_t n, const char *base,
		  size_t *out);
/* One row per group of every input, warnings on stderr; NULL: no memory. */
struct cmp_row *cmp_build_rows(const struct cmp_input *in, size_t n_in,
			       size_t *n_rows);
void cmp_set_ratios(struct cmp_row *rows, size_t n,
		    const struct cmp_input *in, size_t base);
/* Points in order, rows of one point by the key. */
void cmp_sort_rows(struct cmp_row *rows, size_t n, enum cmp_sort_by by);

/* The table on stdout; -1 when out of memory. */
int cmp_print_table(const struct cmp_row *rows, size_t n,
		    const struct cmp_input *in);
/* RFC 4180 CSV with a header line, on stdout. */
void cmp_print_csv(const struct cmp_row *rows, size_t n,
		   const struct cmp_input *in);

#endif
