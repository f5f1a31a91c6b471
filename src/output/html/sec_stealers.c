// SPDX-License-Identifier: GPL-2.0
/*
 * Who took the CPU while benchmark threads waited for one, per run: a
 * stacked bar of CPU time per task, the benchmark's own threads in the
 * colours of their roles and every other task in one colour across all
 * the runs, so that the same intruder is recognised from run to run.
 */
#include <stdio.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"
#include "util/roles.h"
#include "util/fmt.h"

#define MAX_STEALERS	6	/* tasks named per run; the rest summed */

/*
 * The colour of stealer s: its role's for a benchmark thread, its rank's
 * among the outsiders tc[0..n) for another task, grey past the palette.
 */
static const char *task_colour(const struct outsider *tc, size_t n,
			       const json_t *s)
{
	const char *comm = jstr(s, "comm");
	size_t i;

	if (json_is_true(json_object_get(s, "is_benchmark"))) {
		const char *role = jstr(s, "role");
		int r = role ? role_by_name(role) : -1;

		return role_table[r >= 0 ? r : CB_ROLE_OTHER].colour;
	}
	for (i = 0; i < n && i < SVG_NR_CAT_COLOURS; i++)
		if (comm && !strcmp(tc[i].comm, comm))
			return svg_cat_colours[i];
	return "#8c8c8c";
}

#define ST_W	440.0

/* CPU time in ns as a tick in seconds: "0.5 s". */
static const char *seconds_tick(char *b, size_t n, double v, double step)
{
	(void)step;
	snprintf(b, n, "%g s", v / 1e9);
	return b;
}

void stealers_section(FILE *f, const struct group_view *v)
{
	struct outsider tc[64];
	size_t ntc, i, k;
	double max = 0;
	char a[32];

	if (!v->ntraced)
		return;
	ntc = rank_outsiders(v, tc, sizeof(tc) / sizeof(tc[0]));
	for (i = 0; i < v->n; i++) {
		const json_t *st = json_object_get(v->runs[i].kernel,
						   "stealers"), *s;
		double sum = 0;

		json_array_foreach(st, k, s)
			sum += (double)ju64(json_object_get(s, "ns"));
		if (sum > max)
			max = sum;
	}
	fputs("<h3>Who took the CPU from the benchmark</h3>\n<p class=\"note\">Per run, the CPU time each task used while benchmark threads were runnable and waiting for a CPU, in seconds. "
	      "Grey: the benchmark's own threads (they queue behind each other); colours: other tasks, the same task in the same colour in every run.</p>\n",
	      f);
	host_note(f, v);
	if (max <= 0) {
		fputs("<p class=\"note\">No task took CPU time from a waiting benchmark thread.</p>\n",
		      f);
		return;
	}
	max *= 1.02;
	fputs("<table class=\"runs\">\n<tr><th>run</th><th>", f);
	svg_tick_row(f, ST_W + 20, ST_W, max, nice_step(max / 1e9, 4) * 1e9,
		     max, seconds_tick);
	fputs("</th><th>top tasks (CPU time taken)</th></tr>\n", f);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];
		const json_t *st = json_object_get(rv->kernel, "stealers"), *s;
		double x = 0, w, rest = 0;
		size_t shown = 0;

		fprintf(f, "<tr class=\"%s\"><td class=\"num\"><b>%d</b></td><td>",
			rv->slow ? "slow" : "", rv->r->run);
		svg_bar_track(f, ST_W + 20, ST_W, 20);
		json_array_foreach(st, k, s) {
			double ns = (double)ju64(json_object_get(s, "ns"));

			if (k >= MAX_STEALERS) {
				rest += ns;
				continue;
			}
			w = ns / max * ST_W;
			fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"16\" style=\"fill:%s;stroke:#fff;stroke-width:.6\"><title>",
				x, w, task_colour(tc, ntc, s));
			html_esc(f, jstr(s, "comm"));
			fprintf(f, ": %.3f s</title></rect>", ns / 1e9);
			x += w;
		}
		if (rest > 0)
			fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"16\" style=\"fill:#eeeeee;stroke:#fff;stroke-width:.6\"/>",
				x, rest / max * ST_W);
		fputs("</svg></td><td class=\"small\">", f);
		if (!rv->kernel)
			fputs("untraced", f);
		json_array_foreach(st, k, s) {
			bool bench = json_is_true(json_object_get(s, "is_benchmark"));

			if (k >= 4)
				break;
			fprintf(f, "%s<span class=\"key\" style=\"background:%s;margin-left:%s\"></span>",
				shown ? " · " : "", task_colour(tc, ntc, s),
				shown ? "2px" : "0");
			if (bench) {
				html_esc(f, jstr(s, "comm"));
				fputs(" (benchmark)", f);
			} else {
				fputs("<b style=\"color:#1d1d1f\">", f);
				html_esc(f, jstr(s, "comm"));
				fprintf(f, "</b> (pid %d)",
					(int)json_integer_value(json_object_get(s, "pid")));
			}
			fprintf(f, " %s", fmt_ns_spaced(a, sizeof(a),
				(double)ju64(json_object_get(s, "ns"))));
			shown++;
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
