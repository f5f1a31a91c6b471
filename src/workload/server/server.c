// SPDX-License-Identifier: GPL-2.0
/*
 * The chat server.  One run at a time, as in the original: the first
 * connection an idle server accepts is the control connection, the next
 * rooms x 20 are the users in accept order.  Unlike the original, every
 * wait is bounded and any failure of a run (client gone, garbage, stall,
 * limits) ends that run only: the server logs one line and serves the next.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/reslimit.h"
#include "workload/netio.h"
#include "workload/server/place.h"
#include "workload/server/server.h"
#include "workload/server/run.h"

#define TICK_MS 200

/* 1: finish the current run, then exit; 2 or more: abort it now. */
/* Atomic: the handler runs on whichever thread the signal hits. */
static atomic_int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	if (stop_requested < 2)
		stop_requested++;
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void log_line(const char *fmt, ...)
{
	va_list ap;

	fputs("chat_s: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void refuse(int ctl, const char *peer, const char *why)
{
	uint8_t msg[1 + CHAT_REASON_MAX];
	size_t n = strnlen(why, CHAT_REASON_MAX);

	log_line("refused run from %s: %s", peer, why);
	msg[0] = CHAT_CTL_REFUSE;
	memcpy(msg + 1, why, n);
	/* Best effort: the client may already be gone. */
	(void)!send(ctl, msg, n + 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/*
 * Wait for the listening socket, in ticks so that a signal ends the wait.
 * 1 ready, 0 timed out (timeout_ms < 0: never), -1 stop or error.
 */
static int wait_listen(int lfd, int timeout_ms)
{
	int waited = 0;

	for (;;) {
		int r = net_wait_readable(lfd, TICK_MS);

		if (stop_requested)
			return -1;
		if (r)
			return r > 0 ? 1 : -1;
		waited += TICK_MS;
		if (timeout_ms >= 0 && waited >= timeout_ms)
			return 0;
	}
}

/*
 * wait_listen() that also watches the control connection.  A client that
 * dies (or gives up) while its users connect closes it; every connection
 * accepted after that belongs to the next client, which would be taken
 * for this run's users and then fail with it.  Only POLLRDHUP is asked
 * for on ctl, so stray bytes from the client cannot make the wait spin.
 * 1 a user is waiting, 0 timed out, -1 stop or error, -2 ctl closed.
 */
static int wait_users(int lfd, int ctl, int timeout_ms)
{
	struct pollfd p[2] = { { .fd = lfd, .events = POLLIN },
			       { .fd = ctl, .events = POLLRDHUP } };
	int waited = 0;

	for (;;) {
		int r = poll(p, 2, TICK_MS);

		if (stop_requested)
			return -1;
		if (r < 0 && errno != EINTR)
			return -1;
		/* ctl first: its FIN was queued before the next client's SYNs. */
		if (r > 0 && (p[1].revents & (POLLRDHUP | POLLHUP | POLLERR)))
			return -2;
		if (r > 0 && p[0].revents)
			return 1;
		if (r == 0) {
			waited += TICK_MS;
			if (timeout_ms >= 0 && waited >= timeout_ms)
				return 0;
		}
	}
}

static int accept_users(struct srv_run *run, int lfd, int ctl, int timeout_ms)
{
	unsigned int i;

	for (i = 0; i < run->nconn; i++) {
		int r = wait_users(lfd, ctl, timeout_ms);
		int fd;

		if (r == -2) {
			srv_run_fail(run, "client closed the control connection after %u of %u data connections",
				     i, run->nconn);
			return -1;
		}
		if (r <= 0) {
			srv_run_fail(run, r ? "stopped while accepting users" :
				 "only %u of %u data connections arrived within %d ms",
				 i, run->nconn, timeout_ms);
			return -1;
		}
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			srv_run_fail(run, "accept of user %u: %s", i,
				 strerror(errno));
			return -1;
		}
		run->conns[i].fd = fd;
		if (net_set_timeouts(fd, timeout_ms)) {
			srv_run_fail(run, "socket options of user %u: %s", i,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
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
		/* A first signal lets the run end; a second one ends it. */
		if (stop_requested > 1)
			srv_run_fail(run, "server stopped by a signal");
		else if (recv(ctl, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
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

/* One run on an accepted control connection; never fatal to the server. */
static void serve_run(const struct server_opts *o, int lfd, int ctl,
		      long run_no)
{
	uint8_t start[CHAT_START_MAX_LEN], done;
	unsigned long nconn;
	size_t ext;
	struct chat_start st;
	const struct srv_model_cfg cfg = {
		.timeout_ms = o->timeout_ms,
		.loops = o->loops,
	};
	struct srv_run *run = NULL;
	char peer[64], why[256];
	uint64_t rx, tx;
	size_t got;
	ssize_t r;

	net_peer_str(ctl, peer, sizeof(peer));
	if (net_set_timeouts(ctl, o->timeout_ms)) {
		log_line("control connection from %s: %s", peer,
			 strerror(errno));
		return;
	}
	r = net_read_full_got(ctl, start, CHAT_START_LEN, &got);
	if (r != CHAT_START_LEN) {
		log_line("control connection from %s: %s after %zu of %d bytes of the start message",
			 peer, r < 0 ? srv_io_why(r) : "closed", got,
			 CHAT_START_LEN);
		return;
	}
	ext = proto_decode_start(start, &st);
	if (ext) {
		r = net_read_full_got(ctl, start + CHAT_START_LEN, ext, &got);
		if (r != (ssize_t)ext) {
			log_line("control connection from %s: %s after %zu of %zu bytes of the start extension",
				 peer, r < 0 ? srv_io_why(r) : "closed", got,
				 ext);
			return;
		}
		proto_decode_start_ext(start + CHAT_START_LEN, &st);
	}
	if (proto_check_start(&st, &o->caps, why, sizeof(why))) {
		refuse(ctl, peer, why);
		return;
	}
	if (!o->quiet) {
		printf("SRV: client connected, rooms = %d messages = %d\n",
		       st.rooms, st.messages);
		if (st.users != CHAT_USERS_PER_ROOM)
			printf("SRV: %d users per room\n", st.users);
		fflush(stdout);
	}
	/* Data sockets, plus the listener, control and stdio. */
	nconn = (unsigned long)st.rooms * (unsigned long)st.users;
	if (limits_ensure_fds(nconn + 32, why, sizeof(why)) ||
	    limits_check_threads(o->model->threads((unsigned int)nconn, &cfg),
				 why, sizeof(why))) {
		refuse(ctl, peer, why);
		return;
	}
	run = srv_run_new(&st, o->model);
	if (!run) {
		refuse(ctl, peer, "out of memory for the run");
		return;
	}
	if (accept_users(run, lfd, ctl, o->timeout_ms) ||
	    run->model->start(run, &cfg)) {
		refuse(ctl, peer, run->why);
		goto out;
	}
	/* Every thread exists; the first unit can only come after this. */
	done = CHAT_CTL_READY;
	if (net_write_full(ctl, &done, 1) != 1) {
		srv_run_fail(run, "sending 0x11: %s", strerror(errno));
		goto report;
	}
	wait_workers(run, ctl);
	if (atomic_load(&run->failed))
		goto report;
	r = net_read_full(ctl, &done, 1);
	if (r != 1)
		srv_run_fail(run, "no 0x22 at the end of the run: %s", srv_io_why(r));
	else if (done != CHAT_CTL_DONE)
		srv_run_fail(run, "end of run byte 0x%02x instead of 0x22", done);
report:
	/* Workers may still count (0x11 failed): join them before reading. */
	run->model->finish(run);
	run_totals(run, &rx, &tx);
	if (atomic_load(&run->failed))
		log_line("run %ld from %s aborted: %s (%llu messages received, %llu sent)",
			 run_no, peer, run->why, (unsigned long long)rx,
			 (unsigned long long)tx);
	if (!o->quiet) {
		printf("SRV: %llu messages received, %llu messages sent\n",
		       (unsigned long long)rx, (unsigned long long)tx);
		fflush(stdout);
	}
out:
	srv_run_free(run);
}

static int announce_port(int fd, int lfd)
{
	char line[16];
	int n = snprintf(line, sizeof(line), "%u\n", net_local_port(lfd));
	ssize_t w = write(fd, line, (size_t)n);

	close(fd);
	return w == n ? 0 : -1;
}

int server_serve(const struct server_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	char place_err[256];
	long runs = 0;
	sigset_t set;
	int lfd;

	/* A parent may have left them blocked (chat_c --local does). */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Before any other thread exists: they all inherit the placement. */
	if (srv_place_init(o->cpus_set ? &o->cpus : NULL, o->pin, place_err,
			   sizeof(place_err))) {
		log_line("%s", place_err);
		return 1;
	}

	lfd = net_listen(&o->addr, 4096);
	if (lfd < 0) {
		log_line("cannot listen on %s:%u: %s",
			 inet_ntoa(o->addr.sin_addr), ntohs(o->addr.sin_port),
			 strerror(errno));
		return 1;
	}
	if (o->ready_fd >= 0 && announce_port(o->ready_fd, lfd)) {
		log_line("cannot report the port on fd %d: %s", o->ready_fd,
			 strerror(errno));
		close(lfd);
		return 1;
	}
	while (!stop_requested && (!o->max_runs || runs < o->max_runs)) {
		int ctl;

		if (wait_listen(lfd, -1) <= 0)
			break;
		ctl = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (ctl < 0) {
			/* EMFILE and friends: back off, never spin. */
			log_line("accept: %s", strerror(errno));
			usleep(TICK_MS * 1000);
			continue;
		}
		serve_run(o, lfd, ctl, ++runs);
		close(ctl);
	}
	close(lfd);
	return 0;
}
