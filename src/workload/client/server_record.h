/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The server's host's kernel record (chat_s tracing its own host, see
 * workload/server/srv_trace.h): asked for with the start message, read
 * after the 0x22, and put into the run record.
 */
#ifndef CHATBENCH_SERVER_RECORD_H
#define CHATBENCH_SERVER_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "workload/client/run_record.h"

/*
 * Sends the start message with the ask as its urgent last byte.  0, or
 * -1 with errno.
 */
int server_record_ask(int ctl, const uint8_t *start, size_t len);

/*
 * After the 0x22: reads the record within timeout_ms and fills r's
 * server_kernel, server_trace and server_host.  Never fails the run: a
 * server that sends nothing (the original, an older chat_s) or garbage
 * leaves server_trace saying so.
 */
void server_record_read(int ctl, int timeout_ms, struct run_result *r);

/*
 * A record's JSON body into r (also the fuzzer's entry): 0, or -1 with
 * r->server_trace saying what was wrong.
 */
int server_record_parse(const char *body, size_t len, struct run_result *r);

#endif
