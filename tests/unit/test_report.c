// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the HTML report (src/output/html/report_html.c): the escaping of text
 * that comes from the kernel (task names may hold anything), the heat-map
 * row of a bucket, and a tiny result file whose page must hold one run
 * bar per run (the slow one marked), exactly the non-empty heat-map cells
 * counted by hand, with and without merged intervals, the task name
 * escaped, and nothing that would make a browser fetch anything.  That
 * file is of the format before the verdict said its resolution; another,
 * with it, must show the resolution, a disturbed run that was not slow,
 * every run's ramp and drain, and its dips with their depth and cause.
 * A file of profiled runs must draw the slowest four's flame graphs,
 * per role, with the script once; files without profiles none of it.
 * A run's time budget must reach the report's view with its threads'
 * waits grouped by holder and a slow run's growths summed the same way,
 * and a budget that does not add up, or a failed run's, not at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit_util.h"

#include "output/html/html_fmt.h"
#include "output/html/report_html.h"
#include "output/html/view.h"
#include "output/html/view_budget.h"
#include "results/results.h"

static void test_escape(void **state)
{
	char buf[128];
	size_t n;

	(void)state;
	n = report_html_escape(buf, sizeof(buf), "<a href=\"x\">&'</a>");
	assert_string_equal(buf,
			    "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	assert_int_equal(n, strlen(buf));
	/* Control codes XML cannot hold; tab and line breaks stay. */
	report_html_escape(buf, sizeof(buf), "a\x01" "b\tc\nd\x7f");
	assert_string_equal(buf, "a?b\tc\nd?");
	/* Well-formed UTF-8 passes; broken bytes become U+FFFD. */
	report_html_escape(buf, sizeof(buf), "µs ✓");
	assert_string_equal(buf, "µs ✓");
	report_html_escape(buf, sizeof(buf), "x\xff" "y\xc3");
	assert_string_equal(buf, "x\xef\xbf\xbdy\xef\xbf\xbd");
	/* Overlong '/', a surrogate, U+FFFF: refused by XML parsers. */
	report_html_escape(buf, sizeof(buf), "\xc0\xaf|\xed\xa0\x80|\xef\xbf\xbf");
	assert_string_equal(buf, "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* Like snprintf: the whole length back, the buffer cut and ended. */
	n = report_html_escape(buf, 6, "a<b<c");
	assert_int_equal(n, strlen("a&lt;b&lt;c"));
	assert_string_equal(buf, "a&lt;");
	assert_int_equal(report_html_escape(NULL, 0, "&&"), 10);
	report_html_escape(buf, sizeof(buf), "");
	assert_string_equal(buf, "");
}

static void test_hm_row(void **state)
{
	(void)state;
	assert_int_equal(report_hm_row(0), 0);
	assert_int_equal(report_hm_row(1), 0);
	assert_int_equal(report_hm_row(2), 2);
	assert_int_equal(report_hm_row(3), 3);
	assert_int_equal(report_hm_row(1024), 20);
	assert_int_equal(report_hm_row(1535), 20);
	assert_int_equal(report_hm_row(1536), 21);
	assert_int_equal(report_hm_row(2047), 21);
	assert_int_equal(report_hm_row(2048), 22);
	/* A kernel bucket [1088, 1152) lies in the row of its lo. */
	assert_int_equal(report_hm_row(1088), 20);
	assert_int_equal(report_hm_row(UINT64_MAX), 127);
}

/*
 * Three runs: run 1 traced with two intervals (cells: rows 20 and 21,
 * then row 20 twice, so 3), run 2 slow with one interval (1 cell) and an
 * outsider whose name needs escaping, run 3 untraced.
 */
static const char *const lines[] = {
	"{\"schema_version\":1,\"run\":1,\"ok\":true,\"rooms\":2,\"messages\":20,"
	"\"users_per_room\":20,\"elapsed_s\":0.2,\"throughput\":1000,"
	"\"slow\":false,\"latency\":{\"count\":5,\"p99_ns\":2000,\"buckets\":"
	"[{\"lo\":1024,\"hi\":1088,\"count\":5}]},"
	"\"kernel\":{\"roles\":{\"cli_rcv\":{\"rq_latency\":{\"count\":7,"
	"\"buckets\":[{\"lo\":1024,\"hi\":1088,\"count\":7}]}}},"
	"\"stealers\":[{\"comm\":\"srv_snd\",\"pid\":0,\"ns\":5000000,"
	"\"is_benchmark\":true,\"role\":\"srv_snd\"}],"
	"\"intervals\":["
	"{\"start_ns\":0,\"duration_ns\":100000000,\"messages\":100,"
	"\"rq_p99_ns\":1500,\"rq_buckets\":[{\"lo\":1024,\"hi\":1088,\"count\":3},"
	"{\"lo\":1536,\"hi\":1600,\"count\":2}]},"
	"{\"start_ns\":100000000,\"duration_ns\":100000000,\"messages\":100,"
	"\"rq_p99_ns\":1100,\"rq_buckets\":[{\"lo\":1024,\"hi\":1088,\"count\":1},"
	"{\"lo\":1088,\"hi\":1152,\"count\":1}]}]}}\n",
	"{\"schema_version\":1,\"run\":2,\"ok\":true,\"rooms\":2,\"messages\":20,"
	"\"users_per_room\":20,\"elapsed_s\":0.4,\"throughput\":500,"
	"\"slow\":true,\"causes\":[{\"kind\":\"outsider_cpu\",\"share\":1,"
	"\"figure\":\"outsider_pct\",\"now\":40,\"baseline\":5,"
	"\"sentence\":\"<evil&comm> took the CPU\",\"task\":\"<evil&comm>\","
	"\"pid\":42}],"
	"\"kernel\":{\"roles\":{\"cli_rcv\":{\"rq_latency\":{\"count\":7,"
	"\"buckets\":[{\"lo\":1048576,\"hi\":1114112,\"count\":7}]}}},"
	"\"stealers\":[{\"comm\":\"<evil&comm>\",\"pid\":42,\"ns\":300000000,"
	"\"is_benchmark\":false,\"role\":null}],"
	"\"intervals\":[{\"start_ns\":0,\"duration_ns\":400000000,"
	"\"messages\":200,\"rq_p99_ns\":1100000,\"rq_buckets\":["
	"{\"lo\":1048576,\"hi\":1114112,\"count\":7}]}]}}\n",
	"{\"schema_version\":1,\"run\":3,\"ok\":true,\"rooms\":2,\"messages\":20,"
	"\"users_per_room\":20,\"elapsed_s\":0.2,\"throughput\":1000,"
	"\"slow\":false}\n",
	"{\"summary\":{\"schema_version\":1,\"runs\":3,\"runs_attempted\":3,"
	"\"avg\":833.3,\"min\":500,\"max\":1000,\"median\":1000,\"rooms\":2,"
	"\"messages\":20,\"users_per_room\":20,\"kernel_release\":\"6.1<x>\","
	"\"host\":\"h&h\",\"cpus\":2,\"command_line\":\"chat_c --local 2 20\","
	"\"tracing\":\"on\",\"interrupted\":false}}\n",
};

/*
 * The verdict as chat_c writes it since it says what it can resolve: run
 * 1 normal with two dips (one explained, one not) between its ramp and
 * drain, run 2 disturbed but within the noise (one kind of evidence
 * unknown to this report), run 3 slow.  Two intervals a run, each s
 * seconds long; run 1 is the longest, so that its dips' labels fit.
 */
#define IVS(tp, s)							\
	"\"kernel\":{\"roles\":{},\"intervals\":[{\"start_ns\":0,"	\
	"\"duration_ns\":" #s "000000000,\"messages\":" #tp ","		\
	"\"rq_buckets\":[]},{\"start_ns\":" #s "000000000,"			\
	"\"duration_ns\":" #s "000000000,\"messages\":" #tp ","		\
	"\"rq_buckets\":[]}]}"
#define PHASES(drain, end)						\
	"\"phases\":{\"ramp_s\":[0,0.2],\"drain_s\":[" #drain "," #end "],"	\
	"\"median\":1000,\"noise_pct\":8},"

static const char *const verdict_lines[] = {
	"{\"schema_version\":1,\"run\":1,\"ok\":true,\"rooms\":2,"
	"\"messages\":20,\"elapsed_s\":4,\"throughput\":1000,\"slow\":false,"
	"\"disturbed\":false," PHASES(3.6, 4) "\"dips\":[{\"from_s\":0.6,"
	"\"to_s\":0.8,\"throughput\":600,\"low\":500,\"median\":1000,"
	"\"depth_pct\":40,\"noise_pct\":8,\"kind\":\"outsider_cpu\","
	"\"sentence\":\"outsider <hog> (pid 7) took 60 % of the CPUs\"},"
	"{\"from_s\":2.4,\"to_s\":2.6,\"throughput\":700,\"low\":650,"
	"\"median\":1000,\"depth_pct\":30,\"noise_pct\":8,\"kind\":null,"
	"\"sentence\":"
	"\"unexplained: idle 1 % vs 1 %\"}]," IVS(1000, 2) "}\n",
	"{\"schema_version\":1,\"run\":2,\"ok\":true,\"rooms\":2,"
	"\"messages\":20,\"elapsed_s\":2,\"throughput\":950,\"slow\":false,"
	"\"disturbed\":true,\"evidence\":[\"sched_contention\","
	"\"future_kind\"]," PHASES(1.8, 2) IVS(950, 1) "}\n",
	"{\"schema_version\":1,\"run\":3,\"ok\":true,\"rooms\":2,"
	"\"messages\":20,\"elapsed_s\":2,\"throughput\":500,\"slow\":true,"
	"\"disturbed\":true,\"evidence\":[\"outsider_cpu\"],\"causes\":"
	"[{\"kind\":\"outsider_cpu\",\"share\":1,\"figure\":\"outsider_pct\","
	"\"now\":40,\"baseline\":5,\"sentence\":\"hog took the CPU\","
	"\"task\":\"hog\",\"pid\":7}]," PHASES(1.8, 2) IVS(500, 1) "}\n",
	"{\"summary\":{\"schema_version\":1,\"runs\":3,\"runs_attempted\":3,"
	"\"avg\":816.7,\"min\":500,\"max\":1000,\"median\":950,\"rooms\":2,"
	"\"messages\":20,\"cpus\":2,\"tracing\":\"on\",\"verdict\":"
	"{\"reference\":\"series\",\"reference_runs\":2,"
	"\"reference_median\":1000,\"spread_pct\":9.2,\"min_slow_pct\":27.6,"
	"\"min_slow_evidence_pct\":9.2,\"slow_threshold\":724,"
	"\"slow_runs\":1}}}\n",
};

/*
 * Runs made with --profile: runs 1 to 5 with a profile, the slower the
 * later, and run 6, the slowest, without one.  Each profile has stacks of
 * cli_snd (on and off the CPU), srv_rcv (an empty on-CPU stack: the role
 * alone; blocked off the CPU) and an outsider whose name needs escaping:
 * five graphs a run.
 */
#define PROFILE							\
	"\"profile\":{\"hz\":99,\"samples\":14,\"outsider_samples\":3,"	\
	"\"expected_samples\":14.5,\"lost\":0,"				\
	"\"offcpu_ns\":{\"runqueue\":789,\"blocked\":123456},"		\
	"\"cost\":{\"run_time_ns\":1000,\"cpu_share\":0.0012},"		\
	"\"oncpu\":[{\"role\":\"cli_snd\",\"stack\":"			\
	"\"start_thread;sender_main;__send\",\"count\":12},"		\
	"{\"role\":\"outsider\",\"comm\":\"<qx&burn>\","		\
	"\"stack\":\"burn_loop\",\"count\":3},"				\
	"{\"role\":\"srv_rcv\",\"stack\":\"\",\"count\":2}],"		\
	"\"offcpu\":[{\"role\":\"srv_rcv\",\"kind\":\"blocked\","	\
	"\"stack\":\"start_thread;recv;schedule\",\"ns\":123456},"	\
	"{\"role\":\"cli_snd\",\"kind\":\"runqueue\","			\
	"\"stack\":\"start_thread;sender_main\",\"ns\":789}]}"
#define PRUN(n, tp, prof)						\
	"{\"schema_version\":1,\"run\":" #n ",\"ok\":true,\"rooms\":2,"	\
	"\"messages\":20,\"elapsed_s\":1,\"throughput\":" #tp ","		\
	"\"slow\":false" prof "}\n"

static const char *const profile_lines[] = {
	PRUN(1, 1000, "," PROFILE), PRUN(2, 900, "," PROFILE),
	PRUN(3, 800, "," PROFILE), PRUN(4, 700, "," PROFILE),
	PRUN(5, 600, "," PROFILE), PRUN(6, 100, ""),
	"{\"summary\":{\"schema_version\":1,\"runs\":6,"
	"\"runs_attempted\":6,\"avg\":683.3,\"min\":100,\"max\":1000,"
	"\"median\":750,\"rooms\":2,\"messages\":20,\"cpus\":2,"
	"\"tracing\":\"on\",\"interrupted\":false}}\n",
};

struct tmp {
	char dir[64];
	char json[128];
	char html[128];
};

static int write_file(void **state, const char *const *text, size_t n)
{
	struct tmp *t = calloc(1, sizeof(*t));
	FILE *f;
	size_t i;

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/test_report.XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->json, sizeof(t->json), "%s/r.json", t->dir);
	snprintf(t->html, sizeof(t->html), "%s/r.html", t->dir);
	f = fopen(t->json, "w");
	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fputs(text[i], f);
	if (fclose(f))
		return -1;
	*state = t;
	return 0;
}

static int setup(void **state)
{
	return write_file(state, lines, sizeof(lines) / sizeof(lines[0]));
}

static int setup_verdict(void **state)
{
	return write_file(state, verdict_lines,
			  sizeof(verdict_lines) / sizeof(verdict_lines[0]));
}

static int setup_profile(void **state)
{
	return write_file(state, profile_lines,
			  sizeof(profile_lines) / sizeof(profile_lines[0]));
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	unlink(t->json);
	unlink(t->html);
	rmdir(t->dir);
	free(t);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

static void render(struct tmp *t, size_t max_columns, char **page)
{
	struct report_opts o = { .max_columns = max_columns };
	struct result_file f;
	char err[256] = "";

	if (results_load(t->json, &f, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(report_html_write_opts(t->html, &f, 1, &o, err,
						sizeof(err)), 0);
	results_free(&f);
	*page = slurp(t->html);
}

static void test_page(void **state)
{
	struct tmp *t = *state;
	char *page;

	render(t, 0, &page);
	assert_int_equal(count(page, "class=\"run-bar"), 3);
	assert_int_equal(count(page, "class=\"run-bar slow\""), 1);
	assert_int_equal(count(page, "class=\"hm-cell"), 4);
	assert_non_null(strstr(page, "data-merge=\"1\""));
	assert_non_null(strstr(page, "data-intervals=\"3\""));
	/* The verdict names the run and the task, escaped. */
	assert_non_null(strstr(page, "Run 2 was slow"));
	assert_non_null(strstr(page, "another task took the CPUs"));
	assert_non_null(strstr(page, "&lt;evil&amp;comm&gt;"));
	assert_null(strstr(page, "<evil"));
	assert_non_null(strstr(page, "6.1&lt;x&gt;"));
	assert_non_null(strstr(page, "h&amp;h"));
	/* Self-contained: nothing a browser would fetch. */
	assert_null(strstr(page, "http"));
	assert_null(strstr(page, "//"));
	assert_null(strstr(page, "url("));
	assert_null(strstr(page, "@import"));
	assert_null(strstr(page, "<script"));
	assert_non_null(strstr(page, "</html>\n"));
	/* No run has a profile: no section, no style or script for it. */
	assert_null(strstr(page, "Profile"));
	assert_null(strstr(page, "flame"));
	/* A file from before the resolution was said: none, and no phases. */
	assert_null(strstr(page, "class=\"resolution\""));
	assert_null(strstr(page, "class=\"phase"));
	assert_null(strstr(page, "was disturbed"));
	free(page);
}

static void test_verdict(void **state)
{
	struct tmp *t = *state;
	char *page;

	render(t, 0, &page);
	/* What the series can resolve, and what it was held against. */
	assert_non_null(strstr(page, "<p class=\"resolution\">Runs vary ±9.2 %: slowdowns under 28 % are not called, nor under 9 % with kernel evidence of a disturbance. Held against the median 1 k msg/s of 2 of its 3 runs.</p>"));
	/* The slow run against the reference's median, not all runs'. */
	assert_non_null(strstr(page, "Run 3 was slow</b>: 500 msg/s, 50 % below the median 1 k msg/s"));
	assert_int_equal(count(page, "class=\"run-bar slow\""), 1);
	/* Disturbed, not slow: a quiet mark and its evidence in words. */
	assert_non_null(strstr(page, "<b>Run 2 was disturbed</b> but not slow"));
	assert_non_null(strstr(page, "benchmark threads queued behind each other and future_kind"));
	assert_int_equal(count(page, "class=\"run-bar disturbed\""), 1);
	assert_int_equal(count(page, "class=\"tag quiet\""), 1);
	assert_int_equal(count(page, "class=\"key quiet\""), 1);
	assert_non_null(strstr(page, "run 2 · disturbed"));
	/* Every run's ramp and drain, and the legend's swatch. */
	assert_int_equal(count(page, "class=\"phase ramp\""), 3);
	assert_int_equal(count(page, "class=\"phase drain\""), 3);
	assert_int_equal(count(page, "class=\"phase\""), 1);
	assert_non_null(strstr(page, "start-up ramp 0.0–0.2 s: not a dip"));
	/* Dips: depth, noise and cause on the timeline and in the table. */
	assert_int_equal(count(page, "<rect class=\"dip\""), 3);
	assert_int_equal(count(page, "40 % below the steady 1 k msg/s (intervals vary ±8 %): another task took the CPUs"), 2);
	assert_int_equal(count(page, "30 % below the steady 1 k msg/s (intervals vary ±8 %): unexplained"), 2);
	assert_non_null(strstr(page, ">−40 % · another task took the CPUs</text>"));
	assert_non_null(strstr(page, ">−30 % · unexplained</text>"));
	assert_non_null(strstr(page, "outsider &lt;hog&gt; (pid 7)"));
	assert_null(strstr(page, "<hog"));
	free(page);
}

static void test_merged(void **state)
{
	struct tmp *t = *state;
	char *page;

	/* One column: ceil(3 / 1) = 3 intervals per column, within a run. */
	render(t, 1, &page);
	assert_non_null(strstr(page, "data-merge=\"3\""));
	assert_non_null(strstr(page, "data-columns=\"2\""));
	assert_int_equal(count(page, "class=\"hm-cell"), 3);
	assert_int_equal(count(page, "class=\"run-bar"), 3);
	free(page);
}

/* The frames data-frames says graph "role/kind" of run has. */
static int graph_frames(const char *page, int run, const char *role,
			const char *kind)
{
	char key[96];
	const char *p, *end;
	int n = -1;

	snprintf(key, sizeof(key), "id=\"g0-prof%d\"", run);
	p = strstr(page, key);
	assert_non_null(p);
	end = strstr(p + 1, "<h4");
	snprintf(key, sizeof(key), "data-role=\"%s\" data-kind=\"%s\">", role,
		 kind);
	p = strstr(p, key);
	if (!p || (end && p > end))
		return -1;
	p = strstr(p, "data-frames=\"");
	assert_int_equal(sscanf(p, "data-frames=\"%d\"", &n), 1);
	return n;
}

static void test_profile(void **state)
{
	struct tmp *t = *state;
	const char *r5, *r4, *r2;
	char *page;

	render(t, 0, &page);
	/* The four slowest runs with a profile, slowest first. */
	assert_int_equal(count(page, "<h4 id=\"g0-prof"), 4);
	assert_null(strstr(page, "g0-prof1\""));
	assert_null(strstr(page, "g0-prof6\""));
	assert_non_null(strstr(page, "5 runs have a profile: the 4 slowest are drawn; left out: run 1."));
	r5 = strstr(page, "g0-prof5\"");
	r4 = strstr(page, "g0-prof4\"");
	r2 = strstr(page, "g0-prof2\"");
	assert_true(r5 && r4 && r2 && r5 < r4 && r4 < r2);
	/* Five graphs a run, each one svg, in the roles table's order. */
	assert_int_equal(count(page, "<div class=\"fg\""), 20);
	assert_int_equal(count(page, "<svg class=\"flame\""), 20);
	assert_true(strstr(r5, "data-role=\"cli_snd\"") <
		    strstr(r5, "data-role=\"srv_rcv\""));
	assert_true(strstr(r5, "data-role=\"srv_rcv\"") <
		    strstr(r5, "data-role=\"outsider\""));
	/* Role box and three frames; the role box alone for srv_rcv. */
	assert_int_equal(graph_frames(page, 5, "cli_snd", "oncpu"), 4);
	assert_int_equal(graph_frames(page, 5, "srv_rcv", "oncpu"), 1);
	/* Off CPU: role, [blocked], three frames. */
	assert_int_equal(graph_frames(page, 5, "srv_rcv", "offcpu"), 5);
	assert_int_equal(graph_frames(page, 5, "cli_snd", "offcpu"), 4);
	assert_int_equal(graph_frames(page, 5, "outsider", "oncpu"), 3);
	assert_int_equal(graph_frames(page, 5, "outsider", "offcpu"), -1);
	assert_non_null(strstr(page, "<title>[blocked]\n123.5 µs · 100 %</title>"));
	/* The summary line. */
	assert_non_null(strstr(page, "14 samples at 99 Hz of the benchmark's threads, 0.97× the 14 their CPU time predicts · 3 samples of other tasks · none lost"));
	assert_non_null(strstr(page, "profiler cost 0.120 % of the CPUs"));
	/* The outsider's name escaped, in its title and its label. */
	assert_non_null(strstr(page, "<title>&lt;qx&amp;burn&gt;\n3 samples"));
	assert_null(strstr(page, "<qx"));
	/* Its style in the head, its script once at the end. */
	assert_int_equal(count(page, ".flame .fr{cursor:pointer}"), 1);
	assert_int_equal(count(page, "<script>"), 1);
	assert_non_null(strstr(page, "</script>\n</body>\n</html>\n"));
	free(page);
}

static void test_errors(void **state)
{
	struct tmp *t = *state;
	struct result_file f;
	char err[256] = "";

	assert_int_equal(report_html_write(t->html, NULL, 0, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no result files"));
	assert_int_equal(results_load(t->json, &f, err, sizeof(err)), 0);
	assert_int_equal(report_html_write("/nonexistent/dir/r.html", &f, 1,
					   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/dir/r.html"));
	assert_int_equal(access("/nonexistent/dir/r.html.tmp", F_OK), -1);
	results_free(&f);
}

/*
 * One run's line with a budget: 2 CPUs x 1 s, 4 threads x 1 s whose
 * waits were held by their own roles (10 + 5), ksoftirqd (20), nobody
 * (30), outsiders of two classes (40 + 50) and nobody known (5); and a
 * loss whose lines grew and shrank across those groups.
 */
static const char budget_run[] =
	"{\"run\":1,\"ok\":true,\"throughput\":1,\"slow\":true,"
	"\"kernel\":{\"budget\":{\"wall_ns\":1000000000,"
	"\"cpus\":{\"ncpus\":2,\"supply_ns\":2000000000,\"lines\":{"
	"\"benchmark\":1500000000,\"idle\":400000000,"
	"\"offline\":100000000}},"
	"\"threads\":{\"subjects\":{\"threads\":4,"
	"\"total_ns\":4000000000,\"oncpu_ns\":1500000000,"
	"\"wait_ns\":160,\"wait_by\":{\"cli_snd\":10,\"srv_snd\":5,"
	"\"ksoftirqd\":20,\"idle_cpu\":30,\"outsider_fair\":40,"
	"\"outsider_rt\":50,\"unknown\":5},"
	"\"blocked_ns\":2000000000,\"blocked_by\":{\"ptrace\":2000000000},"
	"\"gone_ns\":499999840}}}},"
	"\"loss\":{\"lost_ns_per_msg\":12,\"grown_ns_per_msg\":20,"
	"\"unexplained\":0.25,\"lines_ns_per_msg\":{\"cpu:offline\":11,"
	"\"wait:cli_rcv\":3,\"wait:srv_snd\":-1,\"wait:outsider_rt\":7,"
	"\"blocked:ptrace\":9,\"threads:gone\":-2}}}";

static void budget_view_of(json_t *line, bool failed, struct run_view *rv)
{
	static struct result_run r;

	memset(&r, 0, sizeof(r));
	memset(rv, 0, sizeof(*rv));
	r.run = 1;
	r.ok = !failed;
	r.json = line;
	rv->r = &r;
	rv->failed = failed;
	rv->slow = !failed;
	rv->kernel = json_object_get(line, "kernel");
	view_budget(rv);
}

static void test_budget_view(void **state)
{
	json_t *line = json_loads(budget_run, 0, NULL), *idle;
	struct run_view rv;
	char name[48];

	(void)state;
	assert_non_null(line);
	budget_view_of(line, false, &rv);
	assert_true(rv.bv.valid);
	assert_int_equal(rv.budget.cpus.line[KB_CPU_OFFLINE], 100000000);
	assert_true(rv.bv.thr[BT_ONCPU] == 1500000000.0);
	assert_true(rv.bv.thr[BT_WAIT_OWN] == 15);
	assert_true(rv.bv.thr[BT_WAIT_KSOFTIRQD] == 20);
	assert_true(rv.bv.thr[BT_WAIT_IDLE] == 30);
	assert_true(rv.bv.thr[BT_WAIT_OUTSIDER] == 90);
	assert_true(rv.bv.thr[BT_WAIT_UNKNOWN] == 5);
	assert_true(rv.bv.thr[BT_BLOCKED + CB_BLOCK_PTRACE] == 2e9);
	assert_true(rv.bv.thr[BT_GONE] == 499999840.0);
	/* The account's growths: per line, and per group of the bar. */
	assert_true(rv.acct.valid);
	assert_true(rv.acct.unexplained == 0.25);
	assert_true(rv.acct.grown[LL_CPU(KB_CPU_OFFLINE)] == 11);
	assert_true(rv.acct.grown[LL_CPU(KB_CPU_IDLE)] == 0);
	assert_true(rv.bv.thr_grown[BT_WAIT_OWN] == 2);
	assert_true(rv.bv.thr_grown[BT_WAIT_OUTSIDER] == 7);
	assert_true(rv.bv.thr_grown[BT_BLOCKED + CB_BLOCK_PTRACE] == 9);
	assert_true(rv.bv.thr_grown[BT_GONE] == -2);
	assert_string_equal(bt_name(BT_BLOCKED + CB_BLOCK_PTRACE, name,
				    sizeof(name)), "blocked_ptrace");
	assert_string_equal(bt_name(BT_WAIT_IDLE, name, sizeof(name)),
			    "wait_idle_cpu");
	/* A failed run's figures stop where it did: no budget, no account. */
	budget_view_of(line, true, &rv);
	assert_false(rv.bv.valid);
	assert_false(rv.acct.valid);
	/* CPU lines that do not add up to the supply: refused. */
	idle = json_object_get(json_object_get(json_object_get(json_object_get(
		json_object_get(line, "kernel"), "budget"), "cpus"), "lines"),
		"idle");
	json_integer_set(idle, 900000000);
	budget_view_of(line, false, &rv);
	assert_false(rv.bv.valid);
	/* A file from before the budget: none, quietly. */
	json_object_del(json_object_get(line, "kernel"), "budget");
	budget_view_of(line, false, &rv);
	assert_false(rv.bv.valid);
	json_decref(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_hm_row),
		cmocka_unit_test_setup_teardown(test_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdict, setup_verdict,
						teardown),
		cmocka_unit_test_setup_teardown(test_profile, setup_profile,
						teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test(test_budget_view),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
