// SPDX-License-Identifier: GPL-2.0
/*
 * The server's host's kernel record through the whole path without a
 * live server: written into a run line and read back as it was, and the
 * recorded series of tests/data/server-host (the hog series, its records
 * moved to server_host, the client untraced) judged by series_analyse as
 * chatbench-judge does: the burner on the server's host, its dip too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/series.h"
#include "output/json/json_out.h"
#include "results/kstats_load.h"
#include "results/results.h"
#include "results/series_load.h"
#include "study/judge.h"
#include "tracer/kstats.h"
#include "unit_util.h"

#define FIXTURE "tests/data/server-host/hog.json.gz"

static void load(const char *path, struct result_file *rf, struct series *s)
{
	char err[256], missing[160];

	if (results_load_flags(path, RESULTS_ALLOW_NO_SUMMARY, rf, err,
			       sizeof(err)))
		fail_msg("%s: %s", path, err);
	if (judge_series_load(&rf->groups[0], s, missing, sizeof(missing),
			      err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(missing, "");
}

static void test_round_trip(void **state)
{
	char tmp[64], out[] = "/tmp/test_server_host.XXXXXX", err[256];
	struct result_file rf, back;
	struct series s, b;
	struct json_out *j;
	const json_t *sum;
	int fd;

	(void)state;
	assert_int_equal(unit_gunzip(FIXTURE, tmp, sizeof(tmp)), 0);
	load(tmp, &rf, &s);
	unlink(tmp);
	assert_non_null(s.runs[0].server_kernel);
	assert_null(s.runs[0].kernel);
	assert_string_equal(s.runs[0].server_host, "srvhost");
	assert_string_equal(s.runs[0].server_trace, "on");
	/* The run's group (chat_s --clients N) is written and read back. */
	snprintf(s.runs[0].server_group, sizeof(s.runs[0].server_group),
		 "srvhost:42:7");
	/* The second run: asked, not traced. */
	kstats_free(s.runs[1].server_kernel);
	s.runs[1].server_kernel = NULL;
	snprintf(s.runs[1].server_trace, sizeof(s.runs[1].server_trace),
		 "off: no BTF");
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	j = json_out_open(out, err, sizeof(err));
	assert_non_null(j);
	assert_int_equal(json_out_run(j, &s.runs[0]), 0);
	assert_int_equal(json_out_run(j, &s.runs[1]), 0);
	/* The recorded series' summary ends the series (5 runs: no matter). */
	sum = rf.groups[0].summary.json;
	assert_int_equal(json_out_saved_summary(j, sum, NULL), 0);
	assert_int_equal(json_out_close(j), 0);
	load(out, &back, &b);
	unlink(out);
	assert_int_equal(b.attempted, 2);
	assert_null(b.runs[0].kernel);
	assert_non_null(b.runs[0].server_kernel);
	assert_int_equal(b.runs[0].server_kernel->messages,
			 s.runs[0].server_kernel->messages);
	assert_int_equal(b.runs[0].server_kernel->nr_intervals,
			 s.runs[0].server_kernel->nr_intervals);
	assert_true(b.runs[0].server_kernel->budget.valid);
	assert_string_equal(b.runs[0].server_host, "srvhost");
	assert_string_equal(b.runs[0].server_group, "srvhost:42:7");
	assert_string_equal(b.runs[1].server_group, "");
	assert_null(b.runs[1].server_kernel);
	assert_string_equal(b.runs[1].server_trace, "off: no BTF");
	series_free(&b);
	results_free(&back);
	series_free(&s);
	results_free(&rf);
}

static void test_judged_on_server_host(void **state)
{
	struct result_file rf;
	struct series s;
	char tmp[64];
	size_t i;

	(void)state;
	assert_int_equal(unit_gunzip(FIXTURE, tmp, sizeof(tmp)), 0);
	load(tmp, &rf, &s);
	unlink(tmp);
	assert_int_equal(series_analyse(&s, NULL, 10), 0);
	assert_true(s.verdict.judged);
	/* The reference is the server's host's: it excluded the hog run. */
	assert_true(s.verdict.ref.have_kernel);
	assert_int_equal(s.verdict.ref.n, 4);
	for (i = 0; i < s.attempted; i++) {
		const struct diag_verdict *v = &s.verdict.run[i];

		assert_int_equal(s.verdict.phases[i].host, DIAG_HOST_SERVER);
		if (i != 2) {
			assert_false(v->slow);
			continue;
		}
		assert_true(v->slow && v->disturbed && v->by_budget);
		assert_true(v->ncauses >= 1);
		assert_int_equal(v->causes[0].kind, CAUSE_OUTSIDER_CPU);
		assert_int_equal(v->causes[0].host, DIAG_HOST_SERVER);
		assert_string_equal(v->causes[0].task, "cx_hog");
		assert_non_null(strstr(v->causes[0].text,
				       "on the server's host (srvhost): "));
		assert_int_equal(v->acct_host, DIAG_HOST_SERVER);
		assert_true(v->unexplained >= 0 && v->unexplained < 0.4);
	}
	series_free(&s);
	results_free(&rf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_judged_on_server_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
