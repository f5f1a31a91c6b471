/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back the JSON-lines result files that chat_c --json writes, so
 * that every tool (the kernel comparison, the HTML report, --baseline)
 * loads them the same way and agrees on what a file says.  A file is a
 * list of groups, one per sweep point (one group when there is no sweep):
 * the run lines of that point and the summary line that closes it.  Each
 * run and summary keeps its parsed scalar fields beside its json_t, so
 * that callers can read what is not parsed here (the kernel object, the
 * CPU times) without parsing the file again.
 */
#ifndef CHATBENCH_RESULTS_H
#define CHATBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "results/results_hist.h"
#include "util/stats.h"

struct result_run {
	size_t line;		/* 1-based line in the file */
	int run;
	bool ok;
	int rooms;
	int messages;
	int users_per_room;	/* 0 when absent */
	uint64_t messages_sent;
	uint64_t messages_received;
	uint64_t total_messages;
	double elapsed_s;
	double throughput;	/* messages per second */
	const char *error;	/* failed runs; NULL otherwise */

	bool has_latency;	/* message latency histogram present */
	uint64_t lat_count;
	uint64_t lat_p50_ns;
	uint64_t lat_p90_ns;
	uint64_t lat_p99_ns;
	uint64_t lat_max_ns;

	bool traced;		/* the line has a "kernel" object */
	bool has_rq_p99;	/* traced, and the subject roles had samples */
	uint64_t rq_p99_ns;	/* subject roles' run-queue latency, merged */

	json_t *json;		/* the whole line (owned) */
};

struct result_summary {
	bool present;
	size_t line;
	int schema_version;
	int runs;		/* completed runs */
	int runs_attempted;
	double avg;
	double min;
	double max;
	double median;
	double mad;
	double rel_spread;
	int rooms;
	int messages;
	int users_per_room;
	int message_size;
	int cpus;
	bool interrupted;
	/* Point into json; NULL when absent. */
	const char *kernel_release;
	const char *host;
	const char *version;
	const char *command_line;
	const char *tracing;
	json_t *json;		/* the object under "summary" (owned) */
};

struct result_group {
	json_t *sweep;		/* the "sweep" object; NULL when not a sweep */
	const char *sweep_param;	/* into sweep; NULL when not a sweep */
	char sweep_label[64];	/* "rooms=4"; "" when not a sweep */
	struct result_summary summary;	/* .present false: runs only */
	struct result_run *runs;
	size_t nr_runs;
	size_t cap_runs;	/* allocated runs; the loader's business */
	struct stats stats;	/* throughput of the ok runs, computed here */
};

struct result_file {
	char *path;
	/* The first summary's kernel_release, NULL when none says. */
	const char *kernel_release;
	struct result_group *groups;	/* in file order */
	size_t nr_groups;
};

/*
 * Runs after the last summary line (a chat_c killed before it could write
 * one) are kept as a group without summary either way; without this flag a
 * file with no summary line at all is an error.
 */
#define RESULTS_ALLOW_NO_SUMMARY	0x1

/*
 * Loads path into out.  0 on success; -1 with a one-line reason in err
 * ("line 3: not JSON: ...") and out left empty (results_free is still
 * safe) when the file is missing, unreadable, empty, not JSON lines, or
 * holds no summary line.
 */
int results_load(const char *path, struct result_file *out, char *err,
		 size_t len);
int results_load_flags(const char *path, unsigned int flags,
		       struct result_file *out, char *err, size_t len);
void results_free(struct result_file *f);

/* A per-run value for results_median; false when the run has none. */
typedef bool (*results_value_fn)(const struct result_run *r, double *v);

/* Only ok runs have values: a failed run's figures are partial. */
bool results_run_throughput(const struct result_run *r, double *v);
bool results_run_lat_p99(const struct result_run *r, double *v);
bool results_run_rq_p99(const struct result_run *r, double *v);

/*
 * The values of fn over the group's runs, in run order, in a new array
 * (free it) with their number in *n; NULL when out of memory.
 */
double *results_values(const struct result_group *g, results_value_fn fn,
		       size_t *n);

/* Median of fn over the group's runs; the number of values (0: none). */
size_t results_median(const struct result_group *g, results_value_fn fn,
		      double *median);

/*
 * The group's throughput avg, min and max: the summary's when there is
 * one, else computed from the ok runs.  n gets the number of completed
 * runs they stand for.
 */
void results_throughput(const struct result_group *g, double *avg,
			double *min, double *max, int *n);

/*
 * Whether the summary agrees with the run lines (run count, avg, min and
 * max to a relative 1e-9).  0 when it does or cannot be checked (no
 * summary, no run lines); 1 with what differs in msg when it does not.
 */
int results_check_summary(const struct result_group *g, char *msg,
			  size_t len);

/* Whether two "sweep" objects name the same point (NULL: no sweep). */
bool results_sweep_equal(const json_t *a, const json_t *b);

/* The group of f at the same sweep point as sweep (NULL: not a sweep). */
const struct result_group *results_find_group(const struct result_file *f,
					      const json_t *sweep);

#endif
