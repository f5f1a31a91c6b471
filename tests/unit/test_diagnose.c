// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the diagnosis on synthetic kernel figures: each provoked
 * cause is detected and named first, clean runs are not slow, and a slow
 * run without evidence is said to have no kernel-side cause.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/diagnose.h"
#include "analysis/dips.h"
#include "tracer/kstats.h"

#define NCPUS 2
#define WALL_NS 1000000000ull

/*
 * A run of 1 s on 2 CPUs: 10 % idle, 20 % softirq, the rest the
 * benchmark's own work; some wakeups and switches per role.
 */
static struct kstats *base_kstats(void)
{
	struct kstats *k = calloc(1, sizeof(*k));
	int r, c;

	k->ncpus = NCPUS;
	k->wall_ns = WALL_NS;
	k->cpu = calloc(NCPUS, sizeof(*k->cpu));
	for (c = 0; c < NCPUS; c++) {
		k->cpu[c].idle_ns = WALL_NS / 10;
		k->cpu[c].softirq_ns[3] = WALL_NS / 5;
		k->cpu[c].softirq_all_ns = WALL_NS / 5;
	}
	for (r = 0; r < CB_ROLE_OTHER; r++) {
		k->role[r].wakeups = 100000;
		k->role[r].cross_cpu_wakeups = 30000;
		k->role[r].invol_switches = 2000;
		k->role[r].migrations = 100;
		/* run-queue latency around 20 us */
		k->role[r].rq_lat.buckets[cb_hist_bucket(20000)] = 1000;
		ks_hist_finish(&k->role[r].rq_lat);
	}
	k->sock[CB_SIDE_CLIENT].sends = 10000;
	k->sock[CB_SIDE_CLIENT].sndbuf_full = 10;
	k->sock[CB_SIDE_CLIENT].rcvbuf_max = 1 << 20;
	return k;
}

struct fixture {
	struct kstats *k[6];
	struct diag_run runs[6];
	struct diag_ref ref;
	struct diag_verdict v;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const double tp[6] = { 500000, 510000, 490000, 505000, 495000, 500000 };
	int i;

	for (i = 0; i < 6; i++) {
		f->k[i] = base_kstats();
		f->runs[i].throughput = tp[i];
		f->runs[i].k = f->k[i];
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int i;

	for (i = 0; i < 6; i++)
		kstats_free(f->k[i]);
	free(f);
	return 0;
}

/* Run 5 becomes slow; the reference is made from all six. */
static void judge_last(struct fixture *f, double tp)
{
	f->runs[5].throughput = tp;
	diag_reference(f->runs, 6, 10, &f->ref);
	diag_explain(&f->runs[5], &f->ref, &f->v);
}

static void test_clean_runs_are_not_slow(void **state)
{
	struct fixture *f = *state;
	int i;

	diag_reference(f->runs, 6, 10, &f->ref);
	assert_true(f->ref.have_kernel);
	for (i = 0; i < 6; i++) {
		diag_explain(&f->runs[i], &f->ref, &f->v);
		assert_false(f->v.slow);
	}
}

static void test_outsider_named(void **state)
{
	struct fixture *f = *state;
	struct ks_stealer *s = &f->k[5]->stealer[0];
	int c;

	/* A hog took 40 % of both CPUs while benchmark threads waited. */
	snprintf(s->comm, sizeof(s->comm), "chb_hog_test");
	s->pid = 4242;
	s->ns = 8 * WALL_NS / 10;
	s->cpu_mask = 3;
	f->k[5]->nr_stealers = 1;
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].idle_ns = 0;
	judge_last(f, 300000);
	assert_true(f->v.slow);
	assert_false(f->v.nothing_stands_out);
	assert_int_equal(f->v.causes[0].kind, CAUSE_OUTSIDER_CPU);
	assert_string_equal(f->v.causes[0].task, "chb_hog_test");
	assert_int_equal(f->v.causes[0].pid, 4242);
	assert_non_null(strstr(f->v.causes[0].text, "chb_hog_test (pid 4242,"));
	assert_true(f->v.causes[0].share > 0.5);
}

static void test_socket_backpressure_named(void **state)
{
	struct fixture *f = *state;

	f->k[5]->sock[CB_SIDE_CLIENT].sndbuf_full = 4000;
	f->k[5]->cpu[0].idle_ns = WALL_NS / 2;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_SOCKET_BACKPRESSURE);
}

static void test_sched_contention_named(void **state)
{
	struct fixture *f = *state;
	int r;

	/* Everyone on CPU 0: CPU 1 idles, waits and preemptions soar. */
	f->k[5]->cpu[1].idle_ns = WALL_NS * 95 / 100;
	for (r = 0; r < CB_ROLE_OTHER; r++) {
		struct ks_hist *h = &f->k[5]->role[r].rq_lat;

		f->k[5]->role[r].invol_switches = 20000;
		memset(h->buckets, 0, sizeof(h->buckets));
		h->buckets[cb_hist_bucket(2000000)] = 1000;
		ks_hist_finish(h);
	}
	judge_last(f, 260000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_SCHED_CONTENTION);
	assert_non_null(strstr(f->v.causes[0].text, "idle"));
}

/*
 * Confined to CPU 0: CPU 1 idles and no thread ever waits there, but
 * switches per message and run-queue p99 stay as usual.  With waits on
 * both CPUs the same idle time is idle CPUs, not the scheduler.
 */
static void confine(struct fixture *f, uint64_t mask)
{
	struct ks_stealer *s = &f->k[5]->stealer[0];
	int r, c;

	snprintf(s->comm, sizeof(s->comm), "cli_rcv");
	s->role = CB_ROLE_CLI_RCV;
	s->is_benchmark = true;
	s->ns = WALL_NS / 2;
	s->cpu_mask = mask;
	f->k[5]->nr_stealers = 1;
	/* Where the threads waited: each CPU of mask, for half the run. */
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].stolen_ns = mask & 1u << c ? WALL_NS / 2 : 0;
	f->k[5]->cpu[1].idle_ns = WALL_NS * 8 / 10;
	for (r = 0; r < CB_ROLE_OTHER; r++)
		f->k[5]->role[r].invol_switches = 1000;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_true(f->v.ncauses > 0);
}

static void test_confined_is_sched_contention(void **state)
{
	struct fixture *f = *state;

	confine(f, 1);
	assert_int_equal(f->v.causes[0].kind, CAUSE_SCHED_CONTENTION);
	assert_non_null(strstr(f->v.causes[0].text, "waited only on CPU 0"));
}

static void test_idle_with_waits_everywhere_is_idle(void **state)
{
	struct fixture *f = *state;

	confine(f, 3);
	assert_int_equal(f->v.causes[0].kind, CAUSE_CPU_IDLE);
}

static void test_no_evidence_no_cause(void **state)
{
	struct fixture *f = *state;

	int r;

	/*
	 * Slow, but every share of CPU time as usual and the same switches
	 * per message: the machine was just slower.
	 */
	for (r = 0; r < CB_ROLE_OTHER; r++) {
		f->k[5]->role[r].invol_switches = 1200;
		f->k[5]->role[r].wakeups = 60000;
	}
	judge_last(f, 300000);
	assert_true(f->v.slow);
	assert_true(f->v.nothing_stands_out);
	assert_int_equal(f->v.ncauses, 0);
}

static void test_untraced_slow_run(void **state)
{
	struct fixture *f = *state;

	f->runs[5].k = NULL;
	judge_last(f, 300000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.ncauses, 0);
}

static void test_margin_is_robust(void **state)
{
	struct fixture *f = *state;

	/* 8 % below the median: within the default 10 %. */
	judge_last(f, 460000);
	assert_false(f->v.slow);
	assert_true(f->ref.margin >= 0.1 * f->ref.tp_median - 1);
}

/* 40 intervals of 100 ms around 500k msg/s, +-1 %. */
static struct kstats *interval_kstats(void)
{
	struct kstats *k = base_kstats();
	size_t i;

	k->nr_intervals = 40;
	k->interval = calloc(40, sizeof(*k->interval));
	for (i = 0; i < 40; i++) {
		k->interval[i].start_ns = i * 100000000ull;
		k->interval[i].duration_ns = 100000000ull;
		k->interval[i].throughput = 500000 + (i % 3) * 5000;
		k->interval[i].idle_ns = 10000000;
		k->interval[i].rq_p99_ns = 1000000;
	}
	return k;
}

static void test_dips_found_in_intervals(void **state)
{
	struct kstats *k = interval_kstats();
	struct run_phases p;
	int i;

	(void)state;
	/* One interval low alone is a lump, not a dip. */
	k->interval[4].throughput = 150000;
	/* Two, costing 0.16 s of the steady rate: still a lump. */
	k->interval[6].throughput = 100000;
	k->interval[7].throughput = 120000;
	for (i = 9; i < 13; i++) {
		k->interval[i].throughput = 100000;
		snprintf(k->interval[i].top.comm, 16, "hog");
		k->interval[i].top.pid = 7;
		k->interval[i].top.ns = 90000000;
	}
	/* Low from 3.5 s to the end: the run draining, not a dip. */
	for (i = 35; i < 40; i++)
		k->interval[i].throughput = 100000;
	diag_run_phases(k, 10, &p);
	assert_true(p.valid);
	assert_int_equal(p.ndips, 1);
	assert_true(p.dip[0].from_s > 0.89 && p.dip[0].from_s < 0.91);
	assert_true(p.dip[0].to_s > 1.29 && p.dip[0].to_s < 1.31);
	assert_int_equal(p.dip[0].kind, CAUSE_OUTSIDER_CPU);
	assert_non_null(strstr(p.dip[0].why, "hog (pid 7)"));
	assert_true(p.dip[0].depth_pct > 75 && p.dip[0].depth_pct < 85);
	assert_true(p.drain_from_s > 3.49 && p.drain_from_s < 3.51);
	assert_true(p.ramp_to_s < 0.01);
	/* The same fall, recovered before the end, is a dip. */
	k->interval[39].throughput = 500000;
	diag_run_phases(k, 10, &p);
	assert_int_equal(p.ndips, 2);
	assert_true(p.dip[1].from_s > 3.49 && p.dip[1].to_s < 3.91);
	kstats_free(k);
}

/* The start-up ramp is labelled, never a dip, and a dip needs no name. */
static void test_ramp_is_not_a_dip(void **state)
{
	struct kstats *k = interval_kstats();
	struct run_phases p;
	int i;

	(void)state;
	/* A burst of sends, a trough while the server catches up. */
	k->interval[0].throughput = 900000;
	k->interval[1].throughput = 150000;
	k->interval[2].throughput = 100000;
	k->interval[3].throughput = 480000;
	k->interval[4].throughput = 300000;
	for (i = 10; i < 15; i++)
		k->interval[i].throughput = 200000;
	diag_run_phases(k, 10, &p);
	assert_true(p.ramp_to_s > 0.49 && p.ramp_to_s < 0.51);
	assert_int_equal(p.ndips, 1);
	assert_true(p.dip[0].from_s > 0.99);
	assert_int_equal(p.dip[0].kind, -1);
	assert_non_null(strstr(p.dip[0].why, "unexplained"));
	kstats_free(k);
}

/* A stopped benchmark: no messages, CPUs idle. */
static void test_idle_dip_says_not_runnable(void **state)
{
	struct kstats *k = interval_kstats();
	struct run_phases p;
	int i;

	(void)state;
	for (i = 8; i < 12; i++) {
		k->interval[i].throughput = 0;
		k->interval[i].idle_ns = 190000000;
	}
	diag_run_phases(k, 10, &p);
	assert_int_equal(p.ndips, 1);
	assert_int_equal(p.dip[0].kind, CAUSE_CPU_IDLE);
	kstats_free(k);
}

/*
 * The miss that made the verdict evidence-led: two noisy runs widen the
 * throughput margin until a run at two thirds of the median passes, while
 * its kernel record shows an outsider holding the CPUs.
 */
static void test_noisy_series_disturbed_run_flagged(void **state)
{
	struct fixture *f = *state;
	struct diag_verdict v[6];
	struct ks_stealer *s = &f->k[2]->stealer[0];
	int i;

	f->runs[0].throughput = 340000;
	f->runs[1].throughput = 250000;
	f->runs[2].throughput = 190000;
	f->runs[3].throughput = 292000;
	f->runs[4].throughput = 300000;
	f->runs[5].throughput = 260000;
	snprintf(s->comm, sizeof(s->comm), "qx_foo");
	s->pid = 999;
	s->ns = 6 * WALL_NS / 10;
	s->cpu_mask = 3;
	f->k[2]->nr_stealers = 1;
	/* Without the evidence the margin would swallow it. */
	diag_reference(f->runs, 6, 10, &f->ref);
	assert_true(190000 > f->ref.tp_median - f->ref.margin);
	diag_judge(f->runs, 6, 10, &f->ref, v);
	for (i = 0; i < 6; i++)
		assert_int_equal(v[i].slow, i == 2);
	assert_true(v[2].disturbed);
	assert_int_equal(v[2].causes[0].kind, CAUSE_OUTSIDER_CPU);
	assert_string_equal(v[2].causes[0].task, "qx_foo");
	/* Its size: a share of the CPUs, and against the other runs. */
	assert_non_null(strstr(v[2].causes[0].text, "took 30 % of CPU 0,1"));
	assert_non_null(strstr(v[2].causes[0].text, "other runs had almost none"));
}

/* A disturbance that cost nothing measurable is said, not called slow. */
static void test_disturbed_not_slow(void **state)
{
	struct fixture *f = *state;
	struct diag_verdict v[6];
	struct ks_stealer *s = &f->k[4]->stealer[0];

	snprintf(s->comm, sizeof(s->comm), "idler");
	s->pid = 77;
	s->ns = 3 * WALL_NS / 10;
	s->cpu_mask = 1;
	f->k[4]->nr_stealers = 1;
	diag_judge(f->runs, 6, 10, &f->ref, v);
	assert_true(v[4].disturbed);
	assert_false(v[4].slow);
}

/* A figure that moved the other way is never a cause. */
static void test_other_way_never_named(void **state)
{
	struct fixture *f = *state;
	int r;

	/* Slower, with run-queue waits far shorter than usual. */
	for (r = 0; r < CB_ROLE_OTHER; r++) {
		struct ks_hist *h = &f->k[5]->role[r].rq_lat;

		memset(h->buckets, 0, sizeof(h->buckets));
		h->buckets[cb_hist_bucket(2000)] = 1000;
		ks_hist_finish(h);
		f->k[5]->role[r].invol_switches = 200;
	}
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.ncauses, 0);
	assert_true(f->v.nothing_stands_out);
}

/*
 * chat_s in a cgroup with a quota of 0.4 CPU: throttled most of the run,
 * CPUs idle, run-queue waits shorter than usual.  The quota is named,
 * never the contention the idle CPUs might suggest, nor softirq work for
 * the ksoftirqd waits that the unthrottled threads' rush causes (seen
 * here: 21 ms against 164 us, with less softirq work than usual).
 */
static void test_quota_named(void **state)
{
	struct fixture *f = *state;
	struct ks_proc *p = &f->k[5]->proc[CB_SIDE_SERVER];
	int c;

	p->pid = 321;
	p->cg_valid = true;
	snprintf(p->cgroup, sizeof(p->cgroup), "/chb_quota");
	p->quota_us = 40000;
	p->period_us = 100000;
	p->periods = 10;
	p->throttled_periods = 9;
	p->throttled_ns = WALL_NS;
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].idle_ns = WALL_NS / 2;
	f->k[5]->role[CB_ROLE_KSOFTIRQD].rq_lat.p99 = 21000000;
	judge_last(f, 100000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_CPU_QUOTA);
	assert_string_equal(f->v.causes[0].task, "chat_s");
	assert_non_null(strstr(f->v.causes[0].text, "/chb_quota"));
	assert_non_null(strstr(f->v.causes[0].text, "9 of 10 periods"));
	for (c = 0; c < f->v.ncauses; c++) {
		assert_int_not_equal(f->v.causes[c].kind,
				     CAUSE_SCHED_CONTENTION);
		assert_int_not_equal(f->v.causes[c].kind, CAUSE_SOFTIRQ);
	}
}

/*
 * A late ksoftirqd with no more softirq work than usual: the cause's
 * figure is the latency that is the evidence, and it points up.
 */
static void test_softirq_figure_is_the_evidence(void **state)
{
	struct fixture *f = *state;
	int i;

	f->k[5]->role[CB_ROLE_KSOFTIRQD].rq_lat.p99 = 21000000;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	for (i = 0; i < f->v.ncauses; i++)
		if (f->v.causes[i].kind == CAUSE_SOFTIRQ)
			break;
	assert_true(i < f->v.ncauses);
	assert_string_equal(f->v.causes[i].figure, "ksoftirqd_p99_ns");
	assert_true(f->v.causes[i].now > f->v.causes[i].base);
	assert_non_null(strstr(f->v.causes[i].text, "ksoftirqd waited"));
}

/*
 * Clean runs here leave ksoftirqd waiting up to 5.9 ms at p99 now and
 * then: in a run 9 % below the median that is no disturbance, while a
 * wait of 21 ms is.
 */
static void test_ksoftirqd_tail_is_not_evidence(void **state)
{
	struct fixture *f = *state;

	f->k[5]->role[CB_ROLE_KSOFTIRQD].rq_lat.p99 = 5900000;
	judge_last(f, 455000);
	assert_false(f->v.disturbed);
	assert_false(f->v.slow);
	f->k[5]->role[CB_ROLE_KSOFTIRQD].rq_lat.p99 = 21000000;
	judge_last(f, 455000);
	assert_true(f->v.disturbed);
	assert_true(f->v.slow);
}

/*
 * Evidence that explains almost none of a small loss does not make the
 * run slow: with softirq work at 1 % of the CPUs, a late ksoftirqd in a
 * run 9 % down is seen (disturbed) but the run is not called slow.
 */
static void test_evidence_must_explain_the_loss(void **state)
{
	struct fixture *f = *state;
	int i, c;

	for (i = 0; i < 6; i++)
		for (c = 0; c < NCPUS; c++) {
			f->k[i]->cpu[c].softirq_ns[3] = WALL_NS / 100;
			f->k[i]->cpu[c].softirq_all_ns = WALL_NS / 100;
		}
	f->k[5]->role[CB_ROLE_KSOFTIRQD].rq_lat.p99 = 21000000;
	judge_last(f, 455000);
	assert_true(f->v.disturbed);
	assert_false(f->v.slow);
	assert_false(f->v.nothing_stands_out);
	/* Far below the margin, the run is slow whatever explains it. */
	judge_last(f, 300000);
	assert_true(f->v.slow);
}

static void test_stopped_named_with_sender(void **state)
{
	struct fixture *f = *state;
	struct ks_proc *p = &f->k[5]->proc[CB_SIDE_CLIENT];
	int c;

	p->pid = 77;
	p->stop_signals = 1;
	p->stopped_ns = WALL_NS * 4 / 10;
	p->stop_sig = 19;
	p->stop_sender = 88;
	snprintf(p->stop_sender_comm, sizeof(p->stop_sender_comm), "bash");
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].idle_ns = WALL_NS / 2;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_STOPPED);
	assert_string_equal(f->v.causes[0].task, "chat_c");
	assert_non_null(strstr(f->v.causes[0].text, "from bash (pid 88)"));
}

static void test_retransmits_named(void **state)
{
	struct fixture *f = *state;
	int c;

	f->k[5]->sys.retrans_segs = 5000;
	f->k[5]->sys.rto_timeouts = 40;
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].idle_ns = WALL_NS / 2;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_TCP_RETRANS);
}

static void test_memory_pressure_named(void **state)
{
	struct fixture *f = *state;
	int c;

	f->k[5]->sys.psi_mem_some_us = 300000;
	f->k[5]->proc[CB_SIDE_SERVER].majflt = 2000;
	for (c = 0; c < NCPUS; c++)
		f->k[5]->cpu[c].idle_ns = WALL_NS / 2;
	judge_last(f, 250000);
	assert_true(f->v.slow);
	assert_int_equal(f->v.causes[0].kind, CAUSE_MEMORY_PRESSURE);
}

/* The vocabulary: one table, every kind named, found by its name. */
static void test_cause_table(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < CAUSE_NR; k++) {
		assert_non_null(cause_table[k].words);
		assert_non_null(cause_table[k].meaning);
		assert_non_null(cause_table[k].evidence);
		assert_int_equal(cause_by_name(cause_table[k].name), k);
	}
	assert_int_equal(cause_by_name("no_such_cause"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_runs_are_not_slow,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_outsider_named, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_socket_backpressure_named,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sched_contention_named,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_confined_is_sched_contention,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_idle_with_waits_everywhere_is_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_evidence_no_cause,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_untraced_slow_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_margin_is_robust, setup,
						teardown),
		cmocka_unit_test(test_dips_found_in_intervals),
		cmocka_unit_test(test_ramp_is_not_a_dip),
		cmocka_unit_test(test_idle_dip_says_not_runnable),
		cmocka_unit_test_setup_teardown(
			test_noisy_series_disturbed_run_flagged, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_disturbed_not_slow, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_way_never_named,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_softirq_figure_is_the_evidence, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ksoftirqd_tail_is_not_evidence, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_evidence_must_explain_the_loss, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quota_named, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stopped_named_with_sender,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_retransmits_named, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_memory_pressure_named,
						setup, teardown),
		cmocka_unit_test(test_cause_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
