// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict replayed on recorded series (tests/data/series, made by
 * tools/record-corpus.sh): each file was recorded with one known
 * disturbance in one run, or none, and is judged here through the path
 * chatbench-judge and a live chat_c take (the loader, then
 * series_analyse), so that a rule change is tested in milliseconds on
 * real data instead of by provoking the VM for minutes.  Each series
 * must give: the disturbed run slow, with the right first cause and
 * culprit, the named causes at least 60 % of its loss, its budget adding
 * up to the loss the clock measured; a dip of the disturbance's kind when
 * it was shorter than the run; every other run either not slow or slow
 * with no cause named (a VM's slow spell is slow, but nothing false may
 * be said of it), and no dip outside the disturbed run.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "analysis/series.h"
#include "results/results.h"
#include "results/series_load.h"
#include "study/judge.h"
#include "tracer/kstats.h"
#include "unit_util.h"

#define CORPUS "tests/data/series"
#define MIN_SERIES 20

struct expect {
	int run;		/* the disturbed run, 0: none */
	char kind[32];		/* its first cause, "none" */
	char task[32];		/* its culprit, "-": nothing to name */
	char dip[32];		/* a dip of this kind in it, "" when none */
};

static int read_expect(const char *name, struct expect *e)
{
	char path[512], line[256];
	FILE *f;
	int n;

	memset(e, 0, sizeof(*e));
	snprintf(path, sizeof(path), CORPUS "/%s.expect", name);
	f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	n = sscanf(line, "run=%d %31s %31s dip=%31s", &e->run, e->kind,
		   e->task, e->dip);
	return n >= 3 ? 0 : -1;
}

/* Every run's budget adds up, the tracer's misses are small. */
static void check_budgets(const char *name, const struct series *s)
{
	size_t i;

	for (i = 0; i < s->attempted; i++) {
		const struct kstats *k = s->runs[i].kernel;
		const struct kb_threads *t;
		int64_t sum, supply;

		if (!k || !k->budget.valid)
			fail_msg("%s run %zu: no budget", name, i + 1);
		t = &k->budget.subjects;
		assert_int_equal((int64_t)t->oncpu_ns + (int64_t)t->wait_ns +
					 (int64_t)t->blocked_ns + t->gone_ns,
				 (int64_t)t->total_ns);
		sum = cpu_sum(&k->budget.cpus);
		supply = (int64_t)k->budget.cpus.supply_ns;
		assert_true(llabs(sum - supply) <= supply / 50);
		assert_true(llabs(k->budget.cpus.line[KB_CPU_UNACCOUNTED]) <=
			    supply / 50);
		if (!k->nr_intervals)
			fail_msg("%s run %zu: no intervals", name, i + 1);
	}
}

static void check_disturbed(const char *name, const struct series *s,
			    size_t i, const struct expect *e)
{
	const struct diag_verdict *v = &s->verdict.run[i];
	const struct run_phases *p = &s->verdict.phases[i];
	const char *got;
	double measured, tp_r = s->verdict.ref.tp_median;
	int d;

	if (!v->slow)
		fail_msg("%s: run %zu not judged slow", name, i + 1);
	assert_true(v->by_budget);
	if (!v->ncauses)
		fail_msg("%s: run %zu slow, no cause named", name, i + 1);
	got = cause_table[v->causes[0].kind].name;
	if (strcmp(got, e->kind))
		fail_msg("%s: first cause %s, want %s", name, got, e->kind);
	if (strcmp(e->task, "-") && strcmp(v->causes[0].task, e->task))
		fail_msg("%s: culprit %s, want %s", name, v->causes[0].task,
			 e->task);
	/*
	 * The issue asks 70 % of the loss named.  A recorded series is one
	 * draw of the VM's noise (a run in a slower spell of the VM gets
	 * the difference unexplained), but these are fixed: the least
	 * named of them is stop's run 3, 74 % (make corpus re-records them;
	 * a new recording under 70 % is a finding, not noise to loosen).
	 */
	if (v->unexplained > 0.3)
		fail_msg("%s: %.0f %% unexplained", name, 100 * v->unexplained);
	/* The lines' growths against the loss the clock measured. */
	measured = (double)s->runs[i].kernel->budget.cpus.ncpus * 1e9 *
		   (1 / s->runs[i].throughput - 1 / tp_r);
	if (fabs(v->acct.lost_ns - measured) > 0.1 * measured)
		fail_msg("%s: the budget lost %.0f ns/msg, the clock %.0f",
			 name, v->acct.lost_ns, measured);
	if (!*e->dip)
		return;
	for (d = 0; d < p->ndips; d++)
		if (p->dip[d].kind >= 0 &&
		    !strcmp(cause_table[p->dip[d].kind].name, e->dip))
			return;
	fail_msg("%s: no %s dip in run %zu (%d dips)", name, e->dip, i + 1,
		 p->ndips);
}

/* One recorded series against what was done to it. */
static void replay(const char *name)
{
	char path[512], tmp[64], err[256], missing[160];
	struct result_file rf;
	struct expect e;
	struct series s;
	size_t i;

	if (read_expect(name, &e))
		fail_msg("%s: no readable .expect", name);
	snprintf(path, sizeof(path), CORPUS "/%s.json.gz", name);
	assert_int_equal(unit_gunzip(path, tmp, sizeof(tmp)), 0);
	if (results_load(tmp, &rf, err, sizeof(err))) {
		unlink(tmp);
		fail_msg("%s: %s", name, err);
	}
	unlink(tmp);
	assert_int_equal(rf.nr_groups, 1);
	if (judge_series_load(&rf.groups[0], &s, missing, sizeof(missing), err,
			      sizeof(err)))
		fail_msg("%s: %s", name, err);
	if (*missing)
		fail_msg("%s: the record lacks %s", name, missing);
	assert_true(s.attempted >= 3);
	check_budgets(name, &s);
	assert_int_equal(series_analyse(&s, NULL, 10), 0);
	assert_true(s.verdict.judged);
	for (i = 0; i < s.attempted; i++) {
		const struct diag_verdict *v = &s.verdict.run[i];

		if ((int)i + 1 == e.run) {
			check_disturbed(name, &s, i, &e);
			continue;
		}
		if (v->slow && v->ncauses)
			fail_msg("%s: undisturbed run %zu slow, blamed on %s",
				 name, i + 1,
				 cause_table[v->causes[0].kind].name);
		if (s.verdict.phases[i].ndips)
			fail_msg("%s: undisturbed run %zu has %d dips", name,
				 i + 1, s.verdict.phases[i].ndips);
	}
	series_free(&s);
	results_free(&rf);
}

static void test_corpus(void **state)
{
	struct dirent *d;
	int seen = 0;
	DIR *dir;

	(void)state;
	dir = opendir(CORPUS);
	assert_non_null(dir);
	while ((d = readdir(dir))) {
		size_t len = strlen(d->d_name);
		char name[128];

		if (len < 8 || strcmp(d->d_name + len - 7, ".expect"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 7), d->d_name);
		replay(name);
		seen++;
	}
	closedir(dir);
	assert_true(seen >= MIN_SERIES);
}

/* A truncated record is refused with a reason, never judged or crashed on. */
static void test_truncated(void **state)
{
	char tmp[64], line[8192], err[256], missing[160];
	struct result_file rf;
	struct series s;
	FILE *in, *out;
	size_t n;
	int rc;

	(void)state;
	assert_int_equal(unit_gunzip(CORPUS "/clean.json.gz", tmp, sizeof(tmp)), 0);
	in = fopen(tmp, "r");
	assert_non_null(in);
	n = fread(line, 1, sizeof(line) - 1, in);
	fclose(in);
	out = fopen(tmp, "w");
	assert_non_null(out);
	/* The first run line, cut in the middle of its kernel record. */
	fwrite(line, 1, n / 2, out);
	fclose(out);
	rc = results_load_flags(tmp, RESULTS_ALLOW_NO_SUMMARY, &rf, err,
				sizeof(err));
	unlink(tmp);
	if (rc == 0) {
		/* Loaded: then the series must refuse or judge it whole. */
		rc = judge_series_load(&rf.groups[0], &s, missing,
				       sizeof(missing), err, sizeof(err));
		if (!rc)
			series_free(&s);
		results_free(&rf);
	}
	assert_int_equal(rc, -1);
	assert_true(strlen(err) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
