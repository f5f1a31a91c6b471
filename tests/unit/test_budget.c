/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of the time budget: its arithmetic from hand-made snapshots
 * (every role's lines add up to threads x wall, the CPUs' to CPUs x wall;
 * softirq time is carved out of ksoftirqd first; an offline CPU's time is
 * supply lost), its JSON both ways (a budget that does not add up is
 * refused), the account of a loss (growths add up to the loss, a line
 * that shrank is no cause).  The verdict on recorded series is
 * tests/unit/test_replay.c's.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/diagnose.h"
#include "analysis/loss.h"
#include "analysis/owait.h"
#include "output/json/budget_json.h"
#include "results/budget_load.h"
#include "tracer/budget.h"
#include "tracer/kbudget.h"
#include "tracer/kstats.h"
#include "unit_util.h"

#define MS 1000000ULL

static struct ks_snap a, b;

static int setup(void **state)
{
	(void)state;
	if (ks_snap_alloc(&a, 2) || ks_snap_alloc(&b, 2))
		return -1;
	a.open_valid = b.open_valid = true;
	a.cpustat[0].online = a.cpustat[1].online = true;
	b.cpustat[0].online = b.cpustat[1].online = true;
	a.t_ns = 1000 * MS;
	b.t_ns = 2000 * MS;	/* a second */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ks_snap_free(&a);
	ks_snap_free(&b);
	return 0;
}

static void assert_threads_add_up(const struct kb_threads *t)
{
	assert_int_equal((int64_t)t->oncpu_ns + (int64_t)t->wait_ns +
				 (int64_t)t->blocked_ns + t->gone_ns,
			 (int64_t)t->total_ns);
}

/* Ten senders over a second: each line where the counters put it. */
static void test_threads(void **state)
{
	struct ks_budget kb;
	int r = CB_ROLE_CLI_SND;

	(void)state;
	a.open.threads[r] = 10;
	b.sched[0].role[r].oncpu_ns = 2000 * MS;
	b.sched[1].role[r].runnable_ns = 3000 * MS;
	b.sched[1].role[r].wait_by[CB_ROLE_SRV_SND] = 1000 * MS;
	b.sched[1].role[r].wait_by[CB_HOLD_CLASS(CB_CLASS_RT)] = 1500 * MS;
	b.sched[0].role[r].blocked_by[CB_BLOCK_SOCK_SEND] = 1000 * MS;
	/* A span open at both snapshots counts only its growth. */
	a.open.blocked_ns[r][CB_BLOCK_PTRACE] = 500 * MS;
	b.open.blocked_ns[r][CB_BLOCK_PTRACE] = 2500 * MS;
	a.open.runnable_ns[r] = 100 * MS;
	b.open.runnable_ns[r] = 600 * MS;
	kb_from_snaps(&kb, &a, &b);
	assert_true(kb.valid);
	assert_int_equal(kb.role[r].total_ns, 10000 * MS);
	assert_int_equal(kb.role[r].oncpu_ns, 2000 * MS);
	assert_int_equal(kb.role[r].wait_ns, 3500 * MS);
	assert_int_equal(kb.role[r].wait_unknown_ns, 1000 * MS);
	assert_int_equal(kb.role[r].blocked_by[CB_BLOCK_PTRACE], 2000 * MS);
	assert_int_equal(kb.role[r].blocked_ns, 3000 * MS);
	assert_int_equal(kb.role[r].gone_ns, 1500 * MS);
	assert_threads_add_up(&kb.role[r]);
	assert_int_equal(kb.subjects.total_ns, 10000 * MS);
	assert_threads_add_up(&kb.subjects);
}

/*
 * CPU 0: 600 ms of the benchmark, 300 of ksoftirqd, 100 idle, and the
 * kernel says 400 ms of softirq: ksoftirqd's 300 first, then 100 out of
 * the benchmark's.  CPU 1: 500 ms of a real-time outsider, 500 idle.
 */
static void test_cpus(void **state)
{
	struct ks_budget kb;

	(void)state;
	b.sched[0].role[CB_ROLE_SRV_SND].oncpu_ns = 600 * MS;
	b.sched[0].role[CB_ROLE_KSOFTIRQD].oncpu_ns = 300 * MS;
	b.sched[0].idle_ns = 100 * MS;
	b.cpustat[0].softirq_ns = 400 * MS;
	b.sched[1].class_ns[CB_CLASS_RT] = 500 * MS;
	b.sched[1].idle_ns = 500 * MS;
	kb_from_snaps(&kb, &a, &b);
	assert_int_equal(kb.cpus.supply_ns, 2000 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_SOFTIRQ], 400 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_KSOFTIRQD], 0);
	assert_int_equal(kb.cpus.line[KB_CPU_BENCH], 500 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_RT], 500 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_IDLE], 600 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_UNACCOUNTED], 0);
	assert_int_equal(cpu_sum(&kb.cpus), (int64_t)kb.cpus.supply_ns);
}

/* CPU 1 went offline after 200 ms of idle: the rest is supply lost. */
static void test_offline(void **state)
{
	struct ks_budget kb;

	(void)state;
	b.sched[0].role[CB_ROLE_CLI_RCV].oncpu_ns = 1000 * MS;
	b.sched[1].idle_ns = 200 * MS;
	b.cpustat[1].online = false;
	kb_from_snaps(&kb, &a, &b);
	assert_int_equal(kb.cpus.line[KB_CPU_OFFLINE], 800 * MS);
	assert_int_equal(kb.cpus.line[KB_CPU_UNACCOUNTED], 0);
	assert_int_equal(kb.cpus.offline_cpus, 2);
	assert_int_equal(cpu_sum(&kb.cpus), (int64_t)kb.cpus.supply_ns);
}

/*
 * Two receivers runnable on CPU 0 for 600 ms while their group was
 * throttled, the CPU idle all second, 100 ms of it softirq: the wait is
 * the throttling's, less the kernel's tenth of the idle slices, and it
 * is named so in the JSON and read back.
 */
static void test_throttled(void **state)
{
	struct ks_budget kb, back;
	int r = CB_ROLE_SRV_RCV;
	json_t *o, *w;

	(void)state;
	a.open.threads[r] = 2;
	b.sched[1].role[r].oncpu_ns = 400 * MS;
	b.sched[0].role[r].runnable_ns = 600 * MS;
	b.sched[0].role[r].wait_by[CB_HOLD_THROTTLED] = 600 * MS;
	b.sched[0].role[r].blocked_by[CB_BLOCK_SOCK_RECV] = 1000 * MS;
	b.sched[0].idle_ns = 1000 * MS;
	b.sched[1].idle_ns = 600 * MS;
	b.cpustat[0].softirq_ns = 100 * MS;
	kb_from_snaps(&kb, &a, &b);
	assert_int_equal(kb.role[r].wait_by[CB_HOLD_THROTTLED], 540 * MS);
	assert_int_equal(kb.role[r].wait_by[KB_HOLD_SOFTIRQ], 60 * MS);
	assert_int_equal(kb.role[r].wait_by[CB_HOLD_IDLE], 0);
	assert_int_equal(kb.cpus.line[KB_CPU_IDLE], 1500 * MS);
	assert_threads_add_up(&kb.role[r]);
	assert_string_equal(kb_holder_name(CB_HOLD_THROTTLED), "throttled");
	o = budget_to_json(&kb, false);
	w = json_object_get(json_object_get(json_object_get(o, "threads"),
					    "srv_rcv"), "wait_by");
	assert_int_equal(json_integer_value(json_object_get(w, "throttled")),
			 540 * MS);
	assert_int_equal(budget_from_json(o, &back), 0);
	assert_int_equal(back.role[r].wait_by[CB_HOLD_THROTTLED], 540 * MS);
	json_decref(o);
}

/* No open spans (no task iterator): no budget, rather than a wrong one. */
static void test_no_iterator(void **state)
{
	struct ks_budget kb;

	(void)state;
	b.open_valid = false;
	kb_from_snaps(&kb, &a, &b);
	assert_false(kb.valid);
}

static void test_json(void **state)
{
	struct ks_budget kb, back;
	json_t *o;

	(void)state;
	a.open.threads[CB_ROLE_SRV_RCV] = 4;
	b.sched[0].role[CB_ROLE_SRV_RCV].oncpu_ns = 300 * MS;
	b.sched[1].role[CB_ROLE_SRV_RCV].blocked_by[CB_BLOCK_FROZEN] =
		900 * MS;
	b.sched[1].role[CB_ROLE_SRV_RCV].runnable_ns = 200 * MS;
	b.sched[1].role[CB_ROLE_SRV_RCV].wait_by[CB_HOLD_IDLE] = 200 * MS;
	b.sched[0].idle_ns = 700 * MS;
	kb_from_snaps(&kb, &a, &b);
	o = budget_to_json(&kb, false);
	assert_int_equal(budget_from_json(o, &back), 0);
	assert_true(back.valid);
	assert_memory_equal(&back.role[CB_ROLE_SRV_RCV],
			    &kb.role[CB_ROLE_SRV_RCV], sizeof(back.role[0]));
	assert_memory_equal(&back.cpus, &kb.cpus, sizeof(back.cpus));
	/* Lines that no longer add up to their whole: refused. */
	json_object_set_new(json_object_get(json_object_get(
				    json_object_get(o, "threads"), "srv_rcv"),
					    "blocked_by"),
			    "frozen", json_integer(100));
	assert_int_equal(budget_from_json(o, &back), -1);
	assert_false(back.valid);
	json_decref(o);
	/* Not a number where one must be: refused, not read as 0. */
	o = budget_to_json(&kb, false);
	json_object_set_new(json_object_get(o, "cpus"), "ncpus",
			    json_string("two"));
	assert_int_equal(budget_from_json(o, &back), -1);
	json_decref(o);
	/* An old file has none: no budget, no error. */
	assert_int_equal(budget_from_json(NULL, &back), 0);
	assert_false(back.valid);
	/* An interval's brief form: each role's whole lines, read back. */
	o = budget_to_json(&kb, true);
	assert_int_equal(budget_from_json(o, &back), 0);
	assert_int_equal(back.role[CB_ROLE_SRV_RCV].threads, 4);
	assert_int_equal(back.role[CB_ROLE_SRV_RCV].total_ns,
			 kb.role[CB_ROLE_SRV_RCV].total_ns);
	assert_int_equal(back.role[CB_ROLE_SRV_RCV].oncpu_ns, 300 * MS);
	assert_int_equal(back.role[CB_ROLE_SRV_RCV].wait_ns,
			 kb.role[CB_ROLE_SRV_RCV].wait_ns);
	assert_int_equal(back.role[CB_ROLE_SRV_RCV].blocked_ns, 900 * MS);
	assert_true(back.role[CB_ROLE_SRV_RCV].gone_ns ==
		    kb.role[CB_ROLE_SRV_RCV].gone_ns);
	/* ... whose lines must add up too. */
	json_array_set_new(json_object_get(json_object_get(json_object_get(
				   o, "threads"), "by_role"), "srv_rcv"),
			   2, json_integer(5000 * MS));
	assert_int_equal(budget_from_json(o, &back), -1);
	json_decref(o);
}

/*
 * Per message, 4 us of CPU supply become 8: 2 us more offline, 1.5 us
 * more idle while threads sat in ptrace stops, 0.5 us more of the
 * benchmark's work; softirq shrank.  Growths add up to the loss, the
 * holds split the idle growth, the shrunk line is no cause.
 */
static void test_loss(void **state)
{
	struct loss_pm r = { .valid = true }, s = { .valid = true };
	struct loss_account acct;
	double named = 0;
	int i;

	(void)state;
	r.v[LL_CPU(KB_CPU_BENCH)] = 3000;
	r.v[LL_CPU(KB_CPU_SOFTIRQ)] = 800;
	r.v[LL_CPU(KB_CPU_IDLE)] = 200;
	s.v[LL_CPU(KB_CPU_BENCH)] = 3500;
	s.v[LL_CPU(KB_CPU_SOFTIRQ)] = 800;
	s.v[LL_CPU(KB_CPU_IDLE)] = 1700;
	s.v[LL_CPU(KB_CPU_OFFLINE)] = 2000;
	s.v[LL_BLOCK(CB_BLOCK_PTRACE)] = 90000;
	s.v[LL_BLOCK(CB_BLOCK_SOCK_RECV)] = 50000;
	r.v[LL_BLOCK(CB_BLOCK_SOCK_RECV)] = 10000;
	loss_explain(&s, &r, 0, &acct);
	assert_true(acct.valid);
	assert_true(fabs(acct.lost_ns - 4000) < 1e-6);
	assert_int_equal(acct.nparts, 2);
	assert_int_equal(acct.part[0].kind, CAUSE_CPU_OFFLINE);
	assert_true(fabs(acct.part[0].share - 0.5) < 1e-9);
	assert_int_equal(acct.part[1].kind, CAUSE_PTRACE);
	assert_true(fabs(acct.part[1].share - 0.375) < 1e-9);
	/* Work with no mechanism behind it stays unexplained. */
	for (i = 0; i < acct.nparts; i++)
		named += acct.part[i].share;
	assert_true(fabs(acct.unexplained - (1 - named)) < 1e-9);
	assert_true(fabs(acct.unexplained - 0.125) < 1e-9);
	/* The same with a tracer: its stops explain the work too. */
	loss_explain(&s, &r, 1U << CAUSE_PTRACE, &acct);
	assert_true(fabs(acct.unexplained) < 1e-9);
	/*
	 * Idle grown while the threads waited throttled: the quota's, from
	 * the budget's own line, with no figure's evidence needed.
	 */
	memset(&s, 0, sizeof(s));
	s.valid = true;
	s.v[LL_CPU(KB_CPU_BENCH)] = 3000;
	s.v[LL_CPU(KB_CPU_SOFTIRQ)] = 800;
	s.v[LL_CPU(KB_CPU_IDLE)] = 2200;
	s.v[LL_WAIT(CB_HOLD_THROTTLED)] = 30000;
	loss_explain(&s, &r, 0, &acct);
	assert_int_equal(acct.nparts, 1);
	assert_int_equal(acct.part[0].kind, CAUSE_CPU_QUOTA);
	assert_true(fabs(acct.part[0].share - 1) < 1e-9);
	/* Nothing grew: nothing named. */
	loss_explain(&r, &r, ~0U, &acct);
	assert_int_equal(acct.nparts, 0);
}

/*
 * The wait behind each class shared among its outsiders by the time each
 * held a CPU while ours waited: two fair ones 3:1, one real-time; our own
 * roles and idle are not outsiders.
 */
static void test_outsider_waits(void **state)
{
	struct kstats *k = calloc(1, sizeof(*k));
	struct ow_entry o[KS_TOP_STEALERS];
	static const struct {
		const char *comm;
		pid_t pid;
		int sclass;
		uint64_t ns;
		bool bench;
	} st[] = {
		{ "srv_snd", 0, -1, 999 * MS, true },
		{ "hog", 41, CB_CLASS_FAIR, 300 * MS, false },
		{ "spin", 42, CB_CLASS_RT, 50 * MS, false },
		{ "kworker", 43, CB_CLASS_FAIR, 100 * MS, false },
	};
	size_t i;
	int n;

	(void)state;
	assert_non_null(k);
	k->budget.valid = true;
	k->budget.subjects.wait_by[CB_HOLD_CLASS(CB_CLASS_FAIR)] = 1000 * MS;
	k->budget.subjects.wait_by[CB_HOLD_CLASS(CB_CLASS_RT)] = 300 * MS;
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		struct ks_stealer *s = &k->stealer[k->nr_stealers++];

		snprintf(s->comm, sizeof(s->comm), "%s", st[i].comm);
		s->pid = st[i].pid;
		s->sclass = st[i].sclass;
		s->ns = st[i].ns;
		s->is_benchmark = st[i].bench;
		s->role = st[i].bench ? CB_ROLE_SRV_SND : -1;
	}
	n = outsider_waits(k, o, KS_TOP_STEALERS);
	assert_int_equal(n, 3);
	assert_string_equal(o[0].comm, "hog");
	assert_int_equal(o[0].wait_ns, 750 * MS);
	assert_int_equal(o[1].pid, 42);
	assert_int_equal(o[1].wait_ns, 300 * MS);
	assert_int_equal(o[2].wait_ns, 250 * MS);
	/* At most max, the largest. */
	assert_int_equal(outsider_waits(k, o, 1), 1);
	assert_string_equal(o[0].comm, "hog");
	k->budget.valid = false;
	assert_int_equal(outsider_waits(k, o, KS_TOP_STEALERS), 0);
	free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_offline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throttled, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_iterator, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test(test_loss),
		cmocka_unit_test(test_outsider_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
