// SPDX-License-Identifier: GPL-2.0
/*
 * Intervals, the rank test and run counts for series of a few runs.  The
 * bootstrap makes no assumption about the shape of the noise (a slow run
 * now and then is the rule here), the rank test none either, and both are
 * cheap at these sizes: 10000 resamples of 10 runs take a millisecond.
 * The exact rank distribution is counted rather than looked up, so that
 * small series, the usual case, get exact p-values.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/infer.h"
#include "util/stats.h"

void infer_rng_seed(struct infer_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t infer_rng_next(struct infer_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t infer_rng_below(struct infer_rng *r, size_t n)
{
	return (size_t)(infer_rng_next(r) % n);
}

/* The settings with defaults filled in; -1 when the level is not in (0, 1). */
static int boot_settings(const struct infer_boot *opt, struct infer_boot *o)
{
	o->b = opt && opt->b ? opt->b : INFER_BOOT_B;
	o->seed = opt && opt->seed ? opt->seed : INFER_BOOT_SEED;
	o->level = opt && opt->level ? opt->level : INFER_LEVEL;
	return o->level > 0 && o->level < 1 ? 0 : -1;
}

/* The percentile interval of the b resampled statistics (sorted here). */
static void percentile_interval(double *stat, unsigned int b, double level,
				double ci[2])
{
	double tail = (1 - level) / 2;

	stats_sort(stat, b);
	ci[0] = stats_quantile_sorted(stat, b, tail);
	ci[1] = stats_quantile_sorted(stat, b, 1 - tail);
}

static double resample_mean(struct infer_rng *r, const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[infer_rng_below(r, n)];
	return sum / (double)n;
}

/* The bootstrap of a statistic of two independent samples' means. */
static int boot_two(const double *x, size_t nx, const double *y, size_t ny,
		    const struct infer_boot *opt, bool ratio, double ci[2])
{
	struct infer_boot o;
	struct infer_rng r;
	double *stat, mx;
	unsigned int k;

	if (nx < 2 || ny < 2 || boot_settings(opt, &o))
		return -1;
	stat = malloc(o.b * sizeof(*stat));
	if (!stat)
		return -1;
	infer_rng_seed(&r, o.seed);
	for (k = 0; k < o.b; k++) {
		mx = resample_mean(&r, x, nx);
		stat[k] = ratio ? mx / resample_mean(&r, y, ny) :
				  mx - resample_mean(&r, y, ny);
	}
	percentile_interval(stat, o.b, o.level, ci);
	free(stat);
	return 0;
}

int infer_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		   const struct infer_boot *opt, double ci[2])
{
	size_t i;

	for (i = 0; i < ny; i++)
		if (!(y[i] > 0))
			return -1;
	return boot_two(x, nx, y, ny, opt, true, ci);
}

int infer_diff_ci(const double *x, size_t nx, const double *y, size_t ny,
		  const struct infer_boot *opt, double ci[2])
{
	return boot_two(x, nx, y, ny, opt, false, ci);
}

int infer_median_ci(const double *v, size_t n, const struct infer_boot *opt,
		    double ci[2])
{
	double *stat, *draw = NULL;
	struct infer_boot o;
	struct infer_rng r;
	unsigned int k;
	size_t i;
	int ret = -1;

	if (n < 2 || boot_settings(opt, &o))
		return -1;
	stat = malloc(o.b * sizeof(*stat));
	draw = malloc(n * sizeof(*draw));
	if (!stat || !draw)
		goto cleanup;
	infer_rng_seed(&r, o.seed);
	for (k = 0; k < o.b; k++) {
		for (i = 0; i < n; i++)
			draw[i] = v[infer_rng_below(&r, n)];
		stats_sort(draw, n);
		stat[k] = stats_quantile_sorted(draw, n, 0.5);
	}
	percentile_interval(stat, o.b, o.level, ci);
	ret = 0;
cleanup:
	free(stat);
	free(draw);
	return ret;
}

struct ranked {
	double v;
	bool is_x;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * U of x from the midranks of the pooled sample, and the tie term
 * sum(t^3 - t) over groups of t equal values.  -1 when out of memory.
 */
static int rank_sum(const double *x, size_t nx, const double *y, size_t ny,
		    double *u, double *ties)
{
	size_t n = nx + ny, i, j, k;
	struct ranked *p = malloc(n * sizeof(*p));
	double rx = 0, t, mid;

	if (!p)
		return -1;
	for (i = 0; i < nx; i++)
		p[i] = (struct ranked){ x[i], true };
	for (i = 0; i < ny; i++)
		p[nx + i] = (struct ranked){ y[i], false };
	qsort(p, n, sizeof(*p), cmp_ranked);
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		/* ranks i + 1 .. j share their mean */
		mid = (double)(i + 1 + j) / 2;
		for (k = i; k < j; k++)
			if (p[k].is_x)
				rx += mid;
		t = (double)(j - i);
		*ties += t * t * t - t;
	}
	free(p);
	*u = rx - (double)nx * (double)(nx + 1) / 2;
	return 0;
}

/*
 * Two-sided exact p of U = u without ties: the number of orderings of
 * m x's and n y's with each U, f(i, j, u) = f(i - 1, j, u - j) +
 * f(i, j - 1, u) (the largest value is an x, beating all j y's, or a y),
 * counted in doubles, exact up to C(40, 20) and beyond.
 */
static int exact_p(double u, size_t m, size_t n, double *p)
{
	size_t umax = m * n, i, j, k, w = umax + 1;
	double *f = calloc((m + 1) * (n + 1) * w, sizeof(*f));
	double below = 0, above = 0, total = 0, c;

#define F(i, j, k)	f[((i) * (n + 1) + (j)) * w + (k)]
	if (!f)
		return -1;
	for (i = 0; i <= m; i++) {
		for (j = 0; j <= n; j++) {
			if (!i || !j) {
				F(i, j, 0) = 1;
				continue;
			}
			for (k = 0; k <= i * j; k++)
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) +
					     F(i, j - 1, k);
		}
	}
	for (k = 0; k <= umax; k++) {
		c = F(m, n, k);
		total += c;
		if ((double)k <= u)
			below += c;
		if ((double)k >= u)
			above += c;
	}
#undef F
	free(f);
	*p = fmin(1.0, 2 * fmin(below, above) / total);
	return 0;
}

/* Normal approximation with the tie correction and a continuity of 1/2. */
static double normal_p(double u, size_t m, size_t n, double ties)
{
	double nn = (double)(m + n), mn = (double)m * (double)n;
	double var = mn / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	double z;

	if (!(var > 0))
		return 1.0;
	z = (fabs(u - mn / 2) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1.0;
	return fmin(1.0, 2 * (1 - infer_norm_cdf(z)));
}

int infer_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		       enum infer_mw_method method, struct infer_mw *out)
{
	bool small = nx <= INFER_MW_EXACT_MAX && ny <= INFER_MW_EXACT_MAX;
	double u, ties;

	if (!nx || !ny || rank_sum(x, nx, y, ny, &u, &ties))
		return -1;
	out->u = u;
	out->exact = method == INFER_MW_EXACT ||
		     (method == INFER_MW_AUTO && small && ties == 0);
	if (!out->exact) {
		out->p = normal_p(u, nx, ny, ties);
		return 0;
	}
	if (!small || ties != 0)
		return -1;
	return exact_p(u, nx, ny, &out->p);
}

double infer_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Acklam's rational approximation, then one Halley step on erfc. */
double infer_norm_quantile(double p)
{
	static const double a[] = {
		-3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00,
	};
	static const double b[] = {
		-5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01,
	};
	static const double c[] = {
		-7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00, 2.938163982698783e+00,
	};
	static const double d[] = {
		7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00,
	};
	double q, r, x, e;

	if (!(p > 0 && p < 1))
		return NAN;
	if (p < 0.02425 || p > 1 - 0.02425) {
		q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		     q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		if (p > 0.5)
			x = -x;
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		     r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) *
		     r + 1);
	}
	e = infer_norm_cdf(x) - p;
	r = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - r / (1 + x * r / 2);
}

double infer_pooled_rel_sd(const double *x, size_t nx, const double *y,
			   size_t ny)
{
	double cx, cy;

	if (nx < 2 || ny < 2)
		return NAN;
	cx = stats_rel_robust_sd(x, nx);
	cy = stats_rel_robust_sd(y, ny);
	return sqrt(((double)(nx - 1) * cx * cx + (double)(ny - 1) * cy * cy) /
		    (double)(nx + ny - 2));
}

/* z_{1-alpha/2} + z_{power}; NAN when either is out of (0, 1). */
static double z_sum(double alpha, double power)
{
	if (!(alpha > 0 && alpha < 1 && power > 0 && power < 1))
		return NAN;
	return infer_norm_quantile(1 - alpha / 2) + infer_norm_quantile(power);
}

int infer_runs_needed(double cv, double d, double alpha, double power)
{
	double z = z_sum(alpha, power), n;

	if (isnan(z) || !(cv >= 0) || !(d > 0))
		return -1;
	n = ceil(2 * z * z * cv * cv / (d * d) - 1e-9);
	if (!(n < INT_MAX))
		return INT_MAX;
	return n < 2 ? 2 : (int)n;
}

double infer_resolvable(double cv, size_t n, double alpha, double power)
{
	double z = z_sum(alpha, power);

	if (isnan(z) || !(cv >= 0) || n < 2)
		return NAN;
	return z * cv * sqrt(2.0 / (double)n);
}
