/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's profile in its JSON line ("profile"), and the scheduler
 * timeline of --timeline as a JSON trace (the trace event format that
 * Perfetto's UI and chrome://tracing open).
 */
#ifndef CHATBENCH_PROFILE_JSON_H
#define CHATBENCH_PROFILE_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct profile;
struct tl_events;

/*
 * The largest PROFILE_JSON_MAX_STACKS stacks of each kind; the rest are
 * summed into one "[other stacks]" entry per role, so totals stay whole.
 */
#define PROFILE_JSON_MAX_STACKS	2000

json_t *profile_to_json(const struct profile *p);

/*
 * The events of t in [from_ns, to_ns) (CLOCK_MONOTONIC) into path: a
 * slice per stretch each benchmark thread ran or waited to run, wakeups
 * (with the waker) and migrations as instants, and a track per CPU of
 * who ran there.  -1 with err set when the file cannot be written.
 */
int timeline_write(const char *path, const struct tl_events *t,
		   uint64_t from_ns, uint64_t to_ns, char *err, size_t len);

#endif
