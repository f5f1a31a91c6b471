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

/*
 * A rate sweep is read as a latency-vs-load curve: what was offered,
 * what got through, and the latency users saw at each point.
 */
static void print_rate_sweep(FILE *f, const struct series *s, size_t n)
{
	char a[24], b[24], c[24], d[24];
	long best;
	size_t i;

	fprintf(f, "\nSweep of rate: %d rooms, %d users per room\n",
		s[0].rooms, s[0].users);
	fprintf(f, "(rate and msgs per user; latency from the scheduled send time; rq p99 = run-queue latency)\n");
	fprintf(f, "%8s %7s %4s %10s %10s %9s %9s %9s %9s\n", "rate", "msgs",
		"runs", "offered/s", "achieved", "p50", "p99", "p99.9",
		"rq p99");
	for (i = 0; i < n; i++) {
		const struct sweep_row *row = &s[i].row;

		if (!row->open) {
			fprintf(f, "%8ld %7d %4zu %10s\n", s[i].sweep_value,
				s[i].messages, s[i].st.n, "(no completed run)");
			continue;
		}
		fprintf(f, "%8ld %7d %4zu %10.0f %10.0f %9s %9s %9s %9s\n",
			s[i].sweep_value, s[i].messages, s[i].st.n, row->offered,
			row->achieved,
			fmt_ns(a, sizeof(a), (double)row->ol_p50),
			fmt_ns(b, sizeof(b), (double)row->ol_p99),
			fmt_ns(c, sizeof(c), (double)row->ol_p999),
			row->traced ? fmt_ns(d, sizeof(d), (double)row->rq_p99) :
				      "-");
	}
	if (s[0].slo_ms <= 0)
		return;
	best = series_slo_point(s, n);
	if (best < 0)
		fprintf(f, "SLO p99 < %g ms    : met at no rate of the sweep\n",
			s[0].slo_ms);
	else
		fprintf(f, "SLO p99 < %g ms    : highest rate %ld per user (%.0f sends/s, p99 %s)\n",
			s[0].slo_ms, s[best].sweep_value, s[best].row.offered,
			fmt_ns(a, sizeof(a), (double)s[best].row.ol_p99));
}

void sweep_print(FILE *f, const struct series *s, size_t n)
{
	char a[24], b[24];
	size_t i;

	if (!n)
		return;
	if (!strcmp(s[0].sweep_param, "rate")) {
		print_rate_sweep(f, s, n);
		fflush(f);
		return;
	}
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
		char v[24];

		if (s[i].sweep_text)
			snprintf(v, sizeof(v), "%s", s[i].sweep_text);
		else
			snprintf(v, sizeof(v), "%ld", s[i].sweep_value);
		fprintf(f, "%9s %4zu %10.0f %10.0f %10.0f %9s", v, s[i].st.n, s[i].st.avg, s[i].st.min, s[i].st.max,
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
