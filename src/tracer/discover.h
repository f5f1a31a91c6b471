/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the server process on this host: the process that owns the TCP
 * socket listening on a port, so that its threads can be traced too.
 */
#ifndef CHATBENCH_DISCOVER_H
#define CHATBENCH_DISCOVER_H

#include <stdint.h>
#include <sys/types.h>

/* Process (tgid) listening on TCP port (host order) here, or 0 if none. */
pid_t discover_server_tgid(uint16_t port);

#endif
