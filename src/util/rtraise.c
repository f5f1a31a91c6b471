// SPDX-License-Identifier: GPL-2.0
/* Raising a thread to SCHED_FIFO 1 for a while, and back (rtraise.h). */
#include "util/rtraise.h"

void rt_raise_self(struct rt_raised *r)
{
	struct sched_param sp = { .sched_priority = 1 };

	r->raised = false;
	r->thr = pthread_self();
	/* A thread already real-time (or batch, idle) was set so: kept. */
	if (pthread_getschedparam(r->thr, &r->policy, &r->param) ||
	    r->policy != SCHED_OTHER)
		return;
	r->raised = !pthread_setschedparam(r->thr, SCHED_FIFO, &sp);
}

void rt_lower(struct rt_raised *r)
{
	if (r->raised)
		pthread_setschedparam(r->thr, r->policy, &r->param);
	r->raised = false;
}
