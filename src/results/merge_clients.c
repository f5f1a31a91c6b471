// SPDX-License-Identifier: GPL-2.0
/*
 * The files of one run's clients merged into one series (merge_clients.h):
 * told apart from files of different runs by the group name chat_s gave
 * each released run, summed run by run, and turned into the run records
 * the analysis judges.  The server's host's record is the first file's:
 * chat_s sent the same one to every client of the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/kstats_load.h"
#include "results/merge_clients.h"
#include "results/series_load.h"
#include "tracer/kstats.h"

static const char *run_group(const struct result_run *r)
{
	const json_t *sh = json_object_get(r->json, "server_host");

	return json_string_value(json_object_get(sh, "group"));
}

bool clients_mergeable(const struct result_file *files, size_t n)
{
	size_t i, j, k, nruns;

	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		if (files[i].nr_groups != 1 || files[i].groups[0].sweep)
			return false;
	nruns = files[0].groups[0].nr_runs;
	for (i = 0; i < n; i++)
		if (files[i].groups[0].nr_runs != nruns)
			return false;
	for (k = 0; k < nruns; k++) {
		const struct result_run *r0 = &files[0].groups[0].runs[k];
		const char *g = run_group(r0);

		if (!g || !*g)
			return false;
		for (i = 1; i < n; i++) {
			const char *gi = run_group(&files[i].groups[0].runs[k]);

			if (!gi || strcmp(g, gi))
				return false;
		}
		/* One client's run twice is the same line twice. */
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (json_equal(files[i].groups[0].runs[k].json,
					       files[j].groups[0].runs[k].json))
					return false;
	}
	return nruns > 0;
}

void clients_merge_free(struct clients_merge *m)
{
	size_t i;

	for (i = 0; m->runs && i < m->nruns; i++)
		free(m->runs[i].client);
	for (i = 0; m->label && i < m->nclients; i++)
		free(m->label[i]);
	free(m->label);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

static const char *file_host(const struct result_file *f)
{
	const char *h = f->groups[0].summary.host;

	return h && *h ? h : "?";
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path ? path : "?", '/');

	return b ? b + 1 : path ? path : "?";
}

/* Hosts name the clients; a name two clients share gets the file's too. */
static int make_labels(const struct result_file *files, size_t n,
		       struct clients_merge *m)
{
	size_t i, j;

	m->label = calloc(n, sizeof(*m->label));
	if (!m->label)
		return -1;
	for (i = 0; i < n; i++) {
		const char *h = file_host(&files[i]);
		bool shared = false;

		for (j = 0; j < n; j++)
			shared |= j != i && !strcmp(h, file_host(&files[j]));
		if (shared ? asprintf(&m->label[i], "%s (%s)", h,
				      base_name(files[i].path)) < 0 :
			     !(m->label[i] = strdup(h))) {
			m->label[i] = NULL;
			return -1;
		}
	}
	return 0;
}

static void merge_run(const struct result_file *files, size_t n, size_t k,
		      struct clients_run *cr)
{
	const json_t *sh;
	size_t i;

	cr->ok = true;
	for (i = 0; i < n; i++) {
		const struct result_run *r = &files[i].groups[0].runs[k];

		cr->client[i] = r;
		cr->ok &= r->ok;
		cr->sent += r->messages_sent;
		cr->received += r->messages_received;
		if (!i || r->elapsed_s > cr->elapsed_s) {
			cr->elapsed_s = r->elapsed_s;
			cr->slowest = i;
		}
	}
	cr->run = cr->client[0]->run;
	cr->group = run_group(cr->client[0]);
	if (cr->elapsed_s > 0)
		cr->throughput = (double)(cr->sent + cr->received) /
				 cr->elapsed_s;
	sh = json_object_get(cr->client[0]->json, "server_host");
	cr->server_kernel = json_object_get(sh, "kernel");
	if (!json_is_object(cr->server_kernel))
		cr->server_kernel = NULL;
}

int clients_merge(const struct result_file *files, size_t n,
		  struct clients_merge *m)
{
	const json_t *sh;
	size_t k;

	memset(m, 0, sizeof(*m));
	m->nclients = n;
	m->nruns = files[0].groups[0].nr_runs;
	m->runs = calloc(m->nruns + 1, sizeof(*m->runs));
	if (!m->runs || make_labels(files, n, m))
		goto oom;
	for (k = 0; k < m->nruns; k++) {
		m->runs[k].client = calloc(n, sizeof(*m->runs[k].client));
		if (!m->runs[k].client)
			goto oom;
		merge_run(files, n, k, &m->runs[k]);
	}
	sh = m->nruns ? json_object_get(m->runs[0].client[0]->json,
					"server_host") :
			NULL;
	m->server_name = json_string_value(json_object_get(sh, "name")) ?: "";
	return 0;
oom:
	clients_merge_free(m);
	return -1;
}

/* The clients' message latency of one run, added bucket by bucket. */
static void add_latency(struct ks_hist *sum, const struct result_run *r)
{
	const json_t *lat = json_object_get(r->json, "latency");
	struct ks_hist h;
	uint64_t max = sum->max;
	int b;

	if (!json_is_object(lat))
		return;
	memset(&h, 0, sizeof(h));
	ks_hist_from_json(lat, &h, "ns");
	for (b = 0; b < CB_HIST_BUCKETS; b++)
		sum->buckets[b] += h.buckets[b];
	if (h.max > max)
		max = h.max;
	ks_hist_finish(sum);
	sum->max = max;
}

int clients_saved_runs(const struct clients_merge *m,
		       const struct result_file *files, struct saved_runs *s,
		       char *missing, size_t mlen, char *err, size_t len)
{
	size_t i, k;

	if (saved_runs_load(&files[0].groups[0], s, missing, mlen, err, len))
		return -1;
	for (i = 1; i < m->nclients; i++)
		s->rooms += files[i].groups[0].summary.present ?
				    files[i].groups[0].summary.rooms :
				    files[i].groups[0].runs[0].rooms;
	for (k = 0; k < s->n && k < m->nruns; k++) {
		const struct clients_run *cr = &m->runs[k];
		struct run_result *r = &s->runs[k];

		r->rooms = 0;
		for (i = 0; i < m->nclients; i++)
			r->rooms += cr->client[i]->rooms;
		r->sent = cr->sent;
		r->received = cr->received;
		r->elapsed_s = cr->elapsed_s;
		r->throughput = cr->throughput;
		r->ok = cr->ok;
		/* A time on the first client's clock means nothing here. */
		r->start_ns = 0;
		r->cpu_client.valid = false;
		kstats_free(r->kernel);
		r->kernel = NULL;
		if (r->latency) {
			memset(r->latency, 0, sizeof(*r->latency));
			for (i = 0; i < m->nclients; i++)
				add_latency(r->latency, cr->client[i]);
		}
	}
	return 0;
}
