// SPDX-License-Identifier: GPL-2.0
/*
 * From raw per-role and per-CPU counters to the few figures a kernel
 * engineer reads first.  Rates are per second of the run and shares are of
 * all CPUs' time, so a 1 s run and a 20 s run line up.
 */
#include <math.h>
#include <string.h>

#include "analysis/kfigures.h"
#include "tracer/kstats.h"
#include "util/roles.h"

static void budget_figures(const struct ks_budget *b, struct kfigures *f)
{
	const struct kb_threads *t = &b->subjects;
	double whole = (double)t->total_ns;

	if (!b->valid || !b->cpus.supply_ns || !whole)
		return;
	f->offline_pct = 100.0 * (double)b->cpus.line[KB_CPU_OFFLINE] /
			 (double)b->cpus.supply_ns;
	f->ptrace_pct = 100.0 * (double)t->blocked_by[CB_BLOCK_PTRACE] / whole;
	f->frozen_pct = 100.0 * (double)t->blocked_by[CB_BLOCK_FROZEN] / whole;
	f->jobctl_pct = 100.0 * (double)t->blocked_by[CB_BLOCK_JOBCTL] / whole;
	f->unint_pct = 100.0 * (double)t->blocked_by[CB_BLOCK_UNINT] / whole;
}

/* The highest and the lowest of some values, and whose they are. */
struct who_range {
	bool any;
	double max, min;
	int max_who, min_who;
};

static void range_add(struct who_range *w, double v, int who)
{
	if (!w->any || v > w->max) {
		w->max = v;
		w->max_who = who;
	}
	if (!w->any || v < w->min) {
		w->min = v;
		w->min_who = who;
	}
	w->any = true;
}

/*
 * The roles' mean weight on CPU, as the nice of that weight (1.25 per
 * step from 1024 at 0): a role must have run a millisecond, so that a
 * thread that barely ran does not set it.  Records older than weight_ns
 * say nothing (0, no role), alike in every run of a series.
 */
static void nice_range(const struct kstats *k, struct kfigures *f)
{
	struct who_range w = { .max_who = -1, .min_who = -1 };
	int r;

	for (r = 0; r < KS_NR_ROLES; r++) {
		const struct ks_role *ro = &k->role[r];

		if (!role_is_worker(r) || !ro->weight_ns ||
		    ro->oncpu_ns < 1000000)
			continue;
		range_add(&w, -log((double)ro->weight_ns /
				   (double)ro->oncpu_ns / 1024) / log(1.25), r);
	}
	f->nice_max = w.max;
	f->nice_min = w.min;
	f->nice_max_role = w.max_who;
	f->nice_min_role = w.min_who;
}

/* A group's weight in nice steps: its cgroup's and its autogroup's. */
double kfigures_group_nice(const struct ks_proc *p)
{
	double n = 0;

	if (p->cg_valid && p->cpu_weight)
		n -= log((double)p->cpu_weight / 100) / log(1.25);
	if (p->ag_valid)
		n += p->ag_nice;
	return n;
}

static void group_range(const struct kstats *k, struct kfigures *f)
{
	struct who_range w = { .max_who = -1, .min_who = -1 };
	int i;

	for (i = 0; i < CB_NR_SIDES; i++) {
		const struct ks_proc *p = &k->proc[i];

		/* A process of another host (pid 0) is not weighed here. */
		if (p->pid && (p->cpu_weight || p->ag_valid))
			range_add(&w, kfigures_group_nice(p), i);
	}
	f->grp_nice_max = w.max;
	f->grp_nice_min = w.min;
	f->grp_max_side = w.max_who;
	f->grp_min_side = w.min_who;
}

void kfigures_from(const struct kstats *k, struct kfigures *f)
{
	struct ks_hist all;
	uint64_t wake = 0, xcpu = 0, invol = 0, migr = 0, idle = 0;
	uint64_t sirq = 0, netrx = 0, outsider = 0, sends = 0, full = 0;
	double cpu_ns;
	int r, c, b, i;

	memset(f, 0, sizeof(*f));
	if (!k || !k->wall_ns || !k->ncpus)
		return;
	memset(&all, 0, sizeof(all));
	f->valid = true;
	f->wall_s = (double)k->wall_ns / 1e9;
	for (r = 0; r < KS_NR_ROLES; r++) {
		const struct ks_role *ro = &k->role[r];

		if (!role_is_worker(r))
			continue;
		wake += ro->wakeups;
		xcpu += ro->cross_cpu_wakeups;
		invol += ro->invol_switches;
		migr += ro->migrations;
		f->oncpu_s += (double)ro->oncpu_ns / 1e9;
		f->runnable_s += (double)ro->runnable_ns / 1e9;
		f->blocked_s += (double)ro->blocked_ns / 1e9;
		for (b = 0; b < CB_HIST_BUCKETS; b++)
			all.buckets[b] += ro->rq_lat.buckets[b];
		if (ro->rq_lat.max > all.max)
			all.max = ro->rq_lat.max;
	}
	ks_hist_finish(&all);
	nice_range(k, f);
	group_range(k, f);
	f->rq_p50_ns = all.p50;
	f->rq_p99_ns = all.p99;
	f->rq_max_ns = all.max;
	f->ksoftirqd_p99_ns = k->role[CB_ROLE_KSOFTIRQD].rq_lat.p99;
	f->wakeups_per_s = (double)wake / f->wall_s;
	f->xcpu_pct = wake ? 100.0 * (double)xcpu / (double)wake : 0;
	f->invol_per_s = (double)invol / f->wall_s;
	f->migrations_per_s = (double)migr / f->wall_s;
	for (c = 0; c < k->ncpus; c++) {
		idle += k->cpu[c].idle_ns;
		sirq += k->cpu[c].softirq_all_ns;
		netrx += k->cpu[c].softirq_ns[3]; /* NET_RX_SOFTIRQ */
	}
	cpu_ns = (double)k->wall_ns * k->ncpus;
	budget_figures(&k->budget, f);
	f->idle_pct = 100.0 * (double)idle / cpu_ns;
	f->softirq_pct = 100.0 * (double)sirq / cpu_ns;
	/* The kernel's tick accounting does not split softirq time by vector. */
	f->net_rx_pct = k->softirq_ticks ? -1 : 100.0 * (double)netrx / cpu_ns;
	for (i = 0; i < k->nr_stealers; i++)
		if (!k->stealer[i].is_benchmark && k->stealer[i].pid)
			outsider += k->stealer[i].ns;
	f->outsider_pct = 100.0 * (double)outsider / cpu_ns;
	for (i = 0; i < CB_NR_SIDES; i++) {
		const struct ks_sock_side *s = &k->sock[i];

		if (s->rq_bytes.p99 > f->sock_rq_p99_bytes)
			f->sock_rq_p99_bytes = s->rq_bytes.p99;
		if (s->rq_bytes.max > f->sock_rq_max_bytes)
			f->sock_rq_max_bytes = s->rq_bytes.max;
		if (s->rcvbuf_max > f->rcvbuf_max)
			f->rcvbuf_max = s->rcvbuf_max;
		sends += s->sends;
		full += s->sndbuf_full;
		f->pressure_events += s->exceed_buf_limit + s->rcvqueue_full;
	}
	f->sndbuf_full_pct = sends ? 100.0 * (double)full / (double)sends : 0;
	for (i = 0; i < CB_NR_SIDES; i++) {
		const struct ks_proc *p = &k->proc[i];
		double thr = 100.0 * (double)p->throttled_ns / cpu_ns;
		double stop = 100.0 * (double)p->stopped_ns /
			      (double)k->wall_ns;

		if (thr > f->throttled_pct) {
			f->throttled_pct = thr;
			f->throttled_side = i;
		}
		if (stop > f->stopped_pct) {
			f->stopped_pct = stop;
			f->stopped_side = i;
		}
		f->majflt_per_s += (double)p->majflt / f->wall_s;
	}
	f->retrans_per_s = (double)k->sys.retrans_segs / f->wall_s;
	f->rto_per_s = (double)k->sys.rto_timeouts / f->wall_s;
	f->psi_mem_pct = (double)k->sys.psi_mem_some_us / 1e4 / f->wall_s;
	f->allocstall_per_s = (double)k->sys.allocstall / f->wall_s;
	f->freq_mhz = (double)k->sys.freq_khz / 1e3;
}

/*
 * A CPU idle for a tenth of the run or more on which the benchmark's
 * threads (almost) never waited, while they waited on others: they were
 * kept off it (an affinity or cpuset confining them, or a balancer that
 * does not spread them).  Each CPU's waiting time says where they waited;
 * a CPU with under 2 % of it counts as free, since a thread may wait there
 * for a moment before a confinement takes hold.  How long the free CPU
 * idles is the VM's business: a quarter of the run was asked once, and a
 * confined run whose idle time grew by 10 points of all CPUs was then
 * called cpu_idle instead.
 */
bool kfigures_queued_beside_idle(const struct kstats *k, uint64_t *waited)
{
	uint64_t total = 0;
	bool free_idle = false;
	int c;

	*waited = 0;
	for (c = 0; c < k->ncpus; c++)
		total += k->cpu[c].stolen_ns;
	if (!total)
		return false;
	for (c = 0; c < k->ncpus && c < 64; c++) {
		if (k->cpu[c].stolen_ns * 50 >= total)
			*waited |= 1ULL << c;
		else if (k->cpu[c].idle_ns * 10 >= k->wall_ns)
			free_idle = true;
	}
	return free_idle;
}

bool kfigures_is_tracer(const struct kstats *k, int pid)
{
	int i;

	for (i = 0; pid > 0 && i < CB_NR_SIDES; i++)
		if (k->tracer[i].stops && (int)k->tracer[i].pid == pid)
			return true;
	return false;
}

bool kfigures_tracer_is_top(const struct kstats *k)
{
	const struct ks_stealer *top = NULL;
	int i;

	for (i = 0; i < k->nr_stealers; i++)
		if (!k->stealer[i].is_benchmark && k->stealer[i].pid &&
		    (!top || k->stealer[i].ns > top->ns))
			top = &k->stealer[i];
	return top && kfigures_is_tracer(k, top->pid);
}
