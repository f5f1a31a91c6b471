/* SPDX-License-Identifier: GPL-2.0 */
/* Taking snapshots of the loaded programs' maps (tracer internal). */
#ifndef CHATBENCH_SNAPSHOT_H
#define CHATBENCH_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "chatbench.h"

struct bpf_program;
struct cg_mounts;
struct cb_stealer;
struct ks_snap;
struct ks_stealer;
struct trace_bpf;

/* Where a snapshot reads from, set once the programs are loaded. */
struct snap_src {
	struct trace_bpf *skel;		/* the loaded programs */
	void *sched_mm;			/* mmapped struct cb_sched_cpu[] */
	void *sock_mm;			/* mmapped struct cb_sock_cpu[] */
	int ncpus;
	struct bpf_program **prog;	/* whose run-time stats to read */
	int nr_progs;
	uint64_t (*progress)(void *arg);	/* messages so far, or NULL */
	void *progress_arg;
	int sndq_fd;			/* program sampling the send queues */
	bool softirq_ticks;		/* softirq from /proc, not the hooks */
	uint32_t *keys;			/* CB_MAX_STEALERS, for batch reads */
	struct cb_stealer *vals;
	pid_t pid[CB_NR_SIDES];		/* chat_c, chat_s (0: unknown) */
	int open_link_fd;		/* the open-spans iterator, -1: none */
	const struct cg_mounts *cg;
};

/*
 * The snapshot after prev (NULL: the first of a run, where the running
 * totals start).  With progs, the programs' run-time statistics too (a
 * syscall each: only at the edges of a run, which is all the record
 * needs).
 */
void snap_take(const struct snap_src *src, struct ks_snap *s,
	       const struct ks_snap *prev, bool progs);
/* Maxima cannot be differenced: zero them as the run starts. */
void snap_reset_maxima(const struct snap_src *src);
void snap_copy(struct ks_snap *dst, const struct ks_snap *src);
/* An outsider's current name, which it may have set after it was seen. */
void snap_refresh_comm(struct ks_stealer *s);

#endif
