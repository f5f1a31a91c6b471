// SPDX-License-Identifier: GPL-2.0
/*
 * chat_c: the chat benchmark client.  Sets up what a study needs (a local
 * server, the tracer, the output files), repeats the run, and reports.
 * Signals are taken by one thread with sigwait, so that SIGINT ends the
 * current run cleanly and the runs already measured are still reported.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client_opts.h"
#include "discover.h"
#include "kstats.h"
#include "reslimit.h"
#include "local_server.h"
#include "output_json.h"
#include "output_text.h"
#include "proto.h"
#include "summary.h"
#include "trace.h"

static volatile int got_signal;

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

static struct trace *open_tracer(const struct client_opts *o,
				 struct client_ctx *ctx, pid_t server,
				 char *state, size_t len)
{
	struct trace_opts to = {
		.client_tgid = getpid(),
		.server_tgid = server,
		.server_port = (uint16_t)o->port,
		.interval_ms = o->interval_ms,
		.progress = client_progress,
		.progress_arg = ctx,
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

int main(int argc, char **argv)
{
	struct local_server ls = { 0 };
	struct client_opts o;
	struct client_ctx *ctx = NULL;
	struct json_out *json = NULL;
	struct run_result *results = NULL;
	struct trace *tracer = NULL;
	char err[400], trace_state[320] = "off";
	FILE *text = stdout;
	struct stats st;
	unsigned long nconn;
	sigset_t set;
	long i, done = 0;
	pid_t server = 0;
	int rc;

	rc = client_parse(argc, argv, &o, err, sizeof(err));
	if (rc == COPTS_EXIT)
		return 0;
	if (rc == COPTS_ERROR) {
		fprintf(stderr, "chat_c: %s\n", err);
		return 2;
	}
	rc = 1;
	/* Before any thread exists, so that every thread inherits it. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (o.json_path) {
		json = json_out_open(o.json_path, err, sizeof(err));
		if (!json)
			goto fail;
		if (!strcmp(o.json_path, "-"))
			text = stderr;
	}
	o.text = text;
	nconn = (unsigned long)o.rooms * (unsigned long)o.users;
	if (limits_ensure_fds(nconn + 64, err, sizeof(err)) ||
	    limits_check_threads(2 * nconn, err, sizeof(err)))
		goto fail;
	results = calloc((size_t)o.runs, sizeof(*results));
	ctx = client_ctx_new(&o, NULL);
	if (!results || !ctx || start_signal_thread(ctx)) {
		snprintf(err, sizeof(err), "out of memory or threads at start");
		goto fail;
	}
	if (o.local) {
		if (local_server_start(&ls, &o.addr, o.timeout_ms, err,
				       sizeof(err)))
			goto fail;
		o.port = ls.port;
		o.addr.sin_port = htons(ls.port);
		server = ls.pid;
	}
	if (o.server_pid)
		server = o.server_pid;
	else if (!server)
		server = discover_server_tgid((uint16_t)o.port);
	tracer = open_tracer(&o, ctx, server, trace_state, sizeof(trace_state));
	if (!tracer && o.trace == TRACE_ON) {
		snprintf(err, sizeof(err), "--trace: tracing is not possible: %s",
			 trace_state + strlen("off: "));
		goto fail;
	}
	if (!tracer && o.trace == TRACE_AUTO)
		fprintf(stderr, "chat_c: tracing %s\n", trace_state);
	client_ctx_set_tracer(ctx, tracer);
	client_ctx_set_server(ctx, server);

	for (i = 0; i < o.runs && !client_stopped(ctx); i++) {
		struct run_result *r = &results[i];

		if (o.runs > 1 && !o.quiet)
			fprintf(text, "Run %ld of %ld\n", i + 1, o.runs);
		fflush(text);
		client_run(ctx, (int)i + 1, r);
		done++;
		if (r->ok) {
			if (!o.quiet)
				fprintf(text, "Test complete.\n");
			out_text_run(text, r, o.verbose);
		} else {
			fprintf(stderr, "chat_c: run %ld failed: %s\n", i + 1,
				r->error);
		}
		if (json && json_out_run(json, r))
			fprintf(stderr, "chat_c: writing JSON to %s failed\n",
				o.json_path);
		if (!r->ok)
			break;
	}
	summary_compute(results, (size_t)done, &st);
	if (o.runs > 1)
		out_text_summary(text, &o, &st, (size_t)done);
	if (json && json_out_summary(json, &o, &st, (size_t)done, trace_state,
				     got_signal != 0))
		fprintf(stderr, "chat_c: writing JSON to %s failed\n",
			o.json_path);
	rc = st.n == (size_t)o.runs ? 0 : 1;
	if (got_signal)
		rc = 128 + got_signal;
	goto out;
fail:
	fprintf(stderr, "chat_c: %s\n", err);
out:
	if (json_out_close(json)) {
		fprintf(stderr, "chat_c: JSON output to %s is incomplete\n",
			o.json_path);
		rc = 1;
	}
	trace_close(tracer);
	local_server_stop(&ls);
	for (i = 0; results && i < done; i++) {
		kstats_free(results[i].kernel);
		free(results[i].latency);
	}
	free(results);
	client_ctx_free(ctx);
	return rc;
}
