/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict on the merged runs of one run's clients (chat_s --clients N,
 * results/merge_clients.h): the merged series judged by series_analyse()
 * like any series, the one path every verdict takes.  Its kernel record
 * is the server's host's alone: a client's host's record accounts for
 * that client's threads only, and its budget per message read against
 * every client's messages would be a wrong account, so the clients'
 * hosts are shown beside the verdict, not judged in it.
 */
#ifndef CHATBENCH_CLIENTS_JUDGE_H
#define CHATBENCH_CLIENTS_JUDGE_H

#include <stddef.h>

struct clients_merge;
struct result_file;
struct series;

/*
 * s (zeroed first) from m's runs, judged against its own median with the
 * first file's slow threshold (10 % when it says none).  missing as for
 * saved_runs_load().  0, or -1 with a one-line reason in err; release s
 * with series_free() either way.
 */
int clients_judge(const struct clients_merge *m,
		  const struct result_file *files, struct series *s,
		  char *missing, size_t mlen, char *err, size_t len);

#endif
