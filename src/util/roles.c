// SPDX-License-Identifier: GPL-2.0
/* The role table of bpf/chatbench.h, as strings for user space. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/roles.h"

#define ROLE_INFO(id, n, w, c, comm) \
	[CB_ROLE_##id] = { .name = n, .words = w, .colour = c },
const struct role_info role_table[CB_NR_ROLES] = {
	CB_ROLES(ROLE_INFO)
};
#undef ROLE_INFO

void role_name_self(int role)
{
	pthread_setname_np(pthread_self(), role_name(role));
}

int role_by_name(const char *name)
{
	int r;

	for (r = 0; r < CB_NR_ROLES; r++)
		if (!strcmp(role_table[r].name, name))
			return r;
	return -1;
}

/*
 * Why the executable and not the command line or the threads: the
 * original server is also called chat_s (argv[0] and comm alike), and a
 * server's threads carry their role names only while a run is on.  A
 * program's strings are there before its first run, whatever its path.
 * Each name is searched with the NULs around it, as a C string stands in
 * .rodata, so that "srv_rcv" inside a longer string or symbol does not
 * count.  The file is read in chunks, the last few bytes of each kept in
 * front of the next so that a name across two reads is still found.
 */
int roles_named_by(pid_t pid)
{
	static const char *const want[] = { "srv_rcv", "srv_snd" };
	char path[64], pat[2][16], buf[65536 + 16];
	size_t len[2], keep = 0;
	bool found[2] = { false, false };
	ssize_t got;
	int fd, i;

	if (pid <= 0)
		return -1;
	for (i = 0; i < 2; i++) {
		len[i] = strlen(want[i]) + 2;
		pat[i][0] = '\0';
		memcpy(pat[i] + 1, want[i], len[i] - 1);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((got = read(fd, buf + keep, sizeof(buf) - 16)) > 0) {
		size_t n = keep + (size_t)got;

		for (i = 0; i < 2; i++)
			if (!found[i] && memmem(buf, n, pat[i], len[i]))
				found[i] = true;
		if (found[0] && found[1])
			break;
		keep = n < 15 ? n : 15;
		memmove(buf, buf + n - keep, keep);
	}
	close(fd);
	if (got < 0)
		return -1;
	return found[0] && found[1];
}
