// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of finding the server (src/tracer/discover.c): this process
 * listens on loopback ports of its own, with connections that are not
 * listeners (established, and closed into TIME_WAIT), which the reader
 * stops at, so the listeners must still all be found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "tracer/discover.h"

#define NCONN	8

/* A listener on an ephemeral loopback port; its port in *port. */
static int listener(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, NCONN), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static int connect_to(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

static void test_listeners_found_among_other_sockets(void **state)
{
	int lfd, lfd2, c[NCONN], s[NCONN], i;
	uint16_t port, port2;

	(void)state;
	lfd = listener(&port);
	for (i = 0; i < NCONN; i++) {
		c[i] = connect_to(port);
		s[i] = accept(lfd, NULL, NULL);
		assert_true(s[i] >= 0);
	}
	/* The client side closes first: TIME_WAIT stays on its side. */
	for (i = 0; i < NCONN / 2; i++) {
		close(c[i]);
		close(s[i]);
	}
	/* A listener made after the connections is listed with the first. */
	lfd2 = listener(&port2);
	assert_int_equal(discover_server_tgid(port), getpid());
	assert_int_equal(discover_server_tgid(port2), getpid());
	for (i = NCONN / 2; i < NCONN; i++) {
		close(c[i]);
		close(s[i]);
	}
	close(lfd2);
	close(lfd);
}

static void test_no_listener(void **state)
{
	uint16_t port;
	int fd;

	(void)state;
	fd = listener(&port);
	close(fd);
	assert_int_equal(discover_server_tgid(port), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listeners_found_among_other_sockets),
		cmocka_unit_test(test_no_listener),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
