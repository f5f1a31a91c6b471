/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Open-loop load: each user sends on a schedule fixed in advance, not
 * when the previous send returned, and stamps each message with the time
 * the schedule meant it to leave.  A receiver measures from that time, so
 * a sender held up by a full socket or a stopped server is charged for
 * the whole wait (no coordinated omission).
 */
#ifndef CHATBENCH_OPENLOOP_H
#define CHATBENCH_OPENLOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum arrival { ARRIVAL_FIXED, ARRIVAL_POISSON };

struct ol_user {
	enum arrival arrival;
	uint64_t t0;		/* the run's release */
	double rate;		/* messages per second of this user */
	double phase_ns;	/* fixed: this user's offset in the period */
	double at_ns;		/* poisson: offset of the next message */
	uint64_t k;		/* messages scheduled so far */
	uint64_t rng;
};

const char *arrival_name(enum arrival a);
/* 0 and *a from "fixed" or "poisson", else -1. */
int arrival_parse(const char *s, enum arrival *a);

/*
 * User idx of n: fixed arrivals are spread evenly over one period so that
 * the n users do not all send at the same instant; Poisson arrivals are
 * independent per user (seeded from idx and t0).
 */
void ol_start(struct ol_user *u, enum arrival a, double rate, unsigned int idx,
	      unsigned int n, uint64_t t0);
/* The intended send time of the next message (CLOCK_MONOTONIC ns). */
uint64_t ol_next(struct ol_user *u);
/*
 * Sleeps until when; wakes every 100 ms to see *stop.  0 on time (or
 * late: then at once), -1 when *stop was set.
 */
int ol_wait_until(uint64_t when, const atomic_bool *stop);

#endif
