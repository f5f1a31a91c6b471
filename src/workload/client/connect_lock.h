/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One chat_c of a host connects to a given server at a time.  The
 * original protocol does not name a data connection: the server takes
 * the silent connections that follow a start message from an address as
 * that run's users, so two clients of one host whose connect phases
 * overlapped would be mixed up.  The lock is an abstract UNIX socket name
 * per server address, held from the control connection's connect to the
 * last user's: nothing to clean up, given back when a process dies.
 */
#ifndef CHATBENCH_CONNECT_LOCK_H
#define CHATBENCH_CONNECT_LOCK_H

#include <netinet/in.h>
#include <stdatomic.h>
#include <stddef.h>

/*
 * The lock's descriptor, or -1 with a sentence in err: held by another
 * process for timeout_ms, or *abort became true while waiting.
 */
int connect_lock_take(const struct sockaddr_in *server, int timeout_ms,
		      const atomic_bool *abort, char *err, size_t len);
void connect_lock_give(int fd);

#endif
