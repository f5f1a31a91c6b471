/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress line for long runs on a terminal: run i of N, messages so
 * far, elapsed time, rewritten in place on stderr.  Nothing at all when
 * stderr is not a TTY, so piped output stays the original's text.
 */
#ifndef CHATBENCH_PROGRESS_H
#define CHATBENCH_PROGRESS_H

#include <stdint.h>

struct progress;

/*
 * done(arg) is the count of messages so far, read twice a second from the
 * progress thread (client_progress).  NULL (and no thread) when stderr is
 * not a terminal.
 */
struct progress *progress_start(uint64_t (*done)(void *arg), void *arg,
				long run, long runs, uint64_t total);
/* Stops the thread and clears the line. */
void progress_stop(struct progress *p);

#endif
