// SPDX-License-Identifier: GPL-2.0
/*
 * Re-judging a saved result file: its groups into series, each analysed
 * by series_analyse() as live, and rendered in the order chat_c renders
 * a study (each series' summary and verdict, the sweep table, the
 * placement).  The JSON is the file's lines with the new verdict in the
 * place of the old.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "output/json/diag_json.h"
#include "output/json/json_out.h"
#include "output/text/diag_text.h"
#include "output/text/run_text.h"
#include "output/text/sweep_text.h"
#include "results/results.h"
#include "results/series_load.h"
#include "study/judge.h"

/* --slow-threshold, else the one the file was judged with, else ours. */
static double threshold(const struct result_group *g, double asked)
{
	const json_t *v = g->summary.present ?
		json_object_get(g->summary.json, "verdict") : NULL;
	const json_t *pct = json_object_get(v, "slow_threshold_pct");

	if (asked > 0)
		return asked;
	if (json_is_number(pct) && json_number_value(pct) > 0 &&
	    json_number_value(pct) < 100)
		return json_number_value(pct);
	return SLOW_PCT_DEFAULT;
}

/* The p99 objective of a --rate sweep, if the file says one. */
static double slo_of(const struct result_group *g)
{
	const json_t *slo = json_object_get(json_object_get(g->summary.json,
							    "open_loop"), "slo");

	return json_number_value(json_object_get(slo, "p99_ms"));
}

static void print_placement(FILE *f, const json_t *summary)
{
	const json_t *p = json_object_get(summary, "placement");
	const json_t *c = json_object_get(p, "client");
	const json_t *s = json_object_get(p, "server");

	if (!json_is_object(c) || !json_is_object(s))
		return;
	out_text_placement(f, json_string_value(json_object_get(c, "cpus")),
			   json_is_true(json_object_get(c, "pin")),
			   json_is_true(json_object_get(c, "nodelay")),
			   json_string_value(json_object_get(s, "model")),
			   json_string_value(json_object_get(s, "cpus")),
			   json_is_true(json_object_get(s, "pin")));
}

static int judge_json(const struct result_group *g, const struct series *s,
		      struct json_out *json)
{
	size_t i;

	for (i = 0; i < g->nr_runs; i++)
		if (json_out_saved_run(json, g->runs[i].json))
			return -1;
	diag_json_series(json, s);
	/* A series cut short has no summary: its runs alone, as saved. */
	if (!g->summary.present)
		return 0;
	return json_out_saved_summary(json, g->summary.json,
				      diag_json_summary(s));
}

int judge_series_load(const struct result_group *g, struct series *s,
		      char *missing, size_t mlen, char *err, size_t len)
{
	struct saved_runs sr;

	memset(s, 0, sizeof(*s));
	if (saved_runs_load(g, &sr, missing, mlen, err, len))
		return -1;
	saved_runs_to_series(&sr, s);
	return 0;
}

static int judge_group(const struct result_group *g, struct series *s,
		       const struct judge_opts *o, char *err, size_t len)
{
	char missing[160];

	if (judge_series_load(g, s, missing, sizeof(missing), err, len))
		return -1;
	if (*missing)
		fprintf(o->text, "Not in the file    : %s (judged without)\n",
			missing);
	s->slo_ms = slo_of(g);
	series_analyse(s, o->baseline, threshold(g, o->slow_pct));
	/* chat_c prints the summary of a series of more than one run. */
	if (g->summary.present ? g->summary.runs_attempted > 1 :
				 g->nr_runs > 1)
		out_text_summary(o->text, s->rooms, s->messages, &s->st,
				 s->attempted);
	diag_print(o->text, s);
	if (o->json && judge_json(g, s, o->json)) {
		snprintf(err, len, "writing the judged JSON failed");
		return -1;
	}
	return 0;
}

int judge_file(const char *path, const struct judge_opts *o, char *err,
	       size_t len)
{
	struct series *series = NULL;
	struct result_file rf;
	size_t i, done = 0;
	int rc = -1;

	if (results_load_flags(path, RESULTS_ALLOW_NO_SUMMARY, &rf, err, len))
		return -1;
	series = calloc(rf.nr_groups + 1, sizeof(*series));
	if (!series) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	for (i = 0; i < rf.nr_groups; i++, done++)
		if (judge_group(&rf.groups[i], &series[i], o, err, len))
			goto out;
	if (rf.nr_groups > 1 && rf.groups[0].sweep_param)
		sweep_print(o->text, series, done);
	if (!o->quiet && rf.nr_groups &&
	    rf.groups[rf.nr_groups - 1].summary.present)
		print_placement(o->text,
				rf.groups[rf.nr_groups - 1].summary.json);
	fflush(o->text);
	rc = 0;
out:
	for (i = 0; series && i < done + (rc ? 1 : 0) && i < rf.nr_groups;
	     i++)
		series_free(&series[i]);
	free(series);
	results_free(&rf);
	return rc;
}
