/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chatbench-judge: saved series judged again by today's analysis.  Each
 * group of a result file (a series, or a sweep point) is read back into
 * run records (src/results/series_load.h), made a series and judged by
 * series_analyse()
 * like a live series, and rendered by the same outputs: the text from the
 * series summary on is the live text, byte for byte, when the rules are
 * the same.
 */
#ifndef CHATBENCH_JUDGE_H
#define CHATBENCH_JUDGE_H

#include <stdbool.h>
#include <stdio.h>

struct baseline;
struct json_out;

struct judge_opts {
	double slow_pct;	/* 0: as the file was judged (else 10) */
	bool quiet;		/* no Placement line */
	const struct baseline *baseline;	/* NULL: each series itself */
	FILE *text;
	struct json_out *json;	/* the judged lines, or NULL */
};

struct result_group;
struct series;

/*
 * A group of a loaded result file as a series ready for series_analyse()
 * (zeroed first; strings point into g).  0, or -1 with a one-line reason
 * in err; missing says what the file lacks (see saved_runs_load()).
 */
int judge_series_load(const struct result_group *g, struct series *s,
		      char *missing, size_t mlen, char *err, size_t len);
/*
 * Judges every group of the file at path.  0 on success; -1 with a
 * one-line reason in err when the file cannot be read or a record in it
 * is malformed (nothing judged is then printed for the file).
 */
int judge_file(const char *path, const struct judge_opts *o, char *err,
	       size_t len);

#endif
