/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run's kernel figures (struct kstats, tracer/kstats_record.h),
 * computed as the difference of two snapshots (tracer/snap_record.h) of
 * the tracer's in-kernel counters, plus the percentile arithmetic on the
 * shared log-linear histograms.  Its text and JSON forms are outputs
 * (src/output/).
 */
#ifndef CHATBENCH_KSTATS_H
#define CHATBENCH_KSTATS_H

#include <stdint.h>

#include "tracer/kstats_record.h"
#include "tracer/snap_record.h"

extern const char *const ks_softirq_names[KS_NR_SOFTIRQS];

/* Percentile p (0..100) of a histogram, interpolated inside its bucket. */
uint64_t ks_hist_percentile(const uint64_t *buckets, uint64_t count,
			    double p);
/* Fill count and the percentiles of h from its buckets. */
void ks_hist_finish(struct ks_hist *h);

/* Snapshot storage: allocated once, reused for every snapshot. */
int ks_snap_alloc(struct ks_snap *s, int ncpus);
void ks_snap_free(struct ks_snap *s);

/*
 * The figures between snapshots a and b (a taken first).  Maxima are read
 * from b alone: the tracer zeroes them right after taking a.
 */
struct kstats *kstats_from_snaps(const struct ks_snap *a,
				 const struct ks_snap *b);

/* One interval of the series, from consecutive snapshots. */
void ks_interval_from_snaps(struct ks_interval *iv, const struct ks_snap *a,
			    const struct ks_snap *b, uint64_t run_start_ns);

void kstats_free(struct kstats *k);

#endif
