// SPDX-License-Identifier: GPL-2.0
/*
 * chat_c: the chat benchmark client.  Sets up what a study needs (a local
 * server, the tracer, the output files), repeats the run, and reports.
 * Signals are taken by one thread with sigwait, so that SIGINT ends the
 * current run cleanly and the runs already measured are still reported.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/baseline.h"
#include "workload/client/client_opts.h"
#include "util/cpuset.h"
#include "tracer/discover.h"
#include "util/reslimit.h"
#include "workload/client/local_server.h"
#include "output/json/json_out.h"
#include "workload/proto.h"
#include "output/html/report_html.h"
#include "results/results.h"
#include "workload/client/server_info.h"
#include "study/clients.h"
#include "study/profile_out.h"
#include "study/report_out.h"
#include "study/study.h"
#include "output/text/run_text.h"
#include "output/text/sweep_text.h"
#include "tracer/trace.h"

static atomic_int got_signal;	/* set by the sigwait thread */

static void *signal_main(void *arg)
{
	struct client_ctx *ctx = arg;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (;;) {
		if (sigwait(&set, &sig))
			continue;
		got_signal = sig;
		client_abort(ctx, sig == SIGINT ? "interrupted by SIGINT" :
						  "terminated by SIGTERM");
	}
	return NULL;
}

static int start_signal_thread(struct client_ctx *ctx)
{
	pthread_t t;

	if (pthread_create(&t, NULL, signal_main, ctx))
		return -1;
	pthread_detach(t);
	return 0;
}

/* Connections of the largest run of the series (a sweep's too). */
static unsigned int max_conns(const struct client_opts *o)
{
	long rooms = o->rooms, users = o->users;
	int i;

	for (i = 0; o->sweep_param && i < o->sweep_n; i++) {
		if (!strcmp(o->sweep_param, "rooms") && o->sweep_values[i] > rooms)
			rooms = o->sweep_values[i];
		if (!strcmp(o->sweep_param, "users") && o->sweep_values[i] > users)
			users = o->sweep_values[i];
	}
	return (unsigned int)(rooms * users);
}

static struct trace *open_tracer(const struct client_opts *o,
				 struct client_ctx *ctx, pid_t server,
				 char *state, size_t len)
{
	struct trace_opts to = {
		.max_sockets = 2 * max_conns(o),
		.client_tgid = getpid(),
		.server_tgid = server,
		.server_port = (uint16_t)o->port,
		.interval_ms = o->interval_ms,
		.progress = client_progress,
		.progress_arg = ctx,
		.profile_hz = o->profile_hz,
		.timeline = o->timeline_path != NULL,
	};
	char err[256];
	struct trace *t;

	if (o->trace == TRACE_OFF) {
		snprintf(state, len, "off (--no-trace)");
		return NULL;
	}
	t = trace_open(&to, err, sizeof(err));
	if (!t) {
		snprintf(state, len, "off: %s", err);
		return NULL;
	}
	snprintf(state, len, server ? "on" : "on (client only: server process not found)");
	return t;
}

/*
 * With autogroups on, a process started from another session (another
 * terminal, setsid) is in another group, and the kernel shares the CPUs
 * between the groups, not among the threads: here a client in its own
 * session against a server in another ran 5-6 times slower (10 x 150,
 * 5 alternating pairs, 54-63 k against 318-350 k msg/s).  Said once, and
 * kept in the JSON's placement.
 */
static void note_autogroups(pid_t server, const struct server_info *si,
			    char *mine, size_t len)
{
	autogroup_of(getpid(), mine, len);
	if (!server || !*si->autogroup || !*mine ||
	    !strcmp(mine, si->autogroup))
		return;
	fprintf(stderr, "chat_c: note: chat_s (pid %d) is in scheduler autogroup %s, this client in %s: CPUs are shared group against group, throughput may differ several-fold\n",
		(int)server, si->autogroup, mine);
}

/* The points of the study: one, or one per value of --sweep. */
static size_t study_points(const struct client_opts *o)
{
	return o->sweep_param ? (size_t)o->sweep_n : 1;
}

/*
 * A point of --sweep sched, nice or slice: the value for every worker
 * role, over what the options asked (parsed when the options were).
 * Returns 1 when it was one of those.
 */
static int sweep_sched(struct client_opts *o, struct series *s, size_t i)
{
	static const char *const what[] = { "sched", "nice", "slice" };
	char arg[48], err[200];
	size_t k;

	for (k = 0; k < 3; k++)
		if (!strcmp(o->sweep_param, what[k]))
			break;
	if (k == 3)
		return 0;
	s->sweep_param = o->sweep_param;
	s->sweep_value = o->sweep_values[i];
	if (k == 0) {
		s->sweep_text = o->sweep_texts[i];
		snprintf(arg, sizeof(arg), "all=%s", s->sweep_text);
	} else {
		snprintf(arg, sizeof(arg), "all=%ld", s->sweep_value);
	}
	sched_spec_parse(&o->sched, (enum sched_what)k, arg, err, sizeof(err));
	return 1;
}

static void set_point(struct client_opts *o, const struct client_opts *base,
		      struct series *s, size_t i)
{
	o->rooms = base->rooms;
	o->messages = base->messages;
	o->users = base->users;
	o->rate = base->rate;
	o->sched = base->sched;
	if (o->sweep_param && !sweep_sched(o, s, i)) {
		s->sweep_param = o->sweep_param;
		s->sweep_value = o->sweep_values[i];
		if (!strcmp(o->sweep_param, "rooms"))
			o->rooms = (int)s->sweep_value;
		else if (!strcmp(o->sweep_param, "messages"))
			o->messages = (int)s->sweep_value;
		else if (!strcmp(o->sweep_param, "rate"))
			o->rate = s->sweep_value;
		else
			o->users = (int)s->sweep_value;
	}
	/* --duration: as many messages as the schedule fits in it. */
	if (o->duration_s > 0 && o->rate) {
		double n = ceil((double)o->rate * o->duration_s);

		o->messages = n > CHAT_MAX_MESSAGES ? CHAT_MAX_MESSAGES :
			      (int)n;
	}
}

/* Connections of the largest point, for the limits checked up front. */
static unsigned long max_connections(const struct client_opts *o)
{
	unsigned long most = 0, n;
	struct client_opts t = *o;
	struct series s;
	size_t i;

	for (i = 0; i < study_points(o); i++) {
		set_point(&t, o, &s, i);
		n = (unsigned long)t.rooms * (unsigned long)t.users;
		if (n > most)
			most = n;
	}
	return most;
}

int main(int argc, char **argv)
{
	struct local_server ls = { 0 };
	struct client_opts o, base;
	struct client_ctx *ctx = NULL;
	struct json_out *json = NULL;
	struct series *series = NULL;
	struct trace *tracer = NULL;
	struct background *bg = NULL;
	char err[400], trace_state[320] = "off", failure[400] = "";
	struct study_io io = { .got_signal = &got_signal };
	struct baseline *baseline = NULL;
	struct prof_out po = { 0 };
	FILE *text = stdout;
	unsigned long nconn;
	size_t i, npoints, done = 0;
	sigset_t set;
	pid_t server = 0;
	int rc, failed = 0;

	rc = client_parse(argc, argv, &o, err, sizeof(err));
	if (rc == COPTS_EXIT)
		return 0;
	if (rc == COPTS_ERROR) {
		fprintf(stderr, "chat_c: %s\n", err);
		return 2;
	}
	rc = 1;
	/*
	 * The burners' process is forked while this one has a single
	 * thread: a fork of a threaded process may not start threads
	 * (ThreadSanitizer refuses to).
	 */
	if (o.background.burners) {
		bg = bg_start(&o.background, err, sizeof(err));
		if (!bg)
			goto fail;
	}
	/* Before any thread exists, so that every thread inherits it. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (o.json_path || o.report_path) {
		json = json_out_open(o.json_path, err, sizeof(err));
		if (!json)
			goto fail;
		if (o.json_path && !strcmp(o.json_path, "-"))
			text = stderr;
	}
	/* An unwritable report is an error now, not after the last run. */
	if (o.report_path && report_out_check(o.report_path, err, sizeof(err)))
		goto fail;
	o.text = text;
	if (o.baseline) {
		baseline = baseline_load(o.baseline, err, sizeof(err));
		if (!baseline)
			goto fail;
	}
	base = o;
	nconn = max_connections(&o);
	if (limits_ensure_fds(nconn + 64, err, sizeof(err)) ||
	    limits_check_threads(2 * nconn, err, sizeof(err)))
		goto fail;
	npoints = study_points(&o);
	series = calloc(npoints, sizeof(*series));
	ctx = client_ctx_new(&o, NULL);
	if (!series || !ctx || start_signal_thread(ctx)) {
		snprintf(err, sizeof(err), "out of memory or threads at start");
		goto fail;
	}
	if (o.local) {
		struct local_server_args la = {
			.model = o.server_model,
			.cpus = o.server_cpus,
			.pin = o.server_pin,
			.nodelay = o.nodelay,
			.timeout_ms = o.timeout_ms,
			.clients = o.clients,
		};

		if (local_server_start(&ls, &o.addr, &la, err, sizeof(err)))
			goto fail;
		o.port = ls.port;
		o.addr.sin_port = htons(ls.port);
		server = ls.pid;
	}
	if (o.server_pid)
		server = o.server_pid;
	else if (!server)
		server = discover_server_tgid((uint16_t)o.port);
	/* Each client traces itself (and the server): not the parent. */
	tracer = o.clients > 1 ? NULL :
		 open_tracer(&o, ctx, server, trace_state, sizeof(trace_state));
	if (!tracer && (o.trace == TRACE_ON || o.profile_hz ||
			o.timeline_path) && o.clients < 2) {
		snprintf(err, sizeof(err), "%s: tracing is not possible: %s",
			 o.trace == TRACE_ON ? "--trace" : o.profile_hz ?
			 "--profile" : "--timeline",
			 trace_state + strlen("off: "));
		goto fail;
	}
	if (!tracer && o.trace == TRACE_AUTO && o.clients < 2)
		fprintf(stderr, "chat_c: tracing %s\n", trace_state);
	client_ctx_set_tracer(ctx, tracer);
	client_ctx_set_server(ctx, server);
	/*
	 * A server found on this host is traced from here (or the user
	 * said not to trace); one elsewhere traces its own host if asked.
	 */
	client_ctx_ask_record(ctx, o.server_trace == TRACE_ON ||
				   (o.server_trace == TRACE_AUTO && !server));
	client_ctx_set_background(ctx, bg);

	io.text = text;
	io.json = json;
	io.json_path = o.json_path;
	io.trace_state = trace_state;
	server_info_read(server, &io.server);
	note_autogroups(server, &io.server, io.client_autogroup,
			sizeof(io.client_autogroup));
	if (o.have_cpus)
		cpuset_format(&o.cpus, io.client_cpus, sizeof(io.client_cpus));
	else
		snprintf(io.client_cpus, sizeof(io.client_cpus), "all");

	if ((o.profile_out || o.timeline_path) &&
	    prof_out_open(&po, &o, err, sizeof(err)))
		goto fail;
	io.prof = o.profile_out || o.timeline_path ? &po : NULL;
	io.baseline = baseline;
	io.failure = failure;
	io.failure_len = sizeof(failure);
	if (o.clients > 1 && clients_study(&o, server, &io))
		failed = 1;
	for (i = 0; o.clients < 2 && i < npoints && !client_stopped(ctx); i++) {
		set_point(&o, &base, &series[i], i);
		done++;
		if (study_run_series(ctx, &o, &series[i], &io)) {
			failed = 1;
			break;
		}
	}
	if (o.sweep_param)
		sweep_print(text, series, done);
	/* After the results: the original's lines come first. */
	if (!o.quiet)
		out_text_placement(text, io.client_cpus, o.pin, o.nodelay,
				   io.server.model, io.server.cpus,
				   io.server.pin);
	if (o.report_path && report_out_write(json,
			o.json_path ? o.json_path : "this run of chat_c",
			o.report_path, "chat_c", err, sizeof(err))) {
		fprintf(stderr, "chat_c: %s\n", err);
		failed = 1;
	}
	rc = failed ? 1 : 0;
	if (got_signal)
		rc = 128 + got_signal;
	/* The last line of a failed study is its reason. */
	fflush(text);
	if (*failure)
		fprintf(stderr, "chat_c: %s\n", failure);
	goto out;
fail:
	fprintf(stderr, "chat_c: %s\n", err);
out:
	if (json_out_close(json)) {
		fprintf(stderr, "chat_c: JSON output to %s is incomplete\n",
			o.json_path);
		rc = 1;
	}
	if (prof_out_close(&po, err, sizeof(err))) {
		fprintf(stderr, "chat_c: %s\n", err);
		rc = 1;
	}
	bg_stop(bg);
	trace_close(tracer);
	local_server_stop(&ls);
	for (i = 0; series && i < done; i++)
		series_free(&series[i]);
	free(series);
	baseline_free(baseline);
	client_ctx_free(ctx);
	return rc;
}
