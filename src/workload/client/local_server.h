/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --local: a chat_s child on an ephemeral loopback port for the duration
 * of chat_c, so that one command does a whole study.
 */
#ifndef CHATBENCH_LOCAL_SERVER_H
#define CHATBENCH_LOCAL_SERVER_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct local_server {
	pid_t pid;
	uint16_t port;
};

struct local_server_args {
	const char *model;	/* NULL: chat_s's default */
	const char *cpus;	/* NULL: all */
	bool pin;
	bool nodelay;		/* chat_s --nodelay */
	int timeout_ms;
	int clients;		/* > 1: chat_s --clients, runs released together */
};

/* Starts chat_s bound to addr's IP; fills ls.  -1 with err on failure. */
int local_server_start(struct local_server *ls, const struct sockaddr_in *addr,
		       const struct local_server_args *a, char *err,
		       size_t len);
void local_server_stop(struct local_server *ls);

#endif
