/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of one run's clients as one run (issue 31): chat_s --clients
 * N releases the start messages of N chat_c processes (on N hosts)
 * together, each client writes its own file with its own runs and the
 * same record of the server's host per run, and the run's group name
 * (server_host.group, "host:pid:group") ties them together.  Files whose
 * run k all carry the same group for every k are the clients of one
 * series, and the tools show them as one: a run is its clients' messages
 * summed over the longest client's elapsed time.  Two hosts' clocks are
 * never compared: no start time of one file is subtracted from
 * another's, only each client's own elapsed is read.
 */
#ifndef CHATBENCH_MERGE_CLIENTS_H
#define CHATBENCH_MERGE_CLIENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "results/results.h"

struct saved_runs;

/* Run k of the series: its clients' run k, merged. */
struct clients_run {
	int run;
	bool ok;		     /* every client's run completed */
	const char *group;	     /* into the first file */
	uint64_t sent, received;     /* summed over the clients */
	double elapsed_s;	     /* the longest client's */
	double throughput;	     /* (sent + received) / elapsed_s */
	size_t slowest;		     /* the client whose elapsed that is */
	const json_t *server_kernel; /* the server's host's; NULL: none */
	/* Each client's run line, nclients of them; its "kernel" if traced. */
	const struct result_run **client;
};

struct clients_merge {
	size_t nclients;
	size_t nruns;
	/*
	 * A client's name: its host's (the summary's "host"), with its file's
	 * name after it when two clients share a host name.
	 */
	char **label;
	const char *server_name; /* "" when the files do not say */
	struct clients_run *runs;
};

/*
 * Whether files[0..n) are the clients of one series: two or more files of
 * one group each (no sweep), the same number of runs, and run k of every
 * file carrying one non-empty group name, the same in every file and
 * different from run k's of none (a file given twice is not two clients).
 */
bool clients_mergeable(const struct result_file *files, size_t n);

/*
 * The merged runs of files (clients_mergeable) into m: pointers into files,
 * which must outlive m.  0, or -1 when out of memory (m then empty;
 * clients_merge_free is safe either way).
 */
int clients_merge(const struct result_file *files, size_t n,
		  struct clients_merge *m);
void clients_merge_free(struct clients_merge *m);

/*
 * The merged runs as run records for the analysis (struct saved_runs, see
 * series_load.h): the first file's records, each run's counts summed, its
 * elapsed the longest client's, its message latency the clients'
 * histograms added, its server_kernel the server's host's record.  No
 * run carries a client's host's record (kernel NULL): one host's record
 * of one client's threads would be read against every client's messages.
 * Arguments and result as for saved_runs_load().
 */
int clients_saved_runs(const struct clients_merge *m,
		       const struct result_file *files, struct saved_runs *out,
		       char *missing, size_t mlen, char *err, size_t len);

#endif
