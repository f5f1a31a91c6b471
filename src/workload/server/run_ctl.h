/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A released run: its users are all connected, its turn has come.  The
 * model's threads are started, 0x11 is sent, and a thread of its own waits
 * for the data plane, reads the 0x22 and reports, so that runs end
 * concurrently while the accept loop goes on serving others.
 */
#ifndef CHATBENCH_RUN_CTL_H
#define CHATBENCH_RUN_CTL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct srv_run;
struct srv_model_cfg;
struct srv_tracer;

struct run_live {
	struct srv_run *run;	/* every conns[i].fd a connected user */
	int ctl;
	char peer[32];
	long no;		/* run number, for the log */
	bool quiet;		/* no SRV: lines */
	int donefd;		/* eventfd: written once the run has ended */
	atomic_bool ended;
	/*
	 * The client asked for this host's kernel record (srv_trace.h):
	 * traced says whether the tracer is this run's, why_not why not.
	 */
	struct srv_tracer *tracer;
	unsigned long group;	/* runs released together share a record */
	int timeout_ms;		/* for the group's record */
	bool asked;
	bool traced;
	char why_not[200];
	pthread_t thr;
	bool thr_up;
};

/*
 * Makes the sockets blocking with the run's timeouts and starts the
 * model's workers.  -1 when that failed: the client has been refused
 * with the reason (and it is logged); run_live_free() still applies.
 */
int run_live_start(struct run_live *l, const struct srv_model_cfg *cfg);
/* Sends 0x11 and hands the rest of the run to a thread of its own. */
void run_live_go(struct run_live *l);
/* Joins that thread (once ended), frees the run and closes ctl. */
void run_live_free(struct run_live *l);

#endif
