// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a chat_s command line back.  A process that is not our chat_s
 * (the original server, another program) is "foreign", named by its
 * command name, and no process found is "unknown": the report never
 * guesses a model.
 */
#include <stdio.h>
#include <string.h>

#include "workload/client/server_info.h"
#include "workload/proto.h"
#include "util/procfs.h"
#include "util/roles.h"

/* The tracer's idea of control traffic must cover the protocol's. */
_Static_assert(CB_CTL_MAX_BYTES >= CHAT_START_MAX_LEN &&
	       CB_CTL_MAX_BYTES < CHAT_MSG_SIZE,
	       "bpf/chatbench.h: CB_CTL_MAX_BYTES against workload/proto.h");

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

/* "foreign (NAME)": the command name, as ps and the kernel show it. */
static void foreign_name(pid_t pid, struct server_info *si)
{
	char comm[16];

	if (proc_read(pid, "comm", comm, sizeof(comm)) <= 0)
		return;
	comm[strcspn(comm, "\n")] = '\0';
	si->foreign = true;
	snprintf(si->model, sizeof(si->model), "foreign (%s)", comm);
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
	si->foreign = false;
	si->autogroup[0] = '\0';
	if (pid > 0)
		autogroup_of(pid, si->autogroup, sizeof(si->autogroup));
	got = proc_read(pid, "cmdline", buf, sizeof(buf));
	if (got < 0)
		return;
	end = buf + got;
	arg = buf;
	/*
	 * Ours when its program names its threads by our roles; the
	 * original 1.0.1 server is a chat_s too, so the name alone cannot
	 * tell.  Only when the program cannot be read (another user's
	 * process) does the name decide, as it did before.
	 */
	n = strlen(arg);
	switch (roles_named_by(pid)) {
	case 1:
		ours = true;
		break;
	case 0:
		ours = false;
		break;
	default:
		ours = n >= 6 && !strcmp(arg + n - 6, "chat_s");
		break;
	}
	if (!ours) {
		foreign_name(pid, si);
		return;
	}
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
