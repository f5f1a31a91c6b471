// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep as three charts against the swept value: throughput (average,
 * with min and max), message latency p99 and run-queue latency p99, one
 * line per file.  The swept values are spaced evenly in their order, not
 * to scale, so that 1, 2 and 100 rooms all stay readable.
 */
#include <stdbool.h>
#include <stdio.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"
#include "util/fmt.h"

#define SW_W	360.0
#define SW_H	230.0
#define SW_L	56.0
#define SW_T	30.0
#define SW_B	36.0

enum sweep_fig { SW_TP, SW_LAT, SW_RQ };

/* x of the i-th of nv swept values, evenly spaced across the chart. */
static double value_x(size_t i, size_t nv)
{
	double pw = SW_W - SW_L - 10;

	return SW_L + (nv > 1 ? (double)i / (double)(nv - 1) : 0.5) * pw;
}

/* Figure fig of point p into y; false when p has none to show. */
static bool pt_y(const struct sweep_pt *p, enum sweep_fig fig, double *y)
{
	if ((fig == SW_LAT && !p->has_lat) || (fig == SW_RQ && !p->has_rq) ||
	    (fig == SW_TP && p->runs <= 0))
		return false;
	*y = fig == SW_TP ? p->avg : fig == SW_LAT ? p->lat : p->rq;
	return true;
}

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
		const char *name = sweep_value_text(sw, vals[i]);

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			value_x(i, nv), SW_T + ph + 15);
		if (name)
			html_esc(f, name);
		else
			fprintf(f, "%g", vals[i]);
		fputs("</text>", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"lab\">",
		SW_L + pw / 2, SW_H - 2);
	html_esc(f, sw->param);
	fputs("</text>", f);
	for (s = 0; s < ns; s++) {
		const char *colour = ns > 1 ?
			svg_cat_colours[s % SVG_NR_CAT_COLOURS] : C_NORMAL;
		bool first = true;

		fprintf(f, "<path style=\"fill:none;stroke:%s;stroke-width:2\" d=\"",
			colour);
		for (i = 0; i < ser[s].n; i++) {
			const struct sweep_pt *p = &ser[s].pt[i];
			double y;

			if (!pt_y(p, fig, &y))
				continue;
			fprintf(f, "%s%.1f %.1f", first ? "M" : "L",
				value_x(value_index(vals, nv, p->value), nv),
				SW_T + ph - y / max * ph);
			first = false;
		}
		fputs("\"/>", f);
		for (i = 0; i < ser[s].n; i++) {
			const struct sweep_pt *p = &ser[s].pt[i];
			double x = value_x(value_index(vals, nv, p->value), nv);
			double y;

			if (!pt_y(p, fig, &y))
				continue;
			if (fig == SW_TP)
				fprintf(f, "<line style=\"stroke:%s;stroke-width:1.5\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
					colour, x, x,
					SW_T + ph - p->min / max * ph,
					SW_T + ph - p->max / max * ph);
			fprintf(f, "<circle class=\"sweep-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" style=\"fill:%s\"><title>",
				x, SW_T + ph - y / max * ph, colour);
			html_esc(f, ser[s].label);
			if (p->text) {
				fputc(' ', f);
				html_esc(f, p->text);
			} else {
				fprintf(f, " %g", p->value);
			}
			fprintf(f, ": %s</title></circle>",
				fig == SW_TP ? fmt_rate(a, sizeof(a), y) :
					       fmt_ns_spaced(a, sizeof(a), y));
		}
	}
	svg_axis_line(f, SW_L, SW_W - 10, SW_T + ph);
	fputs("</svg></div>\n", f);
}

int sweep_section(FILE *f, const struct result_file *files,
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
