/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler of runs: which accepted connection belongs to which run,
 * and when each run may start.  A run is connecting from its start
 * message until its rooms x users data connections are in, then (with
 * chat_s --clients N) waits for the other clients of its group, then is
 * queued until fewer than --max-runs runs are in progress, then runs.
 *
 * The original protocol does not name a data connection: the original
 * server took the connections that followed a start message, in accept
 * order.  So does this one, per peer address: a silent connection belongs
 * to the latest start message from its address.  Clients on other hosts
 * never mix; two clients of one host must not connect at the same time
 * (chat_c takes a lock of the host for its connect phase), and when they
 * do the older run fails with that reason instead of measuring a mix.
 */
#ifndef CHATBENCH_SCHED_H
#define CHATBENCH_SCHED_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "workload/server/handshake.h"
#include "workload/server/options.h"
#include "workload/server/run.h"
#include "workload/server/run_ctl.h"

enum cr_state {
	CR_CONNECTING,	/* start message read, users being claimed */
	CR_GROUP,	/* connected, waiting for its group (--clients) */
	CR_QUEUED,	/* connected, waiting for a slot (--max-runs) */
	CR_RUNNING,	/* released: run_ctl.c has it */
	CR_DEAD,	/* dropped, freed after the current batch of events */
};

struct sched;
struct srv_tracer;

struct ctl_run {
	struct srv_ev ev;	/* SRV_EV_CTL: hang-ups of the control conn */
	struct sched *s;
	enum cr_state state;
	uint64_t seq;		/* accept order of the control connection */
	struct in_addr ip;
	struct chat_start st;
	struct pconn **users;	/* claimed, in accept order */
	unsigned int claimed;
	int64_t since_ms;	/* last user (connecting), entry (group) */
	int64_t notice_ms;	/* when the last waiting notice went out */
	uint8_t notice;
	unsigned long group;	/* queue order; a group is queued at once */
	unsigned int group_size;
	struct run_live live;	/* run, ctl, peer, run number */
	struct ctl_run *prev, *next;
};

struct sched {
	const struct server_opts *o;
	struct srv_model_cfg cfg;
	int epfd;
	int donefd;		/* eventfd of run_ctl.c's ended runs */
	struct srv_ev done_ev;
	uint64_t seq;		/* connections accepted */
	struct pconn_list pending;
	struct ctl_run *head, *tail, *dead;
	unsigned int running;
	long runs;		/* start messages accepted: run numbers */
	long ended;		/* released runs that ended */
	unsigned long groups;
	unsigned long silent;	/* idle peers timed out, for one log line */
	bool stopping;
	struct srv_tracer *tracer;	/* this host's, for runs that ask */
};

/* 0, or -1 with errno. */
int sched_init(struct sched *s, const struct server_opts *o, int epfd);
/* A connection fresh from accept4 (non-blocking); -1: not taken. */
int sched_accepted(struct sched *s, int fd, const struct sockaddr_in *sa);
/* epoll events of a pending connection, a waiting control, ended runs. */
void sched_conn_event(struct sched *s, struct pconn *pc);
void sched_ctl_event(struct sched *s, struct ctl_run *r);
void sched_done_event(struct sched *s);
/* Deadlines, waiting notices, queued runs; once per pass of the loop. */
void sched_tick(struct sched *s);
/* After a batch of events: frees what was dropped during it. */
void sched_reap(struct sched *s);
/*
 * level 1: no new runs, refuse those that wait, let running ones end;
 * 2: abort the running ones too.
 */
void sched_stop(struct sched *s, int level);
/* Runs in progress or waiting. */
unsigned int sched_runs(const struct sched *s);
void sched_free(struct sched *s);

#endif
