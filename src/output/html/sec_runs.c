// SPDX-License-Identifier: GPL-2.0
/*
 * The report's answer first: the verdict (which run was slow, by how
 * much, and its first cause in a newcomer's words; which run the kernel
 * record calls disturbed though its throughput stayed within the noise;
 * and what the series can resolve at all) and every run's throughput as
 * a bar against the median, with the diagnosis' causes and dips beside
 * it.  Whoever reads no further knows whether the series can be trusted,
 * how small a slowdown it could have seen, and which run to look at.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
	if (!strcmp(jstr(c, "host") ?: "", "server")) {
		fputs(" on the server's host", f);
		if (*rv->server_name) {
			fputs(" ", f);
			html_esc(f, rv->server_name);
		}
	}
	fprintf(f, ", %.0f %% of the loss",
		100 * json_number_value(json_object_get(c, "share")));
}

/*
 * Opens a verdict sentence of class cls (NULL: none), led by where when
 * it is not empty.
 */
static void verdict_p(FILE *f, const char *where, const char *cls)
{
	if (cls)
		fprintf(f, "<p class=\"%s\">", cls);
	else
		fputs("<p>", f);
	if (where && *where) {
		fputs("<span class=\"where\">", f);
		html_esc(f, where);
		fputs(":</span> ", f);
	}
}

/*
 * The median a run was judged against: the verdict's reference (the
 * series' runs, or a --baseline's) when the file says, else the median
 * of all the runs.
 */
static double ref_median(const struct group_view *v, bool *baseline)
{
	const char *ref = jstr(v->verdict, "reference");
	double m = jnum(v->verdict, "reference_median");

	*baseline = ref && !strcmp(ref, "baseline");
	return m > 0 ? m : v->median;
}

/* The kinds of a run's kernel evidence in words: "a, b and c". */
static void evidence_words(FILE *f, const struct run_view *rv)
{
	const json_t *ev = json_object_get(rv->r->json, "evidence"), *k;
	size_t i, n = json_array_size(ev);

	if (!n) {
		fputs("it differed from them", f);
		return;
	}
	json_array_foreach(ev, i, k) {
		if (i)
			fputs(i + 1 == n ? " and " : ", ", f);
		html_esc(f, view_cause_words(json_string_value(k)));
	}
}

/*
 * A lone run has no other runs to be held against: the diagnosis judged
 * it against its own steady intervals, whose rate, noise and span say
 * what a dip in it had to exceed.
 */
static void lone_run_line(FILE *f, const struct group_view *v)
{
	const struct run_view *rv = v->n ? &v->runs[0] : NULL;
	const json_t *ph = rv ? json_object_get(rv->r->json, "phases") : NULL;
	size_t ndips = rv ? json_array_size(json_object_get(rv->r->json,
							    "dips")) : 0;
	char a[32], b[32];

	if (!rv || rv->failed)
		return;
	fprintf(f, "One run, %s msg/s, judged against its own steady intervals (no --baseline)",
		fmt_rate(a, sizeof(a), rv->r->throughput));
	if (!json_is_object(ph)) {
		fputs(", too few to tell its phases apart.</p>", f);
		return;
	}
	fprintf(f, ": %s msg/s ±%.0f %% from %.1f s to %.1f s; ",
		fmt_rate(b, sizeof(b), jnum(ph, "median")),
		jnum(ph, "noise_pct"),
		json_number_value(json_array_get(json_object_get(ph, "ramp_s"),
						 1)),
		json_number_value(json_array_get(json_object_get(ph, "drain_s"),
						 0)));
	if (ndips)
		fprintf(f, "%zu dip%s in it.</p>", ndips, ndips == 1 ? "" : "s");
	else
		fputs("no dip.</p>", f);
}

/*
 * What the series can resolve (the summary's "verdict"): how much its
 * runs vary, hence the smallest slowdown called with and without kernel
 * evidence, so that "no slow run" reads as "none beyond these"; and what
 * the runs were held against.  Older files say nothing of it: neither
 * does the page.
 */
static void resolution_line(FILE *f, const struct group_view *v,
			    const char *where)
{
	const char *ref = jstr(v->verdict, "reference");
	double spread = jnum(v->verdict, "spread_pct");
	int nref = (int)json_integer_value(json_object_get(v->verdict,
							   "reference_runs"));
	bool baseline;
	double median = ref_median(v, &baseline);
	char a[32];

	if (!ref)
		return;
	verdict_p(f, where, "resolution");
	if (!strcmp(ref, "own_intervals")) {
		lone_run_line(f, v);
		return;
	}
	/* A tenth of a per cent matters only when the spread is small. */
	fprintf(f, "Runs vary ±%.*f %%: slowdowns under %.0f %% are not called, nor under %.0f %% with kernel evidence of a disturbance. Held against the median %s msg/s of ",
		spread < 9.95 ? 1 : 0, spread,
		jnum(v->verdict, "min_slow_pct"),
		jnum(v->verdict, "min_slow_evidence_pct"),
		fmt_rate(a, sizeof(a), median));
	if (baseline)
		fprintf(f, "the baseline's %d run%s.</p>", nref,
			nref == 1 ? "" : "s");
	else if (nref > 0 && (size_t)nref < v->nok)
		fprintf(f, "%d of its %zu runs.</p>", nref, v->nok);
	else
		fprintf(f, "its %zu runs.</p>", v->nok);
}

/*
 * Runs the kernel record calls disturbed while their throughput stayed
 * within the noise: worth a look, not a slowdown.
 */
static void disturbed_lines(FILE *f, const struct group_view *v,
			    const char *where)
{
	char a[32];
	size_t i;

	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (!rv->disturbed || rv->slow)
			continue;
		verdict_p(f, where, "quiet");
		fprintf(f, "<b>Run %d was disturbed</b> but not slow: kernel figures far outside the other runs' say that ",
			rv->r->run);
		evidence_words(f, rv);
		fprintf(f, ", yet its %s msg/s stayed within the noise.</p>",
			fmt_rate(a, sizeof(a), rv->r->throughput));
	}
}

/*
 * The verdict of one group as sentences, each led by where (the file and
 * sweep point) when the page holds several groups.
 */
static void verdict_lines(FILE *f, const struct group_view *v,
			  const char *where)
{
	const char *ref = jstr(v->verdict, "reference");
	char a[32], b[32], c[32];
	double lo = 0, hi = 0, median;
	bool baseline;
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
		verdict_p(f, where, NULL);
		fputs("<b>no run completed.</b></p>", f);
		return;
	}
	median = ref_median(v, &baseline);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		double shortfall = median > 0 ?
				   1 - rv->r->throughput / median : 0;

		if (!rv->slow)
			continue;
		verdict_p(f, where, NULL);
		fprintf(f, "<b style=\"color:" C_SLOW "\">Run %d was slow</b>: %s msg/s, ",
			rv->r->run, fmt_rate(a, sizeof(a), rv->r->throughput));
		/* An older file against a --baseline: its median is not said. */
		if (shortfall >= 0.005)
			fprintf(f, "%.0f %% below the %smedian %s msg/s. ",
				100 * shortfall, baseline ? "baseline's " : "",
				fmt_rate(b, sizeof(b), median));
		else
			fputs("below its reference (a baseline's median). ", f);
		fputs("<b>Why:</b> ", f);
		first_cause(f, rv);
		fputs(".</p>", f);
	}
	/* A lone run is never called slow: its line says what it was. */
	if (!v->nslow && !(ref && !strcmp(ref, "own_intervals"))) {
		verdict_p(f, where, NULL);
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
	disturbed_lines(f, v, where);
	if (v->nok < v->n)
		fprintf(f, "<p>%zu run%s failed.</p>", v->n - v->nok,
			v->n - v->nok == 1 ? "" : "s");
	resolution_line(f, v, where);
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

/*
 * The dips of a run's steady part, one short clause each (depth, noise,
 * cause); the diagnosis' sentence shows on hover.
 */
static void run_dips(FILE *f, const struct run_view *rv)
{
	const json_t *dips = json_object_get(rv->r->json, "dips"), *d;
	struct dip_view dv;
	char says[256];
	size_t i;

	json_array_foreach(dips, i, d) {
		view_dip(d, &dv);
		fprintf(f, "%s<span title=\"", i ? "; " :
			"<div class=\"small\">Dips in the steady part: ");
		html_esc(f, dv.sentence);
		fprintf(f, "\">%.1f–%.1f s, ", dv.from_s, dv.to_s);
		html_esc(f, view_dip_says(says, sizeof(says), &dv));
		fputs("</span>", f);
	}
	if (json_array_size(dips))
		fputs("</div>", f);
}

void runs_section(FILE *f, const struct group_view *v)
{
	double max = v->max_tp > 0 ? v->max_tp * 1.05 : 1;
	char a[32];
	size_t i;

	fputs("<h3>Throughput per run</h3>\n<p class=\"note\">One bar per run, in messages per second (sent + received over the run's elapsed time); "
	      "<span class=\"key\" style=\"background:" C_SLOW "\"></span>slow run (the diagnosis' verdict) "
	      "<span class=\"key\" style=\"background:" C_NORMAL "\"></span>normal run; ",
	      f);
	if (v->nquiet)
		fputs("<span class=\"key quiet\"></span>disturbed run (a kernel figure far outside the other runs', throughput within the noise); ",
		      f);
	fputs("dashed line: median of the runs.</p>\n", f);
	fputs("<table class=\"runs\">\n<tr><th>run</th><th>", f);
	bar_axis(f, max);
	fputs("</th><th class=\"num\">msg/s</th><th class=\"num\">vs median</th><th>verdict and causes</th></tr>\n",
	      f);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		const char *cls = rv->failed ? " failed" :
				  rv->slow ? " slow" :
				  rv->disturbed ? " disturbed" : "";
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
		} else if (rv->disturbed) {
			fputs("<span class=\"tag quiet\">disturbed</span><div class=\"why\">Far outside the other runs': ",
			      f);
			evidence_words(f, rv);
			fputs("; the throughput stayed within the noise.</div>",
			      f);
		} else {
			fputs("<span class=\"okay\">normal</span>", f);
		}
		run_dips(f, rv);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
