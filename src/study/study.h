/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A study: one series of repeated runs, or one series per value of a
 * swept parameter, with per-run and per-series output as they complete
 * and a sweep table at the end.
 */
#ifndef CHATBENCH_STUDY_H
#define CHATBENCH_STUDY_H

#include <stdatomic.h>
#include <stdio.h>

#include "analysis/series.h"
#include "workload/client/client.h"
#include "workload/client/server_info.h"

struct baseline;
struct json_out;
struct prof_out;

struct study_io {
	FILE *text;
	struct json_out *json;
	const char *json_path;
	const char *trace_state;
	const atomic_int *got_signal;
	const struct baseline *baseline; /* NULL: runs judged by their median */
	struct server_info server;
	char client_cpus[64];
	char client_autogroup[32];	/* "" when unknown */
	/*
	 * Why the series stopped early ("run 3 failed: ..."), "" when it did
	 * not: main says it last, so that the last line is the reason.
	 */
	char *failure;
	size_t failure_len;
	struct prof_out *prof;	/* --profile-out, --timeline; or NULL */
};

struct summary_meta;

/*
 * What a summary line says of the study as a whole (the point, the
 * command line, the placement), filled in from o and io; the rest of m
 * zeroed.
 */
void study_meta(struct summary_meta *m, const struct client_opts *o,
		const struct study_io *io);
/* Runs the series for the point set in o; 0 when every run completed. */
int study_run_series(struct client_ctx *ctx, struct client_opts *o,
		     struct series *s, const struct study_io *io);

#endif
