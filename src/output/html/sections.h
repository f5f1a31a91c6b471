/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sections of the HTML report, each drawing one view of the loaded
 * results (view.h) with the SVG pieces (svg.h); report_html.c lays them
 * out on the page.  The colours here are the ones the sections agree
 * on, and the page's CSS with them: blue for normal runs, vermillion for
 * slow ones, grey for failed ones (Okabe-Ito: told apart by every common
 * kind of colour blindness); a run disturbed but not slow stays blue
 * with a dashed outline, a mark that needs no colour vision at all.
 */
#ifndef CHATBENCH_REPORT_SECTIONS_H
#define CHATBENCH_REPORT_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/html/view.h"

#define C_NORMAL	"#0072B2"
#define C_SLOW		"#D55E00"
#define C_FAILED	"#999999"

/* sec_runs.c: the verdict and the throughput of each run. */
void group_title(FILE *f, const struct group_view *v);
void verdict_box(FILE *f, const struct group_view *v, size_t n,
		 char *const *labels, size_t nfiles);
void runs_section(FILE *f, const struct group_view *v);

/* sec_timeline.c: throughput over a heat map of run-queue latency. */
void timeline_section(FILE *f, struct group_view *v, size_t budget);

/*
 * sec_budget.c: where the time went, per run: the CPUs' and the benchmark
 * threads' time budgets as stacked bars, a slow run's grown lines marked.
 * Nothing when no run of the group has a budget (older files).
 */
void budget_section(FILE *f, const struct group_view *v);

/*
 * One budget's two bars, as budget_section draws a run's: the CPUs'
 * lines (enum kb_cpu_line) and the threads' segments (enum bt_seg), each
 * bar as wide as its whole (or its span); with growths, the lines that
 * grew are marked.
 * Units and wholes are the tooltips' words ("s", "2 CPUs × 1.2 s").
 */
struct budget_bars {
	double cpu[KB_NR_CPU_LINES];
	double thr[BT_NR];
	const double *cpu_grown;	/* NULL: nothing marked */
	const double *thr_grown;
	double cpu_total, thr_total;
	const char *cpu_unit, *thr_unit;
	char cpu_whole[80], thr_whole[80];
	/* What a bar's full width stands for, to draw two to one scale. */
	double cpu_span, thr_span;	/* 0: each bar's own whole */
};
void budget_bars_svg(FILE *f, const struct budget_bars *bb, int gid,
		     int run);
/*
 * sec_budget.c: which host a group's kernel figures are of, when the
 * server's host was traced (chat_s on another machine); nothing if not.
 */
void host_note(FILE *f, const struct group_view *v);

/*
 * sec_clients.c: the files of one run's clients merged into one view
 * (results/merge_clients.h): the verdict on the merged series, each
 * client's throughput and the run's, every host's budget by its name.
 */
struct clients_merge;
struct series;
void clients_section(FILE *f, const struct clients_merge *m,
		     const struct series *s);

/* sec_stealers.c: who took the CPU from waiting benchmark threads. */
void stealers_section(FILE *f, const struct group_view *v);

/* sec_dist.c: latency and queue-depth histograms, normal against slow. */
void dist_section(FILE *f, const struct group_view *v);

/*
 * sec_profile.c: flame graphs of the runs made with --profile, per role.
 * The page holds its CSS and its zoom script only when profile_present.
 */
bool profile_present(const struct result_file *files, size_t nfiles);
void profile_css(FILE *f);
void profile_section(FILE *f, const struct group_view *v);
void profile_script(FILE *f);

/* sec_sweep.c: figures against the swept value; 0, or -1 out of memory. */
int sweep_section(FILE *f, const struct result_file *files, size_t nfiles,
		  char **labels);

/* sec_load.c: latency against achieved rate of rate sweeps; -1 OOM. */
int load_section(FILE *f, const struct result_file *files, size_t nfiles,
		 char **labels);

/* sec_compare.c: one row per file and sweep point. */
void compare_section(FILE *f, const struct result_file *files,
		     size_t nfiles, char **labels);

/*
 * sec_explain.c: why each file differs from the first (compare
 * --explain): the sentence, both budgets' bars, the ranked differences.
 * 0, or -1 when a run line is malformed or memory runs out.
 */
int explain_section(FILE *f, const struct result_file *files, size_t nfiles,
		    char **labels);

#endif
