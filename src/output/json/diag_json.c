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

static json_t *kinds_json(unsigned int mask)
{
	json_t *arr = json_array();
	int k;

	for (k = 0; k < CAUSE_NR; k++)
		if (mask & (1U << k))
			json_array_append_new(arr,
					      json_string(cause_table[k].name));
	return arr;
}

static json_t *causes_json(const struct diag_verdict *v)
{
	json_t *arr = json_array();
	int c;

	for (c = 0; c < v->ncauses; c++) {
		const struct diag_cause *k = &v->causes[c];
		json_t *o = json_pack("{s:s, s:s, s:f, s:s, s:f, s:f, s:s}",
				      "kind", cause_table[k->kind].name,
				      "host", diag_host_name(k->host),
				      "share", k->share,
				      "figure", k->figure ? k->figure : "",
				      "now", k->now, "baseline", k->base,
				      "sentence", k->text);

		if (o && k->task[0]) {
			json_object_set_new(o, "task", json_string(k->task));
			json_object_set_new(o, "pid", json_integer(k->pid));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

/*
 * The account a slow run's shares come from: CPU time lost per message,
 * the share no cause explains, and every line's growth per message.
 */
static json_t *loss_json(const struct diag_verdict *v)
{
	json_t *lines = json_object();
	char name[48];
	int l;

	for (l = 0; l < LL_NR; l++)
		if (v->acct.grown[l] != 0)
			json_object_set_new(lines,
				loss_line_name(l, name, sizeof(name)),
				json_real(v->acct.grown[l]));
	json_t *parts = json_array();
	int p;

	for (p = 0; p < v->acct.nparts; p++)
		json_array_append_new(parts, json_pack("{s:s, s:f, s:s}",
			"kind", cause_table[v->acct.part[p].kind].name,
			"share", v->acct.part[p].share,
			"line", loss_line_name(v->acct.part[p].line, name,
					       sizeof(name))));
	return json_pack("{s:s, s:f, s:f, s:f, s:o, s:o}",
			 "host", diag_host_name(v->acct_host),
			 "lost_ns_per_msg", v->acct.lost_ns,
			 "grown_ns_per_msg", v->acct.grown_ns,
			 "unexplained", v->unexplained,
			 "parts", parts,
			 "lines_ns_per_msg", lines);
}

static json_t *dips_json(const struct run_phases *p)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < p->ndips; i++) {
		const struct diag_dip *d = &p->dip[i];

		json_array_append_new(arr, json_pack(
			"{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:s}",
			"from_s", d->from_s, "to_s", d->to_s,
			"throughput", d->throughput, "low", d->low,
			"median", p->median, "depth_pct", d->depth_pct,
			"noise_pct", p->noise_pct,
			"kind", d->kind >= 0 ?
				json_string(cause_table[d->kind].name) :
				json_null(),
			"sentence", d->why));
	}
	return arr;
}

static json_t *phases_json(const struct run_phases *p)
{
	return json_pack("{s:s, s:[f, f], s:[f, f], s:f, s:f}",
			 "host", diag_host_name(p->host),
			 "ramp_s", 0.0, p->ramp_to_s,
			 "drain_s", p->drain_from_s, p->end_s,
			 "median", p->median, "noise_pct", p->noise_pct);
}

void diag_json_series(struct json_out *json, const struct series *s)
{
	const struct series_verdict *v = &s->verdict;
	size_t i;

	if (!v->judged && !v->profile)
		return;
	for (i = 0; i < s->attempted; i++) {
		const struct run_phases *p = &v->phases[i];

		if (!s->runs[i].ok)
			continue;
		json_out_set(json, i, "slow", json_boolean(v->run[i].slow));
		json_out_set(json, i, "disturbed",
			     json_boolean(v->run[i].disturbed));
		if (v->run[i].evidence)
			json_out_set(json, i, "evidence",
				     kinds_json(v->run[i].evidence));
		if (v->run[i].slow)
			json_out_set(json, i, "causes",
				     causes_json(&v->run[i]));
		if (v->run[i].slow && v->run[i].by_budget)
			json_out_set(json, i, "loss",
				     loss_json(&v->run[i]));
		if (p->valid)
			json_out_set(json, i, "phases", phases_json(p));
		if (p->ndips)
			json_out_set(json, i, "dips", dips_json(p));
	}
}

json_t *diag_json_summary(const struct series *s)
{
	const struct series_verdict *v = &s->verdict;
	size_t i, nslow = 0;

	if (v->profile)
		return json_pack("{s:i, s:f, s:s}",
				 "verdict_version", CHATBENCH_VERDICT_VERSION,
				 "slow_threshold_pct", v->pct,
				 "reference", "own_intervals");
	if (!v->judged)
		return NULL;
	for (i = 0; i < s->attempted; i++)
		nslow += v->run[i].slow;
	return json_pack("{s:i, s:f, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:i}",
			 "verdict_version", CHATBENCH_VERDICT_VERSION,
			 "slow_threshold_pct", v->pct,
			 "reference", v->baseline ? "baseline" : "series",
			 "reference_runs", (int)v->ref.n,
			 "reference_median", v->ref.tp_median,
			 "spread_pct", v->spread_pct,
			 "min_slow_pct", v->min_slow_pct,
			 "min_slow_evidence_pct", v->min_slow_evidence_pct,
			 "slow_threshold", v->ref.tp_median - v->ref.margin,
			 "slow_runs", (int)nslow);
}
