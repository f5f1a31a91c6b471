/* SPDX-License-Identifier: GPL-2.0 */
/* Command line of chat_c, parsed apart from main so that tests reach it. */
#ifndef CHATBENCH_CLIENT_OPTS_H
#define CHATBENCH_CLIENT_OPTS_H

#include <stddef.h>

#include "workload/client/client.h"

enum { COPTS_OK = 0, COPTS_EXIT = 1, COPTS_ERROR = -1 };

int client_parse(int argc, char **argv, struct client_opts *o, char *err,
		 size_t len);

#endif
