/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chat_c --clients N: N chat_c processes measured as one run against one
 * chat_s (given --clients N, which releases their runs together), the way
 * netperf's script runs one client per CPU and sums the results.
 */
#ifndef CHATBENCH_CLIENTS_H
#define CHATBENCH_CLIENTS_H

#include "study/study.h"

/*
 * Starts the clients (each a chat_c of its own rooms that traces itself
 * and the server), waits for them, and prints per run their sum, the
 * spread between them and each one's kernel record.  0 when every run of
 * every client completed; the reason of a failure in io->failure.
 */
int clients_study(const struct client_opts *o, pid_t server,
		  const struct study_io *io);

#endif
