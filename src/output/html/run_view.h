/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run as the HTML report draws it (struct run_view): its result line,
 * its place on the group's time axis, and its time budget with the
 * segments of its threads' bar.  view.c gathers a group's runs into these
 * and view_budget.c fills each one's budget; the sections only read them.
 */
#ifndef CHATBENCH_REPORT_RUN_VIEW_H
#define CHATBENCH_REPORT_RUN_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "analysis/loss.h"
#include "results/results.h"
#include "tracer/budget.h"

/*
 * The segments of the bar of a run's threads (view_budget.c): on CPU,
 * waiting by who held the CPU (the benchmark's own threads, ksoftirqd,
 * nobody, an outsider of any class, the kernel's own work, the cgroup's
 * quota, not known), blocked by reason
 * (enum cb_block), gone.  The CPUs' bar has one per line (kb_cpu_line).
 */
enum bt_seg {
	BT_ONCPU,
	BT_WAIT_OWN,
	BT_WAIT_KSOFTIRQD,
	BT_WAIT_IDLE,
	BT_WAIT_OUTSIDER,
	BT_WAIT_KERNEL,		/* softirq, interrupts, steal */
	BT_WAIT_THROTTLED,	/* their cgroup's quota */
	BT_WAIT_UNKNOWN,
	BT_BLOCKED,		/* + enum cb_block */
	BT_GONE = BT_BLOCKED + CB_NR_BLOCKS,
	BT_NR
};

struct run_budget {
	bool valid;		/* a budget that adds up; else none drawn */
	double thr[BT_NR];	/* thread-ns */
	/*
	 * A slow run's growth per message against the reference, from its
	 * loss account: the CPU lines' (acct.grown[LL_CPU(l)]) and the
	 * threads' segments' (their lines' summed).
	 */
	double thr_grown[BT_NR];
};

/* A host's time budget: read back, and its threads' bar's segments. */
struct host_budget {
	struct ks_budget budget;	/* .valid false: none, or malformed */
	struct run_budget bv;
	bool has_loss;			/* the run's "loss" is this host's */
};

struct run_view {
	const struct result_run *r;
	/*
	 * The client's host's kernel record, or the server's host's when the
	 * client was untraced (kernel_is_server); NULL: neither traced.
	 */
	const json_t *kernel;
	bool kernel_is_server;
	/* Both hosts traced: the server's host's record and budget. */
	const json_t *server_kernel;
	const char *server_name;	/* its name, "" when not said */
	struct host_budget server;
	const json_t *intervals;
	bool slow;
	bool disturbed;		/* a kernel figure far outside the others' */
	bool failed;
	double shortfall;	/* 1 - throughput / median */
	uint64_t span_ns;	/* its length on the time axis */
	double x0, w;		/* its segment on the timeline */
	struct ks_budget budget;	/* .valid false: none, or malformed */
	struct loss_account acct;	/* a slow run's "loss", if any */
	bool acct_is_server;		/* ... of the server's host */
	struct run_budget bv;
};

#endif
