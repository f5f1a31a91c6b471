/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of one run of the client (struct run_result): its counts and
 * clock, the CPU it cost, its open-loop figures, what the kernel held of
 * its scheduling settings, and, when traced, the kernel record
 * (tracer/kstats_record.h).  client_run() fills it; the analysis, the
 * outputs and the loader of saved runs (results/) read it through this
 * header, without the client's functions.
 */
#ifndef CHATBENCH_RUN_RECORD_H
#define CHATBENCH_RUN_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "chatbench.h"
#include "tracer/kstats_record.h"
#include "util/cpuacct.h"
#include "util/lathist.h"
#include "util/schedpol.h"
#include "workload/client/openloop.h"

/* What an open-loop run (--rate) offered, achieved and how users waited. */
struct open_result {
	long rate;		/* per user */
	enum arrival arrival;
	double offered;		/* sends per second, all users */
	double achieved;	/* sends per second, release to the last send */
	double delivered;	/* receives per second, to the last receive */
	struct lat_summary lat;	/* intended send time to each arrival */
	int nrooms;
	struct lat_summary *rooms;
};

struct run_result {
	int run;		/* 1-based */
	int rooms;
	int messages;
	int users;
	uint64_t sent;
	uint64_t received;
	uint64_t start_ns;	/* CLOCK_MONOTONIC when threads were released */
	double elapsed_s;
	double throughput;	/* (sent + received) / elapsed_s */
	struct cpu_times cpu_client;	/* over the timed part of the run */
	struct cpu_times cpu_server;	/* invalid when the server is unknown */
	double steal_pct;	/* hypervisor steal, % of all CPUs' time */
	bool ok;
	bool interrupted;	/* by a signal: the counts are what was measured */
	char error[320];
	struct kstats *kernel;	/* NULL when untraced */
	/*
	 * The server's host, traced by chat_s and sent to this client at
	 * the end of the run (chat_s on another host): NULL when it was not
	 * asked for or not traced, and server_trace then says why ("" when
	 * not asked).  server_host is that host's name.  Its intervals are
	 * offsets from the run's start as the server saw it (its 0x11).
	 */
	struct kstats *server_kernel;
	char server_trace[160];
	char server_host[64];
	/*
	 * The server's name for the run's group (host:pid:group): the runs
	 * of chat_s --clients N released together share it, so that their
	 * clients' files can be merged into one view of the run.
	 */
	char server_group[96];
	struct ks_hist *latency; /* message delivery latency, ns */
	const char *sweep_param; /* the point of a sweep, or NULL */
	long sweep_value;
	const char *sweep_text;	/* a policy of --sweep sched, else NULL */
	uint64_t lat_unstamped;	/* units without a valid send stamp */
	struct open_result *open; /* --rate runs only */
	/* --sched and co: what the kernel held, read back, per worker role. */
	struct sched_got sched[CB_ROLE_OTHER];
	unsigned int sched_threads[CB_ROLE_OTHER];
	/* --background: the burners' progress over the timed part. */
	int bg_burners;
	double bg_loops_per_s;
};

/* Frees what r owns (kernel record, histograms, open-loop rooms). */
void run_record_release(struct run_result *r);

#endif
