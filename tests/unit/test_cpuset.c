// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of CPU lists: what --cpus accepts and refuses (with which
 * words, since the message is all a user gets), the list a set prints as,
 * and the round-robin choice behind --pin.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/cpuset.h"

/* Parses list and returns it formatted back, or NULL with err set. */
static const char *round_trip(const char *list, const cpu_set_t *avail,
			      char *err, size_t len)
{
	static char buf[512];
	cpu_set_t set;

	if (cpuset_parse(list, &set, avail, err, len))
		return NULL;
	assert_true(cpuset_format(&set, buf, sizeof(buf)) >= 0);
	return buf;
}

static void test_parse_lists(void **state)
{
	char err[256];
	cpu_set_t set;

	(void)state;
	assert_string_equal(round_trip("0", NULL, err, sizeof(err)), "0");
	assert_string_equal(round_trip("0-3,6", NULL, err, sizeof(err)),
			    "0-3,6");
	/* Overlaps, disorder and single-CPU ranges come out normalised. */
	assert_string_equal(round_trip("6,0-2,1-3", NULL, err, sizeof(err)),
			    "0-3,6");
	assert_string_equal(round_trip("5-5", NULL, err, sizeof(err)), "5");
	assert_string_equal(round_trip("1,3,5", NULL, err, sizeof(err)),
			    "1,3,5");
	assert_string_equal(round_trip("1023", NULL, err, sizeof(err)),
			    "1023");
	assert_int_equal(cpuset_parse("0-3,6", &set, NULL, err, sizeof(err)),
			 0);
	assert_int_equal(CPU_COUNT(&set), 5);
	assert_true(CPU_ISSET(6, &set));
	assert_false(CPU_ISSET(4, &set));
}

static void assert_refused(const char *list, const cpu_set_t *avail,
			   const char *words)
{
	char err[256] = "";
	cpu_set_t set;

	assert_int_equal(cpuset_parse(list, &set, avail, err, sizeof(err)),
			 -1);
	if (!strstr(err, words))
		fail_msg("'%s': expected \"%s\" in \"%s\"", list, words, err);
}

static void test_parse_errors(void **state)
{
	(void)state;
	assert_refused("", NULL, "empty CPU list");
	assert_refused("x", NULL, "'x' in 'x' is not a CPU number");
	assert_refused("3-1", NULL, "range 3-1 is backwards (write 1-3)");
	assert_refused("0,,1", NULL, "empty item in CPU list '0,,1'");
	assert_refused("0,", NULL, "empty item");
	assert_refused(",0", NULL, "empty item");
	assert_refused("1-", NULL, "'1-' in '1-' is not a CPU number");
	assert_refused("-1", NULL, "'-1'");
	assert_refused("0-3,a", NULL, "'a' in '0-3,a'");
	assert_refused("1 ", NULL, "'1 '");
	assert_refused(" 1", NULL, "' 1'");
	assert_refused("+1", NULL, "'+1'");
	assert_refused("0x1", NULL, "'0x1'");
	assert_refused("1-2-3", NULL, "'1-2-3'");
	assert_refused("1024", NULL, "beyond the largest supported CPU 1023");
	assert_refused("0-99999999999999999999", NULL, "beyond the largest");
}

static void test_parse_against_available(void **state)
{
	char err[256];
	cpu_set_t avail, mine;

	(void)state;
	CPU_ZERO(&avail);
	CPU_SET(0, &avail);
	CPU_SET(1, &avail);
	CPU_SET(4, &avail);
	assert_string_equal(round_trip("0-1,4", &avail, err, sizeof(err)),
			    "0-1,4");
	assert_refused("2", &avail, "CPU 2 is not available (allowed CPUs: 0-1,4)");
	assert_refused("0-4", &avail, "CPU 2 is not available");
	/* A CPU beyond this machine: the process cannot have it either. */
	assert_int_equal(cpuset_allowed(&mine), 0);
	assert_true(CPU_COUNT(&mine) >= 1);
	assert_refused("1023", &mine, "CPU 1023 is not available");
	/* Every CPU we may use is accepted as given. */
	cpuset_format(&mine, err, sizeof(err));
	assert_string_equal(round_trip(err, &mine, err, sizeof(err)), err);
}

static void test_format(void **state)
{
	char buf[64];
	cpu_set_t set;
	int cpu;

	(void)state;
	CPU_ZERO(&set);
	assert_int_equal(cpuset_format(&set, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	for (cpu = 0; cpu < 8; cpu += 2)
		CPU_SET(cpu, &set);
	CPU_SET(9, &set);
	CPU_SET(10, &set);
	CPU_SET(1023, &set);
	assert_int_equal(cpuset_format(&set, buf, sizeof(buf)), 17);
	assert_string_equal(buf, "0,2,4,6,9-10,1023");
	/* Too small: an error and a terminated, truncated string. */
	assert_int_equal(cpuset_format(&set, buf, 8), -1);
	assert_true(strlen(buf) < 8);
}

static void test_nth_round_robin(void **state)
{
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	assert_int_equal(cpuset_nth(&set, 0), -1);
	CPU_SET(2, &set);
	CPU_SET(5, &set);
	CPU_SET(7, &set);
	assert_int_equal(cpuset_nth(&set, 0), 2);
	assert_int_equal(cpuset_nth(&set, 1), 5);
	assert_int_equal(cpuset_nth(&set, 2), 7);
	assert_int_equal(cpuset_nth(&set, 3), 2);
	assert_int_equal(cpuset_nth(&set, 3002), 7);
}

static void test_place_self(void **state)
{
	cpu_set_t mine, now, one;
	int first;

	(void)state;
	assert_int_equal(cpuset_allowed(&mine), 0);
	first = cpuset_nth(&mine, 0);
	assert_int_equal(cpuset_place(pthread_self(), &mine, true, 0), 0);
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(now),
						&now),
			 0);
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_true(CPU_EQUAL(&now, &one));
	/* Confinement to the whole set undoes the pin. */
	assert_int_equal(cpuset_place(pthread_self(), &mine, false, 0), 0);
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(now),
						&now),
			 0);
	assert_true(CPU_EQUAL(&now, &mine));
	CPU_ZERO(&one);
	assert_int_equal(cpuset_place(pthread_self(), &one, true, 0), EINVAL);
}

static void *report_cpus(void *arg)
{
	cpu_set_t *seen = arg;

	if (pthread_getaffinity_np(pthread_self(), sizeof(*seen), seen))
		CPU_ZERO(seen);
	return NULL;
}

/* A thread created with placed attributes runs there from its start. */
static void test_place_attr(void **state)
{
	cpu_set_t mine, seen, one, none;
	pthread_attr_t a;
	pthread_t t;
	int last;

	(void)state;
	assert_int_equal(cpuset_allowed(&mine), 0);
	last = cpuset_nth(&mine, (unsigned int)CPU_COUNT(&mine) - 1);
	assert_int_equal(pthread_attr_init(&a), 0);
	assert_int_equal(cpuset_place_attr(&a, &mine, true,
					   (unsigned int)CPU_COUNT(&mine) - 1),
			 0);
	assert_int_equal(pthread_create(&t, &a, report_cpus, &seen), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	assert_true(CPU_EQUAL(&seen, &one));
	/* Without pin, the whole set. */
	assert_int_equal(cpuset_place_attr(&a, &mine, false, 0), 0);
	assert_int_equal(pthread_create(&t, &a, report_cpus, &seen), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(CPU_EQUAL(&seen, &mine));
	CPU_ZERO(&none);
	assert_int_equal(cpuset_place_attr(&a, &none, true, 0), EINVAL);
	pthread_attr_destroy(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lists),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_against_available),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_nth_round_robin),
		cmocka_unit_test(test_place_self),
		cmocka_unit_test(test_place_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
