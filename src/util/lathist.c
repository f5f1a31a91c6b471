// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "util/lathist.h"

uint32_t lh_bucket(uint64_t v)
{
	uint32_t msb;

	if (v < LH_SUB)
		return (uint32_t)v;
	msb = 63 - (uint32_t)__builtin_clzll(v);
	if (msb >= LH_TOP_BITS)
		return LH_BUCKETS - 1;
	return (msb - LH_SUB_BITS + 1) * LH_SUB +
	       (uint32_t)((v >> (msb - LH_SUB_BITS)) & (LH_SUB - 1));
}

uint64_t lh_lo(uint32_t i)
{
	uint32_t group = i / LH_SUB, sub = i % LH_SUB;

	if (!group)
		return sub;
	return (uint64_t)(LH_SUB + sub) << (group - 1);
}

uint64_t lh_hi(uint32_t i)
{
	uint32_t group = i / LH_SUB;

	return lh_lo(i) + (group ? 1ULL << (group - 1) : 1);
}

void lh_add(struct lat_hist *h, const lh_count_t *counts, uint64_t max)
{
	uint32_t i;

	for (i = 0; i < LH_BUCKETS; i++) {
		h->b[i] += counts[i];
		h->count += counts[i];
	}
	if (max > h->max)
		h->max = max;
}

void lh_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	uint32_t i;

	for (i = 0; i < LH_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t lh_quantile(const struct lat_hist *h, double q)
{
	double rank, before = 0;
	uint32_t i;

	if (!h->count)
		return 0;
	rank = q * (double)h->count;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LH_BUCKETS; i++) {
		double lo, hi;
		uint64_t v;

		if (!h->b[i] || before + (double)h->b[i] < rank) {
			before += (double)h->b[i];
			continue;
		}
		/* The top bucket is open-ended: its samples are the max's. */
		if (i == LH_BUCKETS - 1)
			return h->max;
		lo = (double)lh_lo(i);
		hi = (double)lh_hi(i);
		v = (uint64_t)(lo + (rank - before) / (double)h->b[i] *
				    (hi - lo - 1) + 0.5);
		/* Never above what was seen. */
		return v > h->max ? h->max : v;
	}
	return h->max;
}

void lh_summarize(const struct lat_hist *h, struct lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!h->count)
		return;
	s->count = h->count;
	s->p50 = lh_quantile(h, 0.50);
	s->p90 = lh_quantile(h, 0.90);
	s->p99 = lh_quantile(h, 0.99);
	s->p999 = lh_quantile(h, 0.999);
	s->max = h->max;
}
