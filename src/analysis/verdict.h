/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict on a run and the reference it was judged against, as the
 * diagnosis (analysis/diagnose.c) leaves them: slow or not, disturbed or
 * not, the causes ranked by the share of the loss each accounts for, and
 * the loss account itself.  A record type only, so that the outputs and
 * the loaders read a verdict without the diagnosis' functions.
 */
#ifndef CHATBENCH_VERDICT_H
#define CHATBENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "analysis/causes.h"
#include "analysis/kfigures.h"
#include "analysis/loss.h"

/* One cause of a slow run, with its share and its sentence. */
struct diag_cause {
	enum cause_kind kind;
	enum diag_host host;	/* whose kernel record showed it */
	double share;		/* of the lost throughput, 0..1 */
	char task[16];		/* outsider_cpu: the task */
	pid_t pid;
	double now, base;	/* the headline figure, and its reference */
	const char *figure;	/* its name, e.g. "rq_p99_ns" */
	char text[480];
};

#define DIAG_MAX_CAUSES 4

/* What runs are held against: the median run of the normal ones. */
struct diag_ref {
	size_t n;		/* runs it was made from */
	double tp_median;
	double tp_sd;		/* robust standard deviation of throughput */
	double margin;		/* below tp_median - margin is slow */
	double drop;		/* ... and below tp_median - drop if disturbed */
	bool have_kernel;
	struct kfigures kf;	/* per-figure medians of the traced runs */
	struct kfigures kf_sd;	/* per-figure robust standard deviations */
	struct loss_pm pm;	/* per-line medians of their time budgets */
};

struct diag_verdict {
	bool slow;
	bool disturbed;		/* some kernel figure far outside the reference */
	unsigned int evidence;	/* 1 << cause_kind of every such figure */
	double shortfall;	/* 1 - throughput / reference median */
	int ncauses;
	struct diag_cause causes[DIAG_MAX_CAUSES];
	bool nothing_stands_out;
	/*
	 * With time budgets on both sides, the loss is an account: the
	 * causes' shares come from it, and what no cause explains is
	 * unexplained (0..1).  Without, the shares are the older estimate
	 * and unexplained is negative (not known).
	 */
	bool by_budget;
	double unexplained;
	struct loss_account acct;
	enum diag_host acct_host;	/* whose budgets the account is of */
};

#endif
