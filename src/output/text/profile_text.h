/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's profile as text: the summary line under the kernel record, the
 * hottest functions per role, and the folded stacks of --profile-out (one
 * line per stack, root first, "frame;frame;frame value", the format that
 * flame-graph tools read).
 */
#ifndef CHATBENCH_PROFILE_TEXT_H
#define CHATBENCH_PROFILE_TEXT_H

#include <stdio.h>

struct profile;

/* The name a stack's first frame carries: its role, or an outsider's comm. */
const char *profile_owner(const struct profile *p, size_t i);

void profile_print_text(FILE *f, const struct profile *p);

/*
 * On-CPU stacks into on (samples), off-CPU stacks into off (microseconds,
 * "[runqueue]" or "[blocked]" as the second frame); either may be NULL.
 * -1 when a write failed.
 */
int profile_write_folded(FILE *on, FILE *off, const struct profile *p);

#endif
