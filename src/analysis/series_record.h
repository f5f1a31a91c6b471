/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of a series (struct series): the runs of one point of a
 * study and what the analysis concluded from them (analysis/series.c),
 * the verdict of each run against the reference and what the series can
 * resolve, the phases of each run, the point's row in a sweep table.  A
 * record type only: the outputs render it, and the loader of saved
 * series (results/series_load.c) rebuilds it, without the analysis'
 * functions.
 */
#ifndef CHATBENCH_SERIES_RECORD_H
#define CHATBENCH_SERIES_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/dips.h"
#include "analysis/kfigures.h"
#include "analysis/verdict.h"
#include "util/stats.h"
#include "workload/client/run_record.h"

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
	long rate;			/* per user */
	enum arrival arrival;
	double offered, achieved;
	uint64_t ol_p50, ol_p99, ol_p999;
	/* --slo: its p99 bound (0: none) and whether this point met it. */
	double slo_ms;
	bool slo_met;
};

struct series {
	const char *sweep_param;	/* NULL without --sweep */
	long sweep_value;
	const char *sweep_text;		/* --sweep sched: the policy */
	int rooms, messages, users;
	double slo_ms;			/* --slo of a rate sweep, or 0 */
	struct run_result *runs;	/* o->runs entries */
	size_t attempted;
	struct stats st;
	struct series_verdict verdict;
	struct sweep_row row;
};

#endif
