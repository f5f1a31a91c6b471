// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts of a run's two hosts merged into one (analysis/
 * diag_merge.c): who decides slow, how causes of both hosts are ranked
 * and marked, whose loss account is kept, and the server's prefix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/diag_merge.h"

static void add(struct diag_verdict *v, enum cause_kind kind, double share,
		const char *text)
{
	struct diag_cause *c = &v->causes[v->ncauses++];

	c->kind = kind;
	c->share = share;
	snprintf(c->text, sizeof(c->text), "%s", text);
}

/* A slow verdict whose account names what its causes do. */
static void slow(struct diag_verdict *v, double unexplained)
{
	memset(v, 0, sizeof(*v));
	v->slow = v->disturbed = true;
	v->shortfall = 0.5;
	v->by_budget = true;
	v->unexplained = unexplained;
	v->acct.lost_ns = unexplained * 1000;
}

static void test_untraced_client_server_decides(void **state)
{
	struct diag_verdict c = { 0 }, s, v;

	(void)state;
	/* The client's own judgement: slow by the margin, nothing known. */
	c.slow = c.nothing_stands_out = true;
	c.unexplained = -1;
	slow(&s, 0.1);
	s.evidence = 1U << CAUSE_OUTSIDER_CPU;
	add(&s, CAUSE_OUTSIDER_CPU, 0.9, "outsider xb_batch took 41 %");
	diag_merge(&v, &c, &s, false, "hostb");
	assert_true(v.slow && v.disturbed);
	assert_int_equal(v.evidence, 1U << CAUSE_OUTSIDER_CPU);
	assert_false(v.nothing_stands_out);
	assert_int_equal(v.ncauses, 1);
	assert_int_equal(v.causes[0].host, DIAG_HOST_SERVER);
	assert_string_equal(v.causes[0].text,
			    "on the server's host (hostb): outsider xb_batch took 41 %");
	assert_true(v.by_budget);
	assert_int_equal(v.acct_host, DIAG_HOST_SERVER);
	assert_true(v.unexplained == 0.1);

	/* Not slow on the server's host: not slow, whatever the margin. */
	memset(&s, 0, sizeof(s));
	s.unexplained = -1;
	diag_merge(&v, &c, &s, false, "hostb");
	assert_false(v.slow);
	assert_int_equal(v.ncauses, 0);
}

static void test_both_hosts_ranked_by_share(void **state)
{
	struct diag_verdict c, s, v;

	(void)state;
	slow(&c, 0.5);
	add(&c, CAUSE_SOFTIRQ, 0.3, "softirq");
	add(&c, CAUSE_STEAL, 0.2, "steal");
	slow(&s, 0.2);
	add(&s, CAUSE_OUTSIDER_CPU, 0.6, "burner");
	add(&s, CAUSE_CPU_IDLE, 0.15, "idle");
	add(&s, CAUSE_STEAL, 0.05, "steal there");
	diag_merge(&v, &c, &s, true, "hostb");
	assert_true(v.slow);
	/* The four largest of five, in falling order, each with its host. */
	assert_int_equal(v.ncauses, DIAG_MAX_CAUSES);
	assert_int_equal(v.causes[0].kind, CAUSE_OUTSIDER_CPU);
	assert_int_equal(v.causes[0].host, DIAG_HOST_SERVER);
	assert_int_equal(v.causes[1].kind, CAUSE_SOFTIRQ);
	assert_int_equal(v.causes[1].host, DIAG_HOST_CLIENT);
	assert_string_equal(v.causes[1].text, "softirq");
	assert_int_equal(v.causes[2].kind, CAUSE_STEAL);
	assert_int_equal(v.causes[2].host, DIAG_HOST_CLIENT);
	assert_int_equal(v.causes[3].kind, CAUSE_CPU_IDLE);
	/* The server's causes explain 80 %, the client's 50: its account. */
	assert_int_equal(v.acct_host, DIAG_HOST_SERVER);
	assert_true(v.unexplained == 0.2);
	assert_true(v.acct.lost_ns == 200);
}

static void test_equal_shares_client_first(void **state)
{
	struct diag_verdict c, s, v;

	(void)state;
	/* One host's record in both places: each cause once per host. */
	slow(&c, 0.1);
	add(&c, CAUSE_OUTSIDER_CPU, 0.9, "burner");
	s = c;
	diag_merge(&v, &c, &s, true, "same");
	assert_int_equal(v.ncauses, 2);
	assert_int_equal(v.causes[0].host, DIAG_HOST_CLIENT);
	assert_int_equal(v.causes[1].host, DIAG_HOST_SERVER);
	assert_int_equal(v.causes[1].kind, CAUSE_OUTSIDER_CPU);
	/* Equal accounts: the client's is kept. */
	assert_int_equal(v.acct_host, DIAG_HOST_CLIENT);
}

static void test_server_alone_slow(void **state)
{
	struct diag_verdict c = { 0 }, s, v;

	(void)state;
	/* The client's host undisturbed, the run within its margin. */
	c.shortfall = 0.08;
	c.unexplained = -1;
	slow(&s, 0.3);
	add(&s, CAUSE_STEAL, 0.7, "steal");
	diag_merge(&v, &c, &s, true, NULL);
	assert_true(v.slow && v.disturbed);
	assert_true(v.shortfall == 0.08);
	assert_int_equal(v.ncauses, 1);
	assert_string_equal(v.causes[0].text,
			    "on the server's host (unnamed): steal");
	assert_int_equal(v.acct_host, DIAG_HOST_SERVER);

	/* Slow on the client only: the server's host says nothing. */
	slow(&c, 1);
	c.nothing_stands_out = true;
	c.by_budget = false;
	c.unexplained = -1;
	memset(&s, 0, sizeof(s));
	s.disturbed = true;
	s.evidence = 1U << CAUSE_STEAL;
	diag_merge(&v, &c, &s, true, "hostb");
	assert_true(v.slow && v.nothing_stands_out);
	assert_int_equal(v.evidence, 1U << CAUSE_STEAL);
	assert_false(v.by_budget);
	assert_true(v.unexplained < 0);
}

static void test_prefix_fits(void **state)
{
	char text[48];

	(void)state;
	snprintf(text, sizeof(text), "a sentence much too long for this buffer");
	diag_server_prefix(text, sizeof(text), "hostb");
	assert_int_equal(strlen(text), sizeof(text) - 1);
	assert_memory_equal(text, "on the server's host (hostb): a sentence", 40);
	snprintf(text, sizeof(text), "x");
	diag_server_prefix(text, 8, "hostb");
	assert_string_equal(text, "on the ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_untraced_client_server_decides),
		cmocka_unit_test(test_both_hosts_ranked_by_share),
		cmocka_unit_test(test_equal_shares_client_first),
		cmocka_unit_test(test_server_alone_slow),
		cmocka_unit_test(test_prefix_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
