// SPDX-License-Identifier: GPL-2.0
/*
 * The chat client's run: faithful to the original in what it sends and
 * when, fixed in what it does when something goes wrong.  Every wait is
 * bounded by the timeout; the first failure of any thread shuts all data
 * sockets down, so the run ends with one clear reason instead of hanging.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chatbench.h"
#include "workload/client/client.h"
#include "workload/client/server_record.h"
#include "workload/client/connect_lock.h"
#include "workload/client/run_state.h"
#include "workload/client/control.h"
#include "workload/client/sched_server.h"
#include "util/cpuset.h"
#include "util/reslimit.h"
#include "workload/netio.h"
#include "workload/proto.h"
#include "util/timeutil.h"
#include "tracer/kstats.h"
#include "tracer/profile.h"
#include "tracer/trace.h"

struct client_ctx {
	const struct client_opts *o;
	struct trace *tracer;
	struct background *bg;
	pid_t server;
	bool ask_record;	/* for the server's host's kernel record */
	pthread_mutex_t lock;
	struct cli_run *_Atomic cur;
	atomic_bool stop;
	char stop_why[128];
};

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

void client_ctx_ask_record(struct client_ctx *ctx, bool ask)
{
	ctx->ask_record = ask;
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
		    ctl_spoke(ctl, 0, &b, why, sizeof(why))) {
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

/* --cpus / --pin: thread k of the run, in the attributes it starts with. */
static int place(struct cli_run *run, pthread_attr_t *a, unsigned int k)
{
	if (!run->o->have_cpus)
		return 0;
	return cpuset_place_attr(a, &run->o->cpus, run->o->pin, k);
}

static int start_threads(struct cli_run *run)
{
	pthread_attr_t attr;
	unsigned long nth;
	unsigned int i;
	int err = 0;

	if (limits_thread_attr(&attr)) {
		run_fail(run, "pthread attributes: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < run->nconn; i++) {
		struct cli_conn *c = &run->conns[i];

		err = place(run, &attr, 2 * i);
		if (!err)
			err = pthread_create(&c->snd, &attr, run_sender_main, c);
		if (err)
			break;
		c->snd_up = true;
		err = place(run, &attr, 2 * i + 1);
		if (!err)
			err = pthread_create(&c->rcv, &attr, run_receiver_main,
					     c);
		if (err)
			break;
		c->rcv_up = true;
	}
	pthread_attr_destroy(&attr);
	if (!err)
		return 0;
	/* Thread 2i+1 is user i's sender, 2i+2 its receiver. */
	nth = 2UL * i + (run->conns[i].snd_up ? 2 : 1);
	if (err == EAGAIN) {
		char why[CHAT_REASON_MAX];

		limits_thread_error(err, nth, 2UL * run->nconn, why,
				    sizeof(why));
		run_fail(run, "%s", why);
		return -1;
	}
	run_fail(run, "cannot create or place thread %lu of %u: %s", nth,
		 2 * run->nconn, strerror(err));
	return -1;
}

static int wait_ready(struct cli_run *run, int ctl)
{
	char why[256];

	if (!ctl_wait_ready(ctl, run->o->timeout_ms, &run->failed, why,
			    sizeof(why)))
		return 0;
	if (*why)
		run_fail(run, "%s", why);
	return -1;
}

/* --sched and co for the server's roles, once it sent 0x11. */
static int sched_server(struct client_ctx *ctx, struct cli_run *run,
			unsigned int unnamed)
{
	struct sched_tally t = { 0 };
	char why[256];
	int role;

	if (!sched_server_asked(&run->o->sched))
		return 0;
	if (!ctx->server) {
		run_fail(run, "--sched/--nice/--slice for server threads: the server's process is not known here (give --server-pid, or use --local)");
		return -1;
	}
	if (sched_server_apply(ctx->server, &run->o->sched, unnamed, &t, why,
			       sizeof(why))) {
		run_fail(run, "%s", why);
		return -1;
	}
	pthread_mutex_lock(&run->lock);
	for (role = 0; role < CB_ROLE_OTHER; role++)
		if (t.n[role]) {
			run->sched[role] = t.got[role];
			run->sched_n[role] += t.n[role];
		}
	pthread_mutex_unlock(&run->lock);
	return 0;
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
	unnamed = ctx->server && sched_server_asked(&o->sched) ?
		  sched_server_unnamed(ctx->server) : 0;
	start_len = proto_encode_start(&st, start);
	if (ctx->ask_record ?
	    server_record_ask(ctl, start, start_len) :
	    net_write_full(ctl, start, start_len) != (ssize_t)start_len) {
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
	run_collect(run, res);
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
	if (res->kernel && res->kernel->profile)
		res->kernel->profile->expected_samples =
			res->kernel->profile->hz *
			(res->cpu_client.user_s + res->cpu_client.sys_s +
			 res->cpu_server.user_s + res->cpu_server.sys_s);
	if (atomic_load(&run->failed))
		goto out;
	/* The original's ending: close the users, then 0x22, then close. */
	close_users(run);
	b = CHAT_CTL_DONE;
	if (net_write_full(ctl, &b, 1) != 1) {
		run_fail(run, "sending 0x22: %s", strerror(errno));
		goto out;
	}
	/* Measured and ended: the server's record costs the run nothing. */
	if (ctx->ask_record)
		server_record_read(ctl, o->timeout_ms, res);
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
