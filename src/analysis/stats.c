// SPDX-License-Identifier: GPL-2.0
/*
 * Mean, extremes, median and MAD of a small sample.  Samples are copied
 * before sorting so that callers keep their runs in run order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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
	qsort(c, n, sizeof(*c), cmp_double);
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
	if (s->median > 0)
		s->rel_mad = s->mad / s->median;
}
