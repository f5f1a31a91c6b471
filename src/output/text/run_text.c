// SPDX-License-Identifier: GPL-2.0
/*
 * The per-run block of the original client and our summary of repeated
 * runs.  Throughput is computed in double from 64-bit counts: the original
 * multiplied in 32 bits and wrapped above 10,737 rooms x messages.
 */
#include <inttypes.h>

#include "tracer/kstats.h"
#include "output/text/run_text.h"
#include "workload/client/background.h"
#include "workload/proto.h"
#include "util/fmt.h"
#include "util/roles.h"
#include "output/text/kstats_text.h"
#include "output/text/profile_text.h"

static void print_lat(FILE *f, const char *label, const struct lat_summary *l)
{
	char p50[24], p90[24], p99[24], p999[24], max[24];

	fprintf(f, "%s: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s (%" PRIu64 " messages)\n",
		label, fmt_ns(p50, sizeof(p50), (double)l->p50),
		fmt_ns(p90, sizeof(p90), (double)l->p90),
		fmt_ns(p99, sizeof(p99), (double)l->p99),
		fmt_ns(p999, sizeof(p999), (double)l->p999),
		fmt_ns(max, sizeof(max), (double)l->max), l->count);
}

/* --rate: what was offered, what was achieved, and how users waited. */
static void print_open(FILE *f, const struct open_result *op, bool verbose)
{
	char label[40];
	int i;

	fprintf(f, "Open-loop load     : %ld messages/s per user, %s arrivals: %.0f sends/s offered\n",
		op->rate, arrival_name(op->arrival), op->offered);
	fprintf(f, "Achieved           : %.0f sends/s (%.1f %% of offered), %.0f receives/s\n",
		op->achieved,
		op->offered > 0 ? 100.0 * op->achieved / op->offered : 0,
		op->delivered);
	print_lat(f, "Latency, scheduled ", &op->lat);
	if (!verbose)
		return;
	for (i = 0; i < op->nrooms; i++) {
		snprintf(label, sizeof(label), "  room %-12d", i + 1);
		print_lat(f, label, &op->rooms[i]);
	}
}

/* What the kernel held for each role that was set, read back. */
static void print_sched(FILE *f, const struct run_result *r)
{
	const char *label = "Scheduling         :";
	char got[64];
	int role;

	for (role = 0; role < CB_ROLE_OTHER; role++) {
		if (!r->sched_threads[role])
			continue;
		sched_got_format(&r->sched[role], got, sizeof(got));
		fprintf(f, "%-20s %-8s %s (%u threads, read back)\n", label,
			role_name(role), got, r->sched_threads[role]);
		label = "";
	}
}

void out_text_run(FILE *f, const struct run_result *r, bool verbose)
{
	fprintf(f, "\nSimulator version  : %s\n", CHAT_VERSION);
	fprintf(f, "Messages sent      : %" PRIu64 "\n", r->sent);
	fprintf(f, "Messages received  : %" PRIu64 "\n", r->received);
	fprintf(f, "Total messages     : %" PRIu64 "\n", r->sent + r->received);
	/* The original printed 1.056 s as "1.56". */
	fprintf(f, "Elapsed time       : %.3f seconds\n", r->elapsed_s);
	fprintf(f, "Average throughput : %.0f messages per second\n",
		r->throughput);
	if (r->open)
		print_open(f, r->open, verbose);
	else if (r->latency && r->latency->count) {
		char p50[24], p99[24], max[24];

		fprintf(f, "Message latency    : p50 %s, p99 %s, max %s (%" PRIu64 " messages)\n",
			fmt_ns(p50, sizeof(p50), r->latency->p50),
			fmt_ns(p99, sizeof(p99), r->latency->p99),
			fmt_ns(max, sizeof(max), r->latency->max),
			r->latency->count);
	}
	print_sched(f, r);
	if (r->bg_burners)
		fprintf(f, "Background         : %d burners (%s): %.0f loops/s during the run\n",
			r->bg_burners, BG_BURN_NAME, r->bg_loops_per_s);
	if (r->kernel) {
		kstats_print_text(f, r->kernel, verbose);
		profile_print_text(f, r->kernel->profile);
	}
	/* Whether it is traced or why not is said once, by the verdict. */
	if (r->server_kernel) {
		fprintf(f, "Kernel, server's host (%s):\n",
			r->server_host[0] ? r->server_host : "unnamed");
		kstats_print_text(f, r->server_kernel, verbose);
	}
	fflush(f);
}

void out_text_summary(FILE *f, int rooms, int messages,
		      const struct stats *s, size_t attempted)
{
	fprintf(f, "\nSummary            : %zu of %zu runs completed, %d rooms x %d messages\n",
		s->n, attempted, rooms, messages);
	if (!s->n) {
		fflush(f);
		return;
	}
	fprintf(f, "Throughput avg     : %.0f messages per second\n", s->avg);
	fprintf(f, "Throughput min     : %.0f\n", s->min);
	fprintf(f, "Throughput max     : %.0f\n", s->max);
	fprintf(f, "Throughput median  : %.0f\n", s->median);
	fprintf(f, "Relative spread    : %.1f %% (max-min)/avg, MAD %.1f %% of median\n",
		100.0 * s->rel_spread, 100.0 * s->rel_mad);
	fflush(f);
}

void out_text_placement(FILE *f, const char *client_cpus, bool client_pin,
			bool nodelay, const char *server_model,
			const char *server_cpus, bool server_pin)
{
	fprintf(f, "Placement          : client cpus %s%s%s; server model %s, cpus %s%s\n",
		client_cpus ?: "?", client_pin ? " (pinned)" : "",
		nodelay ? ", TCP_NODELAY" : "", server_model ?: "?",
		server_cpus ?: "?", server_pin ? " (pinned)" : "");
}
