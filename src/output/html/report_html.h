/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report of one or more chat_c result files: a single
 * self-contained page (inline CSS and SVG, nothing fetched; one inline
 * script, the flame graphs' zoom, only when a run has a profile) that
 * shows at a glance which runs were slow and why.  chat_c --report
 * and chatbench-report both render it from loaded result files
 * (src/results/results.h), so the page says the same thing whichever wrote
 * it.
 *
 * Elements the tests count: one class="run-bar" per run line (plus
 * "slow" on runs the diagnosis called slow, "failed" on failed runs), and
 * one class="hm-cell" per non-empty heat-map cell.  A heat-map cell is a
 * (column, row) pair with a non-zero count: a column is M consecutive
 * intervals of one run, M given by the heat map's data-merge attribute
 * (1 unless the group holds more intervals than the column budget), a
 * row a half octave of run-queue latency (report_hm_row, view.h).  The heat map
 * is the svg with id "hm-N" (N numbers the groups on the page), which
 * also carries data-intervals, data-columns and data-cells.  Runs with a
 * "profile" add, per role and kind, a <div class="fg" data-role
 * data-kind> around one <svg class="flame"> (svg_flame.h) that says in
 * data-frames how many <g class="fr"> frames it draws.  Runs with a time
 * budget get two <g class="bbar cpu|threads" id="gN-budget-runR-cpu|threads"
 * data-width="W"> whose <rect class="bseg"> segments (data-line: the
 * line, a <title> each) add up to W; a slow run's lines that grew carry
 * "grown" too.
 */
#ifndef CHATBENCH_REPORT_HTML_H
#define CHATBENCH_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/* Heat-map columns per group when nothing else is asked for. */
struct clients_merge;
struct series;

#define REPORT_HM_COLUMNS	150

struct report_opts {
	/*
	 * Heat-map column budget per group (0: REPORT_HM_COLUMNS): a group
	 * with n intervals in all has its intervals merged by
	 * M = ceil(n / budget) inside each run (a run's last column may hold
	 * fewer).  With more than two groups on the page the budget of each
	 * is 2 * max_columns / groups, at least 40, so that the page keeps
	 * its weight (under 0.5 MB for 10 runs of 30 rooms x 1000 messages).
	 */
	size_t max_columns;
	const char *title;	/* NULL: "chatbench report" */
	/*
	 * The files are one run's clients (results/merge_clients.h): their
	 * merged view and its judged series open the page, in place of the
	 * verdicts and the comparison of the files as settings.  NULL: not.
	 */
	const struct clients_merge *clients;
	const struct series *clients_series;
};

/*
 * Renders files[0..nfiles) into path ("-": stdout).  One file: its runs
 * (a sweep section first when it has several groups); several files: the
 * comparison table first, then each file.  The page is written to
 * PATH.tmp and renamed, so a reader never sees half of one.  0 on
 * success; -1 with a one-line reason in err.
 */
int report_html_write(const char *path, const struct result_file *files,
		      size_t nfiles, char *err, size_t len);
int report_html_write_opts(const char *path, const struct result_file *files,
			   size_t nfiles, const struct report_opts *opts,
			   char *err, size_t len);

#endif
