/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the profiler leaves of a run (tracer/profile.h): its stacks,
 * symbolized and merged, and its timeline's raw events.  A record type
 * and the functions that free it (tracer/profile_data.c), apart from the
 * profiler itself: the kernel record owns them, and the tools that read
 * records back link no libbpf.
 */
#ifndef CHATBENCH_PROFILE_DATA_H
#define CHATBENCH_PROFILE_DATA_H

#include <stddef.h>
#include <stdint.h>

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

void profile_free(struct profile *p);
void tl_events_free(struct tl_events *t);

#endif
