// SPDX-License-Identifier: GPL-2.0
/*
 * Several result files side by side: a row per file and sweep point with
 * its throughput as a bar, its ratio to the first file's at the same
 * point, its slow runs and p99s, so that a before/after or a kernel A/B
 * reads in one table before the detail of each file below it.
 */
#include <stdbool.h>
#include <stdio.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "results/results.h"
#include "util/fmt.h"

void compare_section(FILE *f, const struct result_file *files,
		     size_t nfiles, char **labels)
{
	double max = 0, avg, mn, mx, bavg, bmin, bmax;
	bool sweep = false;
	size_t i, j, k;
	char a[32];
	int n, bn;

	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].nr_groups; j++) {
			results_throughput(&files[i].groups[j], &avg, &mn, &mx,
					   &n);
			max = n > 0 && avg > max ? avg : max;
			sweep |= files[i].groups[j].sweep != NULL;
		}
	max = max > 0 ? max : 1;
	fprintf(f, "<h2>Comparison</h2>\n<p class=\"note\">One row per file%s; throughput in messages per second from each summary; "
		"ratio: average against the first file's%s; p99 columns: median over the runs.</p>\n",
		sweep ? " and sweep point" : "", sweep ? " at the same point" : "");
	fprintf(f, "<table class=\"cmp\">\n<tr><th>file</th>%s<th class=\"num\">runs</th><th>avg msg/s</th><th class=\"num\">min</th><th class=\"num\">max</th>"
		"<th class=\"num\">ratio</th><th class=\"num\">slow</th><th class=\"num\">msg p99</th><th class=\"num\">rq p99</th><th>kernel</th></tr>\n",
		sweep ? "<th>sweep</th>" : "");
	for (i = 0; i < nfiles; i++) {
		for (j = 0; j < files[i].nr_groups; j++) {
			const struct result_group *g = &files[i].groups[j];
			const struct result_group *bg =
				results_find_group(&files[0], g->sweep);
			const char *kernel = g->summary.present &&
					     g->summary.kernel_release ?
					     g->summary.kernel_release :
					     files[i].kernel_release;
			double lat, rq;
			size_t nslow = 0;

			for (k = 0; k < g->nr_runs; k++)
				nslow += json_is_true(json_object_get(
					g->runs[k].json, "slow"));
			results_throughput(g, &avg, &mn, &mx, &n);
			fputs("<tr class=\"cmp-row\"><td>", f);
			html_esc(f, labels[i]);
			fputs("</td>", f);
			if (sweep) {
				fputs("<td>", f);
				html_esc(f, *g->sweep_label ? g->sweep_label :
							   "–");
				fputs("</td>", f);
			}
			fprintf(f, "<td class=\"num\">%d</td>", n);
			if (n > 0) {
				fputs("<td>", f);
				svg_bar_track(f, 230, 150, 16);
				fprintf(f, "<rect style=\"fill:" C_NORMAL "\" x=\"0\" y=\"2\" width=\"%.1f\" height=\"12\"/><text x=\"156\" y=\"12.5\">%.0f</text></svg></td>"
					"<td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>",
					avg / max * 150, avg, mn, mx);
			} else {
				fputs("<td>–</td><td class=\"num\">–</td><td class=\"num\">–</td>",
				      f);
			}
			if (bg) {
				results_throughput(bg, &bavg, &bmin, &bmax, &bn);
				if (bn > 0 && bavg > 0 && n > 0)
					fprintf(f, "<td class=\"num\">%.3f</td>",
						avg / bavg);
				else
					fputs("<td class=\"num\">–</td>", f);
			} else {
				fputs("<td class=\"num\">–</td>", f);
			}
			fprintf(f, "<td class=\"num\">%s%zu%s</td>",
				nslow ? "<b style=\"color:" C_SLOW "\">" : "",
				nslow, nslow ? "</b>" : "");
			if (results_median(g, results_run_lat_p99, &lat))
				fprintf(f, "<td class=\"num\">%s</td>",
					fmt_ns_spaced(a, sizeof(a), lat));
			else
				fputs("<td class=\"num\">–</td>", f);
			if (results_median(g, results_run_rq_p99, &rq))
				fprintf(f, "<td class=\"num\">%s</td>",
					fmt_ns_spaced(a, sizeof(a), rq));
			else
				fputs("<td class=\"num\">–</td>", f);
			fputs("<td>", f);
			html_esc(f, kernel ? kernel : "–");
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}
