/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel record of one run (struct kstats): what the tracer measured
 * between the run's two edges and at every interval, as figures that no
 * longer need the tracer to be read.  A record type only: the tracer
 * fills it (tracer/kstats.c), the loader reads it back from JSON
 * (results/kstats_load.c), and the analysis and the outputs read it
 * through this header without the tracer's functions.
 */
#ifndef CHATBENCH_KSTATS_RECORD_H
#define CHATBENCH_KSTATS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "chatbench.h"
#include "tracer/budget.h"
#include "tracer/profile_data.h"

#define KS_NR_ROLES		CB_NR_ROLES
#define KS_NR_SOFTIRQS		10
#define KS_TOP_STEALERS		10
#define KS_MAX_PROGS		16

/* A histogram over one run, with the percentiles read from it. */
struct ks_hist {
	uint64_t count;
	uint64_t p50, p90, p99, max;	/* same unit as the values */
	uint64_t buckets[CB_HIST_BUCKETS];
};

struct ks_role {
	uint64_t wakeups;
	uint64_t cross_cpu_wakeups;
	uint64_t vol_switches;
	uint64_t invol_switches;
	uint64_t migrations;
	uint64_t oncpu_ns;
	uint64_t runnable_ns;
	uint64_t blocked_ns;
	uint64_t stopped_ns;	/* summed over the role's threads */
	uint64_t frozen_ns;
	/*
	 * On-CPU time x CFS weight: weight_ns / oncpu_ns is the weight the
	 * role ran at (1024: nice 0), on average over its time on CPU; 0:
	 * not known (a record older than the field).
	 */
	uint64_t weight_ns;
	uint64_t offcpu_vol_ns;
	uint64_t offcpu_invol_ns;
	uint64_t stolen_ns;	/* this role ran while a subject waited */
	struct ks_hist rq_lat;	/* wakeup or preemption to on-CPU, ns */
};

struct ks_cpu {
	uint64_t idle_ns;
	uint64_t softirq_all_ns;	/* every vector; see softirq_ticks */
	uint64_t softirq_ns[KS_NR_SOFTIRQS];	/* 0 with softirq_ticks */
	uint64_t softirq_cnt[KS_NR_SOFTIRQS];
	uint64_t stolen_ns;	/* subject waited here while others ran */
};

/* A task (or, for benchmark threads, a role) that ran while subjects waited. */
struct ks_stealer {
	char comm[16];
	pid_t pid;		/* 0 for idle and for benchmark roles */
	uint64_t ns;
	uint64_t cpu_mask;
	bool is_benchmark;
	int role;		/* enum cb_role when is_benchmark, else -1 */
	int sclass;		/* outsiders: enum cb_sched_class, else -1 */
	int policy;		/* outsiders: SCHED_*, else -1 */
};

struct ks_sock_side {
	uint64_t data_ready;	/* sampled */
	struct ks_hist rq_bytes;
	uint64_t rcvbuf_max;
	uint64_t sends;		/* send-queue samples */
	uint64_t wmem_avg;
	uint64_t wmem_max;
	uint64_t sndbuf_max;
	uint64_t sndbuf_full;	/* samples that found the queue full */
	uint64_t exceed_buf_limit;
	uint64_t rcvqueue_full;
};

struct ks_missed {
	uint64_t stealer_map_full;
	uint64_t slot_evictions;
	uint64_t queue_mismatch;	/* corrected, not a loss */
	uint64_t recursion_misses;	/* prog runs skipped by the kernel */
	uint64_t lost_events;		/* no event stream: always 0 */
	uint64_t waiters_migrated;	/* informational, not a loss */
	uint64_t phantom_waiters;	/* corrected, not a loss */
};

/* What happened to a benchmark process as a whole during the run. */
struct ks_proc {
	pid_t pid;		/* 0: unknown (the server of another host) */
	bool cg_valid;
	bool cg_v2;
	char cgroup[160];
	int64_t quota_us;	/* -1: none */
	uint64_t period_us;
	uint64_t periods;	/* quota periods that elapsed */
	uint64_t throttled_periods;
	uint64_t throttled_ns;	/* time throttled, summed over periods */
	uint64_t psi_some_us;	/* cgroup v2 cpu.pressure "some" */
	/*
	 * At the run's end: the cpu cgroup's weight on v2's scale (100 by
	 * default; v1's cpu.shares x 100 / 1024), 0: unknown; the autogroup
	 * nice (ag_valid: autogroups on and it was read).
	 */
	uint64_t cpu_weight;
	bool ag_valid;
	int ag_nice;
	uint64_t stop_signals;	/* SIGSTOP and kin sent during the run */
	uint64_t stopped_ns;	/* stopped (signal to SIGCONT) in the run */
	int stop_sig;
	pid_t stop_sender;	/* who sent the last one; 0: the kernel */
	char stop_sender_comm[16];
	uint64_t majflt;	/* major page faults */
};

/* The machine's usual suspects over the run (tracer/sysstat.h). */
struct ks_sys {
	uint64_t retrans_segs;		/* this network namespace's TCP */
	uint64_t rto_timeouts;
	uint64_t psi_mem_some_us;	/* some task stalled on memory */
	uint64_t allocstall;		/* direct reclaim stalls */
	uint64_t freq_khz;		/* mean CPU clock at the end, 0: ? */
};

struct ks_prog {
	char name[32];
	uint64_t run_time_ns;	/* the kernel's timing, or its estimate */
	uint64_t run_cnt;
	uint64_t hits;		/* runs the program counted itself */
};

struct ks_interval {
	uint64_t start_ns;	/* offset from the run's start */
	uint64_t duration_ns;
	uint64_t messages;
	double throughput;	/* messages per second */
	uint64_t wakeups;	/* subject roles */
	uint64_t invol_switches;
	uint64_t rq_p99_ns;
	uint64_t idle_ns;
	uint64_t softirq_ns;
	uint64_t throttled_ns;	/* both processes' quota throttling */
	uint64_t stopped_ns;	/* the processes stopped (signal to SIGCONT) */
	uint64_t retrans_segs;
	uint64_t psi_mem_some_us;
	struct ks_stealer top;	/* top.ns == 0: none */
	struct ks_budget budget;
	uint32_t rq_buckets[CB_HIST_BUCKETS];	/* subject roles together */
};

struct kstats {
	const char *mode;	/* "tp_btf" or "raw_tp" */
	int ncpus;
	uint64_t wall_ns;
	uint64_t messages;
	struct ks_role role[KS_NR_ROLES];
	struct ks_cpu *cpu;			/* ncpus entries */
	struct ks_stealer stealer[KS_TOP_STEALERS];
	int nr_stealers;
	uint64_t stolen_total_ns;
	struct ks_sock_side sock[CB_NR_SIDES];
	struct ks_proc proc[CB_NR_SIDES];	/* chat_c, chat_s */
	struct ks_sys sys;
	unsigned int sock_sample_rate;		/* one event in N */
	/*
	 * Softirq time from the kernel's tick accounting (tracer/sysstat.h),
	 * not from the softirq tracepoints: no split by vector.
	 */
	bool softirq_ticks;
	struct ks_missed missed;
	struct ks_prog prog[KS_MAX_PROGS];
	int nr_progs;
	uint64_t bpf_run_time_ns;
	uint64_t bpf_run_cnt;
	double bpf_cpu_share;	/* of all CPUs' time during the run */
	/*
	 * The kernel timed the programs for this long at the run's start
	 * only; run_time_ns is then each program's runs times its mean run
	 * time in that window (0: timed all along, exact).
	 */
	uint64_t bpf_timed_ns;
	/* Every second of every thread and CPU (tracer/budget.h). */
	struct ks_budget budget;
	/* The tracers of chat_c and chat_s in ptrace stops, as last seen. */
	struct cb_tracer tracer[CB_NR_SIDES];
	struct ks_interval *interval;
	size_t nr_intervals;
	/* --profile and --timeline (tracer/profile_data.h), NULL without. */
	struct profile *profile;
	struct tl_events *timeline;
};

#endif
