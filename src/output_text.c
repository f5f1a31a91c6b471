// SPDX-License-Identifier: GPL-2.0
/*
 * The per-run block of the original client and our summary of repeated
 * runs.  Throughput is computed in double from 64-bit counts: the original
 * multiplied in 32 bits and wrapped above 10,737 rooms x messages.
 */
#include <inttypes.h>

#include "kstats.h"
#include "output_text.h"
#include "proto.h"

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
