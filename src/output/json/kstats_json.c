/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel figures of one run as the JSON "kernel" object: everything in
 * struct kstats, with stable snake_case names.  Histograms are arrays of
 * {"lo", "hi", "count"} for the non-empty buckets (hi exclusive, null for
 * the open last bucket) so that readers need not know the bucket layout.
 */
#include <math.h>
#include <string.h>

#include "analysis/owait.h"
#include "tracer/kstats.h"
#include "util/roles.h"
#include "output/json/budget_json.h"
#include "output/json/kstats_json.h"

static json_t *hist_buckets_json(const uint64_t *b64, const uint32_t *b32)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		uint64_t n = b64 ? b64[i] : b32[i];
		uint64_t hi = cb_hist_hi(i);

		if (!n)
			continue;
		json_array_append_new(arr, json_pack("{s:I,s:o,s:I}",
			"lo", (json_int_t)cb_hist_lo(i),
			"hi", hi == ~0ULL ? json_null() :
					     json_integer((json_int_t)hi),
			"count", (json_int_t)n));
	}
	return arr;
}

json_t *ks_hist_json(const struct ks_hist *h, const char *unit)
{
	char k50[16], k90[16], k99[16], kmax[16];

	snprintf(k50, sizeof(k50), "p50_%s", unit);
	snprintf(k90, sizeof(k90), "p90_%s", unit);
	snprintf(k99, sizeof(k99), "p99_%s", unit);
	snprintf(kmax, sizeof(kmax), "max_%s", unit);
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:o}",
			 "count", (json_int_t)h->count,
			 k50, (json_int_t)h->p50, k90, (json_int_t)h->p90,
			 k99, (json_int_t)h->p99, kmax, (json_int_t)h->max,
			 "buckets", hist_buckets_json(h->buckets, NULL));
}

static json_t *cpus_of_mask(uint64_t mask)
{
	json_t *arr = json_array();
	int c;

	for (c = 0; c < 64; c++)
		if (mask & (1ULL << c))
			json_array_append_new(arr, json_integer(c));
	return arr;
}

static json_t *stealer_json(const struct ks_stealer *s)
{
	return json_pack("{s:s,s:i,s:o,s:i,s:I,s:o,s:b,s:o}",
			 "comm", s->comm, "pid", (int)s->pid,
			 "class", s->sclass >= 0 && s->sclass < CB_NR_CLASSES ?
				 json_string(kb_class_names[s->sclass]) :
				 json_null(),
			 "policy", s->policy,
			 "ns", (json_int_t)s->ns,
			 "cpus", cpus_of_mask(s->cpu_mask),
			 "is_benchmark", s->is_benchmark,
			 "role", s->is_benchmark && s->role >= 0 ?
				 json_string(role_name(s->role)) :
				 json_null());
}

/*
 * The run's budget, with the outsiders our threads waited behind: derived
 * from the budget and the stealers (analysis/owait.c), for readers of the
 * JSON; a loader makes it again from those two.
 */
static json_t *budget_json(const struct kstats *k)
{
	struct ow_entry ow[KS_TOP_STEALERS];
	json_t *b = budget_to_json(&k->budget, false), *arr;
	int i, n;

	if (!json_is_object(b))
		return b;
	n = outsider_waits(k, ow, KS_TOP_STEALERS);
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_pack(
			"{s:s,s:i,s:s,s:I}", "comm", ow[i].comm,
			"pid", (int)ow[i].pid, "class",
			kb_class_names[ow[i].sclass],
			"wait_ns", (json_int_t)ow[i].wait_ns));
	json_object_set_new(b, "outsiders", arr);
	return b;
}

static json_t *roles_json(const struct kstats *k)
{
	json_t *obj = json_object();
	int r;

	for (r = 0; r < KS_NR_ROLES; r++) {
		const struct ks_role *o = &k->role[r];

		json_object_set_new(obj, role_name(r), json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,"
			"s:o}",
			"wakeups", (json_int_t)o->wakeups,
			"cross_cpu_wakeups", (json_int_t)o->cross_cpu_wakeups,
			"vol_switches", (json_int_t)o->vol_switches,
			"invol_switches", (json_int_t)o->invol_switches,
			"migrations", (json_int_t)o->migrations,
			"oncpu_ns", (json_int_t)o->oncpu_ns,
			"runnable_ns", (json_int_t)o->runnable_ns,
			"blocked_ns", (json_int_t)o->blocked_ns,
			"stopped_ns", (json_int_t)o->stopped_ns,
			"frozen_ns", (json_int_t)o->frozen_ns,
			"offcpu_vol_ns", (json_int_t)o->offcpu_vol_ns,
			"offcpu_invol_ns", (json_int_t)o->offcpu_invol_ns,
			"stolen_ns", (json_int_t)o->stolen_ns,
			"rq_latency", ks_hist_json(&o->rq_lat, "ns")));
		/* The mean weight for readers, the sum to read back exactly. */
		if (o->weight_ns && o->oncpu_ns) {
			json_t *ro = json_object_get(obj, role_name(r));

			json_object_set_new(ro, "weight_ns",
					    json_integer((json_int_t)o->weight_ns));
			json_object_set_new(ro, "weight", json_real(
				round(10.0 * (double)o->weight_ns /
				      (double)o->oncpu_ns) / 10));
		}
	}
	return obj;
}

static json_t *cpus_json(const struct kstats *k)
{
	json_t *arr = json_array();
	int c, v;

	for (c = 0; c < k->ncpus; c++) {
		const struct ks_cpu *o = &k->cpu[c];
		json_t *sirq = json_object();

		for (v = 0; v < KS_NR_SOFTIRQS; v++) {
			json_t *one;

			if (!o->softirq_cnt[v])
				continue;
			one = json_pack("{s:I}", "count",
					(json_int_t)o->softirq_cnt[v]);
			/* The kernel's ticks do not split time by vector. */
			if (!k->softirq_ticks)
				json_object_set_new(one, "ns",
					json_integer((json_int_t)o->softirq_ns[v]));
			json_object_set_new(sirq, ks_softirq_names[v], one);
		}
		json_array_append_new(arr, json_pack("{s:i,s:I,s:I,s:I,s:o}",
			"cpu", c, "idle_ns", (json_int_t)o->idle_ns,
			"stolen_ns", (json_int_t)o->stolen_ns,
			"softirq_ns", (json_int_t)o->softirq_all_ns,
			"softirq", sirq));
	}
	return arr;
}

static json_t *sock_side_json(const struct ks_sock_side *s)
{
	return json_pack("{s:I,s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			 "data_ready_sampled", (json_int_t)s->data_ready,
			 "rq_bytes", ks_hist_json(&s->rq_bytes, "bytes"),
			 "rcvbuf_max", (json_int_t)s->rcvbuf_max,
			 "sndq_samples", (json_int_t)s->sends,
			 "wmem_queued_avg", (json_int_t)s->wmem_avg,
			 "wmem_queued_max", (json_int_t)s->wmem_max,
			 "sndbuf_max", (json_int_t)s->sndbuf_max,
			 "sndbuf_full", (json_int_t)s->sndbuf_full,
			 "exceed_buf_limit", (json_int_t)s->exceed_buf_limit,
			 "rcvqueue_full", (json_int_t)s->rcvqueue_full);
}

static json_t *cost_json(const struct kstats *k)
{
	json_t *progs = json_array();
	int i;

	for (i = 0; i < k->nr_progs; i++)
		json_array_append_new(progs, json_pack("{s:s,s:I,s:I}",
			"name", k->prog[i].name,
			"run_time_ns", (json_int_t)k->prog[i].run_time_ns,
			"run_cnt", (json_int_t)k->prog[i].run_cnt));
	return json_pack("{s:I,s:I,s:f,s:b,s:I,s:o}",
			 "run_time_ns", (json_int_t)k->bpf_run_time_ns,
			 "run_cnt", (json_int_t)k->bpf_run_cnt,
			 "cpu_share", k->bpf_cpu_share,
			 "estimated", k->bpf_timed_ns != 0,
			 "timed_ns", (json_int_t)k->bpf_timed_ns,
			 "programs", progs);
}

/* chat_c or chat_s as a whole: its CPU controller and its stops. */
static json_t *proc_json(const struct ks_proc *p)
{
	json_t *o = json_pack("{s:i,s:I}", "pid", (int)p->pid, "major_faults",
			      (json_int_t)p->majflt);

	if (!o)
		return NULL;
	json_object_set_new(o, "cgroup", !p->cg_valid ? json_null() :
		json_pack("{s:s,s:i,s:I,s:I,s:I,s:I,s:I,s:I}",
			  "path", p->cgroup, "version", p->cg_v2 ? 2 : 1,
			  "quota_us", (json_int_t)p->quota_us,
			  "period_us", (json_int_t)p->period_us,
			  "periods", (json_int_t)p->periods,
			  "throttled_periods",
			  (json_int_t)p->throttled_periods,
			  "throttled_ns", (json_int_t)p->throttled_ns,
			  "psi_some_us", (json_int_t)p->psi_some_us));
	if (p->cg_valid && p->cpu_weight)
		json_object_set_new(json_object_get(o, "cgroup"), "cpu_weight",
				    json_integer((json_int_t)p->cpu_weight));
	if (p->ag_valid)
		json_object_set_new(o, "autogroup_nice",
				    json_integer(p->ag_nice));
	json_object_set_new(o, "stops", json_pack(
		"{s:I,s:I,s:i,s:i,s:s}",
		"signals", (json_int_t)p->stop_signals,
		"stopped_ns", (json_int_t)p->stopped_ns,
		"signal", p->stop_sig, "sender_pid", (int)p->stop_sender,
		"sender_comm", p->stop_sender_comm));
	return o;
}

/* Who held the process in ptrace stops during the run; null: nobody. */
static json_t *tracer_json(const struct cb_tracer *t)
{
	if (!t->stops)
		return json_null();
	return json_pack("{s:I,s:i,s:s#}", "stops", (json_int_t)t->stops,
			 "pid", (int)t->pid, "comm", t->comm,
			 (int)strnlen(t->comm, sizeof(t->comm)));
}

static json_t *intervals_json(const struct kstats *k)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < k->nr_intervals; i++) {
		const struct ks_interval *iv = &k->interval[i];

		json_array_append_new(arr, json_pack(
			"{s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,"
			"s:o,s:o}",
			"start_ns", (json_int_t)iv->start_ns,
			"duration_ns", (json_int_t)iv->duration_ns,
			"messages", (json_int_t)iv->messages,
			"throughput", iv->throughput,
			"wakeups", (json_int_t)iv->wakeups,
			"invol_switches", (json_int_t)iv->invol_switches,
			"rq_p99_ns", (json_int_t)iv->rq_p99_ns,
			"idle_ns", (json_int_t)iv->idle_ns,
			"softirq_ns", (json_int_t)iv->softirq_ns,
			"throttled_ns", (json_int_t)iv->throttled_ns,
			"stopped_ns", (json_int_t)iv->stopped_ns,
			"retrans_segs", (json_int_t)iv->retrans_segs,
			"psi_mem_some_us", (json_int_t)iv->psi_mem_some_us,
			"rq_buckets", hist_buckets_json(NULL, iv->rq_buckets),
			"top_stealer", iv->top.ns ? stealer_json(&iv->top) :
						    json_null()));
		json_object_set_new(json_array_get(arr, i), "budget",
				    budget_to_json(&iv->budget, true));
	}
	return arr;
}

json_t *kstats_to_json(const struct kstats *k)
{
	json_t *stealers, *o, *procs;
	int i;

	if (!k)
		return json_null();
	stealers = json_array();
	for (i = 0; i < k->nr_stealers; i++)
		json_array_append_new(stealers, stealer_json(&k->stealer[i]));
	o = json_pack("{s:s,s:s,s:i,s:I,s:I,s:o,s:o,s:I,s:o,s:{s:i,s:o,s:o},"
			 "s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:o,s:o}",
		"mode", k->mode ? k->mode : "",
		"softirq_source", k->softirq_ticks ? "ticks" : "tracepoints",
		"ncpus", k->ncpus,
		"wall_ns", (json_int_t)k->wall_ns,
		"messages", (json_int_t)k->messages,
		"roles", roles_json(k),
		"cpus", cpus_json(k),
		"stolen_ns", (json_int_t)k->stolen_total_ns,
		"stealers", stealers,
		"sockets",
		"sample_rate", (int)k->sock_sample_rate,
		"client", sock_side_json(&k->sock[CB_SIDE_CLIENT]),
		"server", sock_side_json(&k->sock[CB_SIDE_SERVER]),
		"missed",
		"stealer_map_full", (json_int_t)k->missed.stealer_map_full,
		"slot_evictions", (json_int_t)k->missed.slot_evictions,
		"queue_mismatch", (json_int_t)k->missed.queue_mismatch,
		"recursion_misses", (json_int_t)k->missed.recursion_misses,
		"lost_events", (json_int_t)k->missed.lost_events,
		"waiters_migrated", (json_int_t)k->missed.waiters_migrated,
		"phantom_waiters", (json_int_t)k->missed.phantom_waiters,
		"bpf_cost", cost_json(k),
		"intervals", intervals_json(k));
	if (!o)
		return NULL;
	procs = json_pack("{s:o,s:o}",
			  "client", proc_json(&k->proc[CB_SIDE_CLIENT]),
			  "server", proc_json(&k->proc[CB_SIDE_SERVER]));
	json_object_set_new(o, "processes", procs);
	json_object_set_new(o, "budget", budget_json(k));
	json_object_set_new(o, "tracers", json_pack(
		"{s:o,s:o}", "client", tracer_json(&k->tracer[CB_SIDE_CLIENT]),
		"server", tracer_json(&k->tracer[CB_SIDE_SERVER])));
	json_object_set_new(o, "system", json_pack(
		"{s:I,s:I,s:I,s:I,s:I}",
		"tcp_retrans_segs", (json_int_t)k->sys.retrans_segs,
		"tcp_rto_timeouts", (json_int_t)k->sys.rto_timeouts,
		"psi_memory_some_us", (json_int_t)k->sys.psi_mem_some_us,
		"allocstall", (json_int_t)k->sys.allocstall,
		"cpu_freq_khz", (json_int_t)k->sys.freq_khz));
	return o;
}
