// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnosis.  All CPUs' time during a run splits into idle, softirq,
 * outsiders (tasks that ran while a benchmark thread waited), hypervisor
 * steal, and the benchmark's own work.  Per message, a slow run needs
 * more of that time than the reference: ncpus x (1/tp_slow - 1/tp_ref)
 * in all.  Each category's own growth per message is its share of the
 * loss, so the shares add up and rank the causes.  Which cause the idle
 * and own-work growth is blamed on depends on the evidence: full send
 * buffers point at socket backpressure, queueing (run-queue latency,
 * involuntary switches) at scheduler contention; without evidence the
 * diagnosis says that nothing stands out rather than guess.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diagnose.h"
#include "tracer/kstats.h"
#include "analysis/stats.h"
#include "util/fmt.h"

const char *const cause_kind_names[CAUSE_NR] = {
	[CAUSE_OUTSIDER_CPU] = "outsider_cpu",
	[CAUSE_SCHED_CONTENTION] = "sched_contention",
	[CAUSE_CPU_IDLE] = "cpu_idle",
	[CAUSE_SOFTIRQ] = "softirq",
	[CAUSE_SOCKET_BACKPRESSURE] = "socket_backpressure",
	[CAUSE_BENCHMARK_WORK] = "benchmark_work",
	[CAUSE_STEAL] = "hypervisor_steal",
};

/* Smallest share of the loss worth naming as a cause. */
#define MIN_SHARE 0.15
/* Below this for the top cause, nothing stands out. */
#define MIN_TOP_SHARE 0.30

#define KF_DOUBLES(X)							\
	X(wall_s) X(wakeups_per_s) X(xcpu_pct) X(invol_per_s)		\
	X(migrations_per_s) X(idle_pct) X(softirq_pct) X(net_rx_pct)	\
	X(outsider_pct) X(steal_pct) X(sndbuf_full_pct) X(oncpu_s)	\
	X(runnable_s) X(blocked_s) X(tp)
#define KF_U64S(X)							\
	X(rq_p50_ns) X(rq_p99_ns) X(rq_max_ns) X(ksoftirqd_p99_ns)	\
	X(sock_rq_p99_bytes) X(sock_rq_max_bytes) X(rcvbuf_max)		\
	X(pressure_events)

static double median_of(double *v, size_t n)
{
	return stats_median(v, n);
}

void diag_reference(const struct diag_run *runs, size_t n, double pct,
		    struct diag_ref *ref)
{
	double *v = calloc(n + 1, sizeof(*v));
	struct kfigures *kf = calloc(n + 1, sizeof(*kf));
	size_t i, nk = 0;

	memset(ref, 0, sizeof(*ref));
	if (!v || !kf || !n)
		goto out;
	ref->n = n;
	for (i = 0; i < n; i++)
		v[i] = runs[i].throughput;
	ref->tp_median = median_of(v, n);
	ref->tp_mad = stats_mad(v, n, ref->tp_median);
	ref->margin = fmax(3.0 * ref->tp_mad, pct / 100.0 * ref->tp_median);
	for (i = 0; i < n; i++) {
		if (!runs[i].k ||
		    runs[i].throughput < ref->tp_median - ref->margin)
			continue;
		kfigures_from(runs[i].k, &kf[nk]);
		if (kf[nk].valid) {
			kf[nk].tp = runs[i].throughput;
			kf[nk].steal_pct = runs[i].steal_pct;
			nk++;
		}
	}
	if (!nk)
		goto out;
	ref->have_kernel = true;
	ref->kf.valid = true;
#define MED_D(f)							\
	for (i = 0; i < nk; i++)					\
		v[i] = kf[i].f;						\
	ref->kf.f = median_of(v, nk);
#define MED_U(f)							\
	for (i = 0; i < nk; i++)					\
		v[i] = (double)kf[i].f;					\
	ref->kf.f = (uint64_t)median_of(v, nk);
	KF_DOUBLES(MED_D)
	KF_U64S(MED_U)
#undef MED_D
#undef MED_U
out:
	free(v);
	free(kf);
}

static double ratio(double now, double base)
{
	if (base <= 0)
		return now > 0 ? INFINITY : 1.0;
	return now / base;
}

/* The outsider that took the most CPU from waiting benchmark threads. */
static const struct ks_stealer *top_outsider(const struct kstats *k)
{
	const struct ks_stealer *best = NULL;
	int i;

	for (i = 0; i < k->nr_stealers; i++) {
		const struct ks_stealer *s = &k->stealer[i];

		if (s->is_benchmark || !s->pid)
			continue;
		if (!best || s->ns > best->ns)
			best = s;
	}
	return best;
}

static void cpus_list(uint64_t mask, char *buf, size_t len)
{
	size_t off = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < 64 && off + 8 < len; c++)
		if (mask & (1ULL << c))
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", c);
}

/* The CPU that idled most, for "crowded onto fewer CPUs" evidence. */
static void most_idle_cpu(const struct kstats *k, int *cpu, double *pct)
{
	int c;

	*cpu = -1;
	*pct = 0;
	for (c = 0; c < k->ncpus; c++) {
		double p = 100.0 * (double)k->cpu[c].idle_ns /
			   (double)k->wall_ns;

		if (p > *pct) {
			*pct = p;
			*cpu = c;
		}
	}
}

struct evidence {
	bool socket;
	bool sched;
};

/*
 * A CPU idle for a quarter of the run or more on which no benchmark
 * thread ever waited, while they waited on others: the threads were kept
 * off it (an affinity or cpuset confining them, or a balancer that does
 * not spread them).  The stealers' CPU masks say where threads waited.
 */
static bool queued_beside_idle(const struct kstats *k, uint64_t *waited)
{
	int c, i;

	*waited = 0;
	for (i = 0; i < k->nr_stealers; i++)
		*waited |= k->stealer[i].cpu_mask;
	if (!*waited)
		return false;
	for (c = 0; c < k->ncpus && c < 64; c++)
		if (!(*waited & 1ULL << c) &&
		    k->cpu[c].idle_ns * 4 >= k->wall_ns)
			return true;
	return false;
}

/*
 * Evidence that turns idle and own-work growth into a named cause.  Socket
 * backpressure: sends finding the send buffer full far more often, memory
 * pressure events, or receive buffers much smaller than usual with their
 * queues at the limit.  Scheduler contention: more involuntary switches
 * per message, longer run-queue waits that no outsider explains, or the
 * threads queued for some CPUs while another idled and idle time grew.
 * Without that last test, a run confined to one CPU was blamed on idle
 * CPUs alone in one try of three here: its switches and p99 need not grow.
 */
static void find_evidence(const struct kstats *k, const struct kfigures *s,
			  const struct kfigures *r, struct evidence *e)
{
	double invol_s = s->invol_per_s / s->tp, invol_r = r->invol_per_s / r->tp;
	bool small_full = r->rcvbuf_max && s->rcvbuf_max * 4 <= r->rcvbuf_max &&
			  s->sock_rq_max_bytes * 2 >= s->rcvbuf_max;
	uint64_t waited;
	bool queued_idle = s->idle_pct >= r->idle_pct + 10 &&
			   queued_beside_idle(k, &waited);

	e->socket = s->sndbuf_full_pct >= 5.0 * r->sndbuf_full_pct + 1.0 ||
		    s->pressure_events > 2 * r->pressure_events + 10 ||
		    small_full;
	e->sched = (invol_s >= 0.005 && ratio(invol_s, invol_r) >= 1.5) ||
		   (ratio((double)s->rq_p99_ns, (double)r->rq_p99_ns) >= 2.0 &&
		    s->outsider_pct - r->outsider_pct < 2) ||
		   queued_idle;
}

static void add_share(struct diag_verdict *v, enum cause_kind kind,
		      double share)
{
	int i;

	if (share <= 0)
		return;
	for (i = 0; i < v->ncauses; i++) {
		if (v->causes[i].kind == kind) {
			v->causes[i].share += share;
			return;
		}
	}
	if (v->ncauses == CAUSE_NR || v->ncauses == DIAG_MAX_CAUSES)
		return;
	v->causes[v->ncauses].kind = kind;
	v->causes[v->ncauses].share = share;
	v->ncauses++;
}

static int by_share(const void *a, const void *b)
{
	double x = ((const struct diag_cause *)a)->share;
	double y = ((const struct diag_cause *)b)->share;

	return (x < y) - (x > y);
}

static void describe(struct diag_cause *c, const struct kstats *k,
		     const struct kfigures *s, const struct kfigures *r)
{
	char a[24], b[24], d[24], cpus[64];
	const struct ks_stealer *o;
	double idle_pct;
	int idle_cpu;

	switch (c->kind) {
	case CAUSE_OUTSIDER_CPU:
		o = top_outsider(k);
		c->figure = "outsider_pct";
		c->now = s->outsider_pct;
		c->base = r->outsider_pct;
		if (o) {
			snprintf(c->task, sizeof(c->task), "%s", o->comm);
			c->pid = o->pid;
			cpus_list(o->cpu_mask, cpus, sizeof(cpus));
		}
		snprintf(c->text, sizeof(c->text),
			 "CPU contention by an outsider: %s (pid %d) on CPU %s took %s of CPU while benchmark threads were runnable (outsiders %.1f %% of all CPU time vs %.1f %%); run-queue latency p99 %s vs %s",
			 o ? o->comm : "?", o ? (int)o->pid : 0,
			 o ? cpus : "?",
			 fmt_ns(d, sizeof(d), o ? o->ns : 0),
			 s->outsider_pct, r->outsider_pct,
			 fmt_ns(a, sizeof(a), s->rq_p99_ns),
			 fmt_ns(b, sizeof(b), r->rq_p99_ns));
		break;
	case CAUSE_SCHED_CONTENTION:
		c->figure = "rq_p99_ns";
		c->now = (double)s->rq_p99_ns;
		c->base = (double)r->rq_p99_ns;
		most_idle_cpu(k, &idle_cpu, &idle_pct);
		snprintf(c->text, sizeof(c->text),
			 "scheduler contention among the benchmark's threads: run-queue latency p99 %s vs %s, involuntary switches %.2f vs %.2f per message, migrations %.0f/s vs %.0f/s",
			 fmt_ns(a, sizeof(a), s->rq_p99_ns),
			 fmt_ns(b, sizeof(b), r->rq_p99_ns),
			 s->invol_per_s / s->tp, r->invol_per_s / r->tp,
			 s->migrations_per_s, r->migrations_per_s);
		if (s->idle_pct > r->idle_pct + 10 && idle_cpu >= 0) {
			size_t n = strlen(c->text);
			uint64_t waited;

			snprintf(c->text + n, sizeof(c->text) - n,
				 "; work queued while CPUs idled (%.0f %% vs %.0f %%, cpu%d idle %.0f %%)",
				 s->idle_pct, r->idle_pct, idle_cpu, idle_pct);
			if (queued_beside_idle(k, &waited)) {
				cpus_list(waited, cpus, sizeof(cpus));
				n = strlen(c->text);
				snprintf(c->text + n, sizeof(c->text) - n,
					 "; the threads waited only on CPU %s: confined there, or not spread",
					 cpus);
			}
		}
		break;
	case CAUSE_CPU_IDLE:
		c->figure = "idle_pct";
		c->now = s->idle_pct;
		c->base = r->idle_pct;
		snprintf(c->text, sizeof(c->text),
			 "CPUs idle while the run was slow: idle %.0f %% vs %.0f %%, cross-CPU wakeups %.0f %% vs %.0f %%, run-queue latency p50 %s vs %s",
			 s->idle_pct, r->idle_pct, s->xcpu_pct, r->xcpu_pct,
			 fmt_ns(a, sizeof(a), s->rq_p50_ns),
			 fmt_ns(b, sizeof(b), r->rq_p50_ns));
		break;
	case CAUSE_SOFTIRQ:
		c->figure = "softirq_pct";
		c->now = s->softirq_pct;
		c->base = r->softirq_pct;
		snprintf(c->text, sizeof(c->text),
			 "softirq work: %.1f %% of CPU time vs %.1f %% (net_rx %.1f %% vs %.1f %%), ksoftirqd run-queue latency p99 %s vs %s",
			 s->softirq_pct, r->softirq_pct, s->net_rx_pct,
			 r->net_rx_pct,
			 fmt_ns(a, sizeof(a), s->ksoftirqd_p99_ns),
			 fmt_ns(b, sizeof(b), r->ksoftirqd_p99_ns));
		break;
	case CAUSE_SOCKET_BACKPRESSURE:
		c->figure = "sndbuf_full_pct";
		c->now = s->sndbuf_full_pct;
		c->base = r->sndbuf_full_pct;
		snprintf(c->text, sizeof(c->text),
			 "socket backpressure: sends found the send buffer full %.1f %% vs %.1f %% of the time, receive buffers up to %llu vs %llu bytes, receive queue p99 %llu vs %llu bytes, memory pressure events %llu vs %llu",
			 s->sndbuf_full_pct, r->sndbuf_full_pct,
			 (unsigned long long)s->rcvbuf_max,
			 (unsigned long long)r->rcvbuf_max,
			 (unsigned long long)s->sock_rq_p99_bytes,
			 (unsigned long long)r->sock_rq_p99_bytes,
			 (unsigned long long)s->pressure_events,
			 (unsigned long long)r->pressure_events);
		break;
	case CAUSE_STEAL:
		c->figure = "steal_pct";
		c->now = s->steal_pct;
		c->base = r->steal_pct;
		snprintf(c->text, sizeof(c->text),
			 "the hypervisor took the virtual CPUs: steal %.1f %% of all CPU time vs %.1f %%",
			 s->steal_pct, r->steal_pct);
		break;
	case CAUSE_BENCHMARK_WORK:
	default:
		c->figure = "cpu_us_per_message";
		c->now = 1e6 * (1 - (s->idle_pct + s->softirq_pct +
				     s->outsider_pct + s->steal_pct) / 100) /
			 s->tp;
		c->base = 1e6 * (1 - (r->idle_pct + r->softirq_pct +
				      r->outsider_pct + r->steal_pct) / 100) /
			  r->tp;
		snprintf(c->text, sizeof(c->text),
			 "the benchmark's threads needed more CPU per message (%.2f us vs %.2f us per CPU) with no scheduler or socket evidence",
			 c->now, c->base);
		break;
	}
}

/*
 * Time per message of one category: its share of all CPUs' time times
 * the CPUs, over the throughput.
 */
static double per_msg(double pct, double ncpus, double tp)
{
	return pct / 100.0 * ncpus / tp;
}

/* Growth per message of a category from reference to slow run. */
static double extra(double pct_s, double pct_r, double ncpus, double tp_s,
		    double tp_r)
{
	return per_msg(pct_s, ncpus, tp_s) - per_msg(pct_r, ncpus, tp_r);
}

void diag_explain(const struct diag_run *run, const struct diag_ref *ref,
		  struct diag_verdict *v)
{
	enum { X_OUTSIDER, X_STEAL, X_SOFTIRQ, X_IDLE, X_WORK, X_NR };
	double total, ncpus, bench_s, bench_r, grown, x[X_NR];
	struct kfigures s, r;
	struct evidence e;
	int i, keep;

	memset(v, 0, sizeof(*v));
	if (!ref->n || ref->tp_median <= 0)
		return;
	v->shortfall = 1.0 - run->throughput / ref->tp_median;
	v->slow = run->throughput < ref->tp_median - ref->margin;
	if (!v->slow)
		return;
	v->nothing_stands_out = true;
	kfigures_from(run->k, &s);
	if (!s.valid || !ref->have_kernel || run->throughput <= 0)
		return;
	s.tp = run->throughput;
	s.steal_pct = run->steal_pct;
	r = ref->kf;
	r.tp = ref->tp_median;
	ncpus = run->k->ncpus;
	total = ncpus * (1.0 / s.tp - 1.0 / r.tp);
	if (total <= 0)
		return;
	find_evidence(run->k, &s, &r, &e);
	bench_s = 100 - s.idle_pct - s.softirq_pct - s.outsider_pct - s.steal_pct;
	bench_r = 100 - r.idle_pct - r.softirq_pct - r.outsider_pct - r.steal_pct;
	x[X_OUTSIDER] = extra(s.outsider_pct, r.outsider_pct, ncpus, s.tp, r.tp);
	x[X_STEAL] = extra(s.steal_pct, r.steal_pct, ncpus, s.tp, r.tp);
	x[X_SOFTIRQ] = extra(s.softirq_pct, r.softirq_pct, ncpus, s.tp, r.tp);
	x[X_IDLE] = extra(s.idle_pct, r.idle_pct, ncpus, s.tp, r.tp);
	x[X_WORK] = extra(bench_s, bench_r, ncpus, s.tp, r.tp);
	/*
	 * Shares of the loss.  Categories that shrank free time for others,
	 * so the growth of the rest can exceed the total: then the shares
	 * are of that growth, and still add up to at most one.
	 */
	for (i = 0, grown = 0; i < X_NR; i++)
		grown += fmax(x[i], 0);
	total = fmax(total, grown);
	/*
	 * A category that grows only because the run was longer (the same
	 * share of CPU spread over fewer messages) is a consequence, not a
	 * cause: the outsider, steal and softirq shares of CPU must grow too.
	 */
	if (s.outsider_pct - r.outsider_pct >= 2)
		add_share(v, CAUSE_OUTSIDER_CPU, x[X_OUTSIDER] / total);
	if (s.steal_pct - r.steal_pct >= 2)
		add_share(v, CAUSE_STEAL, x[X_STEAL] / total);
	if (s.softirq_pct - r.softirq_pct >= 3 ||
	    ratio((double)s.ksoftirqd_p99_ns, (double)r.ksoftirqd_p99_ns) >= 3)
		add_share(v, CAUSE_SOFTIRQ, x[X_SOFTIRQ] / total);
	if (e.socket) {
		add_share(v, CAUSE_SOCKET_BACKPRESSURE,
			  (x[X_IDLE] + x[X_WORK]) / total);
	} else if (e.sched) {
		add_share(v, CAUSE_SCHED_CONTENTION,
			  (x[X_IDLE] + x[X_WORK]) / total);
	} else {
		add_share(v, CAUSE_CPU_IDLE, x[X_IDLE] / total);
		add_share(v, CAUSE_BENCHMARK_WORK, x[X_WORK] / total);
	}
	qsort(v->causes, (size_t)v->ncauses, sizeof(v->causes[0]), by_share);
	for (i = 0, keep = 0; i < v->ncauses; i++) {
		struct diag_cause *c = &v->causes[i];

		/* A guess is not a cause: own work without evidence. */
		if (c->share < MIN_SHARE || c->kind == CAUSE_BENCHMARK_WORK)
			continue;
		if (c->share > 1)
			c->share = 1;
		v->causes[keep] = *c;
		describe(&v->causes[keep], run->k, &s, &r);
		keep++;
	}
	v->ncauses = keep;
	v->nothing_stands_out = !keep || v->causes[0].share < MIN_TOP_SHARE;
	if (v->nothing_stands_out)
		v->ncauses = 0;
}

static void dip_why(const struct kstats *k, const struct ks_interval *iv,
		    double med_rq, double med_idle, double med_sirq,
		    char *buf, size_t len)
{
	double dur = (double)iv->duration_ns * k->ncpus;
	char a[24], b[24];
	size_t off;

	off = (size_t)snprintf(buf, len, "rq p99 %s vs %s, idle %.0f %% vs %.0f %%, softirq %.0f %% vs %.0f %%",
			       fmt_ns(a, sizeof(a), iv->rq_p99_ns),
			       fmt_ns(b, sizeof(b), (uint64_t)med_rq),
			       100.0 * (double)iv->idle_ns / dur, med_idle,
			       100.0 * (double)iv->softirq_ns / dur, med_sirq);
	if (iv->top.ns && !iv->top.is_benchmark && iv->top.pid && off < len)
		snprintf(buf + off, len - off,
			 "; top outsider %s (pid %d) took %s",
			 iv->top.comm, (int)iv->top.pid,
			 fmt_ns(a, sizeof(a), iv->top.ns));
}

int diag_find_dips(const struct kstats *k, double pct, struct diag_dip *out,
		   int max)
{
	size_t n = k ? k->nr_intervals : 0, i, m = 0;
	double *tp, *rq, *idle, *sirq, med, margin, med_rq, med_idle, med_sirq;
	int nd = 0, len;

	/* The first and last intervals are ramps, not steady state. */
	if (n < 7)
		return 0;
	tp = calloc(n, sizeof(*tp));
	rq = calloc(n, sizeof(*rq));
	idle = calloc(n, sizeof(*idle));
	sirq = calloc(n, sizeof(*sirq));
	if (!tp || !rq || !idle || !sirq)
		goto out;
	for (i = 1; i + 1 < n; i++) {
		const struct ks_interval *iv = &k->interval[i];
		double dur = (double)iv->duration_ns * k->ncpus;

		if (!iv->duration_ns)
			continue;
		tp[m] = iv->throughput;
		rq[m] = (double)iv->rq_p99_ns;
		idle[m] = 100.0 * (double)iv->idle_ns / dur;
		sirq[m] = 100.0 * (double)iv->softirq_ns / dur;
		m++;
	}
	med = stats_median(tp, m);
	margin = fmax(3.0 * stats_mad(tp, m, med), pct / 100.0 * med);
	med_rq = stats_median(rq, m);
	med_idle = stats_median(idle, m);
	med_sirq = stats_median(sirq, m);
	for (i = 1; i + 1 < n && nd < max; i++) {
		const struct ks_interval *low = &k->interval[i];
		struct diag_dip *d = &out[nd];

		if (!low->duration_ns || low->throughput >= med - margin)
			continue;
		d->from_s = (double)low->start_ns / 1e9;
		d->median = med;
		d->throughput = low->throughput;
		/* Consecutive dipping intervals are one dip. */
		len = 1;
		while (i + 2 < n &&
		       k->interval[i + 1].throughput < med - margin) {
			i++;
			len++;
			if (k->interval[i].throughput < low->throughput)
				low = &k->interval[i];
		}
		/*
		 * Hundreds of threads deliver in lumps: a single 100 ms
		 * interval at half the median is common in clean runs here,
		 * so only a dip that lasts is one.
		 */
		if (len < DIAG_DIP_MIN_INTERVALS)
			continue;
		/*
		 * Low until the end is the drain, not a dip: client senders
		 * are done within the first second, and in the last the
		 * server's senders run out of backlog one after another,
		 * so throughput falls into the end of every run.
		 */
		if (i + 2 >= n)
			continue;
		d->throughput = low->throughput;
		d->to_s = (double)(k->interval[i].start_ns +
				   k->interval[i].duration_ns) / 1e9;
		dip_why(k, low, med_rq, med_idle, med_sirq, d->why,
			sizeof(d->why));
		nd++;
	}
out:
	free(tp);
	free(rq);
	free(idle);
	free(sirq);
	return nd;
}
