/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved "kernel" object back into a kernel record, for baselines: the
 * reverse of src/output/json/kstats_json.c.
 */
#ifndef CHATBENCH_KSTATS_LOAD_H
#define CHATBENCH_KSTATS_LOAD_H

#include <jansson.h>

struct kstats;
struct ks_hist;

/* Every figure, intervals included; NULL if the object is malformed. */
struct kstats *kstats_from_json(const json_t *o);
/*
 * A histogram as ks_hist_json() wrote it (unit: "ns", "bytes"), its
 * percentiles recomputed from the buckets as live; empty when o is not.
 */
void ks_hist_from_json(const json_t *o, struct ks_hist *h, const char *unit);

#endif
