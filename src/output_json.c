// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines with jansson, which does the escaping.  Each line is flushed
 * when written: a run's result reaches the disk before the next run starts.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kstats.h"
#include "output_json.h"
#include "proto.h"

struct json_out {
	FILE *f;
	bool is_stdout;
	bool failed;
};

struct json_out *json_out_open(const char *path, char *err, size_t len)
{
	struct json_out *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if (!strcmp(path, "-")) {
		j->f = stdout;
		j->is_stdout = true;
		return j;
	}
	j->f = fopen(path, "w");
	if (!j->f) {
		snprintf(err, len, "cannot write JSON to %s: %s", path,
			 strerror(errno));
		free(j);
		return NULL;
	}
	return j;
}

static int emit(struct json_out *j, json_t *obj)
{
	int rc;

	if (!obj)
		return -1;
	rc = json_dumpf(obj, j->f, JSON_COMPACT);
	json_decref(obj);
	if (rc || fputc('\n', j->f) == EOF || fflush(j->f))
		j->failed = true;
	return j->failed ? -1 : 0;
}

static json_t *sweep_json(const char *param, long value)
{
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
	return json_pack("{s:o, s:o}", "client", times_json(&r->cpu_client),
			 "server", times_json(&r->cpu_server));
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

int json_out_run(struct json_out *j, const struct run_result *r)
{
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

	if (!o)
		return -1;
	if (!r->ok)
		json_object_set_new(o, "error", json_string(r->error));
	json_object_set_new(o, "cpu", cpu_json(r));
	if (r->sweep_param)
		json_object_set_new(o, "sweep",
				    sweep_json(r->sweep_param, r->sweep_value));
	if (r->latency)
		json_object_set_new(o, "latency", latency_json(r));
	if (r->kernel)
		json_object_set_new(o, "kernel", kstats_to_json(r->kernel));
	return emit(j, o);
}

static json_t *command_line(const struct client_opts *o)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < o->argc; i++)
		len += strlen(o->argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return json_null();
	for (i = 0; i < o->argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, o->argv[i]);
	}
	json_t *js = json_string(s);

	free(s);
	return js ? js : json_null();
}

int json_out_summary(struct json_out *j, const struct client_opts *o,
		     const struct stats *s, size_t attempted,
		     const char *trace_state, bool interrupted,
		     const char *sweep_param, long sweep_value)
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
			"runs_attempted", (int)attempted,
			"avg", s->avg,
			"min", s->min,
			"max", s->max,
			"median", s->median,
			"mad", s->mad,
			"rel_spread", s->rel_spread,
			"rooms", o->rooms,
			"messages", o->messages,
			"users_per_room", o->users,
			"message_size", CHAT_MSG_SIZE,
			"kernel_release", u.release,
			"host", host,
			"version", CHATBENCH_VERSION,
			"cpus", (int)sysconf(_SC_NPROCESSORS_ONLN),
			"command_line", command_line(o),
			"tracing", trace_state,
			"interrupted", interrupted);

	if (!sum)
		return -1;
	if (sweep_param)
		json_object_set_new(sum, "sweep",
				    sweep_json(sweep_param, sweep_value));
	return emit(j, json_pack("{s:o}", "summary", sum));
}

int json_out_close(struct json_out *j)
{
	int rc;

	if (!j)
		return 0;
	rc = j->failed ? -1 : 0;
	if (!j->is_stdout && fclose(j->f))
		rc = -1;
	free(j);
	return rc;
}
