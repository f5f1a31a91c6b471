// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>
#include <time.h>

#include "util/timeutil.h"
#include "workload/client/openloop.h"

#define NS_PER_S	1e9
#define WAIT_SLICE_NS	100000000ULL

const char *arrival_name(enum arrival a)
{
	return a == ARRIVAL_POISSON ? "poisson" : "fixed";
}

int arrival_parse(const char *s, enum arrival *a)
{
	if (!strcmp(s, "fixed"))
		*a = ARRIVAL_FIXED;
	else if (!strcmp(s, "poisson"))
		*a = ARRIVAL_POISSON;
	else
		return -1;
	return 0;
}

/* splitmix64: a well-mixed stream from any seed, zero included. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* An exponential gap with mean 1/rate, in ns. */
static double exp_gap_ns(struct ol_user *u)
{
	/* 53 random bits in (0, 1]: log() of it is finite. */
	double x = ((double)(next_random(&u->rng) >> 11) + 1.0) / 9007199254740992.0;

	return -log(x) * NS_PER_S / u->rate;
}

void ol_start(struct ol_user *u, enum arrival a, double rate, unsigned int idx,
	      unsigned int n, uint64_t t0)
{
	memset(u, 0, sizeof(*u));
	u->arrival = a;
	u->rate = rate;
	u->t0 = t0;
	u->phase_ns = n ? NS_PER_S / rate * (double)idx / (double)n : 0;
	u->rng = t0 ^ ((uint64_t)idx << 32 | idx);
	if (a == ARRIVAL_POISSON)
		u->at_ns = exp_gap_ns(u);
}

uint64_t ol_next(struct ol_user *u)
{
	double off;

	if (u->arrival == ARRIVAL_POISSON) {
		off = u->at_ns;
		u->at_ns += exp_gap_ns(u);
	} else {
		/* From k, not by adding periods: no drift over long runs. */
		off = u->phase_ns + (double)u->k * NS_PER_S / u->rate;
	}
	u->k++;
	return u->t0 + (uint64_t)off;
}

int ol_wait_until(uint64_t when, const atomic_bool *stop)
{
	uint64_t now;

	while ((now = now_ns()) < when) {
		uint64_t until = when - now > WAIT_SLICE_NS ?
				 now + WAIT_SLICE_NS : when;
		struct timespec ts = {
			.tv_sec = (time_t)(until / 1000000000ULL),
			.tv_nsec = (long)(until % 1000000000ULL),
		};

		if (atomic_load_explicit(stop, memory_order_relaxed))
			return -1;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return atomic_load_explicit(stop, memory_order_relaxed) ? -1 : 0;
}
