// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-compare --explain replayed on recorded series.  Pairs of
 * tests/data/pairs (tools/record-pairs.sh) were each recorded with one
 * known change between their two series, and the explanation must rank
 * the budget line that change works through first, with an interval
 * that excludes zero (between open-loop series, "-open", for a
 * difference of latency p99, not of throughput); a pair of one setting,
 * and two clean series of the verdict's corpus, must rank nothing.  On every pair the
 * arithmetic must hold: the lines of each budget add up to its whole
 * per message, and the shares of the lines that account for the
 * difference to at most all of it.
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
#include <cmocka.h>

#include "analysis/explain.h"
#include "results/results.h"
#include "results/series_load.h"
#include "unit_util.h"

#define PAIRS	"tests/data/pairs"
#define SERIES	"tests/data/series"
#define MIN_PAIRS	3

struct loaded {
	char tmp[64];
	struct result_file f;
};

static void load(const char *gz, struct loaded *l)
{
	char err[256];

	memset(l, 0, sizeof(*l));
	if (unit_gunzip(gz, l->tmp, sizeof(l->tmp)))
		fail_msg("%s: cannot decompress", gz);
	if (results_load(l->tmp, &l->f, err, sizeof(err)))
		fail_msg("%s: %s", gz, err);
}

static void unload(struct loaded *l)
{
	results_free(&l->f);
	unlink(l->tmp);
}

static void explain_files(const char *a, const char *b, struct explain *e)
{
	struct loaded la, lb;
	char err[256];

	load(a, &la);
	load(b, &lb);
	if (explain_groups(&lb.f.groups[0], &la.f.groups[0], e, err,
			   sizeof(err)))
		fail_msg("%s against %s: %s", b, a, err);
	unload(&la);
	unload(&lb);
}

static int nranked(const struct explain *e)
{
	int i, n = 0;

	for (i = 0; i < e->nlines; i++)
		n += e->line[i].rank != 0;
	return n;
}

/* The whole of a part per message: threads x wall, or CPUs x wall. */
static double run_whole(const struct run_result *r, enum ex_part part)
{
	const struct ks_budget *b = &r->kernel->budget;
	double m = (double)r->kernel->messages;

	return part == EX_THREADS ? (double)b->subjects.total_ns / m :
				    (double)b->cpus.supply_ns / m;
}

static double mean_whole(const char *gz, enum ex_part part)
{
	struct saved_runs sr;
	char missing[128], err[256];
	struct loaded l;
	double s = 0;
	size_t i, n = 0;

	load(gz, &l);
	if (saved_runs_load(&l.f.groups[0], &sr, missing, sizeof(missing),
			    err, sizeof(err)))
		fail_msg("%s: %s", gz, err);
	for (i = 0; i < sr.n; i++) {
		if (!sr.runs[i].ok || !sr.runs[i].kernel)
			continue;
		s += run_whole(&sr.runs[i], part);
		n++;
	}
	saved_runs_free(&sr);
	unload(&l);
	assert_true(n > 0);
	return s / (double)n;
}

/*
 * Each budget's lines add up to its whole on both sides (within 2 %: a
 * CPU budget's unaccounted line may be negative and is a line), and the
 * shares of the lines that account for the difference to at most 1.
 */
static void check_arithmetic(const char *a, const char *b,
			     const struct explain *e)
{
	enum ex_part p;
	int i;

	for (p = EX_THREADS; p <= EX_CPUS; p++) {
		double base = 0, value = 0, pos = 0, ranked = 0;
		double wb = mean_whole(a, p), wo = mean_whole(b, p);

		for (i = 0; i < e->nlines; i++) {
			const struct ex_line *l = &e->line[i];

			if (l->part != p)
				continue;
			base += l->base;
			value += l->value;
			pos += fmax(l->share, 0);
			if (l->rank) {
				ranked += l->share;
				assert_true(l->real);
				assert_true(l->has_ci);
				assert_true(l->ci[0] > 0 || l->ci[1] < 0);
			}
		}
		if (fabs(base - wb) > 0.02 * wb || fabs(value - wo) > 0.02 * wo)
			fail_msg("%s: part %d lines sum to %.0f and %.0f, wholes %.0f and %.0f",
				 b, p, base, value, wb, wo);
		assert_true(pos <= 1 + 1e-9);
		assert_float_equal(e->unexplained[p], fmax(0, 1 - ranked),
				   1e-9);
	}
}

/*
 * top: the line ranked first, "none" when nothing may be; ranked: a line
 * that must be ranked with a fifth of the difference or more (a change
 * that works through several lines of like size), NULL if top is set.
 */
static void check_pair(const char *name, const char *top, const char *ranked)
{
	char a[512], b[512], sentence[1024];
	const struct ex_line *first;
	struct explain *e = malloc(sizeof(*e));

	assert_non_null(e);
	snprintf(a, sizeof(a), PAIRS "/%s-a.json.gz", name);
	snprintf(b, sizeof(b), PAIRS "/%s-b.json.gz", name);
	explain_files(a, b, e);
	if (!e->valid)
		fail_msg("%s: not explained: %s", name, e->missing);
	check_arithmetic(a, b, e);
	/* Open-loop pairs ("-open") differ in latency, not throughput. */
	assert_int_equal(e->metric, strstr(name, "-open") ? EX_LATENCY :
							   EX_THROUGHPUT);
	/* tools/ab.sh interleaved their runs: no drift to warn of. */
	assert_true(e->interleaved);
	assert_null(explain_caveat(e));
	explain_sentence(e, "b", "a", sentence, sizeof(sentence));
	first = explain_ranked(e, EX_THREADS, 1);
	if (ranked) {
		const struct ex_line *l = NULL;
		int i;

		for (i = 0; i < e->nlines; i++)
			if (!strcmp(e->line[i].name, ranked))
				l = &e->line[i];
		if (!e->real || !l || !l->rank || l->share < 0.2)
			fail_msg("%s: %s not ranked with a fifth of the difference (%s)",
				 name, ranked, sentence);
		free(e);
		return;
	}
	if (!strcmp(top, "none")) {
		if (nranked(e))
			fail_msg("%s: one setting twice, yet %s is ranked (%s)",
				 name, first ? first->name : "a CPU line",
				 sentence);
		free(e);
		return;
	}
	if (!e->real)
		fail_msg("%s: the difference is not real: %s", name,
			 sentence);
	if (!first || strcmp(first->name, top))
		fail_msg("%s: first line %s, want %s (%s)", name,
			 first ? first->name : "none", top, sentence);
	/* The sentence names it, as far as the intervals allow. */
	assert_non_null(strstr(sentence, first->words));
	free(e);
}

static void test_pairs(void **state)
{
	char name[256], line[128], path[512], want[64];
	struct dirent *d;
	size_t n = 0, len;
	DIR *dir = opendir(PAIRS);
	FILE *f;

	(void)state;
	assert_non_null(dir);
	while ((d = readdir(dir))) {
		len = strlen(d->d_name);
		if (len < 8 || strcmp(d->d_name + len - 7, ".expect"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 7),
			 d->d_name);
		snprintf(path, sizeof(path), PAIRS "/%s", d->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		if (!fgets(line, sizeof(line), f))
			fail_msg("%s: empty", path);
		fclose(f);
		if (sscanf(line, "top=%63s", want) == 1)
			check_pair(name, want, NULL);
		else if (sscanf(line, "ranked=%63s", want) == 1)
			check_pair(name, NULL, want);
		else
			fail_msg("%s: malformed", path);
		n++;
	}
	closedir(dir);
	assert_true(n >= MIN_PAIRS);
}

/*
 * Two clean series of the verdict's corpus, recorded minutes apart: no
 * line is ranked, and the sentence says no difference was measured.
 */
static void test_clean_series(void **state)
{
	struct explain *e = malloc(sizeof(*e));
	char sentence[1024];

	(void)state;
	assert_non_null(e);
	explain_files(SERIES "/clean.json.gz", SERIES "/clean2.json.gz", e);
	assert_true(e->valid);
	check_arithmetic(SERIES "/clean.json.gz", SERIES "/clean2.json.gz",
			 e);
	assert_int_equal(nranked(e), 0);
	explain_sentence(e, "clean2", "clean", sentence, sizeof(sentence));
	assert_non_null(strstr(sentence, "not measurably different"));
	/* Recorded one after the other: never interleaved. */
	assert_false(e->interleaved);
	/* A file against itself: every difference exactly 0, none real. */
	explain_files(SERIES "/clean.json.gz", SERIES "/clean.json.gz", e);
	assert_float_equal(e->pct, 0, 1e-12);
	assert_false(e->real);
	for (int i = 0; i < e->nlines; i++) {
		assert_float_equal(e->line[i].diff, 0, 1e-9);
		assert_false(e->line[i].real);
	}
	free(e);
}

/* Runs without kernel records: said, not guessed. */
static void test_untraced(void **state)
{
	struct explain *e = malloc(sizeof(*e));
	struct loaded a, b;
	char err[256], sentence[1024];
	size_t i;

	(void)state;
	assert_non_null(e);
	load(SERIES "/clean.json.gz", &a);
	load(SERIES "/hog.json.gz", &b);
	for (i = 0; i < b.f.groups[0].nr_runs; i++)
		json_object_del(b.f.groups[0].runs[i].json, "kernel");
	assert_int_equal(explain_groups(&b.f.groups[0], &a.f.groups[0], e,
					err, sizeof(err)),
			 0);
	assert_false(e->valid);
	assert_non_null(strstr(e->missing, "traced runs"));
	explain_sentence(e, "hog", "clean", sentence, sizeof(sentence));
	if (e->real)
		assert_non_null(strstr(sentence, "not explained"));
	unload(&a);
	unload(&b);
	free(e);
}

/* From which point on a sweep differs: the tail of real, like-signed. */
static void test_onset(void **state)
{
	struct explain p[4] = { 0 };
	const struct explain *e[4] = { &p[0], &p[1], &p[2], &p[3] };
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		p[i].has_ci = true;
		p[i].pct = -10;
	}
	p[2].real = p[3].real = true;
	assert_int_equal(explain_onset(e, 4), 2);
	p[0].real = p[1].real = true;
	assert_int_equal(explain_onset(e, 4), 0);
	/* A faster point before the slower tail ends the run of them. */
	p[1].pct = 5;
	assert_int_equal(explain_onset(e, 4), 2);
	p[3].real = false;
	assert_int_equal(explain_onset(e, 4), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_clean_series),
		cmocka_unit_test(test_untraced),
		cmocka_unit_test(test_onset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
