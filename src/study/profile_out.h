/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of --profile-out and --timeline, written as each run ends:
 * folded stacks accumulate over the runs of a study (they add up), the
 * timeline holds the slowest second seen so far (rewritten when a later
 * run has a slower one).
 */
#ifndef CHATBENCH_PROFILE_OUT_H
#define CHATBENCH_PROFILE_OUT_H

#include <stddef.h>
#include <stdio.h>

struct client_opts;
struct run_result;

struct prof_out {
	FILE *on, *off;
	const char *on_path;
	char *off_path;
	const char *tl_path;
	double tl_best;		/* msg/s of the window written; < 0: none */
	double slow_pct;
};

/*
 * Makes the profile's files now (new and empty) and checks the
 * timeline's path, so that a bad path fails at once.
 */
int prof_out_open(struct prof_out *po, const struct client_opts *o,
		  char *err, size_t len);
/* After run r: its stacks and timeline out; r's timeline is freed. */
int prof_out_run(struct prof_out *po, FILE *text, struct run_result *r,
		 char *err, size_t len);
int prof_out_close(struct prof_out *po, char *err, size_t len);

#endif
