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
#include "tracer/profile_data.h"

struct profiler_opts {
	unsigned int hz;	/* on-CPU samples per second, 0: none */
	bool offcpu;		/* off-CPU stacks (with hz) */
	bool timeline;
	pid_t client_tgid;
	pid_t server_tgid;
	bool server_foreign;	/* its worker processes are the server's */
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

#endif
