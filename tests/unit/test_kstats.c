/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of the kernel-figures arithmetic (src/tracer/kstats.c) without BPF:
 * percentiles from log-linear histograms of known distributions, and runs
 * computed as the difference of two hand-made snapshots (including 32-bit
 * bucket counters that wrap, outsiders seen only in the second snapshot,
 * maxima, intervals), and the JSON built from them.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tracer/kstats.h"
#include "output/json/kstats_json.h"
#include "results/kstats_load.h"
#include "tracer/sysstat.h"

static void add(uint64_t *b, uint64_t v)
{
	b[cb_hist_bucket(v)]++;
}

static void assert_near(uint64_t got, double want, double rel)
{
	double err = fabs((double)got - want) / want;

	if (err > rel)
		fail_msg("got %llu, want %.0f (error %.1f%% > %.1f%%)",
			 (unsigned long long)got, want, err * 100, rel * 100);
}

static void test_percentile_uniform(void **state)
{
	static struct ks_hist h;
	uint64_t v;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (v = 1000; v < 1001000; v += 7)
		add(h.buckets, v);
	ks_hist_finish(&h);
	assert_int_equal(h.count, (1001000 - 1000 + 6) / 7);
	assert_near(h.p50, 501000, 0.03);
	assert_near(h.p90, 901000, 0.03);
	assert_near(h.p99, 991000, 0.03);
	assert_near(h.max, 1001000, 0.07);
}

static void test_percentile_exponential(void **state)
{
	static struct ks_hist h;
	uint64_t x = 88172645463325252ULL;
	double mean = 20000;
	int i;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 200000; i++) {
		double u;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		u = (double)(x >> 11) / 9007199254740992.0;
		add(h.buckets, (uint64_t)(-mean * log(1 - u)));
	}
	ks_hist_finish(&h);
	assert_near(h.p50, mean * log(2), 0.04);
	assert_near(h.p90, mean * log(10), 0.04);
	assert_near(h.p99, mean * log(100), 0.05);
}

static void test_percentile_constant_and_empty(void **state)
{
	static struct ks_hist h;
	int i;

	(void)state;
	memset(&h, 0, sizeof(h));
	ks_hist_finish(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.p99, 0);
	for (i = 0; i < 1000; i++)
		add(h.buckets, 123456);
	ks_hist_finish(&h);
	assert_near(h.p50, 123456, 0.0625);
	assert_near(h.p99, 123456, 0.0625);
	assert_true(h.max >= h.p99);
	/* Small values have exact buckets. */
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 10; i++)
		add(h.buckets, 5);
	ks_hist_finish(&h);
	assert_true(h.p50 == 5);
}

struct pair {
	struct ks_snap a, b;
};

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	if (!p || ks_snap_alloc(&p->a, 2) || ks_snap_alloc(&p->b, 2))
		return -1;
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	ks_snap_free(&p->a);
	ks_snap_free(&p->b);
	free(p);
	return 0;
}

static void fill(struct pair *p)
{
	struct ks_snap *a = &p->a, *b = &p->b;
	int c;

	a->t_ns = 1000000000;
	b->t_ns = 3000000000;
	a->messages = 100;
	b->messages = 400100;
	for (c = 0; c < 2; c++) {
		struct cb_role_stats *ra = &a->sched[c].role[CB_ROLE_CLI_RCV];
		struct cb_role_stats *rb = &b->sched[c].role[CB_ROLE_CLI_RCV];

		ra->wakeups = 1000;
		rb->wakeups = 6000;
		ra->invol_switches = 7;
		rb->invol_switches = 17;
		rb->rq_lat_max_ns = 90000 + c;
		/* Wraps between the snapshots: 0x20 new samples. */
		a->sched[c].rq_lat_hist[CB_ROLE_CLI_RCV][100] = 0xfffffff0u;
		b->sched[c].rq_lat_hist[CB_ROLE_CLI_RCV][100] = 0x10;
		a->sched[c].idle_ns = 5;
		b->sched[c].idle_ns = 5 + 250000000;
		b->sched[c].softirq_ns[3] = 1000;
		b->sched[c].softirq_cnt[3] = 10;
		b->sched[c].role[CB_ROLE_SRV_SND].stolen_ns = 3000;
		b->sock[c].side[CB_SIDE_CLIENT].sends = 10;
		b->sock[c].side[CB_SIDE_CLIENT].wmem_sum = 1000;
		b->sock[c].side[CB_SIDE_CLIENT].sndbuf_full = 1;
		b->sock[c].rq_hist[CB_SIDE_CLIENT][cb_hist_bucket(400)] = 5;
	}
	b->sched[1].stolen_outsider_ns = 9000;
	/* pid 42 existed before the run, pid 43 appeared during it. */
	a->nr_stealers = 1;
	a->stealers[0].pid = 42;
	a->stealers[0].v.ns = 100;
	b->nr_stealers = 2;
	b->stealers[0].pid = 43;
	b->stealers[0].v.ns = 8000;
	b->stealers[0].v.cpu_mask = 2;
	strcpy(b->stealers[0].v.comm, "chb_hog");
	b->stealers[1].pid = 42;
	b->stealers[1].v.ns = 1100;
	b->stealers[1].v.cpu_mask = 2;
	strcpy(b->stealers[1].v.comm, "kworker/1:1");
	a->nr_progs = b->nr_progs = 1;
	strcpy(b->prog[0].name, "btf_sched_switch");
	a->prog[0].run_time_ns = 1000;
	b->prog[0].run_time_ns = 41000000;
	a->prog[0].run_cnt = 10;
	b->prog[0].run_cnt = 1000010;
}

static void test_delta(void **state)
{
	struct pair *p = *state;
	const struct ks_role *r;
	struct kstats *k;

	fill(p);
	k = kstats_from_snaps(&p->a, &p->b);
	assert_non_null(k);
	assert_int_equal(k->wall_ns, 2000000000);
	assert_int_equal(k->messages, 400000);
	r = &k->role[CB_ROLE_CLI_RCV];
	assert_int_equal(r->wakeups, 10000);
	assert_int_equal(r->invol_switches, 20);
	assert_int_equal(r->rq_lat.count, 0x40);
	assert_int_equal(r->rq_lat.buckets[100], 0x40);
	assert_int_equal(k->role[CB_ROLE_CLI_SND].rq_lat.count, 0);
	/* The kernel max is kept when it lies in the top bucket. */
	assert_true(r->rq_lat.max >= cb_hist_lo(100));
	assert_true(r->rq_lat.max < cb_hist_hi(100));
	assert_int_equal(k->cpu[0].idle_ns, 250000000);
	assert_int_equal(k->cpu[1].softirq_ns[3], 1000);
	assert_int_equal(k->cpu[1].softirq_all_ns, 1000);
	assert_int_equal(k->cpu[1].softirq_cnt[3], 10);
	assert_false(k->softirq_ticks);
	assert_int_equal(k->sock[CB_SIDE_CLIENT].sends, 20);
	assert_int_equal(k->sock[CB_SIDE_CLIENT].wmem_avg, 100);
	assert_int_equal(k->sock[CB_SIDE_CLIENT].sndbuf_full, 2);
	assert_int_equal(k->sock[CB_SIDE_CLIENT].rq_bytes.count, 10);
	assert_near(k->sock[CB_SIDE_CLIENT].rq_bytes.p99, 400, 0.07);
	assert_int_equal(k->bpf_run_cnt, 1000000);
	assert_int_equal(k->bpf_run_time_ns, 40999000);
	assert_near((uint64_t)(k->bpf_cpu_share * 1e6), 40999000 / 4000.0,
		    0.001);
	assert_int_equal(k->stolen_total_ns, 6000 + 9000);

	/* Ranked: outsider 43, srv_snd (both CPUs), outsider 42. */
	assert_true(k->nr_stealers >= 3);
	assert_string_equal(k->stealer[0].comm, "chb_hog");
	assert_int_equal(k->stealer[0].pid, 43);
	assert_false(k->stealer[0].is_benchmark);
	assert_int_equal(k->stealer[1].role, CB_ROLE_SRV_SND);
	assert_true(k->stealer[1].is_benchmark);
	assert_int_equal(k->stealer[1].ns, 6000);
	assert_int_equal(k->stealer[1].cpu_mask, 3);
	assert_int_equal(k->stealer[2].pid, 42);
	assert_int_equal(k->stealer[2].ns, 1000);
	kstats_free(k);
}

static void test_interval(void **state)
{
	struct pair *p = *state;
	struct ks_interval iv;

	fill(p);
	ks_interval_from_snaps(&iv, &p->a, &p->b, 500000000);
	assert_int_equal(iv.start_ns, 500000000);
	assert_int_equal(iv.duration_ns, 2000000000);
	assert_int_equal(iv.messages, 400000);
	assert_true(fabs(iv.throughput - 200000) < 1);
	assert_int_equal(iv.wakeups, 10000);
	assert_int_equal(iv.invol_switches, 20);
	assert_int_equal(iv.rq_buckets[100], 0x40);
	assert_true(iv.rq_p99_ns >= cb_hist_lo(100));
	assert_int_equal(iv.idle_ns, 500000000);
	assert_int_equal(iv.softirq_ns, 2000);
	assert_int_equal(iv.top.pid, 43);
}

static void test_json(void **state)
{
	struct pair *p = *state;
	json_t *j, *role, *b, *st;
	struct kstats *k;

	fill(p);
	k = kstats_from_snaps(&p->a, &p->b);
	k->mode = "tp_btf";
	j = kstats_to_json(k);
	assert_non_null(j);
	role = json_object_get(json_object_get(j, "roles"), "cli_rcv");
	assert_int_equal(json_integer_value(json_object_get(role, "wakeups")),
			 10000);
	b = json_object_get(json_object_get(role, "rq_latency"), "buckets");
	assert_int_equal(json_array_size(b), 1);
	assert_int_equal(json_integer_value(json_object_get(
				json_array_get(b, 0), "count")), 0x40);
	assert_int_equal(json_integer_value(json_object_get(
				json_array_get(b, 0), "lo")), cb_hist_lo(100));
	st = json_array_get(json_object_get(j, "stealers"), 0);
	assert_string_equal(json_string_value(json_object_get(st, "comm")),
			    "chb_hog");
	assert_non_null(json_object_get(j, "missed"));
	assert_non_null(json_object_get(j, "bpf_cost"));
	assert_non_null(json_object_get(json_object_get(j, "sockets"),
					"client"));
	json_decref(j);
	kstats_free(k);
}

/*
 * Softirq from the kernel's accounting: the time of all vectors together,
 * counts by vector, and never a per-vector time the ticks do not give,
 * whatever the (unattached) hooks' counters hold.
 */
static void test_softirq_ticks(void **state)
{
	struct pair *p = *state;
	struct ks_interval iv;
	json_t *j, *cpu, *netrx;
	struct kstats *k, *back;
	int c;

	fill(p);
	p->a.softirq_ticks = p->b.softirq_ticks = true;
	for (c = 0; c < 2; c++) {
		p->a.softirq[c].ns = 40000000;
		p->b.softirq[c].ns = 120000000 + 10000000 * c;
		p->a.softirq[c].cnt[3] = 5;
		p->b.softirq[c].cnt[3] = 905;
	}
	k = kstats_from_snaps(&p->a, &p->b);
	assert_true(k->softirq_ticks);
	assert_int_equal(k->cpu[0].softirq_all_ns, 80000000);
	assert_int_equal(k->cpu[1].softirq_all_ns, 90000000);
	assert_int_equal(k->cpu[1].softirq_ns[3], 0);
	assert_int_equal(k->cpu[1].softirq_cnt[3], 900);
	ks_interval_from_snaps(&iv, &p->a, &p->b, 0);
	assert_int_equal(iv.softirq_ns, 170000000);

	k->mode = "tp_btf";
	j = kstats_to_json(k);
	assert_string_equal(json_string_value(json_object_get(j,
			    "softirq_source")), "ticks");
	cpu = json_array_get(json_object_get(j, "cpus"), 1);
	assert_int_equal(json_integer_value(json_object_get(cpu,
			 "softirq_ns")), 90000000);
	netrx = json_object_get(json_object_get(cpu, "softirq"), "net_rx");
	assert_int_equal(json_integer_value(json_object_get(netrx, "count")),
			 900);
	assert_null(json_object_get(netrx, "ns"));
	back = kstats_from_json(j);
	assert_non_null(back);
	assert_true(back->softirq_ticks);
	assert_int_equal(back->cpu[1].softirq_all_ns, 90000000);
	kstats_free(back);
	json_decref(j);
	kstats_free(k);
}

/* Any Linux counts timer softirqs on its first CPU. */
static void test_proc_softirqs(void **state)
{
	struct sys_softirq cpu[2];

	(void)state;
	assert_int_equal(sys_read_softirqs(cpu, 1), 0);
	assert_true(cpu[0].cnt[1] > 0);		/* TIMER */
	assert_true(cpu[0].ns % 1000000 == 0);	/* whole USER_HZ units */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_uniform),
		cmocka_unit_test(test_percentile_exponential),
		cmocka_unit_test(test_percentile_constant_and_empty),
		cmocka_unit_test_setup_teardown(test_delta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_softirq_ticks, setup,
						teardown),
		cmocka_unit_test(test_proc_softirqs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
