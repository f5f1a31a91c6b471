// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as a table for people (columns as wide as their widest
 * cell, '-' for what a file does not have, a legend that says which
 * ratios are real) or as CSV for a spreadsheet.  The table stays under
 * 100 columns for short labels: the runs a difference needs go in the
 * legend, one figure per row, rather than in one more column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/infer.h"
#include "output/text/csv.h"
#include "util/fmt.h"

enum col {
	COL_LABEL, COL_SWEEP, COL_RUNS, COL_AVG, COL_MIN, COL_MAX, COL_RATIO,
	COL_CI, COL_P, COL_LAT, COL_RQ, COL_KERNEL, NR_COLS,
};

static const char *const col_title[NR_COLS] = {
	"label", "sweep", "runs", "avg msg/s", "min", "max", "ratio",
	"95% CI", "p", "msg p99", "rq p99", "kernel",
};

/* "0.012", "<0.001": what a reader needs of a p-value. */
static void fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void row_cells(const struct cmp_row *r, const struct cmp_input *in,
		      char cell[NR_COLS][192])
{
	const char *kernel = cmp_row_kernel(r, in);

	snprintf(cell[COL_LABEL], 192, "%s", r->label);
	snprintf(cell[COL_SWEEP], 192, "%s",
		 *r->g->sweep_label ? r->g->sweep_label : "-");
	if (r->attempted > r->runs)
		snprintf(cell[COL_RUNS], 192, "%d/%d", r->runs, r->attempted);
	else
		snprintf(cell[COL_RUNS], 192, "%d", r->runs);
	if (r->runs > 0) {
		snprintf(cell[COL_AVG], 192, "%.0f", r->avg);
		snprintf(cell[COL_MIN], 192, "%.0f", r->min);
		snprintf(cell[COL_MAX], 192, "%.0f", r->max);
	} else {
		strcpy(cell[COL_AVG], "-");
		strcpy(cell[COL_MIN], "-");
		strcpy(cell[COL_MAX], "-");
	}
	/* The mark after the figure; a space keeps the digits aligned. */
	if (r->has_ratio)
		snprintf(cell[COL_RATIO], 192, "%.3f%c", r->ratio,
			 r->significant ? '*' : ' ');
	else
		strcpy(cell[COL_RATIO], "- ");
	if (r->has_ci)
		snprintf(cell[COL_CI], 192, "%.3f-%.3f", r->ci[0], r->ci[1]);
	else
		strcpy(cell[COL_CI], "-");
	if (r->has_p)
		fmt_p(cell[COL_P], 192, r->p);
	else
		strcpy(cell[COL_P], "-");
	if (r->has_lat)
		fmt_ns(cell[COL_LAT], 192, r->lat_p99);
	else
		strcpy(cell[COL_LAT], "-");
	if (r->has_rq)
		fmt_ns(cell[COL_RQ], 192, r->rq_p99);
	else
		strcpy(cell[COL_RQ], "-");
	snprintf(cell[COL_KERNEL], 192, "%s", kernel ? kernel : "-");
}

/* Words of a legend line, wrapped before 80 columns, indented by 2. */
struct wrap {
	size_t col;
	bool any;
};

static void wrap_word(struct wrap *w, const char *word)
{
	size_t len = strlen(word);

	if (w->any && w->col + 2 + len > 79) {
		fputs(",\n ", stdout);
		w->col = 1;
	} else if (w->any) {
		fputs(",", stdout);
		w->col++;
	}
	w->col += (size_t)printf(" %s", word);
	w->any = true;
}

/*
 * What the marks mean, which rows have too few runs for them, and the
 * runs per side each comparison would need to resolve c->resolve.
 */
static void print_legend(const struct cmp_row *rows, size_t n,
			 const struct cmp_ctx *c)
{
	struct wrap few = { 0 }, need = { 0 };
	bool compared = false;
	char name[256];
	size_t i;

	for (i = 0; i < n; i++)
		compared |= rows[i].has_ratio && !rows[i].is_base;
	if (compared) {
		printf("*: the ratio's 95%% CI excludes 1 (bootstrap of the runs, %d resamples)\n",
		       INFER_BOOT_B);
		printf("p: two-sided Mann-Whitney rank test of the runs against the base's (%s)\n",
		       c->in[c->base].label);
	}
	for (i = 0; i < n; i++) {
		if (!rows[i].few_runs || rows[i].is_base)
			continue;
		if (!few.any)
			few.col = (size_t)printf("-: fewer than 2 ok runs on a side:");
		cmp_row_name(name, sizeof(name), &rows[i]);
		wrap_word(&few, name);
	}
	if (few.any)
		putchar('\n');
	for (i = 0; i < n; i++) {
		if (!rows[i].runs_needed)
			continue;
		if (!need.any) {
			printf("runs per side to resolve %g%% at the noise measured (alpha %g, power %g):\n ",
			       100 * c->resolve, INFER_ALPHA, INFER_POWER);
			need.col = 1;
		}
		cmp_row_name(name, sizeof(name), &rows[i]);
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 " %d", rows[i].runs_needed);
		wrap_word(&need, name);
	}
	if (need.any)
		putchar('\n');
}

int cmp_print_table(const struct cmp_row *rows, size_t n,
		    const struct cmp_ctx *ctx)
{
	const struct cmp_input *in = ctx->in;
	char (*cells)[NR_COLS][192] = calloc(n ? n : 1, sizeof(*cells));
	size_t width[NR_COLS], i, c;
	bool show_sweep = false, left;

	if (!cells)
		return -1;
	for (c = 0; c < NR_COLS; c++)
		width[c] = strlen(col_title[c]);
	for (i = 0; i < n; i++) {
		row_cells(&rows[i], in, cells[i]);
		show_sweep |= *rows[i].g->sweep_label != '\0';
		for (c = 0; c < NR_COLS; c++)
			if (strlen(cells[i][c]) > width[c])
				width[c] = strlen(cells[i][c]);
	}
	for (i = 0; i <= n; i++) {
		for (c = 0; c < NR_COLS; c++) {
			const char *s = i ? cells[i - 1][c] : col_title[c];

			if (c == COL_SWEEP && !show_sweep)
				continue;
			left = c == COL_LABEL || c == COL_SWEEP;
			if (c == COL_KERNEL)
				printf("  %s\n", s);	/* last: no padding */
			else if (c == COL_LABEL)
				printf("%-*s", (int)width[c], s);
			else
				printf("  %*s", left ? -(int)width[c] :
						       (int)width[c], s);
		}
	}
	free(cells);
	print_legend(rows, n, ctx);
	return 0;
}

/* The columns after "file" came later: old readers stop before them. */
void cmp_print_csv(const struct cmp_row *rows, size_t n,
		   const struct cmp_ctx *c)
{
	const struct cmp_input *in = c->in;
	char value[192];
	size_t i;

	puts("label,sweep_param,sweep_value,runs,runs_attempted,avg,min,max,ratio,msg_p99_ns,rq_p99_ns,kernel_release,file,ratio_ci95_low,ratio_ci95_high,p_value,runs_needed");
	for (i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct result_group *g = r->g;
		const char *kernel = cmp_row_kernel(r, in);
		const char *eq = strchr(g->sweep_label, '=');

		snprintf(value, sizeof(value), "%s", eq ? eq + 1 : "");
		csv_field(r->label, false);
		csv_field(g->sweep_param ? g->sweep_param : "", false);
		csv_field(value, false);
		printf("%d,%d,", r->runs, r->attempted);
		csv_num(r->runs > 0, 3, r->avg);
		csv_num(r->runs > 0, 3, r->min);
		csv_num(r->runs > 0, 3, r->max);
		csv_num(r->has_ratio, 3, r->ratio);
		csv_num(r->has_lat, 0, r->lat_p99);
		csv_num(r->has_rq, 0, r->rq_p99);
		csv_field(kernel ? kernel : "", false);
		csv_field(in[r->input].file.path, false);
		csv_num(r->has_ci, 6, r->ci[0]);
		csv_num(r->has_ci, 6, r->ci[1]);
		if (r->has_p)
			printf("%.6g", r->p);
		putchar(',');
		if (r->runs_needed)
			printf("%d", r->runs_needed);
		putchar('\n');
	}
}
