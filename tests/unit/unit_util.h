/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers that several unit tests of rendered text share. */
#ifndef CHATBENCH_UNIT_UTIL_H
#define CHATBENCH_UNIT_UTIL_H

#include <string.h>

/* Non-overlapping occurrences of needle in hay. */
static inline size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

#endif
