/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line helpers shared by every program: strict numbers (all digits,
 * in range, or an error) and getopt complaints.
 */
#ifndef CHATBENCH_NUMARG_H
#define CHATBENCH_NUMARG_H

#include <stddef.h>

/* 0 and *out, or -1 with "NAME must be ..." written to err. */
int parse_long(const char *s, const char *name, long lo, long hi, long *out,
	       char *err, size_t len);

/* The same for a decimal number ("2", "0.5"), finite, lo <= v <= hi. */
int parse_double(const char *s, const char *name, double lo, double hi,
		 double *out, char *err, size_t len);

/*
 * After getopt_long returned ':' (missing value) or '?' (unknown option):
 * the one-line complaint, the same in every program of the project.
 */
void opt_error(int c, char **argv, char *err, size_t len);

#endif
