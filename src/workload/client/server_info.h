/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the client can learn about the server without asking it over the
 * wire (the original protocol has no room for that): its data-plane model
 * and CPU placement, read from the chat_s command line in /proc.
 */
#ifndef CHATBENCH_SERVER_INFO_H
#define CHATBENCH_SERVER_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct server_info {
	char model[32];		/* "threads", "epoll", "pool=2", "unknown" */
	char cpus[64];		/* --cpus as given, "all", or "unknown" */
	bool pin;
	char autogroup[32];	/* its scheduler autogroup, "" when unknown */
};

void server_info_read(pid_t pid, struct server_info *si);
/*
 * The scheduler autogroup of pid ("/autogroup-82": one per session when
 * kernel.sched_autogroup_enabled is 1; "/" for init's, the root group)
 * into buf; "" when autogroups are off or the process is gone.  Processes
 * of two sessions then share the CPUs group against group, not thread
 * against thread.
 */
void autogroup_of(pid_t pid, char *buf, size_t len);

#endif
