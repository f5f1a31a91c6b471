/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON lines output: one object per run, then one {"summary": ...} line
 * per series (json_out_summary ends a series).  Field names are stable;
 * schema_version says when they change.
 */
#ifndef CHATBENCH_OUTPUT_JSON_H
#define CHATBENCH_OUTPUT_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "workload/client/run_record.h"
#include "workload/client/server_info.h"
#include "util/stats.h"

/*
 * 2: the kernel object's sockets count send-queue samples (sndq_samples,
 * was sends_sampled) and gain processes, system, stopped and frozen
 * times; runs gain disturbed, evidence and phases, summaries verdict.
 * 3: the kernel object gains softirq_source ("ticks" by default: then
 * each CPU's softirq_ns is the kernel's tick-sampled time and its vectors
 * have counts only).
 * 4: the summary's verdict says its verdict_version and
 * slow_threshold_pct, so that chatbench-judge can re-judge the file as
 * it was judged live.
 * 5: runs gain server_host (name, trace, kernel: the record chat_s took of
 * its own host) when chat_s was asked to trace, and causes their host.
 */
#define CHATBENCH_SCHEMA_VERSION 5

struct json_out;

/*
 * Opens (creates, truncates) path, or stdout for "-", or nothing for NULL
 * (the lines are only kept, for json_out_save); NULL with err.
 */
struct json_out *json_out_open(const char *path, char *err, size_t len);
/* Every finished series' lines into path (e.g. for the HTML report). */
int json_out_save(struct json_out *j, const char *path);
int json_out_run(struct json_out *j, const struct run_result *r);
/* Adds key to the idx-th run of the current series (e.g. its verdict). */
int json_out_set(struct json_out *j, size_t idx, const char *key,
		 json_t *value);
/* What a series' summary line says besides its statistics. */
struct sweep_row;

struct summary_meta {
	int rooms, messages, users;	/* the point */
	int argc;			/* the command line */
	char *const *argv;
	bool nodelay;
	size_t attempted;
	const char *trace_state;
	bool interrupted;
	const char *sweep_param;	/* NULL without a sweep */
	long sweep_value;
	const char *sweep_text;		/* NULL: the value is the number */
	const char *client_cpus;
	bool client_pin;
	const char *client_autogroup;	/* "" or NULL: unknown */
	const struct server_info *server;
	json_t *verdict;		/* stolen; NULL: none */
	const struct sweep_row *row;	/* the series' medians, or NULL */
};

/* Ends the series: its summary line, and the series' lines made final. */
int json_out_summary(struct json_out *j, const struct stats *s,
		     const struct summary_meta *m);
/*
 * chatbench-judge: a saved run line (copied, with the verdict keys of
 * its old judgement dropped) into the current series, and a saved
 * summary object, whose "verdict" becomes verdict (stolen; NULL: none),
 * to end it.
 */
int json_out_saved_run(struct json_out *j, const json_t *run);
int json_out_saved_summary(struct json_out *j, const json_t *summary,
			   json_t *verdict);
/* 0, or -1 if anything written was lost (close/flush failure). */
int json_out_close(struct json_out *j);

#endif
