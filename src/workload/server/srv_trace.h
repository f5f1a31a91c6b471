/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chat_s tracing its own host (chat_s --trace / --no-trace): the same
 * BPF programs as chat_c's, with chat_s as the server process and no
 * client process here.  A run is traced only when its client asked (an
 * urgent byte after its start message, proto.h CHAT_ASK_RECORD): the
 * programs are attached for that run alone, so that a client on this
 * host, which traces both sides itself, and a server nobody asks cost
 * nothing.  One run at a time: the tracer has one set of edges.
 *
 * The record goes back to the client after its 0x22 as "CBK1", a
 * little-endian length and a JSON object: {"host", "trace": "on",
 * "kernel": {...}} or {"host", "trace": "off: why"}.
 */
#ifndef CHATBENCH_SRV_TRACE_H
#define CHATBENCH_SRV_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/server/options.h"
#include "workload/server/run.h"

struct srv_tracer;

/*
 * Loads the programs (not attached).  NULL only when mode is ON and
 * tracing is not possible, with err; otherwise a tracer whose state may
 * be "off: why" (srv_trace_state), said once by the caller.
 */
struct srv_tracer *srv_trace_open(enum srv_trace_mode mode, uint16_t port,
				  unsigned int max_sockets, char *err,
				  size_t len);
/* "on", or "off: why". */
const char *srv_trace_state(const struct srv_tracer *st);

/*
 * For a run whose client asked: attaches the programs before the run's
 * threads exist.  The runs of one group (chat_s --clients N, released
 * together) share one record, from the group's first 0x11 to its last
 * run's end.  0 when this run is traced; else -1 with why (another
 * group holds the tracer, tracing is off, attaching failed).
 */
int srv_trace_claim(struct srv_tracer *st, unsigned long group,
		    struct srv_run *run, char *why, size_t len);
/*
 * Before a claimed run's 0x11, on the run's thread: the group's first
 * takes the start snapshot, the others wait for it.
 */
void srv_trace_begin(struct srv_tracer *st, unsigned long group);
/*
 * A claimed run's data plane is done.  The group's last takes the end
 * snapshot and makes the record (the programs are detached, the tracer
 * free for the next group); the others wait for it, up to timeout_ms.
 * Returns this run's copy of the framed record (malloc'd; NULL when out
 * of memory), which says why there is none when the run was not traced
 * (why: the claim's reason).
 */
char *srv_trace_end(struct srv_tracer *st, unsigned long group, bool claimed,
		    const char *why, int timeout_ms, size_t *len);
/* A claimed run that failed before its end: the group goes on without. */
void srv_trace_release(struct srv_tracer *st, unsigned long group);
void srv_trace_close(struct srv_tracer *st);

/* Whether the client of ctl asked for the record (its urgent byte). */
bool srv_trace_asked(int ctl);

#endif
