/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phases of one run, from its per-interval series: the start-up ramp
 * (connections and threads coming up, the clients' first bursts), the
 * steady part, and the drain at the end (the server's senders running
 * out of backlog one after another).  Only the steady part can hold a
 * dip, and a dip is reported with its size against the run's own
 * interval noise and with its cause, or as unexplained.
 */
#ifndef CHATBENCH_DIPS_H
#define CHATBENCH_DIPS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/causes.h"

struct kstats;

struct diag_dip {
	double from_s, to_s;	/* offsets from the run's start */
	double throughput;	/* mean over the dip's intervals */
	double low;		/* its lowest interval */
	double depth_pct;	/* 100 (1 - throughput / median) */
	int kind;		/* enum cause_kind, -1: unexplained */
	char why[240];
};

#define DIAG_MAX_DIPS 3
#define DIAG_DIP_MIN_INTERVALS 2

struct run_phases {
	bool valid;		/* enough intervals to tell phases apart */
	double ramp_to_s;	/* the ramp is [0, ramp_to_s) */
	double drain_from_s;	/* the drain is [drain_from_s, end) */
	double end_s;
	double median;		/* steady intervals' throughput */
	double noise_pct;	/* their robust spread, % of the median */
	double threshold;	/* below it, intervals dip */
	int ndips;
	struct diag_dip dip[DIAG_MAX_DIPS];
	enum diag_host host;	/* whose intervals: the server's without the client's */
};

/*
 * The phases and dips of the run of k; a dip is at least
 * DIAG_DIP_MIN_INTERVALS intervals below the steady median by more than
 * max(4 SD, pct %) of it, or under a quarter of it, that together cost
 * at least 0.25 s of the steady rate.  p->valid is false without enough
 * intervals.
 */
void diag_run_phases(const struct kstats *k, double pct,
		     struct run_phases *p);

/* The window --timeline keeps of a run. */
enum slow_window_kind {
	SLOW_WINDOW_RUN,	/* the whole run: too short for a second */
	SLOW_WINDOW_STEADY,	/* the slowest second of its steady part */
	SLOW_WINDOW_ANY,	/* the slowest second, no steady part */
};

struct slow_window {
	enum slow_window_kind kind;
	uint64_t from_ns, to_ns;	/* offsets from the run's start */
	double rate;			/* messages per second in it */
};

/*
 * The slowest second (whole intervals) of a traced run's steady part,
 * else of the whole run, else the whole run itself; throughput is the
 * run's, pct the --slow-threshold its phases are told with.
 */
void diag_slowest_second(const struct kstats *k, double throughput,
			 double pct, struct slow_window *w);

#endif
