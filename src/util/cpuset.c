// SPDX-License-Identifier: GPL-2.0
/*
 * CPU lists for --cpus and the placement of threads on them.  The parser
 * is strict: a typo in a CPU list would silently change what a benchmark
 * measures, so anything but "N" and "N-M" items separated by commas is an
 * error that quotes the offending item.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/cpuset.h"

/*
 * Digits only, below CPU_SETSIZE.  Returns the end of the number or NULL;
 * strtol is avoided because it accepts signs and leading blanks.
 */
static const char *parse_cpu(const char *s, int *cpu)
{
	long v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v >= CPU_SETSIZE)
			v = CPU_SETSIZE;	/* stays too big, no overflow */
		s++;
	}
	*cpu = (int)v;
	return s;
}

/* Length of the item starting at s, for quoting it in an error. */
static int item_len(const char *s)
{
	return (int)strcspn(s, ",");
}

int cpuset_parse(const char *list, cpu_set_t *set, const cpu_set_t *avail,
		 char *err, size_t len)
{
	const char *s = list;

	CPU_ZERO(set);
	if (!*s) {
		snprintf(err, len, "empty CPU list (expected e.g. 0-3,6)");
		return -1;
	}
	for (;;) {
		const char *item = s;
		int lo, hi, cpu;

		if (*item == ',' || !*item) {
			snprintf(err, len, "empty item in CPU list '%s'", list);
			return -1;
		}
		s = parse_cpu(item, &lo);
		hi = lo;
		if (s && *s == '-')
			s = parse_cpu(s + 1, &hi);
		if (!s || (*s && *s != ',')) {
			snprintf(err, len,
				 "'%.*s' in '%s' is not a CPU number or range (expected e.g. 0-3,6)",
				 item_len(item), item, list);
			return -1;
		}
		if (lo >= CPU_SETSIZE || hi >= CPU_SETSIZE) {
			snprintf(err, len,
				 "CPU '%.*s' is beyond the largest supported CPU %d",
				 item_len(item), item, CPU_SETSIZE - 1);
			return -1;
		}
		if (lo > hi) {
			snprintf(err, len, "range %d-%d is backwards (write %d-%d)",
				 lo, hi, hi, lo);
			return -1;
		}
		for (cpu = lo; cpu <= hi; cpu++) {
			if (avail && !CPU_ISSET(cpu, avail)) {
				char have[256];

				cpuset_format(avail, have, sizeof(have));
				snprintf(err, len,
					 "CPU %d is not available (allowed CPUs: %s)",
					 cpu, have);
				return -1;
			}
			CPU_SET(cpu, set);
		}
		if (!*s)
			return 0;
		s++;	/* the comma; an empty item after it fails above */
	}
}

int cpuset_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu = 0;

	if (len)
		buf[0] = '\0';
	while (cpu < CPU_SETSIZE) {
		int lo, n;

		if (!CPU_ISSET(cpu, set)) {
			cpu++;
			continue;
		}
		lo = cpu;
		while (cpu + 1 < CPU_SETSIZE && CPU_ISSET(cpu + 1, set))
			cpu++;
		if (lo == cpu)
			n = snprintf(buf + used, len - used, "%s%d",
				     used ? "," : "", lo);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d",
				     used ? "," : "", lo, cpu);
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += (size_t)n;
		cpu++;
	}
	return (int)used;
}

int cpuset_allowed(cpu_set_t *set)
{
	CPU_ZERO(set);
	return sched_getaffinity(0, sizeof(*set), set);
}

int cpuset_nth(const cpu_set_t *set, unsigned int k)
{
	int count = CPU_COUNT(set);
	int cpu;

	if (!count)
		return -1;
	k %= (unsigned int)count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && k-- == 0)
			return cpu;
	return -1;
}

/* The mask a placement gives: set itself, or with pin its k-th CPU. */
static const cpu_set_t *placement(const cpu_set_t *set, bool pin,
				  unsigned int k, cpu_set_t *one)
{
	int cpu;

	if (!pin)
		return set;
	cpu = cpuset_nth(set, k);
	if (cpu < 0)
		return NULL;
	CPU_ZERO(one);
	CPU_SET(cpu, one);
	return one;
}

int cpuset_place(pthread_t t, const cpu_set_t *set, bool pin, unsigned int k)
{
	const cpu_set_t *m;
	cpu_set_t one;

	m = placement(set, pin, k, &one);
	if (!m)
		return EINVAL;
	return pthread_setaffinity_np(t, sizeof(*m), m);
}

int cpuset_place_attr(pthread_attr_t *a, const cpu_set_t *set, bool pin,
		      unsigned int k)
{
	const cpu_set_t *m;
	cpu_set_t one;

	m = placement(set, pin, k, &one);
	if (!m)
		return EINVAL;
	return pthread_attr_setaffinity_np(a, sizeof(*m), m);
}
