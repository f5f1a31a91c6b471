/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot: everything the tracer copies out of the kernel at one
 * instant (tracer/snapshot.c takes it).  Two of them make the figures of
 * a run or an interval (tracer/kstats.c) and its time budget
 * (tracer/kbudget.c).  A record type only, public so that the arithmetic
 * can be unit-tested without BPF.
 */
#ifndef CHATBENCH_SNAP_RECORD_H
#define CHATBENCH_SNAP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "chatbench.h"
#include "tracer/kstats_record.h"
#include "tracer/sysstat.h"

/*
 * One benchmark process's CPU controller (cgroup v1 "cpu" or v2) and its
 * stopping signals, read at one instant.  The raw counters are the
 * group's own; the acc_ totals run from the first snapshot on and carry
 * on across a move to another group, so that a process moved into a
 * quota between two runs is measured from the first snapshot after.
 */
struct ks_proc_snap {
	bool cg_valid;		/* a CPU controller was found */
	bool cg_v2;
	char cgroup[160];	/* the group, as /proc/PID/cgroup names it */
	int64_t quota_us;	/* CPU time per period; -1: no quota */
	uint64_t period_us;
	uint64_t nr_periods, nr_throttled, throttled_ns, psi_some_us;
	/*
	 * The group's weight against its siblings, on cgroup v2's scale
	 * (100 by default; v1's cpu.shares x 100 / 1024), 0: unknown; and
	 * the process's autogroup nice, when autogroups are on.
	 */
	uint64_t cpu_weight;
	bool ag_valid;
	int ag_nice;
	uint64_t acc_periods, acc_throttled, acc_throttled_ns, acc_psi_us;
	struct cb_stop_signal stop;	/* from the BPF side */
	uint64_t acc_stopped_ns;	/* stopped so far, this one included */
	uint64_t majflt;		/* major page faults so far */
};

/* Outsider entry of a snapshot (the BPF stealers hash). */
struct ks_snap_stealer {
	uint32_t pid;
	struct cb_stealer v;
};

/* Everything the tracer copies out of the kernel at one instant. */
struct ks_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	uint64_t messages;
	int ncpus;
	struct cb_sched_cpu *sched;	/* ncpus entries */
	struct cb_sock_cpu *sock;	/* ncpus entries */
	struct ks_snap_stealer *stealers;
	size_t nr_stealers;
	struct ks_prog prog[KS_MAX_PROGS];
	uint64_t recursion_misses[KS_MAX_PROGS];
	int nr_progs;
	pid_t pid[CB_NR_SIDES];
	struct ks_proc_snap proc[CB_NR_SIDES];
	struct ks_sys_snap sys;
	/* With softirq_ticks, the kernel's softirq figures (ncpus). */
	bool softirq_ticks;
	struct sys_softirq *softirq;
	/* The budget's: open spans, and /proc/stat per CPU (ncpus). */
	bool open_valid;
	struct cb_open open;
	struct cb_tracer tracer[CB_NR_SIDES];
	struct sys_cpustat *cpustat;
};

#endif
