// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the CPU-controller reader (src/tracer/cgroup.c) on a
 * cgroup v1 tree of our own: this process's group (read from its real
 * /proc/self/cgroup) under a temporary "mount point", so that the quota
 * and the throttling counters, and their running totals across a move
 * to another group, are checked without root or a real quota.
 */
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

#include "tracer/cgroup.h"
#include "tracer/kstats.h"

static char root[64], group[256];

static void put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/%s", root, group, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Our own v1 cpu group's path, made under a temporary root. */
static int setup(void **state)
{
	char line[512], path[512];
	FILE *f = fopen("/proc/self/cgroup", "r");

	(void)state;
	snprintf(root, sizeof(root), "/tmp/chb-cg-XXXXXX");
	if (!mkdtemp(root) || !f)
		return -1;
	group[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *grp;

		grp = ctl ? strchr(ctl + 1, ':') : NULL;
		if (grp && (!strncmp(ctl + 1, "cpu:", 4) ||
			    !strncmp(ctl + 1, "cpu,", 4))) {
			grp[strcspn(grp, "\n")] = '\0';
			snprintf(group, sizeof(group), "%s", grp + 1);
		}
	}
	fclose(f);
	/* No v1 cpu hierarchy here: the tests skip themselves. */
	if (!group[0])
		return 0;
	snprintf(path, sizeof(path), "mkdir -p '%s%s'", root, group);
	return system(path) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static void test_v1_quota_and_totals(void **state)
{
	struct cg_mounts m = { 0 };
	struct ks_proc_snap a, b, c;

	(void)state;
	if (!group[0])
		skip();
	snprintf(m.v1_cpu, sizeof(m.v1_cpu), "%s", root);
	put("cpu.cfs_quota_us", "40000\n");
	put("cpu.cfs_period_us", "100000\n");
	put("cpu.stat", "nr_periods 10\nnr_throttled 4\nthrottled_time 300000000\n");
	memset(&a, 0, sizeof(a));
	cg_read(&m, getpid(), NULL, &a);
	assert_true(a.cg_valid);
	assert_false(a.cg_v2);
	assert_string_equal(a.cgroup, group);
	assert_int_equal(a.quota_us, 40000);
	assert_int_equal(a.period_us, 100000);
	assert_int_equal(a.throttled_ns, 300000000);
	assert_int_equal(a.acc_throttled_ns, 0);
	put("cpu.stat", "nr_periods 25\nnr_throttled 15\nthrottled_time 1300000000\n");
	cg_read(&m, getpid(), &a, &b);
	assert_int_equal(b.acc_periods, 15);
	assert_int_equal(b.acc_throttled, 11);
	assert_int_equal(b.acc_throttled_ns, 1000000000);
	/* Another group since: its counters start from here. */
	snprintf(a.cgroup, sizeof(a.cgroup), "/elsewhere");
	cg_read(&m, getpid(), &a, &c);
	assert_int_equal(c.acc_throttled_ns, 0);
	/* No quota: -1, as the kernel writes it. */
	put("cpu.cfs_quota_us", "-1\n");
	cg_read(&m, getpid(), &b, &c);
	assert_int_equal(c.quota_us, -1);
	assert_int_equal(c.acc_throttled_ns, 1000000000);
}

static void test_nothing_mounted(void **state)
{
	struct cg_mounts m = { 0 };
	struct ks_proc_snap a;

	(void)state;
	memset(&a, 0, sizeof(a));
	cg_read(&m, getpid(), NULL, &a);
	assert_false(a.cg_valid);
	assert_int_equal(a.quota_us, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_quota_and_totals),
		cmocka_unit_test(test_nothing_mounted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
