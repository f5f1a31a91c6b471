// SPDX-License-Identifier: GPL-2.0
/*
 * The host-wide lock of a connect phase, as the bind of an abstract UNIX
 * socket name: bind fails with EADDRINUSE while another process holds it,
 * and the kernel drops the name with the last descriptor, even on
 * SIGKILL.  Abstract names belong to a network namespace, which is where
 * clients share a source address, the thing the server tells runs by.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "workload/client/connect_lock.h"

#define RETRY_US 500

int connect_lock_take(const struct sockaddr_in *server, int timeout_ms,
		      const atomic_bool *abort, char *err, size_t len)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000;
	char ip[INET_ADDRSTRLEN];
	socklen_t sl;
	int fd, n;

	inet_ntop(AF_INET, &server->sin_addr, ip, sizeof(ip));
	/* sun_path[0] stays 0: an abstract name, not a file. */
	n = snprintf(un.sun_path + 1, sizeof(un.sun_path) - 1,
		     "chatbench-connect-%s:%u", ip, ntohs(server->sin_port));
	sl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, len, "connect lock: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		if (!bind(fd, (struct sockaddr *)&un, sl))
			return fd;
		if (errno != EADDRINUSE) {
			snprintf(err, len, "connect lock: %s", strerror(errno));
			break;
		}
		if (atomic_load(abort)) {
			snprintf(err, len,
				 "stopped while waiting for the connect lock");
			break;
		}
		if (now_ns() >= deadline) {
			snprintf(err, len,
				 "another chat_c of this host kept connecting to %s:%u for %d ms (the connect lock @%s)",
				 ip, ntohs(server->sin_port), timeout_ms,
				 un.sun_path + 1);
			break;
		}
		usleep(RETRY_US);
	}
	close(fd);
	return -1;
}

void connect_lock_give(int fd)
{
	if (fd >= 0)
		close(fd);
}
