// SPDX-License-Identifier: GPL-2.0
/*
 * Filling the time budget (tracer/budget.h) from two snapshots.  Every
 * counter is the kernel's closed spans plus what was open at the
 * snapshot (snapshot.c), so a thread blocked across the whole interval
 * is counted in it, and each line is a plain difference.  The lines are
 * made to add up by construction where the kernel cannot say (a thread's
 * "gone", a CPU's "unaccounted"), and those remainders are reported, not
 * hidden: a large one says the tracer missed something.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/budget.h"
#include "tracer/kbudget.h"
#include "tracer/snap_record.h"

static int64_t d64(uint64_t b, uint64_t a)
{
	return (int64_t)(b - a);
}

static uint64_t pos(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

/*
 * A foreign server's threads classed during the run (bpf/sock.bpf.c):
 * at its begin they had done nothing yet and were counted as other, so a
 * role's count is those of the begin plus those learned since.  They stay
 * counted in other too, which had them until their first unit; a thread
 * counted in two roles shows the part spent in the other as "gone".  For
 * our own server nothing is learned and this is 0.
 */
static int64_t learned_in_run(int r, const struct ks_snap *a,
			      const struct ks_snap *b)
{
	if (r == CB_ROLE_OTHER)
		return 0;
	return b->open.learned[r] - a->open.learned[r];
}

/*
 * What the kernel's softirq, interrupt and steal time took of one CPU's
 * lines (cpu_of): the share carved out of each line's slices, and how
 * the carve was made up.  A thread waiting behind a holder on that CPU
 * waited that share of the time behind the kernel's work instead.
 */
struct kb_carve {
	double frac[KB_NR_CPU_LINES];
	double mix[3];		/* softirq, irq, steal */
};

/* The CPU line a waiter's holder's slices are counted in. */
static int holder_line(int h)
{
	if (h == CB_ROLE_KSOFTIRQD)
		return KB_CPU_KSOFTIRQD;
	if (h >= 0 && h < CB_NR_ROLES)
		return KB_CPU_BENCH;
	/* Throttled: our threads runnable, the CPU idle all the same. */
	if (h == CB_HOLD_IDLE || h == CB_HOLD_THROTTLED)
		return KB_CPU_IDLE;
	return KB_CPU_CLASS(h - CB_HOLD_CLASS(0));
}

/* A role's waits on CPU c behind each holder, the kernel's split out. */
static void waits_of(struct kb_threads *o, const struct cb_role_stats *ra,
		     const struct cb_role_stats *rb, const struct kb_carve *cv,
		     double *kern)
{
	double w, k;
	int i, j;

	for (i = 0; i < CB_NR_HOLDERS; i++) {
		w = (double)pos(d64(rb->wait_by[i], ra->wait_by[i]));
		k = cv ? w * cv->frac[holder_line(i)] : 0;
		o->wait_by[i] += (uint64_t)(w - k);
		for (j = 0; cv && j < 3; j++)
			kern[j] += k * cv->mix[j];
	}
}

static void threads_of(struct kb_threads *o, int r, const struct ks_snap *a,
		       const struct ks_snap *b, uint64_t wall,
		       const struct kb_carve *cv)
{
	int64_t wait = 0, blocked[CB_NR_BLOCKS] = { 0 }, by = 0, oncpu = 0, n;
	double kern[3] = { 0 };
	int c, i;

	memset(o, 0, sizeof(*o));
	for (c = 0; c < b->ncpus; c++) {
		const struct cb_role_stats *ra = &a->sched[c].role[r];
		const struct cb_role_stats *rb = &b->sched[c].role[r];

		oncpu += d64(rb->oncpu_ns, ra->oncpu_ns);
		wait += d64(rb->runnable_ns, ra->runnable_ns);
		for (i = 0; i < CB_NR_BLOCKS; i++)
			blocked[i] += d64(rb->blocked_by[i], ra->blocked_by[i]);
		waits_of(o, ra, rb, cv ? &cv[c] : NULL, kern);
	}
	o->wait_by[KB_HOLD_SOFTIRQ] = (uint64_t)kern[0];
	o->wait_by[KB_HOLD_IRQ] = (uint64_t)kern[1];
	o->wait_by[KB_HOLD_STEAL] = (uint64_t)kern[2];
	wait += d64(b->open.runnable_ns[r], a->open.runnable_ns[r]);
	n = (int64_t)a->open.threads[r] + learned_in_run(r, a, b);
	o->threads = n > 0 ? (uint64_t)n : 0;
	o->total_ns = o->threads * wall;
	o->oncpu_ns = pos(oncpu);
	o->wait_ns = pos(wait);
	for (i = 0; i < CB_NR_BLOCKS; i++) {
		blocked[i] += d64(b->open.blocked_ns[r][i],
				  a->open.blocked_ns[r][i]);
		o->blocked_by[i] = pos(blocked[i]);
		o->blocked_ns += o->blocked_by[i];
	}
	for (i = 0; i < KB_NR_HOLDERS; i++)
		by += (int64_t)o->wait_by[i];
	/*
	 * The holders' integral misses waiters the balancer moved (their
	 * count leaves the source queue): that part has no holder.
	 */
	o->wait_unknown_ns = pos((int64_t)o->wait_ns - by);
	o->gone_ns = (int64_t)o->total_ns - (int64_t)o->oncpu_ns -
		     (int64_t)o->wait_ns - (int64_t)o->blocked_ns;
}

/*
 * Adds t's lines to s.  Threads side by side (roles) add up; the same
 * threads over successive intervals do not.
 */
static void add_threads(struct kb_threads *s, const struct kb_threads *t,
			bool side_by_side)
{
	int i;

	if (side_by_side)
		s->threads += t->threads;
	else if (t->threads > s->threads)
		s->threads = t->threads;
	s->total_ns += t->total_ns;
	s->oncpu_ns += t->oncpu_ns;
	s->wait_ns += t->wait_ns;
	for (i = 0; i < KB_NR_HOLDERS; i++)
		s->wait_by[i] += t->wait_by[i];
	s->wait_unknown_ns += t->wait_unknown_ns;
	s->blocked_ns += t->blocked_ns;
	for (i = 0; i < CB_NR_BLOCKS; i++)
		s->blocked_by[i] += t->blocked_by[i];
	s->gone_ns += t->gone_ns;
}

void kb_sum_subjects(struct ks_budget *kb)
{
	int r;

	memset(&kb->subjects, 0, sizeof(kb->subjects));
	for (r = 0; r < CB_NR_SUBJECT_ROLES; r++)
		add_threads(&kb->subjects, &kb->role[r], true);
}

void kb_add(struct ks_budget *sum, const struct ks_budget *b)
{
	int i;

	if (!b->valid)
		return;
	sum->valid = true;
	sum->wall_ns += b->wall_ns;
	for (i = 0; i < CB_NR_ROLES; i++)
		add_threads(&sum->role[i], &b->role[i], false);
	add_threads(&sum->subjects, &b->subjects, false);
	sum->cpus.ncpus = b->cpus.ncpus;
	sum->cpus.supply_ns += b->cpus.supply_ns;
	sum->cpus.offline_cpus |= b->cpus.offline_cpus;
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		sum->cpus.line[i] += b->cpus.line[i];
}

/* Takes up to want from *from, returns what it took. */
static int64_t take(int64_t *from, int64_t want)
{
	int64_t got = *from < want ? *from : want;

	if (got < 0)
		got = 0;
	*from -= got;
	return got;
}

/*
 * One CPU's lines.  Softirq, interrupt and steal time (the kernel's tick
 * accounting) was spent inside the slices the scheduler saw: ksoftirqd's
 * first, whose slices are all softirq, then the other busy lines in
 * proportion, then idle (an interrupt that woke an idle CPU).
 */
static void cpu_of(int64_t *line, int c, const struct ks_snap *a,
		   const struct ks_snap *b, uint64_t wall, struct kb_carve *cv)
{
	const struct cb_sched_cpu *sa = &a->sched[c], *sb = &b->sched[c];
	const struct sys_cpustat *pa = &a->cpustat[c], *pb = &b->cpustat[c];
	int64_t l[KB_NR_CPU_LINES] = { 0 }, carve, busy = 0, got, rest;
	int64_t orig[KB_NR_CPU_LINES];
	int r, i;

	for (r = 0; r < CB_ROLE_KSOFTIRQD; r++)
		l[KB_CPU_BENCH] += d64(sb->role[r].oncpu_ns, sa->role[r].oncpu_ns);
	l[KB_CPU_KSOFTIRQD] = d64(sb->role[CB_ROLE_KSOFTIRQD].oncpu_ns,
				  sa->role[CB_ROLE_KSOFTIRQD].oncpu_ns);
	for (i = 0; i < CB_NR_CLASSES; i++)
		l[KB_CPU_CLASS(i)] = d64(sb->class_ns[i], sa->class_ns[i]);
	l[KB_CPU_IDLE] = d64(sb->idle_ns, sa->idle_ns);
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		if (l[i] < 0)
			l[i] = 0;
	if (pa->online && pb->online) {
		l[KB_CPU_SOFTIRQ] = pos(d64(pb->softirq_ns, pa->softirq_ns));
		l[KB_CPU_IRQ] = pos(d64(pb->irq_ns, pa->irq_ns));
		l[KB_CPU_STEAL] = pos(d64(pb->steal_ns, pa->steal_ns));
	}
	carve = l[KB_CPU_SOFTIRQ] + l[KB_CPU_IRQ] + l[KB_CPU_STEAL];
	memcpy(orig, l, sizeof(orig));
	memset(cv, 0, sizeof(*cv));
	if (carve > 0) {
		cv->mix[0] = (double)l[KB_CPU_SOFTIRQ] / (double)carve;
		cv->mix[1] = (double)l[KB_CPU_IRQ] / (double)carve;
		cv->mix[2] = (double)l[KB_CPU_STEAL] / (double)carve;
	}
	carve -= take(&l[KB_CPU_KSOFTIRQD], carve);
	busy = l[KB_CPU_BENCH];
	for (i = 0; i < CB_NR_CLASSES; i++)
		busy += l[KB_CPU_CLASS(i)];
	if (carve > 0 && busy > 0) {
		int64_t want = carve < busy ? carve : busy;

		rest = want;
		got = take(&l[KB_CPU_BENCH],
			   (int64_t)((double)want * l[KB_CPU_BENCH] / busy));
		rest -= got;
		for (i = 0; i < CB_NR_CLASSES; i++)
			rest -= take(&l[KB_CPU_CLASS(i)],
				     (int64_t)((double)want *
					       l[KB_CPU_CLASS(i)] / busy));
		carve -= want - rest;
		carve -= take(&l[KB_CPU_BENCH], rest);
	}
	if (carve > 0)
		take(&l[KB_CPU_IDLE], carve);
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		if (orig[i] > 0 && i != KB_CPU_SOFTIRQ && i != KB_CPU_IRQ &&
		    i != KB_CPU_STEAL)
			cv->frac[i] = (double)(orig[i] - l[i]) / (double)orig[i];
	rest = (int64_t)wall;
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		rest -= l[i];
	/* An offline CPU counts nothing: its missing time is supply lost. */
	if (!pa->online || !pb->online)
		l[KB_CPU_OFFLINE] = rest > 0 ? rest : 0;
	else
		l[KB_CPU_UNACCOUNTED] = rest;
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		line[i] += l[i];
}

void kb_from_snaps(struct ks_budget *kb, const struct ks_snap *a,
		   const struct ks_snap *b)
{
	uint64_t wall = b->t_ns > a->t_ns ? b->t_ns - a->t_ns : 0;
	struct kb_carve *cv;
	int r, c;

	memset(kb, 0, sizeof(*kb));
	if (!a->open_valid || !b->open_valid || !wall)
		return;
	kb->valid = true;
	kb->wall_ns = wall;
	/* Without memory the waits keep their holders, kernel included. */
	cv = calloc((size_t)b->ncpus, sizeof(*cv));
	kb->cpus.ncpus = (uint64_t)b->ncpus;
	kb->cpus.supply_ns = kb->cpus.ncpus * wall;
	for (c = 0; c < b->ncpus; c++) {
		struct kb_carve scratch;

		cpu_of(kb->cpus.line, c, a, b, wall, cv ? &cv[c] : &scratch);
		if ((!a->cpustat[c].online || !b->cpustat[c].online) && c < 64)
			kb->cpus.offline_cpus |= 1ULL << c;
	}
	for (r = 0; r < CB_NR_ROLES; r++)
		threads_of(&kb->role[r], r, a, b, wall, cv);
	kb_sum_subjects(kb);
	free(cv);
}
