// SPDX-License-Identifier: GPL-2.0
/*
 * The inverse of kstats_to_json(): a run's "kernel" object read back from
 * a result file into a struct kstats, so that --baseline judges today's
 * runs against saved ones, and chatbench-judge re-judges a saved series,
 * with exactly the arithmetic used live: every figure the analysis reads,
 * the per-interval series included.
 */
#include <stdlib.h>
#include <string.h>

#include "tracer/kstats.h"
#include "util/roles.h"
#include "results/budget_load.h"
#include "results/jfield.h"
#include "results/kstats_load.h"

/* Buckets come as {lo, hi, count}; lo names the bucket exactly. */
void ks_hist_from_json(const json_t *o, struct ks_hist *h, const char *unit)
{
	json_t *b = json_object_get(o, "buckets"), *e;
	char key[16];
	size_t i;

	memset(h, 0, sizeof(*h));
	json_array_foreach(b, i, e) {
		uint64_t lo = jf_u64_or0(e, "lo");

		h->buckets[cb_hist_bucket(lo)] += jf_u64_or0(e, "count");
	}
	snprintf(key, sizeof(key), "max_%s", unit);
	h->max = jf_u64_or0(o, key);
	ks_hist_finish(h);
}

static void load_roles(const json_t *roles, struct kstats *k)
{
	const char *name;
	json_t *o;

	json_object_foreach((json_t *)roles, name, o) {
		int r = role_by_name(name);
		struct ks_role *ro;

		if (r < 0)
			continue;
		ro = &k->role[r];
		ro->wakeups = jf_u64_or0(o, "wakeups");
		ro->cross_cpu_wakeups = jf_u64_or0(o, "cross_cpu_wakeups");
		ro->vol_switches = jf_u64_or0(o, "vol_switches");
		ro->invol_switches = jf_u64_or0(o, "invol_switches");
		ro->migrations = jf_u64_or0(o, "migrations");
		ro->oncpu_ns = jf_u64_or0(o, "oncpu_ns");
		ro->runnable_ns = jf_u64_or0(o, "runnable_ns");
		ro->blocked_ns = jf_u64_or0(o, "blocked_ns");
		ro->stopped_ns = jf_u64_or0(o, "stopped_ns");
		ro->frozen_ns = jf_u64_or0(o, "frozen_ns");
		ro->offcpu_vol_ns = jf_u64_or0(o, "offcpu_vol_ns");
		ro->offcpu_invol_ns = jf_u64_or0(o, "offcpu_invol_ns");
		ro->stolen_ns = jf_u64_or0(o, "stolen_ns");
		ro->weight_ns = jf_u64_or0(o, "weight_ns");
		ks_hist_from_json(json_object_get(o, "rq_latency"), &ro->rq_lat, "ns");
	}
}

static void load_proc(const json_t *o, struct ks_proc *p)
{
	const json_t *cg = json_object_get(o, "cgroup");
	const json_t *st = json_object_get(o, "stops");
	const char *str;

	if (!json_is_object(o))
		return;
	p->pid = (pid_t)jf_u64_or0(o, "pid");
	p->majflt = jf_u64_or0(o, "major_faults");
	if (json_is_integer(json_object_get(o, "autogroup_nice"))) {
		p->ag_valid = true;
		p->ag_nice = (int)json_integer_value(json_object_get(o,
							"autogroup_nice"));
	}
	if (json_is_object(cg)) {
		p->cg_valid = true;
		p->cg_v2 = jf_u64_or0(cg, "version") == 2;
		str = json_string_value(json_object_get(cg, "path"));
		snprintf(p->cgroup, sizeof(p->cgroup), "%s", str ? str : "");
		p->quota_us = json_integer_value(json_object_get(cg,
								 "quota_us"));
		p->period_us = jf_u64_or0(cg, "period_us");
		p->periods = jf_u64_or0(cg, "periods");
		p->throttled_periods = jf_u64_or0(cg, "throttled_periods");
		p->throttled_ns = jf_u64_or0(cg, "throttled_ns");
		p->psi_some_us = jf_u64_or0(cg, "psi_some_us");
		p->cpu_weight = jf_u64_or0(cg, "cpu_weight");
	}
	if (!json_is_object(st))
		return;
	p->stop_signals = jf_u64_or0(st, "signals");
	p->stopped_ns = jf_u64_or0(st, "stopped_ns");
	p->stop_sig = (int)jf_u64_or0(st, "signal");
	p->stop_sender = (pid_t)jf_u64_or0(st, "sender_pid");
	str = json_string_value(json_object_get(st, "sender_comm"));
	snprintf(p->stop_sender_comm, sizeof(p->stop_sender_comm), "%s",
		 str ? str : "");
}

static int load_cpus(const json_t *cpus, struct kstats *k)
{
	size_t i;
	json_t *o;
	int v;

	k->ncpus = (int)json_array_size(cpus);
	if (!k->ncpus)
		return -1;
	k->cpu = calloc((size_t)k->ncpus, sizeof(*k->cpu));
	if (!k->cpu)
		return -1;
	json_array_foreach(cpus, i, o) {
		json_t *sirq = json_object_get(o, "softirq");
		uint64_t sum = 0;

		k->cpu[i].idle_ns = jf_u64_or0(o, "idle_ns");
		k->cpu[i].stolen_ns = jf_u64_or0(o, "stolen_ns");
		for (v = 0; v < KS_NR_SOFTIRQS; v++) {
			json_t *s = json_object_get(sirq, ks_softirq_names[v]);

			k->cpu[i].softirq_ns[v] = jf_u64_or0(s, "ns");
			k->cpu[i].softirq_cnt[v] = jf_u64_or0(s, "count");
			sum += k->cpu[i].softirq_ns[v];
		}
		/* Files before schema 3 have the time by vector only. */
		k->cpu[i].softirq_all_ns = json_object_get(o, "softirq_ns") ?
					   jf_u64_or0(o, "softirq_ns") : sum;
	}
	return 0;
}

/* The class of an outsider (kb_class_names), -1 for none or unknown. */
static int class_by_name(const char *name)
{
	int c;

	for (c = 0; name && c < CB_NR_CLASSES; c++)
		if (!strcmp(name, kb_class_names[c]))
			return c;
	return -1;
}

static void load_tracer(const json_t *o, struct cb_tracer *t)
{
	memset(t, 0, sizeof(*t));
	if (!json_is_object(o))
		return;
	t->stops = jf_u64_or0(o, "stops");
	t->pid = (__u32)jf_u64_or0(o, "pid");
	snprintf(t->comm, sizeof(t->comm), "%s",
		 json_string_value(json_object_get(o, "comm")) ?: "?");
}

static void load_stealer(const json_t *o, struct ks_stealer *s)
{
	const char *role;
	json_t *c;
	size_t j;

	snprintf(s->comm, sizeof(s->comm), "%s",
		 json_string_value(json_object_get(o, "comm")) ?: "?");
	s->pid = (pid_t)jf_u64_or0(o, "pid");
	s->ns = jf_u64_or0(o, "ns");
	s->is_benchmark = json_is_true(json_object_get(o, "is_benchmark"));
	role = json_string_value(json_object_get(o, "role"));
	s->role = role ? role_by_name(role) : -1;
	s->sclass = class_by_name(json_string_value(json_object_get(o,
								    "class")));
	s->policy = json_object_get(o, "policy") ?
		(int)json_integer_value(json_object_get(o, "policy")) : -1;
	json_array_foreach(json_object_get(o, "cpus"), j, c)
		if (json_integer_value(c) >= 0 && json_integer_value(c) < 64)
			s->cpu_mask |= 1ULL << json_integer_value(c);
}

static void load_stealers(const json_t *arr, struct kstats *k)
{
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o) {
		if (k->nr_stealers == KS_TOP_STEALERS)
			break;
		load_stealer(o, &k->stealer[k->nr_stealers++]);
	}
}

/*
 * The per-interval series, which the phases and dips of a run are read
 * from.  Corpus files drop the intervals' run-queue buckets (nothing of
 * the verdict reads them); they load as empty.  -1 when malformed.
 */
static int load_intervals(const json_t *arr, struct kstats *k)
{
	size_t i, n = json_array_size(arr);
	json_t *o, *e;

	if (!n)
		return 0;
	k->interval = calloc(n, sizeof(*k->interval));
	if (!k->interval)
		return -1;
	k->nr_intervals = n;
	json_array_foreach(arr, i, o) {
		struct ks_interval *iv = &k->interval[i];
		json_t *tp = json_object_get(o, "throughput"), *top;
		size_t j;

		if (!json_is_object(o) || !json_is_number(tp))
			return -1;
		iv->start_ns = jf_u64_or0(o, "start_ns");
		iv->duration_ns = jf_u64_or0(o, "duration_ns");
		iv->messages = jf_u64_or0(o, "messages");
		iv->throughput = json_number_value(tp);
		iv->wakeups = jf_u64_or0(o, "wakeups");
		iv->invol_switches = jf_u64_or0(o, "invol_switches");
		iv->rq_p99_ns = jf_u64_or0(o, "rq_p99_ns");
		iv->idle_ns = jf_u64_or0(o, "idle_ns");
		iv->softirq_ns = jf_u64_or0(o, "softirq_ns");
		iv->throttled_ns = jf_u64_or0(o, "throttled_ns");
		iv->stopped_ns = jf_u64_or0(o, "stopped_ns");
		iv->retrans_segs = jf_u64_or0(o, "retrans_segs");
		iv->psi_mem_some_us = jf_u64_or0(o, "psi_mem_some_us");
		json_array_foreach(json_object_get(o, "rq_buckets"), j, e)
			iv->rq_buckets[cb_hist_bucket(jf_u64_or0(e, "lo"))] +=
				(uint32_t)jf_u64_or0(e, "count");
		top = json_object_get(o, "top_stealer");
		if (json_is_object(top))
			load_stealer(top, &iv->top);
		if (budget_from_json(json_object_get(o, "budget"), &iv->budget))
			return -1;
	}
	return 0;
}

static void load_costs(const json_t *o, struct kstats *k)
{
	const json_t *m = json_object_get(o, "missed");
	const json_t *c = json_object_get(o, "bpf_cost");
	json_t *p;
	size_t i;

	k->sock_sample_rate = (unsigned int)jf_u64_or0(json_object_get(o,
						"sockets"), "sample_rate");
	k->missed.stealer_map_full = jf_u64_or0(m, "stealer_map_full");
	k->missed.slot_evictions = jf_u64_or0(m, "slot_evictions");
	k->missed.queue_mismatch = jf_u64_or0(m, "queue_mismatch");
	k->missed.recursion_misses = jf_u64_or0(m, "recursion_misses");
	k->missed.lost_events = jf_u64_or0(m, "lost_events");
	k->missed.waiters_migrated = jf_u64_or0(m, "waiters_migrated");
	k->missed.phantom_waiters = jf_u64_or0(m, "phantom_waiters");
	k->bpf_run_time_ns = jf_u64_or0(c, "run_time_ns");
	k->bpf_run_cnt = jf_u64_or0(c, "run_cnt");
	k->bpf_cpu_share = json_number_value(json_object_get(c, "cpu_share"));
	k->bpf_timed_ns = jf_u64_or0(c, "timed_ns");
	json_array_foreach(json_object_get(c, "programs"), i, p) {
		struct ks_prog *pr;

		if (k->nr_progs == KS_MAX_PROGS)
			break;
		pr = &k->prog[k->nr_progs++];
		snprintf(pr->name, sizeof(pr->name), "%s",
			 json_string_value(json_object_get(p, "name")) ?: "?");
		pr->run_time_ns = jf_u64_or0(p, "run_time_ns");
		pr->run_cnt = jf_u64_or0(p, "run_cnt");
	}
}

/* The string is the file's: keep one of ours, not a pointer into it. */
static const char *mode_of(const json_t *o)
{
	const char *m = json_string_value(json_object_get(o, "mode")) ?: "";

	if (!strcmp(m, "tp_btf"))
		return "tp_btf";
	if (!strcmp(m, "raw_tp"))
		return "raw_tp";
	return "saved";
}

static void load_side(const json_t *o, struct ks_sock_side *s)
{
	s->data_ready = jf_u64_or0(o, "data_ready_sampled");
	ks_hist_from_json(json_object_get(o, "rq_bytes"), &s->rq_bytes, "bytes");
	s->rcvbuf_max = jf_u64_or0(o, "rcvbuf_max");
	/* Files before the send-queue sampler counted sampled sends. */
	s->sends = json_object_get(o, "sndq_samples") ?
		   jf_u64_or0(o, "sndq_samples") : jf_u64_or0(o, "sends_sampled");
	s->wmem_avg = jf_u64_or0(o, "wmem_queued_avg");
	s->wmem_max = jf_u64_or0(o, "wmem_queued_max");
	s->sndbuf_max = jf_u64_or0(o, "sndbuf_max");
	s->sndbuf_full = jf_u64_or0(o, "sndbuf_full");
	s->exceed_buf_limit = jf_u64_or0(o, "exceed_buf_limit");
	s->rcvqueue_full = jf_u64_or0(o, "rcvqueue_full");
}

struct kstats *kstats_from_json(const json_t *o)
{
	json_t *sock = json_object_get(o, "sockets"), *procs, *sys;
	struct kstats *k;

	if (!json_is_object(o))
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->mode = mode_of(o);
	k->softirq_ticks = !strcmp(json_string_value(json_object_get(o,
				   "softirq_source")) ?: "", "ticks");
	k->wall_ns = jf_u64_or0(o, "wall_ns");
	k->messages = jf_u64_or0(o, "messages");
	k->stolen_total_ns = jf_u64_or0(o, "stolen_ns");
	if (load_cpus(json_object_get(o, "cpus"), k) || !k->wall_ns) {
		kstats_free(k);
		return NULL;
	}
	load_roles(json_object_get(o, "roles"), k);
	load_stealers(json_object_get(o, "stealers"), k);
	load_side(json_object_get(sock, "client"), &k->sock[CB_SIDE_CLIENT]);
	load_side(json_object_get(sock, "server"), &k->sock[CB_SIDE_SERVER]);
	k->proc[CB_SIDE_CLIENT].quota_us = -1;
	k->proc[CB_SIDE_SERVER].quota_us = -1;
	sys = json_object_get(o, "system");
	k->sys.retrans_segs = jf_u64_or0(sys, "tcp_retrans_segs");
	k->sys.rto_timeouts = jf_u64_or0(sys, "tcp_rto_timeouts");
	k->sys.psi_mem_some_us = jf_u64_or0(sys, "psi_memory_some_us");
	k->sys.allocstall = jf_u64_or0(sys, "allocstall");
	k->sys.freq_khz = jf_u64_or0(sys, "cpu_freq_khz");
	load_costs(o, k);
	if (budget_from_json(json_object_get(o, "budget"), &k->budget) ||
	    load_intervals(json_object_get(o, "intervals"), k)) {
		kstats_free(k);
		return NULL;
	}
	load_tracer(json_object_get(json_object_get(o, "tracers"), "client"),
		    &k->tracer[CB_SIDE_CLIENT]);
	load_tracer(json_object_get(json_object_get(o, "tracers"), "server"),
		    &k->tracer[CB_SIDE_SERVER]);
	procs = json_object_get(o, "processes");
	load_proc(json_object_get(procs, "client"), &k->proc[CB_SIDE_CLIENT]);
	load_proc(json_object_get(procs, "server"), &k->proc[CB_SIDE_SERVER]);
	return k;
}
