/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces of inline SVG the HTML report's charts are made of: tick
 * labels, grid and axis lines, bar tracks, heat-map columns and their
 * legend, histogram outlines.  They take plain numbers and labels and
 * know nothing of result files, so that every chart, and the next one (a
 * flame graph), is drawn from the same parts and reads like the others.
 * What they draw is styled by the page's CSS through its classes (grid,
 * axis, title, track, hm-cell and the heat map's steps q1 to q7).
 */
#ifndef CHATBENCH_REPORT_SVG_H
#define CHATBENCH_REPORT_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SVG_NR_CAT_COLOURS	6

/* Colours of categories (tasks, files), told apart by colour-blind eyes. */
extern const char *const svg_cat_colours[SVG_NR_CAT_COLOURS];

/* A plot area: x, y its top left corner, its base line at y + h. */
struct svg_box {
	double x, y, w, h;
};

/* The label of tick value v, ticks being step apart, into b; returns b. */
typedef const char *svg_tick_fn(char *b, size_t n, double v, double step);

void svg_tick_row(FILE *f, double svg_w, double w, double max, double step,
		  double limit, svg_tick_fn *label);
void svg_grid_line(FILE *f, double x1, double x2, double y, double label_x,
		   const char *label);
void svg_y_grid(FILE *f, const struct svg_box *b, double gap, double max,
		double step, svg_tick_fn *label);
void svg_axis_line(FILE *f, double x1, double x2, double y);
void svg_y_title(FILE *f, double x, double y, const char *title);

void svg_bar_track(FILE *f, double svg_w, double track_w, double h);

void svg_heat_css(FILE *f);
void svg_heat_column(FILE *f, double x, double y, double w, double rh,
		     const uint64_t *rows, int rmin, int rmax, uint64_t max);
double svg_heat_legend(FILE *f, double x, double y, uint64_t max);

void svg_hist_path(FILE *f, const char *cls, const struct svg_box *b,
		   const double *bins, int n, double total, double ymax);

#endif
