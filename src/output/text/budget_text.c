// SPDX-License-Identifier: GPL-2.0
/*
 * The time budget as text: for each role, its threads' time in percent of
 * threads x wall, on CPU, waiting to run (with what held the CPUs) and
 * blocked (with why), and gone (threads that ended early); then the CPUs'
 * time.  Compact by default, one line per role with the largest part of
 * each; verbose shows every part that is not zero, wrapped.  Lines stay
 * under 100 columns.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/owait_record.h"
#include "tracer/budget.h"
#include "util/roles.h"
#include "output/text/budget_text.h"

struct part {
	const char *name;
	uint64_t ns;
};

static int by_ns(const void *x, const void *y)
{
	uint64_t a = ((const struct part *)x)->ns;
	uint64_t b = ((const struct part *)y)->ns;

	return (a < b) - (a > b);
}

/* Text under 100 columns: words wrap to an indented next line. */
struct col {
	FILE *f;
	int col;
};

static void put(struct col *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct col *c, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (c->col + n > 98 && c->col > 16) {
		fprintf(c->f, "\n%16s", "");
		c->col = 16;
		/* A wrapped part starts at its word, not its separator. */
		if (buf[0] == ' ')
			memmove(buf, buf + 1, strlen(buf));
	}
	c->col += fprintf(c->f, "%s", buf);
}

/* " (name N.N, ...)" for the largest parts of at least 0.1 % of whole. */
static void print_parts(struct col *c, struct part *p, int n, int max,
			double whole)
{
	int i, shown = 0;

	qsort(p, (size_t)n, sizeof(*p), by_ns);
	for (i = 0; i < n && shown < max; i++) {
		if (100.0 * p[i].ns / whole < 0.1)
			break;
		put(c, "%s%s %.1f%s", shown ? " " : " (", p[i].name,
		    100.0 * p[i].ns / whole,
		    i + 1 < n && shown + 1 < max &&
				    100.0 * p[i + 1].ns / whole >= 0.1 ?
			    "," : ")");
		shown++;
	}
}

static void print_role(FILE *f, const char *name, const struct kb_threads *t,
		       bool verbose)
{
	struct part p[KB_NR_HOLDERS + CB_NR_BLOCKS + 1];
	double whole = t->total_ns ? (double)t->total_ns : 1;
	int max = verbose ? 99 : 1, i, n = 0;
	struct col c = { f, 0 };

	put(&c, "  %-9s %4" PRIu64 ": cpu %.1f", name, t->threads,
	    100.0 * t->oncpu_ns / whole);
	put(&c, " | wait %.1f", 100.0 * t->wait_ns / whole);
	for (i = 0; i < KB_NR_HOLDERS; i++)
		p[n++] = (struct part){ kb_holder_name(i), t->wait_by[i] };
	p[n++] = (struct part){ "unknown", t->wait_unknown_ns };
	print_parts(&c, p, n, max, whole);
	put(&c, " | blocked %.1f", 100.0 * t->blocked_ns / whole);
	for (i = 0, n = 0; i < CB_NR_BLOCKS; i++)
		p[n++] = (struct part){ kb_block_names[i], t->blocked_by[i] };
	print_parts(&c, p, n, max, whole);
	put(&c, " | gone %.1f", 100.0 * (double)t->gone_ns / whole);
	fputc('\n', f);
}

void budget_print_text(FILE *f, const struct ks_budget *b, bool verbose)
{
	struct part p[KB_NR_CPU_LINES];
	double whole;
	int r, i, n = 0, shown = 0;

	if (!b || !b->valid)
		return;
	fprintf(f, "  budget  : %% of threads x wall per role, %s; "
		"cpus: %% of %" PRIu64 " x %.2fs\n",
		verbose ? "every part" : "the largest part (-v: all)",
		b->cpus.ncpus, b->wall_ns / 1e9);
	for (r = 0; r < CB_NR_ROLES; r++)
		if (b->role[r].threads)
			print_role(f, role_name(r), &b->role[r], verbose);
	whole = b->cpus.supply_ns ? (double)b->cpus.supply_ns : 1;
	for (i = 0; i < KB_NR_CPU_LINES; i++)
		if (b->cpus.line[i] > 0)
			p[n++] = (struct part){ kb_cpu_names[i],
						(uint64_t)b->cpus.line[i] };
	qsort(p, (size_t)n, sizeof(*p), by_ns);
	fprintf(f, "  cpus    :");
	for (i = 0; i < n; i++) {
		double pct = 100.0 * p[i].ns / whole;

		if (!verbose && (shown >= 6 || pct < 0.1))
			break;
		if (shown && shown % 5 == 0)
			fprintf(f, "\n            ");
		fprintf(f, "%s %s %.1f%%", shown % 5 ? "," : "", p[i].name,
			pct);
		shown++;
	}
	fputc('\n', f);
}

void budget_print_outsiders(FILE *f, const struct ks_budget *b,
			    const struct ow_entry *o, int n, bool verbose)
{
	double whole, pct;
	struct col c = { f, 0 };
	int i, shown = 0;

	if (!b || !b->valid || !b->subjects.total_ns)
		return;
	whole = (double)b->subjects.total_ns;
	for (i = 0; i < n; i++) {
		pct = 100.0 * (double)o[i].wait_ns / whole;
		if (pct < 0.1 || (!verbose && shown >= 3))
			break;
		if (!shown)
			put(&c, "  outsider: ours waited behind");
		put(&c, "%s %s (pid %d, %s) %.1f", shown ? "," : "",
		    o[i].comm, (int)o[i].pid, kb_class_names[o[i].sclass],
		    pct);
		shown++;
	}
	if (!shown)
		return;
	put(&c, " (%% of our threads x wall)");
	fputc('\n', f);
}
