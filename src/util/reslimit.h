/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource limits a run needs: file descriptors (one per connection) and
 * threads (two per connection on each side).  Checked before a run starts,
 * so that a run too big for the machine fails at once with the limit named
 * instead of half-way through.
 */
#ifndef CHATBENCH_RESLIMIT_H
#define CHATBENCH_RESLIMIT_H

#include <pthread.h>
#include <stddef.h>

/* Workers only hold a 100-byte buffer; small stacks let 4000 threads fit. */
#define CHAT_THREAD_STACK (64 * 1024)

/* Raise RLIMIT_NOFILE to at least need; -1 with a sentence in err. */
int limits_ensure_fds(unsigned long need, char *err, size_t len);
/* Whether need more threads fit under threads-max, pid_max and NPROC. */
int limits_check_threads(unsigned long need, char *err, size_t len);
/*
 * CHAT_THREAD_STACK, or the C library's least stack where that is more:
 * glibc's PTHREAD_STACK_MIN is 16 KiB on x86-64 but 128 KiB on arm64
 * (whose kernels may have 64 KiB pages), and it refuses any smaller.
 */
size_t limits_thread_stack(void);
/* Attributes of a worker thread (its stack); -1 with errno set. */
int limits_thread_attr(pthread_attr_t *attr);
/*
 * The sentence for a failed pthread_create of thread nth of need.  For
 * EAGAIN it names the limits that may stand in the way: RLIMIT_NPROC
 * counts every task of the real uid, which the check before the run
 * cannot see, so a run can pass that check and still fail here.
 */
void limits_thread_error(int err, unsigned long nth, unsigned long need,
			 char *buf, size_t len);

#endif
