/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of the chat client: control connection, rooms x 20 data
 * connections, a sender and a receiver thread per connection released
 * together after 0x11, and the run's counts and clock.
 */
#ifndef CHATBENCH_CLIENT_H
#define CHATBENCH_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/client/background.h"
#include "workload/client/options.h"
#include "workload/client/run_record.h"

struct trace;

struct client_ctx;

struct client_ctx *client_ctx_new(const struct client_opts *o,
				  struct trace *tracer);
void client_ctx_free(struct client_ctx *ctx);
void client_ctx_set_tracer(struct client_ctx *ctx, struct trace *tracer);
/* The chat_s process (tgid) when known: its CPU time is reported too. */
void client_ctx_set_server(struct client_ctx *ctx, pid_t server);
/*
 * Ask chat_s, with each start message, for its host's kernel record
 * (workload/client/server_record.h): when the server is on another host.
 */
void client_ctx_ask_record(struct client_ctx *ctx, bool ask);
/* --background's burners, whose progress each run reports. */
void client_ctx_set_background(struct client_ctx *ctx,
			       struct background *bg);
/* Whether client_abort() was called: no further run should start. */
bool client_stopped(struct client_ctx *ctx);
/* From any thread (the signal thread): end the current run now. */
void client_abort(struct client_ctx *ctx, const char *why);
/* Messages sent plus received so far in the current run (tracer). */
uint64_t client_progress(void *ctx);
/* 0 when the run completed with exact counts; res filled either way. */
int client_run(struct client_ctx *ctx, int run_no, struct run_result *res);

#endif
