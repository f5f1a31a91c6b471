// SPDX-License-Identifier: GPL-2.0
/*
 * What the server says on the control connection between the start
 * message and the release: nothing, a refusal with its reason, notices
 * of a queued or grouped run (urgent data), or 0x11.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "workload/client/control.h"
#include "workload/netio.h"
#include "workload/proto.h"

/*
 * A server that refuses a run says so on the control connection (our
 * 0x15 plus a reason) or just closes it (the original, or a crash).
 * Returns 1 with the reason in why if the control connection has spoken.
 */
int ctl_spoke(int ctl, int wait_ms, uint8_t *first, char *why, size_t len)
{
	char reason[CHAT_REASON_MAX + 1];
	ssize_t r, i;

	if (net_wait_readable(ctl, wait_ms) <= 0)
		return 0;
	r = recv(ctl, first, 1, MSG_DONTWAIT);
	if (r == 1 && *first == CHAT_CTL_READY)
		return 1;
	if (r <= 0) {
		snprintf(why, len,
			 "the server closed the control connection%s%s (see its log)",
			 r < 0 ? ": " : "", r < 0 ? strerror(errno) : "");
		return 1;
	}
	if (*first != CHAT_CTL_REFUSE) {
		snprintf(why, len, "the server sent 0x%02x instead of 0x11",
			 *first);
		return 1;
	}
	net_set_timeouts(ctl, 1000);
	r = net_read_full(ctl, reason, CHAT_REASON_MAX);
	reason[r > 0 ? r : 0] = '\0';
	/* A hostile server's bytes must not drive the user's terminal. */
	for (i = 0; reason[i]; i++)
		if (reason[i] < 0x20 || reason[i] > 0x7e)
			reason[i] = '?';
	snprintf(why, len, "the server refused the run: %s",
		 r > 0 ? reason : "no reason given");
	return 1;
}

/* A notice of the server that makes the run wait, said when it changes. */
static void read_notice(int ctl, uint8_t *last)
{
	char text[160];
	uint8_t b;

	if (recv(ctl, &b, 1, MSG_OOB | MSG_DONTWAIT) != 1) {
		/* The urgent pointer came before its byte: it is on its way. */
		usleep(1000);
		return;
	}
	if (b == *last)
		return;
	*last = b;
	proto_notice_text(b, text, sizeof(text));
	fprintf(stderr, "chat_c: %s\n", text);
}

/*
 * 0x11 or a refusal within the timeout, which each notice of a server
 * that makes the run wait (proto.h CHAT_NOTICE_*) starts again: a queued
 * run waits as long as the server says so, a silent server is bounded.
 */
int ctl_wait_ready(int ctl, int timeout_ms, const atomic_bool *stop, char *why,
		   size_t len)
{
	uint64_t timeout = (uint64_t)timeout_ms * 1000000;
	uint64_t deadline = now_ns() + timeout;
	uint8_t b = 0, last = 0;

	*why = '\0';
	for (;;) {
		struct pollfd p = { .fd = ctl, .events = POLLIN | POLLPRI };

		/* In slices: SIGINT fails the run from the signal thread. */
		if (atomic_load(stop))
			return -1;
		if (now_ns() >= deadline) {
			snprintf(why, len,
				 "no 0x11 from the server within %d ms (busy with another client?)",
				 timeout_ms);
			return -1;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (p.revents & POLLPRI) {
			read_notice(ctl, &last);
			deadline = now_ns() + timeout;
			continue;
		}
		if (!ctl_spoke(ctl, 0, &b, why, len))
			continue;
		return b == CHAT_CTL_READY ? 0 : -1;
	}
}
