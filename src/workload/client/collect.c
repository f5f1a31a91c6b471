// SPDX-License-Identifier: GPL-2.0
/*
 * A run's figures, gathered once its workers are joined: counts and the
 * clock from the first release to the last thread's end, the merged
 * latency histograms (per room for --rate), and what scheduling each
 * role held.  The workers only count; nothing here runs during a run.
 */
#include <stdlib.h>
#include <string.h>

#include "chatbench.h"
#include "tracer/kstats.h"
#include "workload/client/run_state.h"

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

void run_collect(struct cli_run *run, struct run_result *res)
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

