// SPDX-License-Identifier: GPL-2.0
/*
 * Where the time went, per run: two bars of the time budget, each as
 * wide as its whole.  The CPUs' bar splits CPUs x wall among the
 * benchmark, ksoftirqd, outsiders by scheduling class, softirq,
 * interrupts, steal, idle and offline; the threads' bar splits the
 * benchmark threads' time (threads x wall) into on a CPU, waiting (by who
 * held the CPU), blocked (by reason) and gone.  Every line keeps its
 * colour on every run and in both bars where they share a meaning: the
 * benchmark grey, outsiders and the stops that only a disturbance makes
 * (ptrace, freezer, job control) saturated, the sleeps of a normal run
 * pale blue, idle white with an outline, offline dark and hatched.  In a
 * slow run the lines that grew per message against the reference are
 * outlined and labelled with their growth, the account's unexplained
 * share beside them: a reader sees which slice of time the loss came
 * from without reading a figure.  Shares are of each bar's own whole, so
 * a long run and a short one compare line by line.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/view.h"
#include "output/html/view_budget.h"
#include "util/fmt.h"

#define BG_L	58.0	/* left of the bars: their names */
#define BG_W	620.0	/* a bar's width: its whole */
#define BG_H	17.0
#define BG_GAP	7.0
#define BG_SVG_W	(BG_L + BG_W + 4)
#define BG_SVG_H	(2 * BG_H + BG_GAP + 6)
#define BG_OUT	13.0	/* a slow run's label rows, above and below */
#define BG_NOTES	3	/* growths named beside a slow run's bars */
#define BG_MAJOR	0.1	/* of a bar's growth: outlined thick */

/* How a segment is painted: a fill, hatched over, outlined. */
struct paint {
	const char *fill;
	const char *hatch;	/* stripes over the fill; NULL: none */
	bool outline;		/* a near-white fill needs an edge */
};

static const struct paint cpu_paint[KB_NR_CPU_LINES] = {
	[KB_CPU_BENCH] = { .fill = "#a3a3a3" },
	[KB_CPU_KSOFTIRQD] = { .fill = "#009E73" },
	[KB_CPU_FAIR] = { .fill = "#E69F00" },
	[KB_CPU_RT] = { .fill = "#E41A1C" },
	[KB_CPU_DL] = { .fill = "#6A3D9A" },
	[KB_CPU_IDLECLS] = { .fill = "#B8860B" },
	[KB_CPU_EXT] = { .fill = "#8C564B" },
	[KB_CPU_SOFTIRQ] = { .fill = "#86D4BD" },
	[KB_CPU_IRQ] = { .fill = "#F0E442" },
	[KB_CPU_STEAL] = { .fill = "#56B4E9" },
	[KB_CPU_IDLE] = { .fill = "#fbfbfb", .outline = true },
	[KB_CPU_OFFLINE] = { .fill = "#3a3a3a", .hatch = "#8a8a8a" },
	[KB_CPU_UNACCOUNTED] = { .fill = "#e6dcc6" },
};

static const struct paint thr_paint[BT_NR] = {
	[BT_ONCPU] = { .fill = "#a3a3a3" },
	[BT_WAIT_OWN] = { .fill = "#d2d2d2" },
	[BT_WAIT_KSOFTIRQD] = { .fill = "#009E73" },
	[BT_WAIT_IDLE] = { .fill = "#fbfbfb", .outline = true },
	[BT_WAIT_OUTSIDER] = { .fill = "#E69F00" },
	[BT_WAIT_KERNEL] = { .fill = "#86D4BD" },
	[BT_WAIT_THROTTLED] = { .fill = "#CC79A7" },
	[BT_WAIT_UNKNOWN] = { .fill = "#e6dcc6" },
	[BT_BLOCKED + CB_BLOCK_SOCK_RECV] = { .fill = "#c6dbef" },
	[BT_BLOCKED + CB_BLOCK_SOCK_SEND] = { .fill = "#9ecae1" },
	[BT_BLOCKED + CB_BLOCK_POLL] = { .fill = "#e3edf8" },
	[BT_BLOCKED + CB_BLOCK_LOCK] = { .fill = "#6baed6" },
	[BT_BLOCKED + CB_BLOCK_SLEEP] = { .fill = "#d9d4ea" },
	[BT_BLOCKED + CB_BLOCK_UNINT] = { .fill = "#8C564B" },
	[BT_BLOCKED + CB_BLOCK_JOBCTL] = { .fill = "#6A3D9A" },
	[BT_BLOCKED + CB_BLOCK_PTRACE] = { .fill = "#C2185B" },
	[BT_BLOCKED + CB_BLOCK_FROZEN] = { .fill = "#0E7C86" },
	[BT_BLOCKED + CB_BLOCK_OTHER] = { .fill = "#eef1f5" },
	[BT_GONE] = { .fill = "#f4f4f4", .hatch = "#c9c9c9",
		      .outline = true },
};

/* One bar to draw: its segments' values, names, words and growths. */
struct bar {
	const char *kind;	/* "cpu", "threads" */
	const char *label;
	int n;
	const double *ns;
	const double *grown;	/* ns per message; NULL: not a slow run's */
	const struct paint *paint;
	const char *(*name)(int seg, char *buf, size_t len);
	const char *(*words)(int seg);
	const char *unit;	/* of a tooltip's seconds: "s", "thread-s" */
	double total;		/* the budget's whole, for a tooltip's share */
	char whole[80];		/* the same in words */
	double span;		/* what the full width stands for; 0: whole */
};

static const char *cpu_name(int l, char *buf, size_t len)
{
	snprintf(buf, len, "%s", kb_cpu_names[l]);
	return buf;
}

static const char *cpu_words(int l)
{
	return kb_cpu_words[l];
}

/* Seconds for a tooltip: "7.47 s", "4.4 ms", "1234 s". */
static const char *secs(char *b, size_t n, double ns)
{
	if (ns < 9.995e9)
		return fmt_ns_spaced(b, n, ns);
	snprintf(b, n, ns < 99.95e9 ? "%.1f s" : "%.0f s", ns / 1e9);
	return b;
}

/* A growth per message: "+6.2 µs", "−35 ns". */
static const char *growth(char *b, size_t n, double ns)
{
	char a[32];

	snprintf(b, n, "%s%s", ns < 0 ? "−" : "+",
		 fmt_ns_spaced(a, sizeof(a), fabs(ns)));
	return b;
}

static bool grew(const struct bar *b, int s)
{
	return b->grown && b->grown[s] > 0 && b->ns[s] > 0;
}

/*
 * Whether line s carries a good part of its bar's growth.  Every line
 * that grew is outlined, but in a run that lost half its throughput
 * nearly every line grows a little per message, and outlines alike on
 * all of them would single out none.
 */
static bool grew_much(const struct bar *b, int s)
{
	double sum = 0;
	int i;

	if (!grew(b, s))
		return false;
	for (i = 0; i < b->n; i++)
		if (grew(b, i))
			sum += b->grown[i];
	return b->grown[s] >= BG_MAJOR * sum;
}

/*
 * Diagonal stripes over the rectangle (x, y, w, h), each line cut to its
 * sides by hand: a pattern or a clip path would need url(), which the
 * page keeps out so that nothing in it looks like a fetch.
 */
static void hatch(FILE *f, double x, double y, double w, double h,
		  const char *colour)
{
	const double step = 5;
	double a, t0, t1;

	fprintf(f, "<path class=\"hatch\" style=\"stroke:%s\" d=\"", colour);
	for (a = x - h; a < x + w; a += step) {
		t0 = a < x ? x - a : 0;
		t1 = a + h > x + w ? x + w - a : h;
		if (t1 - t0 < 0.5)
			continue;
		fprintf(f, "M%.1f %.1fl%.1f %.1f", a + t0, y + h - t0,
			t1 - t0, t0 - t1);
	}
	fputs("\"/>", f);
}

/* One segment's tooltip: its words, seconds, share and growth. */
static void seg_title(FILE *f, const struct bar *b, int s)
{
	char a[32], g[40];

	fputs("<title>", f);
	html_esc(f, b->words(s));
	fprintf(f, ": %s", secs(a, sizeof(a), b->ns[s]));
	if (strcmp(b->unit, "s"))
		fprintf(f, " (%s)", b->unit);
	fprintf(f, ", %.1f %% of ", 100 * b->ns[s] / b->total);
	html_esc(f, b->whole);
	if (b->grown && b->grown[s] != 0)
		fprintf(f, "; %s per message against the reference",
			growth(g, sizeof(g), b->grown[s]));
	fputs("</title>", f);
}

/*
 * The growth of line s of a bar spanning x0 to x1 at y, as a label: inside
 * the segment when it fits, else on the line out_y (above or below the
 * bar), right of the last label there (*at), with a leader to its segment.
 */
static void grown_label(FILE *f, const struct bar *b, int s, double x0,
			double x1, double y, double out_y, double *at)
{
	char g[40], t[48];
	double w, cx = (x0 + x1) / 2;

	snprintf(t, sizeof(t), "%s/msg", growth(g, sizeof(g), b->grown[s]));
	/* Most of the text is digits and ASCII: 6 units each at 10 units. */
	w = 6.0 * (double)strlen(t) - 4;
	if (w + 8 <= x1 - x0) {
		fprintf(f, "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			cx, y + BG_H - 5, t);
		return;
	}
	if (out_y <= 0)
		return;
	if (cx - w / 2 < *at)
		cx = *at + w / 2;
	if (cx + w / 2 > BG_L + BG_W)
		cx = BG_L + BG_W - w / 2;
	if (cx - w / 2 < *at - 0.5)
		return;		/* no room left on the line */
	fprintf(f, "<line class=\"leader\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		(x0 + x1) / 2, out_y < y ? y : y + BG_H, cx,
		out_y < y ? out_y + 2 : out_y - 9);
	fprintf(f, "<text class=\"mark\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
		cx, out_y, t);
	*at = cx + w / 2 + 8;
}

/*
 * A bar at y: each segment as wide as its share of the sum of the bar's
 * positive lines (a negative line, the tracer's error, has no width), its
 * ends rounded once so that the widths add up to the bar.  Then the
 * outlines and labels of the lines that grew, over every fill, so that
 * the next segment does not cover them; out_y is where labels too wide
 * for their segment go (0: nowhere).
 */
static void draw_bar(FILE *f, const struct bar *b, double y, double out_y,
		     int gid, int run)
{
	double whole = 0, sum = 0, x0, x1, at = 0;
	char name[48];
	int s;

	for (s = 0; s < b->n; s++)
		whole += b->ns[s] > 0 ? b->ns[s] : 0;
	if (b->span > whole)
		whole = b->span;
	fprintf(f, "<text class=\"lab\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
		BG_L - 6, y + BG_H - 4, b->label);
	fprintf(f, "<g class=\"bbar %s\" id=\"g%d-budget-run%d-%s\" data-width=\"%.0f\">",
		b->kind, gid, run, b->kind, BG_W);
	for (s = 0; s < b->n; s++) {
		const struct paint *p = &b->paint[s];

		if (b->ns[s] <= 0)
			continue;
		x0 = BG_L + round(sum / whole * BG_W * 10) / 10;
		sum += b->ns[s];
		x1 = BG_L + round(sum / whole * BG_W * 10) / 10;
		fprintf(f, "<rect class=\"bseg%s%s\" data-line=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" style=\"fill:%s%s\">",
			grew(b, s) ? " grown" : "",
			grew_much(b, s) ? " much" : "",
			b->name(s, name, sizeof(name)), x0, y, x1 - x0, BG_H,
			p->fill,
			p->outline ? ";stroke:#9a9a9a;stroke-width:.8" : "");
		seg_title(f, b, s);
		fputs("</rect>", f);
		if (p->hatch && x1 - x0 >= 1)
			hatch(f, x0, y, x1 - x0, BG_H, p->hatch);
	}
	fputs("</g>", f);
	sum = 0;
	for (s = 0; s < b->n; s++) {
		if (b->ns[s] <= 0)
			continue;
		x0 = BG_L + round(sum / whole * BG_W * 10) / 10;
		sum += b->ns[s];
		x1 = BG_L + round(sum / whole * BG_W * 10) / 10;
		if (!grew(b, s))
			continue;
		fprintf(f, "<rect class=\"grown-mark%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\"/>",
			grew_much(b, s) ? " much" : "", x0, y,
			x1 - x0 > 1 ? x1 - x0 : 1, BG_H);
		if (grew_much(b, s))
			grown_label(f, b, s, x0, x1, y, out_y, &at);
	}
}

/* The bars' scale: 0 to 100 % of each bar's whole. */
static void budget_ticks(FILE *f)
{
	int p;

	fprintf(f, "<svg viewBox=\"0 -2 %.0f 16\" width=\"%.0f\" height=\"18\">",
		BG_SVG_W, BG_SVG_W);
	for (p = 0; p <= 100; p += 25)
		fprintf(f, "<text x=\"%.1f\" y=\"11\" text-anchor=\"%s\">%d %%</text>",
			BG_L + p / 100.0 * BG_W,
			p == 0 ? "start" : p == 100 ? "end" : "middle", p);
	fputs("</svg>", f);
}

/* A key: the segment's paint as a small box, then its words. */
static void key(FILE *f, const struct paint *p, const char *words)
{
	fputs("<span class=\"nowrap\">", f);
	if (p->hatch)
		fprintf(f, "<span class=\"key\" style=\"background:repeating-linear-gradient(135deg,%s 0 2px,%s 2px 4px)%s\"></span>",
			p->hatch, p->fill,
			p->outline ? ";outline:1px solid #9a9a9a" : "");
	else
		fprintf(f, "<span class=\"key\" style=\"background:%s%s\"></span>",
			p->fill,
			p->outline ? ";outline:1px solid #9a9a9a" : "");
	html_esc(f, words);
	fputs("</span> ", f);
}

/* The lines some run of the group has time in, and their colours. */
static void legend(FILE *f, const struct group_view *v)
{
	bool cpu[KB_NR_CPU_LINES] = { false }, thr[BT_NR] = { false };
	size_t i;
	int s;

	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (!rv->bv.valid)
			continue;
		for (s = 0; s < KB_NR_CPU_LINES; s++)
			cpu[s] |= rv->budget.cpus.line[s] > 0;
		for (s = 0; s < BT_NR; s++)
			thr[s] |= rv->bv.thr[s] > 0;
	}
	fputs("<p class=\"note budget-key\"><b>CPUs:</b>", f);
	for (s = 0; s < KB_NR_CPU_LINES; s++)
		if (cpu[s])
			key(f, &cpu_paint[s], kb_cpu_words[s]);
	fputs("<br/><b>Benchmark threads:</b>", f);
	for (s = 0; s < BT_NR; s++) {
		char w[96];

		if (!thr[s])
			continue;
		if (s >= BT_BLOCKED && s < BT_GONE)
			snprintf(w, sizeof(w), "blocked: %s", bt_words(s));
		else
			snprintf(w, sizeof(w), "%s", bt_words(s));
		key(f, &thr_paint[s], w);
	}
	fputs("</p>\n", f);
}

/* The lines of a bar that grew most, largest first: "offline +6.2 µs". */
static void top_growths(FILE *f, const struct bar *b)
{
	int idx[(int)BT_NR > (int)KB_NR_CPU_LINES ? (int)BT_NR :
		(int)KB_NR_CPU_LINES];
	int s, i, j, n = 0;
	char g[40];

	for (s = 0; s < b->n; s++)
		if (grew(b, s))
			idx[n++] = s;
	/* Insertion sort, largest first: a handful of lines. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && b->grown[idx[j - 1]] < b->grown[idx[j]];
		     j--) {
			int t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	if (!n) {
		fputs("no line grew", f);
		return;
	}
	for (i = 0; i < n && i < BG_NOTES; i++) {
		fputs(i ? ", " : "", f);
		html_esc(f, b->words(idx[i]));
		fprintf(f, " <b class=\"nowrap\">%s</b>",
			growth(g, sizeof(g), b->grown[idx[i]]));
	}
}

/*
 * Beside the bars: their wholes; a slow run's account in short, by the
 * CPUs' lines, whose growths add up to the CPU time lost per message.
 */
/*
 * The outsiders our threads waited behind (the JSON's budget.outsiders,
 * largest first), those of at least 1 % of the threads' time, three at
 * most: the culprits behind the bar's outsider segment.
 */
static void outsider_note(FILE *f, const json_t *kernel, double thr_total)
{
	const json_t *o = json_object_get(json_object_get(kernel, "budget"),
					  "outsiders"), *e;
	size_t i;
	int shown = 0;
	double pct;

	json_array_foreach(o, i, e) {
		pct = 100 * jnum(e, "wait_ns") / (thr_total > 0 ? thr_total : 1);
		if (pct < 1 || shown >= 3 || !jstr(e, "comm"))
			break;
		fputs(shown ? ", " : "<div class=\"outsiders\">Waited behind ",
		      f);
		html_esc(f, jstr(e, "comm"));
		fprintf(f, " (pid %d, %s) %.0f %%", (int)jnum(e, "pid"),
			jstr(e, "class") ? jstr(e, "class") : "?", pct);
		shown++;
	}
	if (shown)
		fputs(" of the threads' time.</div>", f);
}

static void run_notes(FILE *f, const struct run_view *rv,
		      const json_t *kernel, const struct loss_account *a,
		      const struct bar *cpu, const struct bar *thr)
{
	char x[32];

	fputs("<td class=\"small\">", f);
	html_esc(f, cpu->whole);
	fputs("; ", f);
	html_esc(f, thr->whole);
	if (rv->slow && a && a->valid) {
		fprintf(f, "<div class=\"why\">Lost %s of CPU per message: ",
			fmt_ns_spaced(x, sizeof(x), a->lost_ns));
		top_growths(f, cpu);
		fputs(".", f);
		if (a->unexplained >= 0)
			fprintf(f, " <b class=\"unexplained\">%.0f %% unexplained</b>.",
				100 * a->unexplained);
		fputs("</div>", f);
	} else if (rv->slow && !a) {
		fputs("<div class=\"why\">The loss account is of the other host's budget.</div>",
		      f);
	} else if (rv->slow) {
		fputs("<div class=\"why\">The file has no loss account for this run.</div>",
		      f);
	}
	outsider_note(f, kernel, thr->total);
	fputs("</td>", f);
}

/* The two bars of a budget, as draw_bar and the notes read them. */
static void make_bars(const struct budget_bars *bb, struct bar *cpu,
		      struct bar *thr)
{
	*cpu = (struct bar){ "cpu", "CPUs", KB_NR_CPU_LINES, bb->cpu,
			     bb->cpu_grown, cpu_paint, cpu_name, cpu_words,
			     bb->cpu_unit, bb->cpu_total, "", bb->cpu_span };
	*thr = (struct bar){ "threads", "threads", BT_NR, bb->thr,
			     bb->thr_grown, thr_paint, bt_name, bt_words,
			     bb->thr_unit, bb->thr_total, "", bb->thr_span };
	snprintf(cpu->whole, sizeof(cpu->whole), "%s", bb->cpu_whole);
	snprintf(thr->whole, sizeof(thr->whole), "%s", bb->thr_whole);
}

void budget_bars_svg(FILE *f, const struct budget_bars *bb, int gid,
		     int run)
{
	bool marked = bb->cpu_grown || bb->thr_grown;
	double top = marked ? BG_OUT : 0, h = BG_SVG_H + 2 * top;
	struct bar cpu, thr;

	make_bars(bb, &cpu, &thr);
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\">",
		BG_SVG_W, h, BG_SVG_W, h);
	draw_bar(f, &cpu, top + 3, marked ? top - 3 : 0, gid, run);
	draw_bar(f, &thr, top + 3 + BG_H + BG_GAP,
		 marked ? top + 3 + 2 * BG_H + BG_GAP + 11 : 0, gid, run);
	fputs("</svg>", f);
}

/* The host of a row of bars, under its run's number; "" for the client's. */
static void host_label(FILE *f, const struct run_view *rv, bool server)
{
	if (!server && !rv->server_kernel)
		return;
	fputs("<br/><span class=\"small\">", f);
	if (server) {
		fputs("server's host", f);
		if (*rv->server_name) {
			fputs(" ", f);
			html_esc(f, rv->server_name);
		}
	} else {
		fputs("client's host", f);
	}
	fputs("</span>", f);
}

/*
 * The bars of one host's budget k (bars bv) of run rv, with the growths
 * of the run's loss account a when it is this host's (else NULL).
 */
static void run_row(FILE *f, const struct group_view *v,
		    const struct run_view *rv, const struct ks_budget *k,
		    const struct run_budget *bv,
		    const struct loss_account *a, bool server)
{
	double cpu_grown[KB_NR_CPU_LINES];
	bool slow = rv->slow && a && a->valid;
	struct budget_bars bb = {
		.cpu_grown = slow ? cpu_grown : NULL,
		.thr_grown = slow ? bv->thr_grown : NULL,
		.cpu_total = (double)k->cpus.supply_ns,
		.thr_total = (double)k->subjects.total_ns,
		.cpu_unit = "s", .thr_unit = "thread-s",
	};
	struct bar cpu, thr;
	char wall[32];
	int l;

	for (l = 0; l < KB_NR_CPU_LINES; l++) {
		bb.cpu[l] = (double)k->cpus.line[l];
		cpu_grown[l] = a ? a->grown[LL_CPU(l)] : 0;
	}
	memcpy(bb.thr, bv->thr, sizeof(bb.thr));
	secs(wall, sizeof(wall), (double)k->wall_ns);
	snprintf(bb.cpu_whole, sizeof(bb.cpu_whole), "%llu CPU%s × %s",
		 (unsigned long long)k->cpus.ncpus,
		 k->cpus.ncpus == 1 ? "" : "s", wall);
	snprintf(bb.thr_whole, sizeof(bb.thr_whole), "%llu thread%s × %s",
		 (unsigned long long)k->subjects.threads,
		 k->subjects.threads == 1 ? "" : "s", wall);
	fprintf(f, "<tr class=\"budget-run%s\" id=\"g%d-budget-run%d%s\"><td class=\"num\"><b>%d</b>",
		rv->slow ? " slow" : "", v->id, rv->r->run,
		server && rv->server_kernel ? "-server" : "", rv->r->run);
	host_label(f, rv, server);
	fputs("</td><td>", f);
	/* The other host's bars of one run get marks of their own. */
	budget_bars_svg(f, &bb, v->id,
			server && rv->server_kernel ? -rv->r->run : rv->r->run);
	fputs("</td>", f);
	/* The notes name the grown lines as the bars' tooltips do. */
	make_bars(&bb, &cpu, &thr);
	run_notes(f, rv, server && rv->server_kernel ? rv->server_kernel :
		  rv->kernel, a, &cpu, &thr);
	fputs("</tr>\n", f);
}

void host_note(FILE *f, const struct group_view *v)
{
	size_t i, only = 0, both = 0;

	if (!v->nserver)
		return;
	for (i = 0; i < v->n; i++) {
		only += v->runs[i].kernel_is_server;
		both += v->runs[i].server_kernel != NULL;
	}
	fputs("<p class=\"note host\">Hosts: ", f);
	if (only && only == v->ntraced)
		fputs("the client was not traced: the figures are of the server's host",
		      f);
	else if (only)
		fprintf(f, "%zu run%s untraced on the client: %s figures are of the server's host",
			only, only == 1 ? "" : "s",
			only == 1 ? "its" : "their");
	if (only && both)
		fputs("; ", f);
	if (both)
		fprintf(f, "%zu run%s traced on both hosts: figures are of the client's host, the budget shows both",
			both, both == 1 ? "" : "s");
	if (*v->server_name) {
		fputs(" (the server's host is ", f);
		html_esc(f, v->server_name);
		fputs(")", f);
	}
	fputs(".</p>\n", f);
}

void budget_section(FILE *f, const struct group_view *v)
{
	size_t i;

	if (!v->nbudget)
		return;
	fputs("<h3>Where the time went</h3>\n<p class=\"note\">Every second of the run, per run, each bar as wide as its whole. "
	      "<b>CPUs</b>: all CPUs' time (CPUs × wall) by what ran on them. "
	      "<b>Threads</b>: the benchmark threads' time (threads × wall): on a CPU, waiting for one (by who held it), blocked (by why), or gone (ended before the run did). "
	      "In a slow run, the lines that grew per message against the reference are outlined"
	      "<span class=\"key grown-key\"></span>, thickly"
	      "<span class=\"key grown-key much\"></span> and with their growth when they hold a tenth of their bar's or more; "
	      "beside the bars, what the CPU time lost per message went to and the share of the loss no cause explains. "
	      "Hover over a segment for its figures.</p>\n",
	      f);
	host_note(f, v);
	legend(f, v);
	fputs("<table class=\"runs budget\">\n<tr><th>run</th><th>", f);
	budget_ticks(f);
	fputs("</th><th>whole, and a slow run's account</th></tr>\n", f);
	for (i = 0; i < v->n; i++) {
		const struct run_view *rv = &v->runs[i];

		if (rv->server.bv.valid)
			run_row(f, v, rv, &rv->server.budget, &rv->server.bv,
				rv->server.has_loss ? &rv->acct : NULL, true);
		if (rv->bv.valid) {
			run_row(f, v, rv, &rv->budget, &rv->bv,
				rv->server.has_loss ? NULL : &rv->acct,
				rv->kernel_is_server);
			continue;
		}
		fprintf(f, "<tr class=\"budget-run\" id=\"g%d-budget-run%d\"><td class=\"num\"><b>%d</b></td><td class=\"small\" colspan=\"2\">%s</td></tr>\n",
			v->id, rv->r->run, rv->r->run,
			rv->failed ? "failed: no budget" :
			!rv->kernel ? "untraced: no budget" :
				      "no time budget in the file (written before it, or it did not add up)");
	}
	fputs("</table>\n", f);
}
