/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a difference between two series of runs is real.  Runs on these
 * machines spread by up to 30 %, so a ratio alone says little: these are
 * the one implementation of the interval of a ratio, the rank test and
 * the number of runs a difference needs, shared by chatbench-compare, the
 * overhead harness (median of paired ratios) and a series' resolution.
 * Bootstraps draw from a fixed-seed generator of their own, so the same
 * input always gives the same interval, in the tools and in the tests.
 */
#ifndef CHATBENCH_INFER_H
#define CHATBENCH_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INFER_BOOT_B		10000	/* resamples */
#define INFER_BOOT_SEED		0x6368617462656e63ULL	/* "chatbenc" */
#define INFER_LEVEL		0.95	/* two-sided confidence */
#define INFER_ALPHA		0.05	/* two-sided test level */
#define INFER_POWER		0.8
#define INFER_RESOLVE		0.02	/* relative difference to resolve */
#define INFER_MW_EXACT_MAX	20	/* largest side for the exact test */

/* splitmix64: small, fast, and the same sequence everywhere. */
struct infer_rng {
	uint64_t state;
};

void infer_rng_seed(struct infer_rng *r, uint64_t seed);
uint64_t infer_rng_next(struct infer_rng *r);
/* Uniform in [0, n), n > 0 (modulo bias below n / 2^64). */
size_t infer_rng_below(struct infer_rng *r, size_t n);

/* Bootstrap settings; a NULL pointer, or a 0 field, means the default. */
struct infer_boot {
	unsigned int b;		/* resamples, INFER_BOOT_B */
	uint64_t seed;		/* INFER_BOOT_SEED */
	double level;		/* INFER_LEVEL */
};

/*
 * Percentile bootstrap interval of mean(x) / mean(y) for two independent
 * samples: each side resampled with replacement, b times.  0 and
 * ci[0] <= ci[1]; -1 when a side has fewer than 2 values (one value says
 * nothing of its spread), y holds a value <= 0, or out of memory.
 */
int infer_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		   const struct infer_boot *opt, double ci[2]);

/*
 * Percentile bootstrap interval of mean(x) - mean(y), two independent
 * samples, as infer_ratio_ci (any values); -1 when a side has fewer than
 * 2 values or out of memory.
 */
int infer_diff_ci(const double *x, size_t nx, const double *y, size_t ny,
		  const struct infer_boot *opt, double ci[2]);

/*
 * Percentile bootstrap interval of the median of one sample (say the
 * ratios of traced to untraced runs taken in pairs).  0 and ci; -1 when
 * n < 2 or out of memory.
 */
int infer_median_ci(const double *v, size_t n, const struct infer_boot *opt,
		    double ci[2]);

enum infer_mw_method {
	INFER_MW_AUTO,		/* exact without ties up to EXACT_MAX a side */
	INFER_MW_EXACT,		/* -1 with ties or a side above EXACT_MAX */
	INFER_MW_NORMAL,	/* tie and continuity corrected */
};

struct infer_mw {
	double u;		/* pairs with x > y, ties counting 1/2 */
	double p;		/* two-sided */
	bool exact;
};

/*
 * Mann-Whitney U test of x against y, two-sided.  0 and *out; -1 when a
 * side is empty, EXACT cannot be had, or out of memory.
 */
int infer_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		       enum infer_mw_method method, struct infer_mw *out);

/* The standard normal's distribution function and its inverse. */
double infer_norm_cdf(double z);
/* p in (0, 1); NAN outside. */
double infer_norm_quantile(double p);

/*
 * The noise of two samples as one relative SD: their relative robust SDs
 * (stats_rel_robust_sd) pooled by degrees of freedom,
 * sqrt(((nx - 1) cx^2 + (ny - 1) cy^2) / (nx + ny - 2)).  NAN when either
 * side has fewer than 2 values.
 */
double infer_pooled_rel_sd(const double *x, size_t nx, const double *y,
			   size_t ny);

/*
 * Runs per side for a two-sided test at alpha to see a relative
 * difference d with the given power, at relative noise cv:
 * ceil(2 (z_{1-alpha/2} + z_{power})^2 cv^2 / d^2), at least 2.
 * -1 when an argument is out of range (cv < 0, d <= 0, alpha or power
 * outside (0, 1)); INT_MAX when the count does not fit.
 */
int infer_runs_needed(double cv, double d, double alpha, double power);

/*
 * The other way round: the smallest relative difference that n runs per
 * side resolve at noise cv, (z_{1-alpha/2} + z_{power}) cv sqrt(2 / n).
 * NAN when n < 2 or an argument is out of range.
 */
double infer_resolvable(double cv, size_t n, double alpha, double power);

#endif
