// SPDX-License-Identifier: GPL-2.0
/*
 * Where the threads of runs made with --profile spent their time: per
 * run, the profile's own figures (which say whether it can be trusted:
 * samples against what the CPU time predicts, lost records, its cost),
 * then per thread role a flame graph of its on-CPU samples and one of
 * its time off the CPU, split under the role into waiting to run and
 * blocked.  Tasks outside the benchmark share one graph, one branch per
 * command name.  Only the slowest runs are drawn: they are the ones a
 * reader wants explained, and a page of every run's graphs would weigh
 * too much to open.  A group without profiles prints nothing, so that
 * pages of files made without --profile do not change.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/sections.h"
#include "output/html/svg_flame.h"
#include "output/html/view.h"
#include "util/fmt.h"
#include "util/roles.h"

#define PROF_MAX_RUNS	4	/* runs drawn per group, the slowest */

struct prof_run {
	const struct run_view *rv;
	const json_t *p;	/* its "profile" object */
};

static const json_t *run_profile(const struct result_run *r)
{
	const json_t *p = json_object_get(r->json, "profile");

	return json_is_object(p) ? p : NULL;
}

bool profile_present(const struct result_file *files, size_t nfiles)
{
	size_t i, j, k;

	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].nr_groups; j++)
			for (k = 0; k < files[i].groups[j].nr_runs; k++)
				if (run_profile(&files[i].groups[j].runs[k]))
					return true;
	return false;
}

void profile_css(FILE *f)
{
	flame_css(f);
	fputs("h4{font-size:14px;margin:18px 0 2px}\n"
	      ".flame-role{margin:12px 0 0;font-size:13.5px}\n", f);
}

void profile_script(FILE *f)
{
	flame_script(f);
}

/* Failed runs last: their figures are partial, whatever their rate. */
static int slowest_first(const void *a, const void *b)
{
	const struct run_view *x = ((const struct prof_run *)a)->rv;
	const struct run_view *y = ((const struct prof_run *)b)->rv;

	if (x->failed != y->failed)
		return x->failed ? 1 : -1;
	if (x->r->throughput != y->r->throughput)
		return x->r->throughput < y->r->throughput ? -1 : 1;
	return x->r->run - y->r->run;
}

static const char *samples_value(char *b, size_t n, double v)
{
	snprintf(b, n, "%.0f sample%s", v, v == 1 ? "" : "s");
	return b;
}

static const char *ns_value(char *b, size_t n, double v)
{
	return fmt_ns_spaced(b, n, v);
}

/* ---- one graph --------------------------------------------------------- */

/* Whether stack s belongs to role (NULL: to the outsiders' graph). */
static bool owns(const json_t *s, const char *role)
{
	const char *r = jstr(s, "role");

	return r && !strcmp(r, role ? role : "outsider");
}

/*
 * The tree of role's stacks of one kind: under the root, an outsider's
 * command name, then the reason an off-CPU stack was away, then its
 * frames.  0, or -1 out of memory.
 */
static int build(struct flame *fl, const json_t *stacks, const char *role,
		 bool off)
{
	const json_t *s;
	char kind[64];
	size_t i, at;

	if (flame_init(fl, role ? role : "outsiders"))
		return -1;
	json_array_foreach(stacks, i, s) {
		if (!owns(s, role))
			continue;
		at = 0;
		if (!role) {
			const char *comm = jstr(s, "comm");

			comm = comm ? comm : "[unknown task]";
			at = flame_child(fl, at, comm, strlen(comm));
		}
		if (off && at != FLAME_NONE) {
			const char *k = jstr(s, "kind");

			snprintf(kind, sizeof(kind), "[%s]", k ? k : "off cpu");
			at = flame_child(fl, at, kind, strlen(kind));
		}
		if (at == FLAME_NONE ||
		    flame_add(fl, at, jstr(s, "stack"),
			      ju64(json_object_get(s, off ? "ns" : "count"))))
			return -1;
	}
	return 0;
}

/* One graph with the line above it; nothing when role has no such stacks. */
static void graph(FILE *f, const json_t *p, const char *role, bool off)
{
	const json_t *stacks = json_object_get(p, off ? "offcpu" : "oncpu");
	int r = role ? role_by_name(role) : -1;
	struct flame_opts o = {
		.value = off ? ns_value : samples_value,
		.root_colour = role_table[r >= 0 ? r : CB_ROLE_OTHER].colour,
	};
	struct flame fl;
	char a[48];
	size_t i;
	const json_t *s;
	bool any = false;

	json_array_foreach(stacks, i, s)
		any |= owns(s, role);
	if (!any)
		return;
	if (build(&fl, stacks, role, off)) {
		flame_free(&fl);
		fputs("<p class=\"small\">(out of memory: graph left out)</p>\n",
		      f);
		return;
	}
	fprintf(f, "<p class=\"small\">%s: %s", off ? "Off CPU" : "On CPU",
		o.value(a, sizeof(a), (double)fl.n[0].value));
	for (i = fl.n[0].child; off && role && i != FLAME_NONE;
	     i = fl.n[i].next) {
		fprintf(f, "%s", i == fl.n[0].child ? " (" : ", ");
		html_esc(f, fl.n[i].name);
		fprintf(f, " %s", ns_value(a, sizeof(a),
					   (double)fl.n[i].value));
		fputs(fl.n[i].next == FLAME_NONE ? ")" : "", f);
	}
	fputs("</p>\n<div class=\"fg\" data-role=\"", f);
	html_esc(f, role ? role : "outsider");
	fprintf(f, "\" data-kind=\"%s\">\n", off ? "offcpu" : "oncpu");
	if (!flame_draw(f, &fl, &o))
		fputs("<p class=\"small\">nothing recorded</p>\n", f);
	fputs("</div>\n", f);
	flame_free(&fl);
}

/* ---- one run ----------------------------------------------------------- */

static bool has_role(const json_t *p, const char *role)
{
	static const char *const keys[] = { "oncpu", "offcpu" };
	const json_t *s;
	size_t i, k;

	for (k = 0; k < 2; k++)
		json_array_foreach(json_object_get(p, keys[k]), i, s)
			if (owns(s, role))
				return true;
	return false;
}

/* Stacks of roles this report does not know (a newer file): not drawn. */
static size_t unknown_roles(const json_t *p)
{
	static const char *const keys[] = { "oncpu", "offcpu" };
	const json_t *s;
	size_t i, k, n = 0;

	for (k = 0; k < 2; k++)
		json_array_foreach(json_object_get(p, keys[k]), i, s) {
			const char *r = jstr(s, "role");

			n += !r || (strcmp(r, "outsider") &&
				    role_by_name(r) < 0);
		}
	return n;
}

static void summary(FILE *f, const json_t *p)
{
	const json_t *off = json_object_get(p, "offcpu_ns");
	const json_t *cost = json_object_get(p, "cost");
	double expected = jnum(p, "expected_samples");
	uint64_t samples = ju64(json_object_get(p, "samples"));
	uint64_t lost = ju64(json_object_get(p, "lost"));
	uint64_t hz = ju64(json_object_get(p, "hz"));
	char a[32], b[32];

	fprintf(f, "<p class=\"small\">%llu samples",
		(unsigned long long)samples);
	if (hz)
		fprintf(f, " at %llu Hz", (unsigned long long)hz);
	fputs(" of the benchmark's threads", f);
	if (expected > 0)
		fprintf(f, ", %.2f× the %.0f their CPU time predicts",
			(double)samples / expected, expected);
	fprintf(f, " · %llu samples of other tasks · ",
		(unsigned long long)ju64(json_object_get(p,
							 "outsider_samples")));
	if (lost)
		fprintf(f, "<b>%llu lost</b> (maps full: missing from the graphs)",
			(unsigned long long)lost);
	else
		fputs("none lost", f);
	fprintf(f, " · off CPU, summed over the threads: waiting to run %s, blocked %s",
		fmt_ns_spaced(a, sizeof(a),
			      (double)ju64(json_object_get(off, "runqueue"))),
		fmt_ns_spaced(b, sizeof(b),
			      (double)ju64(json_object_get(off, "blocked"))));
	if (json_is_object(cost))
		fprintf(f, " · profiler cost %.3f %% of the CPUs (%s of BPF run time)",
			100 * jnum(cost, "cpu_share"),
			fmt_ns_spaced(a, sizeof(a), (double)ju64(
				json_object_get(cost, "run_time_ns"))));
	fputs("</p>\n", f);
}

static void run_block(FILE *f, const struct group_view *v,
		      const struct prof_run *pr)
{
	const struct run_view *rv = pr->rv;
	size_t unknown = unknown_roles(pr->p);
	char a[32];
	int r;

	fprintf(f, "<h4 id=\"g%d-prof%d\">Run %d · %s msg/s%s</h4>\n", v->id,
		rv->r->run, rv->r->run, fmt_rate(a, sizeof(a),
						 rv->r->throughput),
		rv->failed ? " <span class=\"tag fail\">failed</span>" :
		rv->slow ? " <span class=\"tag\">slow</span>" : "");
	summary(f, pr->p);
	for (r = 0; r <= CB_NR_ROLES; r++) {
		const char *role = r < CB_NR_ROLES ? role_name(r) : NULL;

		if (!has_role(pr->p, role))
			continue;
		fprintf(f, "<p class=\"flame-role\"><span class=\"key\" style=\"background:%s;margin-left:0\"></span><b>%s</b> · %s</p>\n",
			role_table[r < CB_NR_ROLES ? r : CB_ROLE_OTHER].colour,
			role ? role : "outsiders",
			role ? role_table[r].words :
			       "tasks outside the benchmark, by command name");
		graph(f, pr->p, role, false);
		graph(f, pr->p, role, true);
	}
	if (unknown)
		fprintf(f, "<p class=\"small\">%zu stacks of roles this report does not know are not drawn.</p>\n",
			unknown);
}

void profile_section(FILE *f, const struct group_view *v)
{
	struct prof_run *pr;
	size_t i, n = 0, shown;

	for (i = 0; i < v->n; i++)
		n += run_profile(v->runs[i].r) != NULL;
	if (!n)
		return;
	pr = calloc(n, sizeof(*pr));
	if (!pr)
		return;
	for (i = 0, n = 0; i < v->n; i++) {
		const json_t *p = run_profile(v->runs[i].r);

		if (p) {
			pr[n].rv = &v->runs[i];
			pr[n++].p = p;
		}
	}
	qsort(pr, n, sizeof(*pr), slowest_first);
	shown = n < PROF_MAX_RUNS ? n : PROF_MAX_RUNS;
	fputs("<h3>Profile</h3>\n<p class=\"note\">Where the threads spent their time, per thread role: on the CPU (a graph's width is its samples) and off it (its width is the time away, under <b>[runqueue]</b> runnable but waiting for a CPU, under <b>[blocked]</b> asleep until woken). "
	      "Each graph is an icicle: the role on top, every caller above its callees, the widest first. "
	      "Click a frame to zoom into it, the top bar to zoom out; hover for the full name and value. "
	      "Frames under 0.1 % of a graph are summed per caller into one grey [N small frames], left out when even that is under 0.1 %.</p>\n",
	      f);
	if (shown < n) {
		fprintf(f, "<p class=\"note\">%zu runs have a profile: the %zu slowest are drawn; left out:",
			n, shown);
		for (i = shown; i < n; i++)
			fprintf(f, "%s run %d", i > shown ? "," : "",
				pr[i].rv->r->run);
		fputs(".</p>\n", f);
	}
	for (i = 0; i < shown; i++)
		run_block(f, v, &pr[i]);
	free(pr);
}
