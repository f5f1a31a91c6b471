/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Robust statistics over a handful of runs: the machines are noisy, so the
 * median and the median absolute deviation carry the verdicts, the mean
 * and the extremes are reported beside them.
 */
#ifndef CHATBENCH_STATS_H
#define CHATBENCH_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double avg;
	double min;
	double max;
	double median;
	double mad;		/* median absolute deviation */
	double rel_spread;	/* (max - min) / avg, 0 for n < 2 */
	double rel_mad;		/* mad / median */
	double robust_sd;	/* STATS_MAD_TO_SD x mad */
	double rel_robust_sd;	/* robust_sd / median, 0 when median <= 0 */
};

/*
 * The MAD of a normal sample times this estimates its standard deviation
 * (1 / the 3/4 quantile of the standard normal), without letting one slow
 * run inflate it the way it inflates the SD.
 */
#define STATS_MAD_TO_SD	1.4826

double stats_median(const double *v, size_t n);
double stats_mad(const double *v, size_t n, double median);
/* STATS_MAD_TO_SD x MAD, and that over the median (0 when it is <= 0). */
double stats_robust_sd(const double *v, size_t n);
double stats_rel_robust_sd(const double *v, size_t n);
/* Sorts v in place, increasing. */
void stats_sort(double *v, size_t n);
/*
 * Quantile q (0..1) of sorted v[0..n), interpolated between neighbours
 * (R's type 7, the median for q = 0.5); 0 when n is 0.
 */
double stats_quantile_sorted(const double *v, size_t n, double q);
/* Fills s from v[0..n); n may be 0 (all fields zero). */
void stats_compute(const double *v, size_t n, struct stats *s);

#endif
