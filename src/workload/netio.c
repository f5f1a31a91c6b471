// SPDX-License-Identifier: GPL-2.0
/*
 * Socket helpers with bounded waits.  Timeouts are socket options rather
 * than poll loops on the data path, so a message costs one system call as
 * in the original benchmark.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "workload/netio.h"

int net_set_nodelay(int fd)
{
	int one = 1;

	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int net_parse_addr(const char *host, int port, struct sockaddr_in *sa,
		   char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	int rc;

	if (port < 0 || port > 65535) {
		snprintf(err, errlen, "port %d out of range 0-65535", port);
		return -1;
	}
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc || !res) {
		snprintf(err, errlen, "cannot resolve IPv4 address '%s': %s",
			 host, rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	memcpy(sa, res->ai_addr, sizeof(*sa));
	sa->sin_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return 0;
}

int net_set_timeouts(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -1;
	return 0;
}

/*
 * The data path's send and recv, as raw system calls: glibc's send() and
 * recv() in a threaded process keep a value in rbp around their
 * cancellation hooks, so a frame-pointer walk of the user stack
 * (--profile, perf -g) stops at them and every sample of a sender reads
 * "__send" alone.  syscall() leaves rbp to us.  ThreadSanitizer learns
 * of the hand-over of data through sockets only from the libc calls it
 * intercepts, so its builds keep them.
 */
#if defined(__SANITIZE_THREAD__)
#define CB_LIBC_IO 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CB_LIBC_IO 1
#endif
#endif

static ssize_t sys_recv(int fd, void *buf, size_t n, int flags)
{
#ifdef CB_LIBC_IO
	return recv(fd, buf, n, flags);
#else
	return syscall(SYS_recvfrom, fd, buf, n, flags, NULL, NULL);
#endif
}

static ssize_t sys_send(int fd, const void *buf, size_t n, int flags)
{
#ifdef CB_LIBC_IO
	return send(fd, buf, n, flags);
#else
	return syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
#endif
}

ssize_t net_read_full_got(int fd, void *buf, size_t n, size_t *got)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = sys_recv(fd, (char *)buf + *got, n - *got,
				     MSG_WAITALL);

		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		*got += (size_t)r;
	}
	return (ssize_t)*got;
}

ssize_t net_read_full(int fd, void *buf, size_t n)
{
	size_t got;

	return net_read_full_got(fd, buf, n, &got);
}

ssize_t net_write_full(int fd, const void *buf, size_t n)
{
	size_t put = 0;

	while (put < n) {
		ssize_t r = sys_send(fd, (const char *)buf + put, n - put,
				     MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		put += (size_t)r;
	}
	return (ssize_t)put;
}

int net_connect(const struct sockaddr_in *sa, int timeout_ms)
{
	int fd, saved;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* On Linux SO_SNDTIMEO bounds a blocking connect() as well. */
	if (net_set_timeouts(fd, timeout_ms))
		goto fail;
	while (connect(fd, (const struct sockaddr *)sa, sizeof(*sa))) {
		if (errno == EINTR)
			continue;
		if (errno == EINPROGRESS || errno == EAGAIN)
			errno = ETIMEDOUT;
		goto fail;
	}
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int net_listen(const struct sockaddr_in *sa, int backlog)
{
	int fd, saved, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/*
	 * The original set no SO_REUSEADDR, so the control connection the
	 * server closed last kept the port in TIME_WAIT and a restarted
	 * chat_s failed for a minute.  A second server on a listening port
	 * still fails: Linux refuses that bind even with the option.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) ||
	    listen(fd, backlog)) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int net_wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do {
		r = poll(&p, 1, timeout_ms);
	} while (r < 0 && errno == EINTR);
	return r;
}

uint16_t net_local_port(int fd)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return 0;
	return ntohs(sa.sin_port);
}

const char *net_peer_str(int fd, char *buf, size_t len)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	char ip[INET_ADDRSTRLEN] = "?";

	if (!getpeername(fd, (struct sockaddr *)&sa, &sl))
		inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
	snprintf(buf, len, "%s:%u", ip, ntohs(sa.sin_port));
	return buf;
}
