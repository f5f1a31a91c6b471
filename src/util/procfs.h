/* SPDX-License-Identifier: GPL-2.0 */
/* Small files of /proc/PID/ read whole, the one way every reader needs. */
#ifndef CHATBENCH_PROCFS_H
#define CHATBENCH_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * /proc/pid/name into buf (len bytes), NUL-terminated: the bytes read,
 * or -1 when the process or the file is gone.  Longer files are cut at
 * len - 1 bytes.
 */
ssize_t proc_read(pid_t pid, const char *name, char *buf, size_t len);

#endif
