/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU placement (--cpus, --pin) and scheduling (--sched, --nice,
 * --slice) of the server's threads.  The control
 * plane sets it up once, before any run, and every model places its
 * threads the same way, so it is neither the control plane's nor any
 * model's: it takes the two options, not the server's whole set.
 */
#ifndef CHATBENCH_SRV_PLACE_H
#define CHATBENCH_SRV_PLACE_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/schedpol.h"

/*
 * Remembers cpus (NULL: the CPUs chat_s was started on) and pin, and
 * places the calling thread, the control plane, as thread 0; threads it
 * creates inherit a confinement, so only pin needs srv_place_attr, in
 * the attributes the k-th data-plane thread of a run (k >= 1) is created
 * with: it then never runs elsewhere.  Without cpus and pin both do
 * nothing.  0, or -1 with a sentence in err (init) or an errno value.
 */
int srv_place_init(const cpu_set_t *cpus, bool pin, char *err, size_t len);
int srv_place_attr(pthread_attr_t *a, unsigned int k);

/* Remembers what --sched and co ask of each role, before any run. */
void srv_sched_init(const struct sched_spec *spec);
/*
 * The calling data-plane thread of role takes it, read back: 0, or -1
 * with why (the run is then failed: its figures would be mislabelled).
 */
int srv_sched_self(int role, char *why, size_t len);

#endif
