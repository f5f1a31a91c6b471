/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiler of --profile and --timeline, a BPF object of its own so
 * that a run without them loads and attaches nothing of it: the default
 * tracer's cost stays what it was.  Three things, each switched on by
 * user space before load:
 *
 *  - on-CPU: a perf_event program on the software CPU clock, every CPU,
 *    counts the stacks (kernel and user) of whatever runs, keyed by the
 *    benchmark thread's role, or by the command name of an outsider;
 *  - off-CPU: at sched_switch, the stacks at which a benchmark thread left
 *    the CPU; at its next switch-in, the time away, split into blocked
 *    (switch-out to wakeup) and runqueue (wakeup, or an involuntary
 *    switch-out, to switch-in), added under those stacks;
 *  - timeline: every switch, wakeup and migration that involves a
 *    benchmark thread, through a ring buffer to user space.
 *
 * Handlers exist as tp_btf and raw_tp, like those of sched.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "chatbench.h"
#include "core_fixes.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING	0
#define __TASK_STOPPED	0x04
#define __TASK_TRACED	0x08
#define TASK_FROZEN	0x8000
#define EFAULT		14

const volatile bool want_offcpu;
const volatile bool want_timeline;

volatile __u32 client_tgid;
volatile __u32 server_tgid;
/*
 * The server is foreign (the original 1.0.1), whose workers are processes
 * of their own, children of the server's (bpf/sched.bpf.c): they are the
 * server's, in role other (the learned roles are the tracer's map, not
 * this object's).  Rodata: for our own server the tests are dropped at
 * load.
 */
const volatile bool server_foreign;
/* Set while a run's clock runs: the programs stay attached throughout. */
volatile bool active;
volatile __u64 active_since;	/* slots older than this are stale */

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, CB_PROF_STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, CB_PROF_MAX_STACKS);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct cb_prof_key);
	__type(value, __u64);
	__uint(max_entries, CB_PROF_MAX_KEYS);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct cb_prof_lost);
	__uint(max_entries, 1);
} lost SEC(".maps");

/* Where each benchmark thread left the CPU, until it is back on. */
struct off_slot {
	__u64 ts_off;
	__u64 ts_wake;		/* 0: not woken since ts_off */
	__u32 tid;
	__s32 ustack;
	__s32 kstack;
	__u8 role;
	__u8 blocked;		/* went to sleep rather than preempted */
	__u8 __pad[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct off_slot);
	__uint(max_entries, CB_TASK_SLOTS);
} off_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1);		/* set by user space with --timeline */
} events SEC(".maps");

static __always_inline struct cb_prof_lost *lost_here(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&lost, &zero);
}

/* Role of a task, CB_PROF_OUTSIDER when it is not one of ours. */
static __always_inline int role_of(struct task_struct *p, const bool btf)
{
	__u32 tgid = CB_RD(btf, p, tgid);

	if (tgid && (tgid == client_tgid || tgid == server_tgid))
		return cb_role_of_comm(cb_comm8(p, btf));
	if (server_foreign && tgid && server_tgid &&
	    cb_parent_tgid(p, btf) == server_tgid)
		return CB_ROLE_OTHER;
	return CB_PROF_OUTSIDER;
}

static __always_inline void add(struct cb_prof_key *k, __u64 v,
				struct cb_prof_lost *l)
{
	__u64 *c = bpf_map_lookup_elem(&counts, k);

	if (c) {
		__sync_fetch_and_add(c, v);
		return;
	}
	/* Lost only when the map is full; a racing insert just retries. */
	if (bpf_map_update_elem(&counts, k, &v, BPF_NOEXIST)) {
		c = bpf_map_lookup_elem(&counts, k);
		if (c)
			__sync_fetch_and_add(c, v);
		else if (l)
			l->keys_full++;
	}
}

/* A stack id, counting failures other than "no such stack" (-EFAULT). */
static __always_inline __s32 stack_of(void *ctx, __u64 flags,
				      struct cb_prof_lost *l)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id < 0 && id != -EFAULT && l)
		l->stack_errors++;
	return id;
}

/*
 * Helpers rather than the task's BTF, so that the sampler loads where
 * tp_btf does not (the raw_tp fallback).
 */
SEC("perf_event")
int on_cpu_sample(struct bpf_perf_event_data *ctx)
{
	struct cb_prof_lost *l;
	struct cb_prof_key k = {};
	__u64 id, word;

	if (!active)
		return 0;
	l = lost_here();
	if (l)
		l->samples++;
	id = bpf_get_current_pid_tgid();
	if (!(__u32)id) {
		if (l)
			l->idle++;
		return 0;
	}
	k.tgid = id >> 32;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	k.role = CB_PROF_OUTSIDER;
	if (k.tgid == client_tgid || k.tgid == server_tgid) {
		__builtin_memcpy(&word, k.comm, sizeof(word));
		k.role = cb_role_of_comm(word);
		__builtin_memset(k.comm, 0, sizeof(k.comm));
	} else if (server_foreign && server_tgid &&
		   cb_parent_tgid((struct task_struct *)bpf_get_current_task(),
				  false) == server_tgid) {
		/*
		 * A worker process: the server's, its stacks read with the
		 * server's maps (the worker, gone by the report, shares or
		 * copied them).
		 */
		k.role = CB_ROLE_OTHER;
		k.tgid = server_tgid;
		__builtin_memset(k.comm, 0, sizeof(k.comm));
	}
	k.kind = CB_PROF_ONCPU;
	k.kstack = stack_of(ctx, 0, l);
	k.ustack = stack_of(ctx, BPF_F_USER_STACK, l);
	add(&k, 1, l);
	return 0;
}

static __always_inline struct off_slot *slot_of(__u32 tid)
{
	__u32 key = tid & (CB_TASK_SLOTS - 1);

	return bpf_map_lookup_elem(&off_slots, &key);
}

static __always_inline void off_add(struct off_slot *s, __u32 tgid,
				    int kind, __u64 ns,
				    struct cb_prof_lost *l)
{
	struct cb_prof_key k = {};

	if (!ns)
		return;
	k.tgid = tgid;
	k.role = s->role;
	k.kind = kind;
	k.ustack = s->ustack;
	k.kstack = s->kstack;
	add(&k, ns, l);
}

static __always_inline void tl_emit(__u8 type, __u32 pid, __u32 tgid,
				    __u32 other, __u32 other_tgid, __u32 cpu,
				    __u8 state, int role, int other_role,
				    struct task_struct *named, bool cur_comm,
				    const bool btf, struct cb_prof_lost *l)
{
	struct cb_tl_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		if (l)
			l->tl_dropped++;
		return;
	}
	e->ts = bpf_ktime_get_ns();
	e->pid = pid;
	e->tgid = tgid;
	e->other = other;
	e->other_tgid = other_tgid;
	e->cpu = cpu;
	e->type = type;
	e->state = state;
	e->role = role;
	e->other_role = other_role;
	__builtin_memset(e->comm, 0, sizeof(e->comm));
	if (cur_comm) {
		bpf_get_current_comm(e->comm, sizeof(e->comm));
	} else if (named) {
		if (btf)
			__builtin_memcpy(e->comm, named->comm,
					 sizeof(e->comm));
		else
			bpf_core_read(e->comm, sizeof(e->comm),
				      &named->comm);
	}
	bpf_ringbuf_submit(e, 0);
}

static __always_inline int on_switch(void *ctx, bool preempt,
				     struct task_struct *prev,
				     struct task_struct *next, const bool btf)
{
	struct cb_prof_lost *l;
	__u32 prev_pid, next_pid, state;
	struct off_slot *s;
	int prole, nrole;
	__u8 tl_state;
	__u64 now;

	if (!active)
		return 0;
	prev_pid = CB_RD(btf, prev, pid);
	next_pid = CB_RD(btf, next, pid);
	prole = prev_pid ? role_of(prev, btf) : CB_PROF_OUTSIDER;
	nrole = next_pid ? role_of(next, btf) : CB_PROF_OUTSIDER;
	if (prole == CB_PROF_OUTSIDER && nrole == CB_PROF_OUTSIDER)
		return 0;
	l = lost_here();
	now = bpf_ktime_get_ns();
	state = preempt ? TASK_RUNNING : cb_task_state(prev, btf);
	if (want_offcpu && prole != CB_PROF_OUTSIDER) {
		s = slot_of(prev_pid);
		if (s) {
			s->tid = prev_pid;
			s->ts_off = now;
			s->ts_wake = 0;
			s->role = prole;
			s->blocked = state != TASK_RUNNING;
			s->kstack = stack_of(ctx, 0, l);
			s->ustack = stack_of(ctx, BPF_F_USER_STACK, l);
		}
	}
	if (want_offcpu && nrole != CB_PROF_OUTSIDER) {
		s = slot_of(next_pid);
		if (s && s->tid == next_pid && s->ts_off >= active_since &&
		    now > s->ts_off) {
			__u32 tgid = CB_RD(btf, next, tgid);
			__u64 woke = s->ts_wake;

			if (!s->blocked) {
				off_add(s, tgid, CB_PROF_RUNQ,
					now - s->ts_off, l);
			} else if (woke > s->ts_off && woke <= now) {
				off_add(s, tgid, CB_PROF_BLOCKED,
					woke - s->ts_off, l);
				off_add(s, tgid, CB_PROF_RUNQ, now - woke, l);
			} else {
				off_add(s, tgid, CB_PROF_BLOCKED,
					now - s->ts_off, l);
			}
			s->ts_off = 0;
		}
	}
	if (!want_timeline)
		return 0;
	tl_state = state == TASK_RUNNING ? CB_TL_PREEMPTED :
		   state & (__TASK_STOPPED | __TASK_TRACED | TASK_FROZEN) ?
		   CB_TL_STOPPED : CB_TL_BLOCKED;
	tl_emit(CB_TL_SWITCH, prev_pid, CB_RD(btf, prev, tgid), next_pid,
		CB_RD(btf, next, tgid), bpf_get_smp_processor_id(), tl_state,
		prole, nrole,
		prole == CB_PROF_OUTSIDER ? prev :
		nrole == CB_PROF_OUTSIDER ? next : NULL, false, btf, l);
	return 0;
}

static __always_inline int on_wakeup(struct task_struct *p, const bool btf)
{
	struct off_slot *s;
	__u64 wid, word;
	int role, wrole;
	__u32 pid;

	if (!active)
		return 0;
	role = role_of(p, btf);
	if (role == CB_PROF_OUTSIDER)
		return 0;
	pid = CB_RD(btf, p, pid);
	if (want_offcpu) {
		s = slot_of(pid);
		if (s && s->tid == pid && s->ts_off && !s->ts_wake)
			s->ts_wake = bpf_ktime_get_ns();
	}
	if (!want_timeline)
		return 0;
	/*
	 * The task current when the wakeup fired: the waker, or whatever
	 * ran on the target CPU for a wakeup queued to it (TTWU_QUEUE).
	 */
	wid = bpf_get_current_pid_tgid();
	wrole = CB_PROF_OUTSIDER;
	if ((__u32)wid && ((wid >> 32) == client_tgid ||
			   (wid >> 32) == server_tgid ||
			   (server_foreign && server_tgid &&
			    cb_parent_tgid((struct task_struct *)
					   bpf_get_current_task(), false) ==
			    server_tgid))) {
		char comm[16];

		bpf_get_current_comm(comm, sizeof(comm));
		__builtin_memcpy(&word, comm, sizeof(word));
		wrole = cb_role_of_comm(word);
	}
	tl_emit(CB_TL_WAKEUP, pid, CB_RD(btf, p, tgid), (__u32)wid, wid >> 32,
		cb_task_cpu(p, btf), 0, role, wrole, NULL,
		wrole == CB_PROF_OUTSIDER && (__u32)wid, btf, lost_here());
	return 0;
}

static __always_inline int on_migrate(struct task_struct *p, int dest,
				      const bool btf)
{
	int role;

	if (!active || !want_timeline)
		return 0;
	role = role_of(p, btf);
	if (role == CB_PROF_OUTSIDER)
		return 0;
	tl_emit(CB_TL_MIGRATE, CB_RD(btf, p, pid), CB_RD(btf, p, tgid), 0,
		dest, cb_task_cpu(p, btf), 0, role, CB_PROF_OUTSIDER, NULL,
		false, btf, lost_here());
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(prof_btf_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return on_switch(ctx, preempt, prev, next, true);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(prof_btf_wakeup, struct task_struct *p)
{
	return on_wakeup(p, true);
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(prof_btf_migrate, struct task_struct *p, int dest_cpu)
{
	return on_migrate(p, dest_cpu, true);
}

SEC("raw_tp/sched_switch")
int BPF_PROG(prof_raw_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return on_switch(ctx, preempt, prev, next, false);
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(prof_raw_wakeup, struct task_struct *p)
{
	return on_wakeup(p, false);
}

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(prof_raw_migrate, struct task_struct *p, int dest_cpu)
{
	return on_migrate(p, dest_cpu, false);
}
