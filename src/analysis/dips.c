// SPDX-License-Identifier: GPL-2.0
/*
 * Phases and dips of one run.  A run does not start at its steady rate:
 * in the first 100 ms the clients' 200 senders fill their socket buffers
 * (sends count, so the rate is high), then for up to half a second it is
 * low while the server's threads catch up; nor does it end at it: the
 * server's senders run out of backlog one after another.  Both stretches
 * were once reported as dips.  The ramp lasts until two intervals in a
 * row come within 10 % of the run's median, the drain is the stretch
 * after the rate last does, each at most a quarter of the run; what lies
 * between is steady, and a dip is a fall there from which the run
 * recovered.  Hundreds of threads deliver in lumps: 100 ms intervals of
 * clean runs spread by 5-25 % here, and in 25 clean runs of 10 x 300 two
 * or three of them in a row fell as deep as 60 % below the median, at a
 * cost of up to 0.15 s of the steady rate.  So a dip is at least two
 * intervals below the median by more than 4 robust SDs of the run's own
 * intervals (or under a quarter of it, whatever the noise: a stopped
 * server delivers nothing), which together cost at least 0.25 s of the
 * steady rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dips.h"
#include "analysis/kfigures.h"
#include "analysis/loss.h"
#include "tracer/kbudget.h"
#include "util/stats.h"
#include "tracer/kstats_record.h"
#include "util/fmt.h"

/* Within this share of the median, the rate has reached its steady level. */
#define STEADY_FRAC	0.9
/* Below median - DIP_SDS robust SDs, an interval dips... */
#define DIP_SDS		4.0
/* ... and below this share of the median, always. */
#define NEAR_STOP	0.25
/* A dip costs at least this many seconds of the steady rate. */
#define DIP_MIN_LOST_S	0.25
/* Fewer intervals than this tell no phases apart. */
#define MIN_INTERVALS	6

struct steady {
	double tp, idle, sirq, rq;	/* medians over the steady part */
	struct loss_pm pm;	/* per-line medians of the budget's rates */
};

static double iv_pct(const struct kstats *k, uint64_t ns,
		     const struct ks_interval *iv)
{
	return 100.0 * (double)ns / ((double)iv->duration_ns * k->ncpus);
}

static void steady_pm(const struct kstats *k, size_t from, size_t to,
		      struct steady *s)
{
	struct loss_pm *pm = calloc(to - from + 1, sizeof(*pm));
	size_t i;

	memset(&s->pm, 0, sizeof(s->pm));
	if (!pm)
		return;
	for (i = from; i < to; i++)
		loss_pm_rate(&k->interval[i].budget, &pm[i - from]);
	loss_pm_median(pm, to - from, &s->pm);
	free(pm);
}

static void steady_medians(const struct kstats *k, size_t from, size_t to,
			   double *v, struct steady *s)
{
	size_t i, m;

#define MEDIAN_OF(field, expr)						\
	for (i = from, m = 0; i < to; i++)				\
		v[m++] = (expr);					\
	s->field = stats_median(v, m);
	MEDIAN_OF(tp, k->interval[i].throughput)
	MEDIAN_OF(idle, iv_pct(k, k->interval[i].idle_ns, &k->interval[i]))
	MEDIAN_OF(sirq, iv_pct(k, k->interval[i].softirq_ns,
			       &k->interval[i]))
	MEDIAN_OF(rq, (double)k->interval[i].rq_p99_ns)
#undef MEDIAN_OF
	steady_pm(k, from, to, s);
}

/* A line's level in a budget per ns of wall, as a percentage. */
static double level_pct(const struct loss_pm *pm, int line)
{
	double whole = line < KB_NR_CPU_LINES ? pm->supply : pm->threads;

	return whole > 0 ? 100.0 * pm->v[line] / whole : 0;
}

/*
 * The dip's cause from the budget of its intervals against the steady
 * part's, with the account that judges slow runs: the CPU lines' shares
 * of the CPUs, and the threads' lines saying why the CPUs idled.  The
 * dip is named after the largest part if it explains a quarter of the
 * lost time (and a cause that a normal interval may show a little of,
 * an outsider or softirq, only with the dip's figures behind it).
 */
static bool dip_by_budget(const struct kstats *k, size_t from, size_t to,
			  const struct steady *st, unsigned int ev,
			  const struct ks_stealer *top, struct diag_dip *d)
{
	struct ks_budget sum;
	struct loss_account a;
	const struct loss_part *p;
	enum cause_kind kind;
	struct loss_pm pm;
	char name[48], who[64] = "";
	size_t i;

	memset(&sum, 0, sizeof(sum));
	for (i = from; i < to; i++)
		kb_add(&sum, &k->interval[i].budget);
	loss_pm_rate(&sum, &pm);
	if (!pm.valid)
		return false;
	loss_explain(&pm, &st->pm, ev, &a);
	if (!a.nparts)
		return false;
	p = &a.part[0];
	if (p->share < 0.25)
		return false;
	kind = p->kind;
	/* The tracer's CPU time is the cost of its stops, as for a run. */
	if (kind == CAUSE_OUTSIDER_CPU &&
	    (top ? kfigures_is_tracer(k, top->pid) : kfigures_tracer_is_top(k)))
		kind = CAUSE_PTRACE;
	switch (kind) {
	case CAUSE_OUTSIDER_CPU:
		if (!(ev & (1U << CAUSE_OUTSIDER_CPU)) && p->share < 0.5)
			return false;
		if (top)
			snprintf(who, sizeof(who), " (top: %s, pid %d)",
				 top->comm, (int)top->pid);
		break;
	case CAUSE_PTRACE:
		for (i = 0; i < CB_NR_SIDES; i++)
			if (k->tracer[i].stops)
				snprintf(who, sizeof(who),
					 " (tracer %.16s, pid %u)",
					 k->tracer[i].comm, k->tracer[i].pid);
		break;
	case CAUSE_SOFTIRQ:
	case CAUSE_STEAL:
		if (!(ev & (1U << kind)) && p->share < 0.5)
			return false;
		break;
	default:
		break;
	}
	d->kind = (int)kind;
	snprintf(d->why, sizeof(d->why),
		 "%s%s: %s at %.0f %% vs %.0f %% in the steady part (%.0f %% of the lost time)",
		 cause_table[kind].words, who,
		 loss_line_name(p->line, name, sizeof(name)),
		 level_pct(&pm, p->line), level_pct(&st->pm, p->line),
		 100.0 * p->share);
	return true;
}

/*
 * The dip's cause from its intervals against the steady medians: an
 * outsider that held a quarter of the CPUs, CPUs idle (the benchmark had
 * nothing runnable: stopped, or waiting on something off the CPU),
 * softirq work, or run-queue waits three times the usual; else none.
 */
static void dip_cause(const struct kstats *k, size_t from, size_t to,
		      const struct steady *st, struct diag_dip *d)
{
	const struct ks_stealer *top = NULL;
	const struct ks_proc *p;
	int side;
	uint64_t dur = 0, idle = 0, sirq = 0, rq = 0, stopped = 0, thr = 0;
	uint64_t retrans = 0, psi_mem = 0;
	double idle_pct, sirq_pct, top_pct = 0;
	char a[24], b[24];
	size_t i;

	for (i = from; i < to; i++) {
		const struct ks_interval *iv = &k->interval[i];

		dur += iv->duration_ns;
		stopped += iv->stopped_ns;
		thr += iv->throttled_ns;
		retrans += iv->retrans_segs;
		psi_mem += iv->psi_mem_some_us;
		idle += iv->idle_ns;
		sirq += iv->softirq_ns;
		if (iv->rq_p99_ns > rq)
			rq = iv->rq_p99_ns;
		if (iv->top.ns && !iv->top.is_benchmark && iv->top.pid &&
		    (!top || iv->top.ns > top->ns))
			top = &iv->top;
	}
	idle_pct = 100.0 * (double)idle / ((double)dur * k->ncpus);
	sirq_pct = 100.0 * (double)sirq / ((double)dur * k->ncpus);
	if (top)
		top_pct = 100.0 * (double)top->ns * (double)(to - from) /
			  ((double)dur * k->ncpus);
	d->kind = -1;
	if (st->pm.valid) {
		unsigned int ev = 0;

		if (stopped * 4 >= dur)
			ev |= 1U << CAUSE_STOPPED;
		if (thr * 4 >= dur * k->ncpus)
			ev |= 1U << CAUSE_CPU_QUOTA;
		if (retrans >= 10)
			ev |= 1U << CAUSE_TCP_RETRANS;
		if (psi_mem * 1000 * 4 >= dur)
			ev |= 1U << CAUSE_MEMORY_PRESSURE;
		if (top_pct >= 25)
			ev |= 1U << CAUSE_OUTSIDER_CPU;
		if (idle_pct >= st->idle + 30)
			ev |= 1U << CAUSE_CPU_IDLE;
		if (sirq_pct >= st->sirq + 10)
			ev |= 1U << CAUSE_SOFTIRQ;
		if ((double)rq >= 3 * st->rq && st->rq > 0)
			ev |= 1U << CAUSE_SCHED_CONTENTION;
		if (dip_by_budget(k, from, to, st, ev, top, d))
			return;
	}
	if (stopped * 4 >= dur) {
		d->kind = CAUSE_STOPPED;
		side = k->proc[1].stopped_ns > k->proc[0].stopped_ns;
		p = &k->proc[side];
		snprintf(d->why, sizeof(d->why),
			 "%s (pid %d) was stopped for %.2f s of it%s%s%s",
			 side ? "chat_s" : "chat_c", (int)p->pid,
			 (double)stopped / 1e9,
			 p->stop_signals ? " (stopping signal from " : "",
			 p->stop_signals ? p->stop_sender_comm : "",
			 p->stop_signals ? ")" : "");
	} else if (thr * 4 >= dur * k->ncpus) {
		d->kind = CAUSE_CPU_QUOTA;
		side = k->proc[1].throttled_ns > k->proc[0].throttled_ns;
		p = &k->proc[side];
		snprintf(d->why, sizeof(d->why),
			 "the CPU quota of %s (pid %d, cgroup %s) throttled it for %.0f %% of the CPUs' time",
			 side ? "chat_s" : "chat_c", (int)p->pid, p->cgroup,
			 100.0 * (double)thr / ((double)dur * k->ncpus));
	} else if (retrans >= 10) {
		d->kind = CAUSE_TCP_RETRANS;
		snprintf(d->why, sizeof(d->why),
			 "TCP retransmitted %llu segments during it",
			 (unsigned long long)retrans);
	} else if (psi_mem * 1000 * 4 >= dur) {
		d->kind = CAUSE_MEMORY_PRESSURE;
		snprintf(d->why, sizeof(d->why),
			 "tasks stalled on memory for %.0f %% of it",
			 100.0 * (double)psi_mem * 1000 / (double)dur);
	} else if (top_pct >= 25) {
		d->kind = CAUSE_OUTSIDER_CPU;
		snprintf(d->why, sizeof(d->why),
			 "outsider %s (pid %d) took %.0f %% of the CPUs",
			 top->comm, (int)top->pid, top_pct);
	} else if (idle_pct >= st->idle + 30) {
		d->kind = CAUSE_CPU_IDLE;
		snprintf(d->why, sizeof(d->why),
			 "CPUs idle %.0f %% vs %.0f %%: the benchmark's threads were not runnable",
			 idle_pct, st->idle);
	} else if (sirq_pct >= st->sirq + 10) {
		d->kind = CAUSE_SOFTIRQ;
		snprintf(d->why, sizeof(d->why),
			 "softirq %.0f %% of the CPUs vs %.0f %%", sirq_pct,
			 st->sirq);
	} else if ((double)rq >= 3 * st->rq && st->rq > 0) {
		d->kind = CAUSE_SCHED_CONTENTION;
		snprintf(d->why, sizeof(d->why),
			 "run-queue latency p99 %s vs %s",
			 fmt_ns(a, sizeof(a), (double)rq),
			 fmt_ns(b, sizeof(b), st->rq));
	} else {
		snprintf(d->why, sizeof(d->why),
			 "unexplained: idle %.0f %% vs %.0f %%, softirq %.0f %% vs %.0f %%, rq p99 %s vs %s",
			 idle_pct, st->idle, sirq_pct, st->sirq,
			 fmt_ns(a, sizeof(a), (double)rq),
			 fmt_ns(b, sizeof(b), st->rq));
	}
}

/* Two intervals in a row at the steady level: the start-up is over. */
static bool settled(const struct kstats *k, size_t i, double level)
{
	return k->interval[i].throughput >= level &&
	       k->interval[i + 1].throughput >= level;
}

static double end_of(const struct ks_interval *iv)
{
	return (double)(iv->start_ns + iv->duration_ns) / 1e9;
}

/*
 * A dip lasts at least DIAG_DIP_MIN_INTERVALS intervals of the clock: a
 * sampler that could not wake (chat_c itself stopped, or throttled)
 * leaves one long interval where the clock went on, and that interval
 * counts for as many as it spans.
 */
static bool long_enough(const struct kstats *k, size_t from, size_t to)
{
	uint64_t dur = 0, period = UINT64_MAX;
	size_t i;

	for (i = from; i < to; i++)
		dur += k->interval[i].duration_ns;
	/* The clock's period: the shortest interval but the last, partial. */
	for (i = 0; i + 1 < k->nr_intervals; i++)
		if (k->interval[i].duration_ns < period)
			period = k->interval[i].duration_ns;
	return to - from >= DIAG_DIP_MIN_INTERVALS ||
	       dur >= DIAG_DIP_MIN_INTERVALS * period;
}

static void find_dips(const struct kstats *k, size_t ramp, size_t drain,
		      const struct steady *st, struct run_phases *p)
{
	size_t i = ramp, j, q;
	double sum, lost;

	while (i < drain && p->ndips < DIAG_MAX_DIPS) {
		struct diag_dip *d = &p->dip[p->ndips];

		if (k->interval[i].throughput >= p->threshold) {
			i++;
			continue;
		}
		for (j = i, sum = 0, lost = 0; j < drain &&
		     k->interval[j].throughput < p->threshold; j++) {
			sum += k->interval[j].throughput;
			lost += (p->median - k->interval[j].throughput) *
				(double)k->interval[j].duration_ns / 1e9;
		}
		if (long_enough(k, i, j) &&
		    lost >= DIP_MIN_LOST_S * p->median) {
			memset(d, 0, sizeof(*d));
			d->from_s = (double)k->interval[i].start_ns / 1e9;
			d->to_s = end_of(&k->interval[j - 1]);
			d->throughput = sum / (double)(j - i);
			d->low = k->interval[i].throughput;
			for (q = i; q < j; q++)
				d->low = fmin(d->low, k->interval[q].throughput);
			d->depth_pct = 100.0 * (1 - d->throughput / p->median);
			dip_cause(k, i, j, st, d);
			p->ndips++;
		}
		i = j;
	}
}

void diag_run_phases(const struct kstats *k, double pct,
		     struct run_phases *p)
{
	size_t n = k ? k->nr_intervals : 0, ramp, drain, i, m;
	double *v = NULL, med, sd;
	struct steady st;

	memset(p, 0, sizeof(*p));
	if (n < MIN_INTERVALS)
		return;
	for (i = 0; i < n; i++)
		if (!k->interval[i].duration_ns)
			return;
	v = calloc(n, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < n; i++)
		v[i] = k->interval[i].throughput;
	med = stats_median(v, n);
	for (ramp = 0; ramp < n / 4 && !settled(k, ramp, STEADY_FRAC * med);
	     ramp++)
		;
	for (drain = n; n - drain < n / 4 &&
	     k->interval[drain - 1].throughput < STEADY_FRAC * med; drain--)
		;
	steady_medians(k, ramp, drain, v, &st);
	for (i = ramp, m = 0; i < drain; i++)
		v[m++] = k->interval[i].throughput;
	sd = stats_robust_sd(v, m);
	p->valid = true;
	p->ramp_to_s = (double)k->interval[ramp].start_ns / 1e9;
	p->drain_from_s = drain < n ? (double)k->interval[drain].start_ns / 1e9 :
				      end_of(&k->interval[n - 1]);
	p->end_s = end_of(&k->interval[n - 1]);
	p->median = st.tp;
	p->noise_pct = st.tp > 0 ? 100.0 * sd / st.tp : 0;
	p->threshold = fmax(st.tp - fmax(DIP_SDS * sd, pct / 100.0 * st.tp),
			    NEAR_STOP * st.tp);
	find_dips(k, ramp, drain, &st, p);
	free(v);
}

#define WINDOW_NS	1000000000ULL
/* Whole intervals make the window: it may fall short by this much. */
#define WINDOW_SLACK_NS	50000000ULL

/*
 * The slowest run of whole intervals that lasts a second, inside
 * [lo, hi) (offsets in ns); its rate into *rate.  0 when none fits.
 */
static int slowest(const struct kstats *k, uint64_t lo, uint64_t hi,
		   uint64_t *from, uint64_t *to, double *rate)
{
	size_t a, b;
	int found = 0;

	for (a = 0; a < k->nr_intervals; a++) {
		uint64_t msgs = 0, dur = 0;

		if (k->interval[a].start_ns < lo)
			continue;
		for (b = a; b < k->nr_intervals &&
			    dur + WINDOW_SLACK_NS < WINDOW_NS; b++) {
			const struct ks_interval *iv = &k->interval[b];

			if (iv->start_ns + iv->duration_ns > hi)
				break;
			msgs += iv->messages;
			dur += iv->duration_ns;
		}
		if (dur + WINDOW_SLACK_NS < WINDOW_NS)
			continue;
		if (!found || (double)msgs * 1e9 / (double)dur < *rate) {
			*rate = (double)msgs * 1e9 / (double)dur;
			*from = k->interval[a].start_ns;
			*to = *from + dur;
			found = 1;
		}
	}
	return found;
}

void diag_slowest_second(const struct kstats *k, double throughput,
			 double pct, struct slow_window *w)
{
	struct run_phases ph;

	w->kind = SLOW_WINDOW_RUN;
	w->from_ns = 0;
	w->to_ns = k->wall_ns;
	w->rate = throughput;
	diag_run_phases(k, pct, &ph);
	/* The ramp and the drain are slow by nature, not by cause. */
	if (ph.valid && slowest(k, (uint64_t)(ph.ramp_to_s * 1e9),
				(uint64_t)(ph.drain_from_s * 1e9), &w->from_ns,
				&w->to_ns, &w->rate))
		w->kind = SLOW_WINDOW_STEADY;
	else if (slowest(k, 0, k->wall_ns, &w->from_ns, &w->to_ns, &w->rate))
		w->kind = SLOW_WINDOW_ANY;
}
