// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the run statistics and the summary of repeated runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/stats.h"
#include "analysis/summary.h"

static void test_median_odd_even(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_float_equal(stats_median(odd, 3), 3.0, 1e-12);
	assert_float_equal(stats_median(even, 4), 2.5, 1e-12);
	assert_float_equal(stats_median(odd, 0), 0.0, 1e-12);
}

static void test_median_keeps_input_order(void **state)
{
	double v[] = { 3, 1, 2 };

	(void)state;
	stats_median(v, 3);
	assert_float_equal(v[0], 3.0, 0);
	assert_float_equal(v[1], 1.0, 0);
}

static void test_mad(void **state)
{
	/* deviations from 3: 2 1 0 1 97 -> median 1 */
	const double v[] = { 1, 2, 3, 4, 100 };

	(void)state;
	assert_float_equal(stats_mad(v, 5, 3.0), 1.0, 1e-12);
}

static void test_robust_sd(void **state)
{
	/* median 3, MAD 1: one wild run moves neither */
	const double v[] = { 1, 2, 3, 4, 100 }, zero[] = { -2, -1, -1 };

	(void)state;
	assert_float_equal(stats_robust_sd(v, 5), 1.4826, 1e-12);
	assert_float_equal(stats_rel_robust_sd(v, 5), 1.4826 / 3, 1e-12);
	assert_float_equal(stats_rel_robust_sd(zero, 3), 0.0, 0);
	assert_float_equal(stats_robust_sd(v, 0), 0.0, 0);
}

static void test_quantile_sorted(void **state)
{
	const double v[] = { 10, 20, 30, 40, 50 };

	(void)state;
	/* R: quantile(c(10,20,30,40,50), c(0, .1, .5, .975, 1)) */
	assert_float_equal(stats_quantile_sorted(v, 5, 0), 10, 0);
	assert_float_equal(stats_quantile_sorted(v, 5, 0.1), 14, 1e-12);
	assert_float_equal(stats_quantile_sorted(v, 5, 0.5), 30, 1e-12);
	assert_float_equal(stats_quantile_sorted(v, 5, 0.975), 49, 1e-12);
	assert_float_equal(stats_quantile_sorted(v, 5, 1), 50, 0);
	assert_float_equal(stats_quantile_sorted(v, 1, 0.3), 10, 0);
	assert_float_equal(stats_quantile_sorted(v, 0, 0.3), 0, 0);
}

static void test_compute(void **state)
{
	const double v[] = { 400000, 420000, 380000, 410000 };
	struct stats s;

	(void)state;
	stats_compute(v, 4, &s);
	assert_int_equal(s.n, 4);
	assert_float_equal(s.avg, 402500.0, 1e-6);
	assert_float_equal(s.min, 380000.0, 0);
	assert_float_equal(s.max, 420000.0, 0);
	assert_float_equal(s.median, 405000.0, 1e-6);
	assert_float_equal(s.rel_spread, 40000.0 / 402500.0, 1e-12);
	/* |dev| = 5000 15000 25000 5000 -> median 10000 */
	assert_float_equal(s.mad, 10000.0, 1e-6);
	assert_float_equal(s.robust_sd, 14826.0, 1e-6);
	assert_float_equal(s.rel_robust_sd, 14826.0 / 405000.0, 1e-12);
}

static void test_single_run_has_no_spread(void **state)
{
	const double v[] = { 5 };
	struct stats s;

	(void)state;
	stats_compute(v, 1, &s);
	assert_float_equal(s.rel_spread, 0.0, 0);
	assert_float_equal(s.median, 5.0, 0);
}

static void test_summary_skips_failed_runs(void **state)
{
	struct run_result rs[3];
	struct stats s;

	(void)state;
	memset(rs, 0, sizeof(rs));
	rs[0].ok = true;
	rs[0].throughput = 100;
	rs[1].ok = false;
	rs[1].throughput = 1;
	rs[2].ok = true;
	rs[2].throughput = 300;
	summary_compute(rs, 3, &s);
	assert_int_equal(s.n, 2);
	assert_float_equal(s.avg, 200.0, 1e-9);
	assert_float_equal(s.min, 100.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_median_keeps_input_order),
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_robust_sd),
		cmocka_unit_test(test_quantile_sorted),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_single_run_has_no_spread),
		cmocka_unit_test(test_summary_skips_failed_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
