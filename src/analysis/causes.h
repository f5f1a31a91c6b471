/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vocabulary of the verdict: every kind of cause a slow run or a dip
 * can be blamed on, with its name (JSON and text), its words for a
 * newcomer (the report), what it means and the evidence it needs, in one
 * table that every output and the README share.  A cause is named only
 * when its evidence is there and points the right way; "no kernel-side
 * cause stands out" is a valid verdict, a guess is not.
 */
#ifndef CHATBENCH_CAUSES_H
#define CHATBENCH_CAUSES_H

/* X(id, name, words, meaning, evidence) */
#define CAUSES(X)							\
	X(OUTSIDER_CPU, "outsider_cpu", "another task took the CPUs",	\
	  "a process outside the benchmark ran while its threads waited",\
	  "outsiders' CPU time far above the other runs'")		\
	X(SCHED_CONTENTION, "sched_contention",				\
	  "benchmark threads queued behind each other",			\
	  "the benchmark's threads waited for CPUs held by each other",	\
	  "involuntary switches per message or run-queue latency far "	\
	  "above the other runs' with no outsider to explain it, or "	\
	  "threads queued on some CPUs while another idled")		\
	X(CPU_IDLE, "cpu_idle", "CPUs sat idle",			\
	  "CPUs idled while the benchmark had work, for no reason seen",	\
	  "idle time far above the other runs'")			\
	X(SOFTIRQ, "softirq", "network softirq work grew",		\
	  "the kernel's network receive work took more of the CPUs",	\
	  "softirq time, or ksoftirqd's run-queue latency, far above "	\
	  "the other runs'")						\
	X(SOCKET_BACKPRESSURE, "socket_backpressure",			\
	  "socket buffers filled up",					\
	  "senders blocked on full socket buffers",			\
	  "send queues found at their limit, memory pressure "	\
	  "events, or small receive buffers at their limit")		\
	X(BENCHMARK_WORK, "benchmark_work", "more CPU per message",	\
	  "the benchmark's threads needed more CPU per message",	\
	  "never named alone: without other evidence it is a guess")	\
	X(STEAL, "hypervisor_steal", "the hypervisor took CPU time",	\
	  "the host ran something else on this VM's CPUs",		\
	  "steal time far above the other runs'")			\
	X(CPU_QUOTA, "cpu_quota", "a CPU quota throttled the benchmark",	\
	  "the cgroup of chat_c or chat_s used up its CPU quota and sat "\
	  "throttled",							\
	  "throttled time (cgroup cpu.stat) far above the other runs'")	\
	X(STOPPED, "stopped", "the benchmark was stopped",		\
	  "chat_c or chat_s was stopped by job control (SIGSTOP and kin)",\
	  "stopped time far above the other runs', with the stopping "	\
	  "signal's sender when the kernel says")		\
	X(TCP_RETRANS, "tcp_retransmits", "TCP retransmitted",		\
	  "segments were lost and sent again, or a retransmission "	\
	  "timer fired",						\
	  "retransmitted segments or timeouts (/proc/net/snmp, netstat) "\
	  "far above the other runs'")					\
	X(MEMORY_PRESSURE, "memory_pressure", "memory ran short",	\
	  "tasks stalled on memory: reclaim, major page faults",	\
	  "PSI memory stall time, major faults of chat_c and chat_s, or "\
	  "direct reclaim stalls far above the other runs'")		\
	X(CPU_FREQ, "cpu_frequency", "the CPUs ran at a lower clock",	\
	  "the CPUs' clock was lower than in the other runs",		\
	  "mean CPU clock (cpufreq) 10 % or more below the other runs'")	\
	X(CPU_OFFLINE, "cpu_offline", "a CPU went offline",		\
	  "a CPU was hot-unplugged: its time was supply lost",		\
	  "CPU time offline (the CPUs /proc/stat lists at each "		\
	  "interval's edges) in the time budget")			\
	X(PTRACE, "ptrace_stop", "a tracer stopped the threads",	\
	  "a ptrace tracer (strace, gdb) held the benchmark's threads "	\
	  "in ptrace stops",						\
	  "threads' time in ptrace stops far above the other runs', "	\
	  "with the tracer's pid")					\
	X(FROZEN, "frozen", "the cgroup freezer froze the threads",	\
	  "the benchmark's threads were frozen by the cgroup freezer",	\
	  "threads' time frozen (v1 or v2 freezer) far above the "	\
	  "other runs'")						\
	X(UNINTERRUPTIBLE, "uninterruptible", "threads slept in D state",\
	  "the benchmark's threads slept uninterruptibly: page faults, "\
	  "I/O or a kernel lock",					\
	  "threads' time in uninterruptible sleep far above the other "	\
	  "runs'")							\
	X(WEIGHT, "sched_weight", "the benchmark ran at another weight",	\
	  "threads of the benchmark ran at another nice value (a lower or "\
	  "higher scheduling weight) than in the other runs: a renice, "	\
	  "or a setting of the run",					\
	  "a role's mean nice on CPU 3 or more away from the other "	\
	  "runs'")

#define CAUSE_ENUM(id, name, words, meaning, evidence) CAUSE_##id,
enum cause_kind {
	CAUSES(CAUSE_ENUM)
	CAUSE_NR,
};
#undef CAUSE_ENUM

struct cause_info {
	const char *name;
	const char *words;
	const char *meaning;
	const char *evidence;
};

extern const struct cause_info cause_table[CAUSE_NR];

/* The kind named name, or -1. */
int cause_by_name(const char *name);

/*
 * The host a cause or a dip was seen on: the client's (the run's own
 * kernel record, which covers the server too when both share a host) or
 * the server's, traced by chat_s on another machine.
 */
enum diag_host {
	DIAG_HOST_CLIENT,
	DIAG_HOST_SERVER,
};

/* "client" or "server": the JSON's word for h. */
const char *diag_host_name(enum diag_host h);

#endif
