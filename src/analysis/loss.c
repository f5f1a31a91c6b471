// SPDX-License-Identifier: GPL-2.0
/*
 * The loss explained by the budget.  Per message, a run spends its CPU
 * supply (CPUs x wall / messages) on the CPU lines: the benchmark's work,
 * outsiders by class, softirq, interrupts, steal, idle, offline.  A slow
 * run spends more per message, and the difference is exactly the sum of
 * the lines' growths.  Most growths name their cause directly (an
 * outsider's class, a CPU offline, softirq, steal).  Two need the
 * threads' budget to say why: idle CPUs while the benchmark was slow
 * mean its threads were held off them (ptrace, job-control stops, the
 * freezer, uninterruptible sleep, a quota or late wakeups), and the idle
 * growth is split among the holds that grew, in proportion; more CPU per
 * message is work, named only with a mechanism behind it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/loss.h"
#include "tracer/kbudget.h"
#include "util/roles.h"
#include "util/stats.h"

#define EV(kind) (1U << CAUSE_##kind)

static void pm_per(const struct ks_budget *b, double m, struct loss_pm *pm)
{
	const struct kb_threads *t = &b->subjects;
	int i;

	for (i = 0; i < KB_NR_CPU_LINES; i++)
		pm->v[LL_CPU(i)] = (double)b->cpus.line[i] / m;
	pm->v[LL_ONCPU] = (double)t->oncpu_ns / m;
	for (i = 0; i < KB_NR_HOLDERS; i++)
		pm->v[LL_WAIT(i)] = (double)t->wait_by[i] / m;
	pm->v[LL_WAIT_UNKNOWN] = (double)t->wait_unknown_ns / m;
	for (i = 0; i < CB_NR_BLOCKS; i++)
		pm->v[LL_BLOCK(i)] = (double)t->blocked_by[i] / m;
	pm->v[LL_GONE] = (double)t->gone_ns / m;
	pm->supply = (double)b->cpus.supply_ns / m;
	pm->threads = (double)t->total_ns / m;
	pm->ncpus = (double)b->cpus.ncpus;
	pm->valid = true;
}

void loss_pm_of(const struct ks_budget *b, uint64_t messages,
		struct loss_pm *pm)
{
	memset(pm, 0, sizeof(*pm));
	if (b && b->valid && messages)
		pm_per(b, (double)messages, pm);
}

void loss_pm_rate(const struct ks_budget *b, struct loss_pm *pm)
{
	memset(pm, 0, sizeof(*pm));
	if (b && b->valid && b->wall_ns)
		pm_per(b, (double)b->wall_ns, pm);
}

void loss_pm_median(const struct loss_pm *pm, size_t n, struct loss_pm *out)
{
	double *v = calloc(n + 1, sizeof(*v));
	size_t i, m;
	int l;

	memset(out, 0, sizeof(*out));
	if (!v)
		return;
	for (l = 0; l < LL_NR; l++) {
		for (i = 0, m = 0; i < n; i++)
			if (pm[i].valid)
				v[m++] = pm[i].v[l];
		if (!m)
			break;
		out->v[l] = stats_median(v, m);
		out->valid = true;
	}
	for (i = 0, m = 0; i < n; i++)
		if (pm[i].valid)
			v[m++] = pm[i].supply;
	out->supply = m ? stats_median(v, m) : 0;
	for (i = 0, m = 0; i < n; i++)
		if (pm[i].valid)
			v[m++] = pm[i].threads;
	out->threads = m ? stats_median(v, m) : 0;
	for (i = 0; i < n; i++)
		if (pm[i].valid)
			out->ncpus = pm[i].ncpus;
	free(v);
}

void loss_pm_scale_to(struct loss_pm *pm, double tp)
{
	double sum = 0, f;
	int l;

	if (!pm->valid || tp <= 0 || pm->ncpus <= 0)
		return;
	for (l = 0; l < KB_NR_CPU_LINES; l++)
		sum += pm->v[l];
	if (sum <= 0)
		return;
	f = pm->ncpus * 1e9 / tp / sum;
	for (l = 0; l < LL_NR; l++)
		pm->v[l] *= f;
	pm->supply *= f;
	pm->threads *= f;
}

const char *loss_line_name(int line, char *buf, size_t len)
{
	if (line >= 0 && line < KB_NR_CPU_LINES)
		snprintf(buf, len, "cpu:%s", kb_cpu_names[line]);
	else if (line == LL_ONCPU)
		snprintf(buf, len, "threads:oncpu");
	else if (line >= LL_WAIT(0) && line < LL_WAIT_UNKNOWN)
		snprintf(buf, len, "wait:%s", kb_holder_name(line - LL_WAIT(0)));
	else if (line == LL_WAIT_UNKNOWN)
		snprintf(buf, len, "wait:unknown");
	else if (line >= LL_BLOCK(0) && line < LL_GONE)
		snprintf(buf, len, "blocked:%s",
			 kb_block_names[line - LL_BLOCK(0)]);
	else if (line == LL_GONE)
		snprintf(buf, len, "threads:gone");
	else
		snprintf(buf, len, "?");
	return buf;
}

static void add(struct loss_account *a, enum cause_kind kind, double ns,
		int line)
{
	int i;

	if (ns <= 0)
		return;
	for (i = 0; i < a->nparts; i++) {
		if (a->part[i].kind != kind)
			continue;
		a->part[i].share += ns;
		return;
	}
	if (a->nparts == LOSS_MAX_PARTS)
		return;
	a->part[a->nparts++] = (struct loss_part){ kind, ns, line };
}

static double grew(const struct loss_account *a, int line)
{
	return fmax(a->grown[line], 0);
}

/*
 * The idle growth: why the CPUs sat idle while the benchmark was slower.
 * The threads' holds that grew, in thread-ns per message, share it in
 * proportion (a thread held off its CPU for a second leaves at most a
 * CPU-second idle, and all of them together left the growth).
 */
static void explain_idle(struct loss_account *a, double idle,
			 unsigned int ev)
{
	static const struct {
		int line;
		enum cause_kind kind;
	} holds[] = {
		{ LL_BLOCK(CB_BLOCK_PTRACE), CAUSE_PTRACE },
		{ LL_BLOCK(CB_BLOCK_JOBCTL), CAUSE_STOPPED },
		{ LL_BLOCK(CB_BLOCK_FROZEN), CAUSE_FROZEN },
		{ LL_BLOCK(CB_BLOCK_UNINT), CAUSE_UNINTERRUPTIBLE },
		{ LL_WAIT(CB_HOLD_THROTTLED), CAUSE_CPU_QUOTA },
	};
	double sum = 0, g[sizeof(holds) / sizeof(holds[0])];
	size_t i, n = sizeof(holds) / sizeof(holds[0]);

	if (idle <= 0)
		return;
	for (i = 0; i < n; i++) {
		g[i] = grew(a, holds[i].line);
		/* D state is every run's in small doses: only with evidence. */
		if (holds[i].kind == CAUSE_UNINTERRUPTIBLE &&
		    !(ev & (EV(UNINTERRUPTIBLE) | EV(MEMORY_PRESSURE))))
			g[i] = 0;
		sum += g[i];
	}
	if (sum > 0) {
		for (i = 0; i < n; i++) {
			enum cause_kind k = holds[i].kind;

			if (k == CAUSE_UNINTERRUPTIBLE &&
			    (ev & EV(MEMORY_PRESSURE)))
				k = CAUSE_MEMORY_PRESSURE;
			add(a, k, idle * g[i] / sum, holds[i].line);
		}
		return;
	}
	/* Nothing held them: the causes the figures point to, in turn. */
	if (ev & EV(CPU_QUOTA))
		add(a, CAUSE_CPU_QUOTA, idle, LL_CPU(KB_CPU_IDLE));
	else if (ev & EV(STOPPED))
		add(a, CAUSE_STOPPED, idle, LL_CPU(KB_CPU_IDLE));
	else if (ev & EV(WEIGHT))
		add(a, CAUSE_WEIGHT, idle, LL_CPU(KB_CPU_IDLE));
	else if (ev & EV(SOCKET_BACKPRESSURE))
		add(a, CAUSE_SOCKET_BACKPRESSURE, idle,
		    LL_BLOCK(CB_BLOCK_SOCK_SEND));
	else if (ev & EV(TCP_RETRANS))
		add(a, CAUSE_TCP_RETRANS, idle, LL_BLOCK(CB_BLOCK_SOCK_RECV));
	else if (ev & EV(MEMORY_PRESSURE))
		add(a, CAUSE_MEMORY_PRESSURE, idle, LL_CPU(KB_CPU_IDLE));
	else if (ev & EV(SCHED_CONTENTION))
		add(a, CAUSE_SCHED_CONTENTION, idle, LL_WAIT(CB_HOLD_IDLE));
	else if (ev & EV(CPU_IDLE))
		add(a, CAUSE_CPU_IDLE, idle, LL_CPU(KB_CPU_IDLE));
}

/*
 * More CPU per message: a tracer's stops cost the tracee work at every
 * system call; a quota throttles one side while the other retries into
 * full queues (5x the CPU per message in our runs); a slower clock makes
 * everything longer; contention costs switches.  Without any of those it
 * is the machine's noise (these VMs run whole series at speeds 25 %
 * apart), unexplained.
 */
static void explain_work(struct loss_account *a, double work,
			 unsigned int ev)
{
	int line = LL_CPU(KB_CPU_BENCH);

	if (work <= 0)
		return;
	if (ev & EV(PTRACE))
		add(a, CAUSE_PTRACE, work, line);
	else if (ev & EV(CPU_QUOTA))
		add(a, CAUSE_CPU_QUOTA, work, line);
	else if (ev & EV(CPU_FREQ))
		add(a, CAUSE_CPU_FREQ, work, line);
	else if (ev & EV(WEIGHT))
		add(a, CAUSE_WEIGHT, work, line);
	else if (ev & EV(SCHED_CONTENTION))
		add(a, CAUSE_SCHED_CONTENTION, work, line);
	else if (ev & EV(SOCKET_BACKPRESSURE))
		add(a, CAUSE_SOCKET_BACKPRESSURE, work, line);
}

/* The outsider class line that grew most. */
static int top_class_line(const struct loss_account *a)
{
	int c, best = KB_CPU_CLASS(0);

	for (c = 1; c < CB_NR_CLASSES; c++)
		if (a->grown[KB_CPU_CLASS(c)] > a->grown[best])
			best = KB_CPU_CLASS(c);
	return best;
}

static int by_share(const void *x, const void *y)
{
	double p = ((const struct loss_part *)x)->share;
	double q = ((const struct loss_part *)y)->share;

	return (p < q) - (p > q);
}

void loss_explain(const struct loss_pm *s, const struct loss_pm *r,
		  unsigned int ev, struct loss_account *a)
{
	double outsiders = 0, whole, named = 0;
	int l, c;

	memset(a, 0, sizeof(*a));
	if (!s->valid || !r->valid)
		return;
	a->valid = true;
	for (l = 0; l < LL_NR; l++)
		a->grown[l] = s->v[l] - r->v[l];
	for (l = 0; l < KB_NR_CPU_LINES; l++) {
		a->lost_ns += a->grown[l];
		a->grown_ns += grew(a, l);
	}
	for (c = 0; c < CB_NR_CLASSES; c++)
		outsiders += grew(a, KB_CPU_CLASS(c));
	add(a, CAUSE_CPU_OFFLINE, grew(a, KB_CPU_OFFLINE), KB_CPU_OFFLINE);
	add(a, CAUSE_OUTSIDER_CPU, outsiders, top_class_line(a));
	/*
	 * The softirq work is the benchmark's own packets: when a role of
	 * it ran at another weight and nothing else (retransmits) added
	 * packets, more of it per message is how that weight shaped the
	 * run (receivers reading later, in other batches), not a cause.
	 */
	add(a, (ev & EV(WEIGHT)) && !(ev & EV(TCP_RETRANS)) ?
	    CAUSE_WEIGHT : CAUSE_SOFTIRQ,
	    grew(a, KB_CPU_SOFTIRQ) + grew(a, KB_CPU_IRQ) +
		    grew(a, KB_CPU_KSOFTIRQD),
	    KB_CPU_SOFTIRQ);
	add(a, CAUSE_STEAL, grew(a, KB_CPU_STEAL), KB_CPU_STEAL);
	explain_idle(a, grew(a, KB_CPU_IDLE) + grew(a, KB_CPU_UNACCOUNTED), ev);
	explain_work(a, grew(a, KB_CPU_BENCH), ev);
	/*
	 * Lines that shrank freed time for the others, so the growths can
	 * exceed the loss: then shares are of the growths, and still add up
	 * to at most one.
	 */
	whole = fmax(a->lost_ns, a->grown_ns);
	if (whole <= 0) {
		a->nparts = 0;
		a->unexplained = 1;
		return;
	}
	for (l = 0; l < a->nparts; l++) {
		a->part[l].share /= whole;
		named += a->part[l].share;
	}
	qsort(a->part, (size_t)a->nparts, sizeof(a->part[0]), by_share);
	a->unexplained = fmax(0, 1 - named);
}
