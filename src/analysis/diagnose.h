/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow runs and their kernel-side cause.  A run is slow when its
 * throughput falls below the reference median by more than a robust
 * margin; its kernel figures are then compared with the reference's and
 * the differences ranked by how much of the lost throughput each can
 * account for.
 */
#ifndef CHATBENCH_DIAGNOSE_H
#define CHATBENCH_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "analysis/kfigures.h"

struct kstats;

enum cause_kind {
	CAUSE_OUTSIDER_CPU,	/* another task took the CPUs */
	CAUSE_SCHED_CONTENTION,	/* benchmark threads queued behind each other */
	CAUSE_CPU_IDLE,		/* CPUs idle while the run was slow */
	CAUSE_SOFTIRQ,		/* network receive work grew or starved */
	CAUSE_SOCKET_BACKPRESSURE,
	CAUSE_BENCHMARK_WORK,	/* more CPU per message, no other evidence */
	CAUSE_STEAL,		/* the hypervisor ran something else */
	CAUSE_NR,
};

extern const char *const cause_kind_names[CAUSE_NR];

struct diag_cause {
	enum cause_kind kind;
	double share;		/* of the lost throughput, 0..1 */
	char task[16];		/* outsider_cpu: the task */
	pid_t pid;
	double now, base;	/* the headline figure, and its reference */
	const char *figure;	/* its name, e.g. "rq_p99_ns" */
	char text[400];
};

#define DIAG_MAX_CAUSES 4

/* One run as the diagnosis sees it. */
struct diag_run {
	double throughput;
	double steal_pct;	/* hypervisor steal during the run, of all CPUs */
	const struct kstats *k;	/* NULL: untraced */
};

/* What slow runs are compared with: the median normal run. */
struct diag_ref {
	size_t n;		/* runs it was made from */
	double tp_median;
	double tp_mad;
	double margin;		/* below tp_median - margin is slow */
	bool have_kernel;
	struct kfigures kf;	/* per-figure medians of the traced runs */
};

struct diag_verdict {
	bool slow;
	double shortfall;	/* 1 - throughput / reference median */
	int ncauses;
	struct diag_cause causes[DIAG_MAX_CAUSES];
	bool nothing_stands_out;
};

/*
 * The reference from runs (all of them, or a baseline's): median and MAD
 * of throughput, margin max(3 MAD, pct % of the median), then the kernel
 * medians of the runs that are not slow by that margin.
 */
void diag_reference(const struct diag_run *runs, size_t n, double pct,
		    struct diag_ref *ref);
/* Whether r is slow against ref, and if so why. */
void diag_explain(const struct diag_run *r, const struct diag_ref *ref,
		  struct diag_verdict *v);

/* A dip inside one run, found in its per-interval series. */
struct diag_dip {
	double from_s, to_s;	/* offsets from the run's start */
	double throughput;	/* lowest interval of the dip */
	double median;		/* the run's median interval */
	char why[240];
};

#define DIAG_MAX_DIPS 3
#define DIAG_DIP_MIN_INTERVALS 2

/*
 * Runs of at least DIAG_DIP_MIN_INTERVALS consecutive intervals below
 * the run's own median by the same robust margin.
 */
int diag_find_dips(const struct kstats *k, double pct, struct diag_dip *out,
		   int max);

#endif
