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

#endif
