// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines with jansson, which does the escaping.  A run's verdict
 * (slow or not, and why) is known only when its series ends, yet a run's
 * result must not be lost if the client dies before that.  So for a
 * regular file each run is appended and flushed as it ends, and at the
 * end of the series the file is rewritten (new file, rename) with the
 * verdicts merged into the runs.  Streams (stdout, pipes, devices) cannot
 * be rewritten: they get the series' runs, complete, when it ends.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "output/json/profile_json.h"
#include "analysis/series.h"
#include "tracer/kstats.h"
#include "output/json/json_out.h"
#include "workload/proto.h"
#include "util/roles.h"
#include "output/json/kstats_json.h"
#include "util/safe_file.h"
#include "workload/client/background.h"

struct json_out {
	FILE *f;
	char *path;
	bool rewrite;		/* a regular file: append, then rewrite */
	bool failed;
	char **done;		/* lines of the finished series */
	size_t ndone;
	json_t *pending;	/* run objects of the current series */
};

/*
 * The --json target itself, written as each run ends.  A regular file,
 * or no file, or a link to either, is replaced by a new file (a link
 * planted in a shared folder is not written through); a device or a pipe
 * (/dev/stdout, a FIFO, /dev/full), or a link to one, is opened as it is.
 */
static FILE *open_target(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return fopen(path, "w");
	return safe_file_fresh(path);
}

struct json_out *json_out_open(const char *path, char *err, size_t len)
{
	struct json_out *j = calloc(1, sizeof(*j));
	struct stat st;

	if (!j) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	j->pending = json_array();
	if (!path)
		return j;
	if (!strcmp(path, "-")) {
		j->f = stdout;
		return j;
	}
	j->path = strdup(path);
	j->f = open_target(path);
	if (!j->f || !j->path) {
		snprintf(err, len, "cannot write JSON to %s: %s", path,
			 strerror(errno));
		json_out_close(j);
		return NULL;
	}
	j->rewrite = !fstat(fileno(j->f), &st) && S_ISREG(st.st_mode);
	return j;
}

static int put_line(struct json_out *j, FILE *f, const char *line)
{
	if (fputs(line, f) == EOF || fputc('\n', f) == EOF || fflush(f))
		j->failed = true;
	return j->failed ? -1 : 0;
}

static int emit_now(struct json_out *j, const json_t *obj)
{
	char *line = json_dumps(obj, JSON_COMPACT);
	int rc;

	if (!line) {
		j->failed = true;
		return -1;
	}
	rc = put_line(j, j->f, line);
	free(line);
	return rc;
}

static json_t *sweep_json(const char *param, long value, const char *text)
{
	if (text)
		return json_pack("{s:s, s:s}", "param", param, "value", text);
	return json_pack("{s:s, s:I}", "param", param, "value",
			 (json_int_t)value);
}

static json_t *times_json(const struct cpu_times *t)
{
	if (!t->valid)
		return json_null();
	return json_pack("{s:f, s:f}", "user_s", t->user_s, "sys_s", t->sys_s);
}

/* CPU seconds of both processes over the timed part of the run. */
static json_t *cpu_json(const struct run_result *r)
{
	return json_pack("{s:o, s:o, s:f}", "client", times_json(&r->cpu_client),
			 "server", times_json(&r->cpu_server),
			 "steal_pct", r->steal_pct);
}

/* Message delivery latency, sender's stamp to receiver's recv, in ns. */
static json_t *latency_json(const struct run_result *r)
{
	json_t *o = ks_hist_json(r->latency, "ns");

	if (o)
		json_object_set_new(o, "unstamped",
				    json_integer((json_int_t)r->lat_unstamped));
	return o;
}

static json_t *lat_summary_json(const struct lat_summary *l)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}",
			 "count", (json_int_t)l->count,
			 "p50_ns", (json_int_t)l->p50,
			 "p90_ns", (json_int_t)l->p90,
			 "p99_ns", (json_int_t)l->p99,
			 "p999_ns", (json_int_t)l->p999,
			 "max_ns", (json_int_t)l->max);
}

/* --rate: from the scheduled send time to each arrival, run and rooms. */
static json_t *open_json(const struct open_result *op)
{
	json_t *rooms = json_array(), *o;
	int i;

	for (i = 0; i < op->nrooms; i++)
		json_array_append_new(rooms, lat_summary_json(&op->rooms[i]));
	o = json_pack("{s:I, s:s, s:f, s:f, s:f, s:o, s:f, s:o}",
		      "rate_per_user", (json_int_t)op->rate,
		      "arrival", arrival_name(op->arrival),
		      "offered_sends_per_s", op->offered,
		      "achieved_sends_per_s", op->achieved,
		      "receives_per_s", op->delivered,
		      "latency", lat_summary_json(&op->lat),
		      /* A bucket's width over its lower bound, at most. */
		      "latency_resolution_pct", 100.0 / LH_SUB,
		      "rooms", rooms);
	return o;
}

/* --sched and co: what each set role's threads held, read back. */
static json_t *sched_json(const struct run_result *r)
{
	json_t *o = NULL;
	int role;

	for (role = 0; role < CB_ROLE_OTHER; role++) {
		const struct sched_got *g = &r->sched[role];

		if (!r->sched_threads[role])
			continue;
		if (!o)
			o = json_object();
		json_object_set_new(o, role_name(role), json_pack(
			"{s:s, s:i, s:i, s:I, s:i}",
			"policy", sched_policy_name(g->policy),
			"priority", g->prio, "nice", g->nice,
			"slice_ns", (json_int_t)g->slice_ns,
			"threads", (int)r->sched_threads[role]));
	}
	return o;
}

/*
 * The server's host, when chat_s was asked to trace it: its name, whether
 * it was traced ("on", or "off: " and why), the name of the run's group
 * when it has one, and its kernel record, in the shape of the client's
 * "kernel".
 */
static json_t *server_host_json(const struct run_result *r)
{
	json_t *o = json_pack("{s:s, s:s}", "name", r->server_host,
			      "trace", r->server_trace);

	/* The runs chat_s --clients N released together: their files merge. */
	if (o && r->server_group[0])
		json_object_set_new(o, "group", json_string(r->server_group));
	if (o && r->server_kernel)
		json_object_set_new(o, "kernel",
				    kstats_to_json(r->server_kernel));
	return o;
}

int json_out_run(struct json_out *j, const struct run_result *r)
{
	json_t *sched = sched_json(r);
	json_t *o = json_pack("{s:i, s:i, s:b, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:f, s:f}",
			      "schema_version", CHATBENCH_SCHEMA_VERSION,
			      "run", r->run,
			      "ok", r->ok,
			      "rooms", r->rooms,
			      "messages", r->messages,
			      "users_per_room", r->users,
			      "message_size", CHAT_MSG_SIZE,
			      "messages_sent", (json_int_t)r->sent,
			      "messages_received", (json_int_t)r->received,
			      "total_messages",
			      (json_int_t)(r->sent + r->received),
			      "elapsed_s", r->elapsed_s,
			      "throughput", r->throughput);

	if (!o) {
		json_decref(sched);
		return -1;
	}
	if (!r->ok)
		json_object_set_new(o, "error", json_string(r->error));
	if (r->interrupted)
		json_object_set_new(o, "interrupted", json_true());
	/* CLOCK_MONOTONIC at the release: runs of one host line up by it. */
	if (r->start_ns)
		json_object_set_new(o, "start_ns",
				    json_integer((json_int_t)r->start_ns));
	json_object_set_new(o, "cpu", cpu_json(r));
	if (r->sweep_param)
		json_object_set_new(o, "sweep",
				    sweep_json(r->sweep_param, r->sweep_value,
					       r->sweep_text));
	if (r->latency)
		json_object_set_new(o, "latency", latency_json(r));
	if (r->open)
		json_object_set_new(o, "open_loop", open_json(r->open));
	if (sched)
		json_object_set_new(o, "sched", sched);
	if (r->bg_burners)
		json_object_set_new(o, "background", json_pack(
			"{s:i, s:s, s:f}", "burners", r->bg_burners,
			"name", BG_BURN_NAME, "loops_per_s", r->bg_loops_per_s));
	if (r->kernel)
		json_object_set_new(o, "kernel", kstats_to_json(r->kernel));
	if (r->kernel && r->kernel->profile)
		json_object_set_new(o, "profile",
				    profile_to_json(r->kernel->profile));
	if (r->server_trace[0])
		json_object_set_new(o, "server_host", server_host_json(r));
	json_array_append_new(j->pending, o);
	return j->rewrite ? emit_now(j, o) : 0;
}

int json_out_save(struct json_out *j, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int rc = 0;

	if (!f)
		return -1;
	for (i = 0; i < j->ndone && !rc; i++)
		if (fputs(j->done[i], f) == EOF || fputc('\n', f) == EOF)
			rc = -1;
	if (fclose(f))
		rc = -1;
	return rc;
}

int json_out_set(struct json_out *j, size_t idx, const char *key,
		 json_t *value)
{
	json_t *o = json_array_get(j->pending, idx);

	if (!o || !value) {
		json_decref(value);
		return -1;
	}
	return json_object_set_new(o, key, value);
}

static json_t *command_line(int argc, char *const *argv)
{
	size_t len = 1;
	json_t *js;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return json_null();
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	js = json_string(s);
	free(s);
	return js ? js : json_null();
}

/* The pending series' lines become final: serialized and kept. */
static int keep_pending(struct json_out *j)
{
	size_t i, n = json_array_size(j->pending);
	char **d = realloc(j->done, (j->ndone + n) * sizeof(*d));

	if (!d)
		return -1;
	j->done = d;
	for (i = 0; i < n; i++) {
		d[j->ndone] = json_dumps(json_array_get(j->pending, i),
					 JSON_COMPACT);
		if (!d[j->ndone])
			return -1;
		j->ndone++;
	}
	json_array_clear(j->pending);
	return 0;
}

/*
 * Everything so far into a new file beside the target, renamed onto it:
 * a reader or a crash sees either the old file or the new one, never
 * half of one.  The new file stays open for the next series' runs.
 */
static int rewrite_file(struct json_out *j)
{
	struct safe_file sf;
	FILE *f = safe_file_open(&sf, j->path);
	size_t i;

	if (!f)
		goto fail;
	/* A failed write sticks to the stream: the commit reports it. */
	for (i = 0; i < j->ndone; i++) {
		fputs(j->done[i], f);
		fputc('\n', f);
	}
	if (safe_file_commit(&sf, &f))
		goto fail;
	fclose(j->f);
	j->f = f;
	return 0;
fail:
	j->failed = true;
	return -1;
}

static int finish_series(struct json_out *j)
{
	size_t first = j->ndone, i;

	if (keep_pending(j)) {
		j->failed = true;
		return -1;
	}
	if (j->rewrite)
		return rewrite_file(j);
	if (!j->f)
		return 0;
	for (i = first; i < j->ndone; i++)
		if (put_line(j, j->f, j->done[i]))
			return -1;
	return 0;
}

/* A --rate point: medians over its runs, and its --slo, if any. */
static json_t *open_summary_json(const struct sweep_row *row)
{
	json_t *j = json_pack("{s:I, s:s, s:f, s:f, s:I, s:I, s:I}",
			      "rate_per_user", (json_int_t)row->rate,
			      "arrival", arrival_name(row->arrival),
			      "offered_sends_per_s", row->offered,
			      "achieved_sends_per_s", row->achieved,
			      "p50_ns", (json_int_t)row->ol_p50,
			      "p99_ns", (json_int_t)row->ol_p99,
			      "p999_ns", (json_int_t)row->ol_p999);

	if (j && row->slo_ms > 0)
		json_object_set_new(j, "slo", json_pack("{s:f, s:b}",
			"p99_ms", row->slo_ms, "met", row->slo_met));
	return j;
}

int json_out_summary(struct json_out *j, const struct stats *s,
		     const struct summary_meta *m)
{
	char host[256] = "";
	struct utsname u;
	json_t *sum;

	memset(&u, 0, sizeof(u));
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	sum = json_pack("{s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:i, s:o, s:s, s:b}",
			"schema_version", CHATBENCH_SCHEMA_VERSION,
			"runs", (int)s->n,
			"runs_attempted", (int)m->attempted,
			"avg", s->avg,
			"min", s->min,
			"max", s->max,
			"median", s->median,
			"mad", s->mad,
			"rel_spread", s->rel_spread,
			"rooms", m->rooms,
			"messages", m->messages,
			"users_per_room", m->users,
			"message_size", CHAT_MSG_SIZE,
			"kernel_release", u.release,
			"host", host,
			"version", CHATBENCH_VERSION,
			"cpus", (int)sysconf(_SC_NPROCESSORS_ONLN),
			"command_line", command_line(m->argc, m->argv),
			"tracing", m->trace_state,
			"interrupted", m->interrupted);

	if (!sum) {
		json_decref(m->verdict);
		return -1;
	}
	if (m->verdict)
		json_object_set_new(sum, "verdict", m->verdict);
	if (m->sweep_param)
		json_object_set_new(sum, "sweep",
				    sweep_json(m->sweep_param, m->sweep_value,
					       m->sweep_text));
	if (m->row && m->row->open)
		json_object_set_new(sum, "open_loop", open_summary_json(m->row));
	json_object_set_new(sum, "placement", json_pack(
		"{s:{s:s, s:b, s:b, s:o}, s:{s:s, s:b, s:s, s:b, s:o}}",
		"client", "cpus", m->client_cpus, "pin", m->client_pin,
		"nodelay", m->nodelay, "autogroup",
		m->client_autogroup && *m->client_autogroup ?
			json_string(m->client_autogroup) : json_null(),
		"server", "model", m->server->model,
		"foreign", m->server->foreign, "cpus", m->server->cpus,
		"pin", m->server->pin, "autogroup",
		*m->server->autogroup ? json_string(m->server->autogroup) :
					json_null()));
	json_array_append_new(j->pending, json_pack("{s:o}", "summary", sum));
	return finish_series(j);
}

/* What a judgement adds to a run line (output/json/diag_json.c). */
static const char *const verdict_keys[] = {
	"slow", "disturbed", "evidence", "causes", "loss", "phases", "dips",
};

int json_out_saved_run(struct json_out *j, const json_t *run)
{
	json_t *o = json_deep_copy(run);
	size_t i;

	if (!o)
		return -1;
	for (i = 0; i < sizeof(verdict_keys) / sizeof(verdict_keys[0]); i++)
		json_object_del(o, verdict_keys[i]);
	json_array_append_new(j->pending, o);
	return j->rewrite ? emit_now(j, o) : 0;
}

int json_out_saved_summary(struct json_out *j, const json_t *summary,
			   json_t *verdict)
{
	json_t *sum = json_deep_copy(summary);

	if (!sum) {
		json_decref(verdict);
		return -1;
	}
	if (verdict)
		json_object_set_new(sum, "verdict", verdict);
	else
		json_object_del(sum, "verdict");
	json_array_append_new(j->pending, json_pack("{s:o}", "summary", sum));
	return finish_series(j);
}

int json_out_close(struct json_out *j)
{
	size_t i;
	int rc;

	if (!j)
		return 0;
	rc = j->failed ? -1 : 0;
	if (j->f && j->f != stdout && fclose(j->f))
		rc = -1;
	for (i = 0; i < j->ndone; i++)
		free(j->done[i]);
	free(j->done);
	json_decref(j->pending);
	free(j->path);
	free(j);
	return rc;
}
