/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of the log-linear histogram buckets shared by the BPF
 * programs and user space (bpf/chatbench.h): exact small buckets, the
 * boundaries between groups, monotonicity, bounds that round-trip, the
 * relative width that bounds percentile error, and the clamp at the top.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "chatbench.h"

static void test_small_values_exact(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < CB_HIST_SUB; v++) {
		assert_int_equal(cb_hist_bucket(v), v);
		assert_int_equal(cb_hist_lo(v), v);
		assert_int_equal(cb_hist_hi(v), v + 1);
	}
}

static void test_group_boundaries(void **state)
{
	(void)state;
	assert_int_equal(cb_hist_bucket(16), 16);
	assert_int_equal(cb_hist_bucket(31), 31);
	assert_int_equal(cb_hist_bucket(32), 32);
	assert_int_equal(cb_hist_bucket(33), 32);
	assert_int_equal(cb_hist_bucket(34), 33);
	assert_int_equal(cb_hist_bucket(63), 47);
	assert_int_equal(cb_hist_bucket(64), 48);
	assert_int_equal(cb_hist_bucket(1023), cb_hist_bucket(1024) - 1);
}

static void test_log2(void **state)
{
	uint64_t v = 1;
	int i;

	(void)state;
	for (i = 0; i < 64; i++, v <<= 1) {
		assert_int_equal(cb_log2(v), i);
		if (i > 0)
			assert_int_equal(cb_log2(v | (v - 1)), i);
	}
	/* A pseudo-random walk against the compiler's count of zeros. */
	v = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < 100000; i++) {
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		assert_int_equal(cb_log2(v), 63 - __builtin_clzll(v));
	}
}

static void test_monotonic(void **state)
{
	uint32_t prev = 0, b;
	uint64_t v;

	(void)state;
	for (v = 0; v < 2000000; v++) {
		b = cb_hist_bucket(v);
		assert_true(b == prev || b == prev + 1);
		prev = b;
	}
	for (v = 2000000; v < (1ULL << 40); v += v / 97) {
		b = cb_hist_bucket(v);
		assert_true(b >= prev);
		prev = b;
	}
}

static void test_bounds_round_trip(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < CB_HIST_BUCKETS - 1; i++) {
		uint64_t lo = cb_hist_lo(i), hi = cb_hist_hi(i);

		assert_true(lo < hi);
		assert_int_equal(cb_hist_bucket(lo), i);
		assert_int_equal(cb_hist_bucket(hi - 1), i);
		assert_int_equal(cb_hist_lo(i + 1), hi);
		/* At most 1/16 of the value wide: percentiles within 6.25%. */
		if (i >= CB_HIST_SUB)
			assert_true((hi - lo) * CB_HIST_SUB <= lo);
	}
}

static void test_clamp(void **state)
{
	(void)state;
	assert_int_equal(cb_hist_bucket(~0ULL), CB_HIST_BUCKETS - 1);
	assert_int_equal(cb_hist_bucket(1ULL << 40), CB_HIST_BUCKETS - 1);
	assert_int_equal(cb_hist_bucket(cb_hist_lo(CB_HIST_BUCKETS - 1)),
			 CB_HIST_BUCKETS - 1);
	assert_true(cb_hist_hi(CB_HIST_BUCKETS - 1) == ~0ULL);
	/* 10 s in ns must still be resolved, not clamped. */
	assert_true(cb_hist_bucket(10000000000ULL) < CB_HIST_BUCKETS - 1);
}

static void test_role_of_comm(void **state)
{
	uint64_t w = 0;

	(void)state;
	memcpy(&w, "cli_snd", 7);
	assert_int_equal(cb_role_of_comm(w), CB_ROLE_CLI_SND);
	memcpy(&w, "srv_rcv7", 8);
	assert_int_equal(cb_role_of_comm(w), CB_ROLE_SRV_RCV);
	w = 0;
	memcpy(&w, "chat_c", 6);
	assert_int_equal(cb_role_of_comm(w), CB_ROLE_OTHER);
	memcpy(&w, "ksoftirq", 8);
	assert_true(w == CB_COMM_KSOFTIRQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_group_boundaries),
		cmocka_unit_test(test_log2),
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_bounds_round_trip),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_role_of_comm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
