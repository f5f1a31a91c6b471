// SPDX-License-Identifier: GPL-2.0
/* Small files of /proc/PID/ read whole. */
#include <stdio.h>

#include "util/procfs.h"

ssize_t proc_read(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	size_t n;
	FILE *f;

	if (pid <= 0 || !len)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (ssize_t)n;
}
