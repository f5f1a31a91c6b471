// SPDX-License-Identifier: GPL-2.0
/*
 * The one way a run fails, from any of its threads or the signal thread:
 * the first reason is kept, and every data socket is shut down so that
 * no thread stays blocked on one.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>

#include "workload/client/run_state.h"

void run_fail(struct cli_run *run, const char *fmt, ...)
{
	unsigned int i;
	va_list ap;

	pthread_mutex_lock(&run->lock);
	if (atomic_exchange(&run->failed, true)) {
		pthread_mutex_unlock(&run->lock);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(run->why, sizeof(run->why), fmt, ap);
	va_end(ap);
	/* Under the lock: close_users() may be retiring the descriptors. */
	for (i = 0; i < run->nconn; i++)
		if (run->conns[i].fd >= 0)
			shutdown(run->conns[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&run->lock);
}

/*
 * The reason under the lock: a SIGINT fails the run from the signal thread,
 * which sets the flag before it writes the text.
 */
void run_why(struct cli_run *run, char *buf, size_t len)
{
	pthread_mutex_lock(&run->lock);
	snprintf(buf, len, "%s", run->why);
	pthread_mutex_unlock(&run->lock);
}
