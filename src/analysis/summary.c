// SPDX-License-Identifier: GPL-2.0
/*
 * Summary of repeated runs, as the seed scripts computed by looping chat_c
 * and averaging, plus the robust figures (median, MAD) the slow-run
 * detection needs.  Failed runs have no throughput and are left out.
 */
#include <stdlib.h>

#include "analysis/summary.h"

void summary_compute(const struct run_result *rs, size_t n, struct stats *s)
{
	double *v = calloc(n ? n : 1, sizeof(*v));
	size_t i, k = 0;

	if (!v) {
		stats_compute(NULL, 0, s);
		return;
	}
	for (i = 0; i < n; i++)
		if (rs[i].ok)
			v[k++] = rs[i].throughput;
	stats_compute(v, k, s);
	free(v);
}
