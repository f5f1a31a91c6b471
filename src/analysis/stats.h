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
};

double stats_median(const double *v, size_t n);
double stats_mad(const double *v, size_t n, double median);
/* Fills s from v[0..n); n may be 0 (all fields zero). */
void stats_compute(const double *v, size_t n, struct stats *s);

#endif
