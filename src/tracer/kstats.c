/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning tracer snapshots into one run's kernel figures.  The kernel only
 * ever adds to its counters, so a run is the difference of the snapshots
 * taken when its clock started and stopped; 32-bit histogram counts are
 * subtracted modulo 2^32 so that a wrap between snapshots is harmless.
 * Percentiles come from the log-linear buckets of bpf/chatbench.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/kbudget.h"
#include "tracer/kstats.h"
#include "tracer/profile_data.h"
#include "util/roles.h"

/* Names of the kernel's softirq_to_name[], lower case. */
const char *const ks_softirq_names[KS_NR_SOFTIRQS] = {
	"hi", "timer", "net_tx", "net_rx", "block",
	"irq_poll", "tasklet", "sched", "hrtimer", "rcu",
};

uint64_t ks_hist_percentile(const uint64_t *buckets, uint64_t count,
			    double p)
{
	double rank, before = 0;
	uint32_t i;

	if (!count)
		return 0;
	rank = p / 100.0 * (double)count;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		double lo, hi, frac;

		if (!buckets[i] || before + (double)buckets[i] < rank) {
			before += (double)buckets[i];
			continue;
		}
		lo = (double)cb_hist_lo(i);
		if (i == CB_HIST_BUCKETS - 1)
			return (uint64_t)lo;
		hi = (double)cb_hist_hi(i);
		/* Samples spread evenly over the bucket. */
		frac = (rank - before) / (double)buckets[i];
		return (uint64_t)(lo + frac * (hi - lo - 1) + 0.5);
	}
	return cb_hist_lo(CB_HIST_BUCKETS - 1);
}

void ks_hist_finish(struct ks_hist *h)
{
	uint64_t top = 0;
	int i;

	h->count = 0;
	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		h->count += h->buckets[i];
		if (h->buckets[i])
			top = cb_hist_hi(i) - 1;
	}
	h->p50 = ks_hist_percentile(h->buckets, h->count, 50);
	h->p90 = ks_hist_percentile(h->buckets, h->count, 90);
	h->p99 = ks_hist_percentile(h->buckets, h->count, 99);
	/*
	 * The exact maximum is kept by the kernel but is reset racily; never
	 * report one outside the highest non-empty bucket.
	 */
	if (!h->count)
		h->max = 0;
	else if (!h->max || h->max > top)
		h->max = top < h->p99 ? h->p99 : top;
	if (h->max < h->p99)
		h->max = h->p99;
}

int ks_snap_alloc(struct ks_snap *s, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus;
	s->sched = calloc(ncpus, sizeof(*s->sched));
	s->sock = calloc(ncpus, sizeof(*s->sock));
	s->stealers = calloc(CB_MAX_STEALERS, sizeof(*s->stealers));
	s->softirq = calloc(ncpus, sizeof(*s->softirq));
	s->cpustat = calloc(ncpus, sizeof(*s->cpustat));
	if (!s->sched || !s->sock || !s->stealers || !s->softirq ||
	    !s->cpustat) {
		ks_snap_free(s);
		return -1;
	}
	return 0;
}

void ks_snap_free(struct ks_snap *s)
{
	free(s->sched);
	free(s->sock);
	free(s->stealers);
	free(s->softirq);
	free(s->cpustat);
	memset(s, 0, sizeof(*s));
}

static const struct ks_snap_stealer *find_stealer(const struct ks_snap *s,
						  uint32_t pid)
{
	size_t i;

	for (i = 0; i < s->nr_stealers; i++)
		if (s->stealers[i].pid == pid)
			return &s->stealers[i];
	return NULL;
}

static void hist_delta(uint64_t *out, const uint32_t *a, const uint32_t *b)
{
	int i;

	for (i = 0; i < CB_HIST_BUCKETS; i++)
		out[i] += (uint32_t)(b[i] - a[i]);
}

static void roles_delta(struct kstats *k, const struct ks_snap *a,
			const struct ks_snap *b)
{
	int c, r;

	for (c = 0; c < b->ncpus; c++) {
		const struct cb_sched_cpu *sa = &a->sched[c], *sb = &b->sched[c];

		for (r = 0; r < KS_NR_ROLES; r++) {
			const struct cb_role_stats *ra = &sa->role[r];
			const struct cb_role_stats *rb = &sb->role[r];
			struct ks_role *o = &k->role[r];

			o->wakeups += rb->wakeups - ra->wakeups;
			o->cross_cpu_wakeups += rb->cross_cpu_wakeups -
						ra->cross_cpu_wakeups;
			o->vol_switches += rb->vol_switches - ra->vol_switches;
			o->invol_switches += rb->invol_switches -
					     ra->invol_switches;
			o->migrations += rb->migrations - ra->migrations;
			o->oncpu_ns += rb->oncpu_ns - ra->oncpu_ns;
			o->runnable_ns += rb->runnable_ns - ra->runnable_ns;
			o->blocked_ns += rb->blocked_ns - ra->blocked_ns;
			o->stopped_ns += rb->stopped_ns - ra->stopped_ns;
			o->frozen_ns += rb->frozen_ns - ra->frozen_ns;
			o->weight_ns += rb->weight_ns - ra->weight_ns;
			o->offcpu_vol_ns += rb->offcpu_vol_ns -
					    ra->offcpu_vol_ns;
			o->offcpu_invol_ns += rb->offcpu_invol_ns -
					      ra->offcpu_invol_ns;
			o->stolen_ns += rb->stolen_ns - ra->stolen_ns;
			if (rb->rq_lat_max_ns > o->rq_lat.max)
				o->rq_lat.max = rb->rq_lat_max_ns;
			hist_delta(o->rq_lat.buckets, sa->rq_lat_hist[r],
				   sb->rq_lat_hist[r]);
		}
	}
	for (r = 0; r < KS_NR_ROLES; r++)
		ks_hist_finish(&k->role[r].rq_lat);
}

static uint64_t u64_delta(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

/* CPU c's softirq time and counts so far, from whichever source ran. */
static uint64_t sirq_ns(const struct ks_snap *s, int c)
{
	uint64_t sum = 0;
	int v;

	if (s->softirq_ticks)
		return s->softirq[c].ns;
	for (v = 0; v < KS_NR_SOFTIRQS; v++)
		sum += s->sched[c].softirq_ns[v];
	return sum;
}

static uint64_t sirq_cnt(const struct ks_snap *s, int c, int v)
{
	return s->softirq_ticks ? s->softirq[c].cnt[v] :
				  s->sched[c].softirq_cnt[v];
}

static void cpus_delta(struct kstats *k, const struct ks_snap *a,
		       const struct ks_snap *b)
{
	int c, v, r;

	for (c = 0; c < b->ncpus; c++) {
		const struct cb_sched_cpu *sa = &a->sched[c], *sb = &b->sched[c];
		struct ks_cpu *o = &k->cpu[c];

		o->idle_ns = sb->idle_ns - sa->idle_ns;
		o->softirq_all_ns = u64_delta(sirq_ns(b, c), sirq_ns(a, c));
		for (v = 0; v < KS_NR_SOFTIRQS; v++) {
			if (!b->softirq_ticks)
				o->softirq_ns[v] = sb->softirq_ns[v] -
						   sa->softirq_ns[v];
			o->softirq_cnt[v] = u64_delta(sirq_cnt(b, c, v),
						      sirq_cnt(a, c, v));
		}
		o->stolen_ns = (sb->stolen_idle_ns - sa->stolen_idle_ns) +
			       (sb->stolen_outsider_ns - sa->stolen_outsider_ns);
		for (r = 0; r < CB_NR_SUBJECT_ROLES; r++)
			o->stolen_ns += sb->role[r].stolen_ns -
					sa->role[r].stolen_ns;
		k->missed.stealer_map_full += sb->stealer_map_full -
					      sa->stealer_map_full;
		k->missed.slot_evictions += sb->slot_evictions -
					    sa->slot_evictions;
		k->missed.queue_mismatch += sb->queue_mismatch -
					    sa->queue_mismatch;
		k->missed.waiters_migrated += sb->waiters_migrated -
					      sa->waiters_migrated;
		k->missed.phantom_waiters += sb->phantom_waiters -
					     sa->phantom_waiters;
		k->stolen_total_ns += o->stolen_ns;
	}
}

static int cmp_stealer(const void *x, const void *y)
{
	const struct ks_stealer *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return a->pid - b->pid;
}

/*
 * All candidates (idle, each benchmark role, each outsider) ranked by the
 * time they held a CPU while a subject waited on it; the top ones kept.
 * Writes at most max entries to out and returns how many.
 */
static int rank_stealers(struct ks_stealer *out, int max,
			 const struct ks_snap *a, const struct ks_snap *b)
{
	size_t n = 0, cap = b->nr_stealers + CB_NR_SUBJECT_ROLES + 1, i;
	struct ks_stealer *all;
	int c, r, kept;

	all = calloc(cap, sizeof(*all));
	if (!all)
		return 0;
	for (r = -1; r < CB_NR_SUBJECT_ROLES; r++) {
		struct ks_stealer *s = &all[n++];

		s->role = r;
		s->sclass = -1;
		s->policy = -1;
		s->is_benchmark = r >= 0;
		snprintf(s->comm, sizeof(s->comm), "%s",
			 r >= 0 ? role_name(r) : "<idle>");
		for (c = 0; c < b->ncpus; c++) {
			uint64_t d;

			if (r >= 0)
				d = b->sched[c].role[r].stolen_ns -
				    a->sched[c].role[r].stolen_ns;
			else
				d = b->sched[c].stolen_idle_ns -
				    a->sched[c].stolen_idle_ns;
			s->ns += d;
			if (d)
				s->cpu_mask |= 1ULL << (c < 63 ? c : 63);
		}
	}
	for (i = 0; i < b->nr_stealers; i++) {
		const struct ks_snap_stealer *sb = &b->stealers[i], *sa;
		struct ks_stealer *s = &all[n];

		sa = find_stealer(a, sb->pid);
		s->ns = sb->v.ns - (sa ? sa->v.ns : 0);
		if (!s->ns)
			continue;
		s->pid = sb->pid;
		s->role = -1;
		s->sclass = (int)sb->v.sclass;
		s->policy = (int)sb->v.policy;
		/* Bits set before the run cannot be told apart: keep all. */
		s->cpu_mask = sb->v.cpu_mask;
		memcpy(s->comm, sb->v.comm, sizeof(s->comm));
		s->comm[sizeof(s->comm) - 1] = '\0';
		n++;
	}
	qsort(all, n, sizeof(*all), cmp_stealer);
	for (kept = 0; kept < max && (size_t)kept < n && all[kept].ns; kept++)
		out[kept] = all[kept];
	free(all);
	return kept;
}

static void socks_delta(struct kstats *k, const struct ks_snap *a,
			const struct ks_snap *b)
{
	uint64_t wsum[CB_NR_SIDES] = { 0 };
	int c, s;

	for (c = 0; c < b->ncpus; c++) {
		for (s = 0; s < CB_NR_SIDES; s++) {
			const struct cb_sock_side_stats *xa, *xb;
			struct ks_sock_side *o = &k->sock[s];

			xa = &a->sock[c].side[s];
			xb = &b->sock[c].side[s];
			o->data_ready += xb->data_ready - xa->data_ready;
			o->sends += xb->sends - xa->sends;
			wsum[s] += xb->wmem_sum - xa->wmem_sum;
			o->sndbuf_full += xb->sndbuf_full - xa->sndbuf_full;
			o->exceed_buf_limit += xb->exceed_buf_limit -
					       xa->exceed_buf_limit;
			o->rcvqueue_full += xb->rcvqueue_full -
					    xa->rcvqueue_full;
			if (xb->rq_bytes_max > o->rq_bytes.max)
				o->rq_bytes.max = xb->rq_bytes_max;
			if (xb->rcvbuf_max > o->rcvbuf_max)
				o->rcvbuf_max = xb->rcvbuf_max;
			if (xb->wmem_max > o->wmem_max)
				o->wmem_max = xb->wmem_max;
			if (xb->sndbuf_max > o->sndbuf_max)
				o->sndbuf_max = xb->sndbuf_max;
			hist_delta(o->rq_bytes.buckets, a->sock[c].rq_hist[s],
				   b->sock[c].rq_hist[s]);
		}
	}
	for (s = 0; s < CB_NR_SIDES; s++) {
		struct ks_sock_side *o = &k->sock[s];

		o->wmem_avg = o->sends ? wsum[s] / o->sends : 0;
		ks_hist_finish(&o->rq_bytes);
	}
}

/* Runs of the program named name (btf_ or raw_ flavour) from a to b. */
static uint64_t prog_hits(const char *name, const struct ks_snap *a,
			  const struct ks_snap *b)
{
	static const char *const sched[] = {
#define HOOK_NAME(id, n) n,
		CB_SCHED_HOOKS(HOOK_NAME)
	};
	static const char *const sock[] = {
		CB_SOCK_HOOKS(HOOK_NAME)
#undef HOOK_NAME
	};
	const char *bare = strlen(name) > 4 && name[3] == '_' ? name + 4 : name;
	uint64_t n = 0;
	int h, c;

	for (h = 0; h < CB_NR_SCHED_HOOKS; h++)
		if (!strcmp(bare, sched[h]))
			for (c = 0; c < b->ncpus; c++)
				n += b->sched[c].hits[h] - a->sched[c].hits[h];
	for (h = 0; h < CB_NR_SOCK_HOOKS; h++)
		if (!strcmp(name, sock[h]) || !strcmp(bare, sock[h]))
			for (c = 0; c < b->ncpus; c++)
				n += b->sock[c].hits[h] - a->sock[c].hits[h];
	return n;
}

static void progs_delta(struct kstats *k, const struct ks_snap *a,
			const struct ks_snap *b)
{
	int i;

	k->nr_progs = b->nr_progs;
	for (i = 0; i < b->nr_progs && i < KS_MAX_PROGS; i++) {
		struct ks_prog *o = &k->prog[i];

		memcpy(o->name, b->prog[i].name, sizeof(o->name));
		o->hits = prog_hits(o->name, a, b);
		if (i >= a->nr_progs)
			continue;
		o->run_time_ns = b->prog[i].run_time_ns - a->prog[i].run_time_ns;
		o->run_cnt = b->prog[i].run_cnt - a->prog[i].run_cnt;
		k->bpf_run_time_ns += o->run_time_ns;
		k->bpf_run_cnt += o->run_cnt;
		k->missed.recursion_misses += b->recursion_misses[i] -
					      a->recursion_misses[i];
	}
	if (k->wall_ns && k->ncpus)
		k->bpf_cpu_share = (double)k->bpf_run_time_ns /
				   ((double)k->wall_ns * k->ncpus);
}

/*
 * The processes' throttling and stops over the run.  The group and its
 * quota are the ones at the run's end (where a process moved into a
 * quota between runs stays); the counters are the running totals'.
 */
static void procs_delta(struct kstats *k, const struct ks_snap *a,
			const struct ks_snap *b)
{
	int i;

	k->sys.retrans_segs = u64_delta(b->sys.retrans_segs,
					a->sys.retrans_segs);
	k->sys.rto_timeouts = u64_delta(b->sys.rto_timeouts,
					a->sys.rto_timeouts);
	k->sys.psi_mem_some_us = u64_delta(b->sys.psi_mem_some_us,
					   a->sys.psi_mem_some_us);
	k->sys.allocstall = u64_delta(b->sys.allocstall, a->sys.allocstall);
	k->sys.freq_khz = b->sys.freq_khz;
	for (i = 0; i < CB_NR_SIDES; i++) {
		const struct ks_proc_snap *pa = &a->proc[i], *pb = &b->proc[i];
		struct ks_proc *o = &k->proc[i];

		o->pid = b->pid[i];
		o->cg_valid = pb->cg_valid;
		o->cg_v2 = pb->cg_v2;
		memcpy(o->cgroup, pb->cgroup, sizeof(o->cgroup));
		o->quota_us = pb->quota_us;
		o->period_us = pb->period_us;
		o->cpu_weight = pb->cpu_weight;
		o->ag_valid = pb->ag_valid;
		o->ag_nice = pb->ag_nice;
		o->periods = u64_delta(pb->acc_periods, pa->acc_periods);
		o->throttled_periods = u64_delta(pb->acc_throttled,
						 pa->acc_throttled);
		o->throttled_ns = u64_delta(pb->acc_throttled_ns,
					    pa->acc_throttled_ns);
		o->psi_some_us = u64_delta(pb->acc_psi_us, pa->acc_psi_us);
		o->stop_signals = u64_delta(pb->stop.count, pa->stop.count);
		o->stopped_ns = u64_delta(pb->acc_stopped_ns,
					  pa->acc_stopped_ns);
		o->majflt = u64_delta(pb->majflt, pa->majflt);
		if (!o->stop_signals && !o->stopped_ns)
			continue;
		o->stop_sig = (int)pb->stop.sig;
		o->stop_sender = (pid_t)pb->stop.sender_pid;
		memcpy(o->stop_sender_comm, pb->stop.sender_comm,
		       sizeof(o->stop_sender_comm));
	}
}

struct kstats *kstats_from_snaps(const struct ks_snap *a,
				 const struct ks_snap *b)
{
	struct kstats *k;
	int i;

	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->cpu = calloc(b->ncpus, sizeof(*k->cpu));
	if (!k->cpu) {
		free(k);
		return NULL;
	}
	k->ncpus = b->ncpus;
	k->wall_ns = b->t_ns - a->t_ns;
	kb_from_snaps(&k->budget, a, b);
	for (i = 0; i < CB_NR_SIDES; i++) {
		k->tracer[i] = b->tracer[i];
		k->tracer[i].stops -= a->tracer[i].stops;
	}
	k->messages = b->messages - a->messages;
	k->sock_sample_rate = 1;
	k->softirq_ticks = b->softirq_ticks;
	procs_delta(k, a, b);
	roles_delta(k, a, b);
	cpus_delta(k, a, b);
	k->nr_stealers = rank_stealers(k->stealer, KS_TOP_STEALERS, a, b);
	socks_delta(k, a, b);
	progs_delta(k, a, b);
	return k;
}

void ks_interval_from_snaps(struct ks_interval *iv, const struct ks_snap *a,
			    const struct ks_snap *b, uint64_t run_start_ns)
{
	uint64_t buckets[CB_HIST_BUCKETS] = { 0 }, count = 0;
	int c, r, i;

	memset(iv, 0, sizeof(*iv));
	iv->start_ns = a->t_ns - run_start_ns;
	iv->duration_ns = b->t_ns - a->t_ns;
	kb_from_snaps(&iv->budget, a, b);
	iv->messages = b->messages - a->messages;
	if (iv->duration_ns)
		iv->throughput = (double)iv->messages * 1e9 /
				 (double)iv->duration_ns;
	for (c = 0; c < b->ncpus; c++) {
		const struct cb_sched_cpu *sa = &a->sched[c], *sb = &b->sched[c];

		for (r = 0; r < CB_NR_SUBJECT_ROLES; r++) {
			iv->wakeups += sb->role[r].wakeups - sa->role[r].wakeups;
			iv->invol_switches += sb->role[r].invol_switches -
					      sa->role[r].invol_switches;
			hist_delta(buckets, sa->rq_lat_hist[r],
				   sb->rq_lat_hist[r]);
		}
		iv->idle_ns += sb->idle_ns - sa->idle_ns;
		iv->softirq_ns += u64_delta(sirq_ns(b, c), sirq_ns(a, c));
	}
	for (i = 0; i < CB_NR_SIDES; i++) {
		iv->throttled_ns += u64_delta(b->proc[i].acc_throttled_ns,
					      a->proc[i].acc_throttled_ns);
		iv->stopped_ns += u64_delta(b->proc[i].acc_stopped_ns,
					    a->proc[i].acc_stopped_ns);
	}
	iv->retrans_segs = u64_delta(b->sys.retrans_segs, a->sys.retrans_segs);
	iv->psi_mem_some_us = u64_delta(b->sys.psi_mem_some_us,
					a->sys.psi_mem_some_us);
	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		iv->rq_buckets[i] = (uint32_t)buckets[i];
		count += buckets[i];
	}
	iv->rq_p99_ns = ks_hist_percentile(buckets, count, 99);
	if (!rank_stealers(&iv->top, 1, a, b))
		memset(&iv->top, 0, sizeof(iv->top));
}

void kstats_free(struct kstats *k)
{
	if (!k)
		return;
	free(k->cpu);
	free(k->interval);
	profile_free(k->profile);
	tl_events_free(k->timeline);
	free(k);
}
