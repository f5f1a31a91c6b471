/* SPDX-License-Identifier: GPL-2.0 */
/* Strict parsing of numeric arguments: all digits, in range, or an error. */
#ifndef CHATBENCH_NUMARG_H
#define CHATBENCH_NUMARG_H

#include <stddef.h>

/* 0 and *out, or -1 with "NAME must be ..." written to err. */
int parse_long(const char *s, const char *name, long lo, long hi, long *out,
	       char *err, size_t len);

#endif
