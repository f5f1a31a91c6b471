// SPDX-License-Identifier: GPL-2.0
/*
 * The report's answer first: the verdict (which run was slow, by how
 * much, and its first cause in a newcomer's words) and every run's
 * throughput as a bar against the median, with the diagnosis' causes and
 * dips beside it.  Whoever reads no further knows whether the series can
 * be trusted, and which run to look at below.
 */
#include <math.h>
#include <stdio.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"

/* A group's heading: its sweep point, rooms and messages, runs. */
void group_title(FILE *f, const struct group_view *v)
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
	html_esc(f, view_cause_words(jstr(c, "kind")));
	if (task && *task) {
		fputs(" (<b>", f);
		html_esc(f, task);
		fprintf(f, "</b>, pid %d)",
			(int)json_integer_value(json_object_get(c, "pid")));
	}
	fprintf(f, ", %.0f %% of the loss",
		100 * json_number_value(json_object_get(c, "share")));
}

/* Opens a verdict sentence, led by where when it is not empty. */
static void verdict_p(FILE *f, const char *where)
{
	fputs("<p>", f);
	if (where && *where) {
		fputs("<span class=\"where\">", f);
		html_esc(f, where);
		fputs(":</span> ", f);
	}
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
		verdict_p(f, where);
		fputs("<b>no run completed.</b></p>", f);
		return;
	}
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (!rv->slow)
			continue;
		verdict_p(f, where);
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
		verdict_p(f, where);
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
void verdict_box(FILE *f, const struct group_view *v, size_t n,
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
		html_esc(f, view_cause_words(jstr(c, "kind")));
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

void runs_section(FILE *f, const struct group_view *v)
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
