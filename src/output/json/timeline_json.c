// SPDX-License-Identifier: GPL-2.0
/*
 * --timeline: the scheduler's view of the benchmark's threads over one
 * window, in the JSON trace event format (Perfetto, chrome://tracing).
 * Each thread gets a track under its process with a slice for every
 * stretch it ran ("running", with its CPU) or waited on a run queue
 * ("waiting to run"); wakeups carry their waker and migrations their
 * CPUs as instants; a track per CPU shows which of our threads ran there
 * and who took the CPU from them.  Events before the window only set
 * the state the window starts in.  Every event object is written by
 * jansson, so names are escaped whatever an outsider calls itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json/profile_json.h"
#include "tracer/profile_data.h"
#include "util/roles.h"
#include "util/safe_file.h"

/* Bounds the file: about 150 bytes an event. */
#define TL_MAX_OUT	400000
/* The CPU tracks' process: above any pid the kernel can give. */
#define CPU_PID		4194305
#define NR_SLOTS	(1U << 16)

struct thread_state {
	uint32_t tid;
	uint32_t tgid;
	uint64_t on_since;	/* 0: not running */
	uint64_t wait_since;	/* 0: not waiting to run */
	uint32_t cpu;
	int role;
};

struct tl_writer {
	FILE *f;
	size_t out;
	size_t cut;		/* events not written: over TL_MAX_OUT */
	uint64_t from, to;
	struct thread_state *ts;	/* open-addressed by tid */
};

static int by_ts(const void *a, const void *b)
{
	const struct cb_tl_event *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static double us(const struct tl_writer *w, uint64_t ns)
{
	return (double)(ns - w->from) / 1000.0;
}

static void emit(struct tl_writer *w, json_t *o)
{
	if (!o)
		return;
	if (w->out >= TL_MAX_OUT) {
		w->cut++;
		json_decref(o);
		return;
	}
	fputs(w->out++ ? ",\n" : "\n", w->f);
	json_dumpf(o, w->f, JSON_COMPACT);
	json_decref(o);
}

static struct thread_state *thread(struct tl_writer *w, uint32_t tid)
{
	uint32_t h = (tid * 2654435761U) & (NR_SLOTS - 1), i;

	for (i = 0; i < NR_SLOTS; i++, h = (h + 1) & (NR_SLOTS - 1)) {
		struct thread_state *t = &w->ts[h];

		if (t->tid == tid)
			return t;
		if (!t->tid) {
			t->tid = tid;
			return t;
		}
	}
	return NULL;
}

/* A slice [a, b) of a thread, clipped to the window. */
static void slice(struct tl_writer *w, const struct thread_state *t,
		  const char *name, uint64_t a, uint64_t b, uint32_t cpu)
{
	if (a < w->from)
		a = w->from;
	if (b > w->to)
		b = w->to;
	if (!a || b <= a)
		return;
	emit(w, json_pack("{s:s, s:s, s:f, s:f, s:I, s:I, s:{s:i}}",
			  "name", name, "ph", "X", "ts", us(w, a),
			  "dur", (double)(b - a) / 1000.0,
			  "pid", (json_int_t)t->tgid, "tid", (json_int_t)t->tid,
			  "args", "cpu", (int)cpu));
	if (!strcmp(name, "running"))
		emit(w, json_pack("{s:s, s:s, s:f, s:f, s:i, s:i, s:{s:I}}",
				  "name", role_name(t->role), "ph", "X",
				  "ts", us(w, a), "dur", (double)(b - a) / 1000.0,
				  "pid", CPU_PID, "tid", (int)cpu,
				  "args", "tid", (json_int_t)t->tid));
}

static void instant(struct tl_writer *w, const char *name, uint32_t pid,
		    uint32_t tid, uint64_t ts, json_t *args)
{
	if (ts < w->from || ts >= w->to) {
		json_decref(args);
		return;
	}
	emit(w, json_pack("{s:s, s:s, s:s, s:f, s:I, s:I, s:o}", "name", name,
			  "ph", "i", "s", "t", "ts", us(w, ts),
			  "pid", (json_int_t)pid, "tid", (json_int_t)tid,
			  "args", args));
}

static void name_thread(struct tl_writer *w, const struct thread_state *t)
{
	char name[48];

	snprintf(name, sizeof(name), "%s %u", role_name(t->role), t->tid);
	emit(w, json_pack("{s:s, s:s, s:I, s:I, s:{s:s}}", "name",
			  "thread_name", "ph", "M", "pid", (json_int_t)t->tgid,
			  "tid", (json_int_t)t->tid, "args", "name", name));
}

static const char *other_name(const struct cb_tl_event *e, char *buf,
			      size_t len)
{
	if (!e->other)
		return "idle";
	if (e->other_role != CB_PROF_OUTSIDER)
		return role_name(e->other_role);
	snprintf(buf, len, "%.16s", e->comm);
	return buf;
}

static void on_switch(struct tl_writer *w, const struct cb_tl_event *e)
{
	struct thread_state *t;
	char nm[20];

	if (e->role != CB_PROF_OUTSIDER && (t = thread(w, e->pid))) {
		t->tgid = e->tgid;
		t->role = e->role;
		if (t->on_since)
			slice(w, t, "running", t->on_since, e->ts, t->cpu);
		t->on_since = 0;
		t->wait_since = e->state == CB_TL_PREEMPTED ? e->ts : 0;
		if (e->other_role == CB_PROF_OUTSIDER && e->other)
			instant(w, "CPU taken", CPU_PID, e->cpu, e->ts,
				json_pack("{s:s, s:I, s:I}", "by",
					  other_name(e, nm, sizeof(nm)),
					  "pid", (json_int_t)e->other,
					  "from_tid", (json_int_t)e->pid));
	}
	if (e->other_role != CB_PROF_OUTSIDER && e->other &&
	    (t = thread(w, e->other))) {
		t->tgid = e->other_tgid;
		t->role = e->other_role;
		if (t->wait_since)
			slice(w, t, "waiting to run", t->wait_since, e->ts,
			      e->cpu);
		t->wait_since = 0;
		t->on_since = e->ts;
		t->cpu = e->cpu;
	}
}

static void on_wakeup(struct tl_writer *w, const struct cb_tl_event *e)
{
	struct thread_state *t = thread(w, e->pid);
	char nm[20];

	if (!t)
		return;
	t->tgid = e->tgid;
	t->role = e->role;
	if (!t->on_since && !t->wait_since)
		t->wait_since = e->ts;
	instant(w, "wakeup", e->tgid, e->pid, e->ts,
		json_pack("{s:s, s:I, s:i}", "waker",
			  other_name(e, nm, sizeof(nm)), "waker_tid",
			  (json_int_t)e->other, "target_cpu", (int)e->cpu));
}

static void write_events(struct tl_writer *w, struct cb_tl_event *ev,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n && ev[i].ts < w->to; i++) {
		const struct cb_tl_event *e = &ev[i];
		struct thread_state *t;

		if (e->type == CB_TL_SWITCH)
			on_switch(w, e);
		else if (e->type == CB_TL_WAKEUP)
			on_wakeup(w, e);
		else if (e->type == CB_TL_MIGRATE && (t = thread(w, e->pid))) {
			t->tgid = e->tgid;
			t->role = e->role;
			instant(w, "migrate", e->tgid, e->pid, e->ts,
				json_pack("{s:i, s:i}", "from_cpu",
					  (int)e->cpu, "to_cpu",
					  (int)e->other_tgid));
		}
	}
	/* Stretches still open at the window's end. */
	for (i = 0; i < NR_SLOTS; i++) {
		struct thread_state *t = &w->ts[i];

		if (!t->tid)
			continue;
		if (t->on_since)
			slice(w, t, "running", t->on_since, w->to, t->cpu);
		if (t->wait_since)
			slice(w, t, "waiting to run", t->wait_since, w->to,
			      t->cpu);
		if (t->tgid)
			name_thread(w, t);
	}
}

static void name_processes(struct tl_writer *w)
{
	uint32_t seen[8] = { 0 };
	size_t i, j, n = 0;

	emit(w, json_pack("{s:s, s:s, s:i, s:{s:s}}", "name", "process_name",
			  "ph", "M", "pid", CPU_PID, "args", "name",
			  "CPUs (our threads)"));
	for (i = 0; i < NR_SLOTS; i++) {
		uint32_t tgid = w->ts[i].tgid;
		char path[64], comm[32] = "";
		FILE *f;

		if (!w->ts[i].tid || !tgid)
			continue;
		for (j = 0; j < n && seen[j] != tgid; j++)
			;
		if (j < n || n == 8)
			continue;
		seen[n++] = tgid;
		snprintf(path, sizeof(path), "/proc/%u/comm", tgid);
		f = fopen(path, "r");
		if (!f || !fgets(comm, sizeof(comm), f))
			snprintf(comm, sizeof(comm), "%s",
				 role_is_worker(w->ts[i].role) &&
				 w->ts[i].role <= CB_ROLE_CLI_RCV ? "chat_c" :
				 "chat_s");
		if (f)
			fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		emit(w, json_pack("{s:s, s:s, s:I, s:{s:s}}", "name",
				  "process_name", "ph", "M", "pid",
				  (json_int_t)tgid, "args", "name", comm));
	}
}

int timeline_write(const char *path, const struct tl_events *t,
		   uint64_t from_ns, uint64_t to_ns, char *err, size_t len)
{
	struct tl_writer w = { .from = from_ns, .to = to_ns };
	struct cb_tl_event *ev = NULL;
	struct safe_file sf;
	int rc = -1;

	w.ts = calloc(NR_SLOTS, sizeof(*w.ts));
	if (t->n)
		ev = malloc(t->n * sizeof(*ev));
	if (!w.ts || (t->n && !ev)) {
		snprintf(err, len, "--timeline: out of memory");
		goto out;
	}
	if (t->n) {
		memcpy(ev, t->ev, t->n * sizeof(*ev));
		/* Each CPU's ring writes are in order, the CPUs interleave. */
		qsort(ev, t->n, sizeof(*ev), by_ts);
	}
	/* A later, slower window replaces the file whole, never half. */
	w.f = safe_file_open(&sf, path);
	if (!w.f) {
		snprintf(err, len, "--timeline: cannot write %s: %s", path,
			 strerror(errno));
		goto out;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", w.f);
	write_events(&w, ev, t->n);
	name_processes(&w);
	fprintf(w.f, "\n],\"otherData\":{\"window_start_ns\":\"%llu\","
		"\"window_s\":%.9f,\"run_start_ns\":\"%llu\","
		"\"events_in_run\":%zu,\"events_dropped\":%llu,"
		"\"events_cut\":%zu}}\n",
		(unsigned long long)from_ns, (double)(to_ns - from_ns) / 1e9,
		(unsigned long long)t->start_ns, t->n,
		(unsigned long long)t->dropped, w.cut);
	if (safe_file_commit(&sf, NULL)) {
		snprintf(err, len, "--timeline: writing %s failed: %s", path,
			 strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(ev);
	free(w.ts);
	return rc;
}
