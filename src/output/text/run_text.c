// SPDX-License-Identifier: GPL-2.0
/*
 * The per-run block of the original client and our summary of repeated
 * runs.  Throughput is computed in double from 64-bit counts: the original
 * multiplied in 32 bits and wrapped above 10,737 rooms x messages.
 */
#include <inttypes.h>

#include "tracer/kstats.h"
#include "output/text/run_text.h"
#include "workload/proto.h"
#include "util/fmt.h"
#include "output/text/kstats_text.h"

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
	if (r->latency && r->latency->count) {
		char p50[24], p99[24], max[24];

		fprintf(f, "Message latency    : p50 %s, p99 %s, max %s (%" PRIu64 " messages)\n",
			fmt_ns(p50, sizeof(p50), r->latency->p50),
			fmt_ns(p99, sizeof(p99), r->latency->p99),
			fmt_ns(max, sizeof(max), r->latency->max),
			r->latency->count);
	}
	if (r->kernel)
		kstats_print_text(f, r->kernel, verbose);
	fflush(f);
}

void out_text_summary(FILE *f, const struct client_opts *o,
		      const struct stats *s, size_t attempted)
{
	fprintf(f, "\nSummary            : %zu of %zu runs completed, %d rooms x %d messages\n",
		s->n, attempted, o->rooms, o->messages);
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
