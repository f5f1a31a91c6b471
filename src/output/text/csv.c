// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 4180 fields: the comparison table and its explanation write the
 * same way, so that a spreadsheet reads both.
 */
#include <stdio.h>
#include <string.h>

#include "output/text/csv.h"

void csv_field(const char *s, bool last)
{
	const char *p;

	if (s && strpbrk(s, ",\"\r\n")) {
		putchar('"');
		for (p = s; *p; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	} else if (s) {
		fputs(s, stdout);
	}
	putchar(last ? '\n' : ',');
}

void csv_num(bool have, int decimals, double v)
{
	if (have)
		printf("%.*f", decimals, v);
	putchar(',');
}
