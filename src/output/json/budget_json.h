/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time budget as JSON (read back by src/results/budget_load.c, which
 * must agree on every name).
 */
#ifndef CHATBENCH_BUDGET_JSON_H
#define CHATBENCH_BUDGET_JSON_H

#include <stdbool.h>
#include <jansson.h>

struct ks_budget;

/*
 * The "budget" object: wall_ns, "threads" (one object per role with
 * threads, and "subjects", their sum) and "cpus".  brief: the subjects
 * and the CPUs only, for each interval.  null when not valid.
 */
json_t *budget_to_json(const struct ks_budget *b, bool brief);

#endif
