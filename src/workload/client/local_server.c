// SPDX-License-Identifier: GPL-2.0
/*
 * Starting and stopping the --local chat_s.  The child is the chat_s that
 * sits next to this chat_c (same build), told to bind port 0 and to write
 * the port the kernel picked to a pipe, which removes any race with the
 * listen() and any fixed port that could collide.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/client/local_server.h"
#include "workload/netio.h"

extern char **environ;

static int find_chat_s(char *path, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, len, "%s/chat_s", self);
			if (!access(path, X_OK))
				return 0;
		}
	}
	snprintf(path, len, "chat_s"); /* then PATH decides */
	return 0;
}

int local_server_start(struct local_server *ls, const struct sockaddr_in *addr,
		       const struct local_server_args *a, char *err,
		       size_t len)
{
	char path[PATH_MAX + 16], ip[INET_ADDRSTRLEN], fdarg[16], line[16];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	sigset_t none;
	int pfd[2] = { -1, -1 }, rc;
	ssize_t n = 0;
	char tmo[16], clients[16], *argv[20];
	int n_arg = 0;

	memset(ls, 0, sizeof(*ls));
	find_chat_s(path, sizeof(path));
	inet_ntop(AF_INET, &addr->sin_addr, ip, sizeof(ip));
	if (pipe(pfd)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	/* The write end must survive exec; the read end must not. */
	fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
	snprintf(fdarg, sizeof(fdarg), "%d", pfd[1]);
	snprintf(tmo, sizeof(tmo), "%d", a->timeout_ms / 1000);
	argv[n_arg++] = path;
	argv[n_arg++] = "--quiet";
	argv[n_arg++] = "--timeout";
	argv[n_arg++] = tmo;
	argv[n_arg++] = "--ready-fd";
	argv[n_arg++] = fdarg;
	if (a->model) {
		argv[n_arg++] = "--model";
		argv[n_arg++] = (char *)a->model;
	}
	if (a->cpus) {
		argv[n_arg++] = "--cpus";
		argv[n_arg++] = (char *)a->cpus;
	}
	if (a->pin)
		argv[n_arg++] = "--pin";
	if (a->nodelay)
		argv[n_arg++] = "--nodelay";
	if (a->clients > 1) {
		snprintf(clients, sizeof(clients), "%d", a->clients);
		argv[n_arg++] = "--clients";
		argv[n_arg++] = clients;
	}
	argv[n_arg++] = ip;
	argv[n_arg++] = "0";
	argv[n_arg] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	/* Our signals are blocked for the sigwait thread; chat_s needs them. */
	sigemptyset(&none);
	posix_spawnattr_init(&sa);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawnp(&ls->pid, path, &fa, &sa, argv, environ);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc) {
		snprintf(err, len, "cannot start %s: %s", path, strerror(rc));
		close(pfd[0]);
		ls->pid = 0;
		return -1;
	}
	if (net_wait_readable(pfd[0], a->timeout_ms) > 0)
		n = read(pfd[0], line, sizeof(line) - 1);
	close(pfd[0]);
	if (n <= 0) {
		snprintf(err, len, "%s did not start (see its error above)",
			 path);
		local_server_stop(ls);
		return -1;
	}
	line[n] = '\0';
	ls->port = (uint16_t)atoi(line);
	return 0;
}

void local_server_stop(struct local_server *ls)
{
	int status, i;

	if (ls->pid <= 0)
		return;
	/* chat_s ends its current run first; give it a few seconds. */
	kill(ls->pid, SIGTERM);
	for (i = 0; i < 100; i++) {
		if (waitpid(ls->pid, &status, WNOHANG) == ls->pid)
			goto out;
		usleep(50 * 1000);
	}
	kill(ls->pid, SIGKILL);
	waitpid(ls->pid, &status, 0);
out:
	ls->pid = 0;
}
