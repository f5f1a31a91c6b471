// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep table puts throughput next to message latency and the main
 * kernel figures of each point, so that the knee where latency grows and
 * throughput stops growing is read off one screen.
 */
#include <string.h>

#include "analysis/series.h"
#include "output/text/sweep_text.h"
#include "util/fmt.h"

void sweep_print(FILE *f, const struct series *s, size_t n)
{
	char a[24], b[24];
	size_t i;

	if (!n)
		return;
	fprintf(f, "\nSweep of %s:", s[0].sweep_param);
	if (strcmp(s[0].sweep_param, "rooms"))
		fprintf(f, " %d rooms,", s[0].rooms);
	if (strcmp(s[0].sweep_param, "messages"))
		fprintf(f, " %d messages%s", s[0].messages,
			strcmp(s[0].sweep_param, "users") ? "," : "");
	if (strcmp(s[0].sweep_param, "users"))
		fprintf(f, " %d users per room", s[0].users);
	/* The legend on its own line keeps the text under 100 columns. */
	fprintf(f, "\n(msg p99 = message latency, rq p99 = run-queue latency,"
		" invol/s = involuntary switches)\n");
	fprintf(f, "%9s %4s %10s %10s %10s %9s %9s %9s %6s %6s\n",
		s[0].sweep_param, "runs", "avg msg/s", "min", "max",
		"msg p99", "rq p99", "invol/s", "xcpu%", "idle%");
	for (i = 0; i < n; i++) {
		const struct sweep_row *row = &s[i].row;

		fprintf(f, "%9ld %4zu %10.0f %10.0f %10.0f %9s", s[i].sweep_value,
			s[i].st.n, s[i].st.avg, s[i].st.min, s[i].st.max,
			fmt_ns(a, sizeof(a), (double)row->lat_p99));
		if (row->traced)
			fprintf(f, " %9s %9.0f %6.1f %6.1f\n",
				fmt_ns(b, sizeof(b), (double)row->rq_p99),
				row->invol, row->xcpu, row->idle);
		else
			fprintf(f, " %9s %9s %6s %6s\n", "-", "-", "-", "-");
	}
	fflush(f);
}
