// SPDX-License-Identifier: GPL-2.0
/*
 * Latency against load: the points of a rate sweep (--sweep rate=...) as
 * p99 (solid) and p50 (dashed) latency over the achieved send rate, one
 * curve per file.  Conditions run as separate files (a policy, a
 * background load) then show side by side where each one's knee is.
 * Latency spans microseconds to seconds across a knee, so its axis is in
 * decades; the rate axis is to scale, since it is what was achieved.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "util/fmt.h"

#define LD_W	640.0
#define LD_H	300.0
#define LD_L	64.0
#define LD_R	16.0
#define LD_T	30.0
#define LD_B	40.0

struct load_pt {
	double rate;		/* the point's --rate per user */
	double x;		/* achieved sends per second */
	double p50, p99;	/* ns */
};

struct load_curve {
	const char *label;
	struct load_pt *pt;
	size_t n;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct load_pt *p = a, *q = b;

	return (p->rate > q->rate) - (p->rate < q->rate);
}

/* The open-loop points of one file's rate sweep; 0 points is fine. */
static int collect(const struct result_file *rf, struct load_curve *c)
{
	size_t j;

	c->pt = calloc(rf->nr_groups ? rf->nr_groups : 1, sizeof(*c->pt));
	if (!c->pt)
		return -1;
	for (j = 0; j < rf->nr_groups; j++) {
		const struct result_group *g = &rf->groups[j];
		const json_t *ol, *v;
		struct load_pt *p = &c->pt[c->n];

		if (!g->sweep_param || strcmp(g->sweep_param, "rate") ||
		    !g->summary.present)
			continue;
		ol = json_object_get(g->summary.json, "open_loop");
		v = json_object_get(g->sweep, "value");
		if (!json_is_object(ol) || !json_is_number(v))
			continue;
		p->rate = json_number_value(v);
		p->x = json_number_value(json_object_get(ol,
						"achieved_sends_per_s"));
		p->p50 = json_number_value(json_object_get(ol, "p50_ns"));
		p->p99 = json_number_value(json_object_get(ol, "p99_ns"));
		if (p->x > 0 && p->p50 > 0 && p->p99 > 0)
			c->n++;
	}
	qsort(c->pt, c->n, sizeof(*c->pt), cmp_pt);
	return 0;
}

static double y_of(double ns, double lo, double hi)
{
	double ph = LD_H - LD_T - LD_B;

	return LD_T + ph - (log10(ns) - lo) / (hi - lo) * ph;
}

static void curve(FILE *f, const struct load_curve *c, const char *colour,
		  double xmax, double lo, double hi)
{
	double pw = LD_W - LD_L - LD_R;
	char a[32], b[32], r[32];
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		fprintf(f, "<path style=\"fill:none;stroke:%s;stroke-width:2%s\" d=\"",
			colour, k ? ";stroke-dasharray:5 4" : "");
		for (i = 0; i < c->n; i++)
			fprintf(f, "%s%.1f %.1f", i ? "L" : "M",
				LD_L + c->pt[i].x / xmax * pw,
				y_of(k ? c->pt[i].p50 : c->pt[i].p99, lo, hi));
		fputs("\"/>", f);
	}
	for (i = 0; i < c->n; i++) {
		const struct load_pt *p = &c->pt[i];

		fprintf(f, "<circle class=\"sweep-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" style=\"fill:%s\"><title>",
			LD_L + p->x / xmax * pw, y_of(p->p99, lo, hi), colour);
		html_esc(f, c->label);
		fprintf(f, " rate %g/user: %s sends/s, p50 %s, p99 %s</title></circle>",
			p->rate, fmt_rate(r, sizeof(r), p->x),
			fmt_ns_spaced(a, sizeof(a), p->p50),
			fmt_ns_spaced(b, sizeof(b), p->p99));
	}
}

static void chart(FILE *f, const struct load_curve *c, size_t nc)
{
	double pw = LD_W - LD_L - LD_R, ph = LD_H - LD_T - LD_B;
	double xmax = 0, ymin = INFINITY, ymax = 0, lo, hi, step, x, d;
	char a[32];
	size_t s, i;

	for (s = 0; s < nc; s++)
		for (i = 0; i < c[s].n; i++) {
			xmax = fmax(xmax, c[s].pt[i].x);
			ymin = fmin(ymin, c[s].pt[i].p50);
			ymax = fmax(ymax, c[s].pt[i].p99);
		}
	xmax *= 1.05;
	lo = floor(log10(fmax(ymin, 1)));
	hi = ceil(log10(fmax(ymax, 10)));
	if (hi <= lo)
		hi = lo + 1;
	fprintf(f, "<div><svg class=\"loadchart\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\"><text class=\"title\" x=\"0\" y=\"14\">Latency from the scheduled send time: p99 solid, p50 dashed</text>",
		LD_W, LD_H);
	for (d = lo; d <= hi; d++) {
		fmt_decade(a, sizeof(a), pow(10, d), false);
		svg_grid_line(f, LD_L, LD_W - LD_R, y_of(pow(10, d), lo, hi),
			      LD_L - 6, a);
	}
	step = nice_step(xmax, 5);
	for (x = 0; x <= xmax; x += step)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			LD_L + x / xmax * pw, LD_T + ph + 15,
			fmt_rate_tick(a, sizeof(a), x, step));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"lab\">achieved sends per second</text>",
		LD_L + pw / 2, LD_H - 2);
	for (s = 0; s < nc; s++)
		curve(f, &c[s], nc > 1 ?
			  svg_cat_colours[s % SVG_NR_CAT_COLOURS] : C_NORMAL,
		      xmax, lo, hi);
	svg_axis_line(f, LD_L, LD_W - LD_R, LD_T + ph);
	fputs("</svg></div>\n", f);
}

int load_section(FILE *f, const struct result_file *files, size_t nfiles,
		 char **labels)
{
	struct load_curve *c = calloc(nfiles ? nfiles : 1, sizeof(*c));
	size_t i, nc = 0;
	int ret = -1;

	if (!c)
		return -1;
	for (i = 0; i < nfiles; i++) {
		c[nc].label = labels[i];
		if (collect(&files[i], &c[nc]))
			goto out;
		if (c[nc].n)
			nc++;
		else
			free(c[nc].pt);
	}
	ret = 0;
	if (!nc)
		goto out;
	fputs("<h2>Latency against load</h2>\n<p class=\"note\">Each point is one rate of the sweep: the send rate achieved, and the median over its runs of the latency users saw, from the time the schedule meant each message to leave.", f);
	if (nc > 1) {
		fputs(" Files:", f);
		for (i = 0; i < nc; i++) {
			fprintf(f, "<span class=\"key\" style=\"background:%s\"></span>",
				svg_cat_colours[i % SVG_NR_CAT_COLOURS]);
			html_esc(f, c[i].label);
		}
	}
	fputs("</p>\n", f);
	chart(f, c, nc);
out:
	for (i = 0; i < nc; i++)
		free(c[i].pt);
	free(c);
	return ret;
}
