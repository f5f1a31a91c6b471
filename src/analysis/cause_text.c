// SPDX-License-Identifier: GPL-2.0
/*
 * The sentence that names a cause of a slow run, with its size against
 * the reference runs and the figure it rests on: who took the CPU and how
 * much of it, which process was throttled or stopped and by whom.  Which
 * causes a run has, and their shares, is diagnose.c's business.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/cause_text.h"
#include "tracer/kstats_record.h"
#include "util/fmt.h"
#include "util/roles.h"

/* The outsider that took the most CPU from waiting benchmark threads. */
/*
 * Whether a figure rose: a cause's sentence cites only the figures that
 * moved the way its mechanism moves them (a contention whose run-queue
 * p99 fell cites something else, or its budget).
 */
static bool rose(double now, double base)
{
	return now > base * 1.05;
}

/* Appends to a fixed buffer, cut at its end. */
static void vappend_to(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		vsnprintf(buf + n, len - n, fmt, ap);
}

static void append_to(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append_to(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend_to(buf, len, fmt, ap);
	va_end(ap);
}

static void append(struct diag_cause *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void append(struct diag_cause *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend_to(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
}

/* The separator before a sentence's next figure: first, or after one. */
static const char *sep(const struct diag_cause *c, const char *first,
		       const char *next)
{
	return strchr(c->text, ':') ? next : first;
}

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

static int cpus_list(uint64_t mask, char *buf, size_t len)
{
	size_t off = 0;
	int c, n = 0;

	buf[0] = '\0';
	for (c = 0; c < 64 && off + 8 < len; c++)
		if (mask & (1ULL << c)) {
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", c);
			n++;
		}
	return n;
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

/* "6.0x the other runs'", or that they had almost none. */
static void times_ref(char *buf, size_t len, double now, double base,
		      const char *what)
{
	if (base >= 0.05 * now && base > 0)
		snprintf(buf, len, "%.1fx the other runs' %s", now / base,
			 what);
	else
		snprintf(buf, len, "where the other runs had almost none");
}

static const char *const class_words[CB_NR_CLASSES] = {
	[CB_CLASS_FAIR] = "fair class", [CB_CLASS_RT] = "real-time",
	[CB_CLASS_DL] = "deadline", [CB_CLASS_IDLE] = "SCHED_IDLE",
	[CB_CLASS_EXT] = "sched_ext",
};

static void describe_outsider(struct diag_cause *c, const struct kstats *k,
			      const struct kfigures *s,
			      const struct kfigures *r)
{
	const struct ks_stealer *o = top_outsider(k);
	char a[24], b[24], cpus[64] = "?", times[64];
	double share = 0;
	int ncpus = 1;

	if (o) {
		snprintf(c->task, sizeof(c->task), "%s", o->comm);
		c->pid = o->pid;
		ncpus = cpus_list(o->cpu_mask, cpus, sizeof(cpus));
		share = 100.0 * (double)o->ns /
			((double)k->wall_ns * (ncpus ? ncpus : 1));
	}
	times_ref(times, sizeof(times), s->outsider_pct, r->outsider_pct,
		  "outsider time");
	snprintf(c->text, sizeof(c->text),
		 "CPU contention by an outsider: %s (pid %d, %s) took %.0f %% of CPU %s for %.1f s while benchmark threads were runnable, %s (outsiders %.1f %% of all CPU time vs %.1f %%)",
		 o ? o->comm : "?", o ? (int)o->pid : 0,
		 o && o->sclass >= 0 && o->sclass < CB_NR_CLASSES ?
			 class_words[o->sclass] : "class unknown",
		 share, cpus,
		 s->wall_s, times, s->outsider_pct, r->outsider_pct);
	if (rose((double)s->rq_p99_ns, (double)r->rq_p99_ns))
		append(c, "; run-queue latency p99 %s vs %s",
		       fmt_ns(a, sizeof(a), (double)s->rq_p99_ns),
		       fmt_ns(b, sizeof(b), (double)r->rq_p99_ns));
}

static void describe_contention(struct diag_cause *c, const struct kstats *k,
				const struct kfigures *s,
				const struct kfigures *r)
{
	char a[24], b[24], cpus[64];
	double idle_pct;
	uint64_t waited;
	int idle_cpu;
	size_t n;

	most_idle_cpu(k, &idle_cpu, &idle_pct);
	snprintf(c->text, sizeof(c->text),
		 "scheduler contention among the benchmark's threads");
	/* Only what rose is evidence; none may have (a weight, a nice). */
	if (rose((double)s->rq_p99_ns, (double)r->rq_p99_ns))
		append(c, "%s run-queue latency p99 %s vs %s",
		       sep(c, ":", ","),
		       fmt_ns(a, sizeof(a), (double)s->rq_p99_ns),
		       fmt_ns(b, sizeof(b), (double)r->rq_p99_ns));
	if (rose(s->invol_per_msg, r->invol_per_msg))
		append(c, "%s involuntary switches %.3f vs %.3f per message",
		       sep(c, ":", ","), s->invol_per_msg, r->invol_per_msg);
	if (rose(s->migrations_per_s, r->migrations_per_s))
		append(c, "%s migrations %.0f/s vs %.0f/s", sep(c, ":", ","),
		       s->migrations_per_s, r->migrations_per_s);
	if (!strchr(c->text, ':'))
		append(c, ": its threads waited longer behind each other per message");
	if (s->idle_pct <= r->idle_pct + 10 || idle_cpu < 0)
		return;
	n = strlen(c->text);
	snprintf(c->text + n, sizeof(c->text) - n,
		 "; work queued while CPUs idled (%.0f %% vs %.0f %%, cpu%d idle %.0f %%)",
		 s->idle_pct, r->idle_pct, idle_cpu, idle_pct);
	if (!kfigures_queued_beside_idle(k, &waited))
		return;
	cpus_list(waited, cpus, sizeof(cpus));
	n = strlen(c->text);
	snprintf(c->text + n, sizeof(c->text) - n,
		 "; the threads waited only on CPU %s: confined there, or not spread",
		 cpus);
}

static const char *const side_names[CB_NR_SIDES] = {
	[CB_SIDE_CLIENT] = "chat_c", [CB_SIDE_SERVER] = "chat_s",
};

static void describe_quota(struct diag_cause *c, const struct kstats *k,
			   const struct kfigures *s, const struct kfigures *r)
{
	const struct ks_proc *p = &k->proc[s->throttled_side & 1];
	char quota[64] = "no quota at the run's end";

	if (p->quota_us >= 0 && p->period_us)
		snprintf(quota, sizeof(quota),
			 "quota %.0f ms per %.0f ms, %.2f CPU",
			 p->quota_us / 1e3, p->period_us / 1e3,
			 (double)p->quota_us / (double)p->period_us);
	snprintf(c->task, sizeof(c->task), "%s",
		 side_names[s->throttled_side & 1]);
	c->pid = p->pid;
	snprintf(c->text, sizeof(c->text),
		 "CPU quota: %s (pid %d) in cgroup %s (%s) was throttled in %llu of %llu periods, %.1f s in all: %.0f %% of all CPU time vs %.0f %% in the other runs",
		 side_names[s->throttled_side & 1], (int)p->pid, p->cgroup, quota,
		 (unsigned long long)p->throttled_periods,
		 (unsigned long long)p->periods, (double)p->throttled_ns / 1e9,
		 s->throttled_pct, r->throttled_pct);
}

static void describe_stopped(struct diag_cause *c, const struct kstats *k,
			     const struct kfigures *s,
			     const struct kfigures *r)
{
	const struct ks_proc *p = &k->proc[s->stopped_side & 1];
	char who[96] = "";

	if (p->stop_signals)
		snprintf(who, sizeof(who), " by signal %d from %s (pid %d)",
			 p->stop_sig, p->stop_sender_comm[0] ?
			 p->stop_sender_comm : "?", (int)p->stop_sender);
	snprintf(c->task, sizeof(c->task), "%s",
		 side_names[s->stopped_side & 1]);
	c->pid = p->pid;
	snprintf(c->text, sizeof(c->text),
		 "%s (pid %d) was stopped%s for %.2f s, %.0f %% of the run vs %.0f %% in the other runs",
		 side_names[s->stopped_side & 1], (int)p->pid, who, (double)p->stopped_ns / 1e9,
		 s->stopped_pct, r->stopped_pct);
}

/*
 * The process whose threads spent most time in blocked reason why, their
 * number and that time (ns), from the budget's roles.
 */
static int held_side(const struct kstats *k, int why, uint64_t *threads,
		     uint64_t *ns)
{
	uint64_t t[CB_NR_SIDES] = { 0 }, n[CB_NR_SIDES] = { 0 };
	int r, side;

	for (r = 0; r < CB_NR_SUBJECT_ROLES; r++) {
		const struct kb_threads *b = &k->budget.role[r];

		if (r == CB_ROLE_CLI_SND || r == CB_ROLE_CLI_RCV)
			side = CB_SIDE_CLIENT;
		else if (r == CB_ROLE_OTHER)
			continue;
		else
			side = CB_SIDE_SERVER;
		t[side] += b->blocked_by[why];
		n[side] += b->threads;
	}
	side = t[CB_SIDE_SERVER] > t[CB_SIDE_CLIENT] ? CB_SIDE_SERVER :
						       CB_SIDE_CLIENT;
	*threads = n[side];
	*ns = t[side];
	return side;
}

static void describe_ptrace(struct diag_cause *c, const struct kstats *k,
			    const struct kfigures *s, const struct kfigures *r)
{
	uint64_t threads, ns;
	int side = held_side(k, CB_BLOCK_PTRACE, &threads, &ns);
	const struct cb_tracer *t = &k->tracer[side];
	char who[64] = "the tracer not seen";

	if (t->stops) {
		snprintf(who, sizeof(who), "tracer %.16s (pid %u)", t->comm,
			 t->pid);
		snprintf(c->task, sizeof(c->task), "%.15s", t->comm);
		c->pid = (pid_t)t->pid;
	}
	snprintf(c->text, sizeof(c->text),
		 "ptrace stops: %s's %llu threads spent %.1f s stopped for a tracer, %s: %.0f %% of their time (all benchmark threads %.1f %% vs %.1f %% in the other runs); a tracer stops a thread at every system call it traces",
		 side_names[side], (unsigned long long)threads, ns / 1e9, who,
		 threads ? 100.0 * ns / ((double)threads * k->wall_ns) : 0,
		 s->ptrace_pct, r->ptrace_pct);
}

static void describe_frozen(struct diag_cause *c, const struct kstats *k,
			    const struct kfigures *s, const struct kfigures *r)
{
	uint64_t threads, ns;
	int side = held_side(k, CB_BLOCK_FROZEN, &threads, &ns);

	snprintf(c->task, sizeof(c->task), "%s", side_names[side]);
	c->pid = k->proc[side].pid;
	snprintf(c->text, sizeof(c->text),
		 "frozen by the cgroup freezer: %s's %llu threads (pid %d) spent %.1f s frozen: %.0f %% of their time (all benchmark threads %.1f %% vs %.1f %% in the other runs)",
		 side_names[side], (unsigned long long)threads,
		 (int)k->proc[side].pid, ns / 1e9,
		 threads ? 100.0 * ns / ((double)threads * k->wall_ns) : 0,
		 s->frozen_pct, r->frozen_pct);
}

static void describe_offline(struct diag_cause *c, const struct kstats *k,
			     const struct kfigures *s,
			     const struct kfigures *r)
{
	char cpus[64] = "?";
	int n = cpus_list(k->budget.cpus.offline_cpus, cpus, sizeof(cpus));

	snprintf(c->text, sizeof(c->text),
		 "CPU hotplug: CPU%s %s offline for %.1f CPU-seconds of the %.1f s run: %.0f %% of the CPU supply lost vs %.0f %% in the other runs",
		 n > 1 ? "s" : "", cpus,
		 (double)k->budget.cpus.line[KB_CPU_OFFLINE] / 1e9,
		 (double)k->wall_ns / 1e9, s->offline_pct, r->offline_pct);
}

/* -0.0 printed as 0.0: a mean of weights 1024 reads back a hair off. */
static double no_neg_zero(double x)
{
	return fabs(x) < 0.05 ? 0 : x;
}

/* The kernel's weight of a nice value: 1024 at 0, 1.25 times per step. */
static double nice_to_weight(double nice)
{
	return 1024.0 * pow(1.25, -nice);
}

/*
 * A group of the benchmark that weighed less (or more) against the rest
 * of the machine: its cpu cgroup's weight or its autogroup's nice.
 */
static void describe_group_weight(struct diag_cause *c, const struct kstats *k,
				  const struct kfigures *s,
				  const struct kfigures *r, bool up)
{
	int side = (up ? s->grp_max_side : s->grp_min_side) & 1;
	const struct ks_proc *p = &k->proc[side];
	char what[200] = "";

	c->figure = up ? "grp_nice_max" : "grp_nice_min";
	c->now = up ? s->grp_nice_max : s->grp_nice_min;
	c->base = up ? r->grp_nice_max : r->grp_nice_min;
	snprintf(c->task, sizeof(c->task), "%s", side_names[side]);
	c->pid = p->pid;
	if (p->cg_valid && p->cpu_weight)
		append_to(what, sizeof(what), "cpu cgroup %s at weight %llu",
			  p->cgroup, (unsigned long long)p->cpu_weight);
	if (p->ag_valid)
		append_to(what, sizeof(what), "%sautogroup nice %d",
			  *what ? ", " : "", p->ag_nice);
	snprintf(c->text, sizeof(c->text),
		 "scheduling weight: %s (pid %d) weighed %.1f nice steps vs %.1f in the other runs against the rest of the machine (%s): %s",
		 side_names[side], (int)p->pid, c->now, c->base, what,
		 up ? "its threads waited longer for the CPUs" :
		      "its threads took the CPUs from the rest");
}

/*
 * The role whose weight moved most from the reference, as a nice: raised
 * (a lower weight) or lowered (a higher one, which can starve the
 * others); or, when that moved more, the weight of a process's group.
 * The culprit named is the process whose threads (or group) it was.
 */
static void describe_weight(struct diag_cause *c, const struct kstats *k,
			    const struct kfigures *s,
			    const struct kfigures *r)
{
	double t_up = s->nice_max - r->nice_max, t_down = r->nice_min - s->nice_min;
	double g_up = 0, g_down = 0;
	bool up = t_up >= t_down;
	int role, side;
	double now, base;

	if (s->grp_max_side >= 0 && r->grp_max_side >= 0) {
		g_up = s->grp_nice_max - r->grp_nice_max;
		g_down = r->grp_nice_min - s->grp_nice_min;
	}
	if (s->nice_max_role < 0 || r->nice_max_role < 0)
		t_up = t_down = 0;
	if (fmax(g_up, g_down) > fmax(t_up, t_down)) {
		describe_group_weight(c, k, s, r, g_up >= g_down);
		return;
	}
	up = t_up >= t_down;
	role = up ? s->nice_max_role : s->nice_min_role;
	side = role == CB_ROLE_CLI_SND || role == CB_ROLE_CLI_RCV ?
	       CB_SIDE_CLIENT : CB_SIDE_SERVER;
	now = up ? s->nice_max : s->nice_min;
	base = up ? r->nice_max : r->nice_min;
	c->figure = up ? "nice_max" : "nice_min";
	c->now = now;
	c->base = base;
	snprintf(c->task, sizeof(c->task), "%s", side_names[side]);
	c->pid = k->proc[side].pid;
	snprintf(c->text, sizeof(c->text),
		 "scheduling weight: the %s of %s (pid %d) ran at weight %.0f vs %.0f in the other runs, as at nice %.1f vs %.1f (reniced, SCHED_IDLE, or started so): %s",
		 role >= 0 ? role_table[role].words : "threads",
		 side_names[side], (int)c->pid, nice_to_weight(now),
		 nice_to_weight(base), no_neg_zero(now), no_neg_zero(base),
		 up ? "they waited longer for the CPUs, and the work per message grew around them" :
		      "they took the CPUs from the benchmark's other threads");
}

void diag_describe(struct diag_cause *c, const struct kstats *k,
		   const struct kfigures *s, const struct kfigures *r)
{
	char a[24], b[24], netrx[48];

	switch (c->kind) {
	case CAUSE_OUTSIDER_CPU:
		c->figure = "outsider_pct";
		c->now = s->outsider_pct;
		c->base = r->outsider_pct;
		describe_outsider(c, k, s, r);
		break;
	case CAUSE_SCHED_CONTENTION:
		c->figure = "rq_p99_ns";
		c->now = (double)s->rq_p99_ns;
		c->base = (double)r->rq_p99_ns;
		describe_contention(c, k, s, r);
		break;
	case CAUSE_CPU_IDLE:
		c->figure = "idle_pct";
		c->now = s->idle_pct;
		c->base = r->idle_pct;
		snprintf(c->text, sizeof(c->text),
			 "CPUs idle while the run was slow: idle %.0f %% vs %.0f %%",
			 s->idle_pct, r->idle_pct);
		if (rose(s->xcpu_pct, r->xcpu_pct))
			append(c, ", cross-CPU wakeups %.0f %% vs %.0f %%",
			       s->xcpu_pct, r->xcpu_pct);
		if (rose((double)s->rq_p50_ns, (double)r->rq_p50_ns))
			append(c, ", run-queue latency p50 %s vs %s",
			       fmt_ns(a, sizeof(a), (double)s->rq_p50_ns),
			       fmt_ns(b, sizeof(b), (double)r->rq_p50_ns));
		break;
	case CAUSE_SOFTIRQ:
		/* The figure that is the evidence: more work, or a late ksoftirqd. */
		c->figure = "softirq_pct";
		c->now = s->softirq_pct;
		c->base = r->softirq_pct;
		if (s->softirq_pct <= r->softirq_pct) {
			c->figure = "ksoftirqd_p99_ns";
			c->now = (double)s->ksoftirqd_p99_ns;
			c->base = (double)r->ksoftirqd_p99_ns;
		}
		if (s->net_rx_pct >= 0 && r->net_rx_pct >= 0)
			snprintf(netrx, sizeof(netrx),
				 " (net_rx %.1f %% vs %.1f %%)", s->net_rx_pct,
				 r->net_rx_pct);
		else
			netrx[0] = '\0';
		fmt_ns(a, sizeof(a), (double)s->ksoftirqd_p99_ns);
		fmt_ns(b, sizeof(b), (double)r->ksoftirqd_p99_ns);
		if (!strcmp(c->figure, "softirq_pct"))
			snprintf(c->text, sizeof(c->text),
				 "softirq work: %.1f %% of CPU time vs %.1f %%%s, ksoftirqd run-queue latency p99 %s vs %s",
				 s->softirq_pct, r->softirq_pct, netrx, a, b);
		else
			snprintf(c->text, sizeof(c->text),
				 "ksoftirqd waited to run: run-queue latency p99 %s vs %s, with softirq work %.1f %% of CPU time vs %.1f %%%s",
				 a, b, s->softirq_pct, r->softirq_pct, netrx);
		break;
	case CAUSE_SOCKET_BACKPRESSURE:
		c->figure = "sndbuf_full_pct";
		c->now = s->sndbuf_full_pct;
		c->base = r->sndbuf_full_pct;
		snprintf(c->text, sizeof(c->text),
			 "socket backpressure: send queues found at their limit in %.1f %% vs %.1f %% of samples, receive buffers up to %llu vs %llu bytes, receive queue p99 %llu vs %llu bytes, memory pressure events %llu vs %llu",
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
	case CAUSE_CPU_QUOTA:
		c->figure = "throttled_pct";
		c->now = s->throttled_pct;
		c->base = r->throttled_pct;
		describe_quota(c, k, s, r);
		break;
	case CAUSE_STOPPED:
		c->figure = "stopped_pct";
		c->now = s->stopped_pct;
		c->base = r->stopped_pct;
		describe_stopped(c, k, s, r);
		break;
	case CAUSE_TCP_RETRANS:
		c->figure = "retrans_per_s";
		c->now = s->retrans_per_s;
		c->base = r->retrans_per_s;
		snprintf(c->text, sizeof(c->text),
			 "TCP retransmissions: %llu segments sent again (%.0f/s vs %.0f/s in the other runs) and %llu retransmission timeouts (%.1f/s vs %.1f/s)",
			 (unsigned long long)k->sys.retrans_segs,
			 s->retrans_per_s, r->retrans_per_s,
			 (unsigned long long)k->sys.rto_timeouts, s->rto_per_s,
			 r->rto_per_s);
		break;
	case CAUSE_MEMORY_PRESSURE:
		c->figure = "psi_mem_pct";
		c->now = s->psi_mem_pct;
		c->base = r->psi_mem_pct;
		snprintf(c->text, sizeof(c->text),
			 "memory pressure: some task stalled on memory %.1f %% of the run vs %.1f %%, major faults of chat_c and chat_s %.0f/s vs %.0f/s, direct reclaim stalls %.0f/s vs %.0f/s",
			 s->psi_mem_pct, r->psi_mem_pct, s->majflt_per_s,
			 r->majflt_per_s, s->allocstall_per_s,
			 r->allocstall_per_s);
		break;
	case CAUSE_CPU_FREQ:
		c->figure = "freq_mhz";
		c->now = s->freq_mhz;
		c->base = r->freq_mhz;
		snprintf(c->text, sizeof(c->text),
			 "the CPUs ran slower: mean clock %.0f MHz vs %.0f MHz in the other runs",
			 s->freq_mhz, r->freq_mhz);
		break;
	case CAUSE_CPU_OFFLINE:
		c->figure = "offline_pct";
		c->now = s->offline_pct;
		c->base = r->offline_pct;
		describe_offline(c, k, s, r);
		break;
	case CAUSE_PTRACE:
		c->figure = "ptrace_pct";
		c->now = s->ptrace_pct;
		c->base = r->ptrace_pct;
		describe_ptrace(c, k, s, r);
		break;
	case CAUSE_FROZEN:
		c->figure = "frozen_pct";
		c->now = s->frozen_pct;
		c->base = r->frozen_pct;
		describe_frozen(c, k, s, r);
		break;
	case CAUSE_UNINTERRUPTIBLE:
		c->figure = "unint_pct";
		c->now = s->unint_pct;
		c->base = r->unint_pct;
		snprintf(c->text, sizeof(c->text),
			 "uninterruptible sleep: the benchmark's threads slept in D state %.1f %% of their time vs %.1f %% in the other runs (page faults, I/O or kernel locks)",
			 s->unint_pct, r->unint_pct);
		break;
	case CAUSE_WEIGHT:
		describe_weight(c, k, s, r);
		break;
	case CAUSE_BENCHMARK_WORK:
	default:
		break;
	}
}
