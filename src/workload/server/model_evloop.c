// SPDX-License-Identifier: GPL-2.0
/*
 * Event-loop data planes: --model epoll (one loop thread, like memcached
 * 1.2) and --model pool=N (N loop threads).  Sockets are non-blocking and
 * registered edge-triggered.  A loop reads what its connections have,
 * copies every complete 100-byte unit into the output buffers of the
 * other users of the room, then writes each buffer that got data once, so
 * that one send carries many units.  Whole rooms belong to one loop (room
 * r to loop r % N): rooms never exchange units, so nothing crosses loops
 * and the hot path takes no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "workload/proto.h"
#include "util/reslimit.h"
#include "workload/server/models.h"
#include "workload/server/place.h"
#include "workload/server/run.h"
#include "util/roles.h"

/* Bytes per recv: bounds what one read adds to each other user's buffer. */
#define READ_CHUNK	(80 * CHAT_MSG_SIZE)
/*
 * Output buffer watermarks.  Above OUT_HIGH on any user the loop stops
 * reading the whole room (every user feeds every other), so a buffer never
 * holds more than OUT_HIGH + READ_CHUNK bytes and a stalled reader costs
 * at most that much memory; reading resumes once all are below OUT_LOW.
 */
#define OUT_HIGH	(32 * 1024)
#define OUT_LOW		(8 * 1024)
#define MAX_EVENTS	256
#define TICK_MS		200

struct ev_loop;

struct ev_room;

struct ev_conn {
	struct srv_conn *conn;
	struct ev_room *room;
	struct ev_conn *rq_next;	/* read queue of the loop */
	struct ev_conn *wq_next;	/* write queue of the loop */
	uint8_t *out;			/* pending units: out[head..tail) */
	size_t head, tail, cap;
	struct unit_acc rx_acc;		/* bytes of a unit not yet complete */
	struct unit_acc tx_acc;		/* same for the unit being written */
	bool readable;	/* an edge was seen and the socket not drained */
	bool in_rq, in_wq;
	bool wblocked;	/* send said EAGAIN: wait for EPOLLOUT */
	bool over;	/* pending above OUT_HIGH */
	bool done;	/* every unit received and every unit written */
	uint8_t part[CHAT_MSG_SIZE];	/* the incomplete unit */
};

struct ev_room {
	struct ev_conn *users;	/* run->users of them */
	unsigned int over;	/* users with pending above OUT_HIGH */
};

struct ev_plane;

struct ev_loop {
	struct ev_plane *plane;
	unsigned int id;
	int epfd, wakefd;
	pthread_t thr;
	bool up;
	unsigned int left;	/* connections not done */
	struct ev_conn *rq_head, *rq_tail;
	struct ev_conn *wq_head, *wq_tail;
	int64_t last_ms;	/* this loop's last progress */
	uint8_t buf[CHAT_MSG_SIZE + READ_CHUNK];
	/*
	 * The same, for the other loops: they read it only when they have
	 * been idle for a timeout, so it gets its own cache line to keep
	 * the hot path free of sharing.
	 */
	_Alignas(64) atomic_int_fast64_t progress_ms;
};

struct ev_plane {
	struct srv_run *run;
	unsigned int nloops;
	unsigned int users;	/* per room */
	int timeout_ms;
	uint64_t tx_goal;	/* units each user must be sent */
	struct ev_loop *loops;
	struct ev_room *rooms;
	struct ev_conn *conns;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static size_t pending(const struct ev_conn *c)
{
	return c->tail - c->head;
}

static bool rx_done(const struct ev_loop *l, const struct ev_conn *c)
{
	return c->conn->rx_units >= (uint64_t)l->plane->run->messages;
}

static void rq_push(struct ev_loop *l, struct ev_conn *c)
{
	if (c->in_rq || rx_done(l, c))
		return;
	c->in_rq = true;
	c->rq_next = NULL;
	if (l->rq_tail)
		l->rq_tail->rq_next = c;
	else
		l->rq_head = c;
	l->rq_tail = c;
}

static void wq_push(struct ev_loop *l, struct ev_conn *c)
{
	if (c->in_wq || c->wblocked || !pending(c))
		return;
	c->in_wq = true;
	c->wq_next = NULL;
	if (l->wq_tail)
		l->wq_tail->wq_next = c;
	else
		l->wq_head = c;
	l->wq_tail = c;
}

static void check_done(struct ev_loop *l, struct ev_conn *c)
{
	if (c->done || !rx_done(l, c) || c->conn->tx_units < l->plane->tx_goal)
		return;
	c->done = true;
	l->left--;
}

/* Whole units only: a partial write keeps the rest in front of them. */
static int out_append(struct ev_conn *c, const uint8_t *p, size_t n)
{
	size_t have = pending(c);
	uint8_t *b;
	size_t cap;

	if (c->cap - c->tail < n && c->head) {
		memmove(c->out, c->out + c->head, have);
		c->head = 0;
		c->tail = have;
	}
	if (c->cap - c->tail < n) {
		cap = c->cap ? c->cap : 4096;
		while (cap < have + n)
			cap *= 2;
		b = realloc(c->out, cap);
		if (!b)
			return -1;
		c->out = b;
		c->cap = cap;
	}
	memcpy(c->out + c->tail, p, n);
	c->tail += n;
	return 0;
}

/* Units received from one user go, in order, to the others. */
static int fan_out(struct ev_loop *l, struct ev_conn *from, const uint8_t *p,
		   size_t n)
{
	struct ev_room *room = from->room;
	unsigned int i;

	for (i = 0; i < l->plane->users; i++) {
		struct ev_conn *to = &room->users[i];

		if (to == from)
			continue;
		if (out_append(to, p, n)) {
			srv_run_fail(l->plane->run,
				     "out of memory for the output of user %u (%zu bytes pending)",
				     to->conn->idx, pending(to));
			return -1;
		}
		if (!to->over && pending(to) > OUT_HIGH) {
			to->over = true;
			room->over++;
		}
		wq_push(l, to);
	}
	return 0;
}

/* 1 if bytes came, 0 if none, -1 after a failure. */
static int conn_read(struct ev_loop *l, struct ev_conn *c)
{
	struct srv_run *run = l->plane->run;
	size_t off = c->rx_acc.off, want;
	uint64_t units;
	ssize_t n;

	/* Never past the last unit: extra bytes stay unread, as with threads. */
	want = ((uint64_t)run->messages - c->conn->rx_units) * CHAT_MSG_SIZE -
	       off;
	if (want > READ_CHUNK)
		want = READ_CHUNK;
	memcpy(l->buf, c->part, off);
	n = recv(c->conn->fd, l->buf + off, want, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		c->readable = false;
		return 0;
	}
	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0) {
		srv_run_fail(run, "user %u: receive of message %llu of %d: %s",
			     c->conn->idx,
			     (unsigned long long)c->conn->rx_units + 1,
			     run->messages, srv_io_why(n));
		return -1;
	}
	units = proto_feed_units(&c->rx_acc, (size_t)n);
	c->conn->rx_units += units;
	if (units && fan_out(l, c, l->buf, units * CHAT_MSG_SIZE))
		return -1;
	memcpy(c->part, l->buf + units * CHAT_MSG_SIZE, c->rx_acc.off);
	/* A short read of a stream socket means it is drained (epoll(7)). */
	if ((size_t)n < want || rx_done(l, c)) {
		c->readable = false;
		check_done(l, c);
	}
	return 1;
}

/* Every user of the room that has unread bytes goes back in the queue. */
static void room_resume(struct ev_loop *l, struct ev_room *room)
{
	unsigned int i;

	for (i = 0; i < l->plane->users; i++)
		if (room->users[i].readable)
			rq_push(l, &room->users[i]);
}

/* 1 if bytes went out, 0 if none, -1 after a failure. */
static int conn_flush(struct ev_loop *l, struct ev_conn *c)
{
	int moved = 0;

	while (pending(c)) {
		ssize_t n = send(c->conn->fd, c->out + c->head, pending(c),
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			c->wblocked = true;
			break;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			srv_run_fail(l->plane->run, "send to user %u: %s",
				     c->conn->idx, strerror(errno));
			return -1;
		}
		c->head += (size_t)n;
		/*
		 * Counted on the receiving user, where the threads model
		 * counts on the sending one: only the owning loop writes it,
		 * and both come to (users - 1) x messages per user.
		 */
		c->conn->tx_units += proto_feed_units(&c->tx_acc, (size_t)n);
		moved = 1;
	}
	if (!pending(c))
		c->head = c->tail = 0;
	if (c->over && pending(c) <= OUT_LOW) {
		c->over = false;
		if (--c->room->over == 0)
			room_resume(l, c->room);
	}
	check_done(l, c);
	return moved;
}

/*
 * One recv per readable connection per pass, then to the back of the
 * queue: a fast sender cannot starve the others of the loop.
 */
static int read_pass(struct ev_loop *l)
{
	struct ev_conn *c, *list = l->rq_head;
	int moved = 0, r;

	l->rq_head = l->rq_tail = NULL;
	while ((c = list)) {
		list = c->rq_next;
		c->in_rq = false;
		/* Parked: room_resume() queues it again. */
		if (c->room->over)
			continue;
		r = conn_read(l, c);
		if (r < 0)
			return -1;
		moved |= r;
		if (c->readable)
			rq_push(l, c);
	}
	return moved;
}

static int write_pass(struct ev_loop *l)
{
	struct ev_conn *c, *list = l->wq_head;
	int moved = 0, r;

	l->wq_head = l->wq_tail = NULL;
	while ((c = list)) {
		list = c->wq_next;
		c->in_wq = false;
		r = conn_flush(l, c);
		if (r < 0)
			return -1;
		moved |= r;
	}
	return moved;
}

static void on_event(struct ev_loop *l, const struct epoll_event *e)
{
	struct ev_conn *c = e->data.ptr;
	uint64_t v;

	if (!c) {
		/* The wake eventfd: the loop condition sees the failure. */
		(void)!read(l->wakefd, &v, sizeof(v));
		return;
	}
	if (c->done)
		return;
	/* Errors and hang-ups surface in the next recv or send. */
	if (e->events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
		c->readable = true;
		if (!c->room->over)
			rq_push(l, c);
	}
	if (e->events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
		c->wblocked = false;
		wq_push(l, c);
	}
}

/* Why the run stalled, naming the first user of this loop that is stuck. */
static void fail_stalled(struct ev_loop *l, int64_t idle_ms)
{
	struct ev_plane *p = l->plane;
	struct ev_conn *reader = NULL, *sender = NULL;
	unsigned int r, i;

	for (r = l->id; r < (unsigned int)p->run->rooms; r += p->nloops) {
		for (i = 0; i < p->users; i++) {
			struct ev_conn *c = &p->rooms[r].users[i];

			if (!reader && c->wblocked && pending(c))
				reader = c;
			if (!sender && !rx_done(l, c))
				sender = c;
		}
	}
	if (reader)
		srv_run_fail(p->run,
			     "no progress for %lld ms: user %u does not read (%llu of %llu messages delivered, %zu bytes waiting)",
			     (long long)idle_ms, reader->conn->idx,
			     (unsigned long long)reader->conn->tx_units,
			     (unsigned long long)p->tx_goal, pending(reader));
	else if (sender)
		srv_run_fail(p->run,
			     "no progress for %lld ms: user %u sent %llu of %d messages",
			     (long long)idle_ms, sender->conn->idx,
			     (unsigned long long)sender->conn->rx_units,
			     p->run->messages);
	else
		srv_run_fail(p->run, "no progress for %lld ms",
			     (long long)idle_ms);
}

/*
 * The timeout is of the whole run: a loop whose rooms wait while another
 * loop still moves data is not stalled, since the client's threads of
 * every room share the same CPUs.
 */
static void check_progress(struct ev_loop *l, bool moved)
{
	struct ev_plane *p = l->plane;
	int64_t now = now_ms(), latest = 0;
	unsigned int i;

	if (moved) {
		l->last_ms = now;
		atomic_store_explicit(&l->progress_ms, now,
				      memory_order_relaxed);
		return;
	}
	if (p->timeout_ms <= 0 || now - l->last_ms < p->timeout_ms)
		return;
	for (i = 0; i < p->nloops; i++) {
		int64_t t = atomic_load_explicit(&p->loops[i].progress_ms,
						 memory_order_relaxed);

		if (t > latest)
			latest = t;
	}
	if (now - latest >= p->timeout_ms)
		fail_stalled(l, now - latest);
}

static void *loop_main(void *arg)
{
	struct ev_loop *l = arg;
	struct srv_run *run = l->plane->run;
	struct epoll_event ev[MAX_EVENTS];
	char why[240];
	int n, i, r, w;

	role_name_self(CB_ROLE_SRV_LOOP);
	if (srv_sched_self(CB_ROLE_SRV_LOOP, why, sizeof(why)))
		srv_run_fail(run, "srv_loop thread: %s", why);
	while (l->left &&
	       !atomic_load_explicit(&run->failed, memory_order_relaxed)) {
		/* Queued reads are pending work: only peek at the events. */
		n = epoll_wait(l->epfd, ev, MAX_EVENTS,
			       l->rq_head ? 0 : TICK_MS);
		if (n < 0 && errno != EINTR) {
			srv_run_fail(run, "epoll_wait: %s", strerror(errno));
			break;
		}
		for (i = 0; i < n; i++)
			on_event(l, &ev[i]);
		r = read_pass(l);
		if (r < 0)
			break;
		w = write_pass(l);
		if (w < 0)
			break;
		check_progress(l, r || w);
	}
	srv_worker_done(run);
	return NULL;
}

static void ev_wake(struct srv_run *run)
{
	struct ev_plane *p = run->model_data;
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; p && i < p->nloops; i++)
		if (p->loops[i].wakefd >= 0)
			(void)!write(p->loops[i].wakefd, &one, sizeof(one));
}

static int watch(int epfd, int fd, uint32_t events, void *ptr)
{
	struct epoll_event e = { .events = events, .data.ptr = ptr };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &e);
}

static int loop_init(struct ev_loop *l, struct ev_plane *p, unsigned int id)
{
	l->plane = p;
	l->id = id;
	l->wakefd = -1;
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->epfd < 0)
		return -1;
	l->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->wakefd < 0)
		return -1;
	return watch(l->epfd, l->wakefd, EPOLLIN, NULL);
}

static int conn_init(struct ev_loop *l, struct ev_conn *c)
{
	int fl = fcntl(c->conn->fd, F_GETFL);

	if (fl < 0 || fcntl(c->conn->fd, F_SETFL, fl | O_NONBLOCK))
		return -1;
	l->left++;
	/* Edge-triggered: no epoll_ctl on the hot path, ever. */
	return watch(l->epfd, c->conn->fd,
		     EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, c);
}

/* Everything but the threads; -1 with the failure recorded. */
static int plane_init(struct srv_run *run, struct ev_plane *p)
{
	unsigned int r, i;

	for (i = 0; i < p->nloops; i++) {
		p->loops[i].epfd = p->loops[i].wakefd = -1;
		atomic_init(&p->loops[i].progress_ms, now_ms());
		p->loops[i].last_ms = now_ms();
	}
	for (i = 0; i < p->nloops; i++) {
		if (loop_init(&p->loops[i], p, i)) {
			srv_run_fail(run, "event loop %u: %s", i,
				     strerror(errno));
			return -1;
		}
	}
	for (r = 0; r < (unsigned int)run->rooms; r++) {
		struct ev_loop *l = &p->loops[r % p->nloops];

		p->rooms[r].users = &p->conns[r * p->users];
		for (i = 0; i < p->users; i++) {
			unsigned int k = r * p->users + i;
			struct ev_conn *c = &p->conns[k];

			c->conn = &run->conns[k];
			c->room = &p->rooms[r];
			if (conn_init(l, c)) {
				srv_run_fail(run, "watching user %u: %s", k,
					     strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static int ev_start(struct srv_run *run, const struct srv_model_cfg *cfg,
		    unsigned int nloops)
{
	struct ev_plane *p;
	pthread_attr_t attr;
	void *mem = NULL;
	unsigned int i;
	int err;

	/* A loop without a room would only exit at once. */
	if (nloops > (unsigned int)run->rooms)
		nloops = (unsigned int)run->rooms;
	if (!nloops)
		nloops = 1;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	run->model_data = p;
	p->run = run;
	p->timeout_ms = cfg->timeout_ms;
	p->users = (unsigned int)run->users;
	p->tx_goal = (uint64_t)run->messages * (p->users - 1);
	p->rooms = calloc((size_t)run->rooms, sizeof(*p->rooms));
	p->conns = calloc(run->nconn, sizeof(*p->conns));
	/* The loops' progress words want their cache-line alignment. */
	if (!p->rooms || !p->conns ||
	    posix_memalign(&mem, 64, nloops * sizeof(*p->loops)))
		goto nomem;
	memset(mem, 0, nloops * sizeof(*p->loops));
	p->loops = mem;
	p->nloops = nloops;
	if (plane_init(run, p))
		return -1;
	if (limits_thread_attr(&attr)) {
		srv_run_fail(run, "pthread attributes: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < nloops; i++) {
		struct ev_loop *l = &p->loops[i];

		err = srv_place_attr(&attr, i + 1);
		if (!err)
			err = pthread_create(&l->thr, &attr, loop_main, l);
		if (err) {
			pthread_attr_destroy(&attr);
			srv_run_fail(run, "cannot create event loop %u of %u: %s",
				     i + 1, nloops, strerror(err));
			return -1;
		}
		l->up = true;
		srv_worker_started(run);
	}
	pthread_attr_destroy(&attr);
	return 0;
nomem:
	srv_run_fail(run, "out of memory for %u connections", run->nconn);
	return -1;
}

/* The check before a run counts the loops asked for, rooms or not. */
static unsigned long ev_threads(unsigned int nconn,
				const struct srv_model_cfg *cfg)
{
	(void)nconn;
	return cfg->loops;
}

static int epoll_start(struct srv_run *run, const struct srv_model_cfg *cfg)
{
	return ev_start(run, cfg, 1);
}

static int pool_start(struct srv_run *run, const struct srv_model_cfg *cfg)
{
	long n = cfg->loops;

	if (!n)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return ev_start(run, cfg, n > 0 ? (unsigned int)n : 1);
}

static void ev_finish(struct srv_run *run)
{
	struct ev_plane *p = run->model_data;
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < p->nloops; i++)
		if (p->loops[i].up)
			pthread_join(p->loops[i].thr, NULL);
	/* A failing stop may be writing to the wake fds until here. */
	srv_run_take_model(run);
	for (i = 0; i < p->nloops; i++) {
		struct ev_loop *l = &p->loops[i];

		if (l->epfd >= 0)
			close(l->epfd);
		if (l->wakefd >= 0)
			close(l->wakefd);
	}
	for (i = 0; p->conns && i < run->nconn; i++)
		free(p->conns[i].out);
	free(p->loops);
	free(p->conns);
	free(p->rooms);
	free(p);
}

const struct srv_model srv_model_epoll = {
	.name = "epoll",
	.threads = ev_threads,
	.start = epoll_start,
	.wake = ev_wake,
	.finish = ev_finish,
};

const struct srv_model srv_model_pool = {
	.name = "pool",
	.threads = ev_threads,
	.start = pool_start,
	.wake = ev_wake,
	.finish = ev_finish,
};

