// SPDX-License-Identifier: GPL-2.0
/*
 * The runs on one time axis: throughput per column above a heat map of
 * run-queue latency, each run as wide as it lasted, so that a dip in
 * throughput and the latency storm behind it sit one above the other.
 * Slow runs are tinted above and framed below (a tint over the heat map
 * would blend with its pale cells).  Each run's start-up ramp and drain
 * are shaded lightly and named, since a newcomer reads their low rate as
 * trouble; the diagnosis' dips, found in the steady part between them,
 * are marked darker where they were, with their depth and cause.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"

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

/* Seconds from a run's start as its clock counts them. */
static uint64_t ns_of(double s)
{
	return s > 0 ? (uint64_t)(s * 1e9) : 0;
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
			rv->slow ? " · SLOW" : rv->failed ? " · failed" :
			rv->disturbed && rv->w >= 110 ? " · disturbed" : "");
	else
		fprintf(f, "%d", rv->r->run);
	fputs("</text>", f);
}

/*
 * A run's start-up ramp or drain, the span [from, to] of its "phases",
 * shaded lightly and named when there is room: a low rate there is how
 * every run starts and ends, not a dip.
 */
static void phase_band(FILE *f, const struct run_view *rv, const json_t *span,
		       const char *cls, const char *what, double top)
{
	double from = json_number_value(json_array_get(span, 0));
	double to = json_number_value(json_array_get(span, 1));
	double x0 = col_x(rv, ns_of(from)), x1 = col_x(rv, ns_of(to));

	if (x1 - x0 < 0.5)
		return;
	fprintf(f, "<rect class=\"phase %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%s %.1f–%.1f s: not a dip</title></rect>",
		cls, x0, top, x1 - x0, TP_H, what, from, to);
	if (x1 - x0 >= 30)
		fprintf(f, "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			(x0 + x1) / 2, top + 10, cls);
}

/*
 * A dip of the diagnosis where it was inside its run, its depth on it
 * and its cause beside when there is room before limit_x, the next mark
 * (about 5.5 units a character); the whole finding shows on hover.
 */
static void dip_mark(FILE *f, const struct run_view *rv, const json_t *d,
		     double top, double limit_x)
{
	struct dip_view dv;
	char says[256], label[96];
	double x0, x1, room;

	view_dip(d, &dv);
	x0 = col_x(rv, ns_of(dv.from_s));
	x1 = col_x(rv, ns_of(dv.to_s));
	if (x1 - x0 < 2)
		x1 = x0 + 2;
	fprintf(f, "<rect class=\"dip\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>dip %.1f–%.1f s: ",
		x0, top, x1 - x0, TP_H, dv.from_s, dv.to_s);
	html_esc(f, view_dip_says(says, sizeof(says), &dv));
	if (dv.sentence && *dv.sentence) {
		fputs(". ", f);
		html_esc(f, dv.sentence);
	}
	fputs("</title></rect>", f);
	room = limit_x - x0 - 4;
	snprintf(label, sizeof(label), "−%.0f %% · %s", dv.depth_pct,
		 dv.words ? dv.words : "unexplained");
	if (room < 5.5 * (double)strlen(label))
		snprintf(label, sizeof(label), "−%.0f %%", dv.depth_pct);
	if (room < 5.5 * (double)strlen(label))
		return;
	fprintf(f, "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\">", x0 + 2,
		top + 10);
	html_esc(f, label);
	fputs("</text>", f);
}

/*
 * The phases and dips of a run, behind its throughput line; a dip's
 * label stops short of the next dip, else of the drain, else of the end.
 */
static void run_marks(FILE *f, const struct run_view *rv, double top)
{
	const json_t *ph = json_object_get(rv->r->json, "phases");
	const json_t *dips = json_object_get(rv->r->json, "dips"), *d;
	const json_t *drain = json_object_get(ph, "drain_s");
	double end = rv->x0 + rv->w, next;
	size_t k;

	if (rv->w <= 0)
		return;
	phase_band(f, rv, json_object_get(ph, "ramp_s"), "ramp",
		   "start-up ramp", top);
	phase_band(f, rv, json_object_get(ph, "drain_s"), "drain", "drain",
		   top);
	if (json_array_size(drain))
		end = col_x(rv, ns_of(json_number_value(json_array_get(drain,
								       0))));
	json_array_foreach(dips, k, d) {
		next = json_number_value(json_object_get(
			json_array_get(dips, k + 1), "from_s"));
		dip_mark(f, rv, d, top, next > 0 ? col_x(rv, ns_of(next)) : end);
	}
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
	for (i = 0; i < v->n; i++)
		run_marks(f, &v->runs[i], top);
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

/* What the grey marks above are, when the file has any. */
static void marks_legend(FILE *f, const struct group_view *v, double y)
{
	bool phases = false, dips = false;
	double x = TL_L;
	size_t i;

	for (i = 0; i < v->n; i++) {
		phases |= json_is_object(json_object_get(v->runs[i].r->json,
							 "phases"));
		dips |= json_array_size(json_object_get(v->runs[i].r->json,
							"dips")) > 0;
	}
	if (phases) {
		fprintf(f, "<rect class=\"phase\" x=\"%.0f\" y=\"%.1f\" width=\"14\" height=\"12\"/><text x=\"%.0f\" y=\"%.1f\">start-up ramp and drain: not dips</text>",
			x, y, x + 18, y + 10);
		x += 230;
	}
	if (dips)
		fprintf(f, "<rect class=\"dip\" x=\"%.0f\" y=\"%.1f\" width=\"14\" height=\"12\"/><text x=\"%.0f\" y=\"%.1f\">dip in the steady part: depth, cause</text>",
			x, y, x + 18, y + 10);
}

void timeline_section(FILE *f, struct group_view *v, size_t budget)
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
		"black line: the column's p99. Pale grey at a run's start and end: its start-up ramp and drain, not dips; darker grey bands: dips in its steady part, "
		"with their depth and cause (hover for the evidence). A dip in the line above a column that is dark high up is a latency storm "
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
	marks_legend(f, v, bot + 50);
	fputs("</svg>\n", f);
cleanup:
	timeline_free(&t);
}
