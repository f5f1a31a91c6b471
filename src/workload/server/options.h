/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What chat_s was asked to do (struct server_opts): filled once by the
 * command-line parser (workload/server/chat_s_opts.c), then read by the
 * server's loop (server.c) and the scheduler of runs (sched.c).  A type
 * only, so that the scheduler need not include the server's main header,
 * which calls it.
 */
#ifndef CHATBENCH_SERVER_OPTIONS_H
#define CHATBENCH_SERVER_OPTIONS_H

#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>

#include "util/schedpol.h"
#include "workload/proto.h"

struct srv_model;

/* --trace, --no-trace, or tracing when possible (srv_trace.h). */
enum srv_trace_mode { SRV_TRACE_AUTO, SRV_TRACE_ON, SRV_TRACE_OFF };

struct server_opts {
	struct sockaddr_in addr;
	int timeout_ms;		/* bound on every wait inside a run */
	int handshake_ms;	/* bound on a start message, from connect */
	struct chat_caps caps;
	int ready_fd;		/* >= 0: write the bound port there, close */
	bool quiet;		/* no per-run SRV: lines */
	long exit_after;	/* runs to serve, then exit; 0 = forever */
	unsigned int max_runs;	/* runs in progress at once; more wait */
	unsigned int clients;	/* runs released together (group size) */
	const struct srv_model *model;	/* --model, models.h */
	unsigned int loops;	/* event-loop threads of epoll, pool=N */
	/*
	 * --cpus and --pin: confine the server's threads (all of them, the
	 * control thread too) to cpus, or pin each to one CPU of it.
	 */
	cpu_set_t cpus;
	bool cpus_set;		/* --cpus given; else cpus is unused */
	bool pin;
	bool nodelay;		/* --nodelay: TCP_NODELAY on every connection */
	struct sched_spec sched;	/* --sched, --nice, --slice */
	enum srv_trace_mode trace;
};

#endif
