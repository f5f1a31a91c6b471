// SPDX-License-Identifier: GPL-2.0
/*
 * Why each file differs from the first: for every file and sweep point
 * against the first file's, the sentence of chatbench-compare --explain,
 * both budgets per message side by side as the bars of the budget
 * section (a slower file's lines that grew marked), and the ranked
 * difference table with each line's interval.  Everything comes from
 * analysis/explain.c: the page computes no figure of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/view_budget.h"
#include "util/fmt.h"

/* The threads' bar segment of an explained line, or -1 (enum bt_seg). */
static int thr_seg(const char *name)
{
	int b;

	if (!strcmp(name, "threads:oncpu"))
		return BT_ONCPU;
	if (!strcmp(name, "wait:own"))
		return BT_WAIT_OWN;
	if (!strcmp(name, "wait:ksoftirqd"))
		return BT_WAIT_KSOFTIRQD;
	if (!strcmp(name, "wait:idle_cpu"))
		return BT_WAIT_IDLE;
	if (!strncmp(name, "wait:outsider_", 14))
		return BT_WAIT_OUTSIDER;
	if (!strcmp(name, "wait:softirq") || !strcmp(name, "wait:irq") ||
	    !strcmp(name, "wait:steal"))
		return BT_WAIT_KERNEL;
	if (!strcmp(name, "wait:throttled"))
		return BT_WAIT_THROTTLED;
	if (!strcmp(name, "wait:unknown"))
		return BT_WAIT_UNKNOWN;
	if (!strcmp(name, "threads:gone"))
		return BT_GONE;
	if (strncmp(name, "blocked:", 8))
		return -1;
	for (b = 0; b < CB_NR_BLOCKS; b++)
		if (!strcmp(name + 8, kb_block_names[b]))
			return BT_BLOCKED + b;
	return -1;
}

static int cpu_line(const char *name)
{
	int l;

	if (strncmp(name, "cpu:", 4))
		return -1;
	for (l = 0; l < KB_NR_CPU_LINES; l++)
		if (!strcmp(name + 4, kb_cpu_names[l]))
			return l;
	return -1;
}

/* One side's means per message as bars; grown marks a slower side's. */
static void side_bars(const struct explain *e, bool other,
		      struct budget_bars *bb, double *cpu_grown,
		      double *thr_grown)
{
	int i, s;

	memset(bb, 0, sizeof(*bb));
	memset(cpu_grown, 0, KB_NR_CPU_LINES * sizeof(*cpu_grown));
	memset(thr_grown, 0, BT_NR * sizeof(*thr_grown));
	for (i = 0; i < e->nlines; i++) {
		const struct ex_line *l = &e->line[i];
		double v = other ? l->value : l->base;

		/* Only a difference beyond the noise is marked. */
		double d = l->real ? l->diff : 0;

		if ((s = cpu_line(l->name)) >= 0) {
			bb->cpu[s] += v;
			cpu_grown[s] += d;
			bb->cpu_total += v;
		} else if ((s = thr_seg(l->name)) >= 0) {
			bb->thr[s] += v;
			/* Ended threads' time grows with any slowdown. */
			thr_grown[s] += s == BT_GONE ? 0 : d;
			bb->thr_total += v;
		}
	}
	bb->cpu_unit = "CPU time per message";
	bb->thr_unit = "threads' time per message";
	snprintf(bb->cpu_whole, sizeof(bb->cpu_whole),
		 "the CPUs' time per message");
	snprintf(bb->thr_whole, sizeof(bb->thr_whole),
		 "the threads' time per message");
	if (other && e->real && e->pct < 0) {
		bb->cpu_grown = cpu_grown;
		bb->thr_grown = thr_grown;
	}
}

static void cell_value(FILE *f, const struct ex_line *l, double v, bool sign)
{
	char b[32];

	if (sign && v >= 0)
		fputs("+", f);
	else if (sign)
		fputs("−", f);
	if (sign)
		v = fabs(v);
	if (!strcmp(l->unit, "ns") || !strcmp(l->unit, "ns/msg"))
		fputs(fmt_ns_spaced(b, sizeof(b), v), f);
	else if (!strcmp(l->unit, "pct"))
		fprintf(f, "%.1f %%", v);
	else if (!strcmp(l->unit, "bytes"))
		fprintf(f, "%.0f B", v);
	else
		fprintf(f, "%.3f", v);
}

/* Ranked lines, the budget lines that moved much, the real figures. */
static bool listed(const struct ex_line *l)
{
	if (l->rank)
		return true;
	if (l->part == EX_FIGURES)
		return l->real;
	return fabs(l->share) >= 0.05 || (l->real && fabs(l->diff) >= 5);
}

static void diff_table(FILE *f, const struct explain *e, const char *label,
		       const char *base)
{
	static const char *const part_words[EX_NR_PARTS] = {
		"threads", "CPUs", "figure",
	};
	int i, r, pass, maxr = e->nranked[EX_THREADS];

	if (e->nranked[EX_CPUS] > maxr)
		maxr = e->nranked[EX_CPUS];
	fputs("<table class=\"cmp explain\">\n<tr><th>line</th><th></th><th class=\"num\">", f);
	html_esc(f, base);
	fputs("</th><th class=\"num\">", f);
	html_esc(f, label);
	fputs("</th><th class=\"num\">difference</th><th class=\"num\">95 % CI</th><th class=\"num\">share</th><th class=\"num\">rank</th></tr>\n",
	      f);
	/* Ranked first, in rank order, threads before CPUs; then the rest. */
	for (pass = 1; pass <= maxr + 1; pass++) {
		r = pass <= maxr ? pass : 0;
		for (i = 0; i < e->nlines; i++) {
			const struct ex_line *l = &e->line[i];

			if (!listed(l) || (r ? l->rank != r : l->rank != 0))
				continue;
			fprintf(f, "<tr class=\"ex-line%s\" data-line=\"",
				l->rank ? " ranked" : l->real ? "" : " noise");
			html_esc(f, l->name);
			fputs("\"><td>", f);
			html_esc(f, l->words);
			fprintf(f, "</td><td class=\"small\">%s</td><td class=\"num\">",
				part_words[l->part]);
			cell_value(f, l, l->base, false);
			fputs("</td><td class=\"num\">", f);
			cell_value(f, l, l->value, false);
			fputs("</td><td class=\"num\">", f);
			cell_value(f, l, l->diff, true);
			fputs("</td><td class=\"num\">", f);
			if (l->has_ci) {
				cell_value(f, l, l->ci[0], true);
				fputs(" to ", f);
				cell_value(f, l, l->ci[1], true);
				if (!l->real)
					fputs(" (holds 0)", f);
			} else {
				fputs("–", f);
			}
			fputs("</td><td class=\"num\">", f);
			if (l->part != EX_FIGURES)
				fprintf(f, "%.0f %%", 100 * l->share);
			fputs("</td><td class=\"num\">", f);
			if (l->rank)
				fprintf(f, "%d", l->rank);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void explain_pair(FILE *f, const struct explain *e, const char *label,
			 const char *base, const char *point, int id)
{
	double cpu_grown[KB_NR_CPU_LINES], thr_grown[BT_NR];
	struct budget_bars bb, bo;
	char sentence[1024];

	fputs("<h3 class=\"explain\">Why ", f);
	html_esc(f, label);
	if (*point) {
		fputs(" ", f);
		html_esc(f, point);
	}
	fputs(" differs from ", f);
	html_esc(f, base);
	fputs("</h3>\n<p class=\"explain-sentence\">", f);
	html_esc(f, explain_sentence(e, label, base, sentence,
				     sizeof(sentence)));
	fputs("</p>\n", f);
	if (explain_caveat(e)) {
		fputs("<p class=\"note explain-caveat\">Note: ", f);
		html_esc(f, explain_caveat(e));
		fputs("</p>\n", f);
	}
	if (!e->valid)
		return;
	/* Both to one scale: the slower file's bars are the longer. */
	side_bars(e, false, &bb, cpu_grown, thr_grown);
	side_bars(e, true, &bo, cpu_grown, thr_grown);
	bb.cpu_span = bo.cpu_span = fmax(bb.cpu_total, bo.cpu_total);
	bb.thr_span = bo.thr_span = fmax(bb.thr_total, bo.thr_total);
	fputs("<table class=\"runs budget explain\">\n<tr class=\"budget-run\"><td>",
	      f);
	html_esc(f, base);
	fputs("</td><td>", f);
	budget_bars_svg(f, &bb, id, 0);
	fputs("</td></tr>\n<tr class=\"budget-run\"><td>", f);
	html_esc(f, label);
	fputs("</td><td>", f);
	budget_bars_svg(f, &bo, id, 1);
	fputs("</td></tr>\n</table>\n", f);
	diff_table(f, e, label, base);
}

int explain_section(FILE *f, const struct result_file *files, size_t nfiles,
		    char **labels)
{
	struct explain *e = malloc(sizeof(*e));
	char err[256];
	size_t i, j;
	int id = 10000, ret = -1;

	if (!e)
		return -1;
	fputs("<h2>Why the files differ</h2>\n<p class=\"note\">Each file against the first at the same point, as <code>chatbench-compare --explain</code> says it: "
	      "the means over the runs of the CPUs' and the benchmark threads' time per message, each bar as wide as its whole; "
	      "in a slower file the lines that grew are outlined. In the table, each difference with its 95 % bootstrap interval over the runs, "
	      "and each budget line's share of the difference of its whole; lines are ranked only when both the throughput's and the line's intervals exclude 0.</p>\n",
	      f);
	for (i = 1; i < nfiles; i++) {
		for (j = 0; j < files[i].nr_groups; j++) {
			const struct result_group *g = &files[i].groups[j];
			const struct result_group *bg =
				results_find_group(&files[0], g->sweep);

			if (!bg)
				continue;
			if (explain_groups(g, bg, e, err, sizeof(err))) {
				fprintf(stderr, "chatbench-report: %s: %s\n",
					files[i].path, err);
				goto cleanup;
			}
			explain_pair(f, e, labels[i], labels[0],
				     g->sweep_label, id++);
		}
	}
	ret = 0;
cleanup:
	free(e);
	return ret;
}
