/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loss of a slow run explained by the time budget (tracer/budget.h):
 * both runs' budgets per message, the growth of every line, and which
 * cause each growth is.  The CPUs' lines add up to the CPU supply per
 * message, so their growths add up to the time lost per message exactly;
 * the threads' lines say why the CPUs idled (stopped, traced, frozen,
 * sleeping uninterruptibly, or a late wakeup) and so split the idle
 * line's growth among those causes.  A line that shrank is never a cause.
 */
#ifndef CHATBENCH_LOSS_H
#define CHATBENCH_LOSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/causes.h"
#include "tracer/budget.h"

/* The lines of a budget per message: the CPUs', then the threads'. */
#define LL_CPU(l)	(l)				/* enum kb_cpu_line */
#define LL_ONCPU	KB_NR_CPU_LINES
#define LL_WAIT(h)	(LL_ONCPU + 1 + (h))	/* CB_HOLD_*, KB_HOLD_* */
#define LL_WAIT_UNKNOWN	LL_WAIT(KB_NR_HOLDERS)
#define LL_BLOCK(b)	(LL_WAIT_UNKNOWN + 1 + (b))	/* enum cb_block */
#define LL_GONE		LL_BLOCK(CB_NR_BLOCKS)
#define LL_NR		(LL_GONE + 1)

struct loss_pm {
	bool valid;
	double v[LL_NR];	/* ns per message (or per ns of wall) */
	double supply;		/* the CPU supply in the same unit */
	double threads;		/* the subjects' threads x wall, likewise */
	double ncpus;		/* CPUs the supply is of */
};

/* A budget per message; invalid without a budget or messages. */
void loss_pm_of(const struct ks_budget *b, uint64_t messages,
		struct loss_pm *pm);
/*
 * A budget per ns of wall: each CPU line as CPUs busy with it, each
 * thread line as threads in it.  For a dip, whose messages may be none.
 */
void loss_pm_rate(const struct ks_budget *b, struct loss_pm *pm);
/* Per-line medians of the valid ones of pm[0..n); invalid when none. */
void loss_pm_median(const struct loss_pm *pm, size_t n, struct loss_pm *out);
/*
 * Scales every line of pm so that its CPU lines add up to the supply per
 * message of throughput tp: the per-line medians of a series whose runs
 * went at different speeds add up to no run's, and a reference must
 * cost what its median throughput says, or the lines' growths would not
 * add up to the loss the clock measured.
 */
void loss_pm_scale_to(struct loss_pm *pm, double tp);

/* A line's name for outputs: "cpu:idle", "wait:srv_snd", "blocked:ptrace". */
const char *loss_line_name(int line, char *buf, size_t len);

#define LOSS_MAX_PARTS	CAUSE_NR

struct loss_part {
	enum cause_kind kind;
	double share;		/* of the loss, 0..1 */
	int line;		/* the line that grew most for it */
};

struct loss_account {
	bool valid;
	double lost_ns;		/* CPU supply per message, slow - reference */
	double grown_ns;	/* the lines' growths that were positive */
	double grown[LL_NR];	/* every line's growth per message */
	int nparts;
	struct loss_part part[LOSS_MAX_PARTS];
	double unexplained;	/* 1 - the named shares */
};

/*
 * The account of run s against reference r.  evidence is the set of
 * cause kinds (1 << kind) whose figures are far outside the reference:
 * a growth whose mechanism is ambiguous (the CPUs idle, the benchmark's
 * own work) goes to the cause with evidence, else stays unexplained.
 */
void loss_explain(const struct loss_pm *s, const struct loss_pm *r,
		  unsigned int evidence, struct loss_account *a);

#endif
