// SPDX-License-Identifier: GPL-2.0
/*
 * Placement is a property of the process, set once from the command line
 * before any run and used by every model, so it lives here rather than in
 * each run or in one of the models.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/cpuset.h"
#include "workload/server/place.h"

static struct {
	bool on, pin;
	cpu_set_t set;
	struct sched_spec sched;
} place;

int srv_place_init(const cpu_set_t *cpus, bool pin, char *err, size_t len)
{
	char list[256];
	int e;

	if (!cpus && !pin)
		return 0;
	if (cpus) {
		place.set = *cpus;
	} else if (cpuset_allowed(&place.set)) {
		snprintf(err, len, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	place.pin = pin;
	e = cpuset_place(pthread_self(), &place.set, place.pin, 0);
	if (e) {
		cpuset_format(&place.set, list, sizeof(list));
		snprintf(err, len, "cannot run on CPUs %s: %s", list,
			 strerror(e));
		return -1;
	}
	place.on = true;
	return 0;
}

int srv_place_attr(pthread_attr_t *a, unsigned int k)
{
	if (!place.on || !place.pin)
		return 0;
	return cpuset_place_attr(a, &place.set, true, k);
}

void srv_sched_init(const struct sched_spec *spec)
{
	place.sched = *spec;
}

int srv_sched_self(int role, char *why, size_t len)
{
	struct sched_got got;

	if (!sched_spec_has(&place.sched, role))
		return 0;
	return sched_apply(&place.sched, role, 0, &got, why, len);
}
