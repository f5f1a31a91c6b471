/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CLOCK_MONOTONIC in nanoseconds: the clock bpf_ktime_get_ns() reads, so
 * timestamps taken by the benchmark and by the BPF programs line up.
 */
#ifndef CHATBENCH_TIMEUTIL_H
#define CHATBENCH_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
