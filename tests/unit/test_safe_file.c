// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/util/safe_file.c in a fresh folder each: a file is
 * whole at its name or not there, nothing planted beside it (the old
 * PATH.tmp, a link at the target) is written through, no temporary is
 * left on any path, and the mode is what fopen would have given.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/safe_file.h"

#define PLANTED "planted, keep me\n"

struct dir {
	char path[64];
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	snprintf(d->path, sizeof(d->path), "/tmp/test_safe_file.XXXXXX");
	if (!mkdtemp(d->path)) {
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	free(d);
	return system(cmd) ? -1 : 0;
}

static char *in(const struct dir *d, const char *name)
{
	static char buf[4][PATH_MAX];
	static int n;
	char *p = buf[n++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", d->path, name);
	return p;
}

/* The folder's entries, apart from . and .. */
static int entries(const struct dir *d)
{
	DIR *dp = opendir(d->path);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_holds(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	assert_string_equal(buf, text);
}

static void test_commit_replaces_the_target(void **state)
{
	struct dir *d = *state;
	struct safe_file sf;
	struct stat st;
	mode_t old = umask(027);
	FILE *f;

	put(in(d, "victim"), PLANTED);
	put(in(d, "out"), "old\n");
	/* The names a writer used to use, planted as links. */
	assert_int_equal(symlink(in(d, "victim"), in(d, "out.tmp")), 0);
	f = safe_file_open(&sf, in(d, "out"));
	assert_non_null(f);
	fputs("new\n", f);
	/* Until the commit, the old file is there whole. */
	assert_holds(in(d, "out"), "old\n");
	assert_int_equal(safe_file_commit(&sf, NULL), 0);
	umask(old);
	assert_holds(in(d, "out"), "new\n");
	assert_holds(in(d, "victim"), PLANTED);
	assert_int_equal(stat(in(d, "out"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	/* out, victim, out.tmp: no temporary left. */
	assert_int_equal(entries(d), 3);
}

static void test_link_at_target_replaced_not_followed(void **state)
{
	struct dir *d = *state;
	struct safe_file sf;
	struct stat st;
	FILE *f;

	put(in(d, "victim"), PLANTED);
	assert_int_equal(symlink(in(d, "victim"), in(d, "out")), 0);
	f = safe_file_open(&sf, in(d, "out"));
	assert_non_null(f);
	fputs("new\n", f);
	assert_int_equal(safe_file_commit(&sf, NULL), 0);
	assert_int_equal(lstat(in(d, "out"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_holds(in(d, "victim"), PLANTED);
	f = safe_file_fresh(in(d, "victim"));
	assert_non_null(f);
	fclose(f);
	assert_holds(in(d, "victim"), "");
	assert_int_equal(entries(d), 2);
}

static void test_keep_appends_to_the_target(void **state)
{
	struct dir *d = *state;
	struct safe_file sf;
	FILE *f = safe_file_open(&sf, in(d, "out"));

	assert_non_null(f);
	fputs("one\n", f);
	assert_int_equal(safe_file_commit(&sf, &f), 0);
	assert_non_null(f);
	fputs("two\n", f);
	assert_int_equal(fclose(f), 0);
	assert_holds(in(d, "out"), "one\ntwo\n");
	assert_int_equal(entries(d), 1);
}

static void test_failures_leave_nothing(void **state)
{
	struct dir *d = *state;
	struct safe_file sf;
	FILE *f;

	put(in(d, "out"), "old\n");
	f = safe_file_open(&sf, in(d, "out"));
	assert_non_null(f);
	fputs("half\n", f);
	safe_file_abort(&sf);
	assert_holds(in(d, "out"), "old\n");
	/* A folder at the target's name: the rename fails. */
	assert_int_equal(mkdir(in(d, "sub"), 0700), 0);
	f = safe_file_open(&sf, in(d, "sub"));
	assert_non_null(f);
	errno = 0;
	assert_int_equal(safe_file_commit(&sf, NULL), -1);
	assert_int_not_equal(errno, 0);
	assert_int_equal(entries(d), 2);
	errno = 0;
	assert_null(safe_file_open(&sf, in(d, "missing/out")));
	assert_int_equal(errno, ENOENT);
	assert_null(safe_file_open(&sf, in(d, "sub/")));
	assert_int_equal(entries(d), 2);
}

static void test_check_creates_and_follows_nothing(void **state)
{
	struct dir *d = *state;

	put(in(d, "victim"), PLANTED);
	assert_int_equal(symlink(in(d, "victim"), in(d, "link")), 0);
	assert_int_equal(symlink(in(d, "nowhere"), in(d, "dangling")), 0);
	assert_null(safe_file_check(in(d, "absent")));
	assert_null(safe_file_check(in(d, "victim")));
	assert_non_null(safe_file_check(in(d, "link")));
	assert_non_null(safe_file_check(in(d, "dangling")));
	assert_string_equal(safe_file_check(in(d, "missing/out")),
			    strerror(ENOENT));
	assert_string_equal(safe_file_check(d->path), strerror(EISDIR));
	assert_non_null(safe_file_check(in(d, "victim/x")));
	assert_holds(in(d, "victim"), PLANTED);
	assert_int_equal(entries(d), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_replaces_the_target,
						dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_link_at_target_replaced_not_followed,
						dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_keep_appends_to_the_target,
						dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_failures_leave_nothing,
						dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_check_creates_and_follows_nothing,
						dir_setup, dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
