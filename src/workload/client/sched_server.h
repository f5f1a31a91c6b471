/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --sched, --nice and --slice for the server's roles, set by the client
 * on the server's threads through /proc (root or CAP_SYS_NICE), so that
 * one command schedules both sides, whatever started chat_s.
 */
#ifndef CHATBENCH_SCHED_SERVER_H
#define CHATBENCH_SCHED_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/schedpol.h"

/* What was set on how many threads of each role, read back. */
struct sched_tally {
	struct sched_got got[CB_ROLE_OTHER];
	unsigned int n[CB_ROLE_OTHER];
};

/* Whether spec asks anything of a server role. */
bool sched_server_asked(const struct sched_spec *spec);
/*
 * Threads of server that still carry the process's own name: taken
 * before a run, since a new thread names itself only when it runs.
 */
unsigned int sched_server_unnamed(pid_t server);
/*
 * Sets every thread of server named by a role spec asks for, scanning
 * again until no more are unnamed than before the run (3 s at most).
 * 0, or -1 with a one-line reason in why.
 */
int sched_server_apply(pid_t server, const struct sched_spec *spec,
		       unsigned int unnamed_before, struct sched_tally *t,
		       char *why, size_t len);

#endif
