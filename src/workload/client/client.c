// SPDX-License-Identifier: GPL-2.0
/*
 * The chat client's run: faithful to the original in what it sends and
 * when, fixed in what it does when something goes wrong.  Every wait is
 * bounded by the timeout; the first failure of any thread shuts all data
 * sockets down, so the run ends with one clear reason instead of hanging.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chatbench.h"
#include "workload/client/client.h"
#include "workload/client/connect_lock.h"
#include "util/cpuset.h"
#include "tracer/kstats.h"
#include "util/procfs.h"
#include "util/reslimit.h"
#include "workload/netio.h"
#include "workload/proto.h"
#include "util/timeutil.h"
#include "tracer/trace.h"
#include "util/roles.h"

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

struct client_ctx {
	const struct client_opts *o;
	struct trace *tracer;
	struct background *bg;
	pid_t server;
	pthread_mutex_t lock;
	struct cli_run *_Atomic cur;
	atomic_bool stop;
	char stop_why[128];
};

static void run_fail(struct cli_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run_fail(struct cli_run *run, const char *fmt, ...)
{
	unsigned int i;
	va_list ap;

	pthread_mutex_lock(&run->lock);
	if (atomic_exchange(&run->failed, true)) {
		pthread_mutex_unlock(&run->lock);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(run->why, sizeof(run->why), fmt, ap);
	va_end(ap);
	/* Under the lock: close_users() may be retiring the descriptors. */
	for (i = 0; i < run->nconn; i++)
		if (run->conns[i].fd >= 0)
			shutdown(run->conns[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&run->lock);
}

/*
 * The reason under the lock: a SIGINT fails the run from the signal thread,
 * which sets the flag before it writes the text.
 */
static void run_why(struct cli_run *run, char *buf, size_t len)
{
	pthread_mutex_lock(&run->lock);
	snprintf(buf, len, "%s", run->why);
	pthread_mutex_unlock(&run->lock);
}

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

static void *sender_main(void *arg)
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

static void *receiver_main(void *arg)
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

struct client_ctx *client_ctx_new(const struct client_opts *o,
				  struct trace *tracer)
{
	struct client_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->o = o;
	ctx->tracer = tracer;
	pthread_mutex_init(&ctx->lock, NULL);
	return ctx;
}

void client_ctx_free(struct client_ctx *ctx)
{
	if (!ctx)
		return;
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

void client_ctx_set_tracer(struct client_ctx *ctx, struct trace *tracer)
{
	ctx->tracer = tracer;
}

void client_ctx_set_server(struct client_ctx *ctx, pid_t server)
{
	ctx->server = server;
}

void client_ctx_set_background(struct client_ctx *ctx,
			       struct background *bg)
{
	ctx->bg = bg;
}

bool client_stopped(struct client_ctx *ctx)
{
	return atomic_load(&ctx->stop);
}

void client_abort(struct client_ctx *ctx, const char *why)
{
	struct cli_run *run;

	pthread_mutex_lock(&ctx->lock);
	if (!atomic_exchange(&ctx->stop, true))
		snprintf(ctx->stop_why, sizeof(ctx->stop_why), "%s", why);
	run = atomic_load(&ctx->cur);
	if (run)
		run_fail(run, "%s", why);
	pthread_mutex_unlock(&ctx->lock);
}

uint64_t client_progress(void *arg)
{
	struct client_ctx *ctx = arg;
	struct cli_run *run = atomic_load(&ctx->cur);
	uint64_t sum = 0;
	unsigned int i;

	if (!run)
		return 0;
	for (i = 0; i < run->nconn; i++)
		sum += atomic_load_explicit(&run->conns[i].sent,
					    memory_order_relaxed) +
		       atomic_load_explicit(&run->conns[i].received,
					    memory_order_relaxed);
	return sum;
}

static struct cli_run *run_new(const struct client_opts *o)
{
	struct cli_run *run = calloc(1, sizeof(*run));
	unsigned int i;

	if (!run)
		return NULL;
	run->o = o;
	run->nconn = (unsigned int)o->rooms * (unsigned int)o->users;
	run->conns = calloc(run->nconn, sizeof(*run->conns));
	if (!run->conns) {
		free(run);
		return NULL;
	}
	for (i = 0; i < run->nconn; i++) {
		run->conns[i].fd = -1;
		run->conns[i].idx = i;
		run->conns[i].run = run;
		run->conns[i].lat_buckets =
			calloc(CB_HIST_BUCKETS, sizeof(uint64_t));
		if (!run->conns[i].lat_buckets)
			goto nomem;
		if (!o->rate)
			continue;
		run->conns[i].ol_buckets =
			calloc(LH_BUCKETS, sizeof(lh_count_t));
		if (!run->conns[i].ol_buckets) {
			free(run->conns[i].lat_buckets);
			goto nomem;
		}
	}
	pthread_rwlock_init(&run->gate, NULL);
	pthread_mutex_init(&run->lock, NULL);
	return run;
nomem:
	while (i--) {
		free(run->conns[i].lat_buckets);
		free(run->conns[i].ol_buckets);
	}
	free(run->conns);
	free(run);
	return NULL;
}

static void join_workers(struct cli_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		if (c->snd_up)
			pthread_join(c->snd, NULL);
		if (c->rcv_up)
			pthread_join(c->rcv, NULL);
		c->snd_up = c->rcv_up = false;
	}
}

static void run_join_free(struct cli_run *run)
{
	unsigned int i;

	join_workers(run);
	for (i = 0; i < run->nconn; i++) {
		if (run->conns[i].fd >= 0)
			close(run->conns[i].fd);
		free(run->conns[i].lat_buckets);
		free(run->conns[i].ol_buckets);
	}
	pthread_rwlock_destroy(&run->gate);
	pthread_mutex_destroy(&run->lock);
	free(run->conns);
	free(run);
}

/*
 * A server that refuses a run says so on the control connection (our
 * 0x15 plus a reason) or just closes it (the original, or a crash).
 * Returns 1 with the reason in why if the control connection has spoken.
 */
static int control_spoke(int ctl, int wait_ms, uint8_t *first, char *why,
			 size_t len)
{
	char reason[CHAT_REASON_MAX + 1];
	ssize_t r, i;

	if (net_wait_readable(ctl, wait_ms) <= 0)
		return 0;
	r = recv(ctl, first, 1, MSG_DONTWAIT);
	if (r == 1 && *first == CHAT_CTL_READY)
		return 1;
	if (r <= 0) {
		snprintf(why, len,
			 "the server closed the control connection%s%s (see its log)",
			 r < 0 ? ": " : "", r < 0 ? strerror(errno) : "");
		return 1;
	}
	if (*first != CHAT_CTL_REFUSE) {
		snprintf(why, len, "the server sent 0x%02x instead of 0x11",
			 *first);
		return 1;
	}
	net_set_timeouts(ctl, 1000);
	r = net_read_full(ctl, reason, CHAT_REASON_MAX);
	reason[r > 0 ? r : 0] = '\0';
	/* A hostile server's bytes must not drive the user's terminal. */
	for (i = 0; reason[i]; i++)
		if (reason[i] < 0x20 || reason[i] > 0x7e)
			reason[i] = '?';
	snprintf(why, len, "the server refused the run: %s",
		 r > 0 ? reason : "no reason given");
	return 1;
}

static int open_users(struct cli_run *run, int ctl)
{
	const struct client_opts *o = run->o;
	unsigned int i;
	char why[256];
	uint8_t b;
	int fd;

	for (i = 0; i < run->nconn; i++) {
		if (i % (unsigned int)o->users == 0 && !o->quiet)
			fprintf(o->text, "Creating room number %u ...\n",
			       i / (unsigned int)o->users + 1);
		fd = net_connect(&o->addr, o->timeout_ms);
		pthread_mutex_lock(&run->lock);
		run->conns[i].fd = fd;
		pthread_mutex_unlock(&run->lock);
		if (fd < 0) {
			run_fail(run, "data connection %u of %u: %s", i + 1,
				 run->nconn, strerror(errno));
			return -1;
		}
		if (net_set_timeouts(fd, o->timeout_ms) ||
		    (o->nodelay && net_set_nodelay(fd))) {
			run_fail(run, "socket options: %s", strerror(errno));
			return -1;
		}
		/*
		 * A refusal arrives while we are still connecting.  After the
		 * last connection the server may rightly answer 0x11 at once:
		 * that byte is wait_ready()'s to read.
		 */
		if (i + 1 < run->nconn &&
		    control_spoke(ctl, 0, &b, why, sizeof(why))) {
			run_fail(run, "%s",
				 b == CHAT_CTL_READY ?
				 "the server sent 0x11 before all users connected" :
				 why);
			return -1;
		}
		if ((i + 1) % (unsigned int)o->users == 0 && !o->quiet)
			fprintf(o->text, "%u connections so far.\n", i + 1);
	}
	return 0;
}

/* --cpus / --pin: thread k of the run, before it passes the gate. */
static int place(struct cli_run *run, pthread_t t, unsigned int k)
{
	if (!run->o->have_cpus)
		return 0;
	return cpuset_place(t, &run->o->cpus, run->o->pin, k);
}

static int start_threads(struct cli_run *run)
{
	pthread_attr_t attr;
	unsigned int i;
	int err = 0;

	if (limits_thread_attr(&attr)) {
		run_fail(run, "pthread attributes: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		err = pthread_create(&c->snd, &attr, sender_main, c);
		if (err)
			break;
		c->snd_up = true;
		err = place(run, c->snd, 2 * i);
		if (err)
			break;
		err = pthread_create(&c->rcv, &attr, receiver_main, c);
		if (err)
			break;
		c->rcv_up = true;
		err = place(run, c->rcv, 2 * i + 1);
		if (err)
			break;
	}
	pthread_attr_destroy(&attr);
	if (err == EAGAIN) {
		char why[CHAT_REASON_MAX];

		/* Thread 2i+1 is user i's sender, 2i+2 its receiver. */
		limits_thread_error(err, 2UL * i + (run->conns[i].snd_up ? 2 : 1),
				    2UL * run->nconn, why, sizeof(why));
		run_fail(run, "%s", why);
		return -1;
	}
	if (err) {
		run_fail(run, "cannot create or place thread %u of %u: %s",
			 2 * i + 1, 2 * run->nconn, strerror(err));
		return -1;
	}
	return 0;
}

/* A notice of the server that makes the run wait, said when it changes. */
static void read_notice(int ctl, uint8_t *last)
{
	char text[160];
	uint8_t b;

	if (recv(ctl, &b, 1, MSG_OOB | MSG_DONTWAIT) != 1) {
		/* The urgent pointer came before its byte: it is on its way. */
		usleep(1000);
		return;
	}
	if (b == *last)
		return;
	*last = b;
	proto_notice_text(b, text, sizeof(text));
	fprintf(stderr, "chat_c: %s\n", text);
}

/*
 * 0x11 or a refusal within the timeout, which each notice of a server
 * that makes the run wait (proto.h CHAT_NOTICE_*) starts again: a queued
 * run waits as long as the server says so, a silent server is bounded.
 */
static int wait_ready(struct cli_run *run, int ctl)
{
	uint64_t timeout = (uint64_t)run->o->timeout_ms * 1000000;
	uint64_t deadline = now_ns() + timeout;
	uint8_t b = 0, last = 0;
	char why[256];

	for (;;) {
		struct pollfd p = { .fd = ctl, .events = POLLIN | POLLPRI };

		/* In slices: SIGINT fails the run from the signal thread. */
		if (atomic_load(&run->failed))
			return -1;
		if (now_ns() >= deadline) {
			run_fail(run, "no 0x11 from the server within %d ms (busy with another client?)",
				 run->o->timeout_ms);
			return -1;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (p.revents & POLLPRI) {
			read_notice(ctl, &last);
			deadline = now_ns() + timeout;
			continue;
		}
		if (!control_spoke(ctl, 0, &b, why, sizeof(why)))
			continue;
		if (b != CHAT_CTL_READY) {
			run_fail(run, "%s", why);
			return -1;
		}
		return 0;
	}
}

static bool server_role(int role)
{
	return role == CB_ROLE_SRV_RCV || role == CB_ROLE_SRV_SND ||
	       role == CB_ROLE_SRV_LOOP;
}

/* The server's threads, for sched_server(). */
struct srv_threads {
	pid_t *done;		/* set already, by tid */
	size_t ndone, cap;
	unsigned int unnamed;	/* still under the process's own name */
};

static bool tid_done(const struct srv_threads *st, pid_t tid)
{
	size_t i;

	for (i = 0; i < st->ndone; i++)
		if (st->done[i] == tid)
			return true;
	return false;
}

/* One server thread by its name; 0 when it is not ours to set or gone. */
static int sched_server_thread(struct cli_run *run, pid_t server, pid_t tid,
			       const char *pname, struct srv_threads *st)
{
	const struct sched_spec *spec = &run->o->sched;
	struct sched_got got;
	char name[64], comm[32], why[240];
	ssize_t n;
	int role;

	snprintf(name, sizeof(name), "task/%d/comm", (int)tid);
	n = proc_read(server, name, comm, sizeof(comm));
	if (n <= 0)
		return 0;
	comm[strcspn(comm, "\n")] = '\0';
	if (!strcmp(comm, pname))
		st->unnamed++;
	role = role_by_name(comm);
	if (!server_role(role) || !sched_spec_has(spec, role) ||
	    tid_done(st, tid))
		return 0;
	if (sched_apply(spec, role, tid, &got, why, sizeof(why))) {
		if (errno == ESRCH)
			return 0;
		run_fail(run, "server's %s thread %d: %s", comm, (int)tid, why);
		return -1;
	}
	if (st->ndone == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 256;
		pid_t *d = realloc(st->done, cap * sizeof(*d));

		if (!d) {
			run_fail(run, "out of memory");
			return -1;
		}
		st->done = d;
		st->cap = cap;
	}
	st->done[st->ndone++] = tid;
	sched_note(run, role, &got);
	return 0;
}

/* One pass over the server's threads; -1 when the run failed. */
static int scan_server(struct cli_run *run, pid_t server,
		       struct srv_threads *st)
{
	char path[64], pname[32] = "";
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (proc_read(server, "comm", pname, sizeof(pname)) > 0)
		pname[strcspn(pname, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task", (int)server);
	d = opendir(path);
	if (!d) {
		run_fail(run, "--sched for server threads: %s: %s", path,
			 strerror(errno));
		return -1;
	}
	st->unnamed = 0;
	while (!rc && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);

		if (tid > 0)
			rc = sched_server_thread(run, server, (pid_t)tid, pname,
						 st);
	}
	closedir(d);
	return rc;
}

static bool sched_server_asked(const struct cli_run *run)
{
	int role;

	for (role = 0; role < CB_ROLE_OTHER; role++)
		if (server_role(role) && sched_spec_has(&run->o->sched, role))
			return true;
	return false;
}

/*
 * Threads the server has made but that have not yet named themselves,
 * before the run: they are not this run's.
 */
static unsigned int server_unnamed(struct client_ctx *ctx,
				   struct cli_run *run)
{
	struct srv_threads st = { 0 };

	if (!ctx->server || !sched_server_asked(run))
		return 0;
	/* Nothing is applied: no role is asked of an unnamed thread. */
	scan_server(run, ctx->server, &st);
	free(st.done);
	return st.unnamed;
}

/*
 * --sched and co for the server's roles.  Its threads of this run exist
 * once it sent 0x11, but each names itself when it first runs, so the
 * scan repeats until no more are unnamed than before the run (bounded:
 * a thread that never runs is reported by the count of those set).
 * With several runs at once on the server, the others' threads are set
 * too: they share the roles' names.
 */
static int sched_server(struct client_ctx *ctx, struct cli_run *run,
			unsigned int unnamed_before)
{
	uint64_t deadline = now_ns() + 3000000000ULL;
	struct srv_threads st = { 0 };
	int rc = 0;

	if (!sched_server_asked(run))
		return 0;
	if (!ctx->server) {
		run_fail(run, "--sched/--nice/--slice for server threads: the server's process is not known here (give --server-pid, or use --local)");
		return -1;
	}
	for (;;) {
		rc = scan_server(run, ctx->server, &st);
		if (rc || st.unnamed <= unnamed_before)
			break;
		if (now_ns() > deadline) {
			fprintf(stderr, "chat_c: %u server threads had not named themselves after 3 s; their scheduling was not set\n",
				st.unnamed - unnamed_before);
			break;
		}
		usleep(2000);
	}
	free(st.done);
	return rc;
}

static void collect_sched(struct cli_run *run, struct run_result *res)
{
	pthread_mutex_lock(&run->lock);
	memcpy(res->sched, run->sched, sizeof(res->sched));
	memcpy(res->sched_threads, run->sched_n, sizeof(res->sched_threads));
	pthread_mutex_unlock(&run->lock);
}

static void collect_latency(struct cli_run *run, struct run_result *res)
{
	struct ks_hist *h = calloc(1, sizeof(*h));
	unsigned int i, b;

	if (!h)
		return;
	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		for (b = 0; b < CB_HIST_BUCKETS; b++)
			h->buckets[b] += c->lat_buckets[b];
		if (c->lat_max_ns > h->max)
			h->max = c->lat_max_ns;
		res->lat_unstamped += c->lat_unstamped;
	}
	ks_hist_finish(h);
	res->latency = h;
}

/*
 * Per room and for the run: the receivers of room k are users
 * k*users .. k*users + users - 1, as the server groups them.
 */
static void collect_open(struct cli_run *run, struct run_result *res)
{
	const struct client_opts *o = run->o;
	struct open_result *op = calloc(1, sizeof(*op));
	struct lat_hist *all = calloc(1, sizeof(*all));
	struct lat_hist *room = calloc(1, sizeof(*room));
	uint64_t last_snd = 0, last_rcv = 0;
	unsigned int i;

	if (!op || !all || !room)
		goto out;
	op->nrooms = o->rooms;
	op->rooms = calloc((size_t)o->rooms, sizeof(*op->rooms));
	if (!op->rooms)
		goto out;
	op->rate = o->rate;
	op->arrival = o->arrival;
	op->offered = (double)o->rate * (double)run->nconn;
	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		lh_add(room, c->ol_buckets, c->lat_max_ns);
		if (c->last_snd_ns > last_snd)
			last_snd = c->last_snd_ns;
		if (c->rcv_end_ns > last_rcv)
			last_rcv = c->rcv_end_ns;
		if ((i + 1) % (unsigned int)o->users)
			continue;
		lh_summarize(room, &op->rooms[i / (unsigned int)o->users]);
		lh_merge(all, room);
		memset(room, 0, sizeof(*room));
	}
	lh_summarize(all, &op->lat);
	if (last_snd > res->start_ns)
		op->achieved = (double)res->sent /
			       ((double)(last_snd - res->start_ns) / 1e9);
	if (last_rcv > res->start_ns)
		op->delivered = (double)res->received /
				((double)(last_rcv - res->start_ns) / 1e9);
	res->open = op;
	op = NULL;
out:
	if (op)
		free(op->rooms);
	free(op);
	free(all);
	free(room);
}

static void collect(struct cli_run *run, struct run_result *res)
{
	uint64_t end = res->start_ns;
	unsigned int i;

	collect_latency(run, res);
	collect_sched(run, res);
	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		res->sent += atomic_load(&c->sent);
		res->received += atomic_load(&c->received);
		if (c->snd_end_ns > end)
			end = c->snd_end_ns;
		if (c->rcv_end_ns > end)
			end = c->rcv_end_ns;
	}
	res->elapsed_s = (double)(end - res->start_ns) / 1e9;
	if (res->elapsed_s > 0)
		res->throughput =
			(double)(res->sent + res->received) / res->elapsed_s;
	if (run->o->rate)
		collect_open(run, res);
}

static void close_users(struct cli_run *run)
{
	unsigned int i;

	pthread_mutex_lock(&run->lock);
	for (i = 0; i < run->nconn; i++) {
		close(run->conns[i].fd);
		run->conns[i].fd = -1;
	}
	pthread_mutex_unlock(&run->lock);
}

static void set_current(struct client_ctx *ctx, struct cli_run *run)
{
	pthread_mutex_lock(&ctx->lock);
	atomic_store(&ctx->cur, run);
	if (run && atomic_load(&ctx->stop))
		run_fail(run, "%s", ctx->stop_why);
	pthread_mutex_unlock(&ctx->lock);
}

int client_run(struct client_ctx *ctx, int run_no, struct run_result *res)
{
	const struct client_opts *o = ctx->o;
	uint8_t start[CHAT_START_MAX_LEN], b;
	struct chat_start st = { o->rooms, o->messages, o->users };
	size_t start_len;
	struct cpu_times cpu_c0, cpu_s0, cpu_c1, cpu_s1;
	double steal0 = 0, steal1;
	uint64_t bg0 = 0;
	struct cli_run *run;
	bool traced = false, gate_held = false;
	unsigned int unnamed;
	int ctl = -1, lock = -1, rc = -1;
	char why[256];

	memset(res, 0, sizeof(*res));
	res->run = run_no;
	res->rooms = o->rooms;
	res->messages = o->messages;
	res->users = o->users;
	run = run_new(o);
	if (!run) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return -1;
	}
	set_current(ctx, run);
	pthread_rwlock_wrlock(&run->gate);
	gate_held = true;

	lock = connect_lock_take(&o->addr, o->timeout_ms, &run->failed, why,
				 sizeof(why));
	if (lock < 0) {
		run_fail(run, "%s", why);
		goto out;
	}
	ctl = net_connect(&o->addr, o->timeout_ms);
	if (ctl < 0) {
		run_fail(run, "cannot connect to %s:%d: %s%s",
			 inet_ntoa(o->addr.sin_addr), o->port, strerror(errno),
			 errno == ECONNREFUSED ? " (is chat_s running?)" : "");
		goto out;
	}
	unnamed = server_unnamed(ctx, run);
	start_len = proto_encode_start(&st, start);
	if (net_write_full(ctl, start, start_len) != (ssize_t)start_len) {
		run_fail(run, "sending the start message: %s", strerror(errno));
		goto out;
	}
	if (open_users(run, ctl))
		goto out;
	/* Every user is in the server's accept queue: the next may come. */
	connect_lock_give(lock);
	lock = -1;
	if (start_threads(run))
		goto out;
	if (!o->quiet)
		fprintf(o->text, "Running the test ...\n");
	fflush(o->text);
	if (wait_ready(run, ctl))
		goto out;
	if (sched_server(ctx, run, unnamed))
		goto out;

	if (ctx->tracer)
		traced = !trace_run_begin(ctx->tracer);
	cpu_times_self(&cpu_c0);
	cpu_times_pid(ctx->server, &cpu_s0);
	steal0 = cpu_steal_s();
	bg0 = bg_loops(ctx->bg);
	res->start_ns = now_ns();
	run->t0 = res->start_ns;
	pthread_rwlock_unlock(&run->gate);
	gate_held = false;
	join_workers(run);
	cpu_times_self(&cpu_c1);
	cpu_times_pid(ctx->server, &cpu_s1);
	cpu_times_delta(&cpu_c0, &cpu_c1, &res->cpu_client);
	cpu_times_delta(&cpu_s0, &cpu_s1, &res->cpu_server);
	steal1 = cpu_steal_s();
	collect(run, res);
	if (ctx->bg && res->elapsed_s > 0) {
		res->bg_burners = o->background.burners;
		res->bg_loops_per_s = (double)(bg_loops(ctx->bg) - bg0) /
				      res->elapsed_s;
	}
	if (res->elapsed_s > 0)
		res->steal_pct = 100.0 * (steal1 - steal0) /
				 (res->elapsed_s * (double)sysconf(_SC_NPROCESSORS_ONLN));
	if (traced)
		res->kernel = trace_run_end(ctx->tracer);
	if (atomic_load(&run->failed))
		goto out;
	/* The original's ending: close the users, then 0x22, then close. */
	close_users(run);
	b = CHAT_CTL_DONE;
	if (net_write_full(ctl, &b, 1) != 1) {
		run_fail(run, "sending 0x22: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	connect_lock_give(lock);
	if (gate_held) {
		/* Release workers so they see the failure and exit. */
		run_fail(run, "aborted");
		pthread_rwlock_unlock(&run->gate);
	}
	if (atomic_load(&run->failed)) {
		run_why(run, res->error, sizeof(res->error));
		res->interrupted = atomic_load(&ctx->stop);
		rc = -1;
	}
	set_current(ctx, NULL);
	if (ctl >= 0)
		close(ctl);
	run_join_free(run);
	res->ok = rc == 0;
	return rc;
}
