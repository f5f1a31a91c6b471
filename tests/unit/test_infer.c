// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the inference code against values known apart from it:
 * Mann-Whitney p-values counted by hand or by enumerating every ordering
 * (and scipy's documented example), normal quantiles to 15 digits, the
 * run count of the worked example, and bootstrap intervals
 * against the delta method on a sample large enough for it to hold.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <cmocka.h>

#include "analysis/infer.h"
#include "util/stats.h"

#define N_OF(a)	(sizeof(a) / sizeof((a)[0]))

static double mw_p(const double *x, size_t nx, const double *y, size_t ny,
		   enum infer_mw_method m, bool *exact)
{
	struct infer_mw r;

	assert_int_equal(infer_mann_whitney(x, nx, y, ny, m, &r), 0);
	if (exact)
		*exact = r.exact;
	return r.p;
}

static void test_mw_exact_small(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 1, 2, 3, 4, 5 }, d[] = { 6, 7, 8, 9, 10 };
	const double e[] = { 1, 3, 5, 7 }, f[] = { 2, 4, 6, 8, 9 };
	struct infer_mw r;
	bool exact;

	(void)state;
	/* One of the C(6, 3) = 20 orderings has U = 0, one U = 9. */
	assert_float_equal(mw_p(a, 3, b, 3, INFER_MW_AUTO, &exact), 0.1,
			   1e-12);
	assert_true(exact);
	assert_float_equal(mw_p(b, 3, a, 3, INFER_MW_AUTO, NULL), 0.1, 1e-12);
	assert_float_equal(mw_p(c, 5, d, 5, INFER_MW_AUTO, NULL), 2.0 / 252,
			   1e-12);
	/* U = 6; 52 of the C(9, 4) = 126 orderings have U <= 6 (enumerated) */
	assert_float_equal(mw_p(e, 4, f, 5, INFER_MW_AUTO, NULL),
			   0.4126984126984127, 1e-12);
	assert_int_equal(infer_mann_whitney(e, 4, f, 5, INFER_MW_AUTO, &r), 0);
	assert_float_equal(r.u, 6, 0);
	/* Identical samples: p = 1 */
	assert_float_equal(mw_p(c, 5, c, 5, INFER_MW_AUTO, &exact), 1.0,
			   1e-12);
}

/* scipy.stats.mannwhitneyu's documented example (Conover's data). */
static void test_mw_scipy_example(void **state)
{
	const double males[] = { 19, 22, 16, 29, 24 };
	const double females[] = { 20, 11, 17, 12 };
	struct infer_mw r;

	(void)state;
	assert_int_equal(infer_mann_whitney(males, 5, females, 4,
					    INFER_MW_AUTO, &r), 0);
	assert_float_equal(r.u, 17, 0);
	assert_true(r.exact);
	assert_float_equal(r.p, 1.0 / 9, 1e-12);
	assert_float_equal(mw_p(males, 5, females, 4, INFER_MW_NORMAL, NULL),
			   0.11134688653314041, 1e-12);
}

static void test_mw_normal_ties(void **state)
{
	/* Values by hand: U = 3.5, ties 1,3,4,3,1,1,1 -> sum(t^3 - t) = 54 */
	const double x[] = { 1, 2, 2, 3, 3, 3, 4 };
	const double y[] = { 3, 4, 4, 5, 5, 6, 7 };
	struct infer_mw r;

	(void)state;
	assert_int_equal(infer_mann_whitney(x, 7, y, 7, INFER_MW_AUTO, &r), 0);
	assert_false(r.exact);
	assert_float_equal(r.u, 3.5, 1e-12);
	assert_float_equal(r.p, 0.007659988586736329, 1e-12);
	/* No exact test with ties */
	assert_int_equal(infer_mann_whitney(x, 7, y, 7, INFER_MW_EXACT, &r),
			 -1);
}

static void test_mw_normal_large(void **state)
{
	double x[30], y[30];
	struct infer_mw r;
	size_t i;

	(void)state;
	for (i = 0; i < 30; i++) {
		x[i] = (double)i;
		y[i] = (double)i + 10.5;
	}
	/* Above INFER_MW_EXACT_MAX a side: normal, U = 190 */
	assert_int_equal(infer_mann_whitney(x, 30, y, 30, INFER_MW_AUTO, &r),
			 0);
	assert_false(r.exact);
	assert_float_equal(r.u, 190, 1e-12);
	assert_float_equal(r.p, 0.00012477053789099963, 1e-12);
	assert_int_equal(infer_mann_whitney(x, 30, y, 30, INFER_MW_EXACT, &r),
			 -1);
	assert_int_equal(infer_mann_whitney(x, 0, y, 30, INFER_MW_AUTO, &r),
			 -1);
}

/* The exact test and the approximation agree once samples are large. */
static void test_mw_exact_near_normal(void **state)
{
	double x[20], y[20], pe, pn;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) {
		x[i] = (double)(2 * i);
		y[i] = (double)(2 * i) + 7.5;
	}
	pe = mw_p(x, 20, y, 20, INFER_MW_EXACT, NULL);
	pn = mw_p(x, 20, y, 20, INFER_MW_NORMAL, NULL);
	assert_true(pe > 0 && pe < 1);
	assert_float_equal(pe, pn, 0.01);
}

static void test_norm_quantile(void **state)
{
	(void)state;
	assert_float_equal(infer_norm_quantile(0.975), 1.9599639845400536,
			   1e-14);
	assert_float_equal(infer_norm_quantile(0.8), 0.8416212335729144,
			   1e-14);
	assert_float_equal(infer_norm_quantile(0.5), 0.0, 1e-15);
	assert_float_equal(infer_norm_quantile(0.001), -3.090232306167813,
			   1e-12);
	assert_float_equal(infer_norm_cdf(1.9599639845400536), 0.975, 1e-15);
	assert_true(isnan(infer_norm_quantile(0)));
	assert_true(isnan(infer_norm_quantile(1)));
}

static void test_runs_needed(void **state)
{
	(void)state;
	/* 2 (1.95996 + 0.84162)^2 0.1^2 / 0.02^2 = 392.44 */
	assert_int_equal(infer_runs_needed(0.1, 0.02, 0.05, 0.8), 393);
	/* 2 x 7.8489 x 1e-4 / 4e-4 = 3.92 */
	assert_int_equal(infer_runs_needed(0.01, 0.02, 0.05, 0.8), 4);
	assert_int_equal(infer_runs_needed(0, 0.02, 0.05, 0.8), 2);
	assert_int_equal(infer_runs_needed(0.001, 0.02, 0.05, 0.8), 2);
	assert_int_equal(infer_runs_needed(1e6, 1e-6, 0.05, 0.8), INT_MAX);
	assert_int_equal(infer_runs_needed(-0.1, 0.02, 0.05, 0.8), -1);
	assert_int_equal(infer_runs_needed(0.1, 0, 0.05, 0.8), -1);
	assert_int_equal(infer_runs_needed(0.1, 0.02, 1, 0.8), -1);
	/* The inverse: 393 runs resolve a little under 2 % */
	assert_float_equal(infer_resolvable(0.1, 393, 0.05, 0.8), 0.02,
			   0.0001);
	assert_true(infer_resolvable(0.1, 393, 0.05, 0.8) <= 0.02);
	assert_true(isnan(infer_resolvable(0.1, 1, 0.05, 0.8)));
}

static void test_pooled_rel_sd(void **state)
{
	/* medians 100 and 200, MADs 10 and 20: both 1.4826 x 0.1 */
	const double x[] = { 90, 100, 110 }, y[] = { 180, 200, 220, 200, 180 };

	(void)state;
	assert_float_equal(infer_pooled_rel_sd(x, 3, y, 5), 0.14826, 1e-12);
	assert_true(isnan(infer_pooled_rel_sd(x, 1, y, 5)));
}

static void test_ratio_ci_identical(void **state)
{
	const double v[] = { 400, 380, 420, 395, 405, 390, 410 };
	double ci[2];

	(void)state;
	assert_int_equal(infer_ratio_ci(v, 7, v, 7, NULL, ci), 0);
	assert_true(ci[0] < 1 && ci[1] > 1);
	assert_true(ci[0] > 0.9 && ci[1] < 1.1);
}

static void test_ratio_ci_separated(void **state)
{
	const double x[] = { 98, 101, 103, 99, 100 };
	const double y[] = { 199, 202, 197, 201, 200 };
	double ci[2];

	(void)state;
	assert_int_equal(infer_ratio_ci(x, 5, y, 5, NULL, ci), 0);
	assert_true(ci[0] < 0.5 && ci[1] > 0.5);
	assert_true(ci[1] < 1);
	/* Too few runs, or a non-positive base value */
	assert_int_equal(infer_ratio_ci(x, 1, y, 5, NULL, ci), -1);
	assert_int_equal(infer_ratio_ci(y, 5, (double[]){ 1, 0 }, 2, NULL, ci),
			 -1);
}

/*
 * The difference of means: a shift of 100 is inside its interval, a
 * sample against itself holds 0, constants give a point, and one value a
 * side says nothing.
 */
static void test_diff_ci(void **state)
{
	const double x[] = { 198, 201, 203, 199, 200, 204, 197 };
	const double y[] = { 98, 101, 103, 99, 100, 104, 97 };
	const double c[] = { 5, 5, 5 };
	double ci[2];

	(void)state;
	assert_int_equal(infer_diff_ci(x, 7, y, 7, NULL, ci), 0);
	assert_true(ci[0] < 100 && ci[1] > 100);
	assert_true(ci[0] > 95 && ci[1] < 105);
	assert_int_equal(infer_diff_ci(x, 7, x, 7, NULL, ci), 0);
	assert_true(ci[0] < 0 && ci[1] > 0);
	assert_int_equal(infer_diff_ci(c, 3, c, 3, NULL, ci), 0);
	assert_float_equal(ci[0], 0, 1e-12);
	assert_float_equal(ci[1], 0, 1e-12);
	/* Negative values are fine here, unlike in a ratio */
	assert_int_equal(infer_diff_ci(y, 7, (double[]){ -1, 1 }, 2, NULL,
				       ci), 0);
	assert_int_equal(infer_diff_ci(x, 1, y, 7, NULL, ci), -1);
}

static void test_ratio_ci_deterministic(void **state)
{
	const double x[] = { 310, 402, 377, 390, 350, 420 };
	const double y[] = { 380, 400, 395, 410, 405, 300 };
	struct infer_boot other = { .seed = 42 };
	double a[2], b[2], c[2];

	(void)state;
	assert_int_equal(infer_ratio_ci(x, 6, y, 6, NULL, a), 0);
	assert_int_equal(infer_ratio_ci(x, 6, y, 6, NULL, b), 0);
	assert_memory_equal(a, b, sizeof(a));
	/* Another seed: another, close interval */
	assert_int_equal(infer_ratio_ci(x, 6, y, 6, &other, c), 0);
	assert_true(a[0] != c[0] || a[1] != c[1]);
	assert_float_equal(a[0], c[0], 0.01);
	assert_float_equal(a[1], c[1], 0.01);
}

/*
 * On 50 runs a side the percentile interval is close to the delta
 * method's ratio +- 1.96 se, se^2 = R^2 (vx / (nx mx^2) + vy / (ny my^2))
 * with the plug-in variances the bootstrap itself sees.
 */
static void test_ratio_ci_delta(void **state)
{
	double x[50], y[50], mx = 0, my = 0, vx = 0, vy = 0, r, se, ci[2];
	size_t i;

	(void)state;
	for (i = 0; i < 50; i++) {
		x[i] = 100 + 10 * sin((double)i);
		y[i] = 120 + 15 * cos(1.7 * (double)i);
		mx += x[i] / 50;
		my += y[i] / 50;
	}
	for (i = 0; i < 50; i++) {
		vx += (x[i] - mx) * (x[i] - mx) / 50;
		vy += (y[i] - my) * (y[i] - my) / 50;
	}
	r = mx / my;
	se = r * sqrt(vx / (50 * mx * mx) + vy / (50 * my * my));
	assert_int_equal(infer_ratio_ci(x, 50, y, 50, NULL, ci), 0);
	assert_float_equal(ci[0], r - 1.959964 * se, 0.1 * se);
	assert_float_equal(ci[1], r + 1.959964 * se, 0.1 * se);
}

static void test_median_ci(void **state)
{
	const double same[] = { 1.02, 1.02, 1.02, 1.02 };
	const double v[] = { 1.01, 1.03, 0.99, 1.02, 1.05, 1.00, 1.04, 1.02,
			     1.03 };
	struct infer_boot lvl = { .level = 0.5 };
	double ci[2], narrow[2], again[2];

	(void)state;
	assert_int_equal(infer_median_ci(same, 4, NULL, ci), 0);
	assert_float_equal(ci[0], 1.02, 1e-15);
	assert_float_equal(ci[1], 1.02, 1e-15);
	assert_int_equal(infer_median_ci(v, N_OF(v), NULL, ci), 0);
	/* holds the sample median 1.02, within the sample's range */
	assert_true(ci[0] <= 1.02 && ci[1] >= 1.02);
	assert_true(ci[0] >= 0.99 && ci[1] <= 1.05);
	assert_int_equal(infer_median_ci(v, N_OF(v), NULL, again), 0);
	assert_memory_equal(ci, again, sizeof(ci));
	/* a 50 % interval is inside the 95 % one */
	assert_int_equal(infer_median_ci(v, N_OF(v), &lvl, narrow), 0);
	assert_true(narrow[0] >= ci[0] && narrow[1] <= ci[1]);
	assert_int_equal(infer_median_ci(v, 1, NULL, ci), -1);
	lvl.level = 1.5;
	assert_int_equal(infer_median_ci(v, N_OF(v), &lvl, ci), -1);
}

/*
 * The bootstrap median of n distinct values is known exactly: it is at
 * most the k-th smallest when at least (n + 1) / 2 draws are, so
 * P = P(Binomial(n, k / n) >= (n + 1) / 2).  For n = 9 that is 0.0014 at
 * k = 1, 0.0304 at k = 2, 0.9696 at k = 7 and 0.9986 at k = 8: the 95 %
 * percentile interval is [2nd, 8th smallest].
 */
static void test_median_ci_exact(void **state)
{
	const double v[] = { 5, 1, 9, 3, 7, 2, 8, 4, 6 };
	double ci[2];

	(void)state;
	assert_int_equal(infer_median_ci(v, N_OF(v), NULL, ci), 0);
	assert_float_equal(ci[0], 2, 0);
	assert_float_equal(ci[1], 8, 0);
}

static void test_rng(void **state)
{
	struct infer_rng a, b;
	size_t i, seen[5] = { 0 };

	(void)state;
	/* splitmix64's published first output for seed 0 */
	infer_rng_seed(&a, 0);
	assert_true(infer_rng_next(&a) == 0xe220a8397b1dcdafULL);
	infer_rng_seed(&a, 7);
	infer_rng_seed(&b, 7);
	for (i = 0; i < 1000; i++)
		assert_true(infer_rng_next(&a) == infer_rng_next(&b));
	for (i = 0; i < 5000; i++)
		seen[infer_rng_below(&a, 5)]++;
	for (i = 0; i < 5; i++)
		assert_true(seen[i] > 850 && seen[i] < 1150);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mw_exact_small),
		cmocka_unit_test(test_mw_scipy_example),
		cmocka_unit_test(test_mw_normal_ties),
		cmocka_unit_test(test_mw_normal_large),
		cmocka_unit_test(test_mw_exact_near_normal),
		cmocka_unit_test(test_norm_quantile),
		cmocka_unit_test(test_runs_needed),
		cmocka_unit_test(test_pooled_rel_sd),
		cmocka_unit_test(test_ratio_ci_identical),
		cmocka_unit_test(test_ratio_ci_separated),
		cmocka_unit_test(test_ratio_ci_deterministic),
		cmocka_unit_test(test_diff_ci),
		cmocka_unit_test(test_ratio_ci_delta),
		cmocka_unit_test(test_median_ci),
		cmocka_unit_test(test_median_ci_exact),
		cmocka_unit_test(test_rng),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
