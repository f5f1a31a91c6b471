/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --baseline FILE: runs saved earlier with --json (another kernel, another
 * setting) as the reference that today's runs are judged against.
 */
#ifndef CHATBENCH_BASELINE_H
#define CHATBENCH_BASELINE_H

#include <stddef.h>

#include "analysis/diagnose.h"

struct baseline;

/* NULL with a one-line reason in err. */
struct baseline *baseline_load(const char *path, char *err, size_t len);
/*
 * The reference for a series of rooms x messages x users: the saved runs
 * of that same point when there are any, else all saved runs (and *exact
 * is false), with the kernel records of host (the server's host's, saved
 * as "server_host").  -1 when the file has no completed run.
 */
int baseline_ref(const struct baseline *b, int rooms, int messages,
		 int users, double pct, enum diag_host host,
		 struct diag_ref *ref, bool *exact);
/*
 * The saved runs in file order, up to max of them into out (pointing into
 * b): a saved series to be judged again as it was live.  Their number.
 */
size_t baseline_runs(const struct baseline *b, struct diag_run *out,
		     size_t max);
void baseline_free(struct baseline *b);

#endif
