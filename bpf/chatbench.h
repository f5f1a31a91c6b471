/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one header shared by the BPF programs and user space: the layouts of
 * every map value both sides read (fixed-width types, explicit padding, no
 * pointers), the thread roles, and the log-linear histogram buckets.  The
 * bucket functions are plain inline C so that the kernel side that fills a
 * histogram and the user side that turns it into percentiles cannot
 * disagree about what a bucket means.
 */
#ifndef CHATBENCH_BPF_H
#define CHATBENCH_BPF_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/*
 * Thread names as little-endian 8-byte words: the role test is one load
 * of task->comm and one compare.  Only the first 7 bytes are compared so a
 * name like "cli_snd7" still counts.
 */
#define CB_COMM7_MASK	0x00ffffffffffffffULL
#define CB_WORD8(a, b, c, d, e, f, g, h)				\
	((__u64)(a) | (__u64)(b) << 8 | (__u64)(c) << 16 |		\
	 (__u64)(d) << 24 | (__u64)(e) << 32 | (__u64)(f) << 40 |	\
	 (__u64)(g) << 48 | (__u64)(h) << 56)

/*
 * The roles of traced threads, defined here once for the BPF programs and
 * every output: X(id, name, words, colour, comm).  The order is the enum's
 * and the order every output lists them in.  name is the thread name the
 * benchmark gives its threads (pthread_setname_np) and the key in JSON;
 * comm is its first 7 bytes as a word, 0 for roles not told by name.
 * words say it for a newcomer (the report).  colour is the role's in
 * pictures: the benchmark's own roles share one pale grey so that the
 * outsiders, drawn in saturated colours, stand out beside them.
 *
 * The first six are the benchmark's own threads (the subjects); other is
 * its main, tracer and progress threads.  ksoftirqd is traced too because
 * a starved ksoftirqd is a classic cause of throughput dips with loopback
 * TCP.
 */
#define CB_ROLES(X)							\
	X(CLI_SND, "cli_snd", "client senders", "#c9c9c9",		\
	  CB_WORD8('c', 'l', 'i', '_', 's', 'n', 'd', 0))		\
	X(CLI_RCV, "cli_rcv", "client receivers", "#c9c9c9",		\
	  CB_WORD8('c', 'l', 'i', '_', 'r', 'c', 'v', 0))		\
	X(SRV_RCV, "srv_rcv", "server receivers", "#c9c9c9",		\
	  CB_WORD8('s', 'r', 'v', '_', 'r', 'c', 'v', 0))		\
	X(SRV_SND, "srv_snd", "server senders", "#c9c9c9",		\
	  CB_WORD8('s', 'r', 'v', '_', 's', 'n', 'd', 0))		\
	/* --model epoll and pool: one per event loop */		\
	X(SRV_LOOP, "srv_loop", "server event loops", "#c9c9c9",	\
	  CB_WORD8('s', 'r', 'v', '_', 'l', 'o', 'o', 0))		\
	X(OTHER, "other", "other benchmark", "#c9c9c9", 0)		\
	X(KSOFTIRQD, "ksoftirqd", "softirq threads", "#c9c9c9", 0)

#define CB_ROLE_ENUM(id, name, words, colour, comm) CB_ROLE_##id,
enum cb_role {
	CB_ROLES(CB_ROLE_ENUM)
	CB_NR_ROLES,
};
#undef CB_ROLE_ENUM

#define CB_NR_SUBJECT_ROLES	CB_ROLE_KSOFTIRQD

/* ksoftirqd/N: all 8 bytes, since the CPU number follows. */
#define CB_COMM_KSOFTIRQ CB_WORD8('k', 's', 'o', 'f', 't', 'i', 'r', 'q')

/* The subject role a thread name stands for, CB_ROLE_OTHER for none. */
static __always_inline int cb_role_of_comm(__u64 word)
{
	word &= CB_COMM7_MASK;
#define CB_ROLE_IF(id, name, words, colour, comm)			\
	if ((comm) && word == (__u64)(comm))				\
		return CB_ROLE_##id;
	CB_ROLES(CB_ROLE_IF)
#undef CB_ROLE_IF
	return CB_ROLE_OTHER;
}

/*
 * Log-linear histogram: values below 16 have a bucket each; above, every
 * power of two is split into 16 equal sub-buckets, so a bucket is at most
 * 1/16 of its lower bound wide and a percentile read from it is within a
 * few percent.  512 buckets reach 2^35 (34 s in ns, 32 GiB in bytes);
 * larger values land in the last bucket.
 */
#define CB_HIST_SUB_BITS	4
#define CB_HIST_SUB		(1U << CB_HIST_SUB_BITS)
#define CB_HIST_BUCKETS		512

/* Index of the highest set bit; BPF has no clz, so a branch-free search. */
static __always_inline __u32 cb_log2(__u64 v)
{
	__u32 r, s;

	r = (v > 0xffffffffULL) << 5;
	v >>= r;
	s = (v > 0xffff) << 4;
	v >>= s;
	r |= s;
	s = (v > 0xff) << 3;
	v >>= s;
	r |= s;
	s = (v > 0xf) << 2;
	v >>= s;
	r |= s;
	s = (v > 0x3) << 1;
	v >>= s;
	r |= s;
	r |= (__u32)(v >> 1);
	return r;
}

static __always_inline __u32 cb_hist_bucket(__u64 v)
{
	__u32 msb, idx;

	if (v < CB_HIST_SUB)
		return (__u32)v;
	msb = cb_log2(v);
	idx = (msb - CB_HIST_SUB_BITS + 1) * CB_HIST_SUB +
	      (__u32)((v >> (msb - CB_HIST_SUB_BITS)) & (CB_HIST_SUB - 1));
	return idx < CB_HIST_BUCKETS ? idx : CB_HIST_BUCKETS - 1;
}

/* Smallest value that falls into bucket idx. */
static __always_inline __u64 cb_hist_lo(__u32 idx)
{
	__u32 group = idx / CB_HIST_SUB, sub = idx % CB_HIST_SUB;

	if (!group)
		return idx;
	return (__u64)(CB_HIST_SUB + sub) << (group - 1);
}

/* One past the largest value of bucket idx (the last bucket is open). */
static __always_inline __u64 cb_hist_hi(__u32 idx)
{
	if (idx >= CB_HIST_BUCKETS - 1)
		return ~0ULL;
	return cb_hist_lo(idx + 1);
}

/*
 * The time budget.  While a benchmark thread waits on a run queue, the
 * task on that CPU holds it: one of the roles above (CB_ROLE_*), the
 * CPU's idle task (nothing ran: the wakeup itself was late), or an
 * outsider, told apart by its scheduling class.  X(id, name).
 */
#define CB_CLASSES(X)							\
	X(FAIR, "fair")		/* SCHED_NORMAL, SCHED_BATCH */		\
	X(RT, "rt")		/* SCHED_FIFO, SCHED_RR */		\
	X(DL, "deadline")						\
	X(IDLE, "idle")		/* SCHED_IDLE */			\
	X(EXT, "ext")		/* sched_ext, 6.12+ */
#define CB_CLASS_ENUM(id, name) CB_CLASS_##id,
enum cb_sched_class { CB_CLASSES(CB_CLASS_ENUM) CB_NR_CLASSES };
#undef CB_CLASS_ENUM

#define CB_HOLD_IDLE		CB_NR_ROLES
#define CB_HOLD_CLASS(c)	(CB_NR_ROLES + 1 + (c))
/*
 * The CPU idle while our threads were runnable on it: their cpu cgroup
 * (or an ancestor) was throttled by its quota, so they could not run.
 */
#define CB_HOLD_THROTTLED	CB_HOLD_CLASS(CB_NR_CLASSES)
#define CB_NR_HOLDERS		(CB_HOLD_THROTTLED + 1)

/*
 * Why a benchmark thread was off its CPU and not runnable: from the state
 * it left the CPU in (stopped, traced, frozen, uninterruptible) and else
 * from the system call it slept in.  X(id, name, words).
 */
#define CB_BLOCKS(X)							\
	X(SOCK_RECV, "sock_recv", "socket receive")			\
	X(SOCK_SEND, "sock_send", "socket send (buffer full)")		\
	X(POLL, "poll", "event wait (epoll, poll)")			\
	X(LOCK, "lock", "locks, futexes, semaphores")			\
	X(SLEEP, "sleep", "timed sleep")				\
	X(UNINT, "uninterruptible", "uninterruptible sleep (faults, I/O)")\
	X(JOBCTL, "stopped", "job-control stop (SIGSTOP)")		\
	X(PTRACE, "ptrace", "ptrace stop (a tracer attached)")		\
	X(FROZEN, "frozen", "frozen (cgroup freezer)")			\
	X(OTHER, "other", "other sleeps")
#define CB_BLOCK_ENUM(id, name, words) CB_BLOCK_##id,
enum cb_block { CB_BLOCKS(CB_BLOCK_ENUM) CB_NR_BLOCKS };
#undef CB_BLOCK_ENUM

/*
 * System call numbers to blocking reasons, filled by user space from
 * <sys/syscall.h> before load (so each architecture gets its own
 * numbers): the value is enum cb_block + 1, 0 for "other".
 */
#define CB_NR_SYSCALLS		512

/* Per-role scheduler figures, summed over CPUs by user space. */
struct cb_role_stats {
	__u64 wakeups;
	__u64 cross_cpu_wakeups;	/* waker CPU != CPU it was queued on */
	__u64 vol_switches;
	__u64 invol_switches;
	__u64 migrations;
	__u64 oncpu_ns;
	__u64 runnable_ns;		/* on a run queue, not running */
	__u64 blocked_ns;		/* asleep until woken */
	__u64 offcpu_vol_ns;		/* switch-out to switch-in, by kind */
	__u64 offcpu_invol_ns;
	__u64 rq_lat_max_ns;		/* user space zeroes it at run begin */
	__u64 stolen_ns;		/* ran while a subject waited here */
	__u64 stopped_ns;		/* job control or ptrace stop, to wakeup */
	__u64 frozen_ns;		/* cgroup freezer, to wakeup */
	/*
	 * On-CPU time x the task's CFS weight (1024 at nice 0, 15 at 19, 3
	 * for SCHED_IDLE): its mean is the weight the role ran at, so that
	 * a renice or a policy change shows as a shift of it.
	 */
	__u64 weight_ns;
	/* The budget: blocked time by reason, summed over the threads. */
	__u64 blocked_by[CB_NR_BLOCKS];
	/*
	 * Run-queue wait by what held the CPU (CB_HOLD_*): the integral of
	 * the role's queued threads over each holder's slice, charged on
	 * the CPU they waited on.  Subject roles only.
	 */
	__u64 wait_by[CB_NR_HOLDERS];
};

/*
 * Every program counts its own runs (a per-CPU increment, a few ns), so
 * that the cost of a run's tracing can be told from the kernel's timing
 * of the programs, which is switched on only for the first interval of a
 * run: timing every run of every program costs as much again as running
 * it.  X(hook, program name without its "btf_"/"raw_" prefix).
 */
#define CB_SCHED_HOOKS(X)						\
	X(SCHED_SWITCH, "sched_switch")					\
	X(SCHED_WAKING, "sched_waking")					\
	X(SCHED_WAKEUP, "sched_wakeup")					\
	X(SCHED_WAKEUP_NEW, "sched_wakeup_new")				\
	X(SCHED_MIGRATE_TASK, "sched_migrate_task")			\
	X(SOFTIRQ_ENTRY, "softirq_entry")				\
	X(SOFTIRQ_EXIT, "softirq_exit")					\
	X(SIGNAL_GENERATE, "signal_generate")
#define CB_SOCK_HOOKS(X)						\
	X(SK_DATA_READY, "sk_data_ready")				\
	X(SOCK_EXCEED_BUF_LIMIT, "sock_exceed_buf_limit")		\
	X(SOCK_RCVQUEUE_FULL, "sock_rcvqueue_full")			\
	X(SAMPLE_SEND_QUEUES, "sample_send_queues")			\
	X(SOCK_RECV_LENGTH, "sock_recv_length")				\
	X(SOCK_SEND_LENGTH, "sock_send_length")

#define CB_HOOK_ENUM(id, name) CB_HOOK_##id,
enum cb_sched_hook { CB_SCHED_HOOKS(CB_HOOK_ENUM) CB_NR_SCHED_HOOKS };
enum cb_sock_hook { CB_SOCK_HOOKS(CB_HOOK_ENUM) CB_NR_SOCK_HOOKS };
#undef CB_HOOK_ENUM

/*
 * All scheduler counters of one CPU: one element of an mmapable array
 * indexed by CPU id, written only by programs running on that CPU, so user
 * space can snapshot with a memcpy and no syscall.  Histogram counts are
 * 32 bits; user space takes wrap-safe deltas.
 */
struct cb_sched_cpu {
	struct cb_role_stats role[CB_NR_ROLES];
	__u64 idle_ns;
	__u64 stolen_idle_ns;		/* subject waited while idle ran */
	__u64 stolen_outsider_ns;	/* ... while a non-benchmark task ran */
	__u64 softirq_ns[10];		/* NR_SOFTIRQS, by vector */
	__u64 softirq_cnt[10];
	__u64 stealer_map_full;		/* outsider not recorded: map full */
	__u64 slot_evictions;		/* two live tids shared a task slot */
	__u64 queue_mismatch;		/* left a queue unseen: corrected */
	__u64 waiters_migrated;		/* waiter moved: stops counting */
	__u64 phantom_waiters;		/* counted waiting on a CPU gone idle */
	__u64 hits[CB_NR_SCHED_HOOKS];	/* program runs, every task's */
	__u64 class_ns[CB_NR_CLASSES];	/* outsiders on this CPU, by class */
	__u32 rq_lat_hist[CB_NR_ROLES][CB_HIST_BUCKETS];
};

enum cb_sock_side {
	CB_SIDE_CLIENT,		/* remote port == server port */
	CB_SIDE_SERVER,		/* local port == server port */
	CB_NR_SIDES,
};

struct cb_sock_side_stats {
	__u64 data_ready;	/* sampled sk_data_ready events */
	__u64 rq_bytes_max;	/* user space zeroes the maxima at begin */
	__u64 rcvbuf_max;
	__u64 sends;		/* send-queue samples (one per socket per snapshot) */
	__u64 wmem_sum;
	__u64 wmem_max;
	__u64 sndbuf_max;
	__u64 sndbuf_full;	/* sk_wmem_queued >= sk_sndbuf at send */
	__u64 exceed_buf_limit;	/* not sampled: rare and important */
	__u64 rcvqueue_full;
	__u64 __pad[6];
};

/* Socket counters of one CPU, same access pattern as cb_sched_cpu. */
struct cb_sock_cpu {
	__u64 ready_seen;	/* all matching events, drive sampling */
	__u64 hits[CB_NR_SOCK_HOOKS];	/* program runs, every socket's */
	__u64 __pad[1];
	struct cb_sock_side_stats side[CB_NR_SIDES];
	__u32 rq_hist[CB_NR_SIDES][CB_HIST_BUCKETS];
};

/*
 * Run-queue bookkeeping of one CPU (BPF .bss, read-only for user space).
 * Every writer holds that CPU's rq lock (sched_switch runs on it,
 * sched_wakeup holds the target's lock, sched_migrate_task the source's),
 * so plain arithmetic is safe without fetch atomics, which the default
 * BPF CPU version (v1) lacks.
 */
struct cb_cpu_state {
	__u64 curr_start;	/* when the running task switched in */
	__u64 waiting_since;	/* when nr_waiting went from 0 to 1 */
	__u64 steal_pending;	/* overlap closed outside a switch */
	__u64 softirq_start;
	__u32 curr_pid;
	__s32 nr_waiting;	/* subject threads runnable, not running */
	/*
	 * The waits by holder: queued threads per subject role, and the
	 * integral of those counts since the current task switched in,
	 * brought up to wait_last; charged to curr_holder (CB_HOLD_*) at
	 * the next switch.  User space adds the open part at a snapshot.
	 */
	__s32 nr_wait_role[CB_NR_SUBJECT_ROLES];
	__u32 curr_holder;
	/*
	 * The roles (1 << CB_ROLE_*) seen leaving this CPU throttled by
	 * their group's quota, in throttled_cfs: while it stays throttled,
	 * their waits are the quota's whoever runs, and the CPU idling with
	 * waiters counted is its doing, not a phantom's.
	 */
	__u32 throttled_roles;
	__u64 wait_last;
	__u64 wait_acc[CB_NR_SUBJECT_ROLES];
	__u64 throttled_cfs;	/* struct cfs_rq *, 0: none seen */
	__u64 __pad[2];
};

/*
 * Time still open at a snapshot, which the counters only get when it
 * closes (at the next switch or wakeup): a task iterator adds up, for
 * every benchmark thread, how long it has been queued or blocked (by
 * reason) until now; the running ones user space reads off cb_cpu_state.
 * A run's figure is then the difference of (closed + open) between two
 * snapshots, exact however long a span.
 */
struct cb_open {
	__u64 runnable_ns[CB_NR_ROLES];
	__u64 blocked_ns[CB_NR_ROLES][CB_NR_BLOCKS];
	__u64 threads[CB_NR_ROLES];	/* alive at the snapshot */
	/*
	 * A foreign server's tasks not yet classed by what they do, its
	 * main thread aside: while there are some, the learners stay
	 * attached (src/tracer/trace.c).
	 */
	__u64 foreign_unlearned;
	/*
	 * Not the iterator's, and never zeroed: the threads of a foreign
	 * server classed so far by what they did (sock.bpf.c), net of
	 * re-classings.  They are "other" until their first whole send or
	 * receive, so at a run's begin they count as other; the run's
	 * difference moves them to their role.
	 */
	__s64 learned[CB_NR_ROLES];
};

/*
 * Who holds the benchmark's threads in ptrace stops: the tracer (the
 * traced task's parent while traced), per process (CB_SIDE_*), as last
 * seen.
 */
struct cb_tracer {
	__u64 stops;		/* switch-outs in a ptrace stop */
	__u32 pid;		/* tracer's process (tgid) */
	__u32 __pad;
	char comm[16];
};

/*
 * Per-thread state in a direct-mapped array indexed by tid: an inlined
 * array lookup instead of a hash, and no clean-up when threads exit (the
 * TASK_DEAD switch clears the slot).  CPU numbers are stored plus one so
 * that a zeroed slot means "none".
 */
#define CB_TASK_SLOTS	65536
struct cb_task_slot {
	__u64 ts_enq;		/* became runnable: woken or preempted */
	__u64 ts_on;		/* switched in */
	__u64 ts_off;		/* switched out */
	__u32 tid;
	__u32 waker_cpu;	/* cpu + 1 at sched_waking */
	__u32 queued_cpu;	/* cpu + 1 whose nr_waiting counts us */
	__u8 role;
	__u8 invol;		/* last switch-out was involuntary */
	__u8 blocked;		/* asleep since ts_off, not yet woken */
	__u8 reason;		/* enum cb_block, while blocked */
	__u8 __pad[8];
};

/*
 * The last stopping signal (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) sent to
 * the client's or the server's process, who sent it, and how long the
 * process stayed stopped (until SIGCONT), so that a stop can be named
 * with its length and its sender.  Indexed by CB_SIDE_CLIENT (chat_c) and
 * CB_SIDE_SERVER.
 */
struct cb_stop_signal {
	__u64 count;		/* stopping signals sent in all */
	__u64 ts;		/* the last one, CLOCK_MONOTONIC */
	__u64 stopped_ns;	/* stop to SIGCONT, summed */
	__u64 stopped_since;	/* stopped now, since then; 0: not */
	__u32 sender_pid;	/* process (tgid) that sent it, 0: kernel */
	__u32 sig;
	char sender_comm[16];
};

/* Outsiders that held a CPU while a subject waited: hash keyed by pid. */
#define CB_MAX_STEALERS	1024
struct cb_stealer {
	char comm[16];
	__u64 ns;
	__u64 cpu_mask;		/* bit 63 also stands for CPUs >= 63 */
	__u64 slices;
	__u32 sclass;		/* enum cb_sched_class, as last seen */
	__u32 policy;		/* SCHED_*, as last seen */
};

#define CB_MAX_CPUS	1024

/* Benchmark sockets whose send queues are sampled (both ends). */
#define CB_MAX_SOCKS	65536

/*
 * A foreign server (one that does not name its threads by role, such as
 * the original 1.0.1) has its threads classed by what they do: the
 * threads remembered, and the size above which a send or receive is data.
 * The control connection carries at most 16 bytes at a time (an 8-byte
 * start message, 8 more when extended, single bytes after); data units
 * are 100 bytes, and a receiver's partial read of one is still longer than
 * that as a rule.
 */
#define CB_MAX_FOREIGN_THREADS	4096
#define CB_CTL_MAX_BYTES	16

/*
 * --profile: on-CPU samples (a perf_event program on the software CPU
 * clock) and off-CPU time (from sched_switch to the next switch-in) by
 * stack, summed in the kernel under one key per (process, role or
 * outsider's name, kind, user stack, kernel stack).  The value is a
 * sample count for CB_PROF_ONCPU and nanoseconds for the other kinds:
 * blocked runs from the switch-out to the wakeup, runqueue from the
 * wakeup (or an involuntary switch-out) to the switch-in.
 */
#define CB_PROF_OUTSIDER	CB_NR_ROLES	/* role of a non-benchmark task */
enum cb_prof_kind {
	CB_PROF_ONCPU,
	CB_PROF_RUNQ,
	CB_PROF_BLOCKED,
	CB_NR_PROF_KINDS,
};
#define CB_PROF_MAX_KEYS	16384
#define CB_PROF_MAX_STACKS	16384
#define CB_PROF_STACK_DEPTH	127	/* the kernel's perf_event_max_stack */

struct cb_prof_key {
	__u32 tgid;
	__s32 ustack;		/* stack map ids; < 0: none */
	__s32 kstack;
	__u8 role;		/* CB_ROLE_*, or CB_PROF_OUTSIDER */
	__u8 kind;		/* enum cb_prof_kind */
	__u8 __pad[2];
	char comm[16];		/* outsiders' only: zeros for our threads */
};

/* What the profiler could not keep, one CPU's (per-CPU array, 1 entry). */
struct cb_prof_lost {
	__u64 samples;		/* perf_event runs, every task's */
	__u64 idle;		/* samples of the idle task */
	__u64 keys_full;	/* a new key found the map full */
	__u64 stack_errors;	/* bpf_get_stackid failed (not -EFAULT) */
	__u64 tl_dropped;	/* timeline events the ring buffer refused */
	__u64 __pad[3];
};

/*
 * --timeline: one scheduler event that involves a benchmark thread, sent
 * through a ring buffer; user space keeps those of the run's slowest
 * second.  Roles are CB_ROLE_* or CB_PROF_OUTSIDER; comm is that of the
 * task that is not ours (switch: next or prev; wakeup: the waker).
 */
enum cb_tl_type { CB_TL_SWITCH, CB_TL_WAKEUP, CB_TL_MIGRATE };
enum cb_tl_state { CB_TL_PREEMPTED, CB_TL_BLOCKED, CB_TL_STOPPED };
struct cb_tl_event {
	__u64 ts;		/* CLOCK_MONOTONIC ns */
	__u32 pid;		/* switch: prev; wakeup: woken; migrate: task */
	__u32 tgid;		/* of pid */
	__u32 other;		/* switch: next; wakeup: waker (0: irq) */
	__u32 other_tgid;	/* migrate: destination CPU */
	__u32 cpu;		/* switch: this; wakeup: target; migrate: orig */
	__u8 type;		/* enum cb_tl_type */
	__u8 state;		/* switch: enum cb_tl_state of prev */
	__u8 role;		/* of pid */
	__u8 other_role;	/* of other */
	char comm[16];		/* of pid or other, whichever is not ours */
};

#endif
