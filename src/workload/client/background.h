/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --background burn=N[:NICE]: N CPU-bound threads in a process of their
 * own, running through every run, so that "chat latency while a batch
 * job runs" is one command.  Being another process, the tracer counts
 * them as outsiders, under their name; their progress (loops of a fixed
 * amount of work per second) is the batch job's throughput.
 */
#ifndef CHATBENCH_BACKGROUND_H
#define CHATBENCH_BACKGROUND_H

#include <stddef.h>
#include <stdint.h>

/* The burners' thread name, as the tracer and ps show it. */
#define BG_BURN_NAME	"cb_burn"

struct bg_spec {
	int burners;		/* 0: none */
	int nice;
};

struct background;

/* "burn=N[:NICE]" into s: 0, or -1 with a one-line reason in err. */
int bg_parse(const char *arg, struct bg_spec *s, char *err, size_t len);
/* Starts the burners; NULL with err when they cannot be. */
struct background *bg_start(const struct bg_spec *s, char *err, size_t len);
/* Loops done so far by all burners. */
uint64_t bg_loops(const struct background *bg);
/* Stops them and waits for the process; NULL is fine. */
void bg_stop(struct background *bg);

#endif
