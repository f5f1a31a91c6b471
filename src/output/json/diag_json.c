// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict of a series in JSON: each completed run's object gets
 * "slow", and "causes" when slow and "dips" when it had any.  They are
 * merged into run objects already written, since the verdict is known
 * only when the series ends.
 */
#include "analysis/series.h"
#include "output/json/diag_json.h"
#include "output/json/json_out.h"

static json_t *causes_json(const struct diag_verdict *v)
{
	json_t *arr = json_array();
	int c;

	for (c = 0; c < v->ncauses; c++) {
		const struct diag_cause *k = &v->causes[c];
		json_t *o = json_pack("{s:s, s:f, s:s, s:f, s:f, s:s}",
				      "kind", cause_kind_names[k->kind],
				      "share", k->share,
				      "figure", k->figure ? k->figure : "",
				      "now", k->now, "baseline", k->base,
				      "sentence", k->text);

		if (o && k->kind == CAUSE_OUTSIDER_CPU) {
			json_object_set_new(o, "task", json_string(k->task));
			json_object_set_new(o, "pid", json_integer(k->pid));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *dips_json(const struct diag_dip *d, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:f, s:f, s:f, s:f, s:s}",
			"from_s", d[i].from_s, "to_s", d[i].to_s,
			"throughput", d[i].throughput, "median", d[i].median,
			"sentence", d[i].why));
	return arr;
}

void diag_json_series(struct json_out *json, const struct series *s)
{
	const struct series_verdict *v = &s->verdict;
	size_t i;

	if (!v->judged && !v->profile)
		return;
	for (i = 0; i < s->attempted; i++) {
		if (!s->runs[i].ok)
			continue;
		json_out_set(json, i, "slow", json_boolean(v->run[i].slow));
		if (v->run[i].slow)
			json_out_set(json, i, "causes",
				     causes_json(&v->run[i]));
		if (v->dips[i].n)
			json_out_set(json, i, "dips",
				     dips_json(v->dips[i].dip, v->dips[i].n));
	}
}
