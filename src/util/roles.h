/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The thread roles as user space sees them: the table of bpf/chatbench.h
 * (CB_ROLES) turned into names, words and colours indexed by enum cb_role,
 * so that thread names, the text, the JSON and the report cannot disagree.
 */
#ifndef CHATBENCH_ROLES_H
#define CHATBENCH_ROLES_H

#include <stdbool.h>
#include <sys/types.h>

#include "chatbench.h"

struct role_info {
	const char *name;	/* thread name and JSON key: "cli_snd" */
	const char *words;	/* "client senders" */
	const char *colour;	/* "#rrggbb" */
};

extern const struct role_info role_table[CB_NR_ROLES];

static inline const char *role_name(int role)
{
	return role_table[role].name;
}

/* The benchmark's own worker threads: every role before "other". */
static inline bool role_is_worker(int role)
{
	return role >= 0 && role < CB_ROLE_OTHER;
}

/* The role named name, or -1. */
int role_by_name(const char *name);

/*
 * The calling thread takes its role's name, for the tracer (it tells
 * roles by name) and for other tools.  Each thread names itself: that is
 * one prctl(), where naming another thread writes its
 * /proc/self/task/TID/comm (an open, a write and a close for each of a
 * run's hundreds of threads).
 */
void role_name_self(int role);

/*
 * Whether the program of process pid names its threads by our server
 * roles: its executable holds the names "srv_rcv" and "srv_snd" as
 * strings (role_table, which its threads name themselves from).  1 for
 * chatbench's chat_s, 0 for any other program (the original 1.0.1 chat_s
 * among them: its threads all carry the process's name), -1 when the
 * executable cannot be read (the process is gone, or is another user's).
 */
int roles_named_by(pid_t pid);

#endif
