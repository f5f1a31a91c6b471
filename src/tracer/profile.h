/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiler of --profile and --timeline (bpf/profile.bpf.c seen from
 * user space): everything is attached once at open and switched on and
 * off with the run's clock, so nothing is attached or detached while a
 * run is timed.  A run's profile is its stacks, symbolized and merged,
 * as folded stacks (root first) per role and kind; its timeline is the
 * raw scheduler events of the benchmark's threads, kept in memory until
 * the study picks the window to write.
 */
#ifndef CHATBENCH_PROFILE_H
#define CHATBENCH_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "chatbench.h"

/* One merged stack: value is samples (on-CPU) or nanoseconds. */
struct prof_stack {
	int role;		/* CB_ROLE_*, or CB_PROF_OUTSIDER */
	int kind;		/* enum cb_prof_kind */
	char comm[16];		/* outsiders' command name */
	char *frames;		/* root first, ';' between, "" for none */
	uint64_t value;
};

struct profile {
	unsigned int hz;	/* 0: on-CPU sampling was off */
	uint64_t samples;	/* on-CPU samples of the benchmark's threads */
	uint64_t outsider_samples;
	uint64_t idle_samples;
	uint64_t lost;		/* keys not kept: the map was full */
	uint64_t stack_errors;
	uint64_t offcpu_ns[CB_NR_PROF_KINDS];	/* by kind, ONCPU unused */
	uint64_t run_time_ns;	/* the profiler's programs, in the kernel */
	uint64_t run_cnt;
	double cpu_share;	/* of all CPUs' time during the run */
	double expected_samples; /* hz x on-CPU s, set by the client */
	struct prof_stack *st;
	size_t n;
};

/* The timeline's events of one run, in the order the ring gave them. */
struct tl_events {
	struct cb_tl_event *ev;
	size_t n;
	uint64_t dropped;	/* by the ring or over the cap */
	uint64_t start_ns;	/* the run's clock start (CLOCK_MONOTONIC) */
	uint64_t end_ns;
};

struct profiler_opts {
	unsigned int hz;	/* on-CPU samples per second, 0: none */
	bool offcpu;		/* off-CPU stacks (with hz) */
	bool timeline;
	pid_t client_tgid;
	pid_t server_tgid;
	bool raw_tp;		/* the tracer fell back to raw_tp */
};

struct profiler;

/* NULL with one sentence in err when the programs cannot load/attach. */
struct profiler *profiler_open(const struct profiler_opts *o, char *err,
			       size_t errlen);
void profiler_begin(struct profiler *p);
/*
 * Stops and reads what the run recorded: *prof and *tl are set (either
 * may be NULL when not asked for or out of memory).
 */
void profiler_end(struct profiler *p, uint64_t wall_ns,
		  struct profile **prof, struct tl_events **tl);
void profiler_close(struct profiler *p);

void profile_free(struct profile *p);
void tl_events_free(struct tl_events *t);

#endif
