/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of one run's clients merged (chatbench-compare given the files
 * of chat_s --clients N, results/merge_clients.h): one table of the runs,
 * each client's throughput and the run's, then the verdict on the merged
 * series (analysis/clients_judge.h).
 */
#ifndef CHATBENCH_CLIENTS_TEXT_H
#define CHATBENCH_CLIENTS_TEXT_H

#include <stdio.h>

struct clients_merge;
struct series;

/* missing: what the files lack for the verdict ("" when nothing). */
void clients_print(FILE *f, const struct clients_merge *m,
		   const struct series *s, const char *missing);

#endif
