// SPDX-License-Identifier: GPL-2.0
/*
 * Checks and raises of the limits that a large run meets first.  The
 * numbers go into the error so that the user knows what to raise and to
 * what value.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/reslimit.h"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Threads on the whole system: the 4th field of /proc/loadavg is r/total. */
static long system_threads(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	long running = 0, total = -1;
	double a, b, c;

	if (!f)
		return -1;
	if (fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &running,
		   &total) != 5)
		total = -1;
	fclose(f);
	return total;
}

int limits_ensure_fds(unsigned long need, char *err, size_t len)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		snprintf(err, len, "getrlimit(RLIMIT_NOFILE): %s",
			 strerror(errno));
		return -1;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
	} else {
		/* Only a privileged process may raise the hard limit. */
		rl.rlim_cur = need;
		rl.rlim_max = need;
	}
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		struct rlimit now;

		getrlimit(RLIMIT_NOFILE, &now);
		snprintf(err, len,
			 "needs %lu file descriptors but RLIMIT_NOFILE allows %llu (hard limit %llu; raise it with ulimit -Hn %lu)",
			 need, (unsigned long long)now.rlim_cur,
			 (unsigned long long)now.rlim_max, need);
		return -1;
	}
	return 0;
}

int limits_check_threads(unsigned long need, char *err, size_t len)
{
	long threads_max = read_long("/proc/sys/kernel/threads-max");
	long pid_max = read_long("/proc/sys/kernel/pid_max");
	long used = system_threads();
	struct rlimit rl;

	if (used < 0)
		return 0;
	if (threads_max > 0 && used + (long)need > threads_max) {
		snprintf(err, len,
			 "needs %lu more threads but kernel.threads-max is %ld with %ld in use",
			 need, threads_max, used);
		return -1;
	}
	if (pid_max > 0 && used + (long)need > pid_max) {
		snprintf(err, len,
			 "needs %lu more threads but kernel.pid_max is %ld with %ld in use",
			 need, pid_max, used);
		return -1;
	}
	if (geteuid() && !getrlimit(RLIMIT_NPROC, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY && need > rl.rlim_cur) {
		snprintf(err, len,
			 "needs %lu threads but RLIMIT_NPROC is %llu (ulimit -u)",
			 need, (unsigned long long)rl.rlim_cur);
		return -1;
	}
	return 0;
}

size_t limits_thread_stack(void)
{
	long min = sysconf(_SC_THREAD_STACK_MIN);

	return min > CHAT_THREAD_STACK ? (size_t)min : CHAT_THREAD_STACK;
}

/* pthread calls return their error: errno carries it to the callers. */
int limits_thread_attr(pthread_attr_t *attr)
{
	int err = pthread_attr_init(attr);

	if (err) {
		errno = err;
		return -1;
	}
	err = pthread_attr_setstacksize(attr, limits_thread_stack());
	if (err) {
		pthread_attr_destroy(attr);
		errno = err;
		return -1;
	}
	return 0;
}

void limits_thread_error(int err, unsigned long nth, unsigned long need,
			 char *buf, size_t len)
{
	char nproc[24] = "unlimited";
	struct rlimit rl;

	if (err != EAGAIN) {
		snprintf(buf, len, "cannot create thread %lu of %lu: %s", nth,
			 need, strerror(err));
		return;
	}
	if (!getrlimit(RLIMIT_NPROC, &rl) && rl.rlim_cur != RLIM_INFINITY)
		snprintf(nproc, sizeof(nproc), "%llu",
			 (unsigned long long)rl.rlim_cur);
	snprintf(buf, len,
		 "cannot create thread %lu of %lu: RLIMIT_NPROC (ulimit -u) %s counts all tasks of uid %u; or kernel.threads-max %ld, or the cgroup's pids.max",
		 nth, need, nproc, (unsigned int)getuid(),
		 read_long("/proc/sys/kernel/threads-max"));
}
