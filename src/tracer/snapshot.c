// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots of the tracer's maps.  The per-CPU counters are mmapped
 * arrays, so a snapshot of them is a memcpy and no syscall; the outsiders
 * hash and the programs' run-time statistics need one syscall per entry,
 * which is why they are few.  A run's kernel record is the difference of
 * two snapshots (src/tracer/kstats.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chatbench.h"
#include "tracer/cgroup.h"
#include "tracer/kstats.h"
#include "tracer/snapshot.h"
#include "util/timeutil.h"
#include "trace.skel.h"
#include "util/procfs.h"

/*
 * The outsiders hash in one batch: a syscall per key (get-next-key, then
 * lookup) was up to 2048 syscalls per interval on a busy machine.
 */
static void snap_stealers(const struct snap_src *src, struct ks_snap *s)
{
	int fd = bpf_map__fd(src->skel->maps.stealers);
	__u32 batch, count, i;
	void *in = NULL;
	int err;

	s->nr_stealers = 0;
	do {
		count = CB_MAX_STEALERS - s->nr_stealers;
		if (!count)
			break;
		err = bpf_map_lookup_batch(fd, in, &batch,
					   src->keys + s->nr_stealers,
					   src->vals + s->nr_stealers, &count,
					   NULL);
		if (err && errno != ENOENT)
			break;
		s->nr_stealers += count;
		in = &batch;
	} while (!err);
	for (i = 0; i < s->nr_stealers; i++) {
		s->stealers[i].pid = src->keys[i];
		s->stealers[i].v = src->vals[i];
	}
}

static void snap_progs(const struct snap_src *src, struct ks_snap *s)
{
	int i;

	s->nr_progs = src->nr_progs;
	for (i = 0; i < src->nr_progs; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		snprintf(s->prog[i].name, sizeof(s->prog[i].name), "%s",
			 bpf_program__name(src->prog[i]));
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(src->prog[i]), &info,
					   &len))
			continue;
		s->prog[i].run_time_ns = info.run_time_ns;
		s->prog[i].run_cnt = info.run_cnt;
		s->recursion_misses[i] = info.recursion_misses;
	}
}

/* The processes' stops (from the BPF side) and CPU controllers. */
static void snap_procs(const struct snap_src *src, struct ks_snap *s,
		       const struct ks_snap *prev)
{
	const struct cb_stop_signal *ss = src->skel->bss->stop_signal;
	int i;

	for (i = 0; i < CB_NR_SIDES; i++) {
		struct ks_proc_snap *p = &s->proc[i];

		s->tracer[i] = src->skel->bss->tracer[i];
		s->pid[i] = src->pid[i];
		p->stop = ss[i];
		p->acc_stopped_ns = p->stop.stopped_ns;
		if (p->stop.stopped_since && s->t_ns > p->stop.stopped_since)
			p->acc_stopped_ns += s->t_ns - p->stop.stopped_since;
		cg_read(src->cg, src->pid[i], prev ? &prev->proc[i] : NULL, p);
		p->majflt = proc_majflt(src->pid[i]);
	}
	sys_read(&s->sys);
}

/*
 * The open spans of the benchmark's threads, from the iterator: it sums
 * them into the BPF side's open_acc while we read it to its end.
 */
static void snap_open(const struct snap_src *src, struct ks_snap *s)
{
	struct cb_open *acc = &src->skel->bss->open_acc;
	char buf[64];
	int fd;

	s->open_valid = false;
	if (src->open_link_fd < 0)
		return;
	/* The iterator's sums only: the learned counts are running totals. */
	memset(acc, 0, offsetof(struct cb_open, learned));
	fd = bpf_iter_create(src->open_link_fd);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	s->open = *acc;
	s->open_valid = true;
}

/*
 * What each CPU is doing right now has not been counted yet: the current
 * task's slice so far goes to its line (idle, a role's on-CPU time, an
 * outsider's class), and the waits queued behind it to it as holder.
 * An offline CPU does nothing: its clocks are moved on instead, so that
 * its first switch back online does not count the time it was away.
 */
static void snap_cpu_open(const struct snap_src *src, struct ks_snap *s)
{
	struct cb_cpu_state *cs = src->skel->bss->cpu_state;
	int c, r;

	for (c = 0; c < src->ncpus; c++) {
		struct cb_sched_cpu *st = &s->sched[c];
		uint64_t start = cs[c].curr_start, last = cs[c].wait_last;
		uint32_t h = cs[c].curr_holder;
		uint64_t d;

		if (!s->cpustat[c].online) {
			cs[c].curr_start = s->t_ns;
			cs[c].wait_last = s->t_ns;
			continue;
		}
		if (!start || s->t_ns <= start)
			continue;
		d = s->t_ns - start;
		if (cs[c].curr_pid == 0)
			st->idle_ns += d;
		else if (h < CB_NR_ROLES)
			st->role[h].oncpu_ns += d;
		else if (h > CB_HOLD_IDLE && h < CB_HOLD_THROTTLED)
			st->class_ns[h - CB_HOLD_CLASS(0)] += d;
		if (h >= CB_NR_HOLDERS)
			continue;
		for (r = 0; r < CB_NR_SUBJECT_ROLES; r++) {
			uint64_t a = cs[c].wait_acc[r];
			int32_t n = cs[c].nr_wait_role[r];

			if (n > 0 && last && s->t_ns > last)
				a += (uint64_t)n * (s->t_ns - last);
			st->role[r].wait_by[h] += a;
		}
	}
}

void snap_take(const struct snap_src *src, struct ks_snap *s,
	       const struct ks_snap *prev, bool progs)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	int c;

	s->messages = src->progress ? src->progress(src->progress_arg) : 0;
	/* The send queues are sampled now, into the counters copied below. */
	if (src->sndq_fd >= 0)
		bpf_prog_test_run_opts(src->sndq_fd, &run);
	/* Unreadable: every CPU taken as online, none as interrupted. */
	if (sys_read_cpustat(s->cpustat, src->ncpus))
		for (c = 0; c < src->ncpus; c++)
			s->cpustat[c].online = true;
	snap_open(src, s);
	s->t_ns = now_ns();
	memcpy(s->sched, src->sched_mm, sizeof(*s->sched) * src->ncpus);
	memcpy(s->sock, src->sock_mm, sizeof(*s->sock) * src->ncpus);
	snap_cpu_open(src, s);
	s->softirq_ticks = src->softirq_ticks;
	if (s->softirq_ticks)
		sys_read_softirqs(s->softirq, src->ncpus);
	snap_stealers(src, s);
	snap_procs(src, s, prev);
	if (progs)
		snap_progs(src, s);
}

/* Maxima cannot be differenced: zero them as the run starts. */
void snap_reset_maxima(const struct snap_src *src)
{
	struct cb_sched_cpu *sc = src->sched_mm;
	struct cb_sock_cpu *so = src->sock_mm;
	int c, r;

	for (c = 0; c < src->ncpus; c++) {
		for (r = 0; r < CB_NR_ROLES; r++)
			sc[c].role[r].rq_lat_max_ns = 0;
		for (r = 0; r < CB_NR_SIDES; r++) {
			so[c].side[r].rq_bytes_max = 0;
			so[c].side[r].rcvbuf_max = 0;
			so[c].side[r].wmem_max = 0;
			so[c].side[r].sndbuf_max = 0;
		}
	}
}

void snap_copy(struct ks_snap *dst, const struct ks_snap *src)
{
	int n = src->ncpus;

	dst->t_ns = src->t_ns;
	dst->messages = src->messages;
	memcpy(dst->sched, src->sched, sizeof(*dst->sched) * n);
	memcpy(dst->sock, src->sock, sizeof(*dst->sock) * n);
	memcpy(dst->stealers, src->stealers,
	       sizeof(*dst->stealers) * src->nr_stealers);
	dst->nr_stealers = src->nr_stealers;
	memcpy(dst->prog, src->prog, sizeof(dst->prog));
	memcpy(dst->recursion_misses, src->recursion_misses,
	       sizeof(dst->recursion_misses));
	dst->nr_progs = src->nr_progs;
	memcpy(dst->pid, src->pid, sizeof(dst->pid));
	memcpy(dst->proc, src->proc, sizeof(dst->proc));
	dst->sys = src->sys;
	dst->softirq_ticks = src->softirq_ticks;
	memcpy(dst->softirq, src->softirq, sizeof(*dst->softirq) * n);
	dst->open_valid = src->open_valid;
	dst->open = src->open;
	memcpy(dst->tracer, src->tracer, sizeof(dst->tracer));
	memcpy(dst->cpustat, src->cpustat, sizeof(*dst->cpustat) * n);
}

/*
 * The kernel recorded an outsider's comm when it first took a CPU, which
 * for a process that names itself later (prctl, pthread_setname_np) is
 * its old name.  At the end of the run the process usually still exists:
 * its current name is the one a user will recognise.
 */
void snap_refresh_comm(struct ks_stealer *s)
{
	char name[32];

	if (s->is_benchmark || proc_read(s->pid, "comm", name, sizeof(name)) < 0)
		return;
	name[strcspn(name, "\n")] = '\0';
	if (*name)
		snprintf(s->comm, sizeof(s->comm), "%.15s", name);
}
