// SPDX-License-Identifier: GPL-2.0
/*
 * The original's data plane: per connection a receiver thread that reads
 * 100-byte units and posts a semaphore per unit, and a sender thread that
 * waits on it and writes the unit to the 19 other users of the room with
 * blocking sends.
 */
#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

#include "workload/netio.h"
#include "workload/proto.h"
#include "util/reslimit.h"
#include "workload/server/models.h"
#include "workload/server/place.h"
#include "workload/server/run.h"
#include "util/roles.h"

/*
 * The sender forwards each unit with the send time the client stamped in
 * it (message latency).  The receiver may run ahead of the sender, by
 * thousands of units under load, so the stamps wait in a ring with a slot
 * per unit of the run when that fits in STAMP_BUDGET for all connections.
 * A slot overwritten before the sender got to it costs that unit its
 * stamp, never a count; but the units that lose it are the ones that
 * waited longest, so a ring of 256 cut 3/4 of the stamps of a 10 x 1000
 * run here and hid the tail of the latency it was there to measure.
 */
#define STAMP_RING_MIN	256
#define STAMP_BUDGET	(64UL << 20)

struct stamp_slot {
	atomic_uint_fast64_t seq;	/* unit number + 1, 0 = none */
	atomic_uint_fast64_t ns;
};

struct thr_conn {
	struct srv_run *run;
	struct srv_conn *conn;
	sem_t units;		/* one post per unit received */
	pthread_t rcv, snd;
	bool rcv_up, snd_up;
	struct stamp_slot *ring;
	uint64_t ring_size;
};

struct thr_run {
	struct thr_conn *conn;
	struct stamp_slot *slots;
};

static uint64_t ring_size(uint64_t units, unsigned int nconn)
{
	uint64_t fit = STAMP_BUDGET / sizeof(struct stamp_slot) / nconn;

	if (fit < STAMP_RING_MIN)
		fit = STAMP_RING_MIN;
	return units < fit ? (units ? units : 1) : fit;
}

static void ring_put(struct thr_conn *c, uint64_t unit, const uint8_t *buf)
{
	struct stamp_slot *s = &c->ring[unit % c->ring_size];
	uint64_t ns;

	if (proto_read_stamp(buf, &ns))
		return;
	atomic_store_explicit(&s->seq, 0, memory_order_relaxed);
	atomic_store_explicit(&s->ns, ns, memory_order_release);
	atomic_store_explicit(&s->seq, unit + 1, memory_order_release);
}

/* Stamps buf with the unit's send time if the ring still holds it. */
static void ring_get(struct thr_conn *c, uint64_t unit, uint8_t *buf)
{
	struct stamp_slot *s = &c->ring[unit % c->ring_size];
	uint64_t seq, ns;

	seq = atomic_load_explicit(&s->seq, memory_order_acquire);
	ns = atomic_load_explicit(&s->ns, memory_order_acquire);
	if (seq == unit + 1 &&
	    atomic_load_explicit(&s->seq, memory_order_acquire) == seq)
		proto_stamp(buf, ns);
	else
		memset(buf, 0, 16);
}

/* chat_s --sched and co; a thread that cannot take it fails the run. */
static void sched_self(struct srv_run *run, int role)
{
	char why[240];

	if (srv_sched_self(role, why, sizeof(why)))
		srv_run_fail(run, "%s thread: %s", role_name(role), why);
}

static void *receiver_main(void *arg)
{
	struct thr_conn *c = arg;
	struct srv_run *run = c->run;
	uint8_t buf[CHAT_MSG_SIZE];
	int i;

	role_name_self(CB_ROLE_SRV_RCV);
	sched_self(run, CB_ROLE_SRV_RCV);
	for (i = 0; i < run->messages; i++) {
		ssize_t r = net_read_full(c->conn->fd, buf, sizeof(buf));

		if (r != sizeof(buf)) {
			srv_run_fail(run,
				     "user %u: receive of message %d of %d: %s",
				     c->conn->idx, i + 1, run->messages,
				     srv_io_why(r));
			break;
		}
		ring_put(c, c->conn->rx_units, buf);
		c->conn->rx_units++;
		sem_post(&c->units);
	}
	srv_worker_done(run);
	return NULL;
}

static void *sender_main(void *arg)
{
	struct thr_conn *c = arg;
	struct srv_run *run = c->run;
	unsigned int me = c->conn->idx;
	unsigned int users = (unsigned int)run->users;
	unsigned int first = me / users * users;
	uint8_t buf[CHAT_MSG_SIZE] = { 0 };
	unsigned int j;
	int i;

	role_name_self(CB_ROLE_SRV_SND);
	sched_self(run, CB_ROLE_SRV_SND);
	for (i = 0; i < run->messages; i++) {
		while (sem_wait(&c->units) && errno == EINTR)
			;
		if (atomic_load_explicit(&run->failed, memory_order_relaxed))
			break;
		ring_get(c, (uint64_t)i, buf);
		for (j = first; j < first + users; j++) {
			ssize_t r;

			if (j == me)
				continue;
			r = net_write_full(run->conns[j].fd, buf, sizeof(buf));
			if (r != sizeof(buf)) {
				srv_run_fail(run, "send to user %u: %s", j,
					     srv_io_why(r));
				goto out;
			}
			c->conn->tx_units++;
		}
	}
out:
	srv_worker_done(run);
	return NULL;
}

static void threads_wake(struct srv_run *run)
{
	struct thr_run *tr = run->model_data;
	unsigned int i;

	for (i = 0; tr && i < run->nconn; i++)
		sem_post(&tr->conn[i].units);
}

static int spawn(struct srv_run *run, pthread_t *t, pthread_attr_t *a,
		 void *(*fn)(void *), void *arg, bool *up)
{
	int err = srv_place_attr(a, run->workers + 1);

	if (!err)
		err = pthread_create(t, a, fn, arg);
	if (err)
		return err;
	*up = true;
	srv_worker_started(run);
	return 0;
}

static unsigned long threads_count(unsigned int nconn,
				   const struct srv_model_cfg *cfg)
{
	(void)cfg;
	return 2UL * nconn;
}

static int threads_start(struct srv_run *run, const struct srv_model_cfg *cfg)
{
	uint64_t slots = ring_size((uint64_t)run->messages, run->nconn);
	struct thr_conn *tc;
	struct thr_run *tr;
	pthread_attr_t attr;
	unsigned int i;
	int err = 0;

	tr = calloc(1, sizeof(*tr));
	if (tr) {
		tr->conn = calloc(run->nconn, sizeof(*tc));
		tr->slots = calloc(slots * run->nconn, sizeof(*tr->slots));
	}
	if (!tr || !tr->conn || !tr->slots) {
		if (tr) {
			free(tr->conn);
			free(tr->slots);
			free(tr);
		}
		srv_run_fail(run, "out of memory for %u connections",
			     run->nconn);
		return -1;
	}
	tc = tr->conn;
	for (i = 0; i < run->nconn; i++) {
		tc[i].run = run;
		tc[i].conn = &run->conns[i];
		tc[i].ring = tr->slots + (size_t)i * slots;
		tc[i].ring_size = slots;
		sem_init(&tc[i].units, 0, 0);
	}
	run->model_data = tr;
	if (limits_thread_attr(&attr)) {
		srv_run_fail(run, "pthread attributes: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < run->nconn && !err; i++) {
		err = spawn(run, &tc[i].rcv, &attr, receiver_main, &tc[i],
			    &tc[i].rcv_up);
		if (!err)
			err = spawn(run, &tc[i].snd, &attr, sender_main,
				    &tc[i], &tc[i].snd_up);
	}
	pthread_attr_destroy(&attr);
	if (err) {
		char why[CHAT_REASON_MAX];

		limits_thread_error(err, run->workers + 1,
				    threads_count(run->nconn, cfg), why,
				    sizeof(why));
		srv_run_fail(run, "%s", why);
		return -1;
	}
	return 0;
}

static void threads_finish(struct srv_run *run)
{
	struct thr_run *tr = run->model_data;
	struct thr_conn *tc;
	unsigned int i;

	if (!tr)
		return;
	tc = tr->conn;
	for (i = 0; i < run->nconn; i++) {
		if (tc[i].rcv_up)
			pthread_join(tc[i].rcv, NULL);
		if (tc[i].snd_up)
			pthread_join(tc[i].snd, NULL);
	}
	/* A failing stop may be posting to the semaphores until here. */
	srv_run_take_model(run);
	for (i = 0; i < run->nconn; i++)
		sem_destroy(&tc[i].units);
	free(tc);
	free(tr->slots);
	free(tr);
}

const struct srv_model srv_model_threads = {
	.name = "threads",
	.threads = threads_count,
	.start = threads_start,
	.wake = threads_wake,
	.finish = threads_finish,
};
