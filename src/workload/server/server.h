/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chat_s: serves runs on a listening socket until told to stop, several
 * at once (--max-runs), each client's start message read under its own
 * deadline.  The protocol (start message, accepts, 0x11, 0x22) is the
 * original's; the data plane is a model: two threads per connection as in
 * the original, or event loops (--model).
 */
#ifndef CHATBENCH_SERVER_H
#define CHATBENCH_SERVER_H

#include "workload/server/options.h"

/* Returns the process exit status. */
int server_serve(const struct server_opts *opts);

#endif
