// SPDX-License-Identifier: GPL-2.0
/*
 * The control plane's few ways of speaking: log lines, refusals and
 * waiting notices.  They sit apart so that the accept loop, the
 * handshakes and the scheduler of runs say things the same way without
 * depending on one another.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "workload/proto.h"
#include "workload/server/srvlog.h"

void srv_log(const char *fmt, ...)
{
	va_list ap;

	/* One line even when runs end on several threads at once. */
	flockfile(stderr);
	fputs("chat_s: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void srv_refuse(int ctl, const char *peer, const char *why)
{
	uint8_t msg[1 + CHAT_REASON_MAX];
	size_t n = strnlen(why, CHAT_REASON_MAX);

	srv_log("refused run from %s: %s", peer, why);
	msg[0] = CHAT_CTL_REFUSE;
	memcpy(msg + 1, why, n);
	/* Best effort: the client may already be gone. */
	(void)!send(ctl, msg, n + 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void srv_notice(int ctl, uint8_t notice)
{
	(void)!send(ctl, &notice, 1, MSG_OOB | MSG_NOSIGNAL | MSG_DONTWAIT);
}

int64_t srv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
