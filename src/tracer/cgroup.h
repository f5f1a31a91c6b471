/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU controller of a benchmark process: its cgroup (v1 "cpu" or v2),
 * the quota, and the throttling the kernel counted, read from the cgroup
 * files at each snapshot.  A container's CPU quota is the commonest cause
 * of a slow run on users' machines, and the kernel's own counters
 * (cpu.stat) say exactly how long a group was throttled: no tracing is
 * needed, two small reads per process per interval.
 */
#ifndef CHATBENCH_CGROUP_H
#define CHATBENCH_CGROUP_H

#include <sys/types.h>

struct ks_proc_snap;

/* Where this system mounts the controllers; "" when it does not. */
struct cg_mounts {
	char v1_cpu[256];	/* a cgroup v1 hierarchy with "cpu" */
	char v2[256];		/* the cgroup v2 hierarchy */
};

void cg_mounts_find(struct cg_mounts *m);

/*
 * pid's group, quota and counters into cur (cg_valid false when none is
 * found), and the running totals from prev (NULL: this is the first).
 */
void cg_read(const struct cg_mounts *m, pid_t pid,
	     const struct ks_proc_snap *prev, struct ks_proc_snap *cur);

#endif
