// SPDX-License-Identifier: GPL-2.0
/*
 * One strict number parser for every option of both programs, so that
 * "10x", "" and "99999999999" are refused the same way everywhere.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/numarg.h"

int parse_long(const char *s, const char *name, long lo, long hi, long *out,
	       char *err, size_t len)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi) {
		snprintf(err, len, "%s must be an integer from %ld to %ld, not '%s'",
			 name, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_double(const char *s, const char *name, double lo, double hi,
		 double *out, char *err, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo && v <= hi)) {
		snprintf(err, len, "%s must be a number from %g to %g, not '%s'",
			 name, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

void opt_error(int c, char **argv, char *err, size_t len)
{
	if (c == ':')
		snprintf(err, len, "option %s needs a value (see --help)",
			 argv[optind - 1]);
	else if (optopt)
		snprintf(err, len, "unknown option '-%c' (see --help)", optopt);
	else
		snprintf(err, len, "unknown option '%s' (see --help)",
			 argv[optind - 1]);
}
