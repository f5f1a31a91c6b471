/* SPDX-License-Identifier: GPL-2.0 */
/* An explained difference (analysis/explain_record.h) as JSON. */
#ifndef CHATBENCH_EXPLAIN_JSON_H
#define CHATBENCH_EXPLAIN_JSON_H

#include <jansson.h>

struct explain;

/*
 * {"sentence", "metric" (throughput or latency_p99), "change_pct",
 * "change_pct_ci95", "real", "runs",
 * "runs_base", "lines": [...], "unexplained": {...}} with every line of
 * the three parts; NULL when out of memory.
 */
json_t *explain_json(const struct explain *e, const char *label,
		     const char *base);

#endif
