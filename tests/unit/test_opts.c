// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of both command lines: defaults, the original forms, errors,
 * and the options checked against each other.
 */
#include <arpa/inet.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "workload/server/chat_s_opts.h"
#include "workload/client/client_opts.h"
#include "util/numarg.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE_C(o, err, ...) \
	client_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), o, err, sizeof(err))
#define PARSE_S(o, err, ...) \
	chat_s_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), o, err, sizeof(err))

static void test_client_defaults(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1"), COPTS_OK);
	assert_int_equal(o.rooms, 10);
	assert_int_equal(o.messages, 100);
	assert_int_equal(o.port, 9999);
	assert_int_equal(ntohs(o.addr.sin_port), 9999);
	assert_int_equal(o.runs, 1);
	assert_int_equal(o.trace, TRACE_AUTO);
	assert_int_equal(o.interval_ms, 100);
}

static void test_client_original_positionals(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "30", "1000",
				 "9000"),
			 COPTS_OK);
	assert_int_equal(o.rooms, 30);
	assert_int_equal(o.messages, 1000);
	assert_int_equal(ntohs(o.addr.sin_port), 9000);
	assert_int_equal(o.addr.sin_addr.s_addr, htonl(0x7f000001));
}

static void test_client_local_without_address(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--local", "-r", "3",
				 "--no-trace", "5", "50"),
			 COPTS_OK);
	assert_true(o.local);
	assert_false(o.have_addr);
	assert_int_equal(o.rooms, 5);
	assert_int_equal(o.messages, 50);
	assert_int_equal(o.runs, 3);
	assert_int_equal(o.trace, TRACE_OFF);
}

static void test_client_errors(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_C(&o, err, "chat_c"), COPTS_ERROR);
	assert_non_null(strstr(err, "missing ip_addr"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "10x"),
			 COPTS_ERROR);
	assert_non_null(strstr(err, "num_rooms"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "0"),
			 COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "1", "-5"),
			 COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "1", "1",
				 "70000"),
			 COPTS_ERROR);
	assert_non_null(strstr(err, "port"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--runs", "0", "127.0.0.1"),
			 COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--bogus", "127.0.0.1"),
			 COPTS_ERROR);
	assert_non_null(strstr(err, "--bogus"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1", "--runs"),
			 COPTS_ERROR);
	assert_non_null(strstr(err, "needs a value"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "no.such.host.invalid"),
			 COPTS_ERROR);
}

static void test_server_parse(void **state)
{
	struct server_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_S(&o, err, "chat_s", "127.0.0.1"), OPTS_OK);
	assert_int_equal(ntohs(o.addr.sin_port), 9999);
	assert_int_equal(o.caps.max_rooms, 1000);
	assert_int_equal(o.ready_fd, -1);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--max-rooms", "5", "-t",
				 "2", "0.0.0.0", "0"),
			 OPTS_OK);
	assert_int_equal(o.caps.max_rooms, 5);
	assert_int_equal(o.timeout_ms, 2000);
	assert_int_equal(ntohs(o.addr.sin_port), 0);
	assert_int_equal(PARSE_S(&o, err, "chat_s"), OPTS_ERROR);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "1.2.3.4", "x"),
			 OPTS_ERROR);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "1.2.3.4", "1", "2"),
			 OPTS_ERROR);
}

static void test_server_concurrency(void **state)
{
	struct server_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_S(&o, err, "chat_s", "127.0.0.1"), OPTS_OK);
	assert_int_equal(o.max_runs, 8);
	assert_int_equal(o.clients, 1);
	assert_int_equal(o.handshake_ms, 3000);
	assert_int_equal(o.exit_after, 0);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--max-runs", "2",
				 "--handshake-timeout", "500", "--exit-after",
				 "40", "127.0.0.1"),
			 OPTS_OK);
	assert_int_equal(o.max_runs, 2);
	assert_int_equal(o.handshake_ms, 500);
	assert_int_equal(o.exit_after, 40);
	/* A group is released at once: --max-runs follows --clients... */
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--clients", "12",
				 "127.0.0.1"),
			 OPTS_OK);
	assert_int_equal(o.clients, 12);
	assert_int_equal(o.max_runs, 12);
	/* ...unless it was given too small. */
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--clients", "3",
				 "--max-runs", "2", "127.0.0.1"),
			 OPTS_ERROR);
	assert_non_null(strstr(err, "--max-runs of at least 3"));
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--max-runs", "0",
				 "127.0.0.1"),
			 OPTS_ERROR);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--clients", "0",
				 "127.0.0.1"),
			 OPTS_ERROR);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--handshake-timeout",
				 "5", "127.0.0.1"),
			 OPTS_ERROR);
}

static void test_parse_double(void **state)
{
	char err[128];
	double v = -1;

	(void)state;
	assert_int_equal(parse_double("2", "--resolve", 0.01, 100, &v, err,
				      sizeof(err)), 0);
	assert_true(v == 2);
	assert_int_equal(parse_double("0.5", "--resolve", 0.01, 100, &v, err,
				      sizeof(err)), 0);
	assert_true(v == 0.5);
	assert_int_equal(parse_double("0", "--resolve", 0.01, 100, &v, err,
				      sizeof(err)), -1);
	assert_string_equal(err,
			    "--resolve must be a number from 0.01 to 100, not '0'");
	assert_int_equal(parse_double("2%", "x", 0, 100, &v, err,
				      sizeof(err)), -1);
	assert_int_equal(parse_double("", "x", 0, 100, &v, err, sizeof(err)),
			 -1);
	assert_int_equal(parse_double("nan", "x", 0, 100, &v, err,
				      sizeof(err)), -1);
	assert_int_equal(parse_double("1e999", "x", 0, 1e300, &v, err,
				      sizeof(err)), -1);
	assert_true(v == 0.5);
}

static void test_client_open_loop(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1"), COPTS_OK);
	assert_int_equal(o.rate, 0);
	assert_false(o.sched.any);
	assert_int_equal(o.background.burners, 0);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--rate", "500",
				 "--arrival", "poisson", "--nodelay",
				 "--sched", "all=batch", "--background",
				 "burn=2:5", "127.0.0.1"), COPTS_OK);
	assert_int_equal(o.rate, 500);
	assert_int_equal(o.arrival, ARRIVAL_POISSON);
	assert_true(o.nodelay);
	assert_true(o.sched.any);
	assert_int_equal(o.background.burners, 2);
	assert_int_equal(o.background.nice, 5);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep",
				 "rate=100,400,1600", "--slo", "2.5",
				 "127.0.0.1"), COPTS_OK);
	assert_string_equal(o.sweep_param, "rate");
	assert_int_equal(o.sweep_n, 3);
	assert_int_equal(o.sweep_values[2], 1600);
	assert_true(o.slo_ms == 2.5);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep",
				 "sched=other,batch,fifo:5", "127.0.0.1"),
			 COPTS_OK);
	assert_string_equal(o.sweep_param, "sched");
	assert_int_equal(o.sweep_n, 3);
	assert_string_equal(o.sweep_texts[2], "fifo:5");
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep",
				 "sched=other,fifo", "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep", "nice=-5,25",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep",
				 "slice=100,3000", "127.0.0.1"), COPTS_OK);
	/* What only makes sense with a schedule is refused without one. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--arrival", "poisson",
				 "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "--rate"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--slo", "5",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--rate", "-1",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--sweep", "rate=0",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--clients", "2",
				 "--sched", "all=batch", "127.0.0.1"),
			 COPTS_ERROR);
}

/* The options checked against each other, whatever their order. */
static void test_client_cross_checks(void **state)
{
	struct client_opts o;
	char err[256];

	(void)state;
	/* The --local server's options are refused without --local. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--model", "epoll",
				 "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "set up the --local server"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--server-pin",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--server-cpus", "0",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--model", "epoll",
				 "--server-pin", "--local"), COPTS_OK);
	assert_string_equal(o.server_model, "epoll");
	/* --clients measures one plain run of several processes. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--background", "burn=1",
				 "--clients", "2", "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "not supported yet"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--clients", "2",
				 "--sweep", "rooms=1,2", "127.0.0.1"),
			 COPTS_ERROR);
	assert_non_null(strstr(err, "not with --sweep, --report or --baseline"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--clients", "2",
				 "--report", "r.html", "127.0.0.1"),
			 COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--clients", "2",
				 "--baseline", "b.json", "127.0.0.1"),
			 COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--clients", "2",
				 "127.0.0.1"), COPTS_OK);
	assert_int_equal(o.clients, 2);
	/* --duration, like --arrival, needs a rate, given before or after. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--duration", "2",
				 "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "--duration sizes an open-loop run"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--duration", "2",
				 "--arrival", "fixed", "--rate", "100",
				 "127.0.0.1"), COPTS_OK);
	assert_true(o.duration_s == 2);
	assert_int_equal(o.arrival, ARRIVAL_FIXED);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--duration", "2",
				 "--arrival", "poisson", "--sweep",
				 "rate=10,20", "127.0.0.1"), COPTS_OK);
	/* --arrival fixed is refused too: given, even as the default. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--arrival", "fixed",
				 "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--slo", "5", "--sweep",
				 "rooms=1,2", "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "--slo picks a rate"));
	/* --profile-out implies --profile at its default rate. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--profile-out", "p.txt",
				 "127.0.0.1"), COPTS_OK);
	assert_int_equal(o.profile_hz, 99);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--profile=250",
				 "--profile-out", "p.txt", "127.0.0.1"),
			 COPTS_OK);
	assert_int_equal(o.profile_hz, 250);
	/* What the tracer reads needs the tracer, in one client. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--profile", "--no-trace",
				 "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "not with --no-trace"));
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--profile-out", "p.txt",
				 "--no-trace", "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--timeline", "t.json",
				 "--no-trace", "127.0.0.1"), COPTS_ERROR);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--timeline", "t.json",
				 "--clients", "2", "127.0.0.1"), COPTS_ERROR);
	assert_non_null(strstr(err, "profile one client"));
	/* --pin alone takes every CPU the client may use. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "127.0.0.1"), COPTS_OK);
	assert_false(o.have_cpus);
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--pin", "127.0.0.1"),
			 COPTS_OK);
	assert_true(o.have_cpus);
	assert_true(CPU_COUNT(&o.cpus) > 0);
	/* A positional error is named before a conflict of options. */
	assert_int_equal(PARSE_C(&o, err, "chat_c", "--slo", "5", "127.0.0.1",
				 "0"), COPTS_ERROR);
	assert_non_null(strstr(err, "num_rooms"));
}

/* pool's loops: as given, else one per CPU of --cpus, else per online CPU. */
static void test_server_pool_loops(void **state)
{
	struct server_opts o;
	cpu_set_t mine;
	char err[256], cpu[16];
	int i;

	(void)state;
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--model", "pool=3",
				 "127.0.0.1"), OPTS_OK);
	assert_int_equal(o.loops, 3);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--model", "pool",
				 "127.0.0.1"), OPTS_OK);
	assert_int_equal(o.loops, sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--model", "threads",
				 "127.0.0.1"), OPTS_OK);
	assert_int_equal(o.loops, 0);
	/* --cpus after --model: the count waits until both are known. */
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (i = 0; !CPU_ISSET(i, &mine); i++)
		;
	snprintf(cpu, sizeof(cpu), "%d", i);
	assert_int_equal(PARSE_S(&o, err, "chat_s", "--model", "pool",
				 "--cpus", cpu, "127.0.0.1"), OPTS_OK);
	assert_int_equal(o.loops, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_defaults),
		cmocka_unit_test(test_client_original_positionals),
		cmocka_unit_test(test_client_local_without_address),
		cmocka_unit_test(test_client_errors),
		cmocka_unit_test(test_client_open_loop),
		cmocka_unit_test(test_client_cross_checks),
		cmocka_unit_test(test_server_parse),
		cmocka_unit_test(test_server_concurrency),
		cmocka_unit_test(test_server_pool_loops),
		cmocka_unit_test(test_parse_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
