// SPDX-License-Identifier: GPL-2.0
/*
 * Reusable SVG for the HTML report.  Each piece writes one kind of mark
 * the same way wherever a chart needs it, with coordinates rounded as
 * the page has always had them (a tenth of a unit, whole units for fixed
 * margins), so that charts line up and the page stays light.  Counts are
 * coloured on a log scale, since a latency storm and the quiet cells
 * around it differ by orders of magnitude; tick loops are bounded, so
 * that no data can make one run away.
 */
#include <math.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/svg.h"

#define HEAT_LEVELS	7	/* colour steps of a heat map */
#define MAX_TICKS	12	/* bounds tick loops whatever the data */

/* Okabe-Ito, without the blue the report keeps for normal runs. */
const char *const svg_cat_colours[SVG_NR_CAT_COLOURS] = {
	"#E69F00", "#CC79A7", "#009E73", "#56B4E9", "#F0E442", "#000000",
};

/*
 * Pale (few samples) to dark (many), yellow through green to blue: the
 * lightness alone orders the steps, so it reads without colour vision
 * and in grey print, and noise (a few samples) stays quiet on white.
 */
static const char *const heat_colours[HEAT_LEVELS] = {
	"#ffffcc", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8",
	"#0c2c84",
};

/* ---- axes and ticks ---------------------------------------------------- */

/*
 * A row of tick labels above bars w wide that end at max, in an svg of
 * its own svg_w wide: 0, step, 2 step ... up to limit.
 */
void svg_tick_row(FILE *f, double svg_w, double w, double max, double step,
		  double limit, svg_tick_fn *label)
{
	double t;
	char a[32];
	int tick;

	fprintf(f, "<svg viewBox=\"0 -2 %.0f 16\" width=\"%.0f\" height=\"18\">",
		svg_w, svg_w);
	for (tick = 0, t = 0; tick < MAX_TICKS && t <= limit;
	     tick++, t += step)
		fprintf(f, "<text x=\"%.1f\" y=\"11\" text-anchor=\"%s\">%s</text>",
			t / max * w, t > 0 ? "middle" : "start",
			label(a, sizeof(a), t, step));
	fputs("</svg>", f);
}

/* A horizontal grid line from x1 to x2 at y, labelled left of label_x. */
void svg_grid_line(FILE *f, double x1, double x2, double y, double label_x,
		   const char *label)
{
	fprintf(f, "<line class=\"grid\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
		"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
		x1, x2, y, y, label_x, y + 4, label);
}

/* Grid lines across b every step from 0 to max, labelled gap to its left. */
void svg_y_grid(FILE *f, const struct svg_box *b, double gap, double max,
		double step, svg_tick_fn *label)
{
	double v, y;
	char a[32];
	int tick;

	for (tick = 0, v = 0; tick < MAX_TICKS && v <= max;
	     tick++, v += step) {
		y = b->y + b->h - v / max * b->h;
		svg_grid_line(f, b->x, b->x + b->w, y, b->x - gap,
			      label(a, sizeof(a), v, step));
	}
}

void svg_axis_line(FILE *f, double x1, double x2, double y)
{
	fprintf(f, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>",
		x1, x2, y, y);
}

/* A y axis' title, read bottom up, centred on (x, y). */
void svg_y_title(FILE *f, double x, double y, const char *title)
{
	fprintf(f, "<text class=\"title\" transform=\"translate(%.0f %.1f) rotate(-90)\" text-anchor=\"middle\">",
		x, y);
	html_esc(f, title);
	fputs("</text>", f);
}

/* ---- bars -------------------------------------------------------------- */

/*
 * Opens an svg h high and svg_w wide (room for a label right of the bar)
 * on a grey track track_w wide; the caller draws its bars and closes it.
 */
void svg_bar_track(FILE *f, double svg_w, double track_w, double h)
{
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\">"
		"<rect class=\"track\" x=\"0\" y=\"2\" width=\"%.0f\" height=\"%.0f\"/>",
		svg_w, h, svg_w, h, track_w, h - 4);
}

/* ---- heat map ---------------------------------------------------------- */

/* The page's CSS for the heat map's colour steps, classes q1 to q7. */
void svg_heat_css(FILE *f)
{
	int i;

	for (i = 0; i < HEAT_LEVELS; i++)
		fprintf(f, ".q%d{fill:%s}\n", i + 1, heat_colours[i]);
}

/* Colour step of a count: log scale from 1 to the map's largest count. */
static int heat_level(uint64_t n, uint64_t max)
{
	int q;

	if (max <= 1)
		return 1;
	q = 1 + (int)floor((HEAT_LEVELS - 1) * log((double)n) /
			   log((double)max) + 1e-9);
	return q < 1 ? 1 : q > HEAT_LEVELS ? HEAT_LEVELS : q;
}

/* The smallest count of step q (inverse of heat_level), for the legend. */
static uint64_t level_floor(int q, uint64_t max)
{
	double v;

	if (q <= 1 || max <= 1)
		return 1;
	v = exp((double)(q - 1) / (HEAT_LEVELS - 1) * log((double)max));
	return (uint64_t)ceil(v - 1e-9);
}

/*
 * One column of a heat map: the non-empty rows[rmin..rmax] as cells rh
 * high, row rmax at the top y, in a column w wide at x.  The column is a
 * group scaled to one unit per cell, so that a cell needs only its row:
 * the cells are most of a page's weight.
 */
void svg_heat_column(FILE *f, double x, double y, double w, double rh,
		     const uint64_t *rows, int rmin, int rmax, uint64_t max)
{
	int r;

	if (w < 0.4)
		w = 0.4;	/* a short interval stays visible */
	fprintf(f, "<g transform=\"matrix(%.2f 0 0 %.2f %.2f %.2f)\">\n",
		w, rh, x, y);
	for (r = rmax; r >= rmin; r--) {
		if (!rows[r])
			continue;
		fprintf(f, "<rect class=\"hm-cell q%d\" y=\"%d\" width=\"1\" height=\"1\"/>\n",
			heat_level(rows[r], max), rmax - r);
	}
	fputs("</g>\n", f);
}

/*
 * The colour steps of a heat map whose largest count is max, each with
 * the counts it stands for, from x along y; returns where it ended.
 */
double svg_heat_legend(FILE *f, double x, double y, uint64_t max)
{
	uint64_t lo, hi;
	char a[48];
	int q;

	for (q = 1; q <= HEAT_LEVELS; q++) {
		lo = level_floor(q, max);
		hi = q < HEAT_LEVELS ? level_floor(q + 1, max) - 1 : max;
		if (q > 1 && lo <= level_floor(q - 1, max))
			continue;	/* an empty step on a small map */
		if (hi > lo)
			snprintf(a, sizeof(a), "%llu–%llu",
				 (unsigned long long)lo, (unsigned long long)hi);
		else
			snprintf(a, sizeof(a), "%llu", (unsigned long long)lo);
		fprintf(f, "<rect class=\"q%d\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">%s</text>",
			q, x, y, x + 18, y + 10, a);
		x += 26 + 7.0 * (double)strlen(a);
	}
	return x;
}

/* ---- histogram --------------------------------------------------------- */

/*
 * The outline of a histogram in b: bins[0..n) side by side across it,
 * each as high as its share of total (in per cent) against ymax per cent.
 */
void svg_hist_path(FILE *f, const char *cls, const struct svg_box *b,
		   const double *bins, int n, double total, double ymax)
{
	double bw = b->w / n, base = b->y + b->h, y;
	int i;

	fprintf(f, "<path class=\"%s\" d=\"M%.1f %.1f", cls, b->x, base);
	for (i = 0; i < n; i++) {
		y = base - bins[i] / total * 100 / ymax * b->h;
		fprintf(f, "V%.1fH%.1f", y, b->x + (i + 1) * bw);
	}
	fprintf(f, "V%.1f\"/>", base);
}
