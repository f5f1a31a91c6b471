// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/numarg.h"
#include "util/roles.h"
#include "util/schedpol.h"

/* Slices the kernel accepts for a fair task (6.12+: 0.1 to 100 ms). */
#define SLICE_MIN_US	100
#define SLICE_MAX_US	100000

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "other", SCHED_OTHER },
	{ "batch", SCHED_BATCH },
	{ "idle", SCHED_IDLE },
	{ "fifo", SCHED_FIFO },
	{ "rr", SCHED_RR },
};

const char *sched_policy_name(int policy)
{
	size_t i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "unknown";
}

static bool is_rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* The roles ROLE names, as a bit set over enum cb_role. */
static int parse_roles(const char *name, size_t n, unsigned int *set)
{
	int r;

	if (n == 3 && !strncmp(name, "all", 3)) {
		*set = (1U << CB_ROLE_OTHER) - 1;
		return 0;
	}
	if (n == 6 && !strncmp(name, "client", 6)) {
		*set = 1U << CB_ROLE_CLI_SND | 1U << CB_ROLE_CLI_RCV;
		return 0;
	}
	if (n == 6 && !strncmp(name, "server", 6)) {
		*set = 1U << CB_ROLE_SRV_RCV | 1U << CB_ROLE_SRV_SND |
		       1U << CB_ROLE_SRV_LOOP;
		return 0;
	}
	for (r = 0; r < CB_ROLE_OTHER; r++)
		if (strlen(role_name(r)) == n && !strncmp(name, role_name(r), n)) {
			*set = 1U << r;
			return 0;
		}
	return -1;
}

static int parse_policy(const char *v, struct sched_want *w, char *err,
			size_t len)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v), i;
	long prio = 0;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strlen(policies[i].name) == n &&
		    !strncmp(v, policies[i].name, n))
			break;
	if (i == sizeof(policies) / sizeof(policies[0])) {
		snprintf(err, len,
			 "--sched: '%.*s' is not a policy (other, batch, idle, fifo, rr)",
			 (int)n, v);
		return -1;
	}
	if (is_rt(policies[i].policy)) {
		if (!colon) {
			snprintf(err, len,
				 "--sched: %s needs a priority, as %s:10 (1-99)",
				 policies[i].name, policies[i].name);
			return -1;
		}
		if (parse_long(colon + 1, "--sched priority", 1, 99, &prio,
			       err, len))
			return -1;
	} else if (colon) {
		snprintf(err, len,
			 "--sched: %s takes no priority (use --nice for fair policies)",
			 policies[i].name);
		return -1;
	}
	w->policy_set = true;
	w->policy = policies[i].policy;
	w->prio = (int)prio;
	return 0;
}

int sched_spec_parse(struct sched_spec *s, enum sched_what what,
		     const char *arg, char *err, size_t len)
{
	static const char *const opt[] = { "--sched", "--nice", "--slice" };
	const char *eq = strchr(arg, '=');
	struct sched_want w = { 0 };
	unsigned int set;
	long v;
	int r;

	if (!eq || parse_roles(arg, (size_t)(eq - arg), &set)) {
		snprintf(err, len,
			 "%s wants ROLE=VALUE with ROLE all, client, server, cli_snd, cli_rcv, srv_rcv, srv_snd or srv_loop, not '%s'",
			 opt[what], arg);
		return -1;
	}
	switch (what) {
	case SCHED_WHAT_POLICY:
		if (parse_policy(eq + 1, &w, err, len))
			return -1;
		break;
	case SCHED_WHAT_NICE:
		if (parse_long(eq + 1, "--nice", -20, 19, &v, err, len))
			return -1;
		w.nice_set = true;
		w.nice = (int)v;
		break;
	case SCHED_WHAT_SLICE:
		if (parse_long(eq + 1, "--slice (us)", SLICE_MIN_US,
			       SLICE_MAX_US, &v, err, len))
			return -1;
		w.slice_set = true;
		w.slice_ns = (uint64_t)v * 1000;
		break;
	}
	for (r = 0; r < CB_ROLE_OTHER; r++) {
		struct sched_want *t = &s->role[r];

		if (!(set & 1U << r))
			continue;
		if (w.policy_set) {
			t->policy_set = true;
			t->policy = w.policy;
			t->prio = w.prio;
		}
		if (w.nice_set) {
			t->nice_set = true;
			t->nice = w.nice;
		}
		if (w.slice_set) {
			t->slice_set = true;
			t->slice_ns = w.slice_ns;
		}
	}
	s->any = true;
	return 0;
}

bool sched_spec_has(const struct sched_spec *s, int role)
{
	const struct sched_want *w;

	if (!s->any || role < 0 || role >= CB_ROLE_OTHER)
		return false;
	w = &s->role[role];
	return w->policy_set || w->nice_set || w->slice_set;
}

/*
 * The uapi struct sched_attr (VER1, 56 bytes): <linux/sched/types.h>
 * cannot be included beside <sched.h>, and glibc 2.36 has no wrappers.
 */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static int get_attr(pid_t tid, struct sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	return (int)syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0);
}

int sched_read(pid_t tid, struct sched_got *got)
{
	struct sched_attr a;

	if (get_attr(tid, &a))
		return -1;
	got->policy = (int)a.sched_policy;
	got->prio = (int)a.sched_priority;
	got->nice = a.sched_nice;
	/* The kernel reports the slice of fair tasks in sched_runtime. */
	got->slice_ns = a.sched_runtime;
	return 0;
}

int sched_apply(const struct sched_spec *s, int role, pid_t tid,
		struct sched_got *got, char *why, size_t len)
{
	const struct sched_want *w = &s->role[role];
	struct sched_attr a;

	if (get_attr(tid, &a)) {
		snprintf(why, len, "sched_getattr: %s", strerror(errno));
		return -1;
	}
	a.size = sizeof(a);
	a.sched_flags = 0;
	if (w->policy_set) {
		a.sched_policy = (uint32_t)w->policy;
		a.sched_priority = (uint32_t)w->prio;
	}
	if (!is_rt((int)a.sched_policy))
		a.sched_priority = 0;
	if (w->nice_set)
		a.sched_nice = w->nice;
	if (w->slice_set)
		a.sched_runtime = w->slice_ns;
	else if (!is_rt((int)a.sched_policy))
		/* 0 asks for the default slice, not a custom one. */
		a.sched_runtime = 0;
	if (syscall(SYS_sched_setattr, tid, &a, 0)) {
		snprintf(why, len, "sched_setattr(%s%s): %s",
			 sched_policy_name((int)a.sched_policy),
			 errno == EPERM ? ", needs CAP_SYS_NICE" : "",
			 strerror(errno));
		return -1;
	}
	if (sched_read(tid, got)) {
		snprintf(why, len, "sched_getattr: %s", strerror(errno));
		return -1;
	}
	if ((w->policy_set && got->policy != w->policy) ||
	    (w->policy_set && is_rt(w->policy) && got->prio != w->prio) ||
	    (w->nice_set && got->nice != w->nice)) {
		snprintf(why, len, "asked %s nice %d, the kernel holds %s nice %d%s",
			 sched_policy_name(w->policy_set ? w->policy :
						got->policy),
			 w->nice_set ? w->nice : got->nice,
			 sched_policy_name(got->policy), got->nice,
			 got->policy == SCHED_IDLE && w->nice_set ?
			 " (nice means nothing under idle)" : "");
		return -1;
	}
	if (w->slice_set && got->slice_ns != w->slice_ns) {
		snprintf(why, len,
			 "the kernel ignored the slice request (%llu us asked, %llu us held): it needs EEVDF custom slices (6.12+)",
			 (unsigned long long)(w->slice_ns / 1000),
			 (unsigned long long)(got->slice_ns / 1000));
		return -1;
	}
	return 0;
}

void sched_got_format(const struct sched_got *g, char *buf, size_t len)
{
	int n;

	if (is_rt(g->policy))
		n = snprintf(buf, len, "%s:%d", sched_policy_name(g->policy),
			     g->prio);
	else
		n = snprintf(buf, len, "%s nice %d",
			     sched_policy_name(g->policy), g->nice);
	if (n > 0 && (size_t)n < len && g->slice_ns && !is_rt(g->policy))
		snprintf(buf + n, len - (size_t)n, " slice %lluus",
			 (unsigned long long)(g->slice_ns / 1000));
}
