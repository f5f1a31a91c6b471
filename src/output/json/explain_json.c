// SPDX-License-Identifier: GPL-2.0
/*
 * An explained difference for scripts: every line of the threads' and
 * the CPUs' budgets and every figure, with both sides' means, the
 * difference and its interval, its share and rank; null for what a side
 * lacks, so that readers need not test for absent keys.
 */
#include <jansson.h>

#include "analysis/explain.h"
#include "output/json/explain_json.h"

static const char *const part_name[EX_NR_PARTS] = {
	[EX_THREADS] = "threads", [EX_CPUS] = "cpus", [EX_FIGURES] = "figures",
};

static json_t *num(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

static json_t *pair(bool have, const double v[2])
{
	return have ? json_pack("[ff]", v[0], v[1]) : json_null();
}

static json_t *line_json(const struct ex_line *l)
{
	bool budget = l->part != EX_FIGURES;

	return json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:o,s:o,s:b,s:o,s:o}",
			 "part", part_name[l->part], "name", l->name,
			 "words", l->words, "unit", l->unit,
			 "runs_base", (json_int_t)l->nb,
			 "runs", (json_int_t)l->no,
			 "base", num(l->nb > 0, l->base),
			 "value", num(l->no > 0, l->value),
			 "diff", num(l->nb && l->no, l->diff),
			 "diff_ci95", pair(l->has_ci, l->ci),
			 "real", l->real,
			 "share", num(budget, l->share),
			 "rank", l->rank ? json_integer(l->rank) :
					   json_null());
}

json_t *explain_json(const struct explain *e, const char *label,
		     const char *base)
{
	char sentence[1024];
	json_t *o, *lines;
	int i;

	explain_sentence(e, label, base, sentence, sizeof(sentence));
	lines = json_array();
	if (!lines)
		return NULL;
	for (i = 0; e->valid && i < e->nlines; i++) {
		if (json_array_append_new(lines, line_json(&e->line[i]))) {
			json_decref(lines);
			return NULL;
		}
	}
	o = json_pack("{s:s,s:s,s:o,s:b,s:b,s:o,s:o,s:o,s:b,s:i,s:i,s:o,s:{s:o,s:o}}",
		      "sentence", sentence,
		      "metric", e->metric == EX_LATENCY ? "latency_p99" :
							  "throughput",
		      "caveat", explain_caveat(e) ?
				json_string(explain_caveat(e)) : json_null(),
		      "interleaved", e->interleaved,
		      "explained", e->valid,
		      "missing", e->valid ? json_null() :
					    json_string(e->missing),
		      "change_pct", num(e->has_pct, e->pct),
		      "change_pct_ci95", pair(e->has_ci, e->pct_ci),
		      "real", e->real,
		      "runs_base", e->runs_base, "runs", e->runs,
		      "lines", lines,
		      "unexplained",
		      "threads", num(e->valid, e->unexplained[EX_THREADS]),
		      "cpus", num(e->valid, e->unexplained[EX_CPUS]));
	return o;
}
