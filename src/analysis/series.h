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

#include "analysis/series_record.h"

struct baseline;

/*
 * The rules' version, saved with every verdict: raised whenever a change
 * of the analysis judges a recorded series differently, so that a saved
 * verdict says which rules made it (chatbench-judge applies today's).
 * 2: the server's host's record (server_host) judged too and merged, each
 * cause saying its host; a run without server_host is judged as by 1.
 * 3: sched_weight, a role of the benchmark run at another weight than in
 * the reference; records without the roles' weight_ns are judged as by 2.
 * 4: waiting while throttled (wait:throttled) a hold of the idle growth,
 * for cpu_quota; records without it are judged as by 3.
 */
#define CHATBENCH_VERDICT_VERSION 4

/*
 * A run is slow by its throughput alone below the median by more than
 * this (or 3 robust SDs): on these 2-vCPU VMs clean runs came 10.7-16 %
 * below the other runs of their series with nothing in the kernel
 * record apart (1 series in 5, twice; 2-6 runs in 81-90 of make
 * bench-diagnosis), so 10 % called the VM's noise slow.  Kernel evidence
 * still lowers the bar to 5 % (analysis/diagnose.c).
 */
#define SLOW_PCT_DEFAULT 15

/*
 * The record (analysis/series_record.h) from s->runs[0..attempted):
 * runs judged against baseline when given (NULL: against the series' own
 * median), slow by more than pct %.  0, or -1 when out of memory or the
 * baseline has no completed run (then nothing is judged).
 */
int series_analyse(struct series *s, const struct baseline *baseline,
		   double pct);
void series_free(struct series *s);
/*
 * Of the n points of a --rate sweep with an --slo, the one of the highest
 * rate whose p99 met it; -1 when none did.
 */
long series_slo_point(const struct series *s, size_t n);

#endif
