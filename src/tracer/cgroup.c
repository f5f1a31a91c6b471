// SPDX-License-Identifier: GPL-2.0
/*
 * A process's CPU controller, read from the files the kernel exports.
 * cgroup v1 names the group per hierarchy in /proc/PID/cgroup
 * ("4:cpu,cpuacct:/a/b"), v2 in one line ("0::/a/b"); the group's files
 * live under the hierarchy's mount point, found in /proc/self/mountinfo.
 * v1: cpu.cfs_quota_us (-1: none), cpu.cfs_period_us, cpu.stat
 * (nr_periods, nr_throttled, throttled_time in ns).  v2: cpu.max
 * ("max 100000" or "40000 100000"), cpu.stat (throttled_usec) and
 * cpu.pressure ("some ... total=" in us).  Machines like ours mount v1's
 * cpu controller at /sys/fs/cgroup/cpu and an empty v2 hierarchy beside
 * it, so v1 is read first when it has the controller.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/cgroup.h"
#include "tracer/kstats.h"
#include "util/procfs.h"

/* Whether the comma-separated list has the word w. */
static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

void cg_mounts_find(struct cg_mounts *m)
{
	char line[1024], mnt[256], fstype[64], opts[256];
	const char *sep;
	FILE *f;

	memset(m, 0, sizeof(*m));
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/* id parent dev root MOUNT opts [optional...] - type src super */
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %255s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %255s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2") && !m->v2[0])
			snprintf(m->v2, sizeof(m->v2), "%s", mnt);
		else if (!strcmp(fstype, "cgroup") && has_word(opts, "cpu") &&
			 !m->v1_cpu[0])
			snprintf(m->v1_cpu, sizeof(m->v1_cpu), "%s", mnt);
	}
	fclose(f);
}

/* The group of pid in the v1 cpu hierarchy (v2 false) or in v2. */
static bool group_of(pid_t pid, bool v2, char *path, size_t len)
{
	char buf[4096], *line, *save = NULL, *ctl, *grp;

	if (proc_read(pid, "cgroup", buf, sizeof(buf)) < 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ctl = strchr(line, ':');
		grp = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!grp)
			continue;
		*grp++ = '\0';
		ctl++;
		if (v2 ? !strcmp(line, "0") && !*ctl : has_word(ctl, "cpu")) {
			snprintf(path, len, "%s", grp);
			return true;
		}
	}
	return false;
}

static bool read_file(const char *dir, const char *grp, const char *name,
		      char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/%s", dir, grp, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return true;
}

/* The value after "key " in a "key value" per line file, or 0. */
static unsigned long long field(const char *buf, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
	return 0;
}

static bool read_v1(const struct cg_mounts *m, struct ks_proc_snap *c)
{
	char buf[1024];

	if (!read_file(m->v1_cpu, c->cgroup, "cpu.cfs_quota_us", buf,
		       sizeof(buf)))
		return false;
	c->quota_us = strtoll(buf, NULL, 10);
	if (read_file(m->v1_cpu, c->cgroup, "cpu.cfs_period_us", buf,
		      sizeof(buf)))
		c->period_us = strtoull(buf, NULL, 10);
	if (!read_file(m->v1_cpu, c->cgroup, "cpu.stat", buf, sizeof(buf)))
		return false;
	c->nr_periods = field(buf, "nr_periods");
	c->nr_throttled = field(buf, "nr_throttled");
	c->throttled_ns = field(buf, "throttled_time");
	/* shares 2 (the least) is weight 1 on v2's scale, not 0. */
	if (read_file(m->v1_cpu, c->cgroup, "cpu.shares", buf, sizeof(buf))) {
		c->cpu_weight = (strtoull(buf, NULL, 10) * 100 + 512) / 1024;
		if (!c->cpu_weight)
			c->cpu_weight = 1;
	}
	return true;
}

static bool read_v2(const struct cg_mounts *m, struct ks_proc_snap *c)
{
	char buf[1024], *p;

	if (!read_file(m->v2, c->cgroup, "cpu.max", buf, sizeof(buf)))
		return false;
	c->quota_us = strncmp(buf, "max", 3) ? strtoll(buf, &p, 10) : -1;
	p = strchr(buf, ' ');
	c->period_us = p ? strtoull(p + 1, NULL, 10) : 0;
	if (!read_file(m->v2, c->cgroup, "cpu.stat", buf, sizeof(buf)))
		return false;
	c->nr_periods = field(buf, "nr_periods");
	c->nr_throttled = field(buf, "nr_throttled");
	c->throttled_ns = field(buf, "throttled_usec") * 1000;
	/* The root group has no cpu.weight: it is 100 to its children. */
	c->cpu_weight = 100;
	if (read_file(m->v2, c->cgroup, "cpu.weight", buf, sizeof(buf)))
		c->cpu_weight = strtoull(buf, NULL, 10);
	if (read_file(m->v2, c->cgroup, "cpu.pressure", buf, sizeof(buf))) {
		p = strstr(buf, "total=");
		c->psi_some_us = p ? strtoull(p + 6, NULL, 10) : 0;
	}
	return true;
}

static uint64_t grown(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

/*
 * "/autogroup-82 nice 0": the nice of the process's session group, which
 * weighs the group against the others when autogroups are on (and the
 * process is in the root task group, as it is on machines like ours).
 */
static void autogroup_read(pid_t pid, struct ks_proc_snap *c)
{
	char buf[128], *p;

	c->ag_valid = false;
	c->ag_nice = 0;
	if (pid <= 0 || proc_read(pid, "autogroup", buf, sizeof(buf)) < 0)
		return;
	p = strstr(buf, " nice ");
	if (!p)
		return;
	c->ag_nice = atoi(p + 6);
	c->ag_valid = true;
}

void cg_read(const struct cg_mounts *m, pid_t pid,
	     const struct ks_proc_snap *prev, struct ks_proc_snap *cur)
{
	bool same;

	cur->cg_valid = false;
	cur->cg_v2 = false;
	cur->quota_us = -1;
	cur->period_us = 0;
	cur->nr_periods = cur->nr_throttled = cur->throttled_ns = 0;
	cur->psi_some_us = 0;
	cur->cpu_weight = 0;
	cur->cgroup[0] = '\0';
	autogroup_read(pid, cur);
	if (pid > 0 && m->v1_cpu[0] &&
	    group_of(pid, false, cur->cgroup, sizeof(cur->cgroup)))
		cur->cg_valid = read_v1(m, cur);
	if (!cur->cg_valid && pid > 0 && m->v2[0] &&
	    group_of(pid, true, cur->cgroup, sizeof(cur->cgroup))) {
		cur->cg_v2 = true;
		cur->cg_valid = read_v2(m, cur);
	}
	if (!prev) {
		cur->acc_periods = cur->acc_throttled = 0;
		cur->acc_throttled_ns = cur->acc_psi_us = 0;
		return;
	}
	cur->acc_periods = prev->acc_periods;
	cur->acc_throttled = prev->acc_throttled;
	cur->acc_throttled_ns = prev->acc_throttled_ns;
	cur->acc_psi_us = prev->acc_psi_us;
	/* Moved to another group: its counters start from here. */
	same = cur->cg_valid && prev->cg_valid && cur->cg_v2 == prev->cg_v2 &&
	       !strcmp(cur->cgroup, prev->cgroup);
	if (!same)
		return;
	cur->acc_periods += grown(cur->nr_periods, prev->nr_periods);
	cur->acc_throttled += grown(cur->nr_throttled, prev->nr_throttled);
	cur->acc_throttled_ns += grown(cur->throttled_ns, prev->throttled_ns);
	cur->acc_psi_us += grown(cur->psi_some_us, prev->psi_some_us);
}
