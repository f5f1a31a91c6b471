// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over what chatbench-judge reads: a result file of any
 * bytes, loaded by src/results/, turned into run records (kernel records,
 * budgets and intervals included) by judge_series_load(), judged by
 * series_analyse() and rendered as text and JSON.  A saved file may be
 * truncated, hand-edited or written by an older version: the loader must
 * refuse it with a reason or judge what it holds, never crash, hang or
 * read out of bounds (ASan and UBSan abort on any of those).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/series.h"
#include "output/json/diag_json.h"
#include "output/text/diag_text.h"
#include "results/results.h"
#include "results/series_load.h"
#include "study/judge.h"

/* Like assert(), but never compiled out: NDEBUG must not blind the fuzzer. */
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static FILE *sink;

static void judge_group(const struct result_group *g)
{
	char err[256] = "", missing[160];
	struct series s;
	json_t *v;

	if (judge_series_load(g, &s, missing, sizeof(missing), err,
			      sizeof(err))) {
		/* A refusal says why, in one line. */
		CHECK(err[0] && !strchr(err, '\n'));
		return;
	}
	CHECK(s.attempted == g->nr_runs);
	if (!series_analyse(&s, NULL, 10)) {
		diag_print(sink, &s);
		v = diag_json_summary(&s);
		json_decref(v);
	}
	series_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[256] = "";
	struct result_file rf;
	size_t i;
	int fd;

	if (!sink)
		sink = fopen("/dev/null", "w");
	/* The loader reads paths: a memory file stands for the saved one. */
	fd = memfd_create("fuzz_results", 0);
	CHECK(fd >= 0 && sink);
	CHECK(write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (results_load_flags(path, RESULTS_ALLOW_NO_SUMMARY, &rf, err,
			       sizeof(err))) {
		CHECK(err[0] && !strchr(err, '\n'));
		close(fd);
		return 0;
	}
	for (i = 0; i < rf.nr_groups; i++)
		judge_group(&rf.groups[i]);
	results_free(&rf);
	close(fd);
	return 0;
}
