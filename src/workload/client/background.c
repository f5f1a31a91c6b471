// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/numarg.h"
#include "workload/client/background.h"

#define MAX_BURNERS	256
/* One loop: enough work to make the counter's cost vanish (~50 us). */
#define LOOP_SPINS	100000

/* A cache line each, so that counting does not slow the others down. */
struct bg_slot {
	_Atomic uint64_t loops;
	_Atomic int state;	/* 0 starting, 1 running, else -errno */
	char pad[52];
};

struct background {
	pid_t pid;
	int n;
	struct bg_slot *slots;	/* shared with the burners' process */
};

struct burner_arg {
	struct bg_slot *slot;
	int nice;
};

int bg_parse(const char *arg, struct bg_spec *s, char *err, size_t len)
{
	char num[32];
	const char *colon;
	long v;

	if (strncmp(arg, "burn=", 5)) {
		snprintf(err, len,
			 "--background wants burn=N[:NICE] (N CPU-bound threads), not '%s'",
			 arg);
		return -1;
	}
	arg += 5;
	colon = strchr(arg, ':');
	snprintf(num, sizeof(num), "%.*s",
		 (int)(colon ? (size_t)(colon - arg) : strlen(arg)), arg);
	if (parse_long(num, "--background burners", 1, MAX_BURNERS, &v, err,
		       len))
		return -1;
	s->burners = (int)v;
	s->nice = 0;
	if (colon) {
		if (parse_long(colon + 1, "--background nice", -20, 19, &v,
			       err, len))
			return -1;
		s->nice = (int)v;
	}
	return 0;
}

static void *burn(void *p)
{
	struct burner_arg *a = p;
	volatile unsigned long x = 0;
	unsigned long i;

	prctl(PR_SET_NAME, BG_BURN_NAME);
	/* On Linux the nice value is the thread's own. */
	if (a->nice &&
	    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), a->nice)) {
		atomic_store(&a->slot->state, -errno);
		return NULL;
	}
	atomic_store(&a->slot->state, 1);
	for (;;) {
		for (i = 0; i < LOOP_SPINS; i++)
			x++;
		atomic_fetch_add_explicit(&a->slot->loops, 1,
					  memory_order_relaxed);
	}
	return NULL;
}

/* The burners' process: never returns; dies with its parent. */
static void burners_main(struct bg_slot *slots, int n, int nice)
{
	struct burner_arg *args = calloc((size_t)n, sizeof(*args));
	pthread_t t;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, BG_BURN_NAME);
	if (!args)
		_exit(1);
	for (i = 0; i < n; i++) {
		args[i].slot = &slots[i];
		args[i].nice = nice;
		if (pthread_create(&t, NULL, burn, &args[i])) {
			atomic_store(&slots[i].state, -EAGAIN);
			_exit(1);
		}
	}
	for (;;)
		pause();
}

/* Every burner running at its nice, or the reason one is not. */
static int wait_running(struct background *bg, char *err, size_t len)
{
	int i, tries, st = 0;

	for (tries = 0; tries < 5000; tries++) {
		for (i = 0; i < bg->n; i++) {
			st = atomic_load(&bg->slots[i].state);
			if (st != 1)
				break;
		}
		if (i == bg->n)
			return 0;
		if (st < 0) {
			snprintf(err, len, "--background: burner %d: %s%s",
				 i + 1, strerror(-st),
				 st == -EACCES || st == -EPERM ?
				 " (a negative nice needs root)" : "");
			return -1;
		}
		usleep(1000);
	}
	snprintf(err, len, "--background: the burners did not start within 5 s");
	return -1;
}

struct background *bg_start(const struct bg_spec *s, char *err, size_t len)
{
	struct background *bg = calloc(1, sizeof(*bg));
	pid_t parent = getpid();

	if (!bg) {
		snprintf(err, len, "--background: out of memory");
		return NULL;
	}
	bg->n = s->burners;
	bg->slots = mmap(NULL, sizeof(*bg->slots) * (size_t)bg->n,
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (bg->slots == MAP_FAILED) {
		snprintf(err, len, "--background: mmap: %s", strerror(errno));
		free(bg);
		return NULL;
	}
	bg->pid = fork();
	if (bg->pid < 0) {
		snprintf(err, len, "--background: fork: %s", strerror(errno));
		munmap(bg->slots, sizeof(*bg->slots) * (size_t)bg->n);
		free(bg);
		return NULL;
	}
	if (!bg->pid) {
		/* The parent may have gone before PDEATHSIG was set. */
		if (getppid() != parent)
			_exit(0);
		burners_main(bg->slots, bg->n, s->nice);
	}
	if (wait_running(bg, err, len)) {
		bg_stop(bg);
		return NULL;
	}
	return bg;
}

uint64_t bg_loops(const struct background *bg)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; bg && i < bg->n; i++)
		sum += atomic_load_explicit(&bg->slots[i].loops,
					    memory_order_relaxed);
	return sum;
}

void bg_stop(struct background *bg)
{
	if (!bg)
		return;
	if (bg->pid > 0) {
		kill(bg->pid, SIGKILL);
		waitpid(bg->pid, NULL, 0);
	}
	munmap(bg->slots, sizeof(*bg->slots) * (size_t)bg->n);
	free(bg);
}
