// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a chat_s command line back.  A process that is not our chat_s
 * (the original server, another program, or no process found) is
 * "unknown": the report never guesses a model.
 */
#include <stdio.h>
#include <string.h>

#include "workload/client/server_info.h"
#include "util/procfs.h"

void autogroup_of(pid_t pid, char *buf, size_t len)
{
	char on[8] = "", line[64];
	FILE *f = fopen("/proc/sys/kernel/sched_autogroup_enabled", "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(on, sizeof(on), f))
			on[0] = '\0';
		fclose(f);
	}
	if (on[0] != '1' || proc_read(pid, "autogroup", line, sizeof(line)) < 0)
		return;
	/*
	 * "/autogroup-82 nice 0": the group is the first word.  A task of
	 * init's session is in the root task group, for which the kernel
	 * prints nothing; it is named "/" as sched debug names it, so that
	 * a client started from a daemon still compares groups with its
	 * server.
	 */
	line[strcspn(line, " \n")] = '\0';
	snprintf(buf, len, "%s", *line ? line : "/");
}

void server_info_read(pid_t pid, struct server_info *si)
{
	char buf[4096], *arg, *end;
	bool ours = false;
	ssize_t got;
	size_t n;

	snprintf(si->model, sizeof(si->model), "unknown");
	snprintf(si->cpus, sizeof(si->cpus), "unknown");
	si->pin = false;
	si->autogroup[0] = '\0';
	if (pid > 0)
		autogroup_of(pid, si->autogroup, sizeof(si->autogroup));
	got = proc_read(pid, "cmdline", buf, sizeof(buf));
	if (got < 0)
		return;
	end = buf + got;
	arg = buf;
	/* argv[0] ends in chat_s: ours (or a copy under another path). */
	n = strlen(arg);
	ours = n >= 6 && !strcmp(arg + n - 6, "chat_s");
	if (!ours)
		return;
	snprintf(si->model, sizeof(si->model), "threads");
	snprintf(si->cpus, sizeof(si->cpus), "all");
	for (arg += strlen(arg) + 1; arg < end; arg += strlen(arg) + 1) {
		const char *val = NULL;

		if (!strncmp(arg, "--model=", 8))
			val = arg + 8;
		else if ((!strcmp(arg, "--model") || !strcmp(arg, "-m")) &&
			 arg + strlen(arg) + 1 < end)
			val = arg + strlen(arg) + 1;
		if (val)
			snprintf(si->model, sizeof(si->model), "%s", val);
		val = NULL;
		if (!strncmp(arg, "--cpus=", 7))
			val = arg + 7;
		else if (!strcmp(arg, "--cpus") && arg + strlen(arg) + 1 < end)
			val = arg + strlen(arg) + 1;
		if (val)
			snprintf(si->cpus, sizeof(si->cpus), "%s", val);
		if (!strcmp(arg, "--pin"))
			si->pin = true;
	}
}
