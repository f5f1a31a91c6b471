// SPDX-License-Identifier: GPL-2.0
/*
 * Start messages read a few bytes at a time from non-blocking sockets.
 * The original server read its 8 bytes with one blocking recv, so a peer
 * that sent 4 of them and stalled held every other client up; here each
 * connection keeps its own bytes and deadline, and the accept loop goes
 * on serving the others meanwhile.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/server/handshake.h"
#include "workload/server/srvlog.h"

struct pconn *pconn_add(struct pconn_list *l, int fd,
			const struct sockaddr_in *sa, uint64_t seq,
			int64_t deadline_ms)
{
	struct pconn *pc = calloc(1, sizeof(*pc));
	char ip[INET_ADDRSTRLEN] = "?";

	if (!pc)
		return NULL;
	pc->ev.kind = SRV_EV_CONN;
	pc->fd = fd;
	pc->seq = seq;
	pc->ip = sa->sin_addr;
	inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
	snprintf(pc->peer, sizeof(pc->peer), "%s:%u", ip, ntohs(sa->sin_port));
	pc->deadline_ms = deadline_ms;
	pc->need = CHAT_START_LEN;
	pc->prev = l->tail;
	if (l->tail)
		l->tail->next = pc;
	else
		l->head = pc;
	l->tail = pc;
	l->n++;
	return pc;
}

void pconn_drop(struct pconn_list *l, struct pconn *pc, int close_fd)
{
	if (pc->prev)
		pc->prev->next = pc->next;
	else
		l->head = pc->next;
	if (pc->next)
		pc->next->prev = pc->prev;
	else
		l->tail = pc->prev;
	l->n--;
	if (close_fd)
		close(pc->fd);
	pc->dead = 1;
	pc->next = l->dead;
	l->dead = pc;
}

void pconn_reap(struct pconn_list *l)
{
	struct pconn *pc;

	while ((pc = l->dead)) {
		l->dead = pc->next;
		free(pc);
	}
}

static enum hs_result hs_closed(const struct pconn *pc, const char *why,
				const char *note)
{
	const char *what = pc->got < CHAT_START_LEN ? "start message" :
						       "start extension";
	size_t got = pc->got, need = pc->need;

	if (pc->got >= CHAT_START_LEN) {
		got -= CHAT_START_LEN;
		need -= CHAT_START_LEN;
	}
	srv_log("control connection from %s: %s after %zu of %zu bytes of the %s%s",
		pc->peer, why, got, need, what, note);
	return HS_CLOSED;
}

enum hs_result hs_read(struct pconn *pc, struct chat_start *st, int log)
{
	for (;;) {
		ssize_t r = recv(pc->fd, pc->buf + pc->got, pc->need - pc->got,
				 MSG_DONTWAIT);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return HS_MORE;
		if (r <= 0 && !log)
			return HS_CLOSED;
		if (r < 0)
			return hs_closed(pc, strerror(errno), "");
		if (r == 0)
			return hs_closed(pc, "closed", "");
		pc->got += (size_t)r;
		if (pc->got < pc->need)
			continue;
		if (pc->need == CHAT_START_LEN) {
			size_t ext = proto_decode_start(pc->buf, st);

			if (!ext)
				return HS_START;
			pc->need += ext;
			continue;
		}
		proto_decode_start(pc->buf, st);
		proto_decode_start_ext(pc->buf + CHAT_START_LEN, st);
		return HS_START;
	}
}

int pconn_spoke(const struct pconn *pc)
{
	uint8_t b;
	ssize_t r;

	if (pc->got)
		return 1;
	r = recv(pc->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	return r >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
}

void hs_log_timeout(const struct pconn *pc, int timeout_ms,
		    unsigned long *silent)
{
	char note[64];

	if (!pc->got) {
		(*silent)++;
		return;
	}
	snprintf(note, sizeof(note), " (--handshake-timeout %d ms)",
		 timeout_ms);
	hs_closed(pc, "timed out", note);
}

void hs_log_silent(unsigned long *silent, int timeout_ms)
{
	if (!*silent)
		return;
	/* An idle crowd gets one line, not one each. */
	srv_log("closed %lu connection%s that sent nothing within %d ms (--handshake-timeout)",
		*silent, *silent == 1 ? "" : "s", timeout_ms);
	*silent = 0;
}
