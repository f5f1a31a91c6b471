/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why one series is slower (or faster) than another: the per-message
 * time budgets of both (src/tracer/budget.h) and the kernel figures
 * behind them, side by side, each difference with its bootstrap interval
 * over the runs, and the budget lines ranked by how much of the
 * throughput difference each accounts for.  Only a throughput difference
 * whose interval excludes zero is explained, and only by lines whose own
 * interval excludes zero and that moved with it: two series of one
 * setting rank nothing.  Used by chatbench-compare --explain and the
 * report of several files.
 */
#ifndef CHATBENCH_EXPLAIN_H
#define CHATBENCH_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/explain_record.h"

struct result_group;

/*
 * Explains group g against base group bg (the same sweep point of two
 * files).  0 with e filled (e->valid false and e->missing saying why when
 * the runs lack kernel records or time budgets); -1 with a one-line
 * reason in err when a run line is malformed or memory runs out.
 */
int explain_groups(const struct result_group *g, const struct result_group *bg,
		   struct explain *e, char *err, size_t len);

/*
 * Whether this series did worse than the base: less throughput, or more
 * latency.  Its budget lines that grew are then the ones that account.
 */
bool explain_worse(const struct explain *e);

/* The ranked line of part with rank r (1: first), or NULL. */
const struct ex_line *explain_ranked(const struct explain *e,
				     enum ex_part part, int r);

/*
 * The one sentence that says it, as far as the intervals allow: "B is
 * 11.8 % slower than A (95 % CI 8.9-14.6 %): most of it (7.2 points) is
 * waiting to run behind its own threads, with ...; the rest is not
 * explained by the kernel record."  Returns buf.
 */
const char *explain_sentence(const struct explain *e, const char *label,
			     const char *base, char *buf, size_t len);

/*
 * What the sentence cannot say: that series recorded one after the
 * other carry the machine's drift between them (a real difference of
 * the machine, not of the setting); NULL when there is nothing to add.
 */
const char *explain_caveat(const struct explain *e);

/*
 * Along a sweep: given the explanations of one file's points in sweep
 * order, the first point from which on every throughput difference is
 * real and of one sign; n when there is none (the difference is not
 * there at the last point).
 */
size_t explain_onset(const struct explain *const *e, size_t n);

#endif
