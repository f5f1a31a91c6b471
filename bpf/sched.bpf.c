/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler side of the tracer: what the kernel did to the benchmark's
 * threads.  Wakeups (and whether they crossed CPUs), run-queue latency,
 * voluntary and involuntary switches, where each thread's time went
 * (on CPU, runnable, blocked), migrations, who held a CPU while a
 * benchmark thread waited for it, per-CPU idle and softirq time.
 * Everything is aggregated here into per-CPU counters; user space only
 * snapshots them.  Every handler exists twice, as tp_btf (cheap direct
 * loads) and raw_tp (probe reads, for kernels where tp_btf cannot load),
 * sharing one __always_inline body; user space autoloads one set.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "chatbench.h"
#include "core_fixes.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING	0
#define TASK_UNINTERRUPTIBLE	0x02
#define __TASK_STOPPED	0x04
#define __TASK_TRACED	0x08
#define TASK_DEAD	0x80
#define PF_KTHREAD	0x00200000
/* Since 6.1, f5d39b020809 ("freezer,sched: Rewrite core freezer logic"). */
#define TASK_FROZEN	0x8000
/*
 * The generic (asm-generic/signal.h) numbers, which x86 and arm64 share;
 * alpha, mips, parisc and sparc number these signals otherwise.
 */
#if !defined(__TARGET_ARCH_x86) && !defined(__TARGET_ARCH_arm64)
#warning "stopping signals numbered as on x86 and arm64: check this arch's"
#endif
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTTOU		22
#define SIGTSTP		20
/* cgroup v2's freezer traps tasks in do_freezer_trap(), since 5.2. */
#define JOBCTL_TRAP_FREEZE	(1UL << 23)
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_IDLE	5
#define SCHED_DEADLINE	6
#define SCHED_EXT	7

/*
 * The processes traced.  In .bss so that user space can set them through
 * the mmapped skeleton at any time, e.g. once the server has been found.
 */
volatile __u32 client_tgid;
volatile __u32 server_tgid;

struct cb_cpu_state cpu_state[CB_MAX_CPUS];
/* The tracers of chat_c and chat_s in ptrace stops (user space reads). */
struct cb_tracer tracer[CB_NR_SIDES];
/* The open spans, summed by the iterator below at each snapshot. */
struct cb_open open_acc;
/* Syscall number to enum cb_block + 1 (0: other), set before load. */
const volatile __u8 sys_reason[CB_NR_SYSCALLS];
/* The last stopping signal to chat_c and to chat_s (user space reads). */
struct cb_stop_signal stop_signal[CB_NR_SIDES];

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct cb_sched_cpu);
	__uint(max_entries, 1);		/* possible CPUs, set before load */
} sched_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct cb_task_slot);
	__uint(max_entries, CB_TASK_SLOTS);
} task_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct cb_stealer);
	__uint(max_entries, CB_MAX_STEALERS);
} stealers SEC(".maps");

/*
 * sock.bpf.c's: a foreign server's threads, classed by what they do.
 * server_foreign is rodata, set before load: for our own server the
 * verifier drops every branch on it, so its tracing runs the code it ran
 * before foreign servers were known.
 */
extern const volatile __u32 server_foreign;
extern int foreign_role(__u32 tid);

/*
 * Whether p is a process of its own that the foreign server made: the
 * original 1.0.1 made each worker with a raw clone() and no CLONE_THREAD,
 * so its receivers and senders are processes, children of the server's,
 * all named chat_s.  Their tgid is not server_tgid; their parent's is.
 */
static __always_inline bool foreign_child(struct task_struct *p, const bool btf)
{
	return server_foreign && server_tgid &&
	       cb_parent_tgid(p, btf) == server_tgid;
}

/* The role learned for a foreign server's task, else other. */
static __always_inline int foreign_learned(struct task_struct *p,
					   const bool btf)
{
	/*
	 * Constants, not the call's value: the verifier knows nothing of
	 * what a global function returns, and a bounds check on it was
	 * compiled onto a copy.
	 */
	switch (foreign_role(CB_RD(btf, p, pid))) {
	case CB_ROLE_SRV_RCV:
		return CB_ROLE_SRV_RCV;
	case CB_ROLE_SRV_SND:
		return CB_ROLE_SRV_SND;
	}
	return CB_ROLE_OTHER;
}

/*
 * Role of a task, or -1 when it is not traced.  The tgid test comes first
 * because it rejects almost everything with one load; the tgid != 0 test
 * keeps idle (pid 0) out even when a tgid global is still unset.  A
 * foreign server's worker processes are tested last, when every cheap
 * test has failed, and only for a foreign server.
 */
static __always_inline int classify(struct task_struct *p, const bool btf)
{
	__u32 tgid = CB_RD(btf, p, tgid);
	__u64 comm = cb_comm8(p, btf);
	int role;

	if (tgid && (tgid == client_tgid || tgid == server_tgid)) {
		role = cb_role_of_comm(comm);
		/*
		 * A foreign server's threads by what they did (sock.bpf.c);
		 * for ours server_foreign is 0, and only its control
		 * threads, named other, get this far.
		 */
		if (role != CB_ROLE_OTHER || !server_foreign ||
		    tgid != server_tgid)
			return role;
		return foreign_learned(p, btf);
	}
	if (comm == CB_COMM_KSOFTIRQ)
		return CB_ROLE_KSOFTIRQD;
	if (tgid && foreign_child(p, btf))
		return foreign_learned(p, btf);
	return -1;
}

static __always_inline struct cb_sched_cpu *stats_of(__u32 cpu)
{
	return bpf_map_lookup_elem(&sched_stats, &cpu);
}

/* One more run of the program of hook, on this CPU. */
static __always_inline void hit(enum cb_sched_hook hook)
{
	struct cb_sched_cpu *st = stats_of(bpf_get_smp_processor_id());

	if (st)
		st->hits[hook]++;
}

static __always_inline struct cb_cpu_state *state_of(__u32 cpu)
{
	if (cpu >= CB_MAX_CPUS)
		return NULL;
	return &cpu_state[cpu];
}

static __always_inline __u64 max_u64(__u64 a, __u64 b)
{
	return a > b ? a : b;
}

/*
 * Brings the integral of the queued threads per role up to now: called
 * before any count changes and at every switch, always under the rq lock
 * of the CPU the counts belong to.
 */
static __always_inline void wait_tick(struct cb_cpu_state *cs, __u64 now)
{
	__s64 d = now - cs->wait_last;
	int r;

	cs->wait_last = now;
	if (d <= 0 || cs->nr_waiting <= 0)
		return;
	/*
	 * No branch per role: this is inlined at every count change of
	 * sched_switch, and a branch per role multiplied the verifier's
	 * states (and a traced run's start-up) several times over.  A
	 * negative count (a lost atomic decrement) adds nothing.
	 */
	for (r = 0; r < CB_NR_SUBJECT_ROLES; r++) {
		__s64 n = cs->nr_wait_role[r];

		cs->wait_acc[r] += (__u64)(n & ~(n >> 63)) * d;
	}
}

static __always_inline void wait_role_dec(struct cb_cpu_state *cs, int role)
{
	if (role >= 0 && role < CB_NR_SUBJECT_ROLES &&
	    cs->nr_wait_role[role] > 0)
		cs->nr_wait_role[role]--;
}

/* The CB_HOLD_* of a task: its role, idle, or its scheduling class. */
static __always_inline __u32 class_of(__u32 policy)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return CB_CLASS_RT;
	case SCHED_DEADLINE:
		return CB_CLASS_DL;
	case SCHED_IDLE:
		return CB_CLASS_IDLE;
	case SCHED_EXT:
		return CB_CLASS_EXT;
	default:
		return CB_CLASS_FAIR;
	}
}

static __always_inline __u32 holder_of(struct task_struct *p, __u32 pid,
				       int role, const bool btf)
{
	if (!pid)
		return CB_HOLD_IDLE;
	if (role >= 0 && role < CB_NR_ROLES)
		return role;
	return CB_HOLD_CLASS(class_of(CB_RD(btf, p, policy)));
}

/*
 * Whether a CFS run queue sits under a group throttled by its quota (its
 * count of throttled levels, its own or above).  Read as a plain kernel
 * address: it is kept past the switch that gave it.  Kernels without
 * group scheduling have no such run queue, and no quota.
 */
static __always_inline bool cfs_throttled(__u64 addr)
{
	struct cfs_rq *cfs = (struct cfs_rq *)addr;

	if (!cfs || !bpf_core_field_exists(cfs->throttle_count))
		return false;
	return BPF_CORE_READ(cfs, throttle_count) > 0;
}

/* The run queue of p's group, when p is held off by its quota; else 0. */
static __always_inline __u64 throttled_rq(struct task_struct *p,
					  const bool btf)
{
	struct cfs_rq *cfs;

	if (!bpf_core_field_exists(p->se.cfs_rq))
		return 0;
	cfs = CB_RD(btf, p, se.cfs_rq);
	if (!cfs || !bpf_core_field_exists(cfs->throttle_count))
		return 0;
	return CB_RD(btf, cfs, throttle_count) > 0 ? (__u64)cfs : 0;
}

/* The roles whose waits here are the quota's now; forgets it once over. */
static __always_inline __u32 throttled_now(struct cb_cpu_state *cs)
{
	if (!cs->throttled_cfs)
		return 0;
	if (cfs_throttled(cs->throttled_cfs))
		return cs->throttled_roles;
	cs->throttled_cfs = 0;
	cs->throttled_roles = 0;
	return 0;
}

/* A waiting subject stopped counting on cs outside a sched_switch. */
static __always_inline void waiter_gone(struct cb_cpu_state *cs, int role,
					__u64 now)
{
	__s64 d;

	if (cs->nr_waiting <= 0)
		return;
	wait_tick(cs, now);
	wait_role_dec(cs, role);
	if (--cs->nr_waiting)
		return;
	d = now - max_u64(cs->curr_start, cs->waiting_since);
	if (d > 0)
		cs->steal_pending += d;
}

static __always_inline void waiter_add(struct cb_cpu_state *cs, int role,
				       __u64 now)
{
	wait_tick(cs, now);
	if (role >= 0 && role < CB_NR_SUBJECT_ROLES) {
		if (cs->nr_wait_role[role] < 0)
			cs->nr_wait_role[role] = 0;
		cs->nr_wait_role[role]++;
	}
	if (cs->nr_waiting++ <= 0) {
		cs->nr_waiting = 1;
		cs->waiting_since = now;
	}
}

/*
 * The slot of tid, reset when it held another thread.  A reset slot that
 * was counted as waiting on some CPU is a counted miss: the clean-up at
 * TASK_DEAD makes that happen only when two live tids share a slot.
 */
static __always_inline struct cb_task_slot *
slot_of(__u32 tid, int role, struct cb_sched_cpu *st)
{
	__u32 key = tid & (CB_TASK_SLOTS - 1);
	struct cb_task_slot *s;

	s = bpf_map_lookup_elem(&task_slots, &key);
	if (!s)
		return NULL;
	if (s->tid != tid) {
		if (s->tid)
			st->slot_evictions++;
		__builtin_memset(s, 0, sizeof(*s));
		s->tid = tid;
	}
	s->role = role;
	return s;
}

static __always_inline void charge_stealer(struct cb_sched_cpu *st,
					   struct task_struct *p, __u32 pid,
					   int role, __u32 cpu, __u64 d,
					   const bool btf)
{
	struct cb_stealer *v, nv = {};

	if (!pid) {
		st->stolen_idle_ns += d;
		return;
	}
	/* Lost adds only undercount: no lock is held on a first sight. */
	if (role >= 0 && role < CB_NR_SUBJECT_ROLES) {
		st->role[role].stolen_ns += d;
		return;
	}
	st->stolen_outsider_ns += d;
	/*
	 * Outsiders are counted per process: a hog of N threads is one
	 * culprit, not N small ones.  Kernel threads are their own process.
	 */
	pid = CB_RD(btf, p, tgid);
	v = bpf_map_lookup_elem(&stealers, &pid);
	if (!v) {
		if (btf) {
			*(__u64 *)&nv.comm[0] = *(__u64 *)&p->comm[0];
			*(__u64 *)&nv.comm[8] = *(__u64 *)&p->comm[8];
		} else {
			bpf_core_read(&nv.comm, sizeof(nv.comm), &p->comm);
		}
		if (bpf_map_update_elem(&stealers, &pid, &nv, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&stealers, &pid)) {
			st->stealer_map_full++;
			return;
		}
		v = bpf_map_lookup_elem(&stealers, &pid);
		if (!v)
			return;
	}
	v->policy = CB_RD(btf, p, policy);
	v->sclass = class_of(v->policy);
	/* Threads of one process run on several CPUs at once. */
	__sync_fetch_and_add(&v->ns, d);
	__sync_fetch_and_add(&v->slices, 1);
	__sync_fetch_and_or(&v->cpu_mask, 1ULL << (cpu < 63 ? cpu : 63));
}

/*
 * A waiter counted on another CPU left that queue without a migrate event
 * we saw (rare: ~10 in a 10 x 1000 run).  Without that CPU's lock an
 * atomic add can only be lost, not corrupt the count; a loss is undone
 * when that CPU next goes idle.  Left alone, the count stayed one too high
 * and charged everything that CPU ran afterwards to "who took the CPU".
 */
static __always_inline void waiter_drop(__u32 qcpu, int role,
					struct cb_sched_cpu *st)
{
	struct cb_cpu_state *qcs = state_of(qcpu);

	if (qcs) {
		__sync_fetch_and_add(&qcs->nr_waiting, -1);
		if (role >= 0 && role < CB_NR_SUBJECT_ROLES)
			__sync_fetch_and_add(&qcs->nr_wait_role[role], -1);
	}
	st->queue_mismatch++;
}

/*
 * Why a thread that left its CPU not runnable sleeps.  A ptrace stop
 * also says who traces it: the parent of a traced task is its tracer.
 * A socket call in uninterruptible sleep waits for the socket's lock,
 * so the socket is the reason; any other uninterruptible sleep is a
 * page fault, I/O or a kernel lock.  The syscall number is read only
 * here, on a blocking switch: never on the message path.
 */
static __always_inline __u8 block_reason(struct task_struct *p, __u32 state,
					 const bool btf)
{
	__u8 why = 0;
	long nr;

	if (state & TASK_FROZEN)
		return CB_BLOCK_FROZEN;
	if (state & __TASK_TRACED) {
		__u32 tgid = CB_RD(btf, p, tgid);
		struct cb_tracer *t = NULL;
		struct task_struct *tr;

		if (tgid == client_tgid)
			t = &tracer[CB_SIDE_CLIENT];
		else if (tgid == server_tgid || foreign_child(p, btf))
			t = &tracer[CB_SIDE_SERVER];
		if (t) {
			tr = BPF_CORE_READ(p, parent);
			t->stops++;
			t->pid = BPF_CORE_READ(tr, tgid);
			bpf_core_read(&t->comm, sizeof(t->comm), &tr->comm);
		}
		return CB_BLOCK_PTRACE;
	}
	if (state & __TASK_STOPPED)
		return CB_BLOCK_JOBCTL;
	if (BPF_CORE_READ(p, jobctl) & JOBCTL_TRAP_FREEZE)
		return CB_BLOCK_FROZEN;
	/* A kernel thread (ksoftirqd) has no system call to sleep in. */
	if (CB_RD(btf, p, flags) & PF_KTHREAD)
		return state & TASK_UNINTERRUPTIBLE ? CB_BLOCK_UNINT :
						      CB_BLOCK_OTHER;
	nr = cb_syscall_nr(p, btf);
	if (nr >= 0 && nr < CB_NR_SYSCALLS)
		why = sys_reason[nr];
	if (why && why - 1 <= CB_BLOCK_SOCK_SEND)
		return why - 1;
	if (state & TASK_UNINTERRUPTIBLE)
		return CB_BLOCK_UNINT;
	return why ? why - 1 : CB_BLOCK_OTHER;
}

/*
 * The task's CFS weight as the kernel uses it: its nice through
 * sched_prio_to_weight, or WEIGHT_IDLEPRIO for SCHED_IDLE; 64-bit
 * kernels keep it scaled up by 2^10 (scale_load).
 */
static __always_inline __u64 task_weight(struct task_struct *p, const bool btf)
{
	__u64 w = btf ? p->se.load.weight : BPF_CORE_READ(p, se.load.weight);

	return w >> 10;
}

static __always_inline void switch_out(struct task_struct *p, __u32 pid,
				       int role, bool preempt, __u32 cpu,
				       struct cb_cpu_state *cs,
				       struct cb_sched_cpu *st, __u64 now,
				       const bool btf)
{
	struct cb_role_stats *rs = &st->role[role];
	struct cb_task_slot *s;
	__u32 state = 0;
	__s64 d;

	s = slot_of(pid, role, st);
	if (!s)
		return;
	/*
	 * Preempted, or still TASK_RUNNING (yield, or a signal arrived
	 * before it could block): it stays on the run queue.  The state is
	 * read here, not taken from the tracepoint's prev_state, because
	 * __schedule() resets it to running on a pending signal.
	 */
	if (!preempt)
		state = cb_task_state(p, btf);
	if (s->ts_on) {
		d = now - s->ts_on;
		if (d > 0) {
			rs->oncpu_ns += d;
			rs->weight_ns += d * task_weight(p, btf);
		}
	}
	s->ts_on = 0;
	if (preempt || state == TASK_RUNNING) {
		rs->invol_switches++;
		s->invol = 1;
		s->blocked = 0;
		if (!s->ts_enq)
			s->ts_enq = now;
		if (role < CB_NR_SUBJECT_ROLES && !s->queued_cpu) {
			s->queued_cpu = cpu + 1;
			waiter_add(cs, role, now);
		}
	} else {
		rs->vol_switches++;
		if (state & TASK_DEAD) {
			__builtin_memset(s, 0, sizeof(*s));
			return;
		}
		s->invol = 0;
		s->blocked = 1;
		s->reason = block_reason(p, state, btf);
		s->ts_enq = 0;
		/* Leaving this CPU to sleep: queued nowhere. */
		if (s->queued_cpu == cpu + 1)
			waiter_gone(cs, role, now);
		else if (s->queued_cpu)
			waiter_drop(s->queued_cpu - 1, role, st);
		s->queued_cpu = 0;
	}
	s->ts_off = now;
}

static __always_inline void switch_in(__u32 pid, int role, __u32 cpu,
				      struct cb_cpu_state *cs,
				      struct cb_sched_cpu *st, __u64 now)
{
	struct cb_role_stats *rs;
	struct cb_task_slot *s;
	__s64 d;

	if (role >= CB_NR_ROLES)
		return;
	rs = &st->role[role];
	s = slot_of(pid, role, st);
	if (!s)
		return;
	if (s->ts_enq) {
		d = now - s->ts_enq;
		if (d > 0) {
			rs->runnable_ns += d;
			if ((__u64)d > rs->rq_lat_max_ns)
				rs->rq_lat_max_ns = d;
			cb_hist_add(st->rq_lat_hist[role], d);
		}
		s->ts_enq = 0;
	}
	if (s->queued_cpu) {
		/* Only this CPU's count is ours to change: we hold its lock. */
		if (s->queued_cpu == cpu + 1) {
			wait_tick(cs, now);
			wait_role_dec(cs, role);
			if (cs->nr_waiting > 0)
				cs->nr_waiting--;
		} else {
			waiter_drop(s->queued_cpu - 1, role, st);
		}
		s->queued_cpu = 0;
	}
	if (s->ts_off) {
		d = now - s->ts_off;
		if (d > 0) {
			if (s->invol)
				rs->offcpu_invol_ns += d;
			else
				rs->offcpu_vol_ns += d;
		}
		s->ts_off = 0;
	}
	s->blocked = 0;
	s->ts_on = now;
}

/*
 * The waits since the last switch go to the task that held the CPU, or
 * for the roles held off by their group's quota, to the throttling.
 */
static __always_inline void charge_waits(struct cb_cpu_state *cs,
					 struct cb_sched_cpu *st, __u64 now)
{
	__u32 h = cs->curr_holder, mask = throttled_now(cs), hr;
	int r;

	wait_tick(cs, now);
	if (h >= CB_NR_HOLDERS)
		h = CB_HOLD_IDLE;
	for (r = 0; r < CB_NR_SUBJECT_ROLES; r++) {
		/* Without a branch, as in wait_tick. */
		hr = h ^ ((h ^ CB_HOLD_THROTTLED) & -((mask >> r) & 1));
		if (hr >= CB_NR_HOLDERS)
			hr = CB_HOLD_IDLE;
		st->role[r].wait_by[hr] += cs->wait_acc[r];
		cs->wait_acc[r] = 0;
	}
}

static __always_inline int on_switch(bool preempt, struct task_struct *prev,
				     struct task_struct *next, const bool btf)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 prev_pid, next_pid;
	struct cb_cpu_state *cs;
	struct cb_sched_cpu *st;
	int prole, nrole;
	__u32 held;
	__u64 now;
	__s64 d;

	cs = state_of(cpu);
	st = stats_of(cpu);
	if (!cs || !st)
		return 0;
	now = bpf_ktime_get_ns();
	prev_pid = CB_RD(btf, prev, pid);
	next_pid = CB_RD(btf, next, pid);
	prole = prev_pid ? classify(prev, btf) : -1;

	/*
	 * Who ran instead: the part of prev's slice during which at least
	 * one subject waited on this CPU is charged to prev.
	 */
	if (cs->nr_waiting > 0 || cs->steal_pending) {
		d = cs->steal_pending;
		if (cs->nr_waiting > 0 && cs->curr_start) {
			__s64 w = now - max_u64(cs->curr_start,
						cs->waiting_since);
			if (w > 0)
				d += w;
		}
		cs->steal_pending = 0;
		if (d > 0)
			charge_stealer(st, prev, prev_pid, prole, cpu, d, btf);
	}
	if (!prev_pid && cs->curr_start) {
		d = now - cs->curr_start;
		if (d > 0)
			st->idle_ns += d;
	} else if (prole < 0 && cs->curr_start) {
		__u32 c = class_of(CB_RD(btf, prev, policy));

		d = now - cs->curr_start;
		if (d > 0 && c < CB_NR_CLASSES)
			st->class_ns[c] += d;
	}
	charge_waits(cs, st, now);
	if (prole >= 0)
		switch_out(prev, prev_pid, prole, preempt, cpu, cs, st, now,
			   btf);
	/* A quota's throttling preempts: only then is it looked for. */
	if (preempt && prole >= 0 && prole < CB_NR_SUBJECT_ROLES) {
		__u64 cfs = throttled_rq(prev, btf);

		if (cfs && cfs != cs->throttled_cfs) {
			cs->throttled_cfs = cfs;
			cs->throttled_roles = 0;
		}
		if (cfs)
			cs->throttled_roles |= 1U << prole;
	}
	/*
	 * A CPU picks idle only with nothing runnable, or with what is
	 * runnable held off by its group's quota: ours, while the group a
	 * thread of ours last left this CPU throttled in still is.  Then
	 * the waiters keep counting, held by the throttling, until a task
	 * runs here again.  Otherwise a waiter still counted here is a
	 * phantom (see waiter_drop), dropped.
	 */
	held = 0;
	if (!next_pid && cs->nr_waiting > 0) {
		if (cs->throttled_cfs && cfs_throttled(cs->throttled_cfs)) {
			held = CB_HOLD_THROTTLED;
		} else {
			cs->throttled_cfs = 0;
			cs->throttled_roles = 0;
			cs->nr_waiting = 0;
			__builtin_memset(cs->nr_wait_role, 0,
					 sizeof(cs->nr_wait_role));
			st->phantom_waiters++;
		}
	}
	nrole = next_pid ? classify(next, btf) : -1;
	if (nrole >= 0)
		switch_in(next_pid, nrole, cpu, cs, st, now);
	/*
	 * A thread of a role held off runs here from another run queue: it
	 * left the quota's group (moved back, or a new run's thread).  The
	 * old one is forgotten, so that a run queue freed with its cgroup is
	 * not read after.  Between throttled periods it is kept: the group
	 * may be throttled again while none of ours runs here.
	 */
	if (nrole >= 0 && nrole < CB_NR_SUBJECT_ROLES &&
	    ((cs->throttled_roles >> nrole) & 1) &&
	    bpf_core_field_exists(next->se.cfs_rq) &&
	    (__u64)CB_RD(btf, next, se.cfs_rq) != cs->throttled_cfs) {
		cs->throttled_cfs = 0;
		cs->throttled_roles = 0;
	}
	cs->curr_start = now;
	cs->curr_pid = next_pid;
	cs->curr_holder = held ? held : holder_of(next, next_pid, nrole, btf);
	return 0;
}

static __always_inline int on_waking(struct task_struct *p, const bool btf)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cb_task_slot *s;
	struct cb_sched_cpu *st;
	int role;

	role = classify(p, btf);
	if (role < 0)
		return 0;
	st = stats_of(cpu);
	if (!st)
		return 0;
	s = slot_of(CB_RD(btf, p, pid), role, st);
	if (s)
		s->waker_cpu = cpu + 1;
	return 0;
}

/*
 * sched_wakeup fires with the target CPU's rq lock held, on the waker's
 * CPU or (TTWU_QUEUE) on the target CPU itself, so the waker's CPU comes
 * from sched_waking and the target from task_cpu().
 */
static __always_inline int on_wakeup(struct task_struct *p, bool new,
				     const bool btf)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cb_cpu_state *tcs;
	struct cb_role_stats *rs;
	struct cb_task_slot *s;
	struct cb_sched_cpu *st;
	__u32 target, waker;
	int role;
	__u64 now;
	__s64 d;

	role = classify(p, btf);
	if (role < 0)
		return 0;
	st = stats_of(cpu);
	if (!st)
		return 0;
	s = slot_of(CB_RD(btf, p, pid), role, st);
	if (!s)
		return 0;
	if (new) {
		/* wake_up_new_task() has no sched_waking: parent's CPU. */
		__builtin_memset(s, 0, sizeof(*s));
		s->tid = CB_RD(btf, p, pid);
		s->role = role;
		s->waker_cpu = cpu + 1;
	}
	now = bpf_ktime_get_ns();
	target = cb_task_cpu(p, btf);
	waker = s->waker_cpu;
	s->waker_cpu = 0;
	rs = &st->role[role];
	rs->wakeups++;
	if (waker && waker != target + 1)
		rs->cross_cpu_wakeups++;
	if (s->blocked && s->ts_off) {
		__u8 why = s->reason < CB_NR_BLOCKS ? s->reason :
						      CB_BLOCK_OTHER;

		/* The older totals, kept for their readers, by the reason. */
		d = now - s->ts_off;
		if (d > 0 && (why == CB_BLOCK_JOBCTL || why == CB_BLOCK_PTRACE))
			rs->stopped_ns += d;
		else if (d > 0 && why == CB_BLOCK_FROZEN)
			rs->frozen_ns += d;
		else if (d > 0)
			rs->blocked_ns += d;
		if (d > 0)
			rs->blocked_by[why] += d;
	}
	s->blocked = 0;
	/*
	 * A task woken while still on its CPU (it woke itself from softirq,
	 * or was woken before it got to schedule()) waits for nothing:
	 * counting it as queued charged its own run time as run-queue wait.
	 */
	tcs = state_of(target);
	if (tcs && tcs->curr_pid == s->tid)
		return 0;
	if (!s->ts_enq)
		s->ts_enq = now;
	if (role < CB_NR_SUBJECT_ROLES && !s->queued_cpu) {
		if (tcs) {
			s->queued_cpu = target + 1;
			waiter_add(tcs, role, now);
		}
	}
	return 0;
}

/*
 * A queued waiter moved by the load balancer: the source rq lock is held
 * but not the destination's, so the waiter leaves the source count and is
 * not added to the destination (counted in waiters_migrated).
 */
static __always_inline int on_migrate(struct task_struct *p, __u32 dest,
				      const bool btf)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cb_task_slot *s;
	struct cb_sched_cpu *st;
	struct cb_cpu_state *cs;
	int role;

	role = classify(p, btf);
	if (role < 0)
		return 0;
	st = stats_of(cpu);
	if (!st)
		return 0;
	st->role[role].migrations++;
	s = slot_of(CB_RD(btf, p, pid), role, st);
	if (!s || !s->queued_cpu || s->queued_cpu == dest + 1)
		return 0;
	cs = state_of(s->queued_cpu - 1);
	if (cs)
		waiter_gone(cs, role, bpf_ktime_get_ns());
	s->queued_cpu = 0;
	st->waiters_migrated++;
	return 0;
}

static __always_inline int on_softirq(__u32 vec, bool entry)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cb_cpu_state *cs;
	struct cb_sched_cpu *st;
	__u64 now;
	__s64 d;

	cs = state_of(cpu);
	if (!cs)
		return 0;
	now = bpf_ktime_get_ns();
	if (entry) {
		cs->softirq_start = now;
		return 0;
	}
	st = stats_of(cpu);
	if (!st || !cs->softirq_start || vec >= 10)
		return 0;
	d = now - cs->softirq_start;
	cs->softirq_start = 0;
	/*
	 * The pair is attached only in windows: an entry whose exit fell
	 * outside the last window leaves a stale start.  One softirq pass
	 * is bounded by the kernel (~2 ms), so anything long is that.
	 */
	if (d > 50000000)
		return 0;
	if (d > 0) {
		st->softirq_ns[vec] += d;
		st->softirq_cnt[vec]++;
	}
	return 0;
}

/*
 * A stopping signal sent to the client's or the server's process: the
 * stop itself shows in the threads' stopped time; this says who sent it.
 * Signals are rare, so the hook costs nothing a run can see.
 */
static __always_inline int on_signal(int sig, struct task_struct *task,
				     const bool btf)
{
	struct cb_stop_signal *ss;
	__u64 now;
	__u32 tgid;

	if (sig != SIGSTOP && sig != SIGCONT &&
	    (sig < SIGTSTP || sig > SIGTTOU))
		return 0;
	tgid = CB_RD(btf, task, tgid);
	if (!tgid)
		return 0;
	if (tgid == client_tgid)
		ss = &stop_signal[CB_SIDE_CLIENT];
	else if (tgid == server_tgid || foreign_child(task, btf))
		ss = &stop_signal[CB_SIDE_SERVER];
	else
		return 0;
	now = bpf_ktime_get_ns();
	if (sig == SIGCONT) {
		if (ss->stopped_since && now > ss->stopped_since)
			ss->stopped_ns += now - ss->stopped_since;
		ss->stopped_since = 0;
		return 0;
	}
	if (!ss->stopped_since)
		ss->stopped_since = now;
	ss->count++;
	ss->ts = now;
	ss->sig = sig;
	ss->sender_pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(ss->sender_comm, sizeof(ss->sender_comm));
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	hit(CB_HOOK_SCHED_SWITCH);
	return on_switch(preempt, prev, next, true);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(btf_sched_waking, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKING);
	return on_waking(p, true);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(btf_sched_wakeup, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKEUP);
	return on_wakeup(p, false, true);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(btf_sched_wakeup_new, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKEUP_NEW);
	return on_wakeup(p, true, true);
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(btf_sched_migrate_task, struct task_struct *p, int dest_cpu)
{
	hit(CB_HOOK_SCHED_MIGRATE_TASK);
	return on_migrate(p, dest_cpu, true);
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(btf_softirq_entry, unsigned int vec)
{
	hit(CB_HOOK_SOFTIRQ_ENTRY);
	return on_softirq(vec, true);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(btf_softirq_exit, unsigned int vec)
{
	hit(CB_HOOK_SOFTIRQ_EXIT);
	return on_softirq(vec, false);
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	hit(CB_HOOK_SCHED_SWITCH);
	return on_switch(preempt, prev, next, false);
}

SEC("raw_tp/sched_waking")
int BPF_PROG(raw_sched_waking, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKING);
	return on_waking(p, false);
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_sched_wakeup, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKEUP);
	return on_wakeup(p, false, false);
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_sched_wakeup_new, struct task_struct *p)
{
	hit(CB_HOOK_SCHED_WAKEUP_NEW);
	return on_wakeup(p, true, false);
}

SEC("raw_tp/sched_migrate_task")
int BPF_PROG(raw_sched_migrate_task, struct task_struct *p, int dest_cpu)
{
	hit(CB_HOOK_SCHED_MIGRATE_TASK);
	return on_migrate(p, dest_cpu, false);
}

SEC("raw_tp/softirq_entry")
int BPF_PROG(raw_softirq_entry, unsigned int vec)
{
	hit(CB_HOOK_SOFTIRQ_ENTRY);
	return on_softirq(vec, true);
}

SEC("raw_tp/softirq_exit")
int BPF_PROG(raw_softirq_exit, unsigned int vec)
{
	hit(CB_HOOK_SOFTIRQ_EXIT);
	return on_softirq(vec, false);
}

SEC("tp_btf/signal_generate")
int BPF_PROG(btf_signal_generate, int sig, struct kernel_siginfo *info,
	     struct task_struct *task)
{
	hit(CB_HOOK_SIGNAL_GENERATE);
	return on_signal(sig, task, true);
}

SEC("raw_tp/signal_generate")
int BPF_PROG(raw_signal_generate, int sig, struct kernel_siginfo *info,
	     struct task_struct *task)
{
	hit(CB_HOOK_SIGNAL_GENERATE);
	return on_signal(sig, task, false);
}

/*
 * The open spans of every benchmark thread at a snapshot, into open_acc
 * (user space zeroes it, reads this iterator to its end, then copies
 * it).  Runs in the reader's context, once per task of the machine: a
 * few hundred microseconds per snapshot, and none on the message path.
 */
SEC("iter/task")
int open_spans(struct bpf_iter__task *ctx)
{
	struct task_struct *p = ctx->task;
	struct cb_task_slot *s;
	__u32 key, tid, reason;
	__u64 now;
	int role;

	if (!p)
		return 0;
	role = classify(p, true);
	if (role < 0 || role >= CB_NR_ROLES)
		return 0;
	tid = p->pid;
	key = tid & (CB_TASK_SLOTS - 1);
	s = bpf_map_lookup_elem(&task_slots, &key);
	now = bpf_ktime_get_ns();
	open_acc.threads[role]++;
	/* The main thread (or process) of the original serves no socket. */
	if (role == CB_ROLE_OTHER && server_foreign && tid != server_tgid &&
	    (p->tgid == server_tgid || foreign_child(p, true)))
		open_acc.foreign_unlearned++;
	if (!s || s->tid != tid)
		return 0;
	if (s->ts_on) {
		/* Running: user space adds it from the CPU's state. */
	} else if (s->ts_enq && now > s->ts_enq) {
		open_acc.runnable_ns[role] += now - s->ts_enq;
	} else if (s->blocked && s->ts_off && now > s->ts_off) {
		reason = s->reason;
		if (reason >= CB_NR_BLOCKS)
			reason = CB_BLOCK_OTHER;
		open_acc.blocked_ns[role][reason] += now - s->ts_off;
	}
	return 0;
}
