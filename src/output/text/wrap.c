// SPDX-License-Identifier: GPL-2.0
/*
 * Wrapping the sentences of the verdict and of the comparison, so that
 * both read alike and stay inside a terminal.
 */
#include <string.h>

#include "output/text/wrap.h"

void text_wrap(FILE *f, const char *head, const char *text, int width,
	       int indent)
{
	int col = fprintf(f, "%s", head);
	const char *p = text;
	int sep = 0;

	while (*p) {
		const char *end = strchr(p, ' ');
		int len;

		/* "12 %" stays on one line. */
		while (end && end[1] == '%')
			end = strchr(end + 1, ' ');
		len = end ? (int)(end - p) : (int)strlen(p);
		if (col + sep + len > width && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (sep) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", len, p);
		p += len;
		while (*p == ' ')
			p++;
		sep = 1;
	}
	fputc('\n', f);
}
