// SPDX-License-Identifier: GPL-2.0
/*
 * chat_s's tracer of its own host: the tracer of chat_c (tracer/trace.h)
 * opened on demand, one run at a time, and the record of a traced run
 * framed for the client.  See srv_trace.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "output/json/kstats_json.h"
#include "tracer/kstats.h"
#include "tracer/trace.h"
#include "util/rtraise.h"
#include "workload/proto.h"
#include "workload/server/srv_trace.h"
#include "workload/server/srvlog.h"

struct srv_tracer {
	struct trace *t;		/* NULL: off, or not loaded yet */
	struct trace_opts to;
	bool deferred;			/* loaded at the first asked run */
	char state[300];
	char host[64];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* The group being traced (under lock): 0 for none. */
	unsigned long group;
	unsigned int refs;		/* its claimed runs not yet ended */
	bool begun;
	struct srv_run **runs;		/* its runs, for the message count */
	unsigned int nruns, cap;
	/* The last group's record, kept for its runs' copies. */
	unsigned long rec_group;
	char *rec;
	size_t rec_len;
};

/*
 * Messages of the group so far: what the server received plus what it
 * sent, the same total as the clients' sent plus received.  Called by
 * the sampler under no lock of ours while workers count, hence racy reads
 * (and no ThreadSanitizer here): a count a unit late does not matter to
 * an interval of 100 ms.  The runs stay allocated while the group holds
 * the tracer: the sampler stops at the end snapshot, before any is freed.
 */
__attribute__((no_sanitize_thread))
static uint64_t run_progress(void *arg)
{
	struct srv_tracer *st = arg;
	unsigned int i, j;
	uint64_t n = 0;

	for (j = 0; j < st->nruns; j++) {
		const struct srv_run *run = st->runs[j];

		for (i = 0; i < run->nconn; i++)
			n += run->conns[i].rx_units + run->conns[i].tx_units;
	}
	return n;
}

struct srv_tracer *srv_trace_open(enum srv_trace_mode mode, uint16_t port,
				  unsigned int max_sockets, char *err,
				  size_t len)
{
	struct srv_tracer *st = calloc(1, sizeof(*st));
	char why[256];

	if (!st) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->cond, NULL);
	if (gethostname(st->host, sizeof(st->host) - 1))
		snprintf(st->host, sizeof(st->host), "?");
	if (mode == SRV_TRACE_OFF) {
		snprintf(st->state, sizeof(st->state), "off: chat_s --no-trace");
		return st;
	}
	st->to = (struct trace_opts){
		.server_tgid = getpid(),
		.server_port = port,
		.interval_ms = 100,	/* chat_c's default */
		.progress = run_progress,
		.progress_arg = st,
		.max_sockets = max_sockets,
		.on_demand = true,
	};
	/*
	 * By default the programs are loaded when a client first asks:
	 * loading (the BTF, maps, the verifier) makes a traced 1 x 1 run 60-70 ms
	 * slower than an untraced one here, which every start
	 * of a server nobody asks would pay.  What can be known cheaply
	 * (privileges, BTF) is said at start.
	 */
	if (mode == SRV_TRACE_AUTO) {
		if (trace_possible(why, sizeof(why))) {
			snprintf(st->state, sizeof(st->state), "off: %s", why);
			return st;
		}
		st->deferred = true;
		snprintf(st->state, sizeof(st->state), "on");
		return st;
	}
	st->t = trace_open(&st->to, why, sizeof(why));
	if (st->t) {
		snprintf(st->state, sizeof(st->state), "on");
		return st;
	}
	snprintf(err, len, "--trace: tracing is not possible: %s", why);
	srv_trace_close(st);
	return NULL;
}

static int grow_runs(struct srv_tracer *st)
{
	unsigned int cap = st->cap ? 2 * st->cap : 8;
	struct srv_run **r = realloc(st->runs, cap * sizeof(*r));

	if (!r)
		return -1;
	st->runs = r;
	st->cap = cap;
	return 0;
}

/* The deferred load, at the first asked run; under lock. */
static void load(struct srv_tracer *st)
{
	char why[256];

	if (!st->deferred)
		return;
	st->deferred = false;
	st->t = trace_open(&st->to, why, sizeof(why));
	if (!st->t) {
		snprintf(st->state, sizeof(st->state), "off: %s", why);
		srv_log("tracing %s", st->state);
	}
}

const char *srv_trace_state(const struct srv_tracer *st)
{
	return st ? st->state : "off";
}

int srv_trace_claim(struct srv_tracer *st, unsigned long group,
		    struct srv_run *run, char *why, size_t len)
{
	char err[256];
	int rc = -1;

	if (!st) {
		snprintf(why, len, "off");
		return -1;
	}
	pthread_mutex_lock(&st->lock);
	load(st);
	if (!st->t) {
		snprintf(why, len, "%s", st->state);
	} else if (st->group && st->group != group) {
		snprintf(why, len, "off: another run of this server was being traced");
	} else if (!st->group && trace_attach(st->t, err, sizeof(err))) {
		snprintf(why, len, "off: %s", err);
	} else if (st->nruns == st->cap && grow_runs(st)) {
		snprintf(why, len, "off: out of memory");
		if (!st->group)
			trace_detach(st->t);
	} else {
		if (!st->group) {
			st->group = group;
			st->begun = false;
		}
		st->runs[st->nruns++] = run;
		st->refs++;
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

void srv_trace_begin(struct srv_tracer *st, unsigned long group)
{
	if (!st)
		return;
	/* Held while snapshotting: the group's other 0x11s come after. */
	pthread_mutex_lock(&st->lock);
	if (st->group == group && !st->begun) {
		st->begun = true;
		trace_run_begin(st->t);
	}
	pthread_mutex_unlock(&st->lock);
}

static char *frame(json_t *o, size_t *len)
{
	char *body = json_dumps(o, JSON_COMPACT);
	size_t n;
	char *buf;

	json_decref(o);
	if (!body)
		return NULL;
	n = strlen(body);
	buf = n <= CHAT_RECORD_MAX ? malloc(CHAT_RECORD_HDR_LEN + n) : NULL;
	if (buf) {
		proto_record_header((uint32_t)n, (uint8_t *)buf);
		memcpy(buf + CHAT_RECORD_HDR_LEN, body, n);
		*len = CHAT_RECORD_HDR_LEN + n;
	}
	free(body);
	return buf;
}

/*
 * {"host", "group", "trace": "on", "kernel"} or {"host", "trace": why},
 * framed.  group names the runs released together (host:pid:group).
 */
static char *record_of(const struct srv_tracer *st, const struct kstats *k,
		       unsigned long group, const char *why, size_t *len)
{
	json_t *o = json_pack("{s:s}", "host", st ? st->host : "?");
	char id[96];

	if (!o)
		return NULL;
	if (k) {
		snprintf(id, sizeof(id), "%s:%d:%lu", st->host, (int)getpid(),
			 group);
		json_object_set_new(o, "group", json_string(id));
		json_object_set_new(o, "trace", json_string("on"));
		json_object_set_new(o, "kernel", kstats_to_json(k));
	} else {
		json_object_set_new(o, "trace", json_string(why && *why ? why :
						srv_trace_state(st)));
	}
	return frame(o, len);
}

/*
 * One claimed run less; the group's last ends the trace.  Under lock.
 * The record is made at real-time priority: beside a burner at nice -20
 * (the very thing it may have to name) a normal thread took seconds to
 * make it, and the client's next run waited for it.
 */
static void drop_ref(struct srv_tracer *st)
{
	struct rt_raised rt;
	struct kstats *k;

	if (--st->refs)
		return;
	rt_raise_self(&rt);
	k = st->begun ? trace_run_end(st->t) : NULL;
	trace_detach(st->t);
	free(st->rec);
	st->rec_len = 0;
	st->rec = record_of(st, k, st->group, k ? NULL : st->begun ?
			    "off: the run's kernel record could not be made" :
			    "off: the run failed before it started",
			    &st->rec_len);
	kstats_free(k);
	rt_lower(&rt);
	st->rec_group = st->group;
	st->group = 0;
	st->nruns = 0;
	pthread_cond_broadcast(&st->cond);
}

char *srv_trace_end(struct srv_tracer *st, unsigned long group, bool claimed,
		    const char *why, int timeout_ms, size_t *len)
{
	struct timespec ts;
	char *copy = NULL;
	bool made;

	if (!st || !claimed)
		return record_of(st, NULL, 0, why, len);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000 + 1;
	pthread_mutex_lock(&st->lock);
	if (st->group == group)
		drop_ref(st);
	while (st->group == group &&
	       !pthread_cond_timedwait(&st->cond, &st->lock, &ts))
		;
	made = st->rec_group == group;
	if (made && st->rec) {
		copy = malloc(st->rec_len);
		if (copy) {
			memcpy(copy, st->rec, st->rec_len);
			*len = st->rec_len;
		}
	}
	pthread_mutex_unlock(&st->lock);
	if (!made)
		return record_of(st, NULL, 0,
				 "off: the other runs of its group did not end in time",
				 len);
	return copy;
}

void srv_trace_release(struct srv_tracer *st, unsigned long group)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	if (st->group == group)
		drop_ref(st);
	pthread_mutex_unlock(&st->lock);
}

void srv_trace_close(struct srv_tracer *st)
{
	if (!st)
		return;
	trace_close(st->t);
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->cond);
	free(st->runs);
	free(st->rec);
	free(st);
}

bool srv_trace_asked(int ctl)
{
	uint8_t b;

	/* Without urgent data the kernel says EINVAL; a late one EAGAIN. */
	return recv(ctl, &b, 1, MSG_OOB | MSG_DONTWAIT) == 1 &&
	       b == CHAT_ASK_RECORD;
}
