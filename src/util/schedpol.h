/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduling of the benchmark's own threads by role (--sched, --nice,
 * --slice): what was asked for each worker role, applied to a thread
 * with sched_setattr() and read back with sched_getattr(), so that what
 * a result says a thread ran under is what the kernel holds, not what we
 * hoped.
 */
#ifndef CHATBENCH_SCHEDPOL_H
#define CHATBENCH_SCHEDPOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "chatbench.h"

/* What one role asks for; unset parts keep the thread's own. */
struct sched_want {
	bool policy_set, nice_set, slice_set;
	int policy;		/* SCHED_OTHER, _BATCH, _IDLE, _FIFO, _RR */
	int prio;		/* 1-99 for fifo and rr */
	int nice;
	uint64_t slice_ns;	/* EEVDF slice request (sched_runtime) */
};

struct sched_spec {
	bool any;
	struct sched_want role[CB_ROLE_OTHER];
};

/* What a thread holds, read back. */
struct sched_got {
	int policy, prio, nice;
	uint64_t slice_ns;
};

enum sched_what { SCHED_WHAT_POLICY, SCHED_WHAT_NICE, SCHED_WHAT_SLICE };

/*
 * One --sched ROLE=POLICY[:PRIO], --nice ROLE=N or --slice ROLE=US.
 * ROLE is all, client, server or a worker role's name.  0, or -1 with
 * a one-line reason in err.
 */
int sched_spec_parse(struct sched_spec *s, enum sched_what what,
		     const char *arg, char *err, size_t len);
/* Whether the spec asks anything of role. */
bool sched_spec_has(const struct sched_spec *s, int role);
/*
 * Applies role's wants to thread tid (0: the caller) and reads back.
 * 0 when the kernel holds what was asked; -1 with why (the call failed,
 * or the kernel holds something else: a slice it ignored, say).
 */
int sched_apply(const struct sched_spec *s, int role, pid_t tid,
		struct sched_got *got, char *why, size_t len);
int sched_read(pid_t tid, struct sched_got *got);
const char *sched_policy_name(int policy);
/* "batch", "fifo:10", "other nice 5 slice 3000us": for text and JSON. */
void sched_got_format(const struct sched_got *g, char *buf, size_t len);

#endif
