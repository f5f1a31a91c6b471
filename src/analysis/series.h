/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A series: the runs of one point of a study (all of them without a
 * sweep), and everything the analysis concludes from them, computed once
 * here so that every output only renders it: the throughput statistics,
 * the verdict of each run against the reference (the series' own runs or
 * a baseline) and what the series can resolve, the phases of each run
 * and the dips of its steady part, a profile for a lone run, and the
 * figures of the point's row in a sweep table.
 */
#ifndef CHATBENCH_SERIES_H
#define CHATBENCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/diagnose.h"
#include "analysis/dips.h"
#include "analysis/kfigures.h"
#include "util/stats.h"
#include "workload/client/client.h"

struct baseline;

/*
 * The rules' version, saved with every verdict: raised whenever a change
 * of the analysis judges a recorded series differently, so that a saved
 * verdict says which rules made it (chatbench-judge applies today's).
 */
#define CHATBENCH_VERDICT_VERSION 1

struct series_verdict {
	size_t nok;		/* completed runs */
	bool judged;		/* a reference was made: run[] is filled */
	bool baseline;		/* the reference is a --baseline file's */
	bool baseline_exact;	/* ... made of runs of this very point */
	double pct;		/* --slow-threshold */
	struct diag_ref ref;
	struct diag_verdict *run;	/* one per attempted run */
	struct run_phases *phases;	/* one per attempted run */
	/*
	 * What the series can resolve, in % of the reference median: how
	 * much runs vary (one robust SD), the slowdown below which a run is
	 * not called slow, and the smaller one that is called when the
	 * kernel record shows a disturbance.
	 */
	double spread_pct;
	double min_slow_pct;
	double min_slow_evidence_pct;
	/* A lone run without a baseline gets a profile, not a verdict. */
	bool profile;
	struct kfigures profile_kf;
};

/* The medians over the series' runs that a sweep table shows. */
struct sweep_row {
	uint64_t lat_p99, rq_p99;
	double invol, xcpu, idle;
	bool traced;
	/* --rate points: medians of the open-loop figures. */
	bool open;
	double offered, achieved;
	uint64_t ol_p50, ol_p99, ol_p999;
};

struct series {
	const char *sweep_param;	/* NULL without --sweep */
	long sweep_value;
	const char *sweep_text;		/* --sweep sched: the policy */
	int rooms, messages, users;
	struct run_result *runs;	/* o->runs entries */
	size_t attempted;
	struct stats st;
	struct series_verdict verdict;
	struct sweep_row row;
};

/*
 * Everything above from s->runs[0..attempted): runs judged against
 * baseline when given (NULL: against the series' own median), slow by
 * more than pct %.  0, or -1 when out of memory or the baseline has no
 * completed run (then nothing is judged).
 */
int series_analyse(struct series *s, const struct baseline *baseline,
		   double pct);
void series_free(struct series *s);

#endif
