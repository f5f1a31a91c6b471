/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-linear histogram fine enough to quote open-loop latency from:
 * 128 buckets per power of two (each under 0.8 % wide), exact below
 * 128 ns, clamping at 2^38 ns (4.6 minutes).  The kernel-side histogram
 * (bpf/chatbench.h) has 16 per power of two to stay small in a map; this
 * one lives in user space, one per receiver thread, merged after the run.
 */
#ifndef CHATBENCH_LATHIST_H
#define CHATBENCH_LATHIST_H

#include <stdint.h>

#define LH_SUB_BITS	7
#define LH_SUB		(1U << LH_SUB_BITS)
#define LH_TOP_BITS	38
#define LH_BUCKETS	((LH_TOP_BITS - LH_SUB_BITS + 1) * LH_SUB)

/* What a receiver counts: 32 bits, since one receiver's count fits. */
typedef uint32_t lh_count_t;

struct lat_hist {
	uint64_t count;
	uint64_t max;		/* exact, not a bucket bound */
	uint64_t b[LH_BUCKETS];
};

/* The figures users quote, in ns; all 0 for an empty histogram. */
struct lat_summary {
	uint64_t count;
	uint64_t p50, p90, p99, p999, max;
};

uint32_t lh_bucket(uint64_t v);
/* The values bucket i holds: [lh_lo(i), lh_hi(i)). */
uint64_t lh_lo(uint32_t i);
uint64_t lh_hi(uint32_t i);
/* Adds a receiver's counts and its exact maximum. */
void lh_add(struct lat_hist *h, const lh_count_t *counts, uint64_t max);
void lh_merge(struct lat_hist *dst, const struct lat_hist *src);
/* The q-quantile (0 < q <= 1), spread evenly inside its bucket. */
uint64_t lh_quantile(const struct lat_hist *h, double q);
void lh_summarize(const struct lat_hist *h, struct lat_summary *s);

#endif
