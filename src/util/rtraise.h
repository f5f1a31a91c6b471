/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread raised to SCHED_FIFO 1 for a short stretch of bookkeeping
 * that must not wait behind a CPU thief: a run's edge snapshots, the
 * record a run leaves.  Beside hundreds of benchmark threads or a burner
 * at nice -20 a normal thread gets a fraction of a per cent of a CPU, and
 * a few milliseconds of work take seconds.  Best effort: without the
 * privilege it stays as it was.
 */
#ifndef CHATBENCH_RTRAISE_H
#define CHATBENCH_RTRAISE_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

struct rt_raised {
	bool raised;
	pthread_t thr;
	int policy;
	struct sched_param param;
};

/* Raises the calling thread if it is SCHED_OTHER. */
void rt_raise_self(struct rt_raised *r);
/* Puts the raised thread back, from any thread. */
void rt_lower(struct rt_raised *r);

#endif
