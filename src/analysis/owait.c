// SPDX-License-Identifier: GPL-2.0
/*
 * Who our threads waited behind, by outsider.  The budget counts the
 * waiting threads per holder class (the integral of the number queued
 * over each holder's slices, bpf/sched.bpf.c), and the stealers table
 * counts, per outsider, the CPU time it held while at least one of our
 * threads waited there.  A class's wait is shared among its outsiders
 * by the latter: exact when one outsider of the class ran, and close
 * when several did, unless they stole from queues of very different
 * lengths.  The table keeps the top KS_TOP_STEALERS only: a class whose
 * smaller outsiders fell off it is shared among the ones kept.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/owait.h"
#include "tracer/kstats.h"

static int by_wait(const void *x, const void *y)
{
	uint64_t a = ((const struct ow_entry *)x)->wait_ns;
	uint64_t b = ((const struct ow_entry *)y)->wait_ns;

	return (a < b) - (a > b);
}

/* An outsider with a known class: not our own roles, not idle. */
static bool outsider(const struct ks_stealer *s)
{
	return !s->is_benchmark && s->pid > 0 && s->sclass >= 0 &&
	       s->sclass < CB_NR_CLASSES;
}

int outsider_waits(const struct kstats *k, struct ow_entry *out, int max)
{
	struct ow_entry all[KS_TOP_STEALERS];
	double held[CB_NR_CLASSES] = { 0 }, w;
	int i, c, n = 0;

	if (!k || !k->budget.valid)
		return 0;
	for (i = 0; i < k->nr_stealers; i++)
		if (outsider(&k->stealer[i]))
			held[k->stealer[i].sclass] += (double)k->stealer[i].ns;
	for (i = 0; i < k->nr_stealers; i++) {
		const struct ks_stealer *s = &k->stealer[i];

		c = s->sclass;
		if (!outsider(s) || held[c] <= 0)
			continue;
		w = (double)k->budget.subjects.wait_by[CB_HOLD_CLASS(c)] *
		    (double)s->ns / held[c];
		if (w < 1)
			continue;
		memset(&all[n], 0, sizeof(all[n]));
		memcpy(all[n].comm, s->comm, sizeof(all[n].comm));
		all[n].comm[sizeof(all[n].comm) - 1] = '\0';
		all[n].pid = s->pid;
		all[n].sclass = c;
		all[n].wait_ns = (uint64_t)w;
		n++;
	}
	qsort(all, (size_t)n, sizeof(*all), by_wait);
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof(*out));
	return n;
}
