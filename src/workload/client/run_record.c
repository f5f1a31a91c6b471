// SPDX-License-Identifier: GPL-2.0
/*
 * Releasing what a run record owns, beside its type: the record is made
 * by client_run() live and by the loader of saved runs (results/), and
 * released by whoever holds the series, so no part frees another's
 * allocations its own way.
 */
#include <stdlib.h>

#include "tracer/kstats.h"
#include "workload/client/run_record.h"

void run_record_release(struct run_result *r)
{
	kstats_free(r->kernel);
	r->kernel = NULL;
	kstats_free(r->server_kernel);
	r->server_kernel = NULL;
	free(r->latency);
	r->latency = NULL;
	if (r->open)
		free(r->open->rooms);
	free(r->open);
	r->open = NULL;
}
