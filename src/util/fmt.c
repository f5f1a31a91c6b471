// SPDX-License-Identifier: GPL-2.0
/* Durations for people. */
#include <stdio.h>

#include "util/fmt.h"

const char *fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 999.5)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < 999.95e3)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 999.95e6)
		snprintf(buf, len, "%.1fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
	return buf;
}
