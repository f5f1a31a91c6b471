// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained page per set of result files, made
 * to be read at a glance.  A verdict sentence first, then per run a
 * throughput bar (slow runs in vermillion, their causes in words beside
 * them), then the runs on one time axis: per-interval throughput above a
 * heat map of run-queue latency, so that a dip and its latency storm sit
 * one above the other; then who took the CPU, per run, and the
 * distributions (run-queue latency per role, message latency, socket
 * queue depth) of normal against slow runs.  Sweeps get throughput and
 * p99 against the swept value, several files the comparison table.
 * Everything is drawn here as inline SVG from the loaded JSON (no
 * script, nothing fetched: the page must open on a machine without
 * network and from a mail attachment), with a colour-blind-safe palette
 * (Okabe-Ito for categories, a viridis ramp for counts) and every text
 * escaped, since task names come from the kernel and may hold anything.
 * The markup is also well-formed XML, so that tests can parse it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/proto.h"
#include "output/html/fmt.h"
#include "output/html/report_html.h"
#include "output/html/svg.h"
#include "output/html/view.h"
#include "util/roles.h"

#define DIST_PER_OCTAVE	4	/* histogram bins per octave, at most */
#define DIST_NR_BINS	(64 * DIST_PER_OCTAVE)
#define DIST_FINE_MIN	5000	/* fewer samples: 2 bins per octave */
#define MAX_STEALERS	6	/* tasks named per run; the rest summed */

/* Okabe-Ito: told apart by every common kind of colour blindness. */
#define C_NORMAL	"#0072B2"
#define C_SLOW		"#D55E00"
#define C_FAILED	"#999999"

/* The diagnosis' cause kinds (src/analysis/diagnose.c) in a newcomer's words. */
static const struct {
	const char *kind;
	const char *words;
} cause_words[] = {
	{ "outsider_cpu", "another task took the CPUs" },
	{ "sched_contention", "benchmark threads queued behind each other" },
	{ "cpu_idle", "CPUs sat idle" },
	{ "softirq", "network softirq work grew" },
	{ "socket_backpressure", "socket buffers filled up" },
	{ "benchmark_work", "more CPU per message" },
	{ "hypervisor_steal", "the hypervisor took CPU time" },
};

static const char *words_of(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(cause_words) / sizeof(cause_words[0]); i++)
		if (kind && !strcmp(kind, cause_words[i].kind))
			return cause_words[i].words;
	return kind ? kind : "unknown cause";
}

static void group_title(FILE *f, const struct group_view *v)
{
	const struct result_summary *s = &v->g->summary;
	const struct result_run *r0 = v->n ? &v->g->runs[0] : NULL;
	int rooms = s->present ? s->rooms : r0 ? r0->rooms : 0;
	int msgs = s->present ? s->messages : r0 ? r0->messages : 0;

	if (*v->g->sweep_label) {
		html_esc(f, v->g->sweep_label);
		fputs(": ", f);
	}
	fprintf(f, "%d room%s × %d message%s, %zu run%s", rooms,
		rooms == 1 ? "" : "s", msgs, msgs == 1 ? "" : "s", v->n,
		v->n == 1 ? "" : "s");
}

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
	".median{stroke:#222;stroke-width:1.5;stroke-dasharray:3 2}\n"
	".band{fill:" C_SLOW ";fill-opacity:.13}\n"
	".frame{fill:none;stroke:" C_SLOW ";stroke-width:2.5}\n"
	".dip{fill:#555;fill-opacity:.13}\n"
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
	"vertical-align:-1px}\n";

static void page_head(FILE *f, const char *title)
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

/* The first cause of a slow run in words, with its task when named. */
static void first_cause(FILE *f, const struct run_view *rv)
{
	const json_t *c = json_array_get(json_object_get(rv->r->json, "causes"),
					 0);
	const char *task = jstr(c, "task");

	if (!c) {
		fputs(rv->kernel ? "no kernel-side cause stands out" :
				   "untraced, no kernel figures to explain it",
		      f);
		return;
	}
	html_esc(f, words_of(jstr(c, "kind")));
	if (task && *task) {
		fputs(" (<b>", f);
		html_esc(f, task);
		fprintf(f, "</b>, pid %d)",
			(int)json_integer_value(json_object_get(c, "pid")));
	}
	fprintf(f, ", %.0f %% of the loss",
		100 * json_number_value(json_object_get(c, "share")));
}

/*
 * The verdict of one group as sentences, each led by where (the file and
 * sweep point) when the page holds several groups.
 */
static void verdict_lines(FILE *f, const struct group_view *v,
			  const char *where)
{
	char a[32], b[32], c[32];
	double lo = 0, hi = 0;
	size_t i;

	for (i = 0; i < v->n; i++) {
		double t = v->runs[i].r->throughput;

		if (v->runs[i].failed)
			continue;
		if (!hi || t < lo)
			lo = t;
		if (t > hi)
			hi = t;
	}
	if (!v->nok) {
		fputs("<p>", f);
		if (where && *where) {
			fputs("<span class=\"where\">", f);
			html_esc(f, where);
			fputs(":</span> ", f);
		}
		fputs("<b>no run completed.</b></p>", f);
		return;
	}
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (!rv->slow)
			continue;
		fputs("<p>", f);
		if (where && *where) {
			fputs("<span class=\"where\">", f);
			html_esc(f, where);
			fputs(":</span> ", f);
		}
		fprintf(f, "<b style=\"color:" C_SLOW "\">Run %d was slow</b>: %s msg/s, ",
			rv->r->run, fmt_rate(a, sizeof(a), rv->r->throughput));
		/* Against a --baseline, the reference is not these runs'. */
		if (rv->shortfall >= 0.005)
			fprintf(f, "%.0f %% below the median %s msg/s. ",
				100 * rv->shortfall,
				fmt_rate(b, sizeof(b), v->median));
		else
			fputs("below its reference (a baseline's median). ", f);
		fputs("<b>Why:</b> ", f);
		first_cause(f, rv);
		fputs(".</p>", f);
	}
	if (!v->nslow) {
		fputs("<p>", f);
		if (where && *where) {
			fputs("<span class=\"where\">", f);
			html_esc(f, where);
			fputs(":</span> ", f);
		}
		if (v->has_verdicts)
			fprintf(f, "<b>No slow run</b>: %zu run%s between %s and %s msg/s (median %s msg/s).</p>",
				v->nok, v->nok == 1 ? "" : "s",
				fmt_rate(a, sizeof(a), lo),
				fmt_rate(b, sizeof(b), hi),
				fmt_rate(c, sizeof(c), v->median));
		else
			fprintf(f, "%zu run%s between %s and %s msg/s; the file carries no slow-run diagnosis.</p>",
				v->nok, v->nok == 1 ? "" : "s",
				fmt_rate(a, sizeof(a), lo),
				fmt_rate(b, sizeof(b), hi));
	}
	if (v->nok < v->n)
		fprintf(f, "<p>%zu run%s failed.</p>", v->n - v->nok,
			v->n - v->nok == 1 ? "" : "s");
}

/* One box for the groups v[0..n): vermillion when any run was slow. */
static void verdict_box(FILE *f, const struct group_view *v, size_t n,
			char *const *labels, size_t nfiles)
{
	size_t i, nslow = 0;
	char where[256];

	for (i = 0; i < n; i++)
		nslow += v[i].nslow;
	fprintf(f, "<div class=\"verdict%s\">", nslow ? " bad" : "");
	for (i = 0; i < n; i++) {
		const char *sweep = v[i].g->sweep_label;

		if (nfiles > 1 && labels)
			snprintf(where, sizeof(where), "%s%s%s",
				 labels[v[i].file_idx], *sweep ? " " : "",
				 sweep);
		else
			snprintf(where, sizeof(where), "%s", n > 1 ? sweep : "");
		verdict_lines(f, &v[i], where);
	}
	fputs("</div>\n", f);
}

/* ---- throughput per run ------------------------------------------------ */

#define BAR_W	420.0

static void bar_axis(FILE *f, double max)
{
	svg_tick_row(f, BAR_W + 30, BAR_W, max, nice_step(max, 5),
		     max * 1.0001, fmt_rate_tick);
}

static void run_causes(FILE *f, const struct run_view *rv)
{
	const json_t *causes = json_object_get(rv->r->json, "causes"), *c;
	size_t i;

	if (!json_array_size(causes)) {
		fprintf(f, "<div class=\"why\">%s</div>",
			rv->kernel ? "no kernel-side cause stands out: kernel figures were at baseline" :
				     "untraced: no kernel figures to explain it");
		return;
	}
	fputs("<ol class=\"causes\">", f);
	json_array_foreach(causes, i, c) {
		fputs("<li><b>", f);
		html_esc(f, words_of(jstr(c, "kind")));
		fprintf(f, "</b> (%.0f %% of the loss): ",
			100 * json_number_value(json_object_get(c, "share")));
		html_esc(f, jstr(c, "sentence"));
		fputs("</li>", f);
	}
	fputs("</ol>", f);
}

/* Dips in one short line; the diagnosis' sentence shows on hover. */
static void run_dips(FILE *f, const struct run_view *rv)
{
	const json_t *dips = json_object_get(rv->r->json, "dips"), *d;
	char a[32];
	size_t i;

	json_array_foreach(dips, i, d) {
		fprintf(f, "%s<span title=\"", i ? ", " :
			" <span class=\"small\">dips inside the run: ");
		html_esc(f, jstr(d, "sentence"));
		fprintf(f, "\">%.1f–%.1f s at %s msg/s</span>",
			json_number_value(json_object_get(d, "from_s")),
			json_number_value(json_object_get(d, "to_s")),
			fmt_rate(a, sizeof(a), json_number_value(
				json_object_get(d, "throughput"))));
	}
	if (json_array_size(dips))
		fputs("</span>", f);
}

static void runs_table(FILE *f, const struct group_view *v)
{
	double max = v->max_tp > 0 ? v->max_tp * 1.05 : 1;
	char a[32];
	size_t i;

	fputs("<h3>Throughput per run</h3>\n<p class=\"note\">One bar per run, in messages per second (sent + received over the run's elapsed time); "
	      "<span class=\"key\" style=\"background:" C_SLOW "\"></span>slow run (the diagnosis' verdict) "
	      "<span class=\"key\" style=\"background:" C_NORMAL "\"></span>normal run; dashed line: median of the runs.</p>\n",
	      f);
	fputs("<table class=\"runs\">\n<tr><th>run</th><th>", f);
	bar_axis(f, max);
	fputs("</th><th class=\"num\">msg/s</th><th class=\"num\">vs median</th><th>verdict and causes</th></tr>\n",
	      f);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		const char *cls = rv->failed ? " failed" :
				  rv->slow ? " slow" : "";
		double w = rv->failed ? 0 : rv->r->throughput / max * BAR_W;

		fprintf(f, "<tr class=\"run%s\" id=\"g%d-run%d\"><td class=\"num\"><b>%d</b></td><td>",
			cls, v->id, rv->r->run, rv->r->run);
		svg_bar_track(f, BAR_W + 30, BAR_W, 20);
		fprintf(f, "<rect class=\"run-bar%s\" x=\"0\" y=\"2\" width=\"%.1f\" height=\"16\"><title>run %d: %.0f msg/s</title></rect>",
			cls, w, rv->r->run, rv->r->throughput);
		if (v->median > 0)
			fprintf(f, "<line class=\"median\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"20\"/>",
				v->median / max * BAR_W,
				v->median / max * BAR_W);
		fputs("</svg></td>", f);
		if (rv->failed) {
			fputs("<td class=\"num\">–</td><td class=\"num\">–</td><td><span class=\"tag fail\">FAILED</span> ",
			      f);
			html_esc(f, rv->r->error ? rv->r->error : "");
			fputs("</td></tr>\n", f);
			continue;
		}
		/* No "-0.0 %" for the median run itself. */
		fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%+.1f %%</td><td>",
			fmt_rate(a, sizeof(a), rv->r->throughput),
			fabs(rv->shortfall) < 5e-4 ? 0.0 : -100 * rv->shortfall);
		if (rv->slow) {
			fputs("<span class=\"tag\">SLOW</span>", f);
			run_causes(f, rv);
		} else {
			fputs("<span class=\"okay\">normal</span>", f);
		}
		run_dips(f, rv);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- the timeline: throughput over a run-queue latency heat map -------- */

#define TL_W	1100.0
#define TL_L	74.0	/* left margin: axis labels */
#define TL_R	14.0
#define TL_GAP	8.0	/* between runs */
#define TL_TOP	30.0	/* run labels above */
#define TP_H	130.0	/* throughput panel */
#define HM_GAP	16.0

/* Runs side by side, each as wide as it lasted. */
static void layout_runs(struct group_view *v)
{
	double pw = TL_W - TL_L - TL_R, x = TL_L, total = 0, usable;
	size_t i, nseg = 0;

	for (i = 0; i < v->n; i++) {
		total += (double)v->runs[i].span_ns;
		nseg += v->runs[i].span_ns > 0;
	}
	usable = pw - TL_GAP * (nseg > 1 ? (double)(nseg - 1) : 0);
	for (i = 0; i < v->n; i++) {
		struct run_view *rv = &v->runs[i];

		rv->x0 = x;
		rv->w = total > 0 ? (double)rv->span_ns / total * usable : 0;
		if (rv->w > 0)
			x += rv->w + TL_GAP;
	}
}

static double col_x(const struct run_view *rv, uint64_t t_ns)
{
	if (!rv->span_ns)
		return rv->x0;
	return rv->x0 + (double)t_ns / (double)rv->span_ns * rv->w;
}

static void run_label(FILE *f, const struct run_view *rv, double y)
{
	const char *cls = rv->slow ? "lab slowlab" : "lab";

	if (rv->w < 14)
		return;
	fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		cls, rv->x0 + rv->w / 2, y);
	if (rv->w >= 48)
		fprintf(f, "run %d%s", rv->r->run,
			rv->slow ? " · SLOW" : rv->failed ? " · failed" : "");
	else
		fprintf(f, "%d", rv->r->run);
	fputs("</text>", f);
}

static void tp_panel(FILE *f, const struct group_view *v,
		     const struct timeline *t, double top)
{
	struct svg_box box = { TL_L, top, TL_W - TL_L - TL_R, TP_H };
	double max = t->max_tp > 0 ? t->max_tp * 1.08 : 1;
	double y, bot = top + TP_H;
	size_t i, c;

	svg_y_grid(f, &box, 5, max, nice_step(max, 4), fmt_rate_tick);
	svg_y_title(f, 14, top + TP_H / 2, "msg/s");
	/* Dips the diagnosis found, where they were inside their run. */
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		const json_t *dips = json_object_get(rv->r->json, "dips"), *d;
		size_t k;

		json_array_foreach(dips, k, d) {
			double x0 = col_x(rv, (uint64_t)(1e9 *
				json_number_value(json_object_get(d, "from_s"))));
			double x1 = col_x(rv, (uint64_t)(1e9 *
				json_number_value(json_object_get(d, "to_s"))));

			if (x1 - x0 < 2)
				x1 = x0 + 2;
			fprintf(f, "<rect class=\"dip\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
				x0, top, x1 - x0, TP_H);
		}
	}
	/* One step line per run: a run's intervals touch, runs do not. */
	for (i = 0, c = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		bool first = true;
		double x0 = 0, x1 = 0;

		if (c >= t->ncols || t->cols[c].run != i)
			continue;
		fputs("<path class=\"tp\" d=\"", f);
		for (; c < t->ncols && t->cols[c].run == i; c++) {
			const struct hm_col *col = &t->cols[c];
			double tp = col->dur_ns ? (double)col->messages * 1e9 /
							  (double)col->dur_ns : 0;

			x1 = col_x(rv, col->t0_ns + col->dur_ns);
			y = bot - tp / max * TP_H;
			if (first) {
				x0 = col_x(rv, col->t0_ns);
				fprintf(f, "M%.1f %.1fH%.1f", x0, y, x1);
			} else {
				fprintf(f, "V%.1fH%.1f", y, x1);
			}
			first = false;
		}
		fprintf(f, "\"/><path class=\"tparea\" d=\"M%.1f %.1fH%.1fV%.1fH%.1fZ\"/>",
			x0, bot, x0, bot, x1);
	}
	svg_axis_line(f, TL_L, TL_W - TL_R, bot);
}

static void hm_panel(FILE *f, const struct group_view *v,
		     const struct timeline *t, double top, double rh)
{
	int nrows = t->rmax - t->rmin + 1;
	double bot = top + nrows * rh, y, dec;
	size_t i, c;
	char a[32];
	bool first;

	/* Decade grid lines and labels on the log-linear scale. */
	for (dec = 1; dec < 1e12; dec *= 10) {
		double p = ll_pos(dec, HM_PER_OCTAVE);

		if (p < t->rmin || p > t->rmax + 1)
			continue;
		y = bot - (p - t->rmin) * rh;
		svg_grid_line(f, TL_L - 3, TL_W - TL_R, y, TL_L - 5,
			      fmt_decade(a, sizeof(a), dec, false));
	}
	svg_y_title(f, 14, top + nrows * rh / 2, "run-queue latency");
	fputs("<g class=\"hm\">\n", f);
	for (c = 0; c < t->ncols; c++) {
		const struct hm_col *col = &t->cols[c];
		const struct run_view *rv = &v->runs[col->run];
		double x0 = col_x(rv, col->t0_ns);

		svg_heat_column(f, x0, bot - (t->rmax - t->rmin + 1) * rh,
				col_x(rv, col->t0_ns + col->dur_ns) - x0, rh,
				col->rows, t->rmin, t->rmax, t->max_count);
	}
	fputs("</g>\n", f);
	/* The p99 of each interval as a line through the storm. */
	for (i = 0, c = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		first = true;
		for (; c < t->ncols && t->cols[c].run == i; c++) {
			const struct hm_col *col = &t->cols[c];
			double p;

			if (!col->p99_ns)
				continue;
			p = ll_pos((double)col->p99_ns, HM_PER_OCTAVE);
			p = p < t->rmin ? t->rmin : p > t->rmax + 1 ?
				t->rmax + 1 : p;
			y = bot - (p - t->rmin) * rh;
			fprintf(f, "%s%.1f %.1fH%.1f", first ?
				"<path class=\"p99\" d=\"M" : "L",
				col_x(rv, col->t0_ns), y,
				col_x(rv, col->t0_ns + col->dur_ns));
			first = false;
		}
		if (!first)
			fputs("\"/>", f);
	}
	svg_axis_line(f, TL_L, TL_W - TL_R, bot);
}

static void hm_legend(FILE *f, const struct timeline *t, double y)
{
	double x = TL_L;

	fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">samples per cell:</text>", x,
		y + 10);
	x = svg_heat_legend(f, x + 104, y, t->max_count);
	fprintf(f, "<path class=\"p99\" d=\"M%.1f %.1fH%.1f\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>",
		x + 10, y + 6, x + 34, x + 40, y + 10,
		t->merge > 1 ? "p99 (its worst interval)" :
			       "p99 of the interval");
}

static void timeline(FILE *f, struct group_view *v, size_t budget)
{
	double rh, hm_top, bot, h;
	struct timeline t;
	char per[96] = "interval";
	size_t i;

	fputs("<h3>Over time: throughput above run-queue latency</h3>\n", f);
	if (timeline_build(&t, v, budget)) {
		fputs("<p class=\"note\">(out of memory drawing the timeline)</p>\n",
		      f);
		goto cleanup;
	}
	if (!t.nintervals) {
		fputs("<p class=\"note\">No per-interval series: the runs were not traced.</p>\n",
		      f);
		goto cleanup;
	}
	layout_runs(v);
	if (t.merge > 1)
		snprintf(per, sizeof(per), "%zu consecutive intervals (%zu in all)",
			 t.merge, t.nintervals);
	fprintf(f, "<p class=\"note\">The runs one after the other, each as wide as it lasted; one column per %s. "
		"Top: messages per second in each column. Bottom: how long the benchmark's threads waited on a run queue "
		"before running, in half-octave rows (log scale); colour: how many wakeups waited that long in that column; "
		"black line: the column's p99; grey bands: dips the diagnosis found inside a run. A dip in the line above a column that is dark high up is a latency storm "
		"slowing the run.</p>\n", per);
	if (t.rmax >= t.rmin) {
		int nrows = t.rmax - t.rmin + 1;

		rh = 240.0 / nrows;
		rh = rh < 3 ? 3 : rh > 9 ? 9 : rh;
		rh = floor(rh * 2) / 2;
	} else {
		rh = 0;
	}
	hm_top = TL_TOP + TP_H + HM_GAP;
	bot = hm_top + (t.rmax >= t.rmin ? (t.rmax - t.rmin + 1) * rh : 0);
	h = bot + 66;
	fprintf(f, "<svg class=\"timeline\" id=\"hm-%d\" data-intervals=\"%zu\" data-merge=\"%zu\" data-columns=\"%zu\" data-cells=\"%zu\" "
		"viewBox=\"0 0 %.0f %.0f\" width=\"100%%\">\n",
		v->id, t.nintervals, t.merge, t.ncols, t.ncells, TL_W, h);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (rv->w <= 0)
			continue;
		/*
		 * A slow run: tinted behind its throughput, framed around
		 * its heat map (a tint there would blend with pale cells).
		 */
		if (rv->slow)
			fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
				"<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
				rv->x0 - 2, TL_TOP - 16, rv->w + 4,
				TP_H + 16, rv->x0 - 2, hm_top - 2, rv->w + 4,
				bot - hm_top + 20);
		run_label(f, rv, TL_TOP - 6);
		if (rv->w >= 30)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f s</text>",
				rv->x0 + rv->w / 2, bot + 14,
				(double)rv->span_ns / 1e9);
		if (i + 1 < v->n)
			fprintf(f, "<line class=\"sep\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
				rv->x0 + rv->w + TL_GAP / 2,
				rv->x0 + rv->w + TL_GAP / 2, TL_TOP, bot);
	}
	tp_panel(f, v, &t, TL_TOP);
	if (t.rmax >= t.rmin)
		hm_panel(f, v, &t, hm_top, rh);
	fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">time →, each run's length under it</text>",
		TL_W - TL_R, bot + 60);
	if (t.rmax >= t.rmin)
		hm_legend(f, &t, bot + 28);
	fputs("</svg>\n", f);
cleanup:
	timeline_free(&t);
}

/* ---- who took the CPU -------------------------------------------------- */

static const char *task_colour(const struct outsider *tc, size_t n,
			       const json_t *s)
{
	const char *comm = jstr(s, "comm");
	size_t i;

	if (json_is_true(json_object_get(s, "is_benchmark"))) {
		const char *role = jstr(s, "role");
		int r = role ? role_by_name(role) : -1;

		return role_table[r >= 0 ? r : CB_ROLE_OTHER].colour;
	}
	for (i = 0; i < n && i < SVG_NR_CAT_COLOURS; i++)
		if (comm && !strcmp(tc[i].comm, comm))
			return svg_cat_colours[i];
	return "#8c8c8c";
}

#define ST_W	440.0

/* CPU time in ns as a tick in seconds: "0.5 s". */
static const char *seconds_tick(char *b, size_t n, double v, double step)
{
	(void)step;
	snprintf(b, n, "%g s", v / 1e9);
	return b;
}

static void stealers(FILE *f, const struct group_view *v)
{
	struct outsider tc[64];
	size_t ntc, i, k;
	double max = 0;
	char a[32];

	if (!v->ntraced)
		return;
	ntc = rank_outsiders(v, tc, sizeof(tc) / sizeof(tc[0]));
	for (i = 0; i < v->n; i++) {
		const json_t *st = json_object_get(v->runs[i].kernel,
						   "stealers"), *s;
		double sum = 0;

		json_array_foreach(st, k, s)
			sum += (double)ju64(json_object_get(s, "ns"));
		if (sum > max)
			max = sum;
	}
	fputs("<h3>Who took the CPU from the benchmark</h3>\n<p class=\"note\">Per run, the CPU time each task used while benchmark threads were runnable and waiting for a CPU, in seconds. "
	      "Grey: the benchmark's own threads (they queue behind each other); colours: other tasks, the same task in the same colour in every run.</p>\n",
	      f);
	if (max <= 0) {
		fputs("<p class=\"note\">No task took CPU time from a waiting benchmark thread.</p>\n",
		      f);
		return;
	}
	max *= 1.02;
	fputs("<table class=\"runs\">\n<tr><th>run</th><th>", f);
	svg_tick_row(f, ST_W + 20, ST_W, max, nice_step(max / 1e9, 4) * 1e9,
		     max, seconds_tick);
	fputs("</th><th>top tasks (CPU time taken)</th></tr>\n", f);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		const json_t *st = json_object_get(rv->kernel, "stealers"), *s;
		double x = 0, w, rest = 0;
		size_t shown = 0;

		fprintf(f, "<tr class=\"%s\"><td class=\"num\"><b>%d</b></td><td>",
			rv->slow ? "slow" : "", rv->r->run);
		svg_bar_track(f, ST_W + 20, ST_W, 20);
		json_array_foreach(st, k, s) {
			double ns = (double)ju64(json_object_get(s, "ns"));

			if (k >= MAX_STEALERS) {
				rest += ns;
				continue;
			}
			w = ns / max * ST_W;
			fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"16\" style=\"fill:%s;stroke:#fff;stroke-width:.6\"><title>",
				x, w, task_colour(tc, ntc, s));
			html_esc(f, jstr(s, "comm"));
			fprintf(f, ": %.3f s</title></rect>", ns / 1e9);
			x += w;
		}
		if (rest > 0)
			fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"16\" style=\"fill:#eeeeee;stroke:#fff;stroke-width:.6\"/>",
				x, rest / max * ST_W);
		fputs("</svg></td><td class=\"small\">", f);
		if (!rv->kernel)
			fputs("untraced", f);
		json_array_foreach(st, k, s) {
			bool bench = json_is_true(json_object_get(s, "is_benchmark"));

			if (k >= 4)
				break;
			fprintf(f, "%s<span class=\"key\" style=\"background:%s;margin-left:%s\"></span>",
				shown ? " · " : "", task_colour(tc, ntc, s),
				shown ? "2px" : "0");
			if (bench) {
				html_esc(f, jstr(s, "comm"));
				fputs(" (benchmark)", f);
			} else {
				fputs("<b style=\"color:#1d1d1f\">", f);
				html_esc(f, jstr(s, "comm"));
				fprintf(f, "</b> (pid %d)",
					(int)json_integer_value(json_object_get(s, "pid")));
			}
			fprintf(f, " %s", fmt_ns(a, sizeof(a),
				(double)ju64(json_object_get(s, "ns"))));
			shown++;
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- distributions ----------------------------------------------------- */

enum dist_unit { UNIT_NS, UNIT_BYTES };

/* The histogram object of a run for chart kind k (see dist_kinds). */
struct dist_kind {
	const char *title;
	const char *what;	/* what one sample is */
	enum dist_unit unit;
	const char *role;	/* kernel.roles.ROLE.rq_latency */
	const char *side;	/* kernel.sockets.SIDE.rq_bytes */
};

static const json_t *dist_hist(const struct run_view *rv,
			       const struct dist_kind *k)
{
	if (k->role)
		return json_object_get(json_object_get(json_object_get(
			rv->kernel, "roles"), k->role), "rq_latency");
	if (k->side)
		return json_object_get(json_object_get(json_object_get(
			rv->kernel, "sockets"), k->side), "rq_bytes");
	return json_object_get(rv->r->json, "latency");
}

#define DC_W	360.0
#define DC_H	200.0
#define DC_L	44.0
#define DC_T	36.0
#define DC_B	38.0

static const char *fmt_unit(char *b, size_t n, double v, enum dist_unit u)
{
	return u == UNIT_NS ? fmt_ns(b, n, v) : fmt_bytes(b, n, v);
}

/* A share of the samples as a tick: "5 %". */
static const char *share_tick(char *b, size_t n, double v, double step)
{
	(void)step;
	snprintf(b, n, "%g %%", v);
	return b;
}

static void dist_chart(FILE *f, const struct group_view *v,
		       const struct dist_kind *k)
{
	struct bset set[2] = { { 0 } };	/* normal, slow */
	double *bins = calloc(2 * DIST_NR_BINS, sizeof(*bins));
	double pw = DC_W - DC_L - 8, ph = DC_H - DC_T - DC_B, ymax = 0, dec;
	struct svg_box box = { DC_L, DC_T, pw, ph };
	int bmin = DIST_NR_BINS, bmax = -1, b, s, per_octave;
	char p50[32], p99[32], p99s[32];
	size_t i, j;

	if (!bins)
		return;
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (rv->failed)
			continue;
		bset_add(&set[rv->slow], json_object_get(dist_hist(rv, k),
							 "buckets"));
	}
	/* Few samples in fine bins draw noise, not a shape. */
	per_octave = set[0].total + set[1].total >= DIST_FINE_MIN ?
		     DIST_PER_OCTAVE : DIST_PER_OCTAVE / 2;
	for (s = 0; s < 2; s++) {
		for (j = 0; j < set[s].n; j++) {
			b = ll_bin(set[s].b[j].lo, per_octave);
			bins[s * DIST_NR_BINS + b] += (double)set[s].b[j].count;
			bmin = b < bmin ? b : bmin;
			bmax = b > bmax ? b : bmax;
		}
	}
	fprintf(f, "<svg class=\"dist\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\">",
		DC_W, DC_H);
	fprintf(f, "<text class=\"title\" x=\"0\" y=\"13\">%s</text>", k->title);
	if (bmax < 0) {
		fputs("<text x=\"0\" y=\"40\">no samples</text></svg>", f);
		goto cleanup;
	}
	if (bmax - bmin < 4 * per_octave) {	/* room for an axis label */
		bmin = bmin > per_octave ? bmin - per_octave : 0;
		bmax += per_octave;
	}
	for (s = 0; s < 2; s++)
		for (b = bmin; b <= bmax && set[s].total; b++) {
			double pct = bins[s * DIST_NR_BINS + b] * 100 /
				     (double)set[s].total;

			ymax = pct > ymax ? pct : ymax;
		}
	ymax = ymax > 0 ? ymax * 1.1 : 1;
	fmt_unit(p50, sizeof(p50), (double)bset_pct(&set[0], 50), k->unit);
	fmt_unit(p99, sizeof(p99), (double)bset_pct(&set[0], 99), k->unit);
	fmt_unit(p99s, sizeof(p99s), (double)bset_pct(&set[1], 99), k->unit);
	fputs("<text x=\"0\" y=\"28\">", f);
	if (set[0].total)
		fprintf(f, "%s: p50 %s, p99 %s",
			v->nslow ? "normal" : "all runs", p50, p99);
	if (set[1].total)
		fprintf(f, "%s<tspan style=\"fill:" C_SLOW ";font-weight:700\">slow: p99 %s</tspan>",
			set[0].total ? "; " : "", p99s);
	fputs("</text>", f);
	/* y: share of the samples, in per cent. */
	svg_y_grid(f, &box, 4, ymax, nice_step(ymax, 3), share_tick);
	if (set[0].total)
		svg_hist_path(f, "dnorm", &box, bins + bmin, bmax - bmin + 1,
			      (double)set[0].total, ymax);
	if (set[1].total)
		svg_hist_path(f, "dslow", &box, bins + DIST_NR_BINS + bmin,
			      bmax - bmin + 1, (double)set[1].total, ymax);
	for (dec = 1; dec < 1e13; dec *= 10) {
		double p = ll_pos(dec, per_octave), x;
		char a[32];

		if (p < bmin || p > bmax + 1)
			continue;
		x = DC_L + (p - bmin) / (bmax - bmin + 1) * pw;
		fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			x, x, DC_T + ph, DC_T + ph + 4, x, DC_T + ph + 16,
			fmt_decade(a, sizeof(a), dec, k->unit == UNIT_BYTES));
	}
	svg_axis_line(f, DC_L, DC_W - 8, DC_T + ph);
	fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" class=\"small\">%s</text></svg>",
		DC_L + pw / 2, DC_H - 3, k->what);
cleanup:
	bset_free(&set[0]);
	bset_free(&set[1]);
	free(bins);
}

static void distributions(FILE *f, const struct group_view *v)
{
	struct dist_kind kinds[CB_NR_ROLES + 3];
	char titles[CB_NR_ROLES][96];
	size_t i, n = 0;

	memset(kinds, 0, sizeof(kinds));
	kinds[n].title = "Message latency";
	kinds[n++].what = "sender's send to receiver's recv (log scale)";
	for (i = 0; i < CB_NR_ROLES; i++, n++) {
		snprintf(titles[i], sizeof(titles[i]),
			 "Run-queue latency: %s (%s)", role_table[i].name,
			 role_table[i].words);
		kinds[n].title = titles[i];
		kinds[n].what = "wakeup to running on a CPU (log scale)";
		kinds[n].role = role_table[i].name;
	}
	for (i = 0; i < 2; i++, n++) {
		kinds[n].title = i ? "Socket receive queue: server" :
				     "Socket receive queue: client";
		kinds[n].what = "bytes queued when data arrives (log scale)";
		kinds[n].unit = UNIT_BYTES;
		kinds[n].side = i ? "server" : "client";
	}
	fputs("<h3>Distributions</h3>\n<p class=\"note\">Share of the samples in each bucket (per cent; x on a log scale), all runs merged", f);
	if (v->nslow)
		fputs(": <span class=\"key\" style=\"background:" C_NORMAL "\"></span>normal runs "
		      "<span class=\"key\" style=\"background:" C_SLOW "\"></span>slow runs", f);
	fputs(". The run-queue latency of a role: how long its threads waited between being woken and running.</p>\n<div class=\"charts\">\n", f);
	for (i = 0; i < n; i++) {
		if ((kinds[i].role || kinds[i].side) && !v->ntraced)
			continue;
		fputs("<div>", f);
		dist_chart(f, v, &kinds[i]);
		fputs("</div>\n", f);
	}
	fputs("</div>\n", f);
}

/* ---- several groups: the sweep ----------------------------------------- */

#define SW_W	360.0
#define SW_H	230.0
#define SW_L	56.0
#define SW_T	30.0
#define SW_B	36.0

enum sweep_fig { SW_TP, SW_LAT, SW_RQ };

static void sweep_chart(FILE *f, const struct sweep *sw, enum sweep_fig fig)
{
	static const char *const title[] = {
		"Throughput (msg/s): avg, min–max",
		"Message latency p99 (median of runs)",
		"Run-queue latency p99 (median of runs)",
	};
	const struct sweep_series *ser = sw->ser;
	const double *vals = sw->vals;
	double pw = SW_W - SW_L - 10, ph = SW_H - SW_T - SW_B, max = 0;
	struct svg_box box = { SW_L, SW_T, pw, ph };
	size_t ns = sw->ns, nv = sw->nv, s, i;
	char a[32];

	for (s = 0; s < ns; s++)
		for (i = 0; i < ser[s].n; i++) {
			const struct sweep_pt *p = &ser[s].pt[i];
			double y = fig == SW_TP ? p->max : fig == SW_LAT ?
				   (p->has_lat ? p->lat : 0) :
				   (p->has_rq ? p->rq : 0);

			max = y > max ? y : max;
		}
	max = max > 0 ? max * 1.1 : 1;
	fprintf(f, "<div><svg class=\"sweepchart\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\"><text class=\"title\" x=\"0\" y=\"14\">%s</text>",
		SW_W, SW_H, title[fig]);
	svg_y_grid(f, &box, 4, max, nice_step(max, 4),
		   fig == SW_TP ? fmt_rate_tick : fmt_ns_tick);
	for (i = 0; i < nv; i++) {
		double x = SW_L + (nv > 1 ? (double)i / (double)(nv - 1) : 0.5) *
				  pw;

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>",
			x, SW_T + ph + 15, vals[i]);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"lab\">",
		SW_L + pw / 2, SW_H - 2);
	html_esc(f, sw->param);
	fputs("</text>", f);
	for (s = 0; s < ns; s++) {
		const char *colour = ns > 1 ? svg_cat_colours[s % SVG_NR_CAT_COLOURS] :
					      C_NORMAL;
		bool first = true;

		fprintf(f, "<path style=\"fill:none;stroke:%s;stroke-width:2\" d=\"",
			colour);
		for (i = 0; i < ser[s].n; i++) {
			const struct sweep_pt *p = &ser[s].pt[i];
			int xi = value_index(vals, nv, p->value);
			double x = SW_L + (nv > 1 ? (double)xi / (double)(nv - 1) :
					   0.5) * pw;
			double y = fig == SW_TP ? p->avg : fig == SW_LAT ?
				   p->lat : p->rq;

			if ((fig == SW_LAT && !p->has_lat) ||
			    (fig == SW_RQ && !p->has_rq) ||
			    (fig == SW_TP && p->runs <= 0))
				continue;
			fprintf(f, "%s%.1f %.1f", first ? "M" : "L", x,
				SW_T + ph - y / max * ph);
			first = false;
		}
		fputs("\"/>", f);
		for (i = 0; i < ser[s].n; i++) {
			const struct sweep_pt *p = &ser[s].pt[i];
			int xi = value_index(vals, nv, p->value);
			double x = SW_L + (nv > 1 ? (double)xi / (double)(nv - 1) :
					   0.5) * pw;
			double y = fig == SW_TP ? p->avg : fig == SW_LAT ?
				   p->lat : p->rq;

			if ((fig == SW_LAT && !p->has_lat) ||
			    (fig == SW_RQ && !p->has_rq) ||
			    (fig == SW_TP && p->runs <= 0))
				continue;
			if (fig == SW_TP)
				fprintf(f, "<line style=\"stroke:%s;stroke-width:1.5\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
					colour, x, x,
					SW_T + ph - p->min / max * ph,
					SW_T + ph - p->max / max * ph);
			fprintf(f, "<circle class=\"sweep-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" style=\"fill:%s\"><title>",
				x, SW_T + ph - y / max * ph, colour);
			html_esc(f, ser[s].label);
			fprintf(f, " %g: %s</title></circle>", p->value,
				fig == SW_TP ? fmt_rate(a, sizeof(a), y) :
					       fmt_ns(a, sizeof(a), y));
		}
	}
	svg_axis_line(f, SW_L, SW_W - 10, SW_T + ph);
	fputs("</svg></div>\n", f);
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

static int sweep_section(FILE *f, const struct result_file *files,
			 size_t nfiles, char **labels)
{
	struct sweep sw;
	size_t i;
	int ret = -1;

	if (sweep_build(&sw, files, nfiles, labels))
		goto cleanup;
	if (!sw.param) {
		ret = 0;
		goto cleanup;
	}
	fputs("<h2>Sweep of ", f);
	html_esc(f, sw.param);
	fputs("</h2>\n<p class=\"note\">Each point is one sweep point's runs; the x axis lists the swept values in order, evenly spaced.", f);
	if (sw.ns > 1) {
		fputs(" Files:", f);
		for (i = 0; i < sw.ns; i++) {
			fprintf(f, "<span class=\"key\" style=\"background:%s\"></span>",
				svg_cat_colours[i % SVG_NR_CAT_COLOURS]);
			html_esc(f, sw.ser[i].label);
		}
	}
	fputs("</p>\n<div class=\"sweep\">\n", f);
	sweep_chart(f, &sw, SW_TP);
	sweep_chart(f, &sw, SW_LAT);
	sweep_chart(f, &sw, SW_RQ);
	fputs("</div>\n", f);
	ret = 0;
cleanup:
	sweep_free(&sw);
	return ret;
}

/* ---- several files: the comparison table ------------------------------- */

static void cmp_table(FILE *f, const struct result_file *files, size_t nfiles,
		      char **labels)
{
	double max = 0, avg, mn, mx, bavg, bmin, bmax;
	bool sweep = false;
	size_t i, j, k;
	char a[32];
	int n, bn;

	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].nr_groups; j++) {
			results_throughput(&files[i].groups[j], &avg, &mn, &mx,
					   &n);
			max = n > 0 && avg > max ? avg : max;
			sweep |= files[i].groups[j].sweep != NULL;
		}
	max = max > 0 ? max : 1;
	fprintf(f, "<h2>Comparison</h2>\n<p class=\"note\">One row per file%s; throughput in messages per second from each summary; "
		"ratio: average against the first file's%s; p99 columns: median over the runs.</p>\n",
		sweep ? " and sweep point" : "", sweep ? " at the same point" : "");
	fprintf(f, "<table class=\"cmp\">\n<tr><th>file</th>%s<th class=\"num\">runs</th><th>avg msg/s</th><th class=\"num\">min</th><th class=\"num\">max</th>"
		"<th class=\"num\">ratio</th><th class=\"num\">slow</th><th class=\"num\">msg p99</th><th class=\"num\">rq p99</th><th>kernel</th></tr>\n",
		sweep ? "<th>sweep</th>" : "");
	for (i = 0; i < nfiles; i++) {
		for (j = 0; j < files[i].nr_groups; j++) {
			const struct result_group *g = &files[i].groups[j];
			const struct result_group *bg =
				results_find_group(&files[0], g->sweep);
			const char *kernel = g->summary.present &&
					     g->summary.kernel_release ?
					     g->summary.kernel_release :
					     files[i].kernel_release;
			double lat, rq;
			size_t nslow = 0;

			for (k = 0; k < g->nr_runs; k++)
				nslow += json_is_true(json_object_get(
					g->runs[k].json, "slow"));
			results_throughput(g, &avg, &mn, &mx, &n);
			fputs("<tr class=\"cmp-row\"><td>", f);
			html_esc(f, labels[i]);
			fputs("</td>", f);
			if (sweep) {
				fputs("<td>", f);
				html_esc(f, *g->sweep_label ? g->sweep_label :
							   "–");
				fputs("</td>", f);
			}
			fprintf(f, "<td class=\"num\">%d</td>", n);
			if (n > 0) {
				fputs("<td>", f);
				svg_bar_track(f, 230, 150, 16);
				fprintf(f, "<rect style=\"fill:" C_NORMAL "\" x=\"0\" y=\"2\" width=\"%.1f\" height=\"12\"/><text x=\"156\" y=\"12.5\">%.0f</text></svg></td>"
					"<td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>",
					avg / max * 150, avg, mn, mx);
			} else {
				fputs("<td>–</td><td class=\"num\">–</td><td class=\"num\">–</td>",
				      f);
			}
			if (bg) {
				results_throughput(bg, &bavg, &bmin, &bmax, &bn);
				if (bn > 0 && bavg > 0 && n > 0)
					fprintf(f, "<td class=\"num\">%.3f</td>",
						avg / bavg);
				else
					fputs("<td class=\"num\">–</td>", f);
			} else {
				fputs("<td class=\"num\">–</td>", f);
			}
			fprintf(f, "<td class=\"num\">%s%zu%s</td>",
				nslow ? "<b style=\"color:" C_SLOW "\">" : "",
				nslow, nslow ? "</b>" : "");
			if (results_median(g, results_run_lat_p99, &lat))
				fprintf(f, "<td class=\"num\">%s</td>",
					fmt_ns(a, sizeof(a), lat));
			else
				fputs("<td class=\"num\">–</td>", f);
			if (results_median(g, results_run_rq_p99, &rq))
				fprintf(f, "<td class=\"num\">%s</td>",
					fmt_ns(a, sizeof(a), rq));
			else
				fputs("<td class=\"num\">–</td>", f);
			fputs("<td>", f);
			html_esc(f, kernel ? kernel : "–");
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
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
	runs_table(f, v);
	timeline(f, v, budget);
	stealers(f, v);
	distributions(f, v);
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
	page_head(f, o->title ? o->title : "chatbench report");
	fputs("<h1>", f);
	html_esc(f, o->title ? o->title : "chatbench report");
	fputs("</h1>\n", f);
	for (i = 0; i < nfiles; i++)
		file_meta(f, &files[i]);
	verdict_box(f, views, ngroups, labels, nfiles);
	if (nfiles > 1)
		cmp_table(f, files, nfiles, labels);
	if (sweep_section(f, files, nfiles, labels))
		goto cleanup;
	for (i = 0, nv = 0; i < nfiles; i++) {
		if (nfiles > 1) {
			fputs("<h2 class=\"file\">", f);
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
	      " from chat_c --json result files; a self-contained page, nothing fetched.</p>\n</body>\n</html>\n",
	      f);
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
	char *tmp = NULL, **labels = NULL;
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
		if (asprintf(&tmp, "%s.tmp", path) < 0) {
			tmp = NULL;
			snprintf(err, len, "out of memory");
			goto cleanup;
		}
		f = fopen(tmp, "w");
		if (!f) {
			snprintf(err, len, "cannot write %s: %s", tmp,
				 strerror(errno));
			goto cleanup;
		}
	}
	if (render(f, files, nfiles, &o, labels)) {
		snprintf(err, len, "out of memory");
		goto cleanup;
	}
	if (fflush(f) || ferror(f)) {
		snprintf(err, len, "writing %s: %s", to_stdout ? "stdout" : tmp,
			 strerror(errno));
		goto cleanup;
	}
	if (!to_stdout) {
		int rc = fclose(f);

		f = NULL;
		if (rc) {
			snprintf(err, len, "writing %s: %s", tmp,
				 strerror(errno));
			goto cleanup;
		}
		if (rename(tmp, path)) {
			snprintf(err, len, "cannot rename %s to %s: %s", tmp,
				 path, strerror(errno));
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	if (f && f != stdout)
		fclose(f);
	if (ret && tmp)
		unlink(tmp);
	free(tmp);
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
