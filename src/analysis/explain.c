// SPDX-License-Identifier: GPL-2.0
/*
 * A difference between two series explained.  Per message, every
 * benchmark thread's time is on a CPU, waiting to run (behind whom) or
 * blocked (why), and every CPU's time is spent on the benchmark, on
 * outsiders, on softirq, or idle: the two budgets of each run.  The
 * threads' time per message is threads x wall / messages, so the
 * differences of its lines add up to the threads times the difference of
 * the time per message, the throughput's difference itself; likewise the
 * CPUs'.  So each line's difference, as a share of the whole's, is how
 * much of the throughput difference it accounts for, and the shares add
 * up.  Differences are of the means over the runs, with a bootstrap
 * interval (analysis/infer.c, fixed seed: the same files always give the
 * same intervals); runs spread by up to 30 % here, so a line is ranked
 * only when its interval excludes zero, and nothing is ranked when the
 * throughput's interval does not.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "analysis/infer.h"
#include "results/results.h"
#include "results/series_load.h"
#include "tracer/budget.h"
#include "util/fmt.h"
#include "util/roles.h"

/* What a line reads from a run. */
enum ex_kind {
	K_ONCPU, K_WAIT_OWN, K_WAIT_HOLDER, K_WAIT_UNKNOWN, K_BLOCK, K_GONE,
	K_CPU,
	K_SWITCHES, K_INVOL, K_WAKEUPS, K_XCPU, K_MIGR, K_RQ_P50, K_RQ_P99,
	K_SOFTIRQ_PCT, K_SOFTIRQ_PM, K_SOCK_RQ, K_USER, K_SYS,
};

struct ex_def {
	enum ex_kind kind;
	int arg;
};

/*
 * "gone" is the time of threads that had ended (a sender done with its
 * messages while the receivers go on) and the tracer's error: it grows
 * with any slowdown and says nothing of why, so it is shown but kept out
 * of the whole its part's shares are of, and never ranked.
 */
/* A line holding less of the difference is no cause, real or not. */
#define EX_MIN_SHARE	0.02

static bool rankable(enum ex_kind k)
{
	return k != K_GONE;
}

static void def_line(struct explain *e, struct ex_def *defs,
		     enum ex_kind kind, int arg, enum ex_part part,
		     const char *unit, const char *name, const char *words)
{
	struct ex_line *l;

	if (e->nlines == EX_MAX_LINES)
		return;
	defs[e->nlines] = (struct ex_def){ kind, arg };
	l = &e->line[e->nlines++];
	l->part = part;
	l->unit = unit;
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->words, sizeof(l->words), "%s", words);
}

static void define_lines(struct explain *e, struct ex_def *defs)
{
	static const char *const side_words[CB_NR_SIDES] = {
		"the client's sockets", "the server's sockets",
	};
	static const char *const side_names[CB_NR_SIDES] = {
		"client", "server",
	};
	char name[40], words[80];
	int i;

	def_line(e, defs, K_ONCPU, 0, EX_THREADS, "ns/msg", "threads:oncpu",
		 "on a CPU");
	def_line(e, defs, K_WAIT_OWN, 0, EX_THREADS, "ns/msg", "wait:own",
		 "waiting to run behind its own threads");
	def_line(e, defs, K_WAIT_HOLDER, CB_ROLE_KSOFTIRQD, EX_THREADS,
		 "ns/msg", "wait:ksoftirqd", "waiting to run behind ksoftirqd");
	def_line(e, defs, K_WAIT_HOLDER, CB_HOLD_IDLE, EX_THREADS, "ns/msg",
		 "wait:idle_cpu",
		 "waiting to run with the CPU idle (wakeup latency)");
	for (i = 0; i < CB_NR_CLASSES; i++) {
		snprintf(name, sizeof(name), "wait:%s",
			 kb_holder_name(CB_HOLD_CLASS(i)));
		snprintf(words, sizeof(words),
			 "waiting to run behind outsiders (%s)",
			 kb_class_names[i]);
		def_line(e, defs, K_WAIT_HOLDER, CB_HOLD_CLASS(i), EX_THREADS,
			 "ns/msg", name, words);
	}
	def_line(e, defs, K_WAIT_HOLDER, CB_HOLD_THROTTLED, EX_THREADS,
		 "ns/msg", "wait:throttled",
		 "waiting to run while their cgroup was throttled (CPU quota)");
	def_line(e, defs, K_WAIT_HOLDER, KB_HOLD_SOFTIRQ, EX_THREADS,
		 "ns/msg", "wait:softirq",
		 "waiting to run while the CPU was in softirq");
	def_line(e, defs, K_WAIT_HOLDER, KB_HOLD_IRQ, EX_THREADS, "ns/msg",
		 "wait:irq", "waiting to run while the CPU was in interrupts");
	def_line(e, defs, K_WAIT_HOLDER, KB_HOLD_STEAL, EX_THREADS,
		 "ns/msg", "wait:steal",
		 "waiting to run while the hypervisor took the CPU");
	def_line(e, defs, K_WAIT_UNKNOWN, 0, EX_THREADS, "ns/msg",
		 "wait:unknown", "waiting to run, holder unknown");
	for (i = 0; i < CB_NR_BLOCKS; i++) {
		snprintf(name, sizeof(name), "blocked:%s", kb_block_names[i]);
		snprintf(words, sizeof(words), "blocked in %s",
			 kb_block_words[i]);
		def_line(e, defs, K_BLOCK, i, EX_THREADS, "ns/msg", name,
			 words);
	}
	def_line(e, defs, K_GONE, 0, EX_THREADS, "ns/msg", "threads:gone",
		 "ended before the run did");
	for (i = 0; i < KB_NR_CPU_LINES; i++) {
		snprintf(name, sizeof(name), "cpu:%s", kb_cpu_names[i]);
		snprintf(words, sizeof(words), "CPU time on %s",
			 kb_cpu_words[i]);
		def_line(e, defs, K_CPU, i, EX_CPUS, "ns/msg", name, words);
	}
	def_line(e, defs, K_SWITCHES, 0, EX_FIGURES, "per_msg",
		 "switches_per_msg", "context switches per message");
	def_line(e, defs, K_INVOL, 0, EX_FIGURES, "per_msg", "invol_per_msg",
		 "involuntary switches per message");
	def_line(e, defs, K_WAKEUPS, 0, EX_FIGURES, "per_msg",
		 "wakeups_per_msg", "wakeups per message");
	def_line(e, defs, K_XCPU, 0, EX_FIGURES, "pct", "xcpu_wakeups_pct",
		 "cross-CPU wakeups");
	def_line(e, defs, K_MIGR, 0, EX_FIGURES, "per_msg",
		 "migrations_per_msg", "migrations per message");
	for (i = 0; i < CB_ROLE_OTHER; i++) {
		snprintf(name, sizeof(name), "rq_p50:%s", role_name(i));
		snprintf(words, sizeof(words), "run-queue latency p50 of %s",
			 role_table[i].words);
		def_line(e, defs, K_RQ_P50, i, EX_FIGURES, "ns", name, words);
		snprintf(name, sizeof(name), "rq_p99:%s", role_name(i));
		snprintf(words, sizeof(words), "run-queue latency p99 of %s",
			 role_table[i].words);
		def_line(e, defs, K_RQ_P99, i, EX_FIGURES, "ns", name, words);
	}
	def_line(e, defs, K_SOFTIRQ_PCT, 0, EX_FIGURES, "pct", "softirq_pct",
		 "of the CPUs' time in softirq");
	def_line(e, defs, K_SOFTIRQ_PM, 0, EX_FIGURES, "ns/msg",
		 "softirq_per_msg", "softirq time per message");
	for (i = 0; i < CB_NR_SIDES; i++) {
		snprintf(name, sizeof(name), "sock_rq_p99:%s", side_names[i]);
		snprintf(words, sizeof(words), "receive queue p99 of %s",
			 side_words[i]);
		def_line(e, defs, K_SOCK_RQ, i, EX_FIGURES, "bytes", name,
			 words);
	}
	def_line(e, defs, K_USER, 0, EX_FIGURES, "ns/msg", "user_per_msg",
		 "user CPU time per message");
	def_line(e, defs, K_SYS, 0, EX_FIGURES, "ns/msg", "sys_per_msg",
		 "system CPU time per message");
}

/* Sums over the worker roles, the threads that carry the messages. */
struct role_sums {
	double wakeups, xcpu, vol, invol, migr;
};

static void sum_roles(const struct kstats *k, struct role_sums *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < CB_ROLE_OTHER; i++) {
		s->wakeups += (double)k->role[i].wakeups;
		s->xcpu += (double)k->role[i].cross_cpu_wakeups;
		s->vol += (double)k->role[i].vol_switches;
		s->invol += (double)k->role[i].invol_switches;
		s->migr += (double)k->role[i].migrations;
	}
}

/* A run's value of a line; false when the run has none. */
static bool run_value(const struct run_result *r, const struct ex_def *d,
		      double *v)
{
	const struct kstats *k = r->kernel;
	const struct kb_threads *t = &k->budget.subjects;
	double m = (double)(k->messages ? k->messages :
					  r->sent + r->received);
	double softirq = 0;
	struct role_sums s;
	int i;

	sum_roles(k, &s);
	switch (d->kind) {
	case K_ONCPU:
		*v = (double)t->oncpu_ns / m;
		return true;
	case K_WAIT_OWN:
		*v = 0;
		for (i = 0; i < CB_NR_ROLES; i++)
			if (i != CB_ROLE_KSOFTIRQD)
				*v += (double)t->wait_by[i];
		*v /= m;
		return true;
	case K_WAIT_HOLDER:
		*v = (double)t->wait_by[d->arg] / m;
		return true;
	case K_WAIT_UNKNOWN:
		*v = (double)t->wait_unknown_ns / m;
		return true;
	case K_BLOCK:
		*v = (double)t->blocked_by[d->arg] / m;
		return true;
	case K_GONE:
		*v = (double)t->gone_ns / m;
		return true;
	case K_CPU:
		*v = (double)k->budget.cpus.line[d->arg] / m;
		return true;
	case K_SWITCHES:
		*v = (s.vol + s.invol) / m;
		return true;
	case K_INVOL:
		*v = s.invol / m;
		return true;
	case K_WAKEUPS:
		*v = s.wakeups / m;
		return true;
	case K_XCPU:
		*v = s.wakeups > 0 ? 100 * s.xcpu / s.wakeups : 0;
		return s.wakeups > 0;
	case K_MIGR:
		*v = s.migr / m;
		return true;
	case K_RQ_P50:
	case K_RQ_P99:
		if (!k->role[d->arg].rq_lat.count)
			return false;
		*v = (double)(d->kind == K_RQ_P50 ? k->role[d->arg].rq_lat.p50 :
						     k->role[d->arg].rq_lat.p99);
		return true;
	case K_SOFTIRQ_PCT:
	case K_SOFTIRQ_PM:
		if (!k->cpu || k->ncpus <= 0 || !k->wall_ns)
			return false;
		for (i = 0; i < k->ncpus; i++)
			softirq += (double)k->cpu[i].softirq_all_ns;
		*v = d->kind == K_SOFTIRQ_PM ? softirq / m :
		     100 * softirq / ((double)k->ncpus * (double)k->wall_ns);
		return true;
	case K_SOCK_RQ:
		if (!k->sock[d->arg].rq_bytes.count)
			return false;
		*v = (double)k->sock[d->arg].rq_bytes.p99;
		return true;
	case K_USER:
	case K_SYS:
		/* Both processes, or the figure would change with placement. */
		if (!r->cpu_client.valid || !r->cpu_server.valid)
			return false;
		*v = d->kind == K_USER ?
		     r->cpu_client.user_s + r->cpu_server.user_s :
		     r->cpu_client.sys_s + r->cpu_server.sys_s;
		*v *= 1e9 / m;
		return true;
	}
	return false;
}

/* Ok runs with a kernel record that carries a time budget. */
static bool usable(const struct run_result *r)
{
	return r->ok && r->kernel && r->kernel->budget.valid &&
	       (r->kernel->messages || r->sent + r->received);
}

static size_t count_usable(const struct saved_runs *sr)
{
	size_t i, n = 0;

	for (i = 0; i < sr->n; i++)
		n += usable(&sr->runs[i]);
	return n;
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

static size_t values(const struct saved_runs *sr, const struct ex_def *d,
		     double *v)
{
	size_t i, n = 0;

	for (i = 0; i < sr->n; i++)
		if (usable(&sr->runs[i]) && run_value(&sr->runs[i], d, &v[n]))
			n++;
	return n;
}

static void fill_line(struct ex_line *l, const struct ex_def *d,
		      const struct saved_runs *o, const struct saved_runs *b,
		      double *xo, double *xb)
{
	l->no = values(o, d, xo);
	l->nb = values(b, d, xb);
	l->value = mean(xo, l->no);
	l->base = mean(xb, l->nb);
	l->diff = l->value - l->base;
	if (!infer_diff_ci(xo, l->no, xb, l->nb, NULL, l->ci)) {
		l->has_ci = true;
		l->real = l->ci[0] > 0 || l->ci[1] < 0;
	}
}

/* The span of time of a group's runs by their start (CLOCK_MONOTONIC). */
static bool run_span(const struct result_group *g, double span[2])
{
	bool any = false;
	double t;
	size_t i;

	for (i = 0; i < g->nr_runs; i++) {
		t = json_number_value(json_object_get(g->runs[i].json,
						      "start_ns"));
		if (t <= 0)
			continue;
		if (!any || t < span[0])
			span[0] = t;
		if (!any || t > span[1])
			span[1] = t;
		any = true;
	}
	return any;
}

/*
 * Interleaved: recorded on one host (and so on one monotonic clock, if
 * in one boot: spans of two boots overlapping by chance are unlikely and
 * would only spare a caveat) with spans of time that overlap.
 */
static bool interleaved(const struct result_group *g,
			const struct result_group *bg)
{
	const char *h = g->summary.present ? g->summary.host : NULL;
	const char *bh = bg->summary.present ? bg->summary.host : NULL;
	double a[2], b[2];

	if (!h || !bh || strcmp(h, bh) || !run_span(g, a) || !run_span(bg, b))
		return false;
	return a[0] < b[1] && b[0] < a[1];
}

bool explain_worse(const struct explain *e)
{
	return e->metric == EX_LATENCY ? e->pct > 0 : e->pct < 0;
}

/* The metric's relative difference and its interval, from the values. */
static void set_pct(struct explain *e, const double *x, size_t nx,
		    const double *y, size_t ny)
{
	double ci[2];

	if (!nx || !ny || mean(y, ny) <= 0)
		return;
	e->has_pct = true;
	e->pct = (mean(x, nx) / mean(y, ny) - 1) * 100;
	if (!infer_ratio_ci(x, nx, y, ny, NULL, ci)) {
		e->has_ci = true;
		e->pct_ci[0] = (ci[0] - 1) * 100;
		e->pct_ci[1] = (ci[1] - 1) * 100;
		e->real = e->pct_ci[0] > 0 || e->pct_ci[1] < 0;
	}
}

/* The throughput of the ok runs, as chatbench-compare's ratio has it. */
static int set_throughput(const struct result_group *g,
			  const struct result_group *bg, struct explain *e)
{
	double *x, *y;
	size_t nx, ny;
	int ret = -1;

	x = results_values(g, results_run_throughput, &nx);
	y = results_values(bg, results_run_throughput, &ny);
	if (x && y) {
		set_pct(e, x, nx, y, ny);
		ret = 0;
	}
	free(x);
	free(y);
	return ret;
}

/* Whether every ok run of a series ran open-loop (and it has one). */
static bool open_loop(const struct saved_runs *sr)
{
	size_t i, n = 0;

	for (i = 0; i < sr->n; i++) {
		if (!sr->runs[i].ok)
			continue;
		if (!sr->runs[i].open || !sr->runs[i].open->lat.count)
			return false;
		n++;
	}
	return n > 0;
}

static size_t open_p99s(const struct saved_runs *sr, double *v)
{
	size_t i, n = 0;

	for (i = 0; i < sr->n; i++)
		if (sr->runs[i].ok)
			v[n++] = (double)sr->runs[i].open->lat.p99;
	return n;
}

/*
 * Open-loop runs deliver what they are offered until the machine
 * saturates, so what moves between two settings is the latency: its p99
 * from the scheduled send times is the metric then.
 */
static int set_latency(const struct saved_runs *so,
		       const struct saved_runs *sb, struct explain *e)
{
	double *x = calloc(so->n + 1, sizeof(*x));
	double *y = calloc(sb->n + 1, sizeof(*y));
	int ret = -1;

	if (x && y) {
		e->metric = EX_LATENCY;
		set_pct(e, x, open_p99s(so, x), y, open_p99s(sb, y));
		ret = 0;
	}
	free(x);
	free(y);
	return ret;
}

static int by_share_desc(const void *pa, const void *pb)
{
	const struct ex_line *a = *(const struct ex_line *const *)pa;
	const struct ex_line *b = *(const struct ex_line *const *)pb;

	if (a->share != b->share)
		return a->share < b->share ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * Shares of one budget part's difference.  A slower series spends more
 * per message, so its lines that grew account for the loss (a faster
 * one's that shrank, for the gain); lines that moved the other way freed
 * time for the rest, so the growths can exceed the net difference: then
 * the shares are of the growths and still add up to at most one.
 */
static void set_shares(struct explain *e, const struct ex_def *defs,
		       enum ex_part part)
{
	struct ex_line *rank[EX_MAX_LINES];
	double dir = e->has_pct && !explain_worse(e) ? -1 : 1;
	double net = 0, grown = 0, whole, ranked = 0;
	int i, n = 0;

	for (i = 0; i < e->nlines; i++) {
		if (e->line[i].part != part || !rankable(defs[i].kind))
			continue;
		net += dir * e->line[i].diff;
		grown += fmax(dir * e->line[i].diff, 0);
	}
	whole = fmax(net, grown);
	e->unexplained[part] = 1;
	if (whole <= 0)
		return;
	for (i = 0; i < e->nlines; i++) {
		struct ex_line *l = &e->line[i];

		if (l->part != part || !rankable(defs[i].kind))
			continue;
		l->share = dir * l->diff / whole;
		if (e->real && l->real && l->share >= EX_MIN_SHARE)
			rank[n++] = l;
	}
	qsort(rank, (size_t)n, sizeof(rank[0]), by_share_desc);
	for (i = 0; i < n; i++) {
		rank[i]->rank = i + 1;
		ranked += rank[i]->share;
	}
	e->nranked[part] = n;
	e->unexplained[part] = fmax(0, 1 - ranked);
}

int explain_groups(const struct result_group *g, const struct result_group *bg,
		   struct explain *e, char *err, size_t len)
{
	struct saved_runs so = { 0 }, sb = { 0 };
	struct ex_def defs[EX_MAX_LINES];
	double *xo = NULL, *xb = NULL;
	char missing[128];
	int i, ret = -1;

	memset(e, 0, sizeof(*e));
	e->interleaved = interleaved(g, bg);
	if (saved_runs_load(g, &so, missing, sizeof(missing), err, len) ||
	    saved_runs_load(bg, &sb, missing, sizeof(missing), err, len))
		goto cleanup;
	if (open_loop(&so) && open_loop(&sb) ? set_latency(&so, &sb, e) :
					       set_throughput(g, bg, e)) {
		fmt_err(err, len, "out of memory");
		goto cleanup;
	}
	ret = 0;
	e->runs = (int)count_usable(&so);
	e->runs_base = (int)count_usable(&sb);
	if (e->runs < 2 || e->runs_base < 2) {
		snprintf(e->missing, sizeof(e->missing),
			 "fewer than 2 traced runs with time budgets on a side (%d and %d)",
			 e->runs_base, e->runs);
		goto cleanup;
	}
	xo = calloc(so.n, sizeof(*xo));
	xb = calloc(sb.n, sizeof(*xb));
	if (!xo || !xb) {
		fmt_err(err, len, "out of memory");
		ret = -1;
		goto cleanup;
	}
	define_lines(e, defs);
	for (i = 0; i < e->nlines; i++)
		fill_line(&e->line[i], &defs[i], &so, &sb, xo, xb);
	e->valid = true;
	set_shares(e, defs, EX_THREADS);
	set_shares(e, defs, EX_CPUS);
cleanup:
	free(xo);
	free(xb);
	saved_runs_free(&so);
	saved_runs_free(&sb);
	return ret;
}

const struct ex_line *explain_ranked(const struct explain *e,
				     enum ex_part part, int r)
{
	int i;

	for (i = 0; i < e->nlines; i++)
		if (e->line[i].part == part && e->line[i].rank == r)
			return &e->line[i];
	return NULL;
}

static const struct ex_line *find_line(const struct explain *e,
				       const char *name)
{
	int i;

	for (i = 0; i < e->nlines; i++)
		if (!strcmp(e->line[i].name, name))
			return &e->line[i];
	return NULL;
}

/* "2.1x the involuntary switches per message", "43 % cross-CPU ...". */
static void figure_words(const struct ex_line *l, char *buf, size_t len)
{
	char a[32], b[32];
	double r;

	if (!strcmp(l->unit, "pct")) {
		snprintf(buf, len, "%.0f %% %s against %.0f %%", l->value,
			 l->words, l->base);
	} else if (!strcmp(l->unit, "ns")) {
		snprintf(buf, len, "%s %s against %s", l->words,
			 fmt_ns(a, sizeof(a), l->value),
			 fmt_ns(b, sizeof(b), l->base));
	} else if (!strcmp(l->unit, "bytes")) {
		snprintf(buf, len, "%s %.0f bytes against %.0f", l->words,
			 l->value, l->base);
	} else {
		r = l->base > 0 ? l->value / l->base : 0;
		if (r >= 1.5 || (r > 0 && r <= 1 / 1.5))
			snprintf(buf, len, "%.1fx the %s", r, l->words);
		else if (r > 0)
			snprintf(buf, len, "%+.0f %% %s", (r - 1) * 100,
				 l->words);
		else
			snprintf(buf, len, "%s %.3g against %.3g", l->words,
				 l->value, l->base);
	}
}

/* The figures that show a line's mechanism, most telling first. */
static const char *const *evidence_of(const char *line)
{
	static const char *const wait[] = {
		"invol_per_msg", "xcpu_wakeups_pct", "migrations_per_msg",
		"rq_p99:srv_snd", "rq_p99:srv_rcv", "rq_p99:cli_rcv",
		"rq_p99:cli_snd", "rq_p99:srv_loop", NULL,
	};
	static const char *const oncpu[] = {
		"sys_per_msg", "user_per_msg", "softirq_per_msg",
		"switches_per_msg", NULL,
	};
	static const char *const sock[] = {
		"wakeups_per_msg", "switches_per_msg", "sock_rq_p99:server",
		"sock_rq_p99:client", "xcpu_wakeups_pct", NULL,
	};
	static const char *const other[] = {
		"switches_per_msg", "wakeups_per_msg", "invol_per_msg", NULL,
	};

	if (!strncmp(line, "wait:", 5))
		return wait;
	if (!strcmp(line, "threads:oncpu") || !strcmp(line, "cpu:benchmark"))
		return oncpu;
	if (!strncmp(line, "blocked:sock", 12) ||
	    !strcmp(line, "blocked:poll"))
		return sock;
	return other;
}

/*
 * ", with A and B": up to two real figures behind line top, each moved
 * up in a series that did worse, down in one that did better.  A figure
 * that moved the other way is no evidence of the line's growth, whatever
 * else it says.
 */
static size_t evidence(const struct explain *e, const struct ex_line *top,
		       char *buf, size_t len)
{
	double dir = explain_worse(e) ? 1 : -1;
	const char *const *names = evidence_of(top->name);
	const struct ex_line *l;
	size_t used = 0;
	char w[160];
	int n = 0;

	buf[0] = '\0';
	for (; *names && n < 2; names++) {
		l = find_line(e, *names);
		if (!l || !l->real || dir * l->diff <= 0)
			continue;
		figure_words(l, w, sizeof(w));
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 n ? " and " : ", with ", w);
		if (used >= len)
			return len;
		n++;
	}
	return used;
}

/* "B is 11.8 % slower than A (95 % CI 8.9-14.6 %)": the metric's part. */
static size_t metric_words(const struct explain *e, const char *label,
			   const char *base, char *buf, size_t len)
{
	bool lat = e->metric == EX_LATENCY;
	const char *what = lat ? (e->pct > 0 ? "higher" : "lower") :
				 (e->pct < 0 ? "slower" : "faster");
	double mag = fabs(e->pct), lo, hi;

	lo = (e->pct < 0) ? -e->pct_ci[1] : e->pct_ci[0];
	hi = (e->pct < 0) ? -e->pct_ci[0] : e->pct_ci[1];
	if (!e->has_ci)
		return (size_t)snprintf(buf, len,
			"%s%s is %.1f %% %s than %s%s, but with fewer than 2 runs a side that says nothing",
			label, lat ? "'s message latency p99" : "", mag, what,
			base, lat ? "'s" : "");
	if (!e->real)
		return (size_t)snprintf(buf, len,
			"%s%s is not measurably different from %s%s (%+.1f %%, 95 %% CI %+.1f to %+.1f %%): no line is ranked",
			label, lat ? "'s message latency p99" : "", base,
			lat ? "'s" : "", e->pct, e->pct_ci[0], e->pct_ci[1]);
	/* Latencies spread over orders of magnitude: "77x" says it. */
	if (lat && e->pct >= 100)
		return (size_t)snprintf(buf, len,
			"%s's message latency p99 is %.1fx %s's at the load each was offered (95 %% CI %.1fx-%.1fx)",
			label, 1 + e->pct / 100, base, 1 + e->pct_ci[0] / 100,
			1 + e->pct_ci[1] / 100);
	return (size_t)snprintf(buf, len,
		"%s%s is %.1f %% %s than %s%s (95 %% CI %.1f-%.1f %%)",
		label, lat ? "'s message latency p99" : "", mag, what, base,
		lat ? "'s, at the load each was offered" : "", lo, hi);
}

/*
 * A line's part: in points of the throughput's change, which the
 * threads' time per message is the same change of; of latency, the
 * threads' time that moved, in per cent (time per message is no
 * latency, but where it went is why the messages waited).
 */
static size_t part_words(const struct explain *e, double share, char *buf,
			 size_t len)
{
	if (e->metric == EX_LATENCY)
		return (size_t)snprintf(buf, len, "%.0f %% of the time that moved",
					100 * share);
	return (size_t)snprintf(buf, len, "%.1f points",
				share * fabs(e->pct));
}

const char *explain_sentence(const struct explain *e, const char *label,
			     const char *base, char *buf, size_t len)
{
	const struct ex_line *top, *second;
	char ev[400], p[64];
	size_t used;

	if (!e->has_pct) {
		snprintf(buf, len, "%s: nothing to compare with %s.", label,
			 base);
		return buf;
	}
	used = metric_words(e, label, base, buf, len);
	if (used < len && !e->valid) {
		snprintf(buf + used, len - used, "; not explained: %s",
			 e->missing);
		goto end;
	}
	if (used >= len || !e->has_ci || !e->real)
		goto end;
	top = explain_ranked(e, EX_THREADS, 1);
	if (!top) {
		snprintf(buf + used, len - used,
			 ": no line of the threads' time budget changed beyond its noise");
		goto end;
	}
	evidence(e, top, ev, sizeof(ev));
	part_words(e, top->share, p, sizeof(p));
	used += (size_t)snprintf(buf + used, len - used, ": %s (%s) is %s%s",
				 top->share >= 0.5 ? "most of it" :
						     "the largest part",
				 p, top->words, ev);
	second = explain_ranked(e, EX_THREADS, 2);
	if (used < len && second && second->share >= 0.15) {
		part_words(e, second->share, p, sizeof(p));
		used += (size_t)snprintf(buf + used, len - used,
					 ", then %s (%s)", second->words, p);
	}
	if (used < len && e->unexplained[EX_THREADS] >= 0.1) {
		part_words(e, e->unexplained[EX_THREADS], p, sizeof(p));
		snprintf(buf + used, len - used,
			 "; the rest (%s) is not explained by the kernel record",
			 p);
	}
end:
	used = strlen(buf);
	if (used + 1 < len)
		strcat(buf, ".");
	return buf;
}

const char *explain_caveat(const struct explain *e)
{
	if (!e->real || e->interleaved)
		return NULL;
	return "the series were recorded one after the other, so whatever the machine did differently in between is in the difference too: on our VMs one setting recorded twice differed by up to 15 %. Settings on one kernel are told apart by runs interleaved (tools/ab.sh); kernels, by series repeated across boots.";
}

size_t explain_onset(const struct explain *const *e, size_t n)
{
	size_t i = n;

	while (i > 0 && e[i - 1]->has_ci && e[i - 1]->real &&
	       (e[i - 1]->pct < 0) == (e[n - 1]->pct < 0))
		i--;
	return i;
}
