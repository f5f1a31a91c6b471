// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the result-file loader (src/results/results.c): small JSON-lines
 * files written to a temporary directory, read back field by field; runs
 * grouped by sweep point and by summary line; every kind of bad file
 * giving a one-line error instead of a crash; and the merged run-queue
 * p99 of the subject roles from buckets whose answer is known, checked
 * against the kernel side's own percentile arithmetic too.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tracer/kstats.h"
#include "results/results.h"

#define MAX_FILES 32

struct tmp {
	char dir[64];
	char path[MAX_FILES][128];
	int n;
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/test_results.XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;
	int i;

	for (i = 0; i < t->n; i++)
		unlink(t->path[i]);
	rmdir(t->dir);
	free(t);
	return 0;
}

/* Writes the lines (NULL-terminated) to a new file; returns its path. */
static const char *write_file(struct tmp *t, const char *name, ...)
{
	const char *line;
	char *path, buf[128];
	va_list ap;
	FILE *f;

	assert_true(t->n < MAX_FILES);
	/* Via buf: gcc sees t->dir and t->path in one object (-Wrestrict). */
	snprintf(buf, sizeof(buf), "%s/%s", t->dir, name);
	path = t->path[t->n++];
	memcpy(path, buf, sizeof(buf));
	f = fopen(path, "w");
	assert_non_null(f);
	va_start(ap, name);
	while ((line = va_arg(ap, const char *)))
		fputs(line, f);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* A run line as chat_c writes it; extra goes in before the closing brace. */
static char *run_line(int run, bool ok, double tput, long p99,
		      const char *extra)
{
	char *s;

	assert_true(asprintf(&s,
		"{\"schema_version\":1,\"run\":%d,\"ok\":%s,\"rooms\":2,"
		"\"messages\":20,\"users_per_room\":20,\"message_size\":100,"
		"\"messages_sent\":800,\"messages_received\":15200,"
		"\"total_messages\":16000,\"elapsed_s\":0.25,"
		"\"throughput\":%.17g,%s\"cpu\":{\"client\":{\"user_s\":0.1,"
		"\"sys_s\":0.2},\"server\":null},\"latency\":{\"count\":15200,"
		"\"p50_ns\":1000,\"p90_ns\":2000,\"p99_ns\":%ld,"
		"\"max_ns\":900000000,\"buckets\":[],\"unstamped\":0}%s}\n",
		run, ok ? "true" : "false", tput,
		ok ? "" : "\"error\":\"server went away\",", p99,
		extra ? extra : "") > 0);
	return s;
}

static char *summary_line(int runs, int attempted, double avg, double min,
			  double max, const char *extra)
{
	char *s;

	assert_true(asprintf(&s,
		"{\"summary\":{\"schema_version\":1,\"runs\":%d,"
		"\"runs_attempted\":%d,\"avg\":%.17g,\"min\":%.17g,"
		"\"max\":%.17g,\"median\":%.17g,\"mad\":0.0,\"rel_spread\":0.0,"
		"\"rooms\":2,\"messages\":20,\"users_per_room\":20,"
		"\"message_size\":100,\"kernel_release\":\"6.1.0-test\","
		"\"host\":\"box\",\"version\":\"0.1.0\",\"cpus\":2,"
		"\"command_line\":\"chat_c --local 2 20\","
		"\"tracing\":\"off\",\"interrupted\":false%s}}\n",
		runs, attempted, avg, min, max, avg, extra ? extra : "") > 0);
	return s;
}

#define SWEEP(v) ",\"sweep\":{\"param\":\"rooms\",\"value\":" #v "}"

static void test_parse(void **state)
{
	char *r1 = run_line(1, true, 1000.5, 3000000, NULL);
	char *r2 = run_line(2, true, 3000.5, 5000000, NULL);
	char *r3 = run_line(3, false, 0, 9000000, NULL);
	char *s = summary_line(2, 3, 2000.5, 1000.5, 3000.5, NULL);
	const char *p = write_file(*state, "ok.json", r1, "\n", r2, r3, s,
				   NULL);
	const struct result_group *g;
	struct result_file f;
	char err[256] = "";
	double m;

	assert_int_equal(results_load(p, &f, err, sizeof(err)), 0);
	assert_string_equal(f.path, p);
	assert_string_equal(f.kernel_release, "6.1.0-test");
	assert_int_equal(f.nr_groups, 1);
	g = &f.groups[0];
	assert_null(g->sweep);
	assert_string_equal(g->sweep_label, "");
	assert_int_equal(g->nr_runs, 3);
	assert_int_equal(g->runs[0].run, 1);
	assert_int_equal(g->runs[0].line, 1);
	assert_int_equal(g->runs[1].line, 3);	/* blank line 2 skipped */
	assert_true(g->runs[0].ok);
	assert_false(g->runs[2].ok);
	assert_string_equal(g->runs[2].error, "server went away");
	assert_null(g->runs[0].error);
	assert_int_equal(g->runs[0].rooms, 2);
	assert_int_equal(g->runs[0].total_messages, 16000);
	assert_float_equal(g->runs[1].throughput, 3000.5, 0);
	assert_float_equal(g->runs[1].elapsed_s, 0.25, 0);
	assert_true(g->runs[0].has_latency);
	assert_int_equal(g->runs[0].lat_p99_ns, 3000000);
	assert_false(g->runs[0].traced);
	assert_false(g->runs[0].has_rq_p99);
	/* The json_t stays for what is not parsed. */
	assert_non_null(json_object_get(g->runs[0].json, "cpu"));

	assert_true(g->summary.present);
	assert_int_equal(g->summary.line, 5);
	assert_int_equal(g->summary.runs, 2);
	assert_int_equal(g->summary.runs_attempted, 3);
	assert_float_equal(g->summary.avg, 2000.5, 0);
	assert_string_equal(g->summary.host, "box");
	assert_string_equal(g->summary.tracing, "off");
	assert_int_equal(g->summary.cpus, 2);
	assert_false(g->summary.interrupted);
	assert_non_null(json_object_get(g->summary.json, "command_line"));

	/* Statistics over the ok runs only. */
	assert_int_equal(g->stats.n, 2);
	assert_float_equal(g->stats.avg, 2000.5, 1e-9);
	assert_int_equal(results_check_summary(g, err, sizeof(err)), 0);
	/* Median latency p99 of the two ok runs; the failed one is out. */
	assert_int_equal(results_median(g, results_run_lat_p99, &m), 2);
	assert_float_equal(m, 4000000, 0);
	assert_int_equal(results_median(g, results_run_rq_p99, &m), 0);
	results_free(&f);
	results_free(&f);	/* twice is harmless */
	free(r1);
	free(r2);
	free(r3);
	free(s);
}

static void test_throughput_and_check(void **state)
{
	char *r1 = run_line(1, true, 100, 1, NULL);
	char *r2 = run_line(2, true, 300, 1, NULL);
	char *bad = summary_line(2, 2, 250, 100, 300, NULL);
	char *count = summary_line(3, 3, 200, 100, 300, NULL);
	const char *p1 = write_file(*state, "bad.json", r1, r2, bad, NULL);
	const char *p2 = write_file(*state, "count.json", r1, r2, count, NULL);
	const char *p3 = write_file(*state, "part.json", r1, r2, NULL);
	struct result_file f;
	char msg[256];
	double avg, min, max;
	int n;

	assert_int_equal(results_load(p1, &f, msg, sizeof(msg)), 0);
	results_throughput(&f.groups[0], &avg, &min, &max, &n);
	assert_float_equal(avg, 250, 0);	/* the summary's word */
	assert_int_equal(results_check_summary(&f.groups[0], msg, sizeof(msg)),
			 1);
	assert_non_null(strstr(msg, "disagrees"));
	results_free(&f);

	assert_int_equal(results_load(p2, &f, msg, sizeof(msg)), 0);
	assert_int_equal(results_check_summary(&f.groups[0], msg, sizeof(msg)),
			 1);
	assert_non_null(strstr(msg, "3 completed runs"));
	results_free(&f);

	/* Without a summary: an error, unless asked for; then from the runs. */
	assert_int_equal(results_load(p3, &f, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no summary line"));
	assert_int_equal(results_load_flags(p3, RESULTS_ALLOW_NO_SUMMARY, &f,
					    msg, sizeof(msg)), 0);
	assert_false(f.groups[0].summary.present);
	assert_null(f.kernel_release);
	results_throughput(&f.groups[0], &avg, &min, &max, &n);
	assert_float_equal(avg, 200, 0);
	assert_float_equal(min, 100, 0);
	assert_float_equal(max, 300, 0);
	assert_int_equal(n, 2);
	assert_int_equal(results_check_summary(&f.groups[0], msg, sizeof(msg)),
			 0);
	results_free(&f);
	free(r1);
	free(r2);
	free(bad);
	free(count);
}

static void test_sweep_groups(void **state)
{
	char *a1 = run_line(1, true, 100, 1, SWEEP(2));
	char *a2 = run_line(2, true, 200, 1, SWEEP(2));
	char *sa = summary_line(2, 2, 150, 100, 200, SWEEP(2));
	char *b1 = run_line(1, true, 400, 1, SWEEP(4));
	char *sb = summary_line(1, 1, 400, 400, 400, SWEEP(4));
	char *c1 = run_line(1, true, 800, 1, SWEEP(8));
	const char *p = write_file(*state, "sweep.json", a1, a2, sa, b1, sb, c1,
				   NULL);
	const struct result_group *g;
	struct result_file f;
	char err[256];
	json_t *key;

	assert_int_equal(results_load(p, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nr_groups, 3);
	assert_string_equal(f.groups[0].sweep_label, "rooms=2");
	assert_string_equal(f.groups[0].sweep_param, "rooms");
	assert_int_equal(f.groups[0].nr_runs, 2);
	assert_true(f.groups[0].summary.present);
	assert_float_equal(f.groups[0].summary.avg, 150, 0);
	assert_string_equal(f.groups[1].sweep_label, "rooms=4");
	assert_int_equal(f.groups[1].nr_runs, 1);
	assert_true(f.groups[1].summary.present);
	/* The last point lost its summary (chat_c killed): runs only. */
	assert_string_equal(f.groups[2].sweep_label, "rooms=8");
	assert_false(f.groups[2].summary.present);

	key = json_pack("{s:s,s:i}", "param", "rooms", "value", 4);
	g = results_find_group(&f, key);
	assert_ptr_equal(g, &f.groups[1]);
	json_object_set_new(key, "value", json_integer(16));
	assert_null(results_find_group(&f, key));
	assert_null(results_find_group(&f, NULL));
	json_decref(key);
	results_free(&f);
	free(a1);
	free(a2);
	free(sa);
	free(b1);
	free(sb);
	free(c1);
}

/* Two chat_c outputs in one file: the first summary closes the first. */
static void test_concatenated(void **state)
{
	char *r1 = run_line(1, true, 100, 1, NULL);
	char *s1 = summary_line(1, 1, 100, 100, 100, NULL);
	char *r2 = run_line(1, true, 500, 1, NULL);
	char *s2 = summary_line(1, 1, 500, 500, 500, NULL);
	const char *p = write_file(*state, "cat.json", r1, s1,
				   "{\"meta\":{\"later\":true}}\n", r2, s2, NULL);
	struct result_file f;
	char err[256];

	assert_int_equal(results_load(p, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nr_groups, 2);
	assert_float_equal(f.groups[0].runs[0].throughput, 100, 0);
	assert_float_equal(f.groups[1].runs[0].throughput, 500, 0);
	assert_float_equal(f.groups[1].summary.avg, 500, 0);
	/* The "meta" line, a kind from a later version, was skipped. */
	assert_int_equal(f.groups[1].summary.line, 5);
	results_free(&f);
	free(r1);
	free(s1);
	free(r2);
	free(s2);
}

static void expect_error(struct tmp *t, const char *name, const char *content,
			 const char *want)
{
	const char *p = write_file(t, name, content, NULL);
	struct result_file f;
	char err[256] = "";

	memset(&f, 0xa5, sizeof(f));
	if (results_load(p, &f, err, sizeof(err)) != -1)
		fail_msg("%s: loaded, wanted an error with '%s'", name, want);
	if (!strstr(err, want))
		fail_msg("%s: error '%s' does not say '%s'", name, err, want);
	assert_null(strchr(err, '\n'));
	/* Left empty: nothing to free, and freeing is harmless. */
	assert_int_equal(f.nr_groups, 0);
	assert_null(f.groups);
	results_free(&f);
}

static void test_bad_files(void **state)
{
	struct tmp *t = *state;
	char *r = run_line(1, true, 100, 1, NULL);
	char *s = summary_line(1, 1, 100, 100, 100, NULL);
	char *cut, path[160], err[256];
	struct result_file f;

	expect_error(t, "empty.json", "", "empty file");
	expect_error(t, "blank.json", "\n  \n\n", "empty file");
	expect_error(t, "text.json", "hello\n", "line 1: not JSON");
	expect_error(t, "array.json", "[1, 2]\n", "line 1: not a JSON object");
	expect_error(t, "other.json", "{\"x\": 1}\n",
		     "not a chat_c --json file");
	expect_error(t, "sumnum.json", "{\"summary\": 5}\n",
		     "\"summary\" is not an object");
	expect_error(t, "sumavg.json",
		     "{\"summary\":{\"runs\":1,\"avg\":\"x\",\"min\":1,\"max\":1}}\n",
		     "\"avg\" is not a number");
	expect_error(t, "sumruns.json",
		     "{\"summary\":{\"avg\":1,\"min\":1,\"max\":1}}\n",
		     "summary has no \"runs\"");
	expect_error(t, "runtput.json", "{\"run\":1,\"ok\":true}\n",
		     "run has no \"throughput\"");
	expect_error(t, "runok.json",
		     "{\"run\":1,\"ok\":1,\"throughput\":5}\n",
		     "\"ok\" is not true or false");
	expect_error(t, "sweep.json",
		     "{\"run\":1,\"ok\":true,\"throughput\":5,\"sweep\":4}\n",
		     "\"sweep\" is not");
	expect_error(t, "lat.json",
		     "{\"run\":1,\"ok\":true,\"throughput\":5,\"latency\":{\"count\":-1,\"p99_ns\":1}}\n",
		     "\"count\" is not a non-negative integer");
	expect_error(t, "kroles.json",
		     "{\"run\":1,\"ok\":true,\"throughput\":5,\"kernel\":{\"roles\":[]}}\n",
		     "line 1: kernel.roles");
	expect_error(t, "kbucket.json",
		     "{\"run\":1,\"ok\":true,\"throughput\":5,\"kernel\":{\"roles\":"
		     "{\"srv_snd\":{\"rq_latency\":{\"buckets\":[{\"lo\":5,\"hi\":3,\"count\":1}]}}}}}\n",
		     "kernel.roles.srv_snd.rq_latency.buckets[0]");
	{
		/* A NUL inside a line (a binary file, a torn write). */
		const char *p = write_file(t, "nul.json", NULL);
		FILE *fp = fopen(p, "w");

		assert_non_null(fp);
		assert_int_equal(fwrite("{\"run\":1}\0x\n", 1, 12, fp), 12);
		assert_int_equal(fclose(fp), 0);
		assert_int_equal(results_load(p, &f, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "line 1: not JSON"));
	}
	/* A line cut in the middle (disk full, killed writer). */
	cut = strndup(r, strlen(r) / 2);
	assert_non_null(cut);
	expect_error(t, "cut.json", cut, "line 1: not JSON");
	free(cut);
	/* A summary after runs, then garbage: the line number is right. */
	{
		const char *p = write_file(t, "late.json", r, s, "oops\n", NULL);

		assert_int_equal(results_load(p, &f, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "line 3: not JSON"));
	}
	snprintf(path, sizeof(path), "%s/missing.json", t->dir);
	assert_int_equal(results_load(path, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
	/* A directory opens but cannot be read. */
	assert_int_equal(results_load(t->dir, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "read error"));
	free(r);
	free(s);
}

/* Known buckets: 98 samples in [1000, 1064), 2 in [8192, 8704). */
#define KERNEL_ROLES							\
	",\"kernel\":{\"mode\":\"tp_btf\",\"roles\":{"			\
	"\"cli_snd\":{\"rq_latency\":{\"count\":50,\"buckets\":"	\
	"[{\"lo\":1000,\"hi\":1064,\"count\":50}]}},"			\
	"\"cli_rcv\":{\"rq_latency\":{\"count\":48,\"buckets\":"	\
	"[{\"lo\":1000,\"hi\":1064,\"count\":47},"			\
	"{\"lo\":8192,\"hi\":8704,\"count\":1}]}},"			\
	"\"srv_rcv\":{\"rq_latency\":{\"count\":0,\"buckets\":[]}},"	\
	"\"srv_snd\":{\"rq_latency\":{\"count\":2,\"buckets\":"		\
	"[{\"lo\":1000,\"hi\":1064,\"count\":1},"			\
	"{\"lo\":8192,\"hi\":8704,\"count\":1}]}},"			\
	"\"other\":{\"rq_latency\":{\"count\":1000,\"buckets\":"	\
	"[{\"lo\":1048576,\"hi\":1114112,\"count\":1000}]}},"		\
	"\"ksoftirqd\":{\"rq_latency\":{\"count\":1000,\"buckets\":"	\
	"[{\"lo\":34359738368,\"hi\":null,\"count\":1000}]}}}}"

static void test_rq_p99_known(void **state)
{
	char *r1 = run_line(1, true, 100, 1, KERNEL_ROLES);
	char *r2 = run_line(2, true, 100, 1, NULL);
	char *s = summary_line(2, 2, 100, 100, 100, NULL);
	const char *p = write_file(*state, "traced.json", r1, r2, s, NULL);
	struct result_file f;
	char err[256];
	double m;

	assert_int_equal(results_load(p, &f, err, sizeof(err)), 0);
	assert_true(f.groups[0].runs[0].traced);
	assert_true(f.groups[0].runs[0].has_rq_p99);
	/*
	 * Merged: 98 in the first bucket, 2 in the second; rank 99 is the
	 * first of the two in [8192, 8704): 8192 + 0.5 * 511, rounded.  The
	 * "other" and ksoftirqd roles would pull it to 1 ms or 34 s.
	 */
	assert_int_equal(f.groups[0].runs[0].rq_p99_ns, 8448);
	assert_false(f.groups[0].runs[1].traced);
	/* Median over the traced runs only. */
	assert_int_equal(results_median(&f.groups[0], results_run_rq_p99, &m),
			 1);
	assert_float_equal(m, 8448, 0);
	results_free(&f);
	free(r1);
	free(r2);
	free(s);
}

static void test_buckets_percentile(void **state)
{
	const struct results_bucket one[] = { { 100, 200, 10 } };
	const struct results_bucket open[] = {
		{ 10, 11, 1 }, { 1ULL << 35, UINT64_MAX, 99 },
	};
	json_t *k;
	uint64_t v = 77;

	(void)state;
	assert_int_equal(results_buckets_percentile(one, 0, 99), 0);
	/* rank 5 of 10 in [100, 200): 100 + 0.5 * 99 */
	assert_int_equal(results_buckets_percentile(one, 1, 50), 150);
	assert_int_equal(results_buckets_percentile(one, 1, 100), 199);
	assert_int_equal(results_buckets_percentile(one, 1, 0), 110);
	/* The open last bucket gives its lower bound. */
	assert_int_equal(results_buckets_percentile(open, 2, 99), 1ULL << 35);
	assert_int_equal(results_buckets_percentile(open, 2, 0), 10);

	/* Traced but no subject samples: no value, not zero. */
	k = json_pack("{s:{s:{s:{s:i,s:[]}}}}", "roles", "cli_snd",
		      "rq_latency", "count", 0, "buckets");
	assert_int_equal(results_kernel_rq_percentile(k, 99, &v, NULL, 0), 0);
	assert_int_equal(v, 77);
	json_decref(k);
	/* Not an object: an error, and a NULL err buffer is fine. */
	assert_int_equal(results_kernel_rq_percentile(NULL, 99, &v, NULL, 0),
			 -1);
}

/*
 * The same histogram read by the kernel side's ks_hist_percentile and by
 * the loader from its JSON buckets must agree, or the compare table and
 * chat_c's own text would tell two stories about one run.
 */
static void test_agrees_with_kstats(void **state)
{
	static uint64_t hist[CB_HIST_BUCKETS];
	struct results_bucket b[CB_HIST_BUCKETS];
	uint64_t x = 88172645463325252ULL, count = 0;
	const double ps[] = { 1, 50, 90, 99, 99.9, 100 };
	size_t i, n = 0;

	(void)state;
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < 100000; i++) {
		/* xorshift64: a spread of values over six decades */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		hist[cb_hist_bucket((x % 1000000) * (1 + x % 1000) / 10)]++;
		count++;
	}
	for (i = 0; i < CB_HIST_BUCKETS; i++) {
		if (!hist[i])
			continue;
		b[n].lo = cb_hist_lo((uint32_t)i);
		b[n].hi = cb_hist_hi((uint32_t)i);
		b[n].count = hist[i];
		n++;
	}
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		assert_int_equal(results_buckets_percentile(b, n, ps[i]),
				 ks_hist_percentile(hist, count, ps[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throughput_and_check, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sweep_groups, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_concatenated, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rq_p99_known, setup,
						teardown),
		cmocka_unit_test(test_buckets_percentile),
		cmocka_unit_test(test_agrees_with_kstats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
