// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-compare --explain as text and CSV: for every row against the
 * base, the sentence, then the threads' and the CPUs' time per message
 * side by side with each difference, its interval and its share of the
 * throughput difference, the ranked lines first, then the figures behind
 * them.  Lines that are zero on both sides are left out of the text (the
 * CSV and the JSON have every line).  A file of a sweep first gets a line
 * that says from which point on it differs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/explain.h"
#include "output/text/csv.h"
#include "output/text/wrap.h"
#include "util/fmt.h"

static const char *const part_title[EX_NR_PARTS] = {
	[EX_THREADS] = "Threads' time per message, thread-us (threads x wall / messages):",
	[EX_CPUS] = "CPUs' time per message, CPU-us (CPUs x wall / messages):",
	[EX_FIGURES] = "Figures behind them:",
};

static const char *const part_name[EX_NR_PARTS] = {
	[EX_THREADS] = "threads", [EX_CPUS] = "cpus", [EX_FIGURES] = "figures",
};

/* A value in the line's unit; budget lines in microseconds. */
static const char *fmt_value(char *buf, size_t len, const struct ex_line *l,
			     double v, bool sign)
{
	const char *fmt = sign ? "%+.*f%s" : "%.*f%s";

	if (!strcmp(l->unit, "ns")) {
		char t[24];

		fmt_ns(t, sizeof(t), fabs(v));
		snprintf(buf, len, "%s%s", sign ? (v < 0 ? "-" : "+") : "", t);
	} else if (!strcmp(l->unit, "ns/msg")) {
		snprintf(buf, len, fmt, 2, v / 1000,
			 l->part == EX_FIGURES ? "us" : "");
	} else if (!strcmp(l->unit, "pct")) {
		snprintf(buf, len, fmt, 1, v, "%");
	} else if (!strcmp(l->unit, "bytes")) {
		snprintf(buf, len, fmt, 0, v, "B");
	} else {
		snprintf(buf, len, fmt, 3, v, "");
	}
	return buf;
}

/* Budget lines that would print as 0.00 on both sides say nothing. */
static bool shown(const struct ex_line *l)
{
	if (l->part == EX_FIGURES)
		return l->nb && l->no;
	return fabs(l->base) >= 5 || fabs(l->value) >= 5;
}

/* Ranked lines first, then the rest by their share, largest first. */
static int by_rank(const void *pa, const void *pb)
{
	const struct ex_line *a = *(const struct ex_line *const *)pa;
	const struct ex_line *b = *(const struct ex_line *const *)pb;

	if (a->rank && b->rank)
		return a->rank - b->rank;
	if (a->rank || b->rank)
		return a->rank ? -1 : 1;
	if (a->part == EX_FIGURES)
		return a < b ? -1 : a > b;
	return (a->share < b->share) - (a->share > b->share);
}

static void print_part(const struct explain *e, enum ex_part part,
		       const char *base, const char *label)
{
	const struct ex_line *l[EX_MAX_LINES];
	char b[32], v[32], d[40], lo[32], hi[32], ci[80], sh[16], rk[8];
	int i, n = 0;

	for (i = 0; i < e->nlines; i++)
		if (e->line[i].part == part && shown(&e->line[i]))
			l[n++] = &e->line[i];
	if (!n)
		return;
	qsort(l, (size_t)n, sizeof(l[0]), by_rank);
	printf("  %s\n    %-24s %10.10s %10.10s %11s  %-23s %6s %4s\n",
	       part_title[part], "", base, label, "diff", "95% CI",
	       part == EX_FIGURES ? "" : "share",
	       part == EX_FIGURES ? "" : "rank");
	for (i = 0; i < n; i++) {
		fmt_value(b, sizeof(b), l[i], l[i]->base, false);
		fmt_value(v, sizeof(v), l[i], l[i]->value, false);
		snprintf(d, sizeof(d), "%s%c",
			 fmt_value(lo, sizeof(lo), l[i], l[i]->diff, true),
			 l[i]->real ? '*' : ' ');
		if (l[i]->has_ci) {
			fmt_value(lo, sizeof(lo), l[i], l[i]->ci[0], true);
			fmt_value(hi, sizeof(hi), l[i], l[i]->ci[1], true);
			snprintf(ci, sizeof(ci), "%s to %s", lo, hi);
		} else {
			snprintf(ci, sizeof(ci), "-");
		}
		sh[0] = rk[0] = '\0';
		if (part != EX_FIGURES) {
			snprintf(sh, sizeof(sh), "%.0f%%",
				 fabs(l[i]->share) < 0.005 ? 0 :
				 100 * l[i]->share);
			if (l[i]->rank)
				snprintf(rk, sizeof(rk), "%d", l[i]->rank);
		}
		printf("    %-24s %10s %10s %11s  %-23s %6s %4s\n",
		       l[i]->name, b, v, d, ci, sh, rk);
	}
	if (part != EX_FIGURES && e->nranked[part])
		printf("    %-24s %10s %10s %11s  %-23s %5.0f%%\n",
		       "unexplained", "", "", "", "",
		       100 * e->unexplained[part]);
}

/*
 * One file along a sweep: from which point on it differs from the base
 * (analysis/explain.c's onset), said once before the points' detail.
 */
static void along_sweep(const struct cmp_row *rows, size_t n,
			const struct cmp_ctx *c, size_t input)
{
	const struct explain **e = calloc(n ? n : 1, sizeof(*e));
	const struct cmp_row **r = calloc(n ? n : 1, sizeof(*r));
	const char *base = c->in[c->base].label, *how;
	char text[600], what[400];
	size_t i, m = 0, on;
	bool lat;

	if (!e || !r)
		goto cleanup;
	/* Rows are in point order already (cmp_sort_rows). */
	for (i = 0; i < n; i++) {
		if (rows[i].input != input || !rows[i].ex ||
		    !*rows[i].g->sweep_label)
			continue;
		e[m] = rows[i].ex;
		r[m++] = &rows[i];
	}
	if (m < 2)
		goto cleanup;
	on = explain_onset(e, m);
	lat = e[m - 1]->metric == EX_LATENCY;
	how = lat ? (e[m - 1]->pct > 0 ? "higher" : "lower") :
		    (e[m - 1]->pct < 0 ? "slower" : "faster");
	snprintf(what, sizeof(what), "%s%s is %s than %s%s", r[0]->label,
		 lat ? "'s message latency p99" : "", how, base,
		 lat ? "'s" : "");
	if (on == m)
		snprintf(text, sizeof(text),
			 "%s differs from %s by more than the noise at no point up to the sweep's end",
			 r[0]->label, base);
	else if (on == 0)
		snprintf(text, sizeof(text), "%s at every point of the sweep",
			 what);
	else
		snprintf(text, sizeof(text), "%s from %s on", what,
			 r[on]->g->sweep_label);
	text_wrap(stdout, "Along the sweep: ", text, 98, 5);
cleanup:
	free(e);
	free(r);
}

int cmp_print_explain(const struct cmp_row *rows, size_t n,
		      const struct cmp_ctx *c)
{
	const char *base = c->in[c->base].label;
	char title[256], sentence[1024];
	bool tables = false;
	size_t i, k;

	for (k = 0; k < c->n_in; k++)
		if (k != c->base)
			along_sweep(rows, n, c, k);
	for (i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		enum ex_part p;

		if (!r->ex)
			continue;
		cmp_row_name(title, sizeof(title), r);
		printf("\n%s against %s\n", title, base);
		explain_sentence(r->ex, r->label, base, sentence,
				 sizeof(sentence));
		text_wrap(stdout, "  ", sentence, 98, 2);
		if (explain_caveat(r->ex))
			text_wrap(stdout, "  Note: ", explain_caveat(r->ex), 98,
				  8);
		if (!r->ex->valid)
			continue;
		tables = true;
		for (p = 0; p < EX_NR_PARTS; p++)
			print_part(r->ex, p, base, r->label);
	}
	if (tables) {
		puts("\n*: the difference's 95% CI excludes 0 (bootstrap of the runs' means);");
		puts("share: of the difference in the part's time per message, in the direction of the");
		puts("change (throughput; open-loop runs: latency); rank: lines that account for it,");
		puts("ranked only when both the change's and the line's intervals exclude 0.");
	}
	return 0;
}

void cmp_print_explain_csv(const struct cmp_row *rows, size_t n,
			   const struct cmp_ctx *c)
{
	const char *base = c->in[c->base].label;
	size_t i;
	int j;

	puts("label,base,sweep_param,sweep_value,metric,change_pct,change_pct_ci95_low,change_pct_ci95_high,interleaved,part,line,unit,base_value,value,diff,diff_ci95_low,diff_ci95_high,real,share,rank");
	for (i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct explain *e = r->ex;
		const char *eq = strchr(r->g->sweep_label, '=');

		if (!e || !e->valid)
			continue;
		for (j = 0; j < e->nlines; j++) {
			const struct ex_line *l = &e->line[j];

			csv_field(r->label, false);
			csv_field(base, false);
			csv_field(r->g->sweep_param ? r->g->sweep_param : "",
				  false);
			csv_field(eq ? eq + 1 : "", false);
			csv_field(e->metric == EX_LATENCY ? "latency_p99" :
							    "throughput", false);
			csv_num(e->has_pct, 3, e->pct);
			csv_num(e->has_ci, 3, e->pct_ci[0]);
			csv_num(e->has_ci, 3, e->pct_ci[1]);
			printf("%d,", e->interleaved);
			csv_field(part_name[l->part], false);
			csv_field(l->name, false);
			csv_field(l->unit, false);
			csv_num(l->nb > 0, 3, l->base);
			csv_num(l->no > 0, 3, l->value);
			csv_num(l->nb && l->no, 3, l->diff);
			csv_num(l->has_ci, 3, l->ci[0]);
			csv_num(l->has_ci, 3, l->ci[1]);
			printf("%d,", l->real);
			csv_num(l->part != EX_FIGURES, 4, l->share);
			printf("%d\n", l->rank);
		}
	}
}
