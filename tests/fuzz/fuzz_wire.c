// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over everything chatbench interprets from the wire: the
 * start message (with the users-per-room extension) and its validation
 * against the server's caps, the control bytes 0x11, 0x15 plus a reason and
 * 0x22 as the client and server read them, the unframed 100-byte data
 * stream cut into arbitrary read sizes the way an event-loop server gets it,
 * and the send-time stamp a receiver finds in each unit.  Every check below
 * is an invariant a peer must not be able to break, whatever it sends: a
 * failed one aborts, and tests/fuzz/run.sh keeps the input as a regression.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chatbench.h"
#include "workload/proto.h"

/* Like assert(), but never compiled out: NDEBUG must not blind the fuzzer. */
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* Units per read in the stream model: small, so that reads split units. */
#define MODEL_CHUNK	(3 * CHAT_MSG_SIZE)
#define MAX_GOAL	16
#define MAX_CHUNKS	32

/* The fuzzer's bytes, consumed front to back; past the end reads as 0. */
struct cursor {
	const uint8_t *p;
	size_t n;
};

static uint8_t take_u8(struct cursor *c)
{
	uint8_t v;

	if (!c->n)
		return 0;
	v = *c->p++;
	c->n--;
	return v;
}

static uint32_t take_u32(struct cursor *c)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)take_u8(c) << (8 * i);
	return v;
}

static uint64_t take_u64(struct cursor *c)
{
	uint64_t lo = take_u32(c);

	return lo | (uint64_t)take_u32(c) << 32;
}

static void take_bytes(struct cursor *c, uint8_t *dst, size_t len)
{
	size_t n = len < c->n ? len : c->n;

	memcpy(dst, c->p, n);
	memset(dst + n, 0, len - n);
	c->p += n;
	c->n -= n;
}

/*
 * Mirror of server.c refuse(): the byte 0x15, then the reason cut to
 * CHAT_REASON_MAX bytes, no terminator.  Kept here because refuse() owns a
 * socket; see the report that asks for it to move into proto.c.
 */
static size_t refusal_frame(const char *why, uint8_t *msg)
{
	size_t n = strnlen(why, CHAT_REASON_MAX);

	msg[0] = CHAT_CTL_REFUSE;
	memcpy(msg + 1, why, n);
	return n + 1;
}

enum ctl_kind { CTL_CLOSED, CTL_READY, CTL_REFUSED, CTL_BAD };

/*
 * Mirror of client.c control_spoke() on what the control connection
 * delivered: the first byte decides, a refusal's reason is read up to
 * CHAT_REASON_MAX bytes and terminated.
 */
static enum ctl_kind control_parse(const uint8_t *in, size_t n,
				   char reason[CHAT_REASON_MAX + 1])
{
	size_t r;

	reason[0] = '\0';
	if (!n)
		return CTL_CLOSED;
	if (in[0] == CHAT_CTL_READY)
		return CTL_READY;
	if (in[0] != CHAT_CTL_REFUSE)
		return CTL_BAD;
	r = n - 1 < CHAT_REASON_MAX ? n - 1 : CHAT_REASON_MAX;
	memcpy(reason, in + 1, r);
	reason[r] = '\0';
	return CTL_REFUSED;
}

/* A reason a refusal carries must reach the client whole and printable. */
static void check_reason(const char *why)
{
	uint8_t msg[1 + CHAT_REASON_MAX];
	char back[CHAT_REASON_MAX + 1];
	size_t len = strlen(why), i;

	CHECK(len > 0);
	CHECK(len < CHAT_REASON_MAX);
	for (i = 0; i < len; i++)
		CHECK(why[i] >= 0x20 && why[i] < 0x7f);
	CHECK(control_parse(msg, refusal_frame(why, msg), back) ==
	      CTL_REFUSED);
	CHECK(!strcmp(back, why));
}

static void fuzz_start(struct cursor *c)
{
	uint8_t start[CHAT_START_MAX_LEN], again[CHAT_START_MAX_LEN];
	struct chat_caps caps;
	struct chat_start st, back;
	char full[256], *why;
	size_t ext, why_len, len;
	int rc;

	/* The ranges chat_s accepts for --max-rooms and --max-messages. */
	caps.max_rooms = (int32_t)(1 + take_u32(c) % 100000);
	caps.max_messages = (int32_t)(1 + take_u32(c) % 1000000000);
	why_len = take_u8(c);
	take_bytes(c, start, sizeof(start));

	ext = proto_decode_start(start, &st);
	CHECK(ext == 0 || ext == CHAT_START_EXT_LEN);
	if (ext)
		proto_decode_start_ext(start + CHAT_START_LEN, &st);
	else
		CHECK(st.users == CHAT_USERS_PER_ROOM);

	rc = proto_check_start(&st, &caps, full, sizeof(full));
	if (rc) {
		check_reason(full);
	} else {
		CHECK(st.rooms >= 1 && st.rooms <= caps.max_rooms);
		CHECK(st.messages >= 1 && st.messages <= caps.max_messages);
		CHECK(st.users >= CHAT_MIN_USERS && st.users <= CHAT_MAX_USERS);
		/*
		 * server.c sizes the run in unsigned int and asks for
		 * nconn + 32 descriptors and 2 * nconn threads: no wrap.
		 */
		CHECK((uint64_t)st.rooms * (uint64_t)st.users * 2 + 32 <
		      UINT32_MAX);
		/* What an accepted start says, the encoder says back. */
		len = proto_encode_start(&st, again);
		CHECK(len == (st.users == CHAT_USERS_PER_ROOM ?
			      CHAT_START_LEN : CHAT_START_MAX_LEN));
		CHECK(proto_decode_start(again, &back) == len - CHAT_START_LEN);
		if (len > CHAT_START_LEN)
			proto_decode_start_ext(again + CHAT_START_LEN, &back);
		CHECK(back.rooms == st.rooms && back.messages == st.messages &&
		      back.users == st.users);
		/* An original 8-byte start stays byte-identical. */
		if (!ext)
			CHECK(!memcmp(again, start, CHAT_START_LEN));
	}

	/* A short buffer truncates the reason but never overruns it. */
	why = malloc(why_len ? why_len : 1);
	if (!why)
		return;
	CHECK(proto_check_start(&st, &caps, why, why_len) == rc);
	if (rc && why_len) {
		CHECK(strlen(why) < why_len);
		CHECK(!strncmp(why, full, why_len - 1));
	}
	free(why);
}

/* The client's reading of whatever bytes a server puts on control. */
static void fuzz_control(struct cursor *c)
{
	uint8_t in[CHAT_REASON_MAX + 64];
	char reason[CHAT_REASON_MAX + 1];
	size_t n = take_u8(c) % (sizeof(in) + 1);
	enum ctl_kind k;

	take_bytes(c, in, n);
	k = control_parse(in, n, reason);
	CHECK(strlen(reason) <= CHAT_REASON_MAX);
	if (k != CTL_REFUSED)
		CHECK(!reason[0]);
	if (k == CTL_READY)
		CHECK(in[0] == CHAT_CTL_READY);
	/* The server's end of run: anything but 0x22 is an error. */
	if (n && in[0] == CHAT_CTL_DONE)
		CHECK(k == CTL_BAD);
}

/* A unit that carries a valid stamp is one the sender could have made. */
static void check_unit(const uint8_t unit[CHAT_MSG_SIZE], uint64_t now)
{
	uint8_t copy[CHAT_MSG_SIZE];
	uint64_t ns, lat;
	uint32_t b;

	if (proto_read_stamp(unit, &ns))
		return;
	memcpy(copy, unit, sizeof(copy));
	proto_stamp(copy, ns);
	CHECK(!memcmp(copy, unit, sizeof(copy)));
	/* client.c drops stamps from the future, histograms the rest. */
	if (now < ns)
		return;
	lat = now - ns;
	b = cb_hist_bucket(lat);
	CHECK(b < CB_HIST_BUCKETS);
	CHECK(cb_hist_lo(b) <= lat);
	CHECK(b == CB_HIST_BUCKETS - 1 || lat < cb_hist_hi(b));
}

/*
 * srv_evloop.c conn_read() on one connection: each read asks for at most
 * MODEL_CHUNK bytes and never past the last unit of the run, lands after
 * the carried partial unit, completes units with proto_feed_units() and
 * carries the remainder.  The fuzzer picks the run length, the sizes the
 * kernel hands out (0 = EAGAIN) and the bytes; every completed unit must be
 * exactly the bytes the peer sent, in order, and none past the goal.
 */
static void fuzz_stream(struct cursor *c)
{
	uint8_t buf[CHAT_MSG_SIZE + MODEL_CHUNK], part[CHAT_MSG_SIZE];
	uint8_t sizes[MAX_CHUNKS];
	uint64_t goal, rx = 0, now, u, units;
	struct unit_acc acc = { 0 }, tx = { 0 };
	size_t nsizes, i, got = 0, stalls = 0, sent = 0;
	const uint8_t *stream;
	size_t stream_len;

	goal = 1 + take_u8(c) % MAX_GOAL;
	nsizes = take_u8(c) % (MAX_CHUNKS + 1);
	take_bytes(c, sizes, nsizes);
	now = take_u64(c);
	stream = c->p;
	stream_len = c->n;

	for (i = 0; got < stream_len && rx < goal; i++) {
		size_t want, n, off = acc.off;

		want = (size_t)((goal - rx) * CHAT_MSG_SIZE - off);
		if (want > MODEL_CHUNK)
			want = MODEL_CHUNK;
		CHECK(want > 0);
		n = nsizes ? (size_t)sizes[i % nsizes] * 3 : want;
		if (!n) {
			/* EAGAIN: a loop that only ever stalls is done. */
			if (++stalls >= nsizes)
				break;
			continue;
		}
		stalls = 0;
		if (n > want)
			n = want;
		if (n > stream_len - got)
			n = stream_len - got;
		memcpy(buf, part, off);
		memcpy(buf + off, stream + got, n);
		got += n;
		units = proto_feed_units(&acc, n);
		CHECK(acc.off < CHAT_MSG_SIZE);
		for (u = 0; u < units; u++) {
			CHECK(!memcmp(buf + u * CHAT_MSG_SIZE,
				      stream + (rx + u) * CHAT_MSG_SIZE,
				      CHAT_MSG_SIZE));
			check_unit(buf + u * CHAT_MSG_SIZE, now);
		}
		rx += units;
		memcpy(part, buf + units * CHAT_MSG_SIZE, acc.off);
		CHECK(rx * CHAT_MSG_SIZE + acc.off == got);
		CHECK(rx <= goal);
	}

	/* The send side: partial sends add up to whole units only. */
	units = 0;
	for (i = 0; i < nsizes; i++) {
		units += proto_feed_units(&tx, sizes[i]);
		sent += sizes[i];
		CHECK(units == sent / CHAT_MSG_SIZE);
		CHECK(tx.off == sent % CHAT_MSG_SIZE);
	}
}

/* Any count a read can return (up to SSIZE_MAX) is accounted exactly. */
static void fuzz_feed_big(struct cursor *c)
{
	struct unit_acc acc = { .off = take_u8(c) % CHAT_MSG_SIZE };
	uint64_t n = take_u64(c) >> 1;
	unsigned __int128 total = (unsigned __int128)acc.off + n;
	uint64_t units = proto_feed_units(&acc, (size_t)n);

	CHECK(units == (uint64_t)(total / CHAT_MSG_SIZE));
	CHECK(acc.off == (uint32_t)(total % CHAT_MSG_SIZE));
}

/* A stamp written for any time reads back as that time. */
static void fuzz_stamp(struct cursor *c)
{
	uint8_t unit[CHAT_MSG_SIZE];
	uint64_t ns = take_u64(c), back = 0;

	take_bytes(c, unit, sizeof(unit));
	check_unit(unit, take_u64(c));
	proto_stamp(unit, ns);
	CHECK(!proto_read_stamp(unit, &back));
	CHECK(back == ns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cursor c = { data, size };

	/*
	 * Fixed order, fixed sizes up front: a seed's layout stays valid
	 * and the fuzzer's mutations of the stream do not shift the start
	 * message.  The stream takes whatever is left.
	 */
	fuzz_start(&c);
	fuzz_control(&c);
	fuzz_feed_big(&c);
	fuzz_stamp(&c);
	fuzz_stream(&c);
	return 0;
}
