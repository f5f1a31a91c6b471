/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blocking TCP I/O with timeouts, shared by the server and the client.
 * Every call that can wait has a bound, so that neither side can hang on a
 * peer that stalls or vanishes.
 */
#ifndef CHATBENCH_NETIO_H
#define CHATBENCH_NETIO_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

int net_parse_addr(const char *host, int port, struct sockaddr_in *sa,
		   char *err, size_t errlen);
/* SO_RCVTIMEO and SO_SNDTIMEO; 0 ms means wait forever. */
int net_set_timeouts(int fd, int ms);
/*
 * Read exactly n bytes.  Returns n, fewer on end of stream, -1 on error
 * (errno EAGAIN when the receive timeout expired).
 */
ssize_t net_read_full(int fd, void *buf, size_t n);
/* The same, telling in *got how much arrived before an error. */
ssize_t net_read_full_got(int fd, void *buf, size_t n, size_t *got);
/* Write exactly n bytes without SIGPIPE; n or -1 (errno set). */
ssize_t net_write_full(int fd, const void *buf, size_t n);
/* Connected socket or -1 with errno (ETIMEDOUT after timeout_ms). */
int net_connect(const struct sockaddr_in *sa, int timeout_ms);
int net_listen(const struct sockaddr_in *sa, int backlog);
/*
 * TCP_NODELAY: small writes leave at once instead of waiting for the
 * previous one's ACK (Nagle), which a delayed ACK can hold for 40 ms.
 */
int net_set_nodelay(int fd);
/* 1 readable (or closed/error), 0 timeout, -1 error. */
int net_wait_readable(int fd, int timeout_ms);
uint16_t net_local_port(int fd);
const char *net_peer_str(int fd, char *buf, size_t len);

#endif
