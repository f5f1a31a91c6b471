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
/* Major page faults of process pid so far, 0 when it is gone. */
uint64_t proc_majflt(pid_t pid);

#endif
