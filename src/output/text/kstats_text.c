/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel figures of one run as a compact text block: what the tracer
 * cost and missed, a table of the benchmark roles (wakeups, switches,
 * run-queue latency, where the time went), per-CPU idle and softirq, who
 * held the CPUs while benchmark threads waited, and the sockets.  Every
 * line stays under 100 columns.  Verbose adds star charts of the
 * histograms, folded to one line per power of two.
 */
#include <inttypes.h>
#include <string.h>

#include "analysis/owait.h"
#include "tracer/kstats_record.h"
#include "util/roles.h"
#include "util/fmt.h"
#include "output/text/budget_text.h"
#include "output/text/kstats_text.h"

static const char *fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b < 1024)
		snprintf(buf, len, "%" PRIu64 "B", b);
	else if (b < 1024 * 1024)
		snprintf(buf, len, "%.1fK", b / 1024.0);
	else
		snprintf(buf, len, "%.1fM", b / 1048576.0);
	return buf;
}

static const char *fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 100000)
		snprintf(buf, len, "%" PRIu64, n);
	else if (n < 100000000)
		snprintf(buf, len, "%.1fk", n / 1e3);
	else
		snprintf(buf, len, "%.1fM", n / 1e6);
	return buf;
}

static uint64_t missed_total(const struct kstats *k)
{
	const struct ks_missed *m = &k->missed;

	/* queue_mismatch and phantom_waiters are corrected as they happen. */
	return m->stealer_map_full + m->slot_evictions + m->recursion_misses +
	       m->lost_events;
}

static void print_header(FILE *f, const struct kstats *k)
{
	char a[16], b[16];

	fprintf(f, "kernel   : %s, %d CPUs, bpf %.2f%% of CPU (%s x %s runs%s)"
		", missed %" PRIu64 "\n", k->mode ? k->mode : "?", k->ncpus,
		k->bpf_cpu_share * 100,
		fmt_ns(a, sizeof(a), k->bpf_run_cnt ?
		       k->bpf_run_time_ns / k->bpf_run_cnt : 0),
		fmt_count(b, sizeof(b), k->bpf_run_cnt),
		k->bpf_timed_ns ? ", est." : "", missed_total(k));
}

static void print_roles(FILE *f, const struct kstats *k)
{
	char w[16], v[16], i[16], p50[16], p99[16], mx[16];
	int r;

	fprintf(f, "  %-9s %7s %5s %7s %7s %5s %8s %8s %8s %6s %6s %6s\n",
		"role", "wakeups", "xcpu%", "vol_sw", "inv_sw", "migr",
		"rq_p50", "rq_p99", "rq_max", "on_s", "rq_s", "blk_s");
	for (r = 0; r < KS_NR_ROLES; r++) {
		const struct ks_role *o = &k->role[r];

		if (!o->wakeups && !o->vol_switches && !o->invol_switches)
			continue;
		fprintf(f, "  %-9s %7s %5.1f %7s %7s %5" PRIu64
			" %8s %8s %8s %6.2f %6.2f %6.2f\n",
			role_name(r), fmt_count(w, sizeof(w), o->wakeups),
			o->wakeups ? 100.0 * o->cross_cpu_wakeups / o->wakeups
				   : 0.0,
			fmt_count(v, sizeof(v), o->vol_switches),
			fmt_count(i, sizeof(i), o->invol_switches),
			o->migrations, fmt_ns(p50, sizeof(p50), o->rq_lat.p50),
			fmt_ns(p99, sizeof(p99), o->rq_lat.p99),
			fmt_ns(mx, sizeof(mx), o->rq_lat.max),
			o->oncpu_ns / 1e9, o->runnable_ns / 1e9,
			o->blocked_ns / 1e9);
	}
}

static void print_cpus(FILE *f, const struct kstats *k)
{
	int c, n = 0;

	for (c = 0; c < k->ncpus; c++) {
		const struct ks_cpu *o = &k->cpu[c];
		double wall = k->wall_ns ? (double)k->wall_ns : 1;

		if (n == 0)
			fprintf(f, "  cpus    :");
		fprintf(f, " cpu%d idle %.1f%% sirq %.1f%%", c,
			100.0 * o->idle_ns / wall,
			100.0 * o->softirq_all_ns / wall);
		if (!k->softirq_ticks)
			fprintf(f, " (net_rx %.1f%%)",
				100.0 * o->softirq_ns[3] / wall);
		if (++n == 2 || c == k->ncpus - 1) {
			fputc('\n', f);
			n = 0;
		}
	}
	if (k->softirq_ticks)
		fprintf(f, "  sirq    : kernel tick accounting, not by vector "
			"(exact: CHATBENCH_TRACE_PROGS=all)\n");
}

static void print_stealers(FILE *f, const struct kstats *k)
{
	int i, col, shown = 0;
	char ns[16];

	col = fprintf(f, "  waited  : %s total;", fmt_ns(ns, sizeof(ns),
						       k->stolen_total_ns));
	for (i = 0; i < k->nr_stealers && shown < 5; i++) {
		const struct ks_stealer *s = &k->stealer[i];
		char item[64];
		int len;

		if (s->pid)
			len = snprintf(item, sizeof(item), " %s[%d] %s", s->comm,
				       s->pid, fmt_ns(ns, sizeof(ns), s->ns));
		else
			len = snprintf(item, sizeof(item), " %s %s", s->comm,
				       fmt_ns(ns, sizeof(ns), s->ns));
		if (col + len > 96)
			break;
		col += fprintf(f, "%s", item);
		shown++;
	}
	fputc('\n', f);
}

static void print_socks(FILE *f, const struct kstats *k)
{
	const struct ks_sock_side *c = &k->sock[CB_SIDE_CLIENT];
	const struct ks_sock_side *s = &k->sock[CB_SIDE_SERVER];
	char a[16], b[16], d[16], e[16], g[16];
	uint64_t sends = c->sends + s->sends;
	uint64_t full = c->sndbuf_full + s->sndbuf_full;

	/* Two lines: one would pass 100 columns with large queues. */
	fprintf(f, "  rcvq    : p99/max cli %s/%s srv %s/%s, largest rcvbuf %s\n"
		"  sndq    : full in %.2f%% of samples; socket memory pressure"
		" events %" PRIu64 "\n",
		fmt_bytes(a, sizeof(a), c->rq_bytes.p99),
		fmt_bytes(b, sizeof(b), c->rq_bytes.max),
		fmt_bytes(d, sizeof(d), s->rq_bytes.p99),
		fmt_bytes(e, sizeof(e), s->rq_bytes.max),
		fmt_bytes(g, sizeof(g), c->rcvbuf_max > s->rcvbuf_max ?
					c->rcvbuf_max : s->rcvbuf_max),
		sends ? 100.0 * full / sends : 0.0,
		c->exceed_buf_limit + s->exceed_buf_limit +
		c->rcvqueue_full + s->rcvqueue_full);
}

/* One line per power of two, like runqlat, so the chart stays short. */
static void print_chart(FILE *f, const char *title, const struct ks_hist *h,
			bool bytes)
{
	uint64_t fold[CB_HIST_BUCKETS / CB_HIST_SUB + 1] = { 0 }, top = 0;
	int i, first = -1, last = -1, n = CB_HIST_BUCKETS / CB_HIST_SUB;

	if (!h->count)
		return;
	for (i = 0; i < CB_HIST_BUCKETS; i++)
		fold[i / CB_HIST_SUB] += h->buckets[i];
	for (i = 0; i < n; i++) {
		if (!fold[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (fold[i] > top)
			top = fold[i];
	}
	fprintf(f, "  %s\n", title);
	for (i = first; i <= last; i++) {
		char lo[16], hi[16], stars[41];
		int ns = (int)(fold[i] * 40 / top);

		memset(stars, '*', ns);
		stars[ns] = '\0';
		if (bytes) {
			fmt_bytes(lo, sizeof(lo), cb_hist_lo(i * CB_HIST_SUB));
			fmt_bytes(hi, sizeof(hi), cb_hist_hi(i * CB_HIST_SUB +
							     CB_HIST_SUB - 1));
		} else {
			fmt_ns(lo, sizeof(lo), cb_hist_lo(i * CB_HIST_SUB));
			fmt_ns(hi, sizeof(hi), cb_hist_hi(i * CB_HIST_SUB +
							  CB_HIST_SUB - 1));
		}
		fprintf(f, "    %8s .. %-8s %10" PRIu64 " |%-40s|\n", lo, hi,
			fold[i], stars);
	}
}

/*
 * One line per process that had a CPU quota, was throttled or was
 * stopped, and one for the machine's retransmissions and memory stalls:
 * silent on the usual run, where none of it happens.
 */
static void print_procs(FILE *f, const struct kstats *k)
{
	static const char *const names[CB_NR_SIDES] = { "chat_c", "chat_s" };
	int i;

	for (i = 0; i < CB_NR_SIDES; i++) {
		const struct ks_proc *p = &k->proc[i];
		bool quota = p->cg_valid && p->quota_us >= 0 && p->period_us;

		if (!quota && !p->throttled_ns && !p->stopped_ns &&
		    !p->stop_signals)
			continue;
		fprintf(f, "  %-8s: pid %d", names[i], (int)p->pid);
		if (quota)
			fprintf(f, ", cgroup %s quota %.2f CPU", p->cgroup,
				(double)p->quota_us / (double)p->period_us);
		if (p->throttled_ns)
			fprintf(f, ", throttled %" PRIu64 "/%" PRIu64
				" periods %.2fs", p->throttled_periods,
				p->periods, (double)p->throttled_ns / 1e9);
		if (p->stopped_ns || p->stop_signals)
			fprintf(f, ", stopped %.2fs (signal %d from %s[%d])",
				(double)p->stopped_ns / 1e9, p->stop_sig,
				p->stop_sender_comm, (int)p->stop_sender);
		fputc('\n', f);
	}
	if (!k->sys.retrans_segs && !k->sys.rto_timeouts &&
	    !k->sys.psi_mem_some_us && !k->sys.allocstall &&
	    !k->proc[0].majflt && !k->proc[1].majflt)
		return;
	fprintf(f, "  system  : tcp retransmits %" PRIu64 " (timeouts %" PRIu64
		"), memory stalls %.2fs, reclaim stalls %" PRIu64
		", major faults %" PRIu64 "\n", k->sys.retrans_segs,
		k->sys.rto_timeouts, (double)k->sys.psi_mem_some_us / 1e6,
		k->sys.allocstall, k->proc[0].majflt + k->proc[1].majflt);
}

static void print_outsiders(FILE *f, const struct kstats *k, bool verbose)
{
	struct ow_entry o[KS_TOP_STEALERS];
	int n = outsider_waits(k, o, KS_TOP_STEALERS);

	budget_print_outsiders(f, &k->budget, o, n, verbose);
}

void kstats_print_text(FILE *f, const struct kstats *k, bool verbose)
{
	int r;

	if (!k)
		return;
	print_header(f, k);
	print_roles(f, k);
	budget_print_text(f, &k->budget, verbose);
	print_outsiders(f, k, verbose);
	print_cpus(f, k);
	print_stealers(f, k);
	print_socks(f, k);
	print_procs(f, k);
	if (!verbose)
		return;
	for (r = 0; r < KS_NR_ROLES; r++) {
		char title[64];

		snprintf(title, sizeof(title), "run-queue latency, %s",
			 role_name(r));
		print_chart(f, title, &k->role[r].rq_lat, false);
	}
	print_chart(f, "receive queue at data arrival, client sockets",
		    &k->sock[CB_SIDE_CLIENT].rq_bytes, true);
	print_chart(f, "receive queue at data arrival, server sockets",
		    &k->sock[CB_SIDE_SERVER].rq_bytes, true);
}
