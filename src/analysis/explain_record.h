/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The difference between two series explained (chatbench-compare
 * --explain): one series against a base series at the same point, line
 * by line.  A record type only: src/analysis/explain.c fills it from the
 * runs' kernel records, and the text, JSON, CSV and report write it out
 * without computing anything of their own.
 *
 * The lines come in three parts.  The threads' budget and the CPUs'
 * budget are per message: thread-ns (threads x wall / messages) and
 * CPU-ns (CPUs x wall / messages), and each part's lines add up to its
 * whole, so their differences add up to the difference of the whole,
 * which is the throughput difference seen from the threads or from the
 * CPUs.  Each such line has its share of that difference.  The figures
 * (switches, wakeups, run-queue latency, socket queues, CPU time) are
 * shown beside them as evidence, never shares.
 */
#ifndef CHATBENCH_EXPLAIN_RECORD_H
#define CHATBENCH_EXPLAIN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

enum ex_part { EX_THREADS, EX_CPUS, EX_FIGURES, EX_NR_PARTS };

/*
 * What differs: the throughput of closed-loop runs, or, when both sides
 * ran open-loop (--rate: the load is fixed, so the throughput is too),
 * the message latency p99 from each send's scheduled time.
 */
enum ex_metric { EX_THROUGHPUT, EX_LATENCY };

#define EX_MAX_LINES	96

struct ex_line {
	char name[40];		/* "wait:own", "cpu:idle", "invol_per_msg" */
	char words[80];		/* "waiting to run behind its own threads" */
	enum ex_part part;
	const char *unit;	/* "ns/msg", "pct", "ns", "bytes", "per_msg" */
	size_t nb, no;		/* runs with the figure: base, this one */
	double base, value;	/* means over those runs */
	double diff;		/* value - base */
	bool has_ci;
	double ci[2];		/* of diff, bootstrap of the runs */
	bool real;		/* has_ci and ci excludes 0 */
	/*
	 * Budget lines: the line's part of the difference of its whole, in
	 * the direction of the throughput's change (a line that grew in a
	 * slower series is positive, one that shrank negative); 0 for
	 * figures.  Shares of one part's lines that are positive add up to
	 * at most 1.
	 */
	double share;
	int rank;		/* 1: accounts for most; 0: not ranked */
};

struct explain {
	bool valid;		/* both sides had the records to explain */
	char missing[160];	/* why not, when !valid */
	int runs_base, runs;	/* ok runs with a time budget, each side */
	enum ex_metric metric;
	/* The metric: this series against the base, (ratio - 1) x 100. */
	bool has_pct;
	double pct;
	bool has_ci;
	double pct_ci[2];
	bool real;		/* the metric's interval excludes 0 */
	/*
	 * Whether the two series' runs were recorded interleaved (on one
	 * host, their spans of time overlapping): if not, a drift of the
	 * machine between them is part of the difference.
	 */
	bool interleaved;
	struct ex_line line[EX_MAX_LINES];
	int nlines;
	int nranked[EX_NR_PARTS];
	/* Of each budget part's difference, what no ranked line holds. */
	double unexplained[EX_NR_PARTS];
};

#endif
