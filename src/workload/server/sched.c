// SPDX-License-Identifier: GPL-2.0
/*
 * Runs from their start message to their release: attributing silent
 * connections to runs per peer address in accept order, the connect-phase
 * timeout, the groups of chat_s --clients, the queue of --max-runs with
 * its waiting notices, and the release of a run (or of a whole group at
 * once) to run_ctl.c.  Everything here runs on the accept loop's thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/reslimit.h"
#include "workload/server/sched.h"
#include "workload/server/srv_trace.h"
#include "workload/server/srvlog.h"

/* A waiting client hears from the server at least this often. */
#define NOTICE_MS 1000

int sched_init(struct sched *s, const struct server_opts *o, int epfd)
{
	struct epoll_event e = { .events = EPOLLIN };

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->cfg.timeout_ms = o->timeout_ms;
	s->cfg.loops = o->loops;
	s->epfd = epfd;
	s->done_ev.kind = SRV_EV_DONE;
	s->donefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->donefd < 0)
		return -1;
	e.data.ptr = &s->done_ev;
	return epoll_ctl(epfd, EPOLL_CTL_ADD, s->donefd, &e);
}

static unsigned int nconn(const struct ctl_run *r)
{
	return r->live.run->nconn;
}

static void unlink_run(struct sched *s, struct ctl_run *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		s->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		s->tail = r->prev;
	/* Events of this batch may still point at it: freed after it. */
	r->state = CR_DEAD;
	r->next = s->dead;
	s->dead = r;
}

/* A run not yet released: refused with why (NULL: nothing said). */
static void drop_run(struct sched *s, struct ctl_run *r, const char *why)
{
	unsigned int i;

	if (why)
		srv_refuse(r->live.ctl, r->live.peer, why);
	for (i = 0; i < r->claimed; i++)
		pconn_drop(&s->pending, r->users[i], 1);
	r->claimed = 0;
	run_live_free(&r->live);
	unlink_run(s, r);
}

static void claim(struct ctl_run *r, struct pconn *pc)
{
	pc->owner = r;
	r->users[r->claimed++] = pc;
	r->since_ms = srv_now_ms();
}

static void unclaim(struct ctl_run *r, struct pconn *pc)
{
	unsigned int i;

	for (i = 0; i < r->claimed && r->users[i] != pc; i++)
		;
	if (i == r->claimed)
		return;
	memmove(&r->users[i], &r->users[i + 1],
		(r->claimed - i - 1) * sizeof(r->users[0]));
	r->claimed--;
	pc->owner = NULL;
}

static unsigned int count_state(const struct sched *s, enum cr_state st)
{
	const struct ctl_run *r;
	unsigned int n = 0;

	for (r = s->head; r; r = r->next)
		n += r->state == st;
	return n;
}

static int oldest_group(const struct sched *s, unsigned long *g)
{
	const struct ctl_run *r;
	int found = 0;

	for (r = s->head; r; r = r->next) {
		if (r->state != CR_QUEUED || (found && r->group >= *g))
			continue;
		*g = r->group;
		found = 1;
	}
	return found;
}

/* Starts every run of group g, then sends each its 0x11: together. */
static void release_group(struct sched *s, unsigned long g)
{
	struct ctl_run *r, *next;
	unsigned int i;

	for (r = s->head; r; r = next) {
		next = r->next;
		if (r->state != CR_QUEUED || r->group != g)
			continue;
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, r->live.ctl, NULL);
		for (i = 0; i < r->claimed; i++) {
			int fd = r->users[i]->fd;

			epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
			r->live.run->conns[i].fd = fd;
			pconn_drop(&s->pending, r->users[i], 0);
		}
		r->claimed = 0;
		/*
		 * The urgent byte came with the start message: it is here.
		 * Attached now, before the run's threads exist.
		 */
		r->live.tracer = s->tracer;
		r->live.group = g;
		r->live.timeout_ms = s->o->timeout_ms;
		r->live.asked = srv_trace_asked(r->live.ctl);
		if (r->live.asked)
			r->live.traced = !srv_trace_claim(s->tracer, g,
					r->live.run, r->live.why_not,
					sizeof(r->live.why_not));
		if (run_live_start(&r->live, &s->cfg)) {
			run_live_free(&r->live);
			unlink_run(s, r);
			continue;
		}
		r->state = CR_RUNNING;
		s->running++;
	}
	for (r = s->head; r; r = r->next)
		if (r->state == CR_RUNNING && r->group == g &&
		    !r->live.thr_up && !atomic_load(&r->live.ended))
			run_live_go(&r->live);
}

static void start_queued(struct sched *s)
{
	const struct ctl_run *r;
	unsigned long g = 0;
	unsigned int k;

	while (!s->stopping && oldest_group(s, &g)) {
		k = 0;
		for (r = s->head; r; r = r->next)
			k += r->state == CR_QUEUED && r->group == g;
		if (s->running + k > s->o->max_runs)
			return;
		release_group(s, g);
	}
}

static void queue_run(struct ctl_run *r, unsigned long group,
		      unsigned int size)
{
	r->state = CR_QUEUED;
	r->group = group;
	r->group_size = size;
	r->notice = 0;
	r->notice_ms = 0;
}

/* --clients N: the N oldest connected runs go to the queue as one. */
static void group_fill(struct sched *s)
{
	unsigned int want = s->o->clients, k = 0;
	struct ctl_run *r;

	if (count_state(s, CR_GROUP) < want)
		return;
	s->groups++;
	for (r = s->head; r && k < want; r = r->next) {
		if (r->state != CR_GROUP)
			continue;
		queue_run(r, s->groups, want);
		k++;
	}
}

static void connected(struct sched *s, struct ctl_run *r)
{
	unsigned int i = 0;

	/*
	 * A user that spoke is the control connection of another client
	 * (or garbage): it goes back to the handshakes, whose level-
	 * triggered event comes in the next pass.
	 */
	while (i < r->claimed) {
		if (pconn_spoke(r->users[i]))
			unclaim(r, r->users[i]);
		else
			i++;
	}
	if (r->claimed < nconn(r))
		return;
	if (s->o->clients > 1) {
		r->state = CR_GROUP;
		r->since_ms = srv_now_ms();
		group_fill(s);
	} else {
		queue_run(r, ++s->groups, 1);
	}
	start_queued(s);
}

/* Silent connections that came after r's start message are its users. */
static void fill(struct sched *s, struct ctl_run *r)
{
	struct pconn *pc;

	for (pc = s->pending.head; pc && r->claimed < nconn(r); pc = pc->next)
		if (!pc->owner && pc->seq > r->seq &&
		    pc->ip.s_addr == r->ip.s_addr && !pconn_spoke(pc))
			claim(r, pc);
	if (r->claimed == nconn(r))
		connected(s, r);
}

/* The latest start message of pc's address, if it still wants users. */
static struct ctl_run *owner_of(struct sched *s, const struct pconn *pc)
{
	struct ctl_run *r, *latest = NULL;

	for (r = s->head; r; r = r->next)
		if (r->ip.s_addr == pc->ip.s_addr && r->seq < pc->seq &&
		    (!latest || r->seq > latest->seq))
			latest = r;
	if (!latest || latest->state != CR_CONNECTING ||
	    latest->claimed >= nconn(latest))
		return NULL;
	return latest;
}

int sched_accepted(struct sched *s, int fd, const struct sockaddr_in *sa)
{
	struct epoll_event e = { .events = EPOLLIN | EPOLLRDHUP };
	struct ctl_run *owner;
	struct pconn *pc;

	pc = pconn_add(&s->pending, fd, sa, ++s->seq,
		       srv_now_ms() + s->o->handshake_ms);
	if (!pc)
		return -1;
	e.data.ptr = pc;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &e)) {
		pconn_drop(&s->pending, pc, 0);
		return -1;
	}
	owner = owner_of(s, pc);
	if (owner && !pconn_spoke(pc)) {
		claim(owner, pc);
		if (owner->claimed == nconn(owner))
			connected(s, owner);
	}
	return 0;
}

/*
 * A start message from r's address while r still connects: its users and
 * the new client's can no longer be told apart, so r ends here with the
 * reason, unless its client is simply gone.
 */
static void supersede(struct sched *s, const struct pconn *pc)
{
	struct ctl_run *r, *next;
	char why[CHAT_REASON_MAX];
	uint8_t b;

	for (r = s->head; r; r = next) {
		next = r->next;
		if (r->state != CR_CONNECTING || r->seq > pc->seq ||
		    r->ip.s_addr != pc->ip.s_addr)
			continue;
		if (!recv(r->live.ctl, &b, 1, MSG_PEEK | MSG_DONTWAIT))
			snprintf(why, sizeof(why),
				 "client closed the control connection after %u of %u data connections",
				 r->claimed, nconn(r));
		else
			snprintf(why, sizeof(why),
				 "another client of %s connected (run %ld) after %u of this run's %u data connections: clients of one host must connect one after another",
				 pc->peer, s->runs, r->claimed, nconn(r));
		drop_run(s, r, why);
	}
}

/*
 * Descriptors the runs hold, and a margin.  Connections not claimed are
 * left out: idle peers and the users of a refused client go on their
 * deadline or at their EOF, and counting them refused the next run.
 */
static unsigned long fds_in_use(const struct sched *s)
{
	const struct ctl_run *r;
	unsigned long n = 32;

	for (r = s->head; r; r = r->next)
		n += 1 + (r->state == CR_RUNNING ? nconn(r) : r->claimed);
	return n;
}

static struct ctl_run *run_new(struct sched *s, struct pconn *pc,
			       const struct chat_start *st)
{
	struct ctl_run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->live.run = srv_run_new(st, s->o->model);
	r->users = r->live.run ? calloc(r->live.run->nconn,
					sizeof(*r->users)) : NULL;
	if (!r->users) {
		if (r->live.run)
			srv_run_free(r->live.run);
		free(r);
		return NULL;
	}
	r->ev.kind = SRV_EV_CTL;
	r->s = s;
	r->seq = pc->seq;
	r->ip = pc->ip;
	r->st = *st;
	r->since_ms = srv_now_ms();
	r->live.ctl = pc->fd;
	snprintf(r->live.peer, sizeof(r->live.peer), "%s", pc->peer);
	r->live.no = s->runs;
	r->live.quiet = s->o->quiet;
	r->live.donefd = s->donefd;
	r->prev = s->tail;
	if (s->tail)
		s->tail->next = r;
	else
		s->head = r;
	s->tail = r;
	return r;
}

static void start_message(struct sched *s, struct pconn *pc,
			  const struct chat_start *st)
{
	struct epoll_event e = { .events = EPOLLRDHUP };
	unsigned long n;
	struct ctl_run *r;
	char why[256];

	s->runs++;
	supersede(s, pc);
	if (proto_check_start(st, &s->o->caps, why, sizeof(why)))
		goto refuse;
	if (!s->o->quiet) {
		printf("SRV: client connected, rooms = %d messages = %d\n",
		       st->rooms, st->messages);
		if (st->users != CHAT_USERS_PER_ROOM)
			printf("SRV: %d users per room\n", st->users);
	}
	n = (unsigned long)st->rooms * (unsigned long)st->users;
	if (limits_ensure_fds(fds_in_use(s) + n, why, sizeof(why)) ||
	    limits_check_threads(s->o->model->threads((unsigned int)n,
						      &s->cfg),
				 why, sizeof(why)))
		goto refuse;
	r = run_new(s, pc, st);
	if (!r) {
		snprintf(why, sizeof(why), "out of memory for the run");
		goto refuse;
	}
	/* From now on only a hang-up of the control connection matters. */
	e.data.ptr = r;
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, pc->fd, &e);
	pconn_drop(&s->pending, pc, 0);
	fill(s, r);
	return;
refuse:
	srv_refuse(pc->fd, pc->peer, why);
	pconn_drop(&s->pending, pc, 1);
}

void sched_conn_event(struct sched *s, struct pconn *pc)
{
	struct ctl_run *r = pc->owner;
	struct chat_start st;
	int was_user = r != NULL;

	if (pc->dead)
		return;
	if (r && r->state != CR_CONNECTING) {
		drop_run(s, r, "a data connection closed or sent data before 0x11");
		return;
	}
	if (r)
		unclaim(r, pc);
	/* A user of a client that died is said by its control connection. */
	switch (hs_read(pc, &st, !was_user || pc->got)) {
	case HS_MORE:
		return;
	case HS_CLOSED:
		pconn_drop(&s->pending, pc, 1);
		return;
	case HS_START:
		if (s->stopping) {
			srv_refuse(pc->fd, pc->peer, "the server is shutting down");
			pconn_drop(&s->pending, pc, 1);
			return;
		}
		start_message(s, pc, &st);
		return;
	}
}

void sched_ctl_event(struct sched *s, struct ctl_run *r)
{
	char why[CHAT_REASON_MAX];

	switch (r->state) {
	case CR_CONNECTING:
		snprintf(why, sizeof(why),
			 "client closed the control connection after %u of %u data connections",
			 r->claimed, nconn(r));
		break;
	case CR_GROUP:
		snprintf(why, sizeof(why),
			 "client closed the control connection while its group of %u clients formed (--clients)",
			 s->o->clients);
		break;
	case CR_QUEUED:
		snprintf(why, sizeof(why),
			 "client closed the control connection while queued (--max-runs %u)",
			 s->o->max_runs);
		break;
	default:
		return;
	}
	drop_run(s, r, why);
}

void sched_done_event(struct sched *s)
{
	struct ctl_run *r, *next;
	uint64_t v;

	(void)!read(s->donefd, &v, sizeof(v));
	for (r = s->head; r; r = next) {
		next = r->next;
		if (r->state != CR_RUNNING || !atomic_load(&r->live.ended))
			continue;
		run_live_free(&r->live);
		s->running--;
		s->ended++;
		unlink_run(s, r);
	}
	start_queued(s);
}

static void notify(struct ctl_run *r, uint8_t notice, int64_t now)
{
	if (notice == r->notice && now - r->notice_ms < NOTICE_MS)
		return;
	srv_notice(r->live.ctl, notice);
	r->notice = notice;
	r->notice_ms = now;
}

static void tick_queued(struct sched *s, struct ctl_run *r, int64_t now)
{
	const struct ctl_run *q;
	unsigned long ahead = s->running;

	for (q = s->head; q; q = q->next)
		ahead += q->state == CR_QUEUED && q->group < r->group;
	if (!r->notice)
		srv_log("run %ld from %s: queued behind %lu run%s (--max-runs %u)",
			r->live.no, r->live.peer, ahead, ahead == 1 ? "" : "s",
			s->o->max_runs);
	notify(r, proto_notice(0, ahead), now);
}

static void tick_run(struct sched *s, struct ctl_run *r, int64_t now)
{
	char why[CHAT_REASON_MAX];
	unsigned int have;

	switch (r->state) {
	case CR_CONNECTING:
		if (now - r->since_ms < s->o->timeout_ms)
			return;
		snprintf(why, sizeof(why),
			 "only %u of %u data connections arrived within %d ms",
			 r->claimed, nconn(r), s->o->timeout_ms);
		drop_run(s, r, why);
		return;
	case CR_GROUP:
		have = count_state(s, CR_GROUP);
		if (now - r->since_ms < s->o->timeout_ms) {
			notify(r, proto_notice(1, s->o->clients - have), now);
			return;
		}
		snprintf(why, sizeof(why),
			 "only %u of %u clients connected within %d ms (chat_s --clients %u)",
			 have, s->o->clients, s->o->timeout_ms, s->o->clients);
		drop_run(s, r, why);
		return;
	case CR_QUEUED:
		tick_queued(s, r, now);
		return;
	default:
		return;
	}
}

void sched_tick(struct sched *s)
{
	int64_t now = srv_now_ms();
	struct pconn *pc, *pnext;
	struct ctl_run *r, *next;

	for (pc = s->pending.head; pc; pc = pnext) {
		pnext = pc->next;
		if (pc->owner || now < pc->deadline_ms)
			continue;
		hs_log_timeout(pc, s->o->handshake_ms, &s->silent);
		pconn_drop(&s->pending, pc, 1);
	}
	hs_log_silent(&s->silent, s->o->handshake_ms);
	for (r = s->head; r; r = next) {
		next = r->next;
		tick_run(s, r, now);
	}
	start_queued(s);
}

void sched_reap(struct sched *s)
{
	struct ctl_run *r;

	pconn_reap(&s->pending);
	while ((r = s->dead)) {
		s->dead = r->next;
		free(r->users);
		free(r);
	}
}

void sched_stop(struct sched *s, int level)
{
	struct ctl_run *r, *next;

	if (!s->stopping) {
		s->stopping = true;
		for (r = s->head; r; r = next) {
			next = r->next;
			if (r->state != CR_RUNNING)
				drop_run(s, r, "the server is shutting down");
		}
		while (s->pending.head)
			pconn_drop(&s->pending, s->pending.head, 1);
	}
	if (level < 2)
		return;
	for (r = s->head; r; r = r->next)
		if (r->state == CR_RUNNING)
			srv_run_fail(r->live.run, "server stopped by a signal");
}

unsigned int sched_runs(const struct sched *s)
{
	const struct ctl_run *r;
	unsigned int n = 0;

	for (r = s->head; r; r = r->next)
		n++;
	return n;
}

void sched_free(struct sched *s)
{
	sched_stop(s, 2);
	while (s->head) {
		struct ctl_run *r = s->head;

		/* Only running runs are left: the failure ends their threads. */
		run_live_free(&r->live);
		unlink_run(s, r);
	}
	sched_reap(s);
	if (s->donefd >= 0)
		close(s->donefd);
}
