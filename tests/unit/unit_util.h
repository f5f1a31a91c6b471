/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers that several unit tests share. */
#ifndef CHATBENCH_UNIT_UTIL_H
#define CHATBENCH_UNIT_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

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

/*
 * A recorded file of tests/data (gzip) into a temporary file whose path
 * goes into out; 0, or -1.  The caller unlinks it.
 */
static inline int unit_gunzip(const char *gz, char *out, size_t len)
{
	char buf[65536];
	gzFile in = gzopen(gz, "rb");
	FILE *f;
	int fd, n = 0;

	snprintf(out, len, "/tmp/chatbench-unit.XXXXXX");
	fd = mkstemp(out);
	if (!in || fd < 0) {
		if (in)
			gzclose(in);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	f = fdopen(fd, "w");
	while ((n = gzread(in, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, f);
	gzclose(in);
	return fclose(f) || n < 0 ? -1 : 0;
}

#endif
