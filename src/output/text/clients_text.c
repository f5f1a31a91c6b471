// SPDX-License-Identifier: GPL-2.0
/*
 * One run's clients as one table (clients_text.h): a row per run with
 * each client's throughput, the messages of all of them, the longest
 * client's elapsed time and the run's throughput from those two; then
 * which hosts were traced, the series' summary line and its verdict as
 * a live series prints them.
 */
#include <string.h>

#include "analysis/series.h"
#include "output/text/clients_text.h"
#include "output/text/diag_text.h"
#include "output/text/run_text.h"
#include "results/merge_clients.h"

#define MIN_COL 10

static int col_width(const char *label)
{
	int w = (int)strlen(label);

	return w < MIN_COL ? MIN_COL : w;
}

static void header(FILE *f, const struct clients_merge *m)
{
	size_t i;

	fprintf(f, "%3s", "run");
	for (i = 0; i < m->nclients; i++)
		fprintf(f, "  %*s", col_width(m->label[i]), m->label[i]);
	fprintf(f, "  %8s  %9s  %9s  %11s\n", "sent", "received", "longest s",
		"total msg/s");
}

static void row(FILE *f, const struct clients_merge *m,
		const struct clients_run *cr)
{
	size_t i;

	fprintf(f, "%3d", cr->run);
	for (i = 0; i < m->nclients; i++) {
		const struct result_run *r = cr->client[i];

		if (r->ok)
			fprintf(f, "  %*.0f", col_width(m->label[i]),
				r->throughput);
		else
			fprintf(f, "  %*s", col_width(m->label[i]), "failed");
	}
	fprintf(f, "  %8llu  %9llu  %9.3f  %11.0f%s\n",
		(unsigned long long)cr->sent, (unsigned long long)cr->received,
		cr->elapsed_s, cr->throughput,
		cr->ok ? "" : "  (a client failed)");
}

/* Which hosts' records there are, and which one the verdict read. */
static void hosts_line(FILE *f, const struct clients_merge *m)
{
	size_t i, k, nserver = 0, traced;
	bool any = false;

	for (k = 0; k < m->nruns; k++)
		nserver += m->runs[k].server_kernel != NULL;
	fprintf(f, "Server's host      : %s, %s\n",
		*m->server_name ? m->server_name : "?",
		nserver ? "traced (the verdict's record)" :
			  "not traced (no kernel record to judge)");
	fputs("Clients' hosts     : ", f);
	for (i = 0; i < m->nclients; i++) {
		for (k = 0, traced = 0; k < m->nruns; k++)
			traced += json_is_object(
				json_object_get(m->runs[k].client[i]->json,
						"kernel"));
		if (!traced)
			continue;
		fprintf(f, "%s%s", any ? ", " : "", m->label[i]);
		any = true;
	}
	fputs(any ? " traced (shown, not judged)\n" : "none traced\n", f);
}

void clients_print(FILE *f, const struct clients_merge *m,
		   const struct series *s, const char *missing)
{
	size_t k;

	/* Two hosts' clocks are never compared: each client's own time. */
	fprintf(f,
		"Clients of one run : %zu files merged: messages summed, over the longest time\n",
		m->nclients);
	header(f, m);
	for (k = 0; k < m->nruns; k++)
		row(f, m, &m->runs[k]);
	hosts_line(f, m);
	if (*missing)
		fprintf(f, "Not in the files   : %s (judged without)\n",
			missing);
	if (s->attempted > 1)
		out_text_summary(f, s->rooms, s->messages, &s->st,
				 s->attempted);
	diag_print(f, s);
}
