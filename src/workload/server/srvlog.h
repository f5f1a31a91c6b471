/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of chat_s's control plane says: one log line on stderr
 * per event ("chat_s: ..."), the refusal a client is sent before its
 * control connection is closed, the waiting notices of a queued run, and
 * the monotonic clock the deadlines are kept in.
 */
#ifndef CHATBENCH_SRVLOG_H
#define CHATBENCH_SRVLOG_H

#include <stdint.h>

void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Logs "refused run from PEER: WHY" and sends 0x15 + WHY, best effort. */
void srv_refuse(int ctl, const char *peer, const char *why);
/*
 * A waiting notice (proto.h CHAT_NOTICE_*) as TCP urgent data: a client
 * that reads it says that it waits, the original client never sees it.
 */
void srv_notice(int ctl, uint8_t notice);
int64_t srv_now_ms(void);

#endif
