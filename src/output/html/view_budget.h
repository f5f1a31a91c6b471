/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's time budget as the report draws it (view_budget.c): read back
 * from the run's JSON into its view, with the names and words of the
 * segments of its threads' bar.
 */
#ifndef CHATBENCH_REPORT_VIEW_BUDGET_H
#define CHATBENCH_REPORT_VIEW_BUDGET_H

#include <stddef.h>

#include "output/html/run_view.h"

/* A segment's name for markup ("wait_own", "blocked_ptrace"); words. */
const char *bt_name(int seg, char *buf, size_t len);
const char *bt_words(int seg);

/*
 * A run's time budget, its loss account when slow, and the segments of
 * its threads' bar, from its JSON.
 */
void view_budget(struct run_view *rv);

/*
 * The budget of one host's kernel record k (a run's "kernel", or its
 * server_host's) without a loss account: .bv.valid false when k has none
 * that adds up.
 */
void view_host_budget(const json_t *k, struct host_budget *hb);

#endif
