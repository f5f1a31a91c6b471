/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What chat_c was asked to do (struct client_opts): filled once by the
 * command-line parser (workload/client/client_opts.c), then read by the
 * runs, the study and the summary line, which saves the point's settings.
 * A type only, so that its readers need not include the client's main
 * header.
 */
#ifndef CHATBENCH_CLIENT_OPTIONS_H
#define CHATBENCH_CLIENT_OPTIONS_H

#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/schedpol.h"
#include "workload/client/background.h"
#include "workload/client/openloop.h"

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
	enum trace_mode server_trace;	/* ask chat_s for its host's record */
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

#endif
