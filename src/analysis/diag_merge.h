/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One verdict of a run from the verdicts of its two hosts
 * (analysis/diag_merge.c): the client's, judged on the run's own kernel
 * record, and the server's, judged the same way on the record chat_s
 * traced on its own machine.
 */
#ifndef CHATBENCH_DIAG_MERGE_H
#define CHATBENCH_DIAG_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/verdict.h"

/*
 * v from the client host's verdict c and the server host's s of the same
 * run.  Traced on the client, the run is slow or disturbed when either
 * host says so; untraced there, the server's host decides.  The causes of
 * both are ranked together by share, each marked with its host, the
 * server's sentences prefixed with its name (server_host); the loss
 * account is that of the host whose named causes explain more.
 */
void diag_merge(struct diag_verdict *v, const struct diag_verdict *c,
		const struct diag_verdict *s, bool client_traced,
		const char *server_host);

/* Prefixes text (of len bytes) with "on the server's host (name): ". */
void diag_server_prefix(char *text, size_t len, const char *server_host);

#endif
