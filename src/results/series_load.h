/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved series back into the records the analysis judges: the run
 * lines of one group of a result file (src/results/results.h) as run
 * records (struct run_result), kernel records and their intervals
 * included, with the point they were measured at.  Whoever judges them
 * (chatbench-judge, the replay tests) puts them into a struct series and
 * calls series_analyse() exactly as a live chat_c does: one path.
 */
#ifndef CHATBENCH_SERIES_LOAD_H
#define CHATBENCH_SERIES_LOAD_H

#include <stddef.h>

#include "workload/client/run_record.h"

struct result_group;

struct saved_runs {
	int rooms, messages, users;	/* the point */
	const char *sweep_param;	/* NULL without a sweep */
	long sweep_value;
	const char *sweep_text;		/* a policy of --sweep sched */
	struct run_result *runs;	/* n entries, in file order */
	size_t n;
};

/*
 * Fills out from g.  Strings point into g, which must outlive them.  0 on
 * success (release with saved_runs_free, or hand runs over to a series,
 * whose series_free releases them); -1 with a one-line reason in err when
 * a run line or its kernel record is malformed or memory runs out.
 * missing gets a comma-separated list of what the file lacks that the
 * live verdict would have read ("time budgets", "intervals"), "" when
 * nothing.
 */
int saved_runs_load(const struct result_group *g, struct saved_runs *out,
		    char *missing, size_t mlen, char *err, size_t len);
void saved_runs_free(struct saved_runs *sr);
/*
 * Hands sr's runs and point over to s (zeroed first): series_free()
 * releases them from then on.
 */
struct series;
void saved_runs_to_series(struct saved_runs *sr, struct series *s);

#endif
