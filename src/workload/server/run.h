/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small interface between the control plane and the data-plane
 * models: one run (connections in accept order, counts, the first
 * failure), the operations a model implements, and the services it may
 * call.  A model needs nothing else of the server, and the control plane
 * nothing else of a model.
 */
#ifndef CHATBENCH_SRV_RUN_H
#define CHATBENCH_SRV_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct chat_start;

struct srv_conn {
	int fd;
	unsigned int idx;	/* accept order; the room is idx / users */
	uint64_t rx_units;	/* written by one worker only */
	uint64_t tx_units;
};

struct srv_run;

/* What a model takes from the command line, besides the run itself. */
struct srv_model_cfg {
	int timeout_ms;		/* bound on every wait inside a run */
	unsigned int loops;	/* event-loop threads of epoll, pool=N */
};

struct srv_model {
	const char *name;
	/* How many threads start() makes for nconn connections, at most. */
	unsigned long (*threads)(unsigned int nconn,
				 const struct srv_model_cfg *cfg);
	/* Start the workers; on failure call srv_run_fail() and return -1. */
	int (*start)(struct srv_run *run, const struct srv_model_cfg *cfg);
	/*
	 * After a failure: wake workers that wait outside socket calls.
	 * Called under run->lock, so it must not take it.
	 */
	void (*wake)(struct srv_run *run);
	/*
	 * Join the workers, then free what start() made, taken with
	 * srv_run_take_model() so that no wake() still uses it.
	 */
	void (*finish)(struct srv_run *run);
};

struct srv_run {
	int rooms;
	int messages;
	int users;		/* per room; the room of a connection is idx / users */
	unsigned int nconn;
	struct srv_conn *conns;
	const struct srv_model *model;
	void *model_data;
	atomic_bool failed;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int workers;	/* started, each calls srv_worker_done once */
	unsigned int finished;	/* under lock */
	char why[256];		/* first failure, under lock */
};

/* NULL when out of memory; every fd -1 until the control plane accepts. */
struct srv_run *srv_run_new(const struct chat_start *st,
			    const struct srv_model *model);
/* Finishes the model, closes the connections, frees the run. */
void srv_run_free(struct srv_run *run);

/*
 * First failure wins.  Shuts every data socket down, which wakes workers
 * blocked in recv or send, then lets the model wake the others.
 */
void srv_run_fail(struct srv_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The model's data, out of wake()'s reach: for finish(), after joining. */
void *srv_run_take_model(struct srv_run *run);
/* Each worker a model starts is counted once, and finishes once. */
void srv_worker_started(struct srv_run *run);
void srv_worker_done(struct srv_run *run);
/* Why a socket call of netio.h returned r short: closed, timed out, errno. */
const char *srv_io_why(long r);

#endif
