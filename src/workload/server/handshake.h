/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connections the control plane has accepted but not yet handed to a
 * run's data plane: each reads its start message on its own, without
 * blocking, under its own deadline (chat_s --handshake-timeout), so that
 * no stalled, idle or garbage peer delays another.  A connection that
 * stays silent may be a user of a run (the original's data connections
 * say nothing before 0x11); the scheduler of runs (sched.h) claims those.
 */
#ifndef CHATBENCH_HANDSHAKE_H
#define CHATBENCH_HANDSHAKE_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/proto.h"

/* What an epoll event of the control plane points at. */
enum srv_ev_kind { SRV_EV_LISTEN, SRV_EV_DONE, SRV_EV_CONN, SRV_EV_CTL };

struct srv_ev {
	enum srv_ev_kind kind;
};

struct ctl_run;

struct pconn {
	struct srv_ev ev;	/* SRV_EV_CONN */
	int fd;			/* non-blocking, in the control plane's epoll */
	uint64_t seq;		/* accept order, from 1 */
	struct in_addr ip;
	char peer[32];
	int64_t deadline_ms;	/* for the start message; not for users */
	struct ctl_run *owner;	/* claimed as a user of this run, or NULL */
	size_t got, need;	/* bytes of the start message */
	uint8_t buf[CHAT_START_MAX_LEN];
	int dead;		/* dropped: events still in hand are ignored */
	struct pconn *prev, *next;	/* the pending list, in accept order */
};

/*
 * The pending list: accepted connections in accept order.  A dropped one
 * waits on the dead list until the events of one epoll_wait are all
 * handled, since a later event of the same batch may still point at it.
 */
struct pconn_list {
	struct pconn *head, *tail;
	unsigned long n;
	struct pconn *dead;
};

enum hs_result {
	HS_MORE,	/* a part of the start message came; wait for more */
	HS_START,	/* complete: *st is decoded (not checked) */
	HS_CLOSED,	/* closed or failed before a complete message */
};

/* A new pending connection for fd (accepted), at the end of the list. */
struct pconn *pconn_add(struct pconn_list *l, int fd,
			const struct sockaddr_in *sa, uint64_t seq,
			int64_t deadline_ms);
/* Takes it off the list, to the dead list; closes the fd if close_fd. */
void pconn_drop(struct pconn_list *l, struct pconn *pc, int close_fd);
/* Frees the dead list: between two batches of events. */
void pconn_reap(struct pconn_list *l);
/*
 * Reads what the peer sent so far.  On HS_CLOSED, if log, says why in one
 * line naming the bytes that came of the start message.
 */
enum hs_result hs_read(struct pconn *pc, struct chat_start *st, int log);
/* The peer has sent something, or closed: it is no silent user. */
int pconn_spoke(const struct pconn *pc);
/*
 * Logs why pc's handshake timed out; connections that sent nothing are
 * counted in *silent, to be said in one line (hs_log_silent).
 */
void hs_log_timeout(const struct pconn *pc, int timeout_ms,
		    unsigned long *silent);
void hs_log_silent(unsigned long *silent, int timeout_ms);

#endif
