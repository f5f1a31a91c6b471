// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnosis as a kernel engineer reads it: one line for the verdict
 * of the series, then a block per slow run (throughput, shortfall, then
 * its causes, most important first, each with its evidence), dips inside
 * runs, and for a single run a profile of where the time went.
 */
#include <string.h>

#include "analysis/series.h"
#include "output/text/diag_text.h"
#include "tracer/kstats.h"
#include "util/roles.h"
#include "util/fmt.h"

/*
 * Text under 100 columns: a long sentence continues on indented lines,
 * broken at spaces, but never between a number and its "%", and with no
 * space left at the end of a line.
 */
static void print_wrapped(FILE *f, const char *head, const char *text)
{
	const int width = 98, indent = 5;
	int col = fprintf(f, "%s", head);
	const char *p = text;
	int sep = 0;

	while (*p) {
		const char *end = strchr(p, ' ');
		int len;

		while (end && end[1] == '%')
			end = strchr(end + 1, ' ');
		len = end ? (int)(end - p) : (int)strlen(p);
		if (col + sep + len > width && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (sep) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", len, p);
		p += len;
		while (*p == ' ')
			p++;
		sep = 1;
	}
	fputc('\n', f);
}

static void print_profile(FILE *f, const struct run_result *r,
			  const struct kfigures *kf)
{
	struct kfigures k = *kf;
	double thr, all;
	char a[24], b[24], head[32], text[256];
	int i, col, shown = 0;

	if (!k.valid)
		return;
	snprintf(head, sizeof(head), "Profile of run %-4d: ", r->run);
	snprintf(text, sizeof(text),
		 "CPU: benchmark %.0f%%, softirq %.0f%% (net_rx %.0f%%), "
		 "outsiders %.0f%%, steal %.0f%%, idle %.0f%%",
		 100 - k.idle_pct - k.softirq_pct - k.outsider_pct -
		 k.steal_pct, k.softirq_pct, k.net_rx_pct, k.outsider_pct,
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
		 "sndbuf full %.1f %% of sends",
		 (unsigned long long)k.sock_rq_p99_bytes,
		 (unsigned long long)k.sock_rq_max_bytes,
		 (unsigned long long)k.rcvbuf_max, k.sndbuf_full_pct);
	print_wrapped(f, "  socket queues    : ", text);
}

static void print_dips(FILE *f, const struct run_result *r,
		       const struct run_dips *rd)
{
	const struct diag_dip *d = rd->dip;
	char head[128];
	int i;

	for (i = 0; i < rd->n; i++) {
		snprintf(head, sizeof(head),
			 "Dip in run %-7d : %.1f-%.1f s at %.0f msg/s vs %.0f median: ",
			 r->run, d[i].from_s, d[i].to_s, d[i].throughput,
			 d[i].median);
		print_wrapped(f, head, d[i].why);
	}
}

void diag_print(FILE *f, const struct series *s)
{
	const struct series_verdict *sv = &s->verdict;
	const struct diag_verdict *v = sv->run;
	const struct diag_ref *ref = &sv->ref;
	size_t i, nslow = 0;
	int c;

	if (!sv->nok)
		return;
	if (sv->profile) {
		print_profile(f, &s->runs[0], &sv->profile_kf);
		print_dips(f, &s->runs[0], &sv->dips[0]);
		fflush(f);
		return;
	}
	if (!sv->judged)
		return;
	if (sv->baseline && !sv->baseline_exact)
		fprintf(f, "Baseline           : no saved run of %d rooms x %d messages, %d users: comparing with all of its runs\n",
			s->rooms, s->messages, s->users);
	for (i = 0; i < s->attempted; i++)
		nslow += v[i].slow;
	fprintf(f, "Diagnosis          : %zu slow of %zu (below %.0f msg/s = %s median %.0f - max(%.0f %%, 3 MAD))\n",
		nslow, sv->nok, ref->tp_median - ref->margin,
		sv->baseline ? "baseline" : "the", ref->tp_median, sv->pct);
	for (i = 0; i < s->attempted; i++) {
		const struct diag_verdict *vi = &v[i];

		if (!vi->slow)
			continue;
		fprintf(f, "Slow run %-9d : %.0f msg/s, %.1f %% below the median\n",
			s->runs[i].run, s->runs[i].throughput,
			100.0 * vi->shortfall);
		if (!s->runs[i].kernel)
			fprintf(f, "  (untraced: no kernel figures to explain it)\n");
		else if (vi->nothing_stands_out)
			print_wrapped(f, "  ", "no kernel-side cause stands out: the run was slow while kernel figures were at baseline");
		for (c = 0; c < vi->ncauses; c++) {
			char head[96];

			snprintf(head, sizeof(head), "  %d. %s (%.0f %% of the loss): ",
				 c + 1, cause_kind_names[vi->causes[c].kind],
				 100.0 * vi->causes[c].share);
			print_wrapped(f, head, vi->causes[c].text);
		}
	}
	for (i = 0; i < s->attempted; i++)
		if (s->runs[i].ok)
			print_dips(f, &s->runs[i], &sv->dips[i]);
	fflush(f);
}
