// SPDX-License-Identifier: GPL-2.0
/*
 * The server's threads are found by name, as the tracer finds them; the
 * threads of a run exist once the server sent 0x11, but each takes its
 * name only when it first runs, hence the repeated scan.  With several
 * runs at once on the server, the others' threads are set too: they
 * share the roles' names.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/procfs.h"
#include "util/roles.h"
#include "util/timeutil.h"
#include "workload/client/sched_server.h"

#define SCAN_BOUND_NS	3000000000ULL

struct scan {
	const struct sched_spec *spec;	/* NULL: only count the unnamed */
	struct sched_tally *t;
	pid_t *done;		/* set already, by tid */
	size_t ndone, cap;
	unsigned int unnamed;	/* still under the process's own name */
	char *why;
	size_t len;
};

static bool server_role(int role)
{
	return role == CB_ROLE_SRV_RCV || role == CB_ROLE_SRV_SND ||
	       role == CB_ROLE_SRV_LOOP;
}

bool sched_server_asked(const struct sched_spec *spec)
{
	int role;

	for (role = 0; role < CB_ROLE_OTHER; role++)
		if (server_role(role) && sched_spec_has(spec, role))
			return true;
	return false;
}

static bool tid_done(const struct scan *sc, pid_t tid)
{
	size_t i;

	for (i = 0; i < sc->ndone; i++)
		if (sc->done[i] == tid)
			return true;
	return false;
}

static int remember(struct scan *sc, pid_t tid)
{
	if (sc->ndone == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 256;
		pid_t *d = realloc(sc->done, cap * sizeof(*d));

		if (!d) {
			snprintf(sc->why, sc->len, "out of memory");
			return -1;
		}
		sc->done = d;
		sc->cap = cap;
	}
	sc->done[sc->ndone++] = tid;
	return 0;
}

/* One thread by its name; 0 when it is not ours to set, or gone. */
static int one_thread(struct scan *sc, pid_t server, pid_t tid,
		      const char *pname)
{
	struct sched_got got;
	char name[64], comm[32], why[240];
	int role;

	snprintf(name, sizeof(name), "task/%d/comm", (int)tid);
	if (proc_read(server, name, comm, sizeof(comm)) <= 0)
		return 0;
	comm[strcspn(comm, "\n")] = '\0';
	if (!strcmp(comm, pname))
		sc->unnamed++;
	if (!sc->spec)
		return 0;
	role = role_by_name(comm);
	if (!server_role(role) || !sched_spec_has(sc->spec, role) ||
	    tid_done(sc, tid))
		return 0;
	if (sched_apply(sc->spec, role, tid, &got, why, sizeof(why))) {
		if (errno == ESRCH)
			return 0;
		snprintf(sc->why, sc->len, "server's %s thread %d: %s", comm,
			 (int)tid, why);
		return -1;
	}
	sc->t->got[role] = got;
	sc->t->n[role]++;
	return remember(sc, tid);
}

/* One pass over the server's threads. */
static int scan_once(struct scan *sc, pid_t server)
{
	char path[64], pname[32] = "";
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (proc_read(server, "comm", pname, sizeof(pname)) > 0)
		pname[strcspn(pname, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task", (int)server);
	d = opendir(path);
	if (!d) {
		snprintf(sc->why, sc->len, "%s: %s", path, strerror(errno));
		return -1;
	}
	sc->unnamed = 0;
	while (!rc && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);

		if (tid > 0)
			rc = one_thread(sc, server, (pid_t)tid, pname);
	}
	closedir(d);
	return rc;
}

unsigned int sched_server_unnamed(pid_t server)
{
	char why[160];
	struct scan sc = { .why = why, .len = sizeof(why) };

	if (scan_once(&sc, server))
		return 0;
	return sc.unnamed;
}

int sched_server_apply(pid_t server, const struct sched_spec *spec,
		       unsigned int unnamed_before, struct sched_tally *t,
		       char *why, size_t len)
{
	uint64_t deadline = now_ns() + SCAN_BOUND_NS;
	struct scan sc = { .spec = spec, .t = t, .why = why, .len = len };
	int rc;

	for (;;) {
		rc = scan_once(&sc, server);
		if (rc || sc.unnamed <= unnamed_before)
			break;
		if (now_ns() > deadline) {
			fprintf(stderr, "chat_c: %u server threads had not named themselves after 3 s; their scheduling was not set\n",
				sc.unnamed - unnamed_before);
			break;
		}
		usleep(2000);
	}
	free(sc.done);
	return rc;
}
