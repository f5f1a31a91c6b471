// SPDX-License-Identifier: GPL-2.0
/*
 * The report's view of one run's clients merged (chat_s --clients N,
 * results/merge_clients.h): the verdict on the merged series, a row per
 * run with each client's throughput and the run's, and every host's time
 * budget per run, each row of bars labelled by its host: the server's
 * host once (chat_s sent the same record to every client), then each
 * client's host that traced itself.  The verdict is the analysis' text,
 * as chatbench-compare prints it, so that both tools say the same words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/view_budget.h"
#include "output/text/diag_text.h"
#include "output/text/run_text.h"
#include "results/merge_clients.h"
#include "util/fmt.h"

static void verdict(FILE *f, const struct series *s, bool judged_server)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fputs("<div class=\"verdict clients\">", f);
	if (m) {
		if (s->attempted > 1)
			out_text_summary(m, s->rooms, s->messages, &s->st,
					 s->attempted);
		diag_print(m, s);
		fclose(m);
		fputs("<pre>", f);
		html_esc(f, text ? text : "");
		fputs("</pre>", f);
	}
	free(text);
	fprintf(f, "<p class=\"small\">%s</p></div>\n",
		judged_server ?
			"Judged on the server's host's record; the clients' hosts' budgets are shown below, not judged (each accounts for its own client's threads only)." :
			"The server's host was not traced: the runs are judged by their throughput alone.");
}

static bool run_slow(const struct series *s, size_t k)
{
	return s->verdict.judged && s->verdict.run && k < s->attempted &&
	       s->verdict.run[k].slow;
}

static void runs_table(FILE *f, const struct clients_merge *m,
		       const struct series *s)
{
	char b[32];
	size_t i, k;

	fputs("<table class=\"runs clients\">\n<tr><th>run</th>", f);
	for (i = 0; i < m->nclients; i++) {
		fputs("<th class=\"num\">", f);
		html_esc(f, m->label[i]);
		fputs(" msg/s</th>", f);
	}
	fputs("<th class=\"num\">sent</th><th class=\"num\">received</th><th class=\"num\">longest</th><th class=\"num\">total msg/s</th></tr>\n",
	      f);
	for (k = 0; k < m->nruns; k++) {
		const struct clients_run *cr = &m->runs[k];

		fprintf(f,
			"<tr class=\"%s\" id=\"clients-run%d\"><td class=\"num\"><b>%d</b>%s</td>",
			!cr->ok	       ? "failed" :
			run_slow(s, k) ? "slow" :
					 "",
			cr->run, cr->run,
			run_slow(s, k) ? " <span class=\"tag\">slow</span>" :
					 "");
		for (i = 0; i < m->nclients; i++) {
			const struct result_run *r = cr->client[i];

			fprintf(f, "<td class=\"num\">%s%s</td>",
				r->ok ? fmt_rate(b, sizeof(b), r->throughput) :
					"failed",
				i == cr->slowest ? " ⏱" : "");
		}
		fprintf(f,
			"<td class=\"num\">%llu</td><td class=\"num\">%llu</td><td class=\"num\">%.3f s</td><td class=\"num\"><b>%s</b></td></tr>\n",
			(unsigned long long)cr->sent,
			(unsigned long long)cr->received, cr->elapsed_s,
			fmt_rate(b, sizeof(b), cr->throughput));
	}
	fputs("</table>\n<p class=\"note\">Each client's throughput on its own clock; a run's is its clients' messages over the longest client's time (⏱), never a difference of two hosts' clocks.</p>\n",
	      f);
}

/* One host's bars of run cr, labelled by the host; nothing if no budget. */
static void host_row(FILE *f, const struct clients_run *cr, const json_t *k,
		     const char *role, const char *name, int row)
{
	struct host_budget hb;
	const struct ks_budget *b = &hb.budget;
	struct budget_bars bb = { .cpu_unit = "s", .thr_unit = "thread-s" };
	char wall[32];
	int l;

	view_host_budget(k, &hb);
	if (!hb.bv.valid)
		return;
	for (l = 0; l < KB_NR_CPU_LINES; l++)
		bb.cpu[l] = (double)b->cpus.line[l];
	memcpy(bb.thr, hb.bv.thr, sizeof(bb.thr));
	bb.cpu_total = (double)b->cpus.supply_ns;
	bb.thr_total = (double)b->subjects.total_ns;
	fmt_ns_spaced(wall, sizeof(wall), (double)b->wall_ns);
	snprintf(bb.cpu_whole, sizeof(bb.cpu_whole), "%llu CPUs × %s",
		 (unsigned long long)b->cpus.ncpus, wall);
	snprintf(bb.thr_whole, sizeof(bb.thr_whole), "%llu threads × %s",
		 (unsigned long long)b->subjects.threads, wall);
	fprintf(f,
		"<tr class=\"budget-run host\"><td class=\"num\"><b>%d</b><br/><span class=\"small host-label\">%s ",
		cr->run, role);
	html_esc(f, name);
	fputs("</span></td><td>", f);
	/* Ids unique on the page: group -1 is no file's group. */
	budget_bars_svg(f, &bb, -1, cr->run * 100 + row);
	fputs("</td><td class=\"small\">", f);
	html_esc(f, bb.cpu_whole);
	fputs("; ", f);
	html_esc(f, bb.thr_whole);
	fputs("</td></tr>\n", f);
}

static void budgets(FILE *f, const struct clients_merge *m)
{
	size_t i, k;

	fputs("<h3>Where the time went, every host</h3>\n<p class=\"note\">Per run, each host's time budget: the server's host once (chat_s sent every client the same record), then the host of each client that traced itself. "
	      "<b>CPUs</b>: all CPUs' time by what ran on them; <b>threads</b>: that host's benchmark threads' time. Hover over a segment for its figures.</p>\n",
	      f);
	fputs("<table class=\"runs budget clients\">\n<tr><th>run, host</th><th>bars</th><th>whole</th></tr>\n",
	      f);
	for (k = 0; k < m->nruns; k++) {
		const struct clients_run *cr = &m->runs[k];

		host_row(f, cr, cr->server_kernel, "server's host",
			 *m->server_name ? m->server_name : "?", 0);
		for (i = 0; i < m->nclients; i++)
			host_row(f, cr,
				 json_object_get(cr->client[i]->json, "kernel"),
				 "client's host", m->label[i], (int)i + 1);
	}
	fputs("</table>\n", f);
}

void clients_section(FILE *f, const struct clients_merge *m,
		     const struct series *s)
{
	bool server = false;
	size_t i, k;

	for (k = 0; k < m->nruns; k++)
		server |= m->runs[k].server_kernel != NULL;
	fprintf(f,
		"<section class=\"clients\" id=\"clients\">\n<h2>One run's %zu clients, merged</h2>\n<p class=\"meta\">chat_s --clients %zu released the clients' runs together (groups ",
		m->nclients, m->nclients);
	for (k = 0; k < m->nruns; k++) {
		fputs(k ? ", " : "", f);
		html_esc(f, m->runs[k].group);
	}
	fputs("); clients: ", f);
	for (i = 0; i < m->nclients; i++) {
		fputs(i ? ", " : "", f);
		html_esc(f, m->label[i]);
	}
	fputs("; server's host: ", f);
	html_esc(f, *m->server_name ? m->server_name : "?");
	fputs(".</p>\n", f);
	verdict(f, s, server);
	runs_table(f, m, s);
	budgets(f, m);
	fputs("</section>\n", f);
}
