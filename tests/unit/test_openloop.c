// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of open-loop load: the fine latency histogram (resolution,
 * quantiles, the exact maximum), the send schedules (fixed spacing and
 * phases, Poisson's mean and spread), and the parsers of --arrival,
 * --sched/--nice/--slice and --background.
 */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/lathist.h"
#include "util/schedpol.h"
#include "workload/client/background.h"
#include "workload/client/openloop.h"

static void test_buckets_cover_and_resolve(void **state)
{
	uint64_t v;
	uint32_t i, prev = 0;

	(void)state;
	for (v = 0; v < LH_SUB; v++)
		assert_int_equal(lh_bucket(v), v);
	/* Every bucket holds what it claims, each under 1 % wide. */
	for (i = 0; i < LH_BUCKETS - 1; i++) {
		assert_int_equal(lh_bucket(lh_lo(i)), i);
		assert_int_equal(lh_bucket(lh_hi(i) - 1), i);
		assert_int_equal(lh_lo(i + 1), lh_hi(i));
		if (lh_lo(i) >= LH_SUB)
			assert_true((double)(lh_hi(i) - lh_lo(i)) /
				    (double)lh_lo(i) < 0.01);
	}
	/* Monotone over a walk from ns to minutes, clamped at the top. */
	for (v = 1; v < (1ULL << 40); v = v * 21 / 20 + 1) {
		i = lh_bucket(v);
		assert_true(i >= prev);
		prev = i;
	}
	assert_int_equal(lh_bucket(1ULL << 38), LH_BUCKETS - 1);
	assert_int_equal(lh_bucket(UINT64_MAX), LH_BUCKETS - 1);
	/* Minutes are in range: 4 minutes is not in the clamp bucket. */
	assert_true(lh_bucket(240ULL * 1000000000ULL) < LH_BUCKETS - 1);
}

static void add_value(lh_count_t *c, uint64_t *max, uint64_t v)
{
	c[lh_bucket(v)]++;
	if (v > *max)
		*max = v;
}

static void test_quantiles_within_one_percent(void **state)
{
	lh_count_t *c = calloc(LH_BUCKETS, sizeof(*c));
	struct lat_hist *h = calloc(1, sizeof(*h));
	struct lat_summary s;
	uint64_t max = 0, v;

	(void)state;
	assert_non_null(c);
	assert_non_null(h);
	/* 1..100000 us: the q-quantile is q x 100000 us. */
	for (v = 1; v <= 100000; v++)
		add_value(c, &max, v * 1000);
	lh_add(h, c, max);
	lh_summarize(h, &s);
	assert_int_equal(s.count, 100000);
	assert_int_equal(s.max, 100000000);
	assert_true(fabs((double)s.p50 - 50e6) / 50e6 < 0.01);
	assert_true(fabs((double)s.p90 - 90e6) / 90e6 < 0.01);
	assert_true(fabs((double)s.p99 - 99e6) / 99e6 < 0.01);
	assert_true(fabs((double)s.p999 - 99.9e6) / 99.9e6 < 0.01);
	assert_true(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 &&
		    s.p999 <= s.max);
	free(c);
	free(h);
}

static void test_merge_and_max(void **state)
{
	lh_count_t *c = calloc(LH_BUCKETS, sizeof(*c));
	struct lat_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	uint64_t max = 0;

	(void)state;
	add_value(c, &max, 1000);
	lh_add(a, c, max);
	memset(c, 0, LH_BUCKETS * sizeof(*c));
	max = 0;
	add_value(c, &max, 5000000);
	add_value(c, &max, 1ULL << 45);	/* beyond the range: clamped */
	lh_add(b, c, max);
	lh_merge(a, b);
	assert_int_equal(a->count, 3);
	assert_int_equal(a->max, 1ULL << 45);
	/* The clamp bucket answers with the exact maximum. */
	assert_int_equal(lh_quantile(a, 1.0), 1ULL << 45);
	/* Within its bucket, and never above what was seen. */
	assert_true(fabs((double)lh_quantile(b, 0.5) - 5e6) / 5e6 < 0.01);
	memset(c, 0, LH_BUCKETS * sizeof(*c));
	memset(b, 0, sizeof(*b));
	max = 0;
	add_value(c, &max, 5000000);
	lh_add(b, c, max);
	assert_int_equal(lh_quantile(b, 0.5), 5000000);
	free(c);
	free(a);
	free(b);
}

static void test_empty_histogram(void **state)
{
	struct lat_hist *h = calloc(1, sizeof(*h));
	struct lat_summary s;

	(void)state;
	lh_summarize(h, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.p99, 0);
	assert_int_equal(lh_quantile(h, 0.5), 0);
	free(h);
}

static void test_fixed_schedule(void **state)
{
	struct ol_user u, v;
	uint64_t t0 = 1000000000, prev, t;
	int k;

	(void)state;
	/* 500/s: every 2 ms, user 1 of 4 a quarter period later. */
	ol_start(&u, ARRIVAL_FIXED, 500, 0, 4, t0);
	ol_start(&v, ARRIVAL_FIXED, 500, 1, 4, t0);
	assert_int_equal(ol_next(&u), t0);
	assert_int_equal(ol_next(&v), t0 + 500000);
	prev = t0;
	for (k = 1; k < 100000; k++) {
		t = ol_next(&u);
		assert_true(t - prev >= 1999999 && t - prev <= 2000001);
		prev = t;
	}
	/* No drift: message k is at k x 2 ms exactly. */
	assert_int_equal(prev, t0 + 99999ULL * 2000000);
	/* A rate that does not divide a second: still no drift. */
	ol_start(&u, ARRIVAL_FIXED, 3, 0, 1, 0);
	for (k = 0; k < 3001; k++)
		t = ol_next(&u);
	assert_true(t >= 999999999999ULL && t <= 1000000000001ULL);
}

static void test_poisson_schedule(void **state)
{
	struct ol_user u, w;
	uint64_t prev, t, n = 200000, k;
	double sum = 0, sq = 0, mean, sd;

	(void)state;
	ol_start(&u, ARRIVAL_POISSON, 1000, 3, 10, 0);
	prev = 0;
	for (k = 0; k < n; k++) {
		double gap;

		t = ol_next(&u);
		assert_true(t >= prev);
		gap = (double)(t - prev);
		sum += gap;
		sq += gap * gap;
		prev = t;
	}
	/* Exponential gaps: mean and SD both 1 ms, within 1 %. */
	mean = sum / (double)n;
	sd = sqrt(sq / (double)n - mean * mean);
	assert_true(fabs(mean - 1e6) / 1e6 < 0.01);
	assert_true(fabs(sd - 1e6) / 1e6 < 0.02);
	/* Users draw independent streams. */
	ol_start(&u, ARRIVAL_POISSON, 1000, 3, 10, 0);
	ol_start(&w, ARRIVAL_POISSON, 1000, 4, 10, 0);
	assert_true(ol_next(&u) != ol_next(&w));
}

static void test_arrival_names(void **state)
{
	enum arrival a;

	(void)state;
	assert_int_equal(arrival_parse("poisson", &a), 0);
	assert_int_equal(a, ARRIVAL_POISSON);
	assert_string_equal(arrival_name(a), "poisson");
	assert_int_equal(arrival_parse("fixed", &a), 0);
	assert_int_equal(a, ARRIVAL_FIXED);
	assert_int_equal(arrival_parse("Fixed", &a), -1);
	assert_int_equal(arrival_parse("", &a), -1);
}

static void test_sched_spec(void **state)
{
	struct sched_spec s;
	char err[256];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_false(sched_spec_has(&s, CB_ROLE_CLI_SND));
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY, "all=batch",
					  err, sizeof(err)), 0);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY,
					  "srv_snd=fifo:10", err, sizeof(err)),
			 0);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_NICE, "client=5",
					  err, sizeof(err)), 0);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_SLICE,
					  "server=3000", err, sizeof(err)), 0);
	assert_int_equal(s.role[CB_ROLE_CLI_SND].policy, SCHED_BATCH);
	assert_int_equal(s.role[CB_ROLE_CLI_SND].nice, 5);
	assert_false(s.role[CB_ROLE_CLI_SND].slice_set);
	assert_int_equal(s.role[CB_ROLE_SRV_SND].policy, SCHED_FIFO);
	assert_int_equal(s.role[CB_ROLE_SRV_SND].prio, 10);
	assert_int_equal(s.role[CB_ROLE_SRV_RCV].policy, SCHED_BATCH);
	assert_true(s.role[CB_ROLE_SRV_LOOP].slice_set);
	assert_int_equal(s.role[CB_ROLE_SRV_LOOP].slice_ns, 3000000);
	assert_false(s.role[CB_ROLE_SRV_LOOP].nice_set);
	assert_true(sched_spec_has(&s, CB_ROLE_SRV_LOOP));
	assert_false(sched_spec_has(&s, CB_ROLE_OTHER));
	/* Errors name what is wrong. */
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY, "all=fifo",
					  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "priority"));
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY,
					  "all=batch:3", err, sizeof(err)), -1);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY, "all=fast",
					  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'fast'"));
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY, "cpu=batch",
					  err, sizeof(err)), -1);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY, "batch",
					  err, sizeof(err)), -1);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_NICE, "all=20",
					  err, sizeof(err)), -1);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_SLICE, "all=50",
					  err, sizeof(err)), -1);
	assert_int_equal(sched_spec_parse(&s, SCHED_WHAT_POLICY,
					  "all=rr:100", err, sizeof(err)), -1);
}

static void test_policy_names(void **state)
{
	struct sched_got g = { .policy = SCHED_FIFO, .prio = 7 };
	char buf[64];

	(void)state;
	sched_got_format(&g, buf, sizeof(buf));
	assert_string_equal(buf, "fifo:7");
	g = (struct sched_got){ .policy = SCHED_BATCH, .nice = -3,
				.slice_ns = 3000000 };
	sched_got_format(&g, buf, sizeof(buf));
	assert_string_equal(buf, "batch nice -3 slice 3000us");
	assert_string_equal(sched_policy_name(SCHED_IDLE), "idle");
	assert_string_equal(sched_policy_name(12345), "unknown");
}

static void test_background_spec(void **state)
{
	struct bg_spec b;
	char err[256];

	(void)state;
	assert_int_equal(bg_parse("burn=2", &b, err, sizeof(err)), 0);
	assert_int_equal(b.burners, 2);
	assert_int_equal(b.nice, 0);
	assert_int_equal(bg_parse("burn=4:19", &b, err, sizeof(err)), 0);
	assert_int_equal(b.burners, 4);
	assert_int_equal(b.nice, 19);
	assert_int_equal(bg_parse("burn=0", &b, err, sizeof(err)), -1);
	assert_int_equal(bg_parse("burn=2:20", &b, err, sizeof(err)), -1);
	assert_int_equal(bg_parse("spin=2", &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "burn=N"));
	assert_int_equal(bg_parse("burn=", &b, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_cover_and_resolve),
		cmocka_unit_test(test_quantiles_within_one_percent),
		cmocka_unit_test(test_merge_and_max),
		cmocka_unit_test(test_empty_histogram),
		cmocka_unit_test(test_fixed_schedule),
		cmocka_unit_test(test_poisson_schedule),
		cmocka_unit_test(test_arrival_names),
		cmocka_unit_test(test_sched_spec),
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_background_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
