// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the symbolizer of profile stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tracer/symbolize.h"

/*
 * Looked up by address: not static and not inlined, so that the symbol
 * table of this (unstripped) binary has it under this name.
 */
__attribute__((noinline)) int sym_test_target(int x);

__attribute__((noinline)) int sym_test_target(int x)
{
	/* keeps the body from folding into its callers */
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static void assert_foldable(const char *name)
{
	assert_non_null(name);
	assert_true(name[0] != '\0');
	assert_null(strchr(name, ';'));
	assert_null(strchr(name, ' '));
	assert_null(strchr(name, '\t'));
	assert_null(strchr(name, '\n'));
}

static void test_user_own_function(void **state)
{
	struct symbolizer *s = sym_new();
	uint64_t addr = (uintptr_t)&sym_test_target;

	(void)state;
	assert_non_null(s);
	assert_string_equal(sym_user(s, getpid(), addr), "sym_test_target");
	/* inside the body, as a sampled instruction pointer would be */
	assert_string_equal(sym_user(s, getpid(), addr + 1),
			    "sym_test_target");
	/* a second time from the cache, the same string */
	assert_ptr_equal(sym_user(s, getpid(), addr),
			 sym_user(s, getpid(), addr));
	/* a local (static) symbol of .symtab is found too */
	addr = (uintptr_t)&test_user_own_function;
	assert_string_equal(sym_user(s, getpid(), addr),
			    "test_user_own_function");
	sym_free(s);
}

static void test_user_libc(void **state)
{
	struct symbolizer *s = sym_new();
	const char *name;

	(void)state;
	assert_non_null(s);
	name = sym_user(s, getpid(), (uintptr_t)&write);
	assert_string_not_equal(name, "[unknown]");
	assert_foldable(name);
	assert_non_null(strstr(name, "write"));
	sym_free(s);
}

static void test_user_unmapped(void **state)
{
	struct symbolizer *s = sym_new();

	(void)state;
	assert_non_null(s);
	/* the zero page is never mapped */
	assert_string_equal(sym_user(s, getpid(), 16), "[unknown]");
	sym_free(s);
}

static void test_user_other_process(void **state)
{
	struct symbolizer *s;
	int fds[2], status;
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* lives until the parent closes its end */
		close(fds[1]);
		if (read(fds[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[0]);
	s = sym_new();
	assert_non_null(s);
	/* a fork maps this binary at the same address */
	assert_string_equal(sym_user(s, pid, (uintptr_t)&sym_test_target),
			    "sym_test_target");
	close(fds[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	sym_free(s);
}

static void test_user_dead_process(void **state)
{
	struct symbolizer *s;
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	s = sym_new();
	assert_non_null(s);
	assert_string_equal(sym_user(s, pid, (uintptr_t)&sym_test_target),
			    "[unknown]");
	assert_string_equal(sym_user(s, pid, (uintptr_t)&write), "[unknown]");
	/* this process is still named after a dead one was asked about */
	assert_string_equal(sym_user(s, getpid(), (uintptr_t)&sym_test_target),
			    "sym_test_target");
	sym_free(s);
}

/* The address of "schedule" in /proc/kallsyms; 0 when hidden. */
static uint64_t kallsyms_find(const char *want)
{
	char line[512], type, name[256];
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, want)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

static void test_kernel(void **state)
{
	struct symbolizer *s = sym_new();
	uint64_t addr = kallsyms_find("schedule");

	(void)state;
	assert_non_null(s);
	if (!addr) {
		/* kptr_restrict hides the addresses: no names at all */
		assert_string_equal(sym_kernel(s, 0xffffffff81000000ull),
				    "[kernel]");
		sym_free(s);
		skip();
	}
	assert_string_equal(sym_kernel(s, addr), "schedule");
	assert_string_equal(sym_kernel(s, addr + 1), "schedule");
	/* below all kernel text: a user address */
	assert_string_equal(sym_kernel(s, 0x1000), "[kernel]");
	sym_free(s);
}

static void test_sanitize(void **state)
{
	char name[] = "a;b c\td\ne\x01" "f\x7f" "g";

	(void)state;
	sym_sanitize(name);
	assert_string_equal(name, "a_b_c_d_e_f_g");
	assert_foldable(name);
}

static void test_names_foldable(void **state)
{
	struct symbolizer *s = sym_new();
	uint64_t addr = kallsyms_find("schedule");

	(void)state;
	assert_non_null(s);
	assert_foldable(sym_user(s, getpid(), (uintptr_t)&sym_test_target));
	assert_foldable(sym_user(s, getpid(), (uintptr_t)&write));
	assert_foldable(sym_user(s, getpid(), (uintptr_t)&malloc));
	assert_foldable(sym_user(s, getpid(), 16));
	assert_foldable(sym_kernel(s, addr ? addr : 0xffffffff81000000ull));
	sym_free(s);
}

static void test_free_null(void **state)
{
	(void)state;
	sym_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_own_function),
		cmocka_unit_test(test_user_libc),
		cmocka_unit_test(test_user_unmapped),
		cmocka_unit_test(test_user_other_process),
		cmocka_unit_test(test_user_dead_process),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_names_foldable),
		cmocka_unit_test(test_free_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
