/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer's libbpf lifecycle.  trace_open() loads the scheduler and
 * socket programs once (tp_btf when the kernel accepts it, raw_tp
 * otherwise) and attaches them; from then on the kernel aggregates into
 * mmapped per-CPU arrays and this file only copies them out: at run begin,
 * every interval from a sampler thread, and at run end.  Nothing is
 * pinned, so closing the links (or exiting) detaches everything.
 */
#include <errno.h>
#include <pthread.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chatbench.h"
#include "tracer/cgroup.h"
#include "tracer/kstats.h"
#include "tracer/profile.h"
#include "tracer/snapshot.h"
#include "tracer/trace.h"
#include "util/roles.h"
#include "util/rtraise.h"
#include "util/timeutil.h"
#include "trace.skel.h"
#include "util/fmt.h"

/*
 * Every program is attached once, before the first run's clock starts,
 * and stays attached until the tracer closes: attaching and detaching
 * while a run is timed costs more than it saves (the per-message
 * programs were once attached for a tenth of each interval, and the
 * attach and detach calls, ten a second, cost more than running them all
 * the time).  What makes tracing cheap is fewer events on the message
 * path: the send queues are sampled at each snapshot by a syscall
 * program instead of a hook on every send, and softirq time comes from
 * the kernel's own accounting (/proc/stat, /proc/softirqs) unless the
 * softirq group is asked for: its entry/exit pair fires about once per
 * loopback send and was half of the programs' time.  The one exception,
 * a foreign server's learners, is attached between runs and detached
 * once per run as soon as the run's workers are classed (learn_attach).
 *
 * sk_data_ready, which fires for every packet delivered, may record one
 * event in 2^N (CHATBENCH_SOCK_SAMPLE_SHIFT, 0 by default: its cost is
 * almost all dispatch, 45-65 ns per event, sampled or not).
 *
 * Knobs for measurements: CHATBENCH_BPF_RAW_TP forces the raw_tp
 * programs; CHATBENCH_BPF_NOSTATS leaves kernel program timing off (it
 * costs two clock reads per program run; bpf_cost is then zero);
 * CHATBENCH_TRACE_PROGS names the program groups to attach ("all" for
 * every one, softirq included).
 */
#define DEFAULT_SOCK_SAMPLE_SHIFT	0

struct trace {
	struct trace_opts opts;
	struct snap_src src;		/* what snapshots read */
	struct cg_mounts cg;
	struct trace_bpf *bpf;		/* sched.bpf.c and sock.bpf.c, linked */
	const char *mode;
	int ncpus;
	void *sched_mm, *sock_mm;
	size_t sched_mm_len, sock_mm_len;
	int stats_fd;
	unsigned int sample_shift;
	struct bpf_program *prog[KS_MAX_PROGS];
	int nr_progs;

	struct ks_snap begin, prev, cur, end;
	bool running;
	bool attached;

	pthread_t sampler;
	bool sampler_on;
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ks_interval *iv;
	size_t nr_iv, cap_iv;

	struct profiler *prof;		/* --profile, --timeline */
	bool foreign;			/* its threads classed by behaviour */
	/* A foreign server's learners (sock.bpf.c), attached by hand. */
	struct bpf_program *learn_prog[2];
	struct bpf_link *learn_link[2];
	int64_t learn_base;		/* threads learned before this run */
	unsigned int learn_ticks;	/* intervals of this run learning */

	bool stats_wanted;
	bool stats_all_run;		/* CHATBENCH_BPF_STATS=all */
	/* The run's controlling thread, raised between begin and end. */
	struct rt_raised raised;
	uint64_t timed_ns;		/* this run's timing window */
};


static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int debug_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

/* CAP_BPF and CAP_PERFMON (5.8+) or CAP_SYS_ADMIN in the effective set. */
static bool have_bpf_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	uint64_t eff;

	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	eff = data[0].effective | (uint64_t)data[1].effective << 32;
	if (eff & (1ULL << CAP_SYS_ADMIN))
		return true;
	return (eff & (1ULL << 39)) && (eff & (1ULL << 38));
}

/*
 * Load only the tracepoint programs of one flavour, "btf_" or "raw_";
 * programs of neither (the syscall program user space runs) always.
 */
static void pick_flavour(struct bpf_object *obj, const char *prefix)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *name = bpf_program__name(p);

		if (!strncmp(name, "btf_", 4) || !strncmp(name, "raw_", 4))
			bpf_program__set_autoload(p, !strncmp(name, prefix, 4));
	}
}

static void set_reason(volatile __u8 *tab, long nr, enum cb_block why)
{
	if (nr >= 0 && nr < CB_NR_SYSCALLS)
		tab[nr] = (__u8)(why + 1);
}

/*
 * The blocking system calls the budget tells apart, by this
 * architecture's numbers (some calls exist on one architecture only).
 * read and write count as socket calls: the benchmark's only files that
 * block are its sockets.
 */
static void set_sys_reasons(volatile __u8 *tab)
{
	static const struct {
		long nr;
		enum cb_block why;
	} calls[] = {
		{ SYS_read, CB_BLOCK_SOCK_RECV },
		{ SYS_readv, CB_BLOCK_SOCK_RECV },
		{ SYS_recvfrom, CB_BLOCK_SOCK_RECV },
		{ SYS_recvmsg, CB_BLOCK_SOCK_RECV },
		{ SYS_recvmmsg, CB_BLOCK_SOCK_RECV },
		{ SYS_write, CB_BLOCK_SOCK_SEND },
		{ SYS_writev, CB_BLOCK_SOCK_SEND },
		{ SYS_sendto, CB_BLOCK_SOCK_SEND },
		{ SYS_sendmsg, CB_BLOCK_SOCK_SEND },
		{ SYS_sendmmsg, CB_BLOCK_SOCK_SEND },
		{ SYS_epoll_pwait, CB_BLOCK_POLL },
		{ SYS_ppoll, CB_BLOCK_POLL },
		{ SYS_pselect6, CB_BLOCK_POLL },
#ifdef SYS_epoll_wait
		{ SYS_epoll_wait, CB_BLOCK_POLL },
#endif
#ifdef SYS_epoll_pwait2
		{ SYS_epoll_pwait2, CB_BLOCK_POLL },
#endif
#ifdef SYS_poll
		{ SYS_poll, CB_BLOCK_POLL },
#endif
#ifdef SYS_select
		{ SYS_select, CB_BLOCK_POLL },
#endif
		{ SYS_futex, CB_BLOCK_LOCK },
		{ SYS_semop, CB_BLOCK_LOCK },
		{ SYS_semtimedop, CB_BLOCK_LOCK },
#ifdef SYS_futex_waitv
		{ SYS_futex_waitv, CB_BLOCK_LOCK },
#endif
		{ SYS_nanosleep, CB_BLOCK_SLEEP },
		{ SYS_clock_nanosleep, CB_BLOCK_SLEEP },
	};
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		set_reason(tab, calls[i].nr, calls[i].why);
}

/*
 * libbpf reads the kernel's BTF (5.5 MB here) into fresh memory and
 * parses it into more: on these VMs every first touch of a page is an
 * exit to the hypervisor, and the 3000 or so faults were 45-60 ms of a
 * traced run's start-up, half of it.  So the heap is grown first by one
 * block in huge pages, populated in one call, and handed back to malloc,
 * which serves libbpf's buffers from it: the same parse took 5-12 ms.
 * After the load, malloc_trim() gives the block back.  Where the kernel
 * has no transparent huge pages or MADV_POPULATE_WRITE (5.14), the
 * madvise calls fail and nothing changes.
 */
#define PREFAULT_BYTES	(32UL << 20)
#define HUGE_PAGE	(2UL << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

static void prefault_heap(void)
{
	uintptr_t a;
	char *p;

	/* Blocks this large come from the heap, which keeps them. */
	mallopt(M_MMAP_THRESHOLD, (int)(PREFAULT_BYTES * 2));
	mallopt(M_TRIM_THRESHOLD, (int)(PREFAULT_BYTES * 4));
	p = malloc(PREFAULT_BYTES);
	if (!p)
		return;
	a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	madvise((void *)a, PREFAULT_BYTES - 2 * HUGE_PAGE, MADV_HUGEPAGE);
	madvise((void *)a, PREFAULT_BYTES - 2 * HUGE_PAGE,
		MADV_POPULATE_WRITE);
	free(p);
}

/* Back to malloc's defaults once libbpf's work is done. */
static void release_heap(void)
{
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	mallopt(M_TRIM_THRESHOLD, 128 * 1024);
	malloc_trim(0);
}

/*
 * The scheduler and socket programs are one object (the Makefile links
 * them with bpftool gen object): libbpf reads and parses the kernel's
 * BTF once per object it loads, which was half of a traced run's
 * start-up when they were two.
 */
/*
 * The send-queue sampler's socket map is an LRU hash, which the kernel
 * fills with all its elements when it creates it: at 65536 that was
 * 6-10 ms of start-up.  Sized to the series' sockets, with room to
 * spare for the sockets of past runs the LRU has not yet evicted.
 */
static unsigned int socks_size(unsigned int want)
{
	unsigned int n = want ? 2 * want : CB_MAX_SOCKS;

	if (n < 4096)
		n = 4096;
	return n < CB_MAX_SOCKS ? n : CB_MAX_SOCKS;
}

/*
 * A server that does not name its threads by role (the original 1.0.1)
 * has them classed by what they do with the benchmark's sockets
 * (sock.bpf.c): programs on every send and receive of the machine, so
 * loaded only for such a server and only where the kernel has those
 * tracepoints (6.4+; elsewhere its threads stay "other").  Against our
 * own server they are not loaded and their map has one element.
 */
static bool foreign_server(const struct trace_opts *o)
{
	if (o->server_tgid <= 0 || roles_named_by(o->server_tgid) != 0)
		return false;
	return libbpf_find_vmlinux_btf_id("sock_recv_length",
					  BPF_TRACE_RAW_TP) > 0 &&
	       libbpf_find_vmlinux_btf_id("sock_send_length",
					  BPF_TRACE_RAW_TP) > 0;
}

/*
 * The program groups CHATBENCH_TRACE_PROGS names (sched, softirq, signal,
 * sockmsg, sockrare, or all; unset: all but softirq): a knob for
 * measuring what each group costs, one at a time, and for exact softirq
 * time split by vector.  A program left out is not loaded (the verifier's
 * time is most of a traced run's start-up); its figures stay zero.
 */
static const struct {
	const char *group;
	const char *prog;	/* name without its "btf_"/"raw_" prefix */
} prog_groups[] = {
	{ "sched", "sched_switch" }, { "sched", "sched_waking" },
	{ "sched", "sched_wakeup" }, { "sched", "sched_wakeup_new" },
	{ "sched", "sched_migrate_task" },
	{ "softirq", "softirq_entry" }, { "softirq", "softirq_exit" },
	{ "sockmsg", "sk_data_ready" },
	{ "signal", "signal_generate" },
	{ "sockrare", "sock_exceed_buf_limit" },
	{ "sockrare", "sock_rcvqueue_full" },
};

static bool prog_wanted(const char *prog_name)
{
	const char *want = getenv("CHATBENCH_TRACE_PROGS"), *g, *p;
	size_t i, n;

	if (!want || !*want)
		want = "sched,signal,sockmsg,sockrare";
	if (!strcmp(want, "all") || strlen(prog_name) < 4)
		return true;
	for (i = 0; i < sizeof(prog_groups) / sizeof(prog_groups[0]); i++) {
		if (strcmp(prog_name + 4, prog_groups[i].prog))
			continue;
		g = prog_groups[i].group;
		n = strlen(g);
		for (p = strstr(want, g); p; p = strstr(p + 1, g))
			if ((p == want || p[-1] == ',') &&
			    (p[n] == ',' || !p[n]))
				return true;
		return false;
	}
	return true;
}

static void pick_wanted(struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj)
		if (!prog_wanted(bpf_program__name(p)))
			bpf_program__set_autoload(p, false);
}

/*
 * The learners are loaded only for a foreign server, and attached by
 * hand (learn_attach), not with the others: see learn_detach.
 */
static int pick_foreign(struct trace *t)
{
	struct bpf_program *p;
	int n = 0;

	/* Not a failed tp_btf object's, when raw_tp is the second try. */
	t->learn_prog[0] = t->learn_prog[1] = NULL;
	bpf_object__for_each_program(p, t->bpf->obj) {
		const char *name = bpf_program__name(p);

		if (strlen(name) <= 4 ||
		    (strcmp(name + 4, "sock_recv_length") &&
		     strcmp(name + 4, "sock_send_length")))
			continue;
		if (!t->foreign) {
			bpf_program__set_autoload(p, false);
			continue;
		}
		bpf_program__set_autoattach(p, false);
		/* One flavour is loaded: its pair is the one kept. */
		if (bpf_program__autoload(p) && n < 2)
			t->learn_prog[n++] = p;
	}
	t->bpf->rodata->server_foreign = t->foreign;
	return bpf_map__set_max_entries(t->bpf->maps.foreign_roles,
					t->foreign ? CB_MAX_FOREIGN_THREADS : 1);
}

static int open_bpf(struct trace *t, const char *prefix)
{
	int err;

	t->bpf = trace_bpf__open();
	if (!t->bpf)
		return -errno;
	pick_flavour(t->bpf->obj, prefix);
	pick_wanted(t->bpf->obj);
	err = pick_foreign(t);
	if (err)
		goto out;
	set_sys_reasons(t->bpf->rodata->sys_reason);
	t->bpf->rodata->sample_shift = t->sample_shift;
	err = bpf_map__set_max_entries(t->bpf->maps.sched_stats, t->ncpus);
	if (!err)
		err = bpf_map__set_max_entries(t->bpf->maps.socks,
					       socks_size(t->opts.max_sockets));
	if (!err)
		err = bpf_map__set_max_entries(t->bpf->maps.sock_stats,
					       t->ncpus);
	if (!err)
		err = trace_bpf__load(t->bpf);
out:
	if (err) {
		trace_bpf__destroy(t->bpf);
		t->bpf = NULL;
	}
	return err;
}

static void *map_mmap(struct bpf_map *m, size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)bpf_map__value_size(m) * bpf_map__max_entries(m);
	void *p;

	sz = (sz + page - 1) / page * page;
	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(m), 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = sz;
	return p;
}

static void collect_progs(struct trace *t, struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		if (!bpf_program__autoload(p) || t->nr_progs >= KS_MAX_PROGS)
			continue;
		t->prog[t->nr_progs++] = p;
	}
}

int trace_possible(char *err, size_t errlen)
{
	if (!have_bpf_caps()) {
		fmt_err(err, errlen, "tracing needs root or CAP_BPF and "
			"CAP_PERFMON");
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fmt_err(err, errlen, "the kernel has no BTF "
			"(/sys/kernel/btf/vmlinux: %s)", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A foreign server's learners run on every send and receive of the
 * machine, the client's and every other program's included (115-225 ns
 * each here, about two per message: over the tracing budget at the
 * original's 480k msg/s).  A thread needs learning once, and the
 * original makes new workers for each run: so they are attached from the
 * end of the previous run (or the tracer's start) until the run's
 * workers are classed: the expected number of them (two per connection,
 * as many as the sockets of both ends: max_sockets, the series' largest
 * run), or none of the server's tasks left unclassed but its main one at
 * an interval's snapshot (the open-spans iterator counts them), or
 * LEARN_MAX_TICKS intervals, whichever comes first.  Not simply the first
 * interval: the stand-in server of the tests (Python threads) had 14 of
 * its 20 senders send after its first 100 ms, and on a busy machine its
 * worker processes were learned over 200 ms and more.  The first two
 * checks are exact for the original, whose every task but the main one
 * is a worker; the last bounds the cost for a server with other tasks.
 * Attached at the previous run's end, not at this one's begin, so that
 * the attach is outside the timed window; between runs nothing sends
 * data, so nothing is learned then.  One detach per run, from the
 * sampler, is not the per-interval churn the note at the top warns of.
 * Without intervals (--interval 0) they stay attached through the run.
 */
static void learn_attach(struct trace *t)
{
	int i;

	for (i = 0; i < 2; i++)
		if (t->learn_prog[i] && !t->learn_link[i])
			t->learn_link[i] = bpf_program__attach(t->learn_prog[i]);
	for (i = 0; i < 2; i++)
		if (libbpf_get_error(t->learn_link[i]))
			t->learn_link[i] = NULL;
}

static void learn_detach(struct trace *t)
{
	int i;

	for (i = 0; i < 2; i++) {
		bpf_link__destroy(t->learn_link[i]);
		t->learn_link[i] = NULL;
	}
}

/* Threads learned so far, net: the running totals of sock.bpf.c. */
static int64_t learned_now(const struct trace *t)
{
	const volatile struct cb_open *o = &t->bpf->bss->open_acc;

	return o->learned[CB_ROLE_SRV_RCV] + o->learned[CB_ROLE_SRV_SND];
}

static bool learning(const struct trace *t)
{
	return t->learn_link[0] || t->learn_link[1];
}

/* The run's workers all classed: no need to watch its sends any more. */
static bool learned_all(const struct trace *t)
{
	return t->opts.max_sockets &&
	       learned_now(t) - t->learn_base >= t->opts.max_sockets;
}

#define LEARN_MAX_TICKS	10

/* At an interval's end, with its snapshot s. */
static bool learned_enough(struct trace *t, const struct ks_snap *s)
{
	if (learned_all(t) || ++t->learn_ticks >= LEARN_MAX_TICKS)
		return true;
	return s->open_valid && !s->open.foreign_unlearned &&
	       learned_now(t) > t->learn_base;
}

/* The iterator of open spans exists only while the programs are attached. */
static void set_open_link(struct trace *t)
{
	t->src.open_link_fd = t->bpf->links.open_spans ?
			      bpf_link__fd(t->bpf->links.open_spans) : -1;
}

int trace_attach(struct trace *t, char *err, size_t errlen)
{
	int rc;

	if (t->attached)
		return 0;
	rc = trace_bpf__attach(t->bpf);
	if (rc) {
		fmt_err(err, errlen, "cannot attach the BPF programs: %s",
			strerror(-rc));
		return -1;
	}
	t->attached = true;
	learn_attach(t);
	if (t->src.skel)
		set_open_link(t);
	return 0;
}

void trace_detach(struct trace *t)
{
	if (!t || !t->attached || !t->opts.on_demand || t->running)
		return;
	learn_detach(t);
	trace_bpf__detach(t->bpf);
	t->attached = false;
	t->src.open_link_fd = -1;
}

struct trace *trace_open(const struct trace_opts *opts, char *err,
			 size_t errlen)
{
	const char *env;
	struct trace *t;
	int rc, i;

	libbpf_set_print(getenv("CHATBENCH_BPF_DEBUG") ? debug_print :
							  silent_print);
	if (trace_possible(err, errlen))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		fmt_err(err, errlen, "out of memory");
		return NULL;
	}
	t->opts = *opts;
	t->stats_fd = -1;
	pthread_mutex_init(&t->lock, NULL);
	t->ncpus = libbpf_num_possible_cpus();
	if (t->ncpus <= 0 || t->ncpus > CB_MAX_CPUS) {
		fmt_err(err, errlen, "unsupported number of possible CPUs (%d)",
			t->ncpus);
		goto fail;
	}
	t->sample_shift = DEFAULT_SOCK_SAMPLE_SHIFT;
	env = getenv("CHATBENCH_SOCK_SAMPLE_SHIFT");
	if (env && *env)
		t->sample_shift = (unsigned int)atoi(env) & 15;

	t->foreign = foreign_server(opts);
	prefault_heap();
	/* tp_btf when the kernel takes it: direct loads, no probe reads. */
	t->mode = "tp_btf";
	rc = -ENOTSUP;
	if (!getenv("CHATBENCH_BPF_RAW_TP"))
		rc = open_bpf(t, "btf_");
	if (rc) {
		t->mode = "raw_tp";
		rc = open_bpf(t, "raw_");
	}
	release_heap();
	if (rc) {
		fmt_err(err, errlen, "cannot load the BPF programs: %s",
			strerror(-rc));
		goto fail;
	}
	t->bpf->bss->client_tgid = opts->client_tgid;
	t->bpf->bss->server_tgid = opts->server_tgid;
	t->bpf->bss->server_port = opts->server_port;

	t->sched_mm = map_mmap(t->bpf->maps.sched_stats, &t->sched_mm_len);
	t->sock_mm = map_mmap(t->bpf->maps.sock_stats, &t->sock_mm_len);
	if (!t->sched_mm || !t->sock_mm) {
		fmt_err(err, errlen, "cannot mmap the BPF counters: %s",
			strerror(errno));
		goto fail;
	}
	if (!opts->on_demand && trace_attach(t, err, errlen))
		goto fail;
	collect_progs(t, t->bpf->obj);
	t->src = (struct snap_src){
		.skel = t->bpf,
		.sched_mm = t->sched_mm,
		.sock_mm = t->sock_mm,
		.ncpus = t->ncpus,
		.prog = t->prog,
		.nr_progs = t->nr_progs,
		.progress = opts->progress,
		.progress_arg = opts->progress_arg,
		.sndq_fd = bpf_program__fd(t->bpf->progs.sample_send_queues),
		.keys = calloc(CB_MAX_STEALERS, sizeof(*t->src.keys)),
		.vals = calloc(CB_MAX_STEALERS, sizeof(*t->src.vals)),
		.pid = { opts->client_tgid, opts->server_tgid },
		.cg = &t->cg,
		.open_link_fd = -1,
		.softirq_ticks = !prog_wanted("btf_softirq_entry"),
	};
	set_open_link(t);
	cg_mounts_find(&t->cg);
	if (!t->src.keys || !t->src.vals) {
		fmt_err(err, errlen, "out of memory");
		goto fail;
	}
	/* The kernel times programs only while an enable fd is open. */
	t->stats_wanted = !getenv("CHATBENCH_BPF_NOSTATS");
	env = getenv("CHATBENCH_BPF_STATS");
	t->stats_all_run = env && !strcmp(env, "all");

	if (ks_snap_alloc(&t->begin, t->ncpus) ||
	    ks_snap_alloc(&t->prev, t->ncpus) ||
	    ks_snap_alloc(&t->cur, t->ncpus) ||
	    ks_snap_alloc(&t->end, t->ncpus)) {
		fmt_err(err, errlen, "out of memory");
		goto fail;
	}
	if (opts->profile_hz || opts->timeline) {
		struct profiler_opts po = {
			.hz = opts->profile_hz,
			.offcpu = true,
			.timeline = opts->timeline,
			.client_tgid = opts->client_tgid,
			.server_tgid = opts->server_tgid,
			.server_foreign = t->foreign,
			.raw_tp = !strcmp(t->mode, "raw_tp"),
		};

		t->prof = profiler_open(&po, err, errlen);
		if (!t->prof)
			goto fail;
	}
	for (i = 0; i < t->nr_progs; i++)
		snprintf(t->begin.prog[i].name, sizeof(t->begin.prog[i].name),
			 "%s", bpf_program__name(t->prog[i]));
	return t;
fail:
	trace_close(t);
	return NULL;
}

static void add_interval(struct trace *t, const struct ks_snap *a,
			 const struct ks_snap *b)
{
	struct ks_interval *iv;

	if (b->t_ns <= a->t_ns)
		return;
	if (t->nr_iv == t->cap_iv) {
		size_t cap = t->cap_iv ? t->cap_iv * 2 : 64;

		iv = realloc(t->iv, cap * sizeof(*iv));
		if (!iv)
			return;
		t->iv = iv;
		t->cap_iv = cap;
	}
	iv = &t->iv[t->nr_iv++];
	ks_interval_from_snaps(iv, a, b, t->begin.t_ns);
}

/*
 * The kernel times the programs only while a stats fd is open, and that
 * timing costs about as much as running them (two clock reads a run):
 * it is on for a run's first interval only, and the run's cost is each
 * program's runs (counted by the programs) times its mean run time then.
 */
static void stats_on(struct trace *t)
{
	t->timed_ns = 0;
	if (t->stats_wanted && t->stats_fd < 0)
		t->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
}

static void stats_off(struct trace *t, uint64_t now)
{
	if (t->stats_fd < 0 || t->stats_all_run)
		return;
	close(t->stats_fd);
	t->stats_fd = -1;
	t->timed_ns = now - t->begin.t_ns;
}

/* Runs timed for timed_ns only: the rest of the run's cost, estimated. */
static void estimate_cost(struct trace *t, struct kstats *k)
{
	int i;

	k->bpf_timed_ns = t->timed_ns;
	if (!t->timed_ns)
		return;
	k->bpf_run_time_ns = k->bpf_run_cnt = 0;
	for (i = 0; i < k->nr_progs; i++) {
		struct ks_prog *p = &k->prog[i];

		p->run_time_ns = p->run_cnt ? (uint64_t)((double)p->hits *
				 (double)p->run_time_ns / (double)p->run_cnt) :
				 0;
		p->run_cnt = p->hits;
		k->bpf_run_time_ns += p->run_time_ns;
		k->bpf_run_cnt += p->run_cnt;
	}
	if (k->wall_ns && k->ncpus)
		k->bpf_cpu_share = (double)k->bpf_run_time_ns /
				   ((double)k->wall_ns * k->ncpus);
}

/*
 * While the learners are attached and the number of threads to learn is
 * known, the sampler also wakes this often to see whether they are all
 * classed: a read of the mmapped counters, microseconds at its priority.
 * At the original's rate the learners would cost ~15 ms of CPU per 100 ms
 * (480k msg/s, two runs of ~150 ns per message).
 */
#define LEARN_POLL_NS	5000000ULL

static void *sampler_main(void *arg)
{
	struct trace *t = arg;
	uint64_t period = (uint64_t)t->opts.interval_ms * 1000000ULL;
	uint64_t next = t->begin.t_ns + period, wake;
	struct ks_snap tmp;

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		struct timespec ts;

		wake = next;
		if (learning(t) && t->opts.max_sockets &&
		    now_ns() + LEARN_POLL_NS < wake)
			wake = now_ns() + LEARN_POLL_NS;
		ts.tv_sec = wake / 1000000000ULL;
		ts.tv_nsec = wake % 1000000000ULL;
		if (pthread_cond_timedwait(&t->cond, &t->lock, &ts) !=
		    ETIMEDOUT)
			continue;
		pthread_mutex_unlock(&t->lock);
		if (wake < next) {
			if (learned_all(t))
				learn_detach(t);
			pthread_mutex_lock(&t->lock);
			continue;
		}
		snap_take(&t->src, &t->cur, &t->prev, false);
		if (learning(t) && learned_enough(t, &t->cur))
			learn_detach(t);
		add_interval(t, &t->prev, &t->cur);
		stats_off(t, t->cur.t_ns);
		tmp = t->prev;
		t->prev = t->cur;
		t->cur = tmp;
		next += period;
		if (next < t->prev.t_ns)
			next = t->prev.t_ns + period;
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/*
 * The thread that takes a run's edge snapshots waits in a join until the
 * last worker ends, and beside a CPU thief at nice -20 a normal thread
 * woke up to a second late: the end snapshot, and with it the record's
 * window, ran that long past the run (9.0 s of record for an 8.1 s run),
 * and the time budget counted the thief's second as the run's.  Between
 * the edges it sleeps, so real-time priority costs nothing until it
 * wakes, and then it runs at once.  Best effort, undone at the end.
 */
static void raise_caller(struct trace *t)
{
	rt_raise_self(&t->raised);
}

/* chat_s may end a run on another thread than the one that began. */
static void lower_caller(struct trace *t)
{
	rt_lower(&t->raised);
}

int trace_run_begin(struct trace *t)
{
	pthread_condattr_t ca;

	if (!t || t->running || !t->attached)
		return -1;
	t->nr_iv = 0;
	stats_on(t);
	raise_caller(t);
	if (t->foreign) {
		t->learn_base = learned_now(t);
		t->learn_ticks = 0;
	}
	snap_take(&t->src, &t->begin, NULL, true);
	snap_reset_maxima(&t->src);
	profiler_begin(t->prof);
	t->running = true;
	if (!t->opts.interval_ms)
		return 0;
	snap_copy(&t->prev, &t->begin);
	t->stop = false;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&t->sampler, NULL, sampler_main, t)) {
		pthread_cond_destroy(&t->cond);
		return 0;	/* the run is still traced, without a series */
	}
	pthread_setname_np(t->sampler, "cb_sampler");
	/*
	 * Among hundreds of runnable benchmark threads a normal thread wakes
	 * late, by up to a second: intervals would stretch.  The
	 * sampler runs for microseconds per wakeup, so real-time priority
	 * costs the benchmark nothing measurable.  Best effort.
	 */
	{
		struct sched_param sp = { .sched_priority = 1 };

		pthread_setschedparam(t->sampler, SCHED_FIFO, &sp);
	}
	t->sampler_on = true;
	return 0;
}

static void stop_sampler(struct trace *t)
{
	if (!t->sampler_on)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->sampler, NULL);
	pthread_cond_destroy(&t->cond);
	t->sampler_on = false;
}

struct kstats *trace_run_end(struct trace *t)
{
	struct tl_events *tl = NULL;
	struct profile *prof = NULL;
	struct kstats *k;
	int i;

	if (!t || !t->running)
		return NULL;
	/* The sampler notices at once; its last interval ends before ours. */
	stop_sampler(t);
	/* prev: the last interval's snapshot, or begin's copy. */
	snap_take(&t->src, &t->end, t->opts.interval_ms ? &t->prev : &t->begin,
		  true);
	t->running = false;
	lower_caller(t);
	trace_detach(t);
	/* For the next run's workers (learn_attach). */
	if (t->attached)
		learn_attach(t);
	profiler_end(t->prof, t->end.t_ns - t->begin.t_ns, &prof, &tl);
	if (t->opts.interval_ms)
		add_interval(t, &t->prev, &t->end);
	k = kstats_from_snaps(&t->begin, &t->end);
	/* No interval closed the window: timed all along, exact. */
	if (t->stats_fd >= 0 && !t->stats_all_run) {
		close(t->stats_fd);
		t->stats_fd = -1;
	}
	if (!k) {
		profile_free(prof);
		tl_events_free(tl);
		return NULL;
	}
	k->profile = prof;
	k->timeline = tl;
	estimate_cost(t, k);
	k->mode = t->mode;
	k->sock_sample_rate = 1U << t->sample_shift;
	for (i = 0; i < k->nr_stealers; i++)
		snap_refresh_comm(&k->stealer[i]);
	if (t->nr_iv) {
		k->interval = malloc(t->nr_iv * sizeof(*k->interval));
		if (k->interval) {
			memcpy(k->interval, t->iv,
			       t->nr_iv * sizeof(*k->interval));
			k->nr_intervals = t->nr_iv;
		}
	}
	return k;
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	stop_sampler(t);
	if (t->sched_mm)
		munmap(t->sched_mm, t->sched_mm_len);
	if (t->sock_mm)
		munmap(t->sock_mm, t->sock_mm_len);
	profiler_close(t->prof);
	learn_detach(t);
	trace_bpf__destroy(t->bpf);
	if (t->stats_fd >= 0)
		close(t->stats_fd);
	ks_snap_free(&t->begin);
	ks_snap_free(&t->prev);
	ks_snap_free(&t->cur);
	ks_snap_free(&t->end);
	free(t->iv);
	free(t->src.keys);
	free(t->src.vals);
	pthread_mutex_destroy(&t->lock);
	free(t);
}
