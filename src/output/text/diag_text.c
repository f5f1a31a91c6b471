// SPDX-License-Identifier: GPL-2.0
/*
 * The diagnosis as a kernel engineer reads it: one line for the verdict
 * of the series, then a block per slow run (throughput, shortfall, then
 * its causes, most important first, each with its evidence), dips inside
 * runs, and for a single run a profile of where the time went.
 */
#include <string.h>

#include "output/text/diag_text.h"
#include "analysis/kfigures.h"
#include "tracer/kstats.h"
#include "study/study.h"
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

static void print_profile(FILE *f, const struct run_result *r)
{
	struct kfigures k;
	double thr, all;
	char a[24], b[24], head[32], text[256];
	int i, col, shown = 0;

	kfigures_from(r->kernel, &k);
	if (!k.valid)
		return;
	k.steal_pct = r->steal_pct;
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

static void print_dips(FILE *f, const struct run_result *r, double pct)
{
	struct diag_dip d[DIAG_MAX_DIPS];
	int i, n = diag_find_dips(r->kernel, pct, d, DIAG_MAX_DIPS);

	char head[128];

	for (i = 0; i < n; i++) {
		snprintf(head, sizeof(head),
			 "Dip in run %-7d : %.1f-%.1f s at %.0f msg/s vs %.0f median: ",
			 r->run, d[i].from_s, d[i].to_s, d[i].throughput,
			 d[i].median);
		print_wrapped(f, head, d[i].why);
	}
}

void diag_print(FILE *f, const struct series *s, const struct diag_ref *ref,
		const struct diag_verdict *v, double pct, bool baseline)
{
	size_t i, nslow = 0, nok = 0;
	int c;

	for (i = 0; i < s->attempted; i++) {
		nok += s->runs[i].ok;
		nslow += v[i].slow;
	}
	if (!nok)
		return;
	if (nok == 1 && !baseline) {
		print_profile(f, &s->runs[0]);
		print_dips(f, &s->runs[0], pct);
		fflush(f);
		return;
	}
	fprintf(f, "Diagnosis          : %zu slow of %zu (below %.0f msg/s = %s median %.0f - max(%.0f %%, 3 MAD))\n",
		nslow, nok, ref->tp_median - ref->margin,
		baseline ? "baseline" : "the", ref->tp_median, pct);
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
			print_dips(f, &s->runs[i], pct);
	fflush(f);
}

json_t *diag_causes_json(const struct diag_verdict *v)
{
	json_t *arr = json_array();
	int c;

	for (c = 0; c < v->ncauses; c++) {
		const struct diag_cause *k = &v->causes[c];
		json_t *o = json_pack("{s:s, s:f, s:s, s:f, s:f, s:s}",
				      "kind", cause_kind_names[k->kind],
				      "share", k->share,
				      "figure", k->figure ? k->figure : "",
				      "now", k->now, "baseline", k->base,
				      "sentence", k->text);

		if (o && k->kind == CAUSE_OUTSIDER_CPU) {
			json_object_set_new(o, "task", json_string(k->task));
			json_object_set_new(o, "pid", json_integer(k->pid));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *diag_dips_json(const struct diag_dip *d, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:f, s:f, s:f, s:f, s:s}",
			"from_s", d[i].from_s, "to_s", d[i].to_s,
			"throughput", d[i].throughput, "median", d[i].median,
			"sentence", d[i].why));
	return arr;
}
