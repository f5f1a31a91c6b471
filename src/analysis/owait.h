/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The budget's waits behind outsiders, split by outsider (owait.c).
 */
#ifndef CHATBENCH_OWAIT_H
#define CHATBENCH_OWAIT_H

#include "analysis/owait_record.h"

struct kstats;

/*
 * The subjects' wait behind each scheduling class of outsiders, shared
 * among the outsiders of that class in the run's stealers table in
 * proportion to the time each held a CPU while our threads waited there.
 * Writes at most max entries to out, largest first; returns how many.
 */
int outsider_waits(const struct kstats *k, struct ow_entry *out, int max);

#endif
