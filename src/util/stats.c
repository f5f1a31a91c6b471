// SPDX-License-Identifier: GPL-2.0
/*
 * Mean, extremes, median, MAD and robust SD of a small sample, and the
 * sorting and quantiles the inference code shares.  Samples are copied
 * before sorting so that callers keep their runs in run order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double stats_quantile_sorted(const double *v, size_t n, double q)
{
	double h, f;
	size_t i;

	if (!n)
		return 0.0;
	if (q <= 0)
		return v[0];
	if (q >= 1)
		return v[n - 1];
	h = q * (double)(n - 1);
	f = floor(h);
	i = (size_t)f;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - f) * (v[i + 1] - v[i]);
}

double stats_median(const double *v, size_t n)
{
	double *c, m;

	if (!n)
		return 0.0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	stats_sort(c, n);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
	free(c);
	return m;
}

double stats_mad(const double *v, size_t n, double median)
{
	double *d, m;
	size_t i;

	if (!n)
		return 0.0;
	d = malloc(n * sizeof(*d));
	if (!d)
		return NAN;
	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - median);
	m = stats_median(d, n);
	free(d);
	return m;
}

double stats_robust_sd(const double *v, size_t n)
{
	return STATS_MAD_TO_SD * stats_mad(v, n, stats_median(v, n));
}

double stats_rel_robust_sd(const double *v, size_t n)
{
	double m = stats_median(v, n);

	if (!(m > 0))
		return 0.0;
	return STATS_MAD_TO_SD * stats_mad(v, n, m) / m;
}

void stats_compute(const double *v, size_t n, struct stats *s)
{
	double sum = 0.0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	s->min = s->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->avg = sum / (double)n;
	s->median = stats_median(v, n);
	s->mad = stats_mad(v, n, s->median);
	if (n > 1 && s->avg > 0)
		s->rel_spread = (s->max - s->min) / s->avg;
	s->robust_sd = STATS_MAD_TO_SD * s->mad;
	if (s->median > 0) {
		s->rel_mad = s->mad / s->median;
		s->rel_robust_sd = s->robust_sd / s->median;
	}
}
