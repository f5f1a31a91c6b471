// SPDX-License-Identifier: GPL-2.0
/*
 * The life of one run after its release, on a thread of its own: wait for
 * the data plane while watching the control connection, read the 0x22,
 * add up and report.  Every wait is bounded: the workers by the run's
 * timeout on each socket call, the control connection by its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/reslimit.h"
#include "workload/netio.h"
#include "workload/proto.h"
#include "workload/server/run.h"
#include "workload/server/run_ctl.h"
#include "workload/server/srv_trace.h"
#include "workload/server/srvlog.h"

#define TICK_MS 200

static int set_blocking(int fd, int timeout_ms)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		return -1;
	return net_set_timeouts(fd, timeout_ms);
}

int run_live_start(struct run_live *l, const struct srv_model_cfg *cfg)
{
	struct srv_run *run = l->run;
	unsigned int i;

	if (set_blocking(l->ctl, cfg->timeout_ms)) {
		srv_run_fail(run, "control connection: %s", strerror(errno));
		goto refuse;
	}
	/* The send timeout bounds a sender whose user stopped reading. */
	for (i = 0; i < run->nconn; i++) {
		if (set_blocking(run->conns[i].fd, cfg->timeout_ms)) {
			srv_run_fail(run, "socket options of user %u: %s", i,
				     strerror(errno));
			goto refuse;
		}
	}
	if (!run->model->start(run, cfg))
		return 0;
refuse:
	srv_refuse(l->ctl, l->peer, run->why);
	return -1;
}

/*
 * Wait for the data plane to finish while watching the control connection:
 * a client that vanishes mid-run closes it, and the run ends there instead
 * of after the data timeouts.
 */
static void wait_workers(struct srv_run *run, int ctl)
{
	pthread_mutex_lock(&run->lock);
	while (run->finished < run->workers) {
		struct timespec ts;
		uint8_t b;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += TICK_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&run->cond, &run->lock, &ts);
		if (run->finished >= run->workers)
			break;
		pthread_mutex_unlock(&run->lock);
		if (recv(ctl, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
			srv_run_fail(run, "client closed the control connection mid-run");
		pthread_mutex_lock(&run->lock);
	}
	pthread_mutex_unlock(&run->lock);
}

static void run_totals(struct srv_run *run, uint64_t *rx, uint64_t *tx)
{
	unsigned int i;

	*rx = *tx = 0;
	for (i = 0; i < run->nconn; i++) {
		*rx += run->conns[i].rx_units;
		*tx += run->conns[i].tx_units;
	}
}

static void send_ready(struct run_live *l)
{
	uint8_t ready = CHAT_CTL_READY;

	/* Every thread exists; the first unit can only come after this. */
	if (net_write_full(l->ctl, &ready, 1) != 1)
		srv_run_fail(l->run, "sending 0x11: %s", strerror(errno));
}

/*
 * The record the client asked for, after its 0x22: this host's kernel
 * record of the run, or why there is none.  The run is measured by then:
 * a client that does not take it costs only its own record.
 */
static void send_record(struct run_live *l, char *rec, size_t len)
{
	if (!rec) {
		srv_log("run %ld from %s: no memory for the kernel record",
			l->no, l->peer);
		return;
	}
	if (net_write_full(l->ctl, rec, len) != (ssize_t)len)
		srv_log("run %ld from %s: sending the kernel record: %s",
			l->no, l->peer, srv_io_why(-1));
}

static void *live_main(void *arg)
{
	struct run_live *l = arg;
	struct srv_run *run = l->run;
	uint64_t rx, tx, one = 1;
	size_t rec_len = 0;
	char *rec = NULL;
	uint8_t done;
	ssize_t r;

	/*
	 * Named, so that a client setting the scheduling of the server's
	 * threads can tell when every new thread of the run has its name.
	 */
	pthread_setname_np(pthread_self(), "srv_ctl");
	if (atomic_load(&run->failed))
		goto report;
	if (l->traced) {
		srv_trace_begin(l->tracer, l->group);
		send_ready(l);
		if (atomic_load(&run->failed))
			goto report;
	}
	wait_workers(run, l->ctl);
	if (l->asked && !atomic_load(&run->failed)) {
		rec = srv_trace_end(l->tracer, l->group, l->traced, l->why_not,
				    l->timeout_ms, &rec_len);
		l->traced = false;
	}
	if (atomic_load(&run->failed))
		goto report;
	r = net_read_full(l->ctl, &done, 1);
	if (r != 1)
		srv_run_fail(run, "no 0x22 at the end of the run: %s",
			     srv_io_why(r));
	else if (done != CHAT_CTL_DONE)
		srv_run_fail(run, "end of run byte 0x%02x instead of 0x22",
			     done);
	else if (l->asked)
		send_record(l, rec, rec_len);
report:
	free(rec);
	if (l->traced)
		srv_trace_release(l->tracer, l->group);
	l->traced = false;
	/* Workers may still count (0x11 failed): join them before reading. */
	run->model->finish(run);
	run_totals(run, &rx, &tx);
	if (atomic_load(&run->failed))
		srv_log("run %ld from %s aborted: %s (%llu messages received, %llu sent)",
			l->no, l->peer, run->why, (unsigned long long)rx,
			(unsigned long long)tx);
	if (!l->quiet)
		printf("SRV: %llu messages received, %llu messages sent\n",
		       (unsigned long long)rx, (unsigned long long)tx);
	atomic_store(&l->ended, true);
	(void)!write(l->donefd, &one, sizeof(one));
	return NULL;
}

void run_live_go(struct run_live *l)
{
	pthread_attr_t attr;

	/* A traced run's thread takes the first snapshot, then sends it. */
	if (!l->traced)
		send_ready(l);
	if (!limits_thread_attr(&attr)) {
		l->thr_up = !pthread_create(&l->thr, &attr, live_main, l);
		pthread_attr_destroy(&attr);
	}
	if (l->thr_up)
		return;
	/* No thread for the wait: end the run here, which is quick. */
	srv_run_fail(l->run, "cannot create the run's control thread");
	live_main(l);
}

void run_live_free(struct run_live *l)
{
	if (l->thr_up)
		pthread_join(l->thr, NULL);
	l->thr_up = false;
	/* A run refused before its thread started holds the tracer still. */
	if (l->traced)
		srv_trace_release(l->tracer, l->group);
	l->traced = false;
	if (l->run)
		srv_run_free(l->run);
	l->run = NULL;
	if (l->ctl >= 0)
		close(l->ctl);
	l->ctl = -1;
}
