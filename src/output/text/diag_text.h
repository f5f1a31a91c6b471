/* SPDX-License-Identifier: GPL-2.0 */
/* The diagnosis in the report: a text block per series, JSON per run. */
#ifndef CHATBENCH_DIAG_OUT_H
#define CHATBENCH_DIAG_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/diagnose.h"

struct series;
struct kstats;

/* After the series summary: slow runs with their causes, dips, profile. */
void diag_print(FILE *f, const struct series *s, const struct diag_ref *ref,
		const struct diag_verdict *v, double pct, bool baseline);
/* The causes of a slow run, for its JSON object. */
json_t *diag_causes_json(const struct diag_verdict *v);

json_t *diag_dips_json(const struct diag_dip *d, int n);

#endif
