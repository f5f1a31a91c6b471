/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved "kernel" object back into a kernel record, for baselines: the
 * reverse of src/output/json/kstats_json.c.
 */
#ifndef CHATBENCH_KSTATS_LOAD_H
#define CHATBENCH_KSTATS_LOAD_H

#include <jansson.h>

struct kstats;

/* The figures (no intervals); NULL if the object is malformed. */
struct kstats *kstats_from_json(const json_t *o);

#endif
