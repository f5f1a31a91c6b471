/* SPDX-License-Identifier: GPL-2.0 */
/* Durations for people, the same way in every text output and sentence. */
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

#endif
