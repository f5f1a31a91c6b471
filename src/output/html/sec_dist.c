// SPDX-License-Identifier: GPL-2.0
/*
 * The distributions behind the percentiles: message latency, run-queue
 * latency per thread role and socket queue depth, normal runs against
 * slow ones on the kernel's log-linear scale, each as shares of its
 * samples so that a few slow runs compare with many normal ones.  Bins
 * are coarser when samples are few: fine bins of a few samples draw
 * noise, not a shape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg.h"
#include "output/html/view.h"
#include "util/roles.h"
#include "util/fmt.h"

#define DIST_PER_OCTAVE	4	/* histogram bins per octave, at most */
#define DIST_NR_BINS	(64 * DIST_PER_OCTAVE)
#define DIST_FINE_MIN	5000	/* fewer samples: 2 bins per octave */

enum dist_unit { UNIT_NS, UNIT_BYTES };

/* One chart of the section: its text, and where its histogram is in a run. */
struct dist_kind {
	const char *title;
	const char *what;	/* what one sample is */
	enum dist_unit unit;
	const char *role;	/* kernel.roles.ROLE.rq_latency */
	const char *side;	/* kernel.sockets.SIDE.rq_bytes */
};

/* The histogram object of a run for chart kind k. */
static const json_t *dist_hist(const struct run_view *rv,
			       const struct dist_kind *k)
{
	if (k->role)
		return json_object_get(json_object_get(json_object_get(
			rv->kernel, "roles"), k->role), "rq_latency");
	if (k->side)
		return json_object_get(json_object_get(json_object_get(
			rv->kernel, "sockets"), k->side), "rq_bytes");
	return json_object_get(rv->r->json, "latency");
}

#define DC_W	360.0
#define DC_H	200.0
#define DC_L	44.0
#define DC_T	36.0
#define DC_B	38.0

static const char *fmt_unit(char *b, size_t n, double v, enum dist_unit u)
{
	return u == UNIT_NS ? fmt_ns_spaced(b, n, v) : fmt_bytes(b, n, v);
}

/* A share of the samples as a tick: "5 %". */
static const char *share_tick(char *b, size_t n, double v, double step)
{
	(void)step;
	snprintf(b, n, "%g %%", v);
	return b;
}

static void dist_chart(FILE *f, const struct group_view *v,
		       const struct dist_kind *k)
{
	struct bset set[2] = { { 0 } };	/* normal, slow */
	double *bins = calloc(2 * DIST_NR_BINS, sizeof(*bins));
	double pw = DC_W - DC_L - 8, ph = DC_H - DC_T - DC_B, ymax = 0, dec;
	struct svg_box box = { DC_L, DC_T, pw, ph };
	int bmin = DIST_NR_BINS, bmax = -1, b, s, per_octave;
	char p50[32], p99[32], p99s[32];
	size_t i, j;

	if (!bins)
		return;
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (rv->failed)
			continue;
		bset_add(&set[rv->slow], json_object_get(dist_hist(rv, k),
							 "buckets"));
	}
	/* Few samples in fine bins draw noise, not a shape. */
	per_octave = set[0].total + set[1].total >= DIST_FINE_MIN ?
		     DIST_PER_OCTAVE : DIST_PER_OCTAVE / 2;
	for (s = 0; s < 2; s++) {
		for (j = 0; j < set[s].n; j++) {
			b = ll_bin(set[s].b[j].lo, per_octave);
			bins[s * DIST_NR_BINS + b] += (double)set[s].b[j].count;
			bmin = b < bmin ? b : bmin;
			bmax = b > bmax ? b : bmax;
		}
	}
	fprintf(f, "<svg class=\"dist\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\">",
		DC_W, DC_H);
	fprintf(f, "<text class=\"title\" x=\"0\" y=\"13\">%s</text>", k->title);
	if (bmax < 0) {
		fputs("<text x=\"0\" y=\"40\">no samples</text></svg>", f);
		goto cleanup;
	}
	if (bmax - bmin < 4 * per_octave) {	/* room for an axis label */
		bmin = bmin > per_octave ? bmin - per_octave : 0;
		bmax += per_octave;
	}
	for (s = 0; s < 2; s++)
		for (b = bmin; b <= bmax && set[s].total; b++) {
			double pct = bins[s * DIST_NR_BINS + b] * 100 /
				     (double)set[s].total;

			ymax = pct > ymax ? pct : ymax;
		}
	ymax = ymax > 0 ? ymax * 1.1 : 1;
	fmt_unit(p50, sizeof(p50), (double)bset_pct(&set[0], 50), k->unit);
	fmt_unit(p99, sizeof(p99), (double)bset_pct(&set[0], 99), k->unit);
	fmt_unit(p99s, sizeof(p99s), (double)bset_pct(&set[1], 99), k->unit);
	fputs("<text x=\"0\" y=\"28\">", f);
	if (set[0].total)
		fprintf(f, "%s: p50 %s, p99 %s",
			v->nslow ? "normal" : "all runs", p50, p99);
	if (set[1].total)
		fprintf(f, "%s<tspan style=\"fill:" C_SLOW ";font-weight:700\">slow: p99 %s</tspan>",
			set[0].total ? "; " : "", p99s);
	fputs("</text>", f);
	/* y: share of the samples, in per cent. */
	svg_y_grid(f, &box, 4, ymax, nice_step(ymax, 3), share_tick);
	if (set[0].total)
		svg_hist_path(f, "dnorm", &box, bins + bmin, bmax - bmin + 1,
			      (double)set[0].total, ymax);
	if (set[1].total)
		svg_hist_path(f, "dslow", &box, bins + DIST_NR_BINS + bmin,
			      bmax - bmin + 1, (double)set[1].total, ymax);
	for (dec = 1; dec < 1e13; dec *= 10) {
		double p = ll_pos(dec, per_octave), x;
		char a[32];

		if (p < bmin || p > bmax + 1)
			continue;
		x = DC_L + (p - bmin) / (bmax - bmin + 1) * pw;
		fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			x, x, DC_T + ph, DC_T + ph + 4, x, DC_T + ph + 16,
			fmt_decade(a, sizeof(a), dec, k->unit == UNIT_BYTES));
	}
	svg_axis_line(f, DC_L, DC_W - 8, DC_T + ph);
	fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" class=\"small\">%s</text></svg>",
		DC_L + pw / 2, DC_H - 3, k->what);
cleanup:
	bset_free(&set[0]);
	bset_free(&set[1]);
	free(bins);
}

void dist_section(FILE *f, const struct group_view *v)
{
	struct dist_kind kinds[CB_NR_ROLES + 3];
	char titles[CB_NR_ROLES][96];
	size_t i, n = 0;

	memset(kinds, 0, sizeof(kinds));
	kinds[n].title = "Message latency";
	kinds[n++].what = "sender's send to receiver's recv (log scale)";
	for (i = 0; i < CB_NR_ROLES; i++, n++) {
		snprintf(titles[i], sizeof(titles[i]),
			 "Run-queue latency: %s (%s)", role_table[i].name,
			 role_table[i].words);
		kinds[n].title = titles[i];
		kinds[n].what = "wakeup to running on a CPU (log scale)";
		kinds[n].role = role_table[i].name;
	}
	for (i = 0; i < 2; i++, n++) {
		kinds[n].title = i ? "Socket receive queue: server" :
				     "Socket receive queue: client";
		kinds[n].what = "bytes queued when data arrives (log scale)";
		kinds[n].unit = UNIT_BYTES;
		kinds[n].side = i ? "server" : "client";
	}
	fputs("<h3>Distributions</h3>\n<p class=\"note\">Share of the samples in each bucket (per cent; x on a log scale), all runs merged", f);
	if (v->nslow)
		fputs(": <span class=\"key\" style=\"background:" C_NORMAL "\"></span>normal runs "
		      "<span class=\"key\" style=\"background:" C_SLOW "\"></span>slow runs", f);
	fputs(". The run-queue latency of a role: how long its threads waited between being woken and running.</p>\n", f);
	host_note(f, v);
	fputs("<div class=\"charts\">\n", f);
	for (i = 0; i < n; i++) {
		if ((kinds[i].role || kinds[i].side) && !v->ntraced)
			continue;
		fputs("<div>", f);
		dist_chart(f, v, &kinds[i]);
		fputs("</div>\n", f);
	}
	fputs("</div>\n", f);
}
