/* SPDX-License-Identifier: GPL-2.0 */
/* The verdict of a series in JSON: per run, and in the summary. */
#ifndef CHATBENCH_DIAG_JSON_H
#define CHATBENCH_DIAG_JSON_H

#include <jansson.h>

struct json_out;
struct series;

/* slow, disturbed, evidence, causes, phases and dips of each run. */
void diag_json_series(struct json_out *json, const struct series *s);
/* The summary's "verdict": reference and resolution; NULL: none. */
json_t *diag_json_summary(const struct series *s);

#endif
