// SPDX-License-Identifier: GPL-2.0
/*
 * Freeing a run's profile and timeline, apart from the profiler itself:
 * the kernel record owns them, and the tools that read records back link
 * no libbpf.
 */
#include <stdlib.h>

#include "tracer/profile_data.h"

void profile_free(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->st[i].frames);
	free(p->st);
	free(p);
}

void tl_events_free(struct tl_events *t)
{
	if (!t)
		return;
	free(t->ev);
	free(t);
}
