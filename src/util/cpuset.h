/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lists as users write them ("0-3,6", the format of taskset -c and of
 * /proc/<pid>/status Cpus_allowed_list) turned into cpu_set_t and back,
 * and the placement of one thread: confined to a set, or pinned to one
 * CPU of it picked round-robin.  Shared by the server and the client, so
 * nothing here knows about either.
 */
#ifndef CHATBENCH_CPUSET_H
#define CHATBENCH_CPUSET_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Parse a list of CPU numbers and ranges into set.  With avail, every CPU
 * must also be in avail (pass the process's allowed CPUs to refuse CPUs
 * the machine does not have or we may not use).  0, or -1 with a
 * sentence in err that does not name the option.
 */
int cpuset_parse(const char *list, cpu_set_t *set, const cpu_set_t *avail,
		 char *err, size_t len);
/*
 * The set as a list with ranges, "" when empty.  Returns the length, or
 * -1 when buf is too small (buf then holds a truncated list).
 */
int cpuset_format(const cpu_set_t *set, char *buf, size_t len);
/* The CPUs the calling process may run on; 0 or -1 with errno. */
int cpuset_allowed(cpu_set_t *set);
/* The (k mod count)-th CPU of set in ascending order; -1 if set is empty. */
int cpuset_nth(const cpu_set_t *set, unsigned int k);
/*
 * Confine thread t to set, or with pin to the single CPU
 * cpuset_nth(set, k).  0 or an errno value (pthread style).
 */
int cpuset_place(pthread_t t, const cpu_set_t *set, bool pin, unsigned int k);
/*
 * The same placement in the attributes of a thread about to be created,
 * so that it runs nowhere else, not even before its creator could place
 * it (a test that reads a thread's CPUs once it has named itself would
 * otherwise see it unplaced).
 */
int cpuset_place_attr(pthread_attr_t *a, const cpu_set_t *set, bool pin,
		      unsigned int k);

#endif
