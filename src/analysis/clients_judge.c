// SPDX-License-Identifier: GPL-2.0
/*
 * The merged runs of one run's clients judged (clients_judge.h): loaded as
 * run records by the results part, then a series like a live one.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/clients_judge.h"
#include "analysis/series.h"
#include "results/merge_clients.h"
#include "results/series_load.h"

/* The threshold the clients were judged with, so the merge agrees. */
static double threshold(const struct result_file *f)
{
	const struct result_summary *sum = &f->groups[0].summary;
	const json_t *v = sum->present ? json_object_get(sum->json, "verdict") :
					 NULL;
	double pct =
		json_number_value(json_object_get(v, "slow_threshold_pct"));

	return pct > 0 && pct < 100 ? pct : 10;
}

int clients_judge(const struct clients_merge *m,
		  const struct result_file *files, struct series *s,
		  char *missing, size_t mlen, char *err, size_t len)
{
	struct saved_runs sr;

	memset(s, 0, sizeof(*s));
	if (clients_saved_runs(m, files, &sr, missing, mlen, err, len))
		return -1;
	saved_runs_to_series(&sr, s);
	if (series_analyse(s, NULL, threshold(&files[0]))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}
