// SPDX-License-Identifier: GPL-2.0
/*
 * The chat server's accept loop.  One thread accepts every connection at
 * once and watches them all with epoll: start messages are read under a
 * deadline of their own (handshake.c), data connections are claimed by
 * their runs and runs started, queued or grouped (sched.c), and each
 * released run ends on a thread of its own (run_ctl.c).  So no peer, idle,
 * stalled or hostile, holds another up, and any failure of a run ends that
 * run only: the server logs one line and serves on.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/netio.h"
#include "workload/server/place.h"
#include "workload/server/sched.h"
#include "workload/server/server.h"
#include "workload/server/srv_trace.h"
#include "workload/server/srvlog.h"

#define TICK_MS 100
#define MAX_EVENTS 256
/* Accepts per pass: the handshakes already in get their turn too. */
#define ACCEPT_BATCH 256

/* 1: finish the runs in progress, then exit; 2 or more: abort them now. */
/* Atomic: the handler runs on whichever thread the signal hits. */
static atomic_int stop_requested;
static atomic_int stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	if (stop_requested < 2)
		stop_requested++;
}

struct srv {
	const struct server_opts *o;
	struct sched s;
	int lfd, epfd;
	struct srv_ev listen_ev;
	/*
	 * Held open so that a peer beyond the descriptor limit can still be
	 * accepted, to be closed at once, instead of waiting in the backlog
	 * (and making the listener spin readable) until an fd frees up.
	 */
	int reserve_fd;
	unsigned long refused;	/* since the last log line */
	int64_t refused_log_ms;
};

static void log_refused(struct srv *sv, const char *peer, int64_t now)
{
	struct rlimit rl = { 0 };

	if (!sv->refused || now - sv->refused_log_ms < 1000)
		return;
	getrlimit(RLIMIT_NOFILE, &rl);
	srv_log("refused %lu connection%s%s%s: no file descriptor left (RLIMIT_NOFILE %llu)",
		sv->refused, sv->refused == 1 ? "" : "s",
		peer ? ", the last from " : "", peer ? peer : "",
		(unsigned long long)rl.rlim_cur);
	sv->refused = 0;
	sv->refused_log_ms = now;
}

/* EMFILE: accept with the reserve descriptor and close at once. */
static int refuse_one(struct srv *sv)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	char peer[64] = "?";
	int fd;

	if (sv->reserve_fd < 0)
		return -1;
	close(sv->reserve_fd);
	fd = accept4(sv->lfd, (struct sockaddr *)&sa, &len, SOCK_CLOEXEC);
	if (fd >= 0) {
		net_peer_str(fd, peer, sizeof(peer));
		close(fd);
		sv->refused++;
	}
	sv->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	log_refused(sv, fd >= 0 ? peer : NULL, srv_now_ms());
	return fd >= 0 ? 0 : -1;
}

static void accept_ready(struct srv *sv)
{
	int i;

	for (i = 0; i < ACCEPT_BATCH; i++) {
		struct sockaddr_in sa;
		socklen_t len = sizeof(sa);
		int fd = accept4(sv->lfd, (struct sockaddr *)&sa, &len,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd >= 0) {
			/* Inherited by nothing: set before any data moves. */
			if (sv->o->nodelay)
				net_set_nodelay(fd);
			if (sched_accepted(&sv->s, fd, &sa)) {
				srv_log("cannot watch a new connection: %s",
					strerror(errno));
				close(fd);
			}
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		if ((errno == EMFILE || errno == ENFILE) && !refuse_one(sv))
			continue;
		/* No reserve either: back off, never spin. */
		srv_log("accept: %s", strerror(errno));
		usleep(TICK_MS * 1000);
		return;
	}
}

static void dispatch(struct srv *sv, struct epoll_event *ev, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct srv_ev *e = ev[i].data.ptr;

		switch (e->kind) {
		case SRV_EV_LISTEN:
			accept_ready(sv);
			break;
		case SRV_EV_CONN:
			sched_conn_event(&sv->s, (struct pconn *)e);
			break;
		case SRV_EV_CTL:
			sched_ctl_event(&sv->s, (struct ctl_run *)e);
			break;
		case SRV_EV_DONE:
			sched_done_event(&sv->s);
			break;
		}
	}
	sched_reap(&sv->s);
}

/* Stop taking runs: from a signal (level 1 or 2) or after --exit-after. */
static void stop(struct srv *sv, int level, int *stopped)
{
	unsigned int n = sv->s.running;

	if (level <= *stopped)
		return;
	/* The --local server is quiet: an idle exit needs no word. */
	if (!*stopped && stop_signal && (n || !sv->o->quiet))
		srv_log("SIG%s: %s %u run%s in progress, then exiting",
			sigabbrev_np(stop_signal), level > 1 ? "aborting" :
			"finishing", n, n == 1 ? "" : "s");
	else if (level > 1)
		srv_log("aborting %u run%s in progress", n, n == 1 ? "" : "s");
	if (!*stopped) {
		epoll_ctl(sv->epfd, EPOLL_CTL_DEL, sv->lfd, NULL);
		close(sv->lfd);
		sv->lfd = -1;
	}
	sched_stop(&sv->s, level);
	sched_reap(&sv->s);
	*stopped = level;
}

static void serve_loop(struct srv *sv)
{
	struct epoll_event ev[MAX_EVENTS];
	int stopped = 0, n;

	for (;;) {
		if (stop_requested > stopped)
			stop(sv, stop_requested, &stopped);
		if (!stopped && sv->o->exit_after &&
		    sv->s.ended >= sv->o->exit_after)
			stop(sv, 1, &stopped);
		if (stopped && !sched_runs(&sv->s))
			return;
		n = epoll_wait(sv->epfd, ev, MAX_EVENTS, TICK_MS);
		if (n < 0 && errno != EINTR) {
			srv_log("epoll_wait: %s", strerror(errno));
			return;
		}
		if (n > 0)
			dispatch(sv, ev, n);
		sched_tick(&sv->s);
		sched_reap(&sv->s);
		log_refused(sv, NULL, srv_now_ms());
		/* Taken back once descriptors are free again. */
		if (sv->reserve_fd < 0)
			sv->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
}

static int announce_port(int fd, int lfd)
{
	char line[16];
	int n = snprintf(line, sizeof(line), "%u\n", net_local_port(lfd));
	ssize_t w = write(fd, line, (size_t)n);

	close(fd);
	return w == n ? 0 : -1;
}

/* Idle peers must not run into a soft limit that the hard one would lift. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Before the port is announced, so that a --trace that cannot trace
 * fails before any client comes, and the reason tracing is off is said
 * once, at start.  Loaded now, attached only for runs that ask.
 */
static int open_tracer(struct srv *sv)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	char err[300];

	if (getsockname(sv->lfd, (struct sockaddr *)&sa, &sl))
		sa.sin_port = sv->o->addr.sin_port;
	sv->s.tracer = srv_trace_open(sv->o->trace, ntohs(sa.sin_port),
			2 * (unsigned int)sv->o->caps.max_rooms *
			CHAT_USERS_PER_ROOM, err, sizeof(err));
	if (!sv->s.tracer) {
		srv_log("%s", err);
		return -1;
	}
	if (sv->o->trace == SRV_TRACE_AUTO &&
	    strncmp(srv_trace_state(sv->s.tracer), "on", 2))
		srv_log("tracing %s", srv_trace_state(sv->s.tracer));
	return 0;
}

static int setup(struct srv *sv)
{
	struct epoll_event e = { .events = EPOLLIN };
	int fl;

	sv->lfd = net_listen(&sv->o->addr, 4096);
	if (sv->lfd < 0) {
		srv_log("cannot listen on %s:%u: %s",
			inet_ntoa(sv->o->addr.sin_addr),
			ntohs(sv->o->addr.sin_port), strerror(errno));
		return -1;
	}
	fl = fcntl(sv->lfd, F_GETFL);
	sv->epfd = epoll_create1(EPOLL_CLOEXEC);
	sv->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	sv->listen_ev.kind = SRV_EV_LISTEN;
	e.data.ptr = &sv->listen_ev;
	if (fl < 0 || fcntl(sv->lfd, F_SETFL, fl | O_NONBLOCK) ||
	    sv->epfd < 0 || sv->reserve_fd < 0 ||
	    epoll_ctl(sv->epfd, EPOLL_CTL_ADD, sv->lfd, &e) ||
	    sched_init(&sv->s, sv->o, sv->epfd)) {
		srv_log("cannot set up the accept loop: %s", strerror(errno));
		return -1;
	}
	if (open_tracer(sv))
		return -1;
	if (sv->o->ready_fd >= 0 && announce_port(sv->o->ready_fd, sv->lfd)) {
		srv_log("cannot report the port on fd %d: %s",
			sv->o->ready_fd, strerror(errno));
		return -1;
	}
	return 0;
}

int server_serve(const struct server_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct srv sv = { .o = o, .lfd = -1, .epfd = -1, .reserve_fd = -1 };
	char place_err[256];
	sigset_t set;
	int rc = 1;

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
		srv_log("%s", place_err);
		return 1;
	}
	srv_sched_init(&o->sched);
	raise_fd_limit();
	sv.s.donefd = -1;
	if (!setup(&sv)) {
		serve_loop(&sv);
		rc = 0;
	}
	sched_free(&sv.s);
	srv_trace_close(sv.s.tracer);
	if (sv.lfd >= 0)
		close(sv.lfd);
	if (sv.epfd >= 0)
		close(sv.epfd);
	if (sv.reserve_fd >= 0)
		close(sv.reserve_fd);
	return rc;
}
