/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for the HTML report, shared by the page, the SVG pieces and the
 * sections so that a string is escaped, and a figure written, the same
 * way wherever it shows.  The formatters write into b (n bytes) and
 * return b, so that a call can stand as a printf argument.
 */
#ifndef CHATBENCH_REPORT_FMT_H
#define CHATBENCH_REPORT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * s as XML text or attribute value into dst (always NUL-terminated when
 * len > 0): & < > " ' as entities, control characters other than tab and
 * line breaks as '?', malformed UTF-8 as U+FFFD.  Returns the length the
 * whole escaped string needs, like snprintf.
 */
size_t report_html_escape(char *dst, size_t len, const char *s);

void html_esc(FILE *f, const char *s);

const char *fmt_bytes(char *b, size_t n, double v);
const char *fmt_rate(char *b, size_t n, double v);
const char *fmt_rate_tick(char *b, size_t n, double v, double step);
const char *fmt_decade(char *b, size_t n, double v, bool bytes);
const char *fmt_ns_tick(char *b, size_t n, double v, double step);

double nice_step(double max, int want);

#endif
