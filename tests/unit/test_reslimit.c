// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the worker threads' attributes (src/util/reslimit.c):
 * every run starts thousands of threads with them, so they must be
 * accepted on each machine we build for.  arm64's glibc refuses stacks
 * below 128 KiB, where x86-64's allows 16 KiB: a fixed 64 KiB stack
 * failed every run there (make check-arm64 runs this under qemu).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/reslimit.h"

static void *worker(void *arg)
{
	return arg;
}

static void test_stack_is_allowed_and_small(void **state)
{
	long min = sysconf(_SC_THREAD_STACK_MIN);
	size_t stack = limits_thread_stack();

	(void)state;
	assert_true(stack >= CHAT_THREAD_STACK);
	assert_true(min <= 0 || stack >= (size_t)min);
	/* no bigger than it must be: thousands of them must fit */
	if (min <= CHAT_THREAD_STACK)
		assert_int_equal(stack, CHAT_THREAD_STACK);
	else
		assert_int_equal(stack, (size_t)min);
}

static void test_attr_starts_a_thread(void **state)
{
	pthread_attr_t attr;
	size_t stack = 0;
	pthread_t t;
	void *ret = NULL;
	int token = 7;

	(void)state;
	assert_int_equal(limits_thread_attr(&attr), 0);
	assert_int_equal(pthread_attr_getstacksize(&attr, &stack), 0);
	assert_int_equal(stack, limits_thread_stack());
	assert_int_equal(pthread_create(&t, &attr, worker, &token), 0);
	pthread_attr_destroy(&attr);
	assert_int_equal(pthread_join(t, &ret), 0);
	assert_ptr_equal(ret, &token);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_is_allowed_and_small),
		cmocka_unit_test(test_attr_starts_a_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
