/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time budget of a run or an interval: every second of every
 * benchmark thread and of every CPU, in lines that add up to the whole.
 *
 * Threads, per role: threads x wall = on CPU + waiting to run + blocked
 * + gone.  Waiting to run is split by what held the CPU meanwhile (a
 * benchmark role, an outsider by scheduling class, their cgroup's quota
 * throttling, or nothing: an idle CPU, the wakeup's own latency); blocked
 * by why (enum cb_block); gone is
 * what is left: threads that ended before the interval did (a sender
 * done with its messages), and the tracer's error.
 *
 * CPUs: possible CPUs x wall = benchmark + ksoftirqd + outsiders by class
 * + softirq + interrupts + steal + idle + offline + unaccounted.  The
 * kernel's softirq, interrupt and steal time (/proc/stat) is spent inside
 * the slices of whatever task was current, so it is taken out of
 * ksoftirqd's slices first and then out of the others' in proportion.
 * A record type only: src/tracer/kbudget.c fills it from snapshots.
 */
#ifndef CHATBENCH_BUDGET_H
#define CHATBENCH_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "chatbench.h"

/*
 * Waiting to run, by what held the CPU: the CB_HOLD_* of the task that
 * ran (a role, an idle CPU, an outsider's class), then the kernel's own
 * work inside those slices (its tick accounting, split out of each
 * holder's waits on that CPU in the proportion it took of the holder's
 * slices there): softirq, interrupts, the hypervisor's steal.
 */
#define KB_HOLD_SOFTIRQ	CB_NR_HOLDERS
#define KB_HOLD_IRQ	(CB_NR_HOLDERS + 1)
#define KB_HOLD_STEAL	(CB_NR_HOLDERS + 2)
#define KB_NR_HOLDERS	(CB_NR_HOLDERS + 3)

struct kb_threads {
	uint64_t threads;	/* alive at the start */
	uint64_t total_ns;	/* threads x wall */
	uint64_t oncpu_ns;
	uint64_t wait_ns;	/* on a run queue, however held */
	uint64_t wait_by[KB_NR_HOLDERS];	/* of wait_ns, by holder */
	uint64_t wait_unknown_ns;	/* wait_ns less wait_by */
	uint64_t blocked_ns;
	uint64_t blocked_by[CB_NR_BLOCKS];
	int64_t gone_ns;	/* total less the rest: ended, or error */
};

/* The CPU lines, X(id, name, words), in the order outputs list them. */
#define KB_CPU_LINES(X)							\
	X(BENCH, "benchmark", "benchmark threads")			\
	X(KSOFTIRQD, "ksoftirqd", "softirq threads")			\
	X(FAIR, "outsider_fair", "outsiders (fair)")			\
	X(RT, "outsider_rt", "outsiders (real-time)")			\
	X(DL, "outsider_deadline", "outsiders (deadline)")		\
	X(IDLECLS, "outsider_idle", "outsiders (SCHED_IDLE)")		\
	X(EXT, "outsider_ext", "outsiders (sched_ext)")			\
	X(SOFTIRQ, "softirq", "softirq")				\
	X(IRQ, "irq", "interrupts")					\
	X(STEAL, "steal", "hypervisor steal")				\
	X(IDLE, "idle", "idle")						\
	X(OFFLINE, "offline", "offline (hotplug)")			\
	X(UNACCOUNTED, "unaccounted", "unaccounted")
#define KB_CPU_ENUM(id, name, words) KB_CPU_##id,
enum kb_cpu_line { KB_CPU_LINES(KB_CPU_ENUM) KB_NR_CPU_LINES };
#undef KB_CPU_ENUM

/* The outsider line of a scheduling class (enum cb_sched_class). */
#define KB_CPU_CLASS(c)	(KB_CPU_FAIR + (c))

struct kb_cpus {
	uint64_t ncpus;		/* possible CPUs */
	uint64_t supply_ns;	/* ncpus x wall */
	int64_t line[KB_NR_CPU_LINES];
	uint64_t offline_cpus;	/* mask of CPUs offline at either edge */
};

struct ks_budget {
	bool valid;
	uint64_t wall_ns;
	struct kb_threads role[CB_NR_ROLES];
	struct kb_threads subjects;	/* the benchmark's own roles summed */
	struct kb_cpus cpus;
};

/* Names of the lines, for outputs and the loader. */
extern const char *const kb_cpu_names[KB_NR_CPU_LINES];
extern const char *const kb_cpu_words[KB_NR_CPU_LINES];
extern const char *const kb_block_names[CB_NR_BLOCKS];
extern const char *const kb_block_words[CB_NR_BLOCKS];
extern const char *const kb_class_names[CB_NR_CLASSES];
/* A holder's name: a role's, "idle_cpu", or "outsider_<class>". */
const char *kb_holder_name(int holder);

#endif
