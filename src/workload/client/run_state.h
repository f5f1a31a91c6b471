/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of one run of the client, shared by the files of a run: its
 * life (client.c), the sender and receiver threads (workers.c), the
 * figures gathered from them afterwards (collect.c), and how it fails
 * (run_state.c).  Private to workload/client/.
 */
#ifndef CHATBENCH_RUN_STATE_H
#define CHATBENCH_RUN_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "workload/client/options.h"
#include "workload/client/run_record.h"

struct cli_run;

struct cli_conn {
	int fd;
	unsigned int idx;
	pthread_t snd, rcv;
	bool snd_up, rcv_up;
	/* Single writer each; relaxed atomics so the sampler may read. */
	atomic_uint_fast64_t sent;
	atomic_uint_fast64_t received;
	uint64_t snd_end_ns, rcv_end_ns;
	/* Message latency seen by this receiver, merged after the run. */
	uint64_t lat_max_ns;
	uint64_t lat_unstamped;
	uint64_t *lat_buckets;	/* CB_HIST_BUCKETS */
	lh_count_t *ol_buckets;	/* LH_BUCKETS, --rate runs only */
	uint64_t last_snd_ns;	/* when the last send returned */
	struct cli_run *run;
};

struct cli_run {
	const struct client_opts *o;
	unsigned int nconn;
	struct cli_conn *conns;
	/*
	 * The start gate: main holds it for writing while threads are made;
	 * every worker takes it for reading, so one unlock releases them all
	 * at once without a mutex hand-off from one to the next.
	 */
	pthread_rwlock_t gate;
	uint64_t t0;		/* the release; written before the gate opens */
	atomic_bool failed;
	pthread_mutex_t lock;
	char why[256];
	/* --sched and co, read back from each thread set (under lock). */
	struct sched_got sched[CB_ROLE_OTHER];
	unsigned int sched_n[CB_ROLE_OTHER];
};

/*
 * First failure wins: the reason is kept and every data socket shut
 * down, which wakes each thread blocked on one.  From any thread.
 */
void run_fail(struct cli_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The reason under the lock: a SIGINT fails the run from the signal
 * thread, which sets the flag before it writes the text.
 */
void run_why(struct cli_run *run, char *buf, size_t len);

/* workers.c: the threads of user c (arg), waiting at the gate first. */
void *run_sender_main(void *arg);
void *run_receiver_main(void *arg);

/* collect.c: after the workers are joined, the run's figures into res. */
void run_collect(struct cli_run *run, struct run_result *res);

#endif
