/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's usual suspects besides CPU thieves, read from counters
 * the kernel keeps anyway, at each snapshot: TCP retransmissions and
 * retransmission timeouts (/proc/net/snmp, /proc/net/netstat, this
 * network namespace), memory pressure (PSI /proc/pressure/memory, direct
 * reclaim stalls in /proc/vmstat), and the CPUs' clock (cpufreq, where a
 * machine exposes it).  Each is rare on a healthy run and costs a file
 * read per interval: no hook on any path the messages take.
 */
#ifndef CHATBENCH_SYSSTAT_H
#define CHATBENCH_SYSSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ks_sys_snap {
	uint64_t retrans_segs;		/* Tcp RetransSegs */
	uint64_t rto_timeouts;		/* TcpExt TCPTimeouts */
	uint64_t psi_mem_some_us;	/* memory "some" total */
	uint64_t allocstall;		/* direct reclaim, all zones */
	uint64_t freq_khz;		/* mean current clock, 0: unknown */
};

void sys_read(struct ks_sys_snap *s);

/*
 * Softirq work per CPU from the kernel's own accounting, for runs that do
 * not attach the softirq tracepoints (the default: at about one softirq
 * per loopback send, the entry/exit pair was half of the tracer's cost).
 * Counts per vector come from /proc/softirqs and are exact; the time from
 * /proc/stat, which a kernel without CONFIG_IRQ_TIME_ACCOUNTING samples at
 * each tick, in USER_HZ units: good to a few per cent of a run, not split
 * by vector.
 */
#define SYS_NR_SOFTIRQS		10

struct sys_softirq {
	uint64_t ns;			/* all vectors */
	uint64_t cnt[SYS_NR_SOFTIRQS];
};

/* Fill cpu[0..ncpus); 0, or -1 when the files cannot be read. */
int sys_read_softirqs(struct sys_softirq *cpu, int ncpus);
/*
 * Per CPU from /proc/stat, at every snapshot, for the CPU budget: time in
 * interrupts, softirq and hypervisor steal (tick-sampled, USER_HZ), and
 * whether the CPU is online (/proc/stat lists online CPUs only).
 */
struct sys_cpustat {
	uint64_t irq_ns;
	uint64_t softirq_ns;
	uint64_t steal_ns;
	bool online;
};

/* Fill cpu[0..ncpus); 0, or -1 when /proc/stat cannot be read. */
int sys_read_cpustat(struct sys_cpustat *cpu, int ncpus);
/* Major page faults of process pid so far, 0 when it is gone. */
uint64_t proc_majflt(pid_t pid);

#endif
