// SPDX-License-Identifier: GPL-2.0
/*
 * Process CPU times.  For the server, /proc/PID/stat's utime and stime
 * include the threads that already exited, which is what a run needs:
 * the server's workers are gone by the time the run is measured.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/cpuacct.h"
#include "util/procfs.h"

void cpu_times_self(struct cpu_times *t)
{
	struct rusage ru;

	memset(t, 0, sizeof(*t));
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	t->user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	t->sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	t->valid = true;
}

void cpu_times_pid(pid_t pid, struct cpu_times *t)
{
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);
	char buf[1024], *p;

	memset(t, 0, sizeof(*t));
	if (hz <= 0 || proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return;
	/* comm may hold spaces and parentheses: fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2,
			 "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return;
	t->user_s = (double)ut / (double)hz;
	t->sys_s = (double)st / (double)hz;
	t->valid = true;
}

double cpu_steal_s(void)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return 0;
	/* user nice system idle iowait irq softirq steal */
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8 || hz <= 0)
		return 0;
	return (double)v[7] / (double)hz;
}

void cpu_times_delta(const struct cpu_times *a, const struct cpu_times *b,
		     struct cpu_times *d)
{
	memset(d, 0, sizeof(*d));
	if (!a->valid || !b->valid)
		return;
	d->user_s = b->user_s - a->user_s;
	d->sys_s = b->sys_s - a->sys_s;
	d->valid = true;
}
