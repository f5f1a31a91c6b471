/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow runs and their kernel-side cause.  Each kernel figure of a run is
 * held against the same figure in the other runs (median and robust
 * spread per figure, so that one noisy run cannot hide a disturbed one):
 * a figure far outside is evidence that the run was disturbed.  A run is
 * slow when its throughput falls below the reference by more than the
 * series' noise, or when it was disturbed, its throughput fell by more
 * than a smaller margin and the evidence accounts for some of the loss.
 * The causes of a slow run are ranked by how much of the lost throughput
 * each accounts for, and only causes with evidence are named.
 */
#ifndef CHATBENCH_DIAGNOSE_H
#define CHATBENCH_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "analysis/verdict.h"

struct kstats;

/* One run as the diagnosis sees it. */
struct diag_run {
	double throughput;
	double steal_pct;	/* hypervisor steal during the run, of all CPUs */
	const struct kstats *k;	/* NULL: untraced */
};

/*
 * The reference from runs (all of them, or a baseline's): median and
 * robust spread of throughput, margin max(3 SD, pct % of the median) and
 * drop max(1 SD, 5 %), then the kernel medians and spreads of the runs
 * that are not slow by that margin.
 */
void diag_reference(const struct diag_run *runs, size_t n, double pct,
		    struct diag_ref *ref);
/* Whether r was disturbed and whether it is slow against ref, and why. */
void diag_explain(const struct diag_run *r, const struct diag_ref *ref,
		  struct diag_verdict *v);
/*
 * A series judged by itself: first each run's figures against the other
 * runs' (so a disturbed run does not widen its own yardstick), then the
 * reference from the runs that are neither disturbed nor far below, and
 * every run explained against it.  v has n entries.
 */
void diag_judge(const struct diag_run *runs, size_t n, double pct,
		struct diag_ref *ref, struct diag_verdict *v);

#endif
