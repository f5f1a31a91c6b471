/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the client can learn about the server without asking it over the
 * wire (the original protocol has no room for that): whether it is ours,
 * and then its data-plane model and CPU placement, read from the chat_s
 * command line in /proc.
 */
#ifndef CHATBENCH_SERVER_INFO_H
#define CHATBENCH_SERVER_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct server_info {
	/*
	 * "threads", "epoll", "pool=2"; "foreign (NAME)" for a server that
	 * is not chatbench's chat_s, NAME its command name (the original
	 * 1.0.1 shows as "foreign (chat_s)"); "unknown" with no process.
	 */
	char model[32];
	bool foreign;
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
