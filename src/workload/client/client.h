/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of the chat client: control connection, rooms x 20 data
 * connections, a sender and a receiver thread per connection released
 * together after 0x11, and the run's counts and clock.
 */
#ifndef CHATBENCH_CLIENT_H
#define CHATBENCH_CLIENT_H

#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/cpuacct.h"
#include "util/lathist.h"
#include "util/schedpol.h"
#include "workload/client/background.h"
#include "workload/client/openloop.h"

struct ks_hist;
struct kstats;
struct trace;

enum trace_mode { TRACE_AUTO, TRACE_ON, TRACE_OFF };

struct client_opts {
	struct sockaddr_in addr;
	bool have_addr;
	int port;
	int rooms;
	int messages;
	int users;		/* per room: 20, the original's fixed size */
	long runs;
	int clients;		/* --clients: chat_c processes of one run */
	unsigned int pause_ms;	/* idle time between runs */
	int timeout_ms;
	const char *json_path;
	const char *report_path;	/* --report FILE.html */
	bool local;
	bool quiet;
	bool verbose;
	enum trace_mode trace;
	unsigned int interval_ms;
	pid_t server_pid;
	bool have_cpus;		/* --cpus: confine the client's threads */
	cpu_set_t cpus;
	bool pin;		/* one CPU per thread, round-robin */
	bool nodelay;		/* --nodelay: TCP_NODELAY on data sockets */
	const char *server_model;	/* --local: chat_s --model */
	const char *server_cpus;	/* --local: chat_s --cpus */
	bool server_pin;		/* --local: chat_s --pin */
	double slow_pct;	/* slow: below the median by more than this % */
	const char *baseline;	/* --json file to compare with, or NULL */
	long rate;		/* --rate: sends per second per user; 0 saturates */
	enum arrival arrival;	/* --arrival */
	double slo_ms;		/* --slo: p99 bound of a rate sweep, or 0 */
	double duration_s;	/* --duration: messages = rate x this, or 0 */
	struct sched_spec sched;	/* --sched, --nice, --slice */
	struct bg_spec background;	/* --background */
	unsigned int profile_hz;	/* --profile[=HZ], 0: off */
	const char *profile_out;	/* --profile-out FILE: folded stacks */
	const char *timeline_path;	/* --timeline FILE: Chrome trace JSON */
	/* rooms, messages, users, rate, sched, nice, slice or NULL */
	const char *sweep_param;
	long sweep_values[64];
	char sweep_texts[64][16];	/* sched: the policies, as given */
	int sweep_n;
	FILE *text;		/* where the text report goes (main sets it) */
	char **argv;		/* the command line, for the JSON summary */
	int argc;
};

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

struct client_ctx;

struct client_ctx *client_ctx_new(const struct client_opts *o,
				  struct trace *tracer);
void client_ctx_free(struct client_ctx *ctx);
void client_ctx_set_tracer(struct client_ctx *ctx, struct trace *tracer);
/* The chat_s process (tgid) when known: its CPU time is reported too. */
void client_ctx_set_server(struct client_ctx *ctx, pid_t server);
/* --background's burners, whose progress each run reports. */
void client_ctx_set_background(struct client_ctx *ctx,
			       struct background *bg);
/* Whether client_abort() was called: no further run should start. */
bool client_stopped(struct client_ctx *ctx);
/* From any thread (the signal thread): end the current run now. */
void client_abort(struct client_ctx *ctx, const char *why);
/* Messages sent plus received so far in the current run (tracer). */
uint64_t client_progress(void *ctx);
/* 0 when the run completed with exact counts; res filled either way. */
int client_run(struct client_ctx *ctx, int run_no, struct run_result *res);

#endif
