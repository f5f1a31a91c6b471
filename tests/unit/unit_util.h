/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers that several unit tests share. */
#ifndef CHATBENCH_UNIT_UTIL_H
#define CHATBENCH_UNIT_UTIL_H

#include <stdint.h>
#include <string.h>

#include "tracer/budget.h"

/* Non-overlapping occurrences of needle in hay. */
static inline size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* The CPU lines of a time budget, summed: they must make the supply. */
static inline int64_t cpu_sum(const struct kb_cpus *c)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < KB_NR_CPU_LINES; i++)
		s += c->line[i];
	return s;
}

#endif
