/* SPDX-License-Identifier: GPL-2.0 */
/* The client's end of the control connection, from start message to 0x11. */
#ifndef CHATBENCH_CLIENT_CONTROL_H
#define CHATBENCH_CLIENT_CONTROL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether the server has spoken within wait_ms: 1 with the byte in
 * *first (0x11), or with the reason in why (a refusal, a close, a wrong
 * byte); 0 when it is silent.
 */
int ctl_spoke(int ctl, int wait_ms, uint8_t *first, char *why, size_t len);
/*
 * Waits for 0x11: 0 when it came; -1 with the reason in why, or with why
 * empty when *stop was set (the caller knows why it stopped).
 */
int ctl_wait_ready(int ctl, int timeout_ms, const atomic_bool *stop, char *why,
		   size_t len);

#endif
