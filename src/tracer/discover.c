/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which local process listens on a TCP port.  /proc/net/tcp and tcp6 give
 * the inode of each listening socket with its local port; the owner is
 * the process with an fd linking to "socket:[inode]".  This works for any
 * server the user can see in /proc (all of them as root), needs no
 * netlink, and reads only the listeners, once per server.
 */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer/discover.h"
#include "util/procfs.h"

#define TCP_LISTEN	0x0A
#define MAX_INODES	16

/* Adds the inodes of sockets listening on port to inodes[]. */
static int listening_inodes(const char *path, uint16_t port,
			    unsigned long *inodes, int n)
{
	char line[512];
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return n;
	if (!fgets(line, sizeof(line), f))	/* header */
		goto out;
	while (n < MAX_INODES && fgets(line, sizeof(line), f)) {
		char local[64], remote[64];
		unsigned int lport, state;
		unsigned long inode;
		char *colon;

		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, "%*s %63s %63s %x %*s %*s %*s %*s %*s %lu",
			   local, remote, &state, &inode) != 4)
			continue;
		colon = strrchr(local, ':');
		if (!colon || sscanf(colon + 1, "%x", &lport) != 1)
			continue;
		/*
		 * The kernel lists every listener before any other socket;
		 * the rest, thousands of TIME_WAITs after a few runs, made
		 * this read a third of an untraced small run's CPU.
		 */
		if (state != TCP_LISTEN)
			break;
		if (lport == port && inode)
			inodes[n++] = inode;
	}
out:
	fclose(f);
	return n;
}

static bool owns_inode(pid_t pid, const unsigned long *inodes, int n)
{
	char dir[32], target[64];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		unsigned long ino;
		ssize_t len;
		int i;

		if (e->d_name[0] == '.')
			continue;
		len = readlinkat(dirfd(d), e->d_name, target,
				 sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (sscanf(target, "socket:[%lu]", &ino) != 1)
			continue;
		for (i = 0; i < n; i++)
			if (inodes[i] == ino)
				found = true;
	}
	closedir(d);
	return found;
}

/* Whether process pid is named chat_s: the usual owner of the port. */
static bool named_chat_s(pid_t pid)
{
	char comm[32];

	return proc_read(pid, "comm", comm, sizeof(comm)) >= 0 &&
	       !strcmp(comm, "chat_s\n");
}

/*
 * The process that owns one of inodes: processes named chat_s first, a
 * read of /proc/PID/comm each, since a walk of every process's fds costs
 * an untraced 10 x 1 run about 500 system calls; then, if none is, every
 * process (a server under another name).
 */
pid_t discover_server_tgid(uint16_t port)
{
	unsigned long inodes[MAX_INODES];
	struct dirent *e;
	pid_t pid = 0, p;
	int n, pass;
	DIR *proc;

	n = listening_inodes("/proc/net/tcp", port, inodes, 0);
	n = listening_inodes("/proc/net/tcp6", port, inodes, n);
	if (!n)
		return 0;
	for (pass = 0; pass < 2 && !pid; pass++) {
		proc = opendir("/proc");
		if (!proc)
			return 0;
		while (!pid && (e = readdir(proc))) {
			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			p = (pid_t)atoi(e->d_name);
			if ((pass || named_chat_s(p)) &&
			    owns_inode(p, inodes, n))
				pid = p;
		}
		closedir(proc);
	}
	return pid;
}
