// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnosis.  Evidence first: every kernel figure of a run is held
 * against the same figure in the reference runs, and one far outside
 * (beyond max(4 robust SDs, a floor that normal runs never reach here))
 * says the run was disturbed, and how.  The throughput alone cannot say
 * it: on shared 2-vCPU VMs normal runs spread by up to 30 %, so a margin
 * wide enough to be silent on clean series swallows a run at two thirds
 * of the median, while the kernel record of that run shows the burner
 * holding the CPUs.
 *
 * The causes of a slow run are ranked by how much of the lost throughput
 * each accounts for.  All CPUs' time during a run splits into idle,
 * softirq, outsiders (tasks that ran while a benchmark thread waited),
 * hypervisor steal, and the benchmark's own work.  Per message, a slow
 * run needs more of that time than the reference: ncpus x (1/tp_slow -
 * 1/tp_ref) in all, and each category's own growth per message is its
 * share of the loss.  A category is named only with its evidence; the
 * idle and own-work growth go to socket backpressure or scheduler
 * contention when their evidence is there, else nothing is guessed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cause_text.h"
#include "analysis/diagnose.h"
#include "util/stats.h"
#include "tracer/kstats_record.h"

/* A figure this many robust SDs above the reference is evidence. */
#define EVIDENCE_SDS	4.0
/* Slow with evidence: below the median by max(1 SD, this share). */
#define MIN_DROP	0.05
/*
 * Involuntary switches per message and the run-queue p99 of clean runs of
 * one series differ by up to 2.5x here (25 runs of 10 x 300): contention
 * needs more than that.
 */
#define CONTENTION_RATIO 3.0
/*
 * ksoftirqd's run-queue p99 is a heavy-tailed figure: of 90 undisturbed
 * runs of 10 x 300 (make bench-diagnosis, 2026-12-06) 81 were under
 * 0.7 ms, yet 6 reached 1.1-5.9 ms with normal throughput, and four
 * reference runs cannot see that tail.  A wait of 1.8 ms in a run
 * 9 % slow was called a softirq disturbance; only waits beyond what
 * clean runs reach are evidence.
 */
#define KSOFTIRQD_FLOOR_NS 10e6
/* Smallest share of the loss worth naming as a cause. */
#define MIN_SHARE	0.05

#define KF_DOUBLES(X)							\
	X(wall_s) X(wakeups_per_s) X(xcpu_pct) X(invol_per_s)		\
	X(invol_per_msg) X(migrations_per_s) X(idle_pct) X(softirq_pct)	\
	X(net_rx_pct) X(outsider_pct) X(steal_pct) X(sndbuf_full_pct)	\
	X(oncpu_s) X(runnable_s) X(blocked_s) X(tp) X(throttled_pct)	\
	X(stopped_pct) X(retrans_per_s) X(rto_per_s) X(psi_mem_pct)	\
	X(majflt_per_s) X(allocstall_per_s) X(freq_mhz) X(offline_pct)	\
	X(ptrace_pct) X(frozen_pct) X(jobctl_pct) X(unint_pct)		\
	X(nice_max) X(nice_min) X(grp_nice_max) X(grp_nice_min)
#define KF_U64S(X)							\
	X(rq_p50_ns) X(rq_p99_ns) X(rq_max_ns) X(ksoftirqd_p99_ns)	\
	X(sock_rq_p99_bytes) X(sock_rq_max_bytes) X(rcvbuf_max)		\
	X(pressure_events)

/* The run's headline figures, with what only the run itself knows. */
static void figures_of(const struct diag_run *run, struct kfigures *f)
{
	kfigures_from(run->k, f);
	if (!f->valid)
		return;
	f->tp = run->throughput;
	f->steal_pct = run->steal_pct;
	f->invol_per_msg = f->tp > 0 ? f->invol_per_s / f->tp : 0;
}

/* Medians and robust SDs of every figure over kf[0..n). */
static void figure_stats(const struct kfigures *kf, size_t n, double *v,
			 struct kfigures *med, struct kfigures *sd)
{
	size_t i;

	med->valid = sd->valid = true;
#define STAT_D(f)							\
	for (i = 0; i < n; i++)						\
		v[i] = kf[i].f;						\
	med->f = stats_median(v, n);					\
	sd->f = stats_robust_sd(v, n);
#define STAT_U(f)							\
	for (i = 0; i < n; i++)						\
		v[i] = (double)kf[i].f;					\
	med->f = (uint64_t)stats_median(v, n);				\
	sd->f = (uint64_t)stats_robust_sd(v, n);
	KF_DOUBLES(STAT_D)
	KF_U64S(STAT_U)
#undef STAT_D
#undef STAT_U
}

void diag_reference(const struct diag_run *runs, size_t n, double pct,
		    struct diag_ref *ref)
{
	double *v = calloc(n + 1, sizeof(*v));
	struct kfigures *kf = calloc(n + 1, sizeof(*kf));
	struct loss_pm *pm = calloc(n + 1, sizeof(*pm));
	size_t i, nk = 0;

	memset(ref, 0, sizeof(*ref));
	if (!v || !kf || !pm || !n)
		goto out;
	ref->n = n;
	for (i = 0; i < n; i++)
		v[i] = runs[i].throughput;
	ref->tp_median = stats_median(v, n);
	ref->tp_sd = stats_robust_sd(v, n);
	ref->margin = fmax(3.0 * ref->tp_sd, pct / 100.0 * ref->tp_median);
	ref->drop = fmax(ref->tp_sd, MIN_DROP * ref->tp_median);
	for (i = 0; i < n; i++) {
		if (runs[i].throughput < ref->tp_median - ref->margin)
			continue;
		figures_of(&runs[i], &kf[nk]);
		if (!kf[nk].valid)
			continue;
		loss_pm_of(&runs[i].k->budget, runs[i].k->messages, &pm[nk]);
		nk++;
	}
	if (!nk)
		goto out;
	ref->have_kernel = true;
	figure_stats(kf, nk, v, &ref->kf, &ref->kf_sd);
	loss_pm_median(pm, nk, &ref->pm);
	loss_pm_scale_to(&ref->pm, ref->tp_median);
out:
	free(v);
	free(kf);
	free(pm);
}

static double ratio(double now, double base)
{
	if (base <= 0)
		return now > 0 ? INFINITY : 1.0;
	return now / base;
}

/* x is far above the reference median med with robust SD sd. */
static bool far_above(double x, double med, double sd, double floor)
{
	return x - med >= fmax(EVIDENCE_SDS * sd, floor);
}

#define EV(kind) (1U << CAUSE_##kind)

/*
 * The figures of run s far outside the reference r (with spreads d), as
 * a set of cause kinds.  Each test looks one way only: a figure that
 * moved the other way is never evidence.  Socket backpressure: send
 * queues found at the send buffer's limit far more often, memory pressure events,
 * or receive buffers much smaller than usual with their queues at the
 * limit.  Scheduler contention: more involuntary switches per message
 * or longer run-queue waits, when no outsider explains them (a burner at
 * nice -20 preempts the benchmark's threads: more switches, longer waits,
 * and more CPU per message, all of them its doing), or the threads queued
 * for some CPUs while another idled (a run confined to one CPU need not
 * switch more, nor wait longer at p99).
 */
static unsigned int evidence(const struct kstats *k, const struct kfigures *s,
			     const struct kfigures *r, const struct kfigures *d)
{
	bool small_full = r->rcvbuf_max && s->rcvbuf_max * 4 <= r->rcvbuf_max &&
			  s->sock_rq_max_bytes * 2 >= s->rcvbuf_max;
	bool idle_up = far_above(s->idle_pct, r->idle_pct, d->idle_pct, 10);
	bool outsider = far_above(s->outsider_pct, r->outsider_pct,
				  d->outsider_pct, 5);
	bool quota = far_above(s->throttled_pct, r->throttled_pct,
			       d->throttled_pct, 5);
	bool stopped = far_above(s->stopped_pct, r->stopped_pct,
				 d->stopped_pct, 5);
	unsigned int ev = 0;
	uint64_t waited;

	/*
	 * The budget's holds are near zero in every normal run: a floor of
	 * 1 % of the threads' time (5 % for D state, which lock_sock waits
	 * give every run in doses of up to a few per cent) and of 5 % of the
	 * CPU supply for hotplug.
	 */
	bool offline = far_above(s->offline_pct, r->offline_pct,
				 d->offline_pct, 5);
	bool ptrace = far_above(s->ptrace_pct, r->ptrace_pct, d->ptrace_pct,
				1);
	bool frozen = far_above(s->frozen_pct, r->frozen_pct, d->frozen_pct,
				1);

	stopped = stopped || far_above(s->jobctl_pct, r->jobctl_pct,
				       d->jobctl_pct, 1);
	if (quota)
		ev |= EV(CPU_QUOTA);
	if (stopped)
		ev |= EV(STOPPED);
	if (offline)
		ev |= EV(CPU_OFFLINE);
	if (ptrace)
		ev |= EV(PTRACE);
	if (frozen)
		ev |= EV(FROZEN);
	if (far_above(s->unint_pct, r->unint_pct, d->unint_pct, 5))
		ev |= EV(UNINTERRUPTIBLE);
	/* Loopback retransmits now and then: tens a second are no cause. */
	if (far_above(s->retrans_per_s, r->retrans_per_s, d->retrans_per_s,
		      100) ||
	    far_above(s->rto_per_s, r->rto_per_s, d->rto_per_s, 2))
		ev |= EV(TCP_RETRANS);
	if (far_above(s->psi_mem_pct, r->psi_mem_pct, d->psi_mem_pct, 2) ||
	    far_above(s->majflt_per_s, r->majflt_per_s, d->majflt_per_s, 50) ||
	    far_above(s->allocstall_per_s, r->allocstall_per_s,
		      d->allocstall_per_s, 5))
		ev |= EV(MEMORY_PRESSURE);
	if (s->freq_mhz > 0 && r->freq_mhz > 0 &&
	    s->freq_mhz <= 0.9 * r->freq_mhz &&
	    r->freq_mhz - s->freq_mhz >= EVIDENCE_SDS * d->freq_mhz)
		ev |= EV(CPU_FREQ);
	/*
	 * A throttled or stopped process leaves the CPUs idle and its
	 * threads' waits out of shape; only a cause outside the benchmark
	 * explains that, so the contention tests below are not asked.
	 */
	outsider = outsider || quota || stopped || offline || ptrace || frozen;

	if (far_above(s->outsider_pct, r->outsider_pct, d->outsider_pct, 5))
		ev |= EV(OUTSIDER_CPU);
	if (far_above(s->steal_pct, r->steal_pct, d->steal_pct, 3))
		ev |= EV(STEAL);
	/* ksoftirqd's waits are run-queue waits, excused the same way. */
	if (far_above(s->softirq_pct, r->softirq_pct, d->softirq_pct, 5) ||
	    (!outsider &&
	     ratio((double)s->ksoftirqd_p99_ns, (double)r->ksoftirqd_p99_ns) >=
		     3 &&
	     far_above((double)s->ksoftirqd_p99_ns, (double)r->ksoftirqd_p99_ns,
		       (double)d->ksoftirqd_p99_ns, KSOFTIRQD_FLOOR_NS)))
		ev |= EV(SOFTIRQ);
	if ((s->sndbuf_full_pct >= 3.0 * r->sndbuf_full_pct + 0.5 &&
	     far_above(s->sndbuf_full_pct, r->sndbuf_full_pct,
		       d->sndbuf_full_pct, 0.5)) ||
	    s->pressure_events > 2 * r->pressure_events + 10 || small_full)
		ev |= EV(SOCKET_BACKPRESSURE);
	if ((!outsider && s->invol_per_msg >= 0.005 &&
	     ratio(s->invol_per_msg, r->invol_per_msg) >= CONTENTION_RATIO &&
	     far_above(s->invol_per_msg, r->invol_per_msg, d->invol_per_msg,
		       0)) ||
	    (!outsider &&
	     ratio((double)s->rq_p99_ns, (double)r->rq_p99_ns) >=
		     CONTENTION_RATIO &&
	     far_above((double)s->rq_p99_ns, (double)r->rq_p99_ns,
		       (double)d->rq_p99_ns, 0)) ||
	    (idle_up && kfigures_queued_beside_idle(k, &waited)))
		ev |= EV(SCHED_CONTENTION);
	if (idle_up)
		ev |= EV(CPU_IDLE);
	/*
	 * A role that ran at another nice: the same work at another weight
	 * against everything else on the CPUs.  Nice values are set, not
	 * noisy; 3 steps are a weight ratio of 2 (1.25 per step).
	 */
	if ((s->nice_max_role >= 0 && r->nice_max_role >= 0 &&
	     (far_above(s->nice_max, r->nice_max, d->nice_max, 3) ||
	      far_above(-s->nice_min, -r->nice_min, d->nice_min, 3))) ||
	    (s->grp_max_side >= 0 && r->grp_max_side >= 0 &&
	     (far_above(s->grp_nice_max, r->grp_nice_max, d->grp_nice_max, 3) ||
	      far_above(-s->grp_nice_min, -r->grp_nice_min, d->grp_nice_min,
			3))))
		ev |= EV(WEIGHT);
	return ev;
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
	if (v->ncauses == DIAG_MAX_CAUSES)
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

/*
 * Causes whose growth can be the noise of a normal run (an outsider's
 * slice, softirq, steal) are named with their evidence or when they
 * account for a quarter of the loss; the holds (offline, ptrace, the
 * freezer, stops) are near zero in any normal run, so their growth is
 * their evidence.
 */
#define NOISY_SHARE	0.25

static bool nameable(enum cause_kind kind, double share, unsigned int ev)
{
	switch (kind) {
	case CAUSE_CPU_OFFLINE:
	case CAUSE_PTRACE:
	case CAUSE_FROZEN:
	case CAUSE_STOPPED:
		return true;
	default:
		return (ev & (1U << kind)) || share >= NOISY_SHARE;
	}
}


/* The shares of the loss from the account of the time budgets. */
static void budget_causes(const struct diag_run *run,
			  const struct diag_ref *ref, struct diag_verdict *v)
{
	struct loss_pm pm;
	int i;

	loss_pm_of(&run->k->budget, run->k->messages, &pm);
	loss_explain(&pm, &ref->pm, v->evidence, &v->acct);
	v->by_budget = true;
	for (i = 0; i < v->acct.nparts; i++) {
		struct loss_part *p = &v->acct.part[i];

		if (p->kind == CAUSE_OUTSIDER_CPU && kfigures_tracer_is_top(run->k))
			p->kind = CAUSE_PTRACE;
		if (nameable(p->kind, p->share, v->evidence))
			add_share(v, p->kind, p->share);
	}
}

/*
 * A slow run with no figure outside the others' spread: no cause is
 * named, but its account still says which lines grew (often the
 * benchmark's own work, at the same count of messages: the CPUs did less
 * per second, which no guest figure explains), all of it unexplained.
 */
static void account_only(const struct diag_run *run,
			 const struct diag_ref *ref, struct diag_verdict *v)
{
	struct loss_pm pm;

	if (!run->k || !run->k->budget.valid || !ref->pm.valid)
		return;
	loss_pm_of(&run->k->budget, run->k->messages, &pm);
	loss_explain(&pm, &ref->pm, 0, &v->acct);
	if (!v->acct.valid)
		return;
	v->by_budget = true;
	v->unexplained = 1;
}

/* The shares of the loss of slow run s against r, by evidence. */
static void rank_causes(const struct diag_run *run, const struct kfigures *s,
			const struct kfigures *r, const struct diag_ref *ref,
			struct diag_verdict *v)
{
	enum { X_OUTSIDER, X_STEAL, X_SOFTIRQ, X_IDLE, X_WORK, X_NR };
	double total, ncpus = run->k->ncpus, bench_s, bench_r, grown, x[X_NR];
	unsigned int ev = v->evidence;
	int i, keep;

	total = ncpus * (1.0 / s->tp - 1.0 / r->tp);
	if (total <= 0)
		return;
	if (run->k->budget.valid && ref->pm.valid) {
		budget_causes(run, ref, v);
		goto keep;
	}
	bench_s = 100 - s->idle_pct - s->softirq_pct - s->outsider_pct -
		  s->steal_pct;
	bench_r = 100 - r->idle_pct - r->softirq_pct - r->outsider_pct -
		  r->steal_pct;
	x[X_OUTSIDER] = extra(s->outsider_pct, r->outsider_pct, ncpus, s->tp,
			      r->tp);
	x[X_STEAL] = extra(s->steal_pct, r->steal_pct, ncpus, s->tp, r->tp);
	x[X_SOFTIRQ] = extra(s->softirq_pct, r->softirq_pct, ncpus, s->tp,
			     r->tp);
	x[X_IDLE] = extra(s->idle_pct, r->idle_pct, ncpus, s->tp, r->tp);
	x[X_WORK] = extra(bench_s, bench_r, ncpus, s->tp, r->tp);
	/*
	 * Categories that shrank free time for others, so the growth of the
	 * rest can exceed the total: then the shares are of that growth,
	 * and still add up to at most one.
	 */
	for (i = 0, grown = 0; i < X_NR; i++)
		grown += fmax(x[i], 0);
	total = fmax(total, grown);
	if (ev & EV(OUTSIDER_CPU))
		add_share(v, CAUSE_OUTSIDER_CPU, x[X_OUTSIDER] / total);
	if (ev & EV(STEAL))
		add_share(v, CAUSE_STEAL, x[X_STEAL] / total);
	if (ev & EV(SOFTIRQ))
		add_share(v, CAUSE_SOFTIRQ, x[X_SOFTIRQ] / total);
	if (ev & EV(STOPPED))
		add_share(v, CAUSE_STOPPED, (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(CPU_QUOTA))
		add_share(v, CAUSE_CPU_QUOTA, (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(WEIGHT))
		add_share(v, CAUSE_WEIGHT, (x[X_IDLE] + x[X_WORK]) / total);
	/* Full buffers drop segments: retransmits follow, not lead. */
	else if (ev & EV(SOCKET_BACKPRESSURE))
		add_share(v, CAUSE_SOCKET_BACKPRESSURE,
			  (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(TCP_RETRANS))
		add_share(v, CAUSE_TCP_RETRANS, (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(MEMORY_PRESSURE))
		add_share(v, CAUSE_MEMORY_PRESSURE,
			  (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(CPU_FREQ))
		add_share(v, CAUSE_CPU_FREQ, x[X_WORK] / total);
	else if (ev & EV(SCHED_CONTENTION))
		add_share(v, CAUSE_SCHED_CONTENTION,
			  (x[X_IDLE] + x[X_WORK]) / total);
	else if (ev & EV(CPU_IDLE))
		add_share(v, CAUSE_CPU_IDLE, x[X_IDLE] / total);
keep:
	qsort(v->causes, (size_t)v->ncauses, sizeof(v->causes[0]), by_share);
	for (i = 0, keep = 0; i < v->ncauses; i++) {
		struct diag_cause *c = &v->causes[i];

		if (c->share < MIN_SHARE)
			continue;
		if (c->share > 1)
			c->share = 1;
		v->causes[keep] = *c;
		diag_describe(&v->causes[keep], run->k, s, r);
		keep++;
	}
	v->ncauses = keep;
	if (v->by_budget) {
		double named = 0;

		for (i = 0; i < keep; i++)
			named += v->causes[i].share;
		v->unexplained = fmax(0, 1 - named);
	}
}

void diag_explain(const struct diag_run *run, const struct diag_ref *ref,
		  struct diag_verdict *v)
{
	struct kfigures s, r = ref->kf;
	bool below_margin;

	memset(v, 0, sizeof(*v));
	v->unexplained = -1;
	if (!ref->n || ref->tp_median <= 0)
		return;
	v->shortfall = 1.0 - run->throughput / ref->tp_median;
	below_margin = run->throughput < ref->tp_median - ref->margin;
	figures_of(run, &s);
	if (s.valid && ref->have_kernel) {
		v->evidence = evidence(run->k, &s, &r, &ref->kf_sd);
		v->disturbed = v->evidence != 0;
	}
	v->slow = below_margin ||
		  (v->disturbed && run->throughput < ref->tp_median - ref->drop);
	if (!v->slow)
		return;
	v->nothing_stands_out = true;
	if (run->throughput <= 0)
		return;
	if (!v->disturbed) {
		account_only(run, ref, v);
		return;
	}
	r.tp = ref->tp_median;
	rank_causes(run, &s, &r, ref, v);
	v->nothing_stands_out = !v->ncauses;
	/*
	 * Evidence lowers the bar from the margin to the drop only when it
	 * accounts for some of the loss: a run 10 % down on a 2-vCPU VM,
	 * whose one odd figure (a ksoftirqd wait of 16 ms) explains under
	 * 5 % of it, is the VM's noise, not a disturbance we can name.
	 */
	if (!below_margin && !v->ncauses)
		v->slow = v->nothing_stands_out = false;
}

void diag_judge(const struct diag_run *runs, size_t n, double pct,
		struct diag_ref *ref, struct diag_verdict *v)
{
	struct diag_run *sub = calloc(n + 1, sizeof(*sub));
	size_t i, j, m;

	if (!sub || n < 2) {
		diag_reference(runs, n, pct, ref);
		goto explain;
	}
	/* Each run against the others: who is disturbed or far below. */
	for (i = 0; i < n; i++) {
		for (j = 0, m = 0; j < n; j++)
			if (j != i)
				sub[m++] = runs[j];
		diag_reference(sub, m, pct, ref);
		diag_explain(&runs[i], ref, &v[i]);
	}
	for (i = 0, m = 0; i < n; i++)
		if (!v[i].disturbed && !v[i].slow)
			sub[m++] = runs[i];
	/* Most runs disturbed: the machine was; judge by all of them. */
	if (m < 2 || 2 * m < n)
		diag_reference(runs, n, pct, ref);
	else
		diag_reference(sub, m, pct, ref);
explain:
	for (i = 0; i < n; i++)
		diag_explain(&runs[i], ref, &v[i]);
	free(sub);
}
