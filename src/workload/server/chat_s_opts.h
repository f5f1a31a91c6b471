/* SPDX-License-Identifier: GPL-2.0 */
/* Command line of chat_s, parsed apart from main so that tests reach it. */
#ifndef CHATBENCH_CHAT_S_OPTS_H
#define CHATBENCH_CHAT_S_OPTS_H

#include <stddef.h>

#include "workload/server/server.h"

enum { OPTS_OK = 0, OPTS_EXIT = 1, OPTS_ERROR = -1 };

/* OPTS_EXIT: help or version was printed to out. */
int chat_s_parse(int argc, char **argv, struct server_opts *o, char *err,
		 size_t len);

#endif
