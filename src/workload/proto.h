/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire protocol of the original chat benchmark (1.0.1), byte for byte,
 * plus the one extension a refusing server needs to explain itself.  Pure
 * functions over buffers, so the fuzzer and the unit tests can reach them.
 */
#ifndef CHATBENCH_PROTO_H
#define CHATBENCH_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define CHAT_VERSION		"1.0.1"
#define CHATBENCH_VERSION	"0.1.0"
#define CHAT_DEFAULT_PORT	9999
#define CHAT_DEFAULT_ROOMS	10
#define CHAT_DEFAULT_MESSAGES	100
#define CHAT_USERS_PER_ROOM	20
#define CHAT_MSG_SIZE		100
#define CHAT_START_LEN		8
/*
 * Not in the original: rooms of another size than 20.  A rooms word of
 * 0x4000RRRR (bit 30 over a 16-bit count) announces 8 more bytes,
 * {int32 users, int32 zero}.  Only used when users != 20, so a default
 * run stays byte-identical.
 */
#define CHAT_START_EXT_FLAG	0x40000000
#define CHAT_START_EXT_LEN	8
#define CHAT_START_MAX_LEN	(CHAT_START_LEN + CHAT_START_EXT_LEN)
#define CHAT_CTL_READY		0x11
#define CHAT_CTL_DONE		0x22
/*
 * Not in the original: a server that refuses a start message sends this
 * byte followed by a short reason and closes.  The original client treats
 * any byte but 0x11 as an error, so it stays compatible.
 */
#define CHAT_CTL_REFUSE		0x15
#define CHAT_REASON_MAX		200
/*
 * Not in the original: while a run waits for a free slot (chat_s
 * --max-runs) or for the other clients of its group (chat_s --clients),
 * the server sends one byte of TCP urgent data now and then.  A reader of
 * the ordinary stream never sees urgent data (the kernel takes it out of
 * the stream), so the original client simply waits for its 0x11; ours
 * reads it with MSG_OOB and says what it waits for.  Bit 7 clear: queued
 * behind N runs; set: waiting for N more clients.  N is 1 to 127, 127
 * meaning that many or more.
 */
#define CHAT_NOTICE_CLIENTS	0x80
#define CHAT_NOTICE_MAX		0x7f

/*
 * Not in the original: a client on another host asks chat_s for its
 * host's kernel record by sending this byte as TCP urgent data, the last
 * byte of the same send as its start message.  A server reading the
 * ordinary stream never sees it (the original's reads skip it, as ours
 * do), so the original server serves the run as ever; the original
 * client never sends it, so it never gets a record.  A server that saw
 * it answers the client's 0x22 with a record: CHAT_RECORD_MAGIC, a
 * 32-bit little-endian length, then that many bytes of JSON.
 */
#define CHAT_ASK_RECORD		0x4b
#define CHAT_RECORD_MAGIC	"CBK1"
#define CHAT_RECORD_HDR_LEN	8
#define CHAT_RECORD_MAX		(64U << 20)

/* Defaults for the caps on counts that come from the wire. */
#define CHAT_MAX_ROOMS		1000
#define CHAT_MAX_MESSAGES	10000000
#define CHAT_MIN_USERS		2
#define CHAT_MAX_USERS		1000

struct chat_start {
	int32_t rooms;
	int32_t messages;
	int32_t users;		/* per room */
};

struct chat_caps {
	int32_t max_rooms;
	int32_t max_messages;
};

/* Returns the number of bytes to send: 8, or 16 with the extension. */
size_t proto_encode_start(const struct chat_start *s,
			  uint8_t buf[CHAT_START_MAX_LEN]);
/*
 * Decodes the first 8 bytes; returns how many extension bytes must follow
 * (0 or CHAT_START_EXT_LEN), to be passed to proto_decode_start_ext().
 */
size_t proto_decode_start(const uint8_t buf[CHAT_START_LEN],
			  struct chat_start *s);
void proto_decode_start_ext(const uint8_t buf[CHAT_START_EXT_LEN],
			    struct chat_start *s);
/* 0 if acceptable, else -1 with the reason written to why. */
int proto_check_start(const struct chat_start *s, const struct chat_caps *caps,
		      char *why, size_t len);

/* The header of a record of len bytes. */
void proto_record_header(uint32_t len, uint8_t buf[CHAT_RECORD_HDR_LEN]);
/*
 * The length a record header announces; -1 with why when it is not a
 * record header or announces more than CHAT_RECORD_MAX.
 */
int proto_record_len(const uint8_t buf[CHAT_RECORD_HDR_LEN], uint32_t *len,
		     char *why, size_t why_len);

/* The notice byte for queued behind n runs, or waiting for n clients. */
uint8_t proto_notice(int clients, unsigned long n);
/* What a notice byte means, as a sentence without a final period. */
void proto_notice_text(uint8_t notice, char *buf, size_t len);

/*
 * Data stream: unframed 100-byte units.  A reader that gets bytes in
 * arbitrary chunks (the event-loop servers) keeps the offset into the
 * current unit; feeding n bytes returns how many units completed.
 */
struct unit_acc {
	uint32_t off;
};

uint64_t proto_feed_units(struct unit_acc *acc, size_t n);

/*
 * Message latency: the sender stamps each unit with its send time
 * (CLOCK_MONOTONIC ns).  The content of a unit is free in the original
 * protocol, so this stays compatible; a check word lets a receiver skip
 * units that are not stamped (a foreign server sends garbage).
 */
void proto_stamp(uint8_t unit[CHAT_MSG_SIZE], uint64_t send_ns);
/* 0 and the send time if the unit carries a valid stamp, else -1. */
int proto_read_stamp(const uint8_t unit[CHAT_MSG_SIZE], uint64_t *send_ns);

#endif
