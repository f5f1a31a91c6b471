/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Durations for people, the same way in every text output and sentence,
 * and the one-line reasons that functions hand back to their callers.
 */
#ifndef CHATBENCH_FMT_H
#define CHATBENCH_FMT_H

#include <stddef.h>

/*
 * ns as "812ns", "3.4us", "12.0ms" or "1.25s"; the thresholds sit where
 * rounding would print "1000.0us".  Returns buf.
 */
const char *fmt_ns(char *buf, size_t len, double ns);
/* The same for typeset pages: "812 ns", "3.4 µs", "12.0 ms". */
const char *fmt_ns_spaced(char *buf, size_t len, double ns);

/* printf into err, when err and len are set: a caller's one-line reason. */
void fmt_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
