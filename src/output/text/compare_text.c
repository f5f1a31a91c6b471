// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as a table for people (columns as wide as their widest
 * cell, '-' for what a file does not have) or as CSV for a spreadsheet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "util/fmt.h"

enum col {
	COL_LABEL, COL_SWEEP, COL_RUNS, COL_AVG, COL_MIN, COL_MAX, COL_RATIO,
	COL_LAT, COL_RQ, COL_KERNEL, NR_COLS,
};

static const char *const col_title[NR_COLS] = {
	"label", "sweep", "runs", "avg msg/s", "min", "max", "ratio",
	"msg p99", "rq p99", "kernel",
};

static void row_cells(const struct cmp_row *r, const struct cmp_input *in,
		      char cell[NR_COLS][192])
{
	const char *kernel = in[r->input].file.kernel_release;

	if (r->g->summary.present && r->g->summary.kernel_release)
		kernel = r->g->summary.kernel_release;
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
	if (r->has_ratio)
		snprintf(cell[COL_RATIO], 192, "%.3f", r->ratio);
	else
		strcpy(cell[COL_RATIO], "-");
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

int cmp_print_table(const struct cmp_row *rows, size_t n,
		    const struct cmp_input *in)
{
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
	return 0;
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static void csv_field(const char *s, bool last)
{
	const char *p;

	if (s && strpbrk(s, ",\"\r\n")) {
		putchar('"');
		for (p = s; *p; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	} else if (s) {
		fputs(s, stdout);
	}
	putchar(last ? '\n' : ',');
}

static void csv_num(bool have, int decimals, double v)
{
	if (have)
		printf("%.*f", decimals, v);
	putchar(',');
}

void cmp_print_csv(const struct cmp_row *rows, size_t n,
		   const struct cmp_input *in)
{
	char value[192];
	size_t i;

	puts("label,sweep_param,sweep_value,runs,runs_attempted,avg,min,max,ratio,msg_p99_ns,rq_p99_ns,kernel_release,file");
	for (i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct result_group *g = r->g;
		const char *kernel = in[r->input].file.kernel_release;
		const char *eq = strchr(g->sweep_label, '=');

		if (g->summary.present && g->summary.kernel_release)
			kernel = g->summary.kernel_release;
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
		csv_field(in[r->input].file.path, true);
	}
}
