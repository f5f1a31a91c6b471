// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding, decoding and validation of what travels on the wire.  Nothing
 * here touches a socket: the server and the client own their I/O and call
 * these to interpret bytes, which keeps every parser fuzzable.
 */
#include <stdio.h>
#include <string.h>

#include "workload/proto.h"

/* The original wrote native ints; x86 made that little-endian for good. */
static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

size_t proto_encode_start(const struct chat_start *s,
			  uint8_t buf[CHAT_START_MAX_LEN])
{
	if (s->users == CHAT_USERS_PER_ROOM) {
		put_le32(buf, (uint32_t)s->rooms);
		put_le32(buf + 4, (uint32_t)s->messages);
		return CHAT_START_LEN;
	}
	put_le32(buf, (uint32_t)s->rooms | CHAT_START_EXT_FLAG);
	put_le32(buf + 4, (uint32_t)s->messages);
	put_le32(buf + 8, (uint32_t)s->users);
	put_le32(buf + 12, 0);
	return CHAT_START_MAX_LEN;
}

size_t proto_decode_start(const uint8_t buf[CHAT_START_LEN],
			  struct chat_start *s)
{
	uint32_t rooms = get_le32(buf);

	s->messages = (int32_t)get_le32(buf + 4);
	s->users = CHAT_USERS_PER_ROOM;
	/*
	 * Only the flag with a plausible count (below 2^16) is an extension;
	 * any other large or negative word is left to the check as a count.
	 */
	if ((rooms & 0xffff0000u) != CHAT_START_EXT_FLAG) {
		s->rooms = (int32_t)rooms;
		return 0;
	}
	s->rooms = (int32_t)(rooms & 0xffffu);
	return CHAT_START_EXT_LEN;
}

void proto_decode_start_ext(const uint8_t buf[CHAT_START_EXT_LEN],
			    struct chat_start *s)
{
	s->users = (int32_t)get_le32(buf);
	if (get_le32(buf + 4))
		s->users = -1; /* reserved word must be zero */
}

int proto_check_start(const struct chat_start *s, const struct chat_caps *caps,
		      char *why, size_t len)
{
	if (s->rooms < 1) {
		snprintf(why, len, "rooms = %d, must be at least 1", s->rooms);
		return -1;
	}
	if (s->messages < 1) {
		snprintf(why, len, "messages = %d, must be at least 1",
			 s->messages);
		return -1;
	}
	if (s->users < CHAT_MIN_USERS || s->users > CHAT_MAX_USERS) {
		snprintf(why, len, "users per room = %d, must be from %d to %d",
			 s->users, CHAT_MIN_USERS, CHAT_MAX_USERS);
		return -1;
	}
	/*
	 * The cap on rooms is a cap on connections: a room of 1000 users
	 * must not buy 50 times what --max-rooms allows.
	 */
	if (s->users > CHAT_USERS_PER_ROOM && s->rooms <= caps->max_rooms &&
	    (int64_t)s->rooms * s->users >
		    (int64_t)caps->max_rooms * CHAT_USERS_PER_ROOM) {
		snprintf(why, len,
			 "%d rooms x %d users above the cap of %d connections (--max-rooms x 20)",
			 s->rooms, s->users, caps->max_rooms * CHAT_USERS_PER_ROOM);
		return -1;
	}
	if (s->rooms > caps->max_rooms) {
		snprintf(why, len, "rooms = %d above the cap of %d (--max-rooms)",
			 s->rooms, caps->max_rooms);
		return -1;
	}
	if (s->messages > caps->max_messages) {
		snprintf(why, len,
			 "messages = %d above the cap of %d (--max-messages)",
			 s->messages, caps->max_messages);
		return -1;
	}
	return 0;
}

void proto_record_header(uint32_t len, uint8_t buf[CHAT_RECORD_HDR_LEN])
{
	memcpy(buf, CHAT_RECORD_MAGIC, 4);
	buf[4] = (uint8_t)len;
	buf[5] = (uint8_t)(len >> 8);
	buf[6] = (uint8_t)(len >> 16);
	buf[7] = (uint8_t)(len >> 24);
}

int proto_record_len(const uint8_t buf[CHAT_RECORD_HDR_LEN], uint32_t *len,
		     char *why, size_t why_len)
{
	if (memcmp(buf, CHAT_RECORD_MAGIC, 4)) {
		snprintf(why, why_len, "not a record header (0x%02x 0x%02x ...)",
			 buf[0], buf[1]);
		return -1;
	}
	*len = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 |
	       (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;
	if (*len > CHAT_RECORD_MAX) {
		snprintf(why, why_len, "a record of %u bytes (at most %u)",
			 *len, CHAT_RECORD_MAX);
		return -1;
	}
	return 0;
}

uint8_t proto_notice(int clients, unsigned long n)
{
	if (n < 1)
		n = 1;
	if (n > CHAT_NOTICE_MAX)
		n = CHAT_NOTICE_MAX;
	return (uint8_t)n | (clients ? CHAT_NOTICE_CLIENTS : 0);
}

void proto_notice_text(uint8_t notice, char *buf, size_t len)
{
	unsigned int n = notice & CHAT_NOTICE_MAX;
	const char *more = n == CHAT_NOTICE_MAX ? " or more" : "";

	if (!n)
		snprintf(buf, len, "the server sent an empty waiting notice");
	else if (notice & CHAT_NOTICE_CLIENTS)
		snprintf(buf, len,
			 "the server holds the run until %u%s more client%s connect (chat_s --clients)",
			 n, more, n == 1 && !*more ? "" : "s");
	else
		snprintf(buf, len,
			 "the server is busy: this run waits behind %u%s run%s (chat_s --max-runs)",
			 n, more, n == 1 && !*more ? "" : "s");
}

uint64_t proto_feed_units(struct unit_acc *acc, size_t n)
{
	uint64_t total = (uint64_t)acc->off + n;

	acc->off = total % CHAT_MSG_SIZE;
	return total / CHAT_MSG_SIZE;
}

#define STAMP_MAGIC 0x63686174u /* "chat" */

/*
 * Layout: magic (4), send time (8), check (4) = magic ^ folded time.  The
 * rest of the unit is left as the caller filled it.
 */
static uint32_t stamp_check(uint64_t ns)
{
	return STAMP_MAGIC ^ (uint32_t)ns ^ (uint32_t)(ns >> 32) ^ 0x5a5a5a5au;
}

void proto_stamp(uint8_t unit[CHAT_MSG_SIZE], uint64_t send_ns)
{
	put_le32(unit, STAMP_MAGIC);
	put_le64(unit + 4, send_ns);
	put_le32(unit + 12, stamp_check(send_ns));
}

int proto_read_stamp(const uint8_t unit[CHAT_MSG_SIZE], uint64_t *send_ns)
{
	uint64_t ns;

	if (get_le32(unit) != STAMP_MAGIC)
		return -1;
	ns = get_le64(unit + 4);
	if (get_le32(unit + 12) != stamp_check(ns))
		return -1;
	*send_ns = ns;
	return 0;
}
