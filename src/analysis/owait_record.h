/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One outsider's part of the benchmark threads' wait to run: its command,
 * pid and scheduling class, and the thread-time our threads spent queued
 * behind it (analysis/owait.c).
 */
#ifndef CHATBENCH_OWAIT_RECORD_H
#define CHATBENCH_OWAIT_RECORD_H

#include <stdint.h>
#include <sys/types.h>

struct ow_entry {
	char comm[16];
	pid_t pid;
	int sclass;		/* enum cb_sched_class */
	uint64_t wait_ns;	/* thread-ns our threads waited behind it */
};

#endif
