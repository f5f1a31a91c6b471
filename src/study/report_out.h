/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --report of chat_c and chatbench-judge: the HTML report of the lines a
 * json_out holds, read back through the result loader like any saved
 * file, so that a report of a live study and one of a judged file are
 * made the same way.
 */
#ifndef CHATBENCH_REPORT_OUT_H
#define CHATBENCH_REPORT_OUT_H

#include <stddef.h>

struct json_out;

/* Whether path can be written: checked before the first run. */
int report_out_check(const char *path, char *err, size_t len);
/*
 * The report of every line json holds into path; source names them on
 * the page (the --json file, or what they came from).  prog prefixes the
 * note that says where it went.  0, or -1 with a reason in err.
 */
int report_out_write(struct json_out *json, const char *source,
		     const char *path, const char *prog, char *err,
		     size_t len);

#endif
