/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Headline kernel figures of one run, derived from its struct kstats and
 * normalised by the run's length, so that runs of different sizes, sweep
 * points and the slow-run diagnosis compare like with like.
 */
#ifndef CHATBENCH_KFIGURES_H
#define CHATBENCH_KFIGURES_H

#include <stdbool.h>
#include <stdint.h>

struct kstats;

struct kfigures {
	bool valid;
	double wall_s;
	uint64_t rq_p50_ns;	/* benchmark threads together */
	uint64_t rq_p99_ns;
	uint64_t rq_max_ns;
	double wakeups_per_s;
	double xcpu_pct;	/* cross-CPU wakeups, % of wakeups */
	double invol_per_s;	/* involuntary switches of benchmark threads */
	double invol_per_msg;	/* the same per message, filled with tp */
	double migrations_per_s;
	double idle_pct;	/* of all CPUs' time */
	double softirq_pct;
	double net_rx_pct;	/* < 0: not known (softirq from ticks) */
	double outsider_pct;	/* CPU taken by outsiders from waiting subjects */
	double steal_pct;	/* hypervisor steal, of all CPUs' time */
	double tp;		/* throughput, filled by the caller */
	uint64_t ksoftirqd_p99_ns;
	uint64_t sock_rq_p99_bytes;	/* either side, the larger */
	uint64_t sock_rq_max_bytes;
	uint64_t rcvbuf_max;
	double sndbuf_full_pct;	/* send-queue samples finding it full */
	uint64_t pressure_events;
	double oncpu_s, runnable_s, blocked_s;	/* summed over subjects */
	/*
	 * The process (CB_SIDE_CLIENT: chat_c, CB_SIDE_SERVER: chat_s) whose
	 * group was throttled most, and its throttled time as a share of all
	 * CPUs' time; the one stopped longest (stopping signal to SIGCONT),
	 * and that as a share of the run.
	 */
	int throttled_side;
	double throttled_pct;
	int stopped_side;
	double stopped_pct;
	/* The usual suspects: retransmissions, memory, the CPUs' clock. */
	double retrans_per_s;	/* TCP segments retransmitted */
	double rto_per_s;	/* retransmission timeouts */
	double psi_mem_pct;	/* time some task stalled on memory */
	double majflt_per_s;	/* major faults of chat_c and chat_s */
	double allocstall_per_s;	/* direct reclaim stalls */
	double freq_mhz;	/* mean CPU clock, 0: unknown */
	/*
	 * From the time budget (0 without one): CPU supply lost to hotplug,
	 * % of all CPUs' time; the benchmark threads' time in ptrace stops,
	 * the freezer, job-control stops and uninterruptible sleep, % of
	 * their threads x wall.
	 */
	double offline_pct;
	double ptrace_pct, frozen_pct, jobctl_pct, unint_pct;
	/*
	 * The highest and the lowest nice of the benchmark's worker roles
	 * (the nice whose weight is the role's mean weight on CPU: SCHED_IDLE
	 * is about 26), and which roles they are (-1 and 0 when the record
	 * does not say).
	 */
	double nice_max, nice_min;
	int nice_max_role, nice_min_role;
	/*
	 * The same for chat_c's and chat_s's groups: the nice steps their
	 * cpu cgroup's weight (against the default 100) and their autogroup
	 * nice add up to, highest and lowest, and whose (CB_SIDE_*, -1 when
	 * the record does not say).
	 */
	double grp_nice_max, grp_nice_min;
	int grp_max_side, grp_min_side;
};

void kfigures_from(const struct kstats *k, struct kfigures *f);
struct ks_proc;
/* A process's group weight (cgroup and autogroup) in nice steps. */
double kfigures_group_nice(const struct ks_proc *p);
/*
 * The benchmark's threads queued for some CPUs (their mask in *waited)
 * while another CPU idled for a tenth of the run or more.
 */
bool kfigures_queued_beside_idle(const struct kstats *k, uint64_t *waited);
/*
 * Whether pid held chat_c or chat_s in ptrace stops during the run: the
 * CPU such a tracer takes is the cost of its tracing, one cause with the
 * stops (a run's or a dip's), not an outsider of its own.
 */
bool kfigures_is_tracer(const struct kstats *k, int pid);
/* Whether the outsider that took most CPU from the run is such a tracer. */
bool kfigures_tracer_is_top(const struct kstats *k);

#endif
