// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's user side.  The perf events (software CPU clock, one per
 * CPU) and the scheduler programs are attached once at open; a run flips
 * the programs' "active" flag at its clock's edges, so the cost of a run
 * never includes attaching.  The maps are read and emptied after the
 * clock has stopped, and the stacks symbolized then, once per stack id.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "profile.skel.h"
#include "tracer/profile.h"
#include "tracer/symbolize.h"
#include "util/fmt.h"

#define RING_BYTES	(32U << 20)
/* 48 bytes an event: 2M events are 96 MiB, several seconds of a run. */
#define TL_MAX_EVENTS	(2U << 20)
#define MAX_PROGS	8

struct profiler {
	struct profiler_opts o;
	struct profile_bpf *skel;
	int ncpus;
	int *pfd;			/* perf event fd per CPU, -1: none */
	struct bpf_link **plink;
	int stats_fd;
	struct bpf_program *prog[MAX_PROGS];
	struct bpf_link *link[MAX_PROGS];
	int nr_progs;
	uint64_t t0;
	uint64_t run_time0, run_cnt0;
	struct cb_prof_lost lost0;

	struct ring_buffer *rb;
	pthread_t poller;
	bool poller_on;
	bool stop;			/* atomic: the poller reads it */
	struct tl_events *tl;
	struct symbolizer *sym;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct profiler *p = ctx;
	struct tl_events *t = p->tl;
	struct cb_tl_event *ev;

	if (!t || size < sizeof(*ev))
		return 0;
	if (t->n == TL_MAX_EVENTS) {
		t->dropped++;
		return 0;
	}
	/* The array doubles whenever n reaches a power of two >= 4096. */
	if (!t->n || (t->n >= 4096 && !(t->n & (t->n - 1)))) {
		size_t cap = t->n ? t->n * 2 : 4096;

		ev = realloc(t->ev, cap * sizeof(*ev));
		if (!ev) {
			t->dropped++;
			return 0;
		}
		t->ev = ev;
	}
	memcpy(&t->ev[t->n++], data, sizeof(*ev));
	return 0;
}

static void *poller_main(void *arg)
{
	struct profiler *p = arg;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
		ring_buffer__poll(p->rb, 100);
	return NULL;
}

static void pick(struct profiler *p, struct bpf_program *prog, bool on)
{
	bpf_program__set_autoload(prog, on);
	if (on && p->nr_progs < MAX_PROGS)
		p->prog[p->nr_progs++] = prog;
}

static int open_perf(struct profiler *p, char *err, size_t errlen)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		/* A period in ns, exact, rather than a frequency to adapt. */
		.sample_period = 1000000000ULL / p->o.hz,
	};
	int cpu, opened = 0;

	for (cpu = 0; cpu < p->ncpus; cpu++) {
		p->pfd[cpu] = syscall(SYS_perf_event_open, &a, -1, cpu, -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (p->pfd[cpu] < 0) {
			if (errno == ENODEV)	/* CPU offline */
				continue;
			fmt_err(err, errlen, "perf_event_open on CPU %d: %s",
				cpu, strerror(errno));
			return -1;
		}
		p->plink[cpu] = bpf_program__attach_perf_event(
			p->skel->progs.on_cpu_sample, p->pfd[cpu]);
		if (!p->plink[cpu]) {
			fmt_err(err, errlen, "cannot attach the CPU sampler: %s",
				strerror(errno));
			return -1;
		}
		opened++;
	}
	if (!opened) {
		fmt_err(err, errlen, "no CPU could be sampled");
		return -1;
	}
	return 0;
}

struct profiler *profiler_open(const struct profiler_opts *o, char *err,
			       size_t errlen)
{
	const char *fl = o->raw_tp ? "prof_raw_" : "prof_btf_";
	struct bpf_program *prog;
	struct profiler *p;
	bool sched = o->timeline || (o->hz && o->offcpu);
	int i;

	p = calloc(1, sizeof(*p));
	if (!p)
		goto oom;
	p->o = *o;
	p->stats_fd = -1;
	p->ncpus = libbpf_num_possible_cpus();
	if (p->ncpus <= 0)
		goto oom;
	p->pfd = malloc(p->ncpus * sizeof(*p->pfd));
	p->plink = calloc(p->ncpus, sizeof(*p->plink));
	p->sym = sym_new();
	if (!p->pfd || !p->plink || !p->sym)
		goto oom;
	for (i = 0; i < p->ncpus; i++)
		p->pfd[i] = -1;
	p->skel = profile_bpf__open();
	if (!p->skel) {
		fmt_err(err, errlen, "cannot open the profiler: %s",
			strerror(errno));
		goto fail;
	}
	p->skel->rodata->want_offcpu = o->hz && o->offcpu;
	p->skel->rodata->want_timeline = o->timeline;
	p->skel->rodata->server_foreign = o->server_foreign;
	bpf_map__set_max_entries(p->skel->maps.events,
				 o->timeline ? RING_BYTES :
				 (unsigned int)sysconf(_SC_PAGESIZE));
	bpf_object__for_each_program(prog, p->skel->obj) {
		const char *name = bpf_program__name(prog);
		bool on = false;

		if (!strcmp(name, "on_cpu_sample"))
			on = o->hz;
		else if (!strncmp(name, fl, strlen(fl)))
			on = strstr(name, "migrate") ? o->timeline : sched;
		pick(p, prog, on);
	}
	if (profile_bpf__load(p->skel)) {
		fmt_err(err, errlen, "cannot load the profiler: %s",
			strerror(errno));
		goto fail;
	}
	p->skel->bss->client_tgid = o->client_tgid;
	p->skel->bss->server_tgid = o->server_tgid;
	if (o->hz && open_perf(p, err, errlen))
		goto fail;
	for (i = 0; i < p->nr_progs; i++) {
		if (p->prog[i] == p->skel->progs.on_cpu_sample)
			continue;
		p->link[i] = bpf_program__attach(p->prog[i]);
		if (!p->link[i]) {
			fmt_err(err, errlen, "cannot attach %s: %s",
				bpf_program__name(p->prog[i]),
				strerror(errno));
			goto fail;
		}
	}
	if (o->timeline) {
		p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.events),
					 on_event, p, NULL);
		if (!p->rb) {
			fmt_err(err, errlen, "cannot open the ring buffer: %s",
				strerror(errno));
			goto fail;
		}
	}
	/* The profiler's own cost is measured over every run. */
	p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return p;
oom:
	fmt_err(err, errlen, "out of memory");
fail:
	profiler_close(p);
	return NULL;
}

static void prog_stats(struct profiler *p, uint64_t *time, uint64_t *cnt)
{
	int i;

	*time = *cnt = 0;
	for (i = 0; i < p->nr_progs; i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(bpf_program__fd(p->prog[i]), &info,
					    &len))
			continue;
		*time += info.run_time_ns;
		*cnt += info.run_cnt;
	}
}

static void read_lost(struct profiler *p, struct cb_prof_lost *sum)
{
	struct cb_prof_lost *v = calloc(p->ncpus, sizeof(*v));
	__u32 zero = 0;
	int i;

	memset(sum, 0, sizeof(*sum));
	if (!v)
		return;
	if (!bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.lost), &zero, v))
		for (i = 0; i < p->ncpus; i++) {
			sum->samples += v[i].samples;
			sum->idle += v[i].idle;
			sum->keys_full += v[i].keys_full;
			sum->stack_errors += v[i].stack_errors;
			sum->tl_dropped += v[i].tl_dropped;
		}
	free(v);
}

void profiler_begin(struct profiler *p)
{
	if (!p)
		return;
	read_lost(p, &p->lost0);
	prog_stats(p, &p->run_time0, &p->run_cnt0);
	if (p->o.timeline) {
		p->tl = calloc(1, sizeof(*p->tl));
		__atomic_store_n(&p->stop, false, __ATOMIC_RELEASE);
		p->poller_on = !pthread_create(&p->poller, NULL, poller_main,
					       p);
		if (p->poller_on)
			pthread_setname_np(p->poller, "cb_timeline");
	}
	p->t0 = mono_ns();
	if (p->tl)
		p->tl->start_ns = p->t0;
	p->skel->bss->active_since = p->t0;
	__atomic_store_n(&p->skel->bss->active, true, __ATOMIC_RELEASE);
}

/* ---- reading a run's stacks ------------------------------------------ */

struct frames_buf {
	char *s;
	size_t len, cap;
};

static int buf_add(struct frames_buf *b, const char *name)
{
	size_t n = strlen(name);
	char *s;

	if (b->len + n + 2 > b->cap) {
		size_t cap = (b->len + n + 2) * 2;

		s = realloc(b->s, cap);
		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	if (b->len)
		b->s[b->len++] = ';';
	memcpy(b->s + b->len, name, n + 1);
	b->len += n;
	return 0;
}

/* The tracepoint's own frames, on top of every off-CPU kernel stack. */
static bool tracing_frame(const char *name)
{
	return !strncmp(name, "bpf_prog_", 9) ||
	       !strncmp(name, "bpf_trace_run", 13) ||
	       !strncmp(name, "__traceiter_", 12) ||
	       !strncmp(name, "__bpf_trace_", 12);
}

/*
 * Frames of one stack id, root first, appended to b.  The map holds the
 * leaf first; a user frame past the leaf is a return address, so its
 * call is found one byte before it.  trim drops the tracing frames that
 * a stack taken at sched_switch starts with.
 */
static void add_stack(struct profiler *p, int id, bool user, pid_t tgid,
		      bool trim, uint64_t *ips, struct frames_buf *b)
{
	int i, leaf = 0, depth = 0;

	if (id < 0 || bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.stacks),
					  &id, ips))
		return;
	while (depth < CB_PROF_STACK_DEPTH && ips[depth])
		depth++;
	while (trim && leaf < depth &&
	       tracing_frame(sym_kernel(p->sym, ips[leaf])))
		leaf++;
	for (i = depth - 1; i >= leaf; i--) {
		uint64_t a = ips[i];

		if (user)
			buf_add(b, sym_user(p->sym, tgid, i ? a - 1 : a));
		else
			buf_add(b, sym_kernel(p->sym, a));
	}
}

static int cmp_stack(const void *a, const void *b)
{
	const struct prof_stack *x = a, *y = b;
	int c;

	if (x->role != y->role)
		return x->role - y->role;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	c = strncmp(x->comm, y->comm, sizeof(x->comm));
	return c ? c : strcmp(x->frames, y->frames);
}

/* Stacks that symbolize alike (inlined ids, two addresses in one function). */
static void merge_stacks(struct profile *pr)
{
	size_t i, j;

	if (!pr->n)
		return;
	qsort(pr->st, pr->n, sizeof(*pr->st), cmp_stack);
	for (i = 0, j = 1; j < pr->n; j++) {
		if (!cmp_stack(&pr->st[i], &pr->st[j])) {
			pr->st[i].value += pr->st[j].value;
			free(pr->st[j].frames);
			continue;
		}
		pr->st[++i] = pr->st[j];
	}
	pr->n = i + 1;
}

static void account(struct profile *pr, const struct cb_prof_key *k,
		    uint64_t v)
{
	if (k->kind == CB_PROF_ONCPU) {
		if (k->role == CB_PROF_OUTSIDER)
			pr->outsider_samples += v;
		else
			pr->samples += v;
	} else if (k->kind < CB_NR_PROF_KINDS) {
		pr->offcpu_ns[k->kind] += v;
	}
}

/* Every key of the counts map into pr, then the map emptied. */
static void read_counts(struct profiler *p, struct profile *pr)
{
	int cfd = bpf_map__fd(p->skel->maps.counts);
	uint64_t *ips = calloc(CB_PROF_STACK_DEPTH, sizeof(*ips));
	struct cb_prof_key k, next, *keys = NULL;
	size_t nk = 0, i, cap = 0;
	struct frames_buf b = {};
	void *prev = NULL;
	uint64_t v;

	if (!ips)
		return;
	while (!bpf_map_get_next_key(cfd, prev, &next)) {
		if (nk == cap) {
			struct cb_prof_key *nkeys;

			cap = cap ? cap * 2 : 1024;
			nkeys = realloc(keys, cap * sizeof(*keys));
			if (!nkeys)
				break;
			keys = nkeys;
		}
		keys[nk++] = next;
		k = next;
		prev = &k;
	}
	pr->st = calloc(nk ? nk : 1, sizeof(*pr->st));
	for (i = 0; pr->st && i < nk; i++) {
		struct prof_stack *s = &pr->st[pr->n];

		if (bpf_map_lookup_elem(cfd, &keys[i], &v) || !v)
			continue;
		account(pr, &keys[i], v);
		b.len = 0;
		add_stack(p, keys[i].ustack, true, keys[i].tgid, false, ips,
			  &b);
		add_stack(p, keys[i].kstack, false, 0,
			  keys[i].kind != CB_PROF_ONCPU, ips, &b);
		s->frames = strdup(b.len ? b.s : "");
		if (!s->frames)
			continue;
		s->role = keys[i].role;
		s->kind = keys[i].kind;
		memcpy(s->comm, keys[i].comm, sizeof(s->comm));
		s->comm[sizeof(s->comm) - 1] = '\0';
		s->value = v;
		pr->n++;
	}
	for (i = 0; i < nk; i++)
		bpf_map_delete_elem(cfd, &keys[i]);
	merge_stacks(pr);
	free(b.s);
	free(keys);
	free(ips);
}

/* The stack map is emptied key by key: ids are reused run after run. */
static void clear_stacks(struct profiler *p)
{
	int fd = bpf_map__fd(p->skel->maps.stacks);
	__u32 k, next;

	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		k = next;
		if (bpf_map_delete_elem(fd, &k))
			break;
	}
}

void profiler_end(struct profiler *p, uint64_t wall_ns,
		  struct profile **prof, struct tl_events **tl)
{
	struct cb_prof_lost l;
	struct profile *pr;
	uint64_t time, cnt;

	*prof = NULL;
	*tl = NULL;
	if (!p)
		return;
	__atomic_store_n(&p->skel->bss->active, false, __ATOMIC_RELEASE);
	if (p->poller_on) {
		__atomic_store_n(&p->stop, true, __ATOMIC_RELEASE);
		pthread_join(p->poller, NULL);
		p->poller_on = false;
		ring_buffer__consume(p->rb);
	}
	if (p->tl) {
		read_lost(p, &l);
		p->tl->dropped += l.tl_dropped - p->lost0.tl_dropped;
		p->tl->end_ns = mono_ns();
		*tl = p->tl;
		p->tl = NULL;
	}
	if (!p->o.hz)
		return;
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return;
	pr->hz = p->o.hz;
	read_lost(p, &l);
	pr->idle_samples = l.idle - p->lost0.idle;
	pr->lost = l.keys_full - p->lost0.keys_full;
	pr->stack_errors = l.stack_errors - p->lost0.stack_errors;
	prog_stats(p, &time, &cnt);
	pr->run_time_ns = time - p->run_time0;
	pr->run_cnt = cnt - p->run_cnt0;
	if (wall_ns && p->ncpus)
		pr->cpu_share = (double)pr->run_time_ns /
				((double)wall_ns * p->ncpus);
	read_counts(p, pr);
	clear_stacks(p);
	*prof = pr;
}

void profiler_close(struct profiler *p)
{
	int i;

	if (!p)
		return;
	if (p->poller_on) {
		__atomic_store_n(&p->stop, true, __ATOMIC_RELEASE);
		pthread_join(p->poller, NULL);
	}
	ring_buffer__free(p->rb);
	for (i = 0; p->plink && i < p->ncpus; i++)
		bpf_link__destroy(p->plink[i]);
	for (i = 0; i < MAX_PROGS; i++)
		bpf_link__destroy(p->link[i]);
	/* A perf link closes its event with it. */
	for (i = 0; p->pfd && i < p->ncpus; i++)
		if (p->pfd[i] >= 0 && !(p->plink && p->plink[i]))
			close(p->pfd[i]);
	profile_bpf__destroy(p->skel);
	if (p->stats_fd >= 0)
		close(p->stats_fd);
	tl_events_free(p->tl);
	sym_free(p->sym);
	free(p->pfd);
	free(p->plink);
	free(p);
}
