// SPDX-License-Identifier: GPL-2.0
/*
 * Asking chat_s for its host's kernel record and reading it back.  The
 * record is the server's word about its own host: every byte of it is
 * checked (framing, size, JSON, the kernel object as the loader of saved
 * runs checks one) before it enters the run record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>

#include "results/kstats_load.h"
#include "tracer/kstats.h"
#include "util/rtraise.h"
#include "workload/client/server_record.h"
#include "workload/netio.h"
#include "workload/proto.h"

int server_record_ask(int ctl, const uint8_t *start, size_t len)
{
	uint8_t buf[CHAT_START_MAX_LEN + 1];
	ssize_t w;

	memcpy(buf, start, len);
	buf[len] = CHAT_ASK_RECORD;
	/*
	 * One send: with MSG_OOB its last byte is the urgent one, so the
	 * ask arrives with the start message and the server finds it when
	 * it reads that.
	 */
	do {
		w = send(ctl, buf, len + 1, MSG_OOB);
	} while (w < 0 && errno == EINTR);
	if (w == (ssize_t)len + 1)
		return 0;
	if (w >= 0)
		errno = EIO;
	return -1;
}

/* Printable: the server's words reach the user's terminal. */
static void clean_copy(char *dst, size_t len, const char *src)
{
	size_t i;

	snprintf(dst, len, "%s", src);
	for (i = 0; dst[i]; i++)
		if ((unsigned char)dst[i] < 0x20 || (unsigned char)dst[i] > 0x7e)
			dst[i] = '?';
}

int server_record_parse(const char *body, size_t len, struct run_result *r)
{
	const json_t *host, *trace, *kernel, *group;
	json_error_t je;
	json_t *o;
	int rc = -1;

	o = json_loadb(body, len, 0, &je);
	if (!o || !json_is_object(o)) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: the server's record is not a JSON object");
		goto out;
	}
	host = json_object_get(o, "host");
	trace = json_object_get(o, "trace");
	kernel = json_object_get(o, "kernel");
	if (!json_is_string(trace)) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: the server's record has no trace state");
		goto out;
	}
	clean_copy(r->server_host, sizeof(r->server_host),
		   json_is_string(host) ? json_string_value(host) : "?");
	if (strcmp(json_string_value(trace), "on")) {
		char why[sizeof(r->server_trace) - 8];

		clean_copy(why, sizeof(why), json_string_value(trace));
		/* Always "off...": the client never reads a state as on. */
		snprintf(r->server_trace, sizeof(r->server_trace), "%s%s",
			 strncmp(why, "off", 3) ? "off: " : "", why);
		rc = 0;
		goto out;
	}
	r->server_kernel = kernel ? kstats_from_json(kernel) : NULL;
	if (!r->server_kernel) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: the server's kernel record is malformed");
		goto out;
	}
	snprintf(r->server_trace, sizeof(r->server_trace), "on");
	group = json_object_get(o, "group");
	clean_copy(r->server_group, sizeof(r->server_group),
		   json_is_string(group) ? json_string_value(group) : "");
	rc = 0;
out:
	json_decref(o);
	return rc;
}

static void record_read(int ctl, int timeout_ms, struct run_result *r)
{
	uint8_t hdr[CHAT_RECORD_HDR_LEN];
	char why[128];
	char *body = NULL;
	uint32_t len;
	ssize_t got;

	net_set_timeouts(ctl, timeout_ms);
	got = net_read_full(ctl, hdr, sizeof(hdr));
	if (got == 0) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: the server sent no record (not chatbench's chat_s, or an older one)");
		return;
	}
	if (got != (ssize_t)sizeof(hdr)) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: reading the server's record: %s",
			 got < 0 ? strerror(errno) : "cut short");
		return;
	}
	if (proto_record_len(hdr, &len, why, sizeof(why))) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: the server sent %s", why);
		return;
	}
	body = malloc(len + 1);
	if (!body) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: no memory for the server's record of %u bytes",
			 len);
		return;
	}
	got = net_read_full(ctl, body, len);
	if (got != (ssize_t)len) {
		snprintf(r->server_trace, sizeof(r->server_trace),
			 "off: reading the server's record: %s",
			 got < 0 ? strerror(errno) : "cut short");
		free(body);
		return;
	}
	server_record_parse(body, len, r);
	free(body);
}

/*
 * At real-time priority: the record of a run beside a CPU thief (the
 * one it names) is read and parsed while the thief still runs, and a
 * normal thread took seconds for it.  The run is measured by then.
 */
void server_record_read(int ctl, int timeout_ms, struct run_result *r)
{
	struct rt_raised rt;

	rt_raise_self(&rt);
	record_read(ctl, timeout_ms, r);
	rt_lower(&rt);
}
