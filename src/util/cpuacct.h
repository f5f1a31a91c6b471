/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU time of the two benchmark processes, so that a report can show that
 * the benchmark measures the kernel: system time is the kernel's work,
 * user time the part chatbench owns and must keep small.
 */
#ifndef CHATBENCH_CPUACCT_H
#define CHATBENCH_CPUACCT_H

#include <stdbool.h>
#include <sys/types.h>

struct cpu_times {
	double user_s;
	double sys_s;
	bool valid;
};

/* This process, from getrusage (all threads, joined ones included). */
void cpu_times_self(struct cpu_times *t);
/* Another process (all its threads, live and exited), from /proc. */
void cpu_times_pid(pid_t pid, struct cpu_times *t);
/*
 * Hypervisor steal time of all CPUs so far, in seconds (/proc/stat): on a
 * VM, time the host gave to someone else while the guest thought it ran.
 */
double cpu_steal_s(void);
/* b - a into d; invalid if either is. */
void cpu_times_delta(const struct cpu_times *a, const struct cpu_times *b,
		     struct cpu_times *d);

#endif
