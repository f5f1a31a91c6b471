// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a baseline: the result file's completed runs, each with its
 * kernel figures read back into a struct kstats, ready to be turned into
 * the same reference a series makes from its own runs.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/baseline.h"
#include "tracer/kstats.h"
#include "results/results.h"
#include "results/kstats_load.h"

struct saved_run {
	int rooms, messages, users;
	struct diag_run d;
	struct kstats *k;
	struct kstats *server_k;	/* the server's host's, or NULL */
};

struct baseline {
	struct saved_run *runs;
	size_t n;
};

static json_t *get(const struct result_run *r, const char *key)
{
	return json_object_get(r->json, key);
}

struct baseline *baseline_load(const char *path, char *err, size_t len)
{
	struct result_file rf;
	struct baseline *b;
	size_t g, i;

	if (results_load_flags(path, RESULTS_ALLOW_NO_SUMMARY, &rf, err, len))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		goto nomem;
	for (g = 0; g < rf.nr_groups; g++) {
		const struct result_group *gr = &rf.groups[g];
		struct saved_run *n = realloc(b->runs, (b->n + gr->nr_runs) *
							       sizeof(*n));

		if (!n)
			goto nomem;
		b->runs = n;
		for (i = 0; i < gr->nr_runs; i++) {
			const struct result_run *r = &gr->runs[i];
			struct saved_run *s = &b->runs[b->n];

			if (!r->ok || r->throughput <= 0)
				continue;
			memset(s, 0, sizeof(*s));
			s->rooms = r->rooms;
			s->messages = r->messages;
			s->users = r->users_per_room ? r->users_per_room : 20;
			s->d.throughput = r->throughput;
			s->d.steal_pct = json_number_value(
				json_object_get(get(r, "cpu"), "steal_pct"));
			s->k = kstats_from_json(get(r, "kernel"));
			s->server_k = kstats_from_json(json_object_get(
				json_object_get(r->json, "server_host"),
				"kernel"));
			s->d.k = s->k;
			b->n++;
		}
	}
	results_free(&rf);
	if (!b->n) {
		snprintf(err, len, "baseline %s has no completed run", path);
		baseline_free(b);
		return NULL;
	}
	return b;
nomem:
	results_free(&rf);
	baseline_free(b);
	snprintf(err, len, "out of memory reading baseline %s", path);
	return NULL;
}

/* Run i of b as the diagnosis sees host's side of it. */
static struct diag_run run_of(const struct baseline *b, size_t i,
			      enum diag_host host)
{
	struct diag_run d = b->runs[i].d;

	if (host == DIAG_HOST_SERVER)
		d.k = b->runs[i].server_k;
	return d;
}

int baseline_ref(const struct baseline *b, int rooms, int messages,
		 int users, double pct, enum diag_host host,
		 struct diag_ref *ref, bool *exact)
{
	struct diag_run *d = calloc(b->n, sizeof(*d));
	size_t i, n = 0;

	if (!d)
		return -1;
	for (i = 0; i < b->n; i++)
		if (b->runs[i].rooms == rooms &&
		    b->runs[i].messages == messages &&
		    b->runs[i].users == users)
			d[n++] = run_of(b, i, host);
	*exact = n > 0;
	if (!n)
		for (i = 0; i < b->n; i++)
			d[n++] = run_of(b, i, host);
	diag_reference(d, n, pct, ref);
	free(d);
	return n ? 0 : -1;
}

size_t baseline_runs(const struct baseline *b, struct diag_run *out,
		     size_t max)
{
	size_t i;

	for (i = 0; i < b->n && i < max; i++)
		out[i] = b->runs[i].d;
	return i;
}

void baseline_free(struct baseline *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		kstats_free(b->runs[i].k);
		kstats_free(b->runs[i].server_k);
	}
	free(b->runs);
	free(b);
}
