/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer: libbpf lifecycle of the kernel-side programs (open, set
 * rodata, load, attach once) and the snapshots of their maps that turn into
 * one struct kstats per run.  The benchmark calls only this interface.
 */
#ifndef CHATBENCH_TRACE_H
#define CHATBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kstats;
struct trace;

struct trace_opts {
	pid_t client_tgid;	/* process (tgid) of chat_c */
	pid_t server_tgid;	/* process (tgid) of chat_s, 0 when unknown */
	uint16_t server_port;	/* host order: selects the benchmark sockets */
	unsigned int interval_ms; /* per-interval series period, 0 = none */
	/*
	 * Messages the client has sent plus received so far in the current
	 * run; called from the tracer's sampler thread every interval so that
	 * each interval gets its own throughput.  May be NULL.
	 */
	uint64_t (*progress)(void *arg);
	void *progress_arg;
	/* --profile and --timeline (tracer/profile.h): 0 and false: off. */
	unsigned int profile_hz;
	bool timeline;
	/* Benchmark sockets on this host at most (both ends); 0: unknown. */
	unsigned int max_sockets;
	/*
	 * Load at open but attach only for a run (trace_attach before its
	 * threads exist, detached by trace_run_end): chat_s, whose runs
	 * are traced only when a client on another host asks, so that a
	 * server nobody asks costs its host nothing.
	 */
	bool on_demand;
};

/*
 * The cheap part of trace_open's checks (privileges, kernel BTF): 0, or
 * -1 with the sentence saying why tracing is not possible.
 */
int trace_possible(char *err, size_t errlen);

/*
 * Load and attach.  On failure returns NULL and writes one human sentence
 * (no trailing newline) saying why tracing is not possible into err.
 */
struct trace *trace_open(const struct trace_opts *opts, char *err,
			 size_t errlen);

/* Snapshot at the moment the run's clock starts; starts the sampler. */
int trace_run_begin(struct trace *t);

/*
 * Snapshot at the moment the run's clock stops; stops the sampler and
 * returns the run's kernel figures (caller frees with kstats_free()).
 */
struct kstats *trace_run_end(struct trace *t);

/*
 * on_demand tracers: attach the programs for the next run, before its
 * threads are made, so that every one of them is seen from its birth.
 * trace_run_end detaches them again.  -1 with err on failure.
 */
int trace_attach(struct trace *t, char *err, size_t errlen);
/* Detaches without a run (a run that failed before its clock started). */
void trace_detach(struct trace *t);

void trace_close(struct trace *t);

#endif
