// SPDX-License-Identifier: GPL-2.0
/* Durations for people, and the one-line error sentences of callers. */
#include <stdarg.h>
#include <stdio.h>

#include "util/fmt.h"

static const char *fmt_ns_as(char *buf, size_t len, double ns,
			     const char *sep, const char *us)
{
	if (ns < 999.5)
		snprintf(buf, len, "%.0f%sns", ns, sep);
	else if (ns < 999.95e3)
		snprintf(buf, len, "%.1f%s%s", ns / 1e3, sep, us);
	else if (ns < 999.95e6)
		snprintf(buf, len, "%.1f%sms", ns / 1e6, sep);
	else
		snprintf(buf, len, "%.2f%ss", ns / 1e9, sep);
	return buf;
}

const char *fmt_ns(char *buf, size_t len, double ns)
{
	return fmt_ns_as(buf, len, ns, "", "us");
}

const char *fmt_ns_spaced(char *buf, size_t len, double ns)
{
	return fmt_ns_as(buf, len, ns, " ", "µs");
}

void fmt_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}
