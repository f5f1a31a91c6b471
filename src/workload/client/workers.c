// SPDX-License-Identifier: GPL-2.0
/*
 * A user's two threads, as in the original: the sender writes its
 * messages (as fast as the socket takes them, or on the --rate
 * schedule), the receiver reads the 19 others' and measures each one's
 * delivery latency from the stamp it carries.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "chatbench.h"
#include "util/roles.h"
#include "util/timeutil.h"
#include "workload/client/run_state.h"
#include "workload/netio.h"
#include "workload/proto.h"

static const char *io_why(ssize_t r)
{
	if (r >= 0)
		return "connection closed by the server";
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return "timed out";
	return strerror(errno);
}

static void sched_note(struct cli_run *run, int role,
		       const struct sched_got *got)
{
	pthread_mutex_lock(&run->lock);
	run->sched[role] = *got;
	run->sched_n[role]++;
	pthread_mutex_unlock(&run->lock);
}

/* --sched and co for the calling worker, before it passes the gate. */
static void sched_self(struct cli_run *run, int role)
{
	struct sched_got got;
	char why[240];

	if (!sched_spec_has(&run->o->sched, role))
		return;
	if (sched_apply(&run->o->sched, role, 0, &got, why, sizeof(why))) {
		run_fail(run, "%s thread: %s", role_name(role), why);
		return;
	}
	sched_note(run, role, &got);
}

static void gate_pass(struct cli_run *run)
{
	pthread_rwlock_rdlock(&run->gate);
	pthread_rwlock_unlock(&run->gate);
}

static int send_one(struct cli_conn *c, uint8_t *buf, uint64_t i, uint64_t n)
{
	ssize_t r = net_write_full(c->fd, buf, CHAT_MSG_SIZE);

	if (r != CHAT_MSG_SIZE) {
		run_fail(c->run, "user %u: send of message %llu of %llu: %s",
			 c->idx, (unsigned long long)i + 1,
			 (unsigned long long)n, io_why(r));
		return -1;
	}
	atomic_store_explicit(&c->sent, i + 1, memory_order_relaxed);
	return 0;
}

/*
 * --rate: each message waits for its time on the schedule, and carries
 * that time, not the time it left: a late send is charged to latency.
 */
static void send_open_loop(struct cli_conn *c, uint8_t *buf, uint64_t n)
{
	struct cli_run *run = c->run;
	struct ol_user u;
	uint64_t i;

	/*
	 * The default 50 us timer slack would be our error, not the
	 * system's: the schedule is kept to the microsecond.
	 */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	ol_start(&u, run->o->arrival, (double)run->o->rate, c->idx,
		 run->nconn, run->t0);
	for (i = 0; i < n; i++) {
		uint64_t when = ol_next(&u);

		if (ol_wait_until(when, &run->failed))
			break;
		proto_stamp(buf, when);
		if (send_one(c, buf, i, n))
			break;
		c->last_snd_ns = now_ns();
	}
}

void *run_sender_main(void *arg)
{
	struct cli_conn *c = arg;
	struct cli_run *run = c->run;
	uint8_t buf[CHAT_MSG_SIZE];
	uint64_t i, n = (uint64_t)run->o->messages;

	role_name_self(CB_ROLE_CLI_SND);
	sched_self(run, CB_ROLE_CLI_SND);
	/* The original filled the buffer with its thread index. */
	memset(buf, (int)c->idx, sizeof(buf));
	gate_pass(run);
	if (run->o->rate) {
		send_open_loop(c, buf, n);
		c->snd_end_ns = now_ns();
		return NULL;
	}
	for (i = 0; i < n && !atomic_load_explicit(&run->failed,
						    memory_order_relaxed); i++) {
		proto_stamp(buf, now_ns());
		if (send_one(c, buf, i, n))
			break;
	}
	c->snd_end_ns = now_ns();
	return NULL;
}

/*
 * Delivery latency from the send time the sending user stamped in the
 * unit.  Both ends read CLOCK_MONOTONIC on this host, so the difference
 * is meaningful; a foreign server's garbage is counted, not measured.
 */
static void record_latency(struct cli_conn *c, const uint8_t *buf)
{
	uint64_t sent, now;

	if (proto_read_stamp(buf, &sent)) {
		c->lat_unstamped++;
		return;
	}
	now = now_ns();
	if (now < sent) {
		c->lat_unstamped++;
		return;
	}
	now -= sent;
	c->lat_buckets[cb_hist_bucket(now)]++;
	if (c->ol_buckets)
		c->ol_buckets[lh_bucket(now)]++;
	if (now > c->lat_max_ns)
		c->lat_max_ns = now;
}

void *run_receiver_main(void *arg)
{
	struct cli_conn *c = arg;
	struct cli_run *run = c->run;
	uint64_t n = (uint64_t)run->o->messages * (uint64_t)(run->o->users - 1);
	uint8_t buf[CHAT_MSG_SIZE];
	uint64_t i;

	role_name_self(CB_ROLE_CLI_RCV);
	sched_self(run, CB_ROLE_CLI_RCV);
	gate_pass(run);
	for (i = 0; i < n; i++) {
		ssize_t r = net_read_full(c->fd, buf, sizeof(buf));

		if (r != sizeof(buf)) {
			run_fail(run,
				 "user %u: receive of message %llu of %llu: %s",
				 c->idx, (unsigned long long)i + 1,
				 (unsigned long long)n, io_why(r));
			break;
		}
		atomic_store_explicit(&c->received, i + 1,
				      memory_order_relaxed);
		record_latency(c, buf);
	}
	c->rcv_end_ns = now_ns();
	return NULL;
}

