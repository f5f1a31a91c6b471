// SPDX-License-Identifier: GPL-2.0
/*
 * Run lines of a result file back into run records (struct run_result),
 * the inverse of json_out_run(): what the analysis and the text outputs
 * read of a run is restored, the rest stays in the line's json_t for the
 * outputs that copy it through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/jfield.h"
#include "results/kstats_load.h"
#include "results/results.h"
#include "results/series_load.h"
#include "analysis/series_record.h"
#include "tracer/kstats.h"

static double get_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void load_times(const json_t *o, struct cpu_times *t)
{
	t->valid = json_is_object(o);
	t->user_s = get_num(o, "user_s");
	t->sys_s = get_num(o, "sys_s");
}

static void load_lat(const json_t *o, struct lat_summary *l)
{
	l->count = jf_u64_or0(o, "count");
	l->p50 = jf_u64_or0(o, "p50_ns");
	l->p90 = jf_u64_or0(o, "p90_ns");
	l->p99 = jf_u64_or0(o, "p99_ns");
	l->p999 = jf_u64_or0(o, "p999_ns");
	l->max = jf_u64_or0(o, "max_ns");
}

/* --rate runs: the open-loop figures a sweep row takes its medians of. */
static struct open_result *load_open(const json_t *o)
{
	const json_t *rooms = json_object_get(o, "rooms");
	struct open_result *op = calloc(1, sizeof(*op));
	json_t *e;
	size_t i;

	if (!op)
		return NULL;
	op->rate = (long)jf_u64_or0(o, "rate_per_user");
	op->arrival = strcmp(json_string_value(json_object_get(o, "arrival"))
			     ?: "", "poisson") ? ARRIVAL_FIXED : ARRIVAL_POISSON;
	op->offered = get_num(o, "offered_sends_per_s");
	op->achieved = get_num(o, "achieved_sends_per_s");
	op->delivered = get_num(o, "receives_per_s");
	load_lat(json_object_get(o, "latency"), &op->lat);
	op->nrooms = (int)json_array_size(rooms);
	op->rooms = calloc((size_t)op->nrooms + 1, sizeof(*op->rooms));
	if (!op->rooms) {
		free(op);
		return NULL;
	}
	json_array_foreach(rooms, i, e)
		load_lat(e, &op->rooms[i]);
	return op;
}

/*
 * The server's host as json_out_run() wrote it: its name, its trace state,
 * its group's name and, when traced, its kernel record, like the run's own.
 */
static int load_server_host(const json_t *o, struct run_result *r)
{
	const json_t *k = json_object_get(o, "kernel");

	if (!json_is_object(o))
		return 0;
	snprintf(r->server_host, sizeof(r->server_host), "%s",
		 json_string_value(json_object_get(o, "name")) ?: "");
	/* A record without its state is one that was asked for. */
	snprintf(r->server_trace, sizeof(r->server_trace), "%s",
		 json_string_value(json_object_get(o, "trace")) ?: "on");
	snprintf(r->server_group, sizeof(r->server_group), "%s",
		 json_string_value(json_object_get(o, "group")) ?: "");
	if (!json_is_object(k))
		return 0;
	r->server_kernel = kstats_from_json(k);
	return r->server_kernel ? 0 : -1;
}

static int load_run(const struct result_run *rr, struct run_result *r,
		    char *err, size_t len)
{
	const json_t *j = rr->json, *cpu = json_object_get(j, "cpu");
	const json_t *k = json_object_get(j, "kernel");
	const json_t *lat = json_object_get(j, "latency");
	const json_t *ol = json_object_get(j, "open_loop");
	const json_t *bg = json_object_get(j, "background");

	r->run = rr->run;
	r->rooms = rr->rooms;
	r->messages = rr->messages;
	r->users = rr->users_per_room;
	r->sent = rr->messages_sent;
	r->received = rr->messages_received;
	r->start_ns = jf_u64_or0(j, "start_ns");
	r->elapsed_s = rr->elapsed_s;
	r->throughput = rr->throughput;
	r->ok = rr->ok;
	r->interrupted = json_is_true(json_object_get(j, "interrupted"));
	snprintf(r->error, sizeof(r->error), "%s", rr->error ?: "");
	load_times(json_object_get(cpu, "client"), &r->cpu_client);
	load_times(json_object_get(cpu, "server"), &r->cpu_server);
	r->steal_pct = get_num(cpu, "steal_pct");
	if (json_is_object(k)) {
		r->kernel = kstats_from_json(k);
		if (!r->kernel) {
			snprintf(err, len, "line %zu: malformed kernel record",
				 rr->line);
			return -1;
		}
	}
	if (load_server_host(json_object_get(j, "server_host"), r)) {
		snprintf(err, len, "line %zu: malformed server_host record",
			 rr->line);
		return -1;
	}
	if (json_is_object(lat)) {
		r->latency = calloc(1, sizeof(*r->latency));
		if (!r->latency)
			goto oom;
		ks_hist_from_json(lat, r->latency, "ns");
		r->lat_unstamped = jf_u64_or0(lat, "unstamped");
	}
	if (json_is_object(ol)) {
		r->open = load_open(ol);
		if (!r->open)
			goto oom;
	}
	if (json_is_object(bg)) {
		r->bg_burners = (int)jf_u64_or0(bg, "burners");
		r->bg_loops_per_s = get_num(bg, "loops_per_s");
	}
	return 0;
oom:
	snprintf(err, len, "line %zu: out of memory", rr->line);
	return -1;
}

static void add_missing(char *m, size_t mlen, const char *what)
{
	size_t used = strlen(m);

	snprintf(m + used, mlen - used, "%s%s", used ? ", " : "", what);
}

void saved_runs_free(struct saved_runs *sr)
{
	size_t i;

	for (i = 0; sr->runs && i < sr->n; i++)
		run_record_release(&sr->runs[i]);
	free(sr->runs);
	sr->runs = NULL;
	sr->n = 0;
}

int saved_runs_load(const struct result_group *g, struct saved_runs *s,
		    char *missing, size_t mlen, char *err, size_t len)
{
	bool no_budget = false, no_iv = false;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (mlen)
		missing[0] = '\0';
	s->sweep_param = g->sweep_param;
	if (g->sweep) {
		const json_t *v = json_object_get(g->sweep, "value");

		if (json_is_string(v))
			s->sweep_text = json_string_value(v);
		else
			s->sweep_value = (long)json_integer_value(v);
	}
	if (g->summary.present) {
		s->rooms = g->summary.rooms;
		s->messages = g->summary.messages;
		s->users = g->summary.users_per_room;
	} else if (g->nr_runs) {
		s->rooms = g->runs[0].rooms;
		s->messages = g->runs[0].messages;
		s->users = g->runs[0].users_per_room;
	}
	s->runs = calloc(g->nr_runs + 1, sizeof(*s->runs));
	if (!s->runs) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (i = 0; i < g->nr_runs; i++) {
		struct run_result *r = &s->runs[i];

		s->n++;
		if (load_run(&g->runs[i], r, err, len)) {
			saved_runs_free(s);
			return -1;
		}
		r->sweep_param = s->sweep_param;
		r->sweep_value = s->sweep_value;
		r->sweep_text = s->sweep_text;
		/* Untraced runs lack nothing: live, they had no record. */
		if (r->ok && r->kernel) {
			no_budget |= !r->kernel->budget.valid;
			no_iv |= !r->kernel->nr_intervals;
		}
		if (r->ok && r->server_kernel) {
			no_budget |= !r->server_kernel->budget.valid;
			no_iv |= !r->server_kernel->nr_intervals;
		}
	}
	if (no_budget)
		add_missing(missing, mlen, "time budgets");
	if (no_iv)
		add_missing(missing, mlen, "intervals");
	return 0;
}

void saved_runs_to_series(struct saved_runs *sr, struct series *s)
{
	memset(s, 0, sizeof(*s));
	s->rooms = sr->rooms;
	s->messages = sr->messages;
	s->users = sr->users;
	s->sweep_param = sr->sweep_param;
	s->sweep_value = sr->sweep_value;
	s->sweep_text = sr->sweep_text;
	s->runs = sr->runs;
	s->attempted = sr->n;
	sr->runs = NULL;
	sr->n = 0;
}
