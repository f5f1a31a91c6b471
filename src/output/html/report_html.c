// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained page per set of result files, made
 * to be read at a glance.  A verdict first (and what the series could
 * resolve at all), then per run a throughput bar (slow runs in
 * vermillion, their causes in words beside them), then the runs on one
 * time axis: per-interval throughput above a heat map of run-queue
 * latency, so that a dip and its latency storm sit one above the other,
 * each run's start-up ramp and drain shaded apart from its dips; then
 * where the time went (each run's CPU and thread time budgets as stacked
 * bars, a slow run's grown lines marked); who took the CPU, per run, and
 * the distributions (run-queue latency per role, message latency, socket
 * queue depth) of normal against slow runs, and the flame graphs of runs
 * made with --profile.  Sweeps get throughput and p99 against the swept
 * value, several files the comparison table.
 * Everything is drawn as inline SVG from the loaded JSON (nothing
 * fetched: the page must open on a machine without network and from a
 * mail attachment; no script but the flame graphs' zoom, inline, only on
 * pages that have them, and the graphs read without it), with a colour-blind-safe palette (Okabe-Ito
 * for categories, a yellow-green-blue ramp for counts) and every text
 * escaped, since task names come from the kernel and may hold anything.
 * The markup is also well-formed XML, so that tests can parse it.  This
 * file holds the page around the sections (head, style, file lines, the
 * order of the sections) and writes it out whole or not at all; the
 * sections (sec_*.c) draw the views of view.c with the pieces of svg.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/proto.h"
#include "output/html/html_fmt.h"
#include "output/html/report_html.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"
#include "util/safe_file.h"

/* ---- the page ---------------------------------------------------------- */

static const char css[] =
	"body{font:14px/1.45 system-ui,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:#1d1d1f;background:#fff;margin:0 auto;padding:14px 24px;max-width:1150px}\n"
	"h1{font-size:22px;margin:0 0 4px}\n"
	"h2{font-size:18px;margin:30px 0 6px;border-bottom:2px solid #ddd;padding-bottom:2px}\n"
	"h3{font-size:15px;margin:22px 0 4px}\n"
	".meta{color:#555;font-size:12.5px;margin:0}\n"
	".verdict{margin:10px 0;padding:8px 14px;border-left:6px solid " C_NORMAL ";"
	"background:#eaf3fa;font-size:15px}\n"
	".verdict.bad{border-color:" C_SLOW ";background:#fcefe6}\n"
	".verdict p{margin:3px 0}\n"
	".verdict p.resolution:not(:first-child){font-size:13px;color:#444}\n"
	".where{font-weight:600;color:#444}\n"
	".note{color:#555;font-size:12.5px;margin:2px 0 8px}\n"
	"table{border-collapse:collapse}\n"
	"td,th{padding:3px 8px;vertical-align:middle;text-align:left}\n"
	"th{font-size:12.5px;color:#444;font-weight:600}\n"
	"table.runs td,table.cmp td{border-top:1px solid #eee}\n"
	"table.runs{width:100%}\n"
	"tr.slow td{background:#fcefe6}\n"
	"tr.failed td{color:#777}\n"
	".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".tag{display:inline-block;padding:0 6px;border-radius:3px;font-weight:700;"
	"font-size:12px;color:#fff;background:" C_SLOW "}\n"
	".tag.fail{background:" C_FAILED "}\n"
	".tag.quiet{background:none;color:#333;border:1px dashed #333;"
	"font-weight:600}\n"
	".okay{color:#777}\n"
	".why{font-size:13px}\n"
	"ol.causes{margin:2px 0 0;padding-left:20px;font-size:13px}\n"
	".small{font-size:12px;color:#666}\n"
	"svg{display:block;overflow:visible}\n"
	"svg text{font-size:11px;fill:#444}\n"
	"svg .title{font-size:13px;font-weight:600;fill:#1d1d1f}\n"
	"svg .lab{font-size:12px;font-weight:600}\n"
	"svg .slowlab{fill:" C_SLOW ";font-weight:700}\n"
	".grid{stroke:#e6e6e6;stroke-width:1}\n"
	".axis{stroke:#888;stroke-width:1}\n"
	".track{fill:#f1f1f1}\n"
	".run-bar{fill:" C_NORMAL "}\n"
	".run-bar.slow{fill:" C_SLOW "}\n"
	".run-bar.failed{fill:" C_FAILED "}\n"
	".run-bar.disturbed{stroke:#1d1d1f;stroke-width:1.5;"
	"stroke-dasharray:4 2}\n"
	".median{stroke:#222;stroke-width:1.5;stroke-dasharray:3 2}\n"
	".band{fill:" C_SLOW ";fill-opacity:.13}\n"
	".frame{fill:none;stroke:" C_SLOW ";stroke-width:2.5}\n"
	".dip{fill:#555;fill-opacity:.2}\n"
	".phase{fill:#999;fill-opacity:.15}\n"
	"svg .mark{font-size:10px;fill:#222;paint-order:stroke;stroke:#fff;"
	"stroke-width:3px}\n"
	".tp{fill:none;stroke:" C_NORMAL ";stroke-width:1.6}\n"
	".tparea{fill:" C_NORMAL ";fill-opacity:.12}\n"
	".p99{fill:none;stroke:#000;stroke-opacity:.8;stroke-width:1.4}\n"
	".sep{stroke:#999;stroke-width:1}\n"
	".hm{shape-rendering:crispEdges}\n"
	".dnorm{fill:" C_NORMAL ";fill-opacity:.28;stroke:" C_NORMAL ";stroke-width:1.2}\n"
	".dslow{fill:none;stroke:" C_SLOW ";stroke-width:2}\n"
	".charts{display:grid;grid-template-columns:repeat(3,1fr);gap:14px 18px}\n"
	".sweep{display:grid;grid-template-columns:repeat(3,1fr);gap:18px}\n"
	".key{display:inline-block;width:11px;height:11px;margin:0 4px 0 10px;"
	"vertical-align:-1px}\n"
	".key.quiet{background:" C_NORMAL ";outline:1.5px dashed #1d1d1f}\n"
	".hatch{fill:none;stroke-width:1.3}\n"
	".grown-mark{fill:none;stroke:#1d1d1f;stroke-width:1.2}\n"
	".grown-mark.much{stroke-width:2.6}\n"
	".key.grown-key{background:#fff;outline:1.2px solid #1d1d1f;"
	"margin-left:4px}\n"
	".key.grown-key.much{outline-width:2.6px}\n"
	".nowrap{white-space:nowrap}\n"
	".budget-key{line-height:1.9}\n"
	".budget-key .key{margin-left:12px}\n"
	".leader{stroke:#1d1d1f;stroke-width:.8}\n"
	".unexplained{color:#1d1d1f}\n";

static void page_head(FILE *f, const char *title, bool profiles)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width\"/>\n"
	      "<meta name=\"generator\" content=\"chatbench " CHATBENCH_VERSION
	      "\"/>\n<title>", f);
	html_esc(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	svg_heat_css(f);
	if (profiles)
		profile_css(f);
	fputs("</style>\n</head>\n<body>\n", f);
}

static void file_meta(FILE *f, const struct result_file *rf)
{
	const struct result_summary *s = NULL;
	size_t i;

	for (i = 0; i < rf->nr_groups && !s; i++)
		if (rf->groups[i].summary.present)
			s = &rf->groups[i].summary;
	fputs("<p class=\"meta\">", f);
	html_esc(f, rf->path);
	if (s) {
		fputs(" · kernel ", f);
		html_esc(f, s->kernel_release ? s->kernel_release : "?");
		fputs(" · host ", f);
		html_esc(f, s->host ? s->host : "?");
		fprintf(f, " · %d CPUs · %d users per room · tracing ", s->cpus,
			s->users_per_room);
		html_esc(f, s->tracing ? s->tracing : "?");
		if (s->command_line) {
			fputs(" · <code>", f);
			html_esc(f, s->command_line);
			fputs("</code>", f);
		}
		if (s->interrupted)
			fputs(" · <b>interrupted</b>", f);
	} else {
		fputs(" · no summary line (series cut short)", f);
	}
	fputs("</p>\n", f);
}

static char *file_label(const char *path)
{
	const char *start = strrchr(path, '/');
	size_t n;

	start = start ? start + 1 : path;
	n = strlen(start);
	if (n > 5 && !strcmp(start + n - 5, ".json"))
		n -= 5;
	return strndup(start, n);
}

/* ---- putting it together ----------------------------------------------- */

static void group_section(FILE *f, struct group_view *v, size_t budget,
			  bool heading)
{
	fprintf(f, "<section class=\"group\" id=\"g%d\">\n", v->id);
	if (heading) {
		fputs("<h2>", f);
		group_title(f, v);
		fputs("</h2>\n", f);
		verdict_box(f, v, 1, NULL, 1);
	}
	runs_section(f, v);
	timeline_section(f, v, budget);
	budget_section(f, v);
	stealers_section(f, v);
	dist_section(f, v);
	profile_section(f, v);
	fputs("</section>\n", f);
}

/* Labels for the files: the name without .json, the path when equal. */
static char **make_labels(const struct result_file *files, size_t nfiles)
{
	char **l = calloc(nfiles ? nfiles : 1, sizeof(*l));
	bool *dup = calloc(nfiles ? nfiles : 1, sizeof(*dup));
	size_t i, j, k;

	if (!l || !dup) {
		free(l);
		free(dup);
		return NULL;
	}
	for (i = 0; i < nfiles; i++)
		l[i] = file_label(files[i].path ? files[i].path : "?");
	for (i = 0; i < nfiles; i++) {
		dup[i] = !l[i] || !*l[i];
		for (j = 0; j < nfiles && l[i]; j++)
			dup[i] |= j != i && l[j] && !strcmp(l[i], l[j]);
	}
	for (i = 0; i < nfiles; i++) {
		if (!dup[i])
			continue;
		free(l[i]);
		/* The same path twice: numbered, so that rows differ. */
		for (j = 0, k = 1; j < i; j++)
			k += files[j].path && files[i].path &&
			     !strcmp(files[j].path, files[i].path);
		if (asprintf(&l[i], k > 1 ? "%s#%zu" : "%s",
			     files[i].path ? files[i].path : "?", k) < 0)
			l[i] = NULL;
	}
	free(dup);
	for (i = 0; i < nfiles; i++) {
		if (!l[i]) {
			for (j = 0; j < nfiles; j++)
				free(l[j]);
			free(l);
			return NULL;
		}
	}
	return l;
}

static int render(FILE *f, const struct result_file *files, size_t nfiles,
		  const struct report_opts *o, char **labels)
{
	size_t i, j, ngroups = 0, budget, nv = 0;
	struct group_view *views;
	bool profiles = profile_present(files, nfiles);
	int ret = -1;

	for (i = 0; i < nfiles; i++)
		ngroups += files[i].nr_groups;
	views = calloc(ngroups ? ngroups : 1, sizeof(*views));
	if (!views)
		return -1;
	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].nr_groups; j++, nv++)
			if (view_group(&views[nv], files, i, j, (int)nv))
				goto cleanup;
	/* Many heat maps share the page's weight: fewer columns each. */
	budget = o->max_columns ? o->max_columns : REPORT_HM_COLUMNS;
	if (ngroups > 2 && budget * 2 / ngroups < budget)
		budget = budget * 2 / ngroups > 40 ? budget * 2 / ngroups : 40;
	page_head(f, o->title ? o->title : "chatbench report", profiles);
	fputs("<h1>", f);
	html_esc(f, o->title ? o->title : "chatbench report");
	fputs("</h1>\n", f);
	for (i = 0; i < nfiles; i++)
		file_meta(f, &files[i]);
	if (o->clients)
		clients_section(f, o->clients, o->clients_series);
	else
		verdict_box(f, views, ngroups, labels, nfiles);
	if (nfiles > 1 && !o->clients) {
		compare_section(f, files, nfiles, labels);
		if (explain_section(f, files, nfiles, labels))
			goto cleanup;
	}
	if (sweep_section(f, files, nfiles, labels) ||
	    load_section(f, files, nfiles, labels))
		goto cleanup;
	for (i = 0, nv = 0; i < nfiles; i++) {
		if (nfiles > 1) {
			fputs("<h2 class=\"file\">", f);
			/* Each client's own file, after their merged view. */
			if (o->clients)
				fputs("client ", f);
			html_esc(f, labels[i]);
			fputs("</h2>\n", f);
			file_meta(f, &files[i]);
		}
		for (j = 0; j < files[i].nr_groups; j++, nv++) {
			if (files[i].nr_groups == 1 && nfiles == 1) {
				fputs("<h2>", f);
				group_title(f, &views[nv]);
				fputs("</h2>\n", f);
			}
			group_section(f, &views[nv], budget,
				      files[i].nr_groups > 1 || nfiles > 1);
		}
	}
	fputs("<p class=\"small\">Made by chatbench " CHATBENCH_VERSION
	      " from chat_c --json result files; a self-contained page, nothing fetched.</p>\n",
	      f);
	if (profiles)
		profile_script(f);
	fputs("</body>\n</html>\n", f);
	ret = 0;
cleanup:
	for (i = 0; i < ngroups; i++)
		free(views[i].runs);
	free(views);
	return ret;
}

int report_html_write_opts(const char *path, const struct result_file *files,
			   size_t nfiles, const struct report_opts *opts,
			   char *err, size_t len)
{
	struct report_opts o = { 0 };
	struct safe_file sf = { 0 };
	char **labels = NULL;
	FILE *f = NULL;
	bool to_stdout = !strcmp(path, "-");
	int ret = -1;
	size_t i;

	if (opts)
		o = *opts;
	if (!nfiles) {
		snprintf(err, len, "no result files to report on");
		return -1;
	}
	labels = make_labels(files, nfiles);
	if (!labels) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (to_stdout) {
		f = stdout;
	} else {
		/* Written whole beside path, then renamed onto it. */
		f = safe_file_open(&sf, path);
		if (!f) {
			snprintf(err, len, "cannot write %s: %s", path,
				 strerror(errno));
			goto cleanup;
		}
	}
	if (render(f, files, nfiles, &o, labels)) {
		snprintf(err, len, "out of memory");
		goto cleanup;
	}
	if (to_stdout && (fflush(f) || ferror(f))) {
		snprintf(err, len, "writing stdout: %s", strerror(errno));
		goto cleanup;
	}
	if (!to_stdout && safe_file_commit(&sf, NULL)) {
		snprintf(err, len, "writing %s: %s", path, strerror(errno));
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (sf.f)
		safe_file_abort(&sf);
	for (i = 0; i < nfiles; i++)
		free(labels[i]);
	free(labels);
	return ret;
}

int report_html_write(const char *path, const struct result_file *files,
		      size_t nfiles, char *err, size_t len)
{
	return report_html_write_opts(path, files, nfiles, NULL, err, len);
}
