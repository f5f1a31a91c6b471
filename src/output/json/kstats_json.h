/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel record of one run as the JSON "kernel" object (read back by
 * src/results/kstats_load.c, which must agree on every name).
 */
#ifndef CHATBENCH_KSTATS_JSON_H
#define CHATBENCH_KSTATS_JSON_H

#include <jansson.h>

struct kstats;
struct ks_hist;

json_t *kstats_to_json(const struct kstats *k);
/* count, percentiles and max suffixed with unit, non-empty buckets. */
json_t *ks_hist_json(const struct ks_hist *h, const char *unit);

#endif
