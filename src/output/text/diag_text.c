// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnosis as a kernel engineer reads it: one line for the verdict
 * of the series, then a block per slow run (throughput, shortfall, then
 * its causes, most important first, each with its evidence), dips inside
 * runs, and for a single run a profile of where the time went.
 */
#include <math.h>
#include <string.h>

#include "analysis/series_record.h"
#include "output/text/diag_text.h"
#include "tracer/kstats_record.h"
#include "util/roles.h"
#include "output/text/wrap.h"
#include "util/fmt.h"

/* Text under 100 columns, continued on lines indented by 5. */
static void print_wrapped(FILE *f, const char *head, const char *text)
{
	text_wrap(f, head, text, 98, 5);
}

static void print_profile(FILE *f, const struct run_result *r,
			  const struct kfigures *kf)
{
	struct kfigures k = *kf;
	double thr, all;
	char a[24], b[24], head[32], text[256], netrx[24];
	int i, col, shown = 0;

	if (!k.valid)
		return;
	snprintf(head, sizeof(head), "Profile of run %-4d: ", r->run);
	if (k.net_rx_pct >= 0)
		snprintf(netrx, sizeof(netrx), " (net_rx %.0f%%)",
			 k.net_rx_pct);
	else
		netrx[0] = '\0';
	snprintf(text, sizeof(text),
		 "CPU: benchmark %.0f%%, softirq %.0f%%%s, "
		 "outsiders %.0f%%, steal %.0f%%, idle %.0f%%",
		 100 - k.idle_pct - k.softirq_pct - k.outsider_pct -
		 k.steal_pct, k.softirq_pct, netrx, k.outsider_pct,
		 k.steal_pct, k.idle_pct);
	print_wrapped(f, head, text);
	all = k.oncpu_s + k.runnable_s + k.blocked_s;
	thr = all > 0 ? 100.0 / all : 0;
	snprintf(text, sizeof(text),
		 "on CPU %.0f %%, runnable %.0f %%, blocked %.0f %%; "
		 "rq latency p50 %s p99 %s",
		 k.oncpu_s * thr, k.runnable_s * thr, k.blocked_s * thr,
		 fmt_ns(a, sizeof(a), k.rq_p50_ns),
		 fmt_ns(b, sizeof(b), k.rq_p99_ns));
	print_wrapped(f, "  threads' time    : ", text);
	/* As many of the top three as fit in the line. */
	col = fprintf(f, "  top stealers     :");
	for (i = 0; i < r->kernel->nr_stealers && shown < 3; i++) {
		const struct ks_stealer *s = &r->kernel->stealer[i];
		int len;

		if (s->is_benchmark)
			len = snprintf(text, sizeof(text), "%s %s (benchmark) %s",
				       shown ? "," : "",
				       s->role >= 0 ? role_name(s->role) :
						      s->comm,
				       fmt_ns(a, sizeof(a), s->ns));
		else
			len = snprintf(text, sizeof(text), "%s %s (pid %d) %s",
				       shown ? "," : "", s->comm, (int)s->pid,
				       fmt_ns(a, sizeof(a), s->ns));
		if (shown && col + len > 98)
			break;
		col += fprintf(f, "%s", text);
		shown++;
	}
	fprintf(f, "%s\n", shown ? "" : " none");
	snprintf(text, sizeof(text),
		 "rcv queue p99 %llu max %llu B (rcvbuf %llu), "
		 "sndbuf full in %.1f %% of samples",
		 (unsigned long long)k.sock_rq_p99_bytes,
		 (unsigned long long)k.sock_rq_max_bytes,
		 (unsigned long long)k.rcvbuf_max, k.sndbuf_full_pct);
	print_wrapped(f, "  socket queues    : ", text);
}

/* The names of the cause kinds in mask, comma-separated. */
static void kinds_of(unsigned int mask, char *buf, size_t len)
{
	size_t off = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < CAUSE_NR && off < len; k++)
		if (mask & (1U << k))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "",
						cause_table[k].name);
}

static void print_dips(FILE *f, const struct run_result *r,
		       const struct run_phases *p)
{
	const struct diag_dip *d = p->dip;
	char head[32], text[400];
	int i;

	for (i = 0; i < p->ndips; i++) {
		snprintf(head, sizeof(head), "Dip in run %-7d : ", r->run);
		snprintf(text, sizeof(text),
			 "%.1f-%.1f s at %.0f msg/s, %.0f %% below the steady %.0f (intervals vary +-%.0f %%): %s",
			 d[i].from_s, d[i].to_s, d[i].throughput,
			 d[i].depth_pct, p->median, p->noise_pct, d[i].why);
		print_wrapped(f, head, text);
	}
}

/*
 * One line for the phases of all runs: the ramps and drains that are
 * not dips, and the interval noise the dips were judged against.
 */
static void print_phases(FILE *f, const struct series *s)
{
	const struct run_phases *p = s->verdict.phases;
	double ramp = 0, drain = 0, lo = 1e9, hi = 0;
	char text[256];
	size_t i, n = 0, ndips = 0;

	for (i = 0; i < s->attempted; i++) {
		if (!s->runs[i].ok || !p[i].valid)
			continue;
		n++;
		ndips += (size_t)p[i].ndips;
		ramp = fmax(ramp, p[i].ramp_to_s);
		drain = fmax(drain, p[i].end_s - p[i].drain_from_s);
		lo = fmin(lo, p[i].noise_pct);
		hi = fmax(hi, p[i].noise_pct);
	}
	if (!n)
		return;
	snprintf(text, sizeof(text),
		 "%zu dip%s in the steady part%s; start-up ramps (up to %.1f s) and drains (up to the last %.1f s) are not dips; intervals vary +-%.0f-%.0f %%",
		 ndips, ndips == 1 ? "" : "s", n > 1 ? "s" : "", ramp, drain,
		 lo, hi);
	print_wrapped(f, "Phases             : ", text);
	for (i = 0; i < s->attempted; i++)
		if (s->runs[i].ok && p[i].valid)
			print_dips(f, &s->runs[i], &p[i]);
}

/* Appends the lines of [from, to) that grew, largest first, at most max. */
static size_t grown_lines(char *buf, size_t len, size_t off,
			  const struct loss_account *a, int from, int to,
			  int max)
{
	int order[LL_NR], n = 0, i, j;
	char name[48], v[24];

	for (i = from; i < to; i++) {
		if (i == LL_GONE || a->grown[i] <= 0)
			continue;
		for (j = n++; j > 0 && a->grown[order[j - 1]] < a->grown[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < n && i < max && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s %s +%s",
					i ? "," : "",
					loss_line_name(order[i], name,
						       sizeof(name)),
					fmt_ns(v, sizeof(v),
					       a->grown[order[i]]));
	return off;
}

/*
 * The account behind the shares: the CPU time lost per message, what no
 * cause explains, the CPU lines that grew (they add up to the loss) and
 * the threads' lines that grew most (thread time per message: they say
 * why, not how much).
 */
static void print_account(FILE *f, const struct loss_account *a,
			  double unexplained, const char *head)
{
	char text[480], v[24];
	size_t off;

	off = (size_t)snprintf(text, sizeof(text),
			       "%s of CPU time lost per message, %.0f %% unexplained; CPU lines grew:",
			       fmt_ns(v, sizeof(v), a->lost_ns),
			       100.0 * unexplained);
	off = grown_lines(text, sizeof(text), off, a, 0, KB_NR_CPU_LINES, 4);
	if (off < sizeof(text))
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"; threads' lines:");
	grown_lines(text, sizeof(text), off, a, LL_ONCPU, LL_NR, 3);
	print_wrapped(f, head, text);
}

static void print_run(FILE *f, const struct run_result *r,
		      const struct diag_verdict *v)
{
	char kinds[160], head[96];
	int c;

	kinds_of(v->evidence, kinds, sizeof(kinds));
	if (!v->slow) {
		char text[256];

		snprintf(head, sizeof(head), "Disturbed run %-4d : ", r->run);
		snprintf(text, sizeof(text),
			 "%s far outside the other runs, but %.0f msg/s is within the noise",
			 kinds, r->throughput);
		print_wrapped(f, head, text);
		return;
	}
	fprintf(f, "Slow run %-9d : %.0f msg/s, %.1f %% below the median%s%s%s\n",
		r->run, r->throughput, 100.0 * v->shortfall,
		v->disturbed ? " (disturbed: " : "", kinds,
		v->disturbed ? ")" : "");
	if (!r->kernel && !r->server_kernel)
		fprintf(f, "  (untraced: no kernel figures to explain it)\n");
	else if (v->nothing_stands_out)
		print_wrapped(f, "  ", "no kernel-side cause stands out: the run was slow while kernel figures were within the other runs' spread");
	for (c = 0; c < v->ncauses; c++) {
		snprintf(head, sizeof(head), "  %d. %s (%.0f %% of the loss): ",
			 c + 1, cause_table[v->causes[c].kind].name,
			 100.0 * v->causes[c].share);
		print_wrapped(f, head, v->causes[c].text);
	}
	if (!v->by_budget)
		return;
	/* Said only when it could be either host's. */
	if (v->acct_host == DIAG_HOST_SERVER)
		snprintf(head, sizeof(head), "  budget, server's host (%s): ",
			 r->server_host[0] ? r->server_host : "unnamed");
	else if (r->server_kernel)
		snprintf(head, sizeof(head), "  budget, client's host: ");
	else
		snprintf(head, sizeof(head), "  budget: ");
	print_account(f, &v->acct, v->unexplained, head);
}

/*
 * chat_s asked to trace its host and could not: said once a series, with
 * the first reason given and how many runs it held for.
 */
static void print_server_untraced(FILE *f, const struct series *s)
{
	const struct run_result *first = NULL;
	const char *why;
	char text[320];
	size_t i, n = 0;
	int off;

	for (i = 0; i < s->attempted; i++) {
		const char *t = s->runs[i].server_trace;

		if (strncmp(t, "off", 3))
			continue;
		if (!first)
			first = &s->runs[i];
		n++;
	}
	if (!first)
		return;
	why = first->server_trace + 3;
	why += strspn(why, ": ");
	off = snprintf(text, sizeof(text), "%s is not traced%s%s",
		       first->server_host[0] ? first->server_host : "unnamed",
		       *why ? ": " : "", why);
	if (n < s->attempted && off > 0 && (size_t)off < sizeof(text))
		snprintf(text + off, sizeof(text) - (size_t)off,
			 " (in %zu of %zu runs)", n, s->attempted);
	print_wrapped(f, "Server's host      : ", text);
}

void diag_print(FILE *f, const struct series *s)
{
	const struct series_verdict *sv = &s->verdict;
	const struct diag_ref *ref = &sv->ref;
	const struct run_phases *p0 = &sv->phases[0];
	char text[320];
	size_t i, nslow = 0;

	if (!sv->nok)
		return;
	print_server_untraced(f, s);
	if (sv->profile) {
		print_profile(f, &s->runs[0], &sv->profile_kf);
		if (p0->valid)
			snprintf(text, sizeof(text),
				 "its own steady intervals (no --baseline): %.0f msg/s, +-%.0f %%, from %.1f s to %.1f s; %d dip%s",
				 p0->median, p0->noise_pct, p0->ramp_to_s,
				 p0->drain_from_s, p0->ndips,
				 p0->ndips == 1 ? "" : "s");
		else
			snprintf(text, sizeof(text),
				 "its own steady intervals (no --baseline), but the run has too few of them (or none, untraced) to tell dips from noise");
		print_wrapped(f, "Judged against     : ", text);
		print_dips(f, &s->runs[0], p0);
		fflush(f);
		return;
	}
	if (!sv->judged)
		return;
	if (sv->baseline && !sv->baseline_exact)
		fprintf(f, "Baseline           : no saved run of %d rooms x %d messages, %d users: comparing with all of its runs\n",
			s->rooms, s->messages, s->users);
	for (i = 0; i < s->attempted; i++)
		nslow += sv->run[i].slow;
	fprintf(f, "Diagnosis          : %zu slow of %zu (against %s median %.0f msg/s of %zu runs)\n",
		nslow, sv->nok, sv->baseline ? "the baseline" : "the",
		ref->tp_median, ref->n);
	snprintf(text, sizeof(text),
		 "runs vary +-%.1f %%; slowdowns under %.1f %% are not called, nor under %.1f %% with kernel evidence of a disturbance",
		 sv->spread_pct, sv->min_slow_pct, sv->min_slow_evidence_pct);
	print_wrapped(f, "Resolution         : ", text);
	for (i = 0; i < s->attempted; i++)
		if (s->runs[i].ok &&
		    (sv->run[i].slow || sv->run[i].disturbed))
			print_run(f, &s->runs[i], &sv->run[i]);
	print_phases(f, s);
	fflush(f);
}
