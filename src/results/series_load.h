/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved series back into the records the analysis judges: the run
 * lines of one group of a result file (src/results/results.h) as struct
 * run_result, kernel records and their intervals included, so that a
 * series saved by chat_c --json is judged by series_analyse() exactly as
 * the live series was.  The analysis then cannot tell a file from a live
 * run: one path.
 */
#ifndef CHATBENCH_SERIES_LOAD_H
#define CHATBENCH_SERIES_LOAD_H

#include <stddef.h>

struct result_group;
struct series;

/*
 * Fills s (zeroed first) from g: its point (rooms, messages, users, the
 * sweep) and a run per run line, in file order.  Strings point into g,
 * which must outlive s; free s with series_free().  0 on success; -1
 * with a one-line reason in err when a run line or its kernel record is
 * malformed or memory runs out.  missing gets a comma-separated list of
 * what the file lacks that the live verdict would have read ("kernel
 * records", "time budgets", "intervals"), "" when nothing.
 */
int series_from_group(const struct result_group *g, struct series *s,
		      char *missing, size_t mlen, char *err, size_t len);

#endif
