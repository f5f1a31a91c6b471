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
};

void server_info_read(pid_t pid, struct server_info *si);

#endif
