/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a saved time budget back (the inverse of budget_json.c). */
#ifndef CHATBENCH_BUDGET_LOAD_H
#define CHATBENCH_BUDGET_LOAD_H

#include <jansson.h>

struct ks_budget;

/*
 * Fills b from a "budget" object; b->valid false (and 0 returned) when
 * the record has none (files from before the budget).  -1 when the
 * object is malformed: a line that is not a number, lines that do not
 * add up to their whole.
 */
int budget_from_json(const json_t *o, struct ks_budget *b);

#endif
