/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of one cause of a slow run (src/analysis/cause_text.c).
 */
#ifndef CHATBENCH_CAUSE_TEXT_H
#define CHATBENCH_CAUSE_TEXT_H

#include "analysis/verdict.h"

struct kstats;

/*
 * Fills c's figure, now, base, text and, where one is to blame, its task
 * and pid, for the kind and share already in c: run k with figures s
 * against the reference figures r.
 */
void diag_describe(struct diag_cause *c, const struct kstats *k,
		   const struct kfigures *s, const struct kfigures *r);

#endif
