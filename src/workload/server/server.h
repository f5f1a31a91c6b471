/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chat_s: serves runs on a listening socket until told to stop, several
 * at once (--max-runs), each client's start message read under its own
 * deadline.  The protocol (start message, accepts, 0x11, 0x22) is the
 * original's; the data plane is a model: two threads per connection as in
 * the original, or event loops (--model).
 */
#ifndef CHATBENCH_SERVER_H
#define CHATBENCH_SERVER_H

#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>

#include "util/schedpol.h"
#include "workload/proto.h"

struct srv_model;

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
};

/* Returns the process exit status. */
int server_serve(const struct server_opts *opts);

#endif
