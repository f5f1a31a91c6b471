// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the wire protocol: encoding, validation, unit framing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "workload/proto.h"

static const struct chat_caps caps = { .max_rooms = 1000,
				       .max_messages = 10000000 };

/* The bytes the original client sent for 1 room, 2 messages. */
static void test_start_bytes_match_original(void **state)
{
	const uint8_t want[] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	struct chat_start s = { 1, 2, 20 };
	uint8_t buf[CHAT_START_MAX_LEN];

	(void)state;
	assert_int_equal(proto_encode_start(&s, buf), 8);
	assert_memory_equal(buf, want, sizeof(want));
}

static void test_start_round_trip(void **state)
{
	struct chat_start in = { 30, 1000, 20 }, out;
	uint8_t buf[CHAT_START_MAX_LEN];

	(void)state;
	proto_encode_start(&in, buf);
	assert_int_equal(proto_decode_start(buf, &out), 0);
	assert_int_equal(out.rooms, 30);
	assert_int_equal(out.messages, 1000);
	assert_int_equal(out.users, 20);
}

/* Other room sizes travel in an 8-byte extension; 20 never does. */
static void test_start_users_extension(void **state)
{
	struct chat_start in = { 3, 50, 5 }, out;
	uint8_t buf[CHAT_START_MAX_LEN];
	char why[128];

	(void)state;
	assert_int_equal(proto_encode_start(&in, buf), 16);
	assert_int_equal(buf[3], 0x40);
	assert_int_equal(proto_decode_start(buf, &out), CHAT_START_EXT_LEN);
	proto_decode_start_ext(buf + CHAT_START_LEN, &out);
	assert_int_equal(out.rooms, 3);
	assert_int_equal(out.messages, 50);
	assert_int_equal(out.users, 5);
	assert_int_equal(proto_check_start(&out, &caps, why, sizeof(why)), 0);
	buf[12] = 1; /* reserved word */
	proto_decode_start_ext(buf + CHAT_START_LEN, &out);
	assert_int_equal(proto_check_start(&out, &caps, why, sizeof(why)), -1);
	/* A huge count with bit 30 set is a count, not an extension. */
	memcpy(buf, "\xff\xff\xff\x7f", 4);
	assert_int_equal(proto_decode_start(buf, &out), 0);
	assert_int_equal(out.rooms, INT32_MAX);
	in.users = 1;
	proto_encode_start(&in, buf);
	proto_decode_start(buf, &out);
	proto_decode_start_ext(buf + CHAT_START_LEN, &out);
	assert_int_equal(proto_check_start(&out, &caps, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "users per room = 1"));
	/* Big rooms count against --max-rooms as connections. */
	in.rooms = 500;
	in.users = 41;
	assert_int_equal(proto_check_start(&in, &caps, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cap of 20000 connections"));
	in.users = 40;
	assert_int_equal(proto_check_start(&in, &caps, why, sizeof(why)), 0);
}

static void test_start_negative_from_wire(void **state)
{
	const uint8_t buf[] = { 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80 };
	struct chat_start s;
	char why[128];

	(void)state;
	proto_decode_start(buf, &s);
	assert_int_equal(s.rooms, -1);
	assert_int_equal(s.messages, INT32_MIN);
	assert_int_equal(proto_check_start(&s, &caps, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "rooms = -1"));
}

static void test_check_start(void **state)
{
	struct chat_start ok = { 10, 100, 20 }, zero_r = { 0, 1, 20 },
			  zero_m = { 1, 0, 20 }, big_r = { 1001, 1, 20 },
			  big_m = { 1, 10000001, 20 },
			  edge = { 1000, 10000000, 20 };
	char why[128];

	(void)state;
	assert_int_equal(proto_check_start(&ok, &caps, why, sizeof(why)), 0);
	assert_int_equal(proto_check_start(&edge, &caps, why, sizeof(why)), 0);
	assert_int_equal(proto_check_start(&zero_r, &caps, why, sizeof(why)),
			 -1);
	assert_int_equal(proto_check_start(&zero_m, &caps, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "messages = 0"));
	assert_int_equal(proto_check_start(&big_r, &caps, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "cap of 1000"));
	assert_int_equal(proto_check_start(&big_m, &caps, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "--max-messages"));
}

static void test_feed_units(void **state)
{
	struct unit_acc acc = { 0 };

	(void)state;
	assert_int_equal(proto_feed_units(&acc, 99), 0);
	assert_int_equal(proto_feed_units(&acc, 1), 1);
	assert_int_equal(proto_feed_units(&acc, 250), 2);
	assert_int_equal(acc.off, 50);
	assert_int_equal(proto_feed_units(&acc, 50), 1);
	assert_int_equal(acc.off, 0);
	assert_int_equal(proto_feed_units(&acc, 0), 0);
}

static void test_notice(void **state)
{
	char buf[160];

	(void)state;
	assert_int_equal(proto_notice(0, 3), 3);
	assert_int_equal(proto_notice(1, 2), CHAT_NOTICE_CLIENTS | 2);
	/* Never 0 (no notice), never past 127. */
	assert_int_equal(proto_notice(0, 0), 1);
	assert_int_equal(proto_notice(0, 100000), CHAT_NOTICE_MAX);
	proto_notice_text(3, buf, sizeof(buf));
	assert_string_equal(buf,
			    "the server is busy: this run waits behind 3 runs (chat_s --max-runs)");
	proto_notice_text(proto_notice(0, 1), buf, sizeof(buf));
	assert_non_null(strstr(buf, "behind 1 run ("));
	proto_notice_text(proto_notice(1, 1), buf, sizeof(buf));
	assert_string_equal(buf,
			    "the server holds the run until 1 more client connect (chat_s --clients)");
	proto_notice_text(CHAT_NOTICE_MAX, buf, sizeof(buf));
	assert_non_null(strstr(buf, "127 or more runs"));
}

static void test_stamp_round_trip(void **state)
{
	uint8_t unit[CHAT_MSG_SIZE];
	uint64_t ns = 0;

	(void)state;
	memset(unit, 7, sizeof(unit));
	proto_stamp(unit, 123456789012345ull);
	assert_int_equal(proto_read_stamp(unit, &ns), 0);
	assert_int_equal(ns, 123456789012345ull);
}

static void test_stamp_rejects_garbage(void **state)
{
	uint8_t unit[CHAT_MSG_SIZE];
	uint64_t ns;

	(void)state;
	/* What the original client sends: its thread index everywhere. */
	memset(unit, 3, sizeof(unit));
	assert_int_equal(proto_read_stamp(unit, &ns), -1);
	proto_stamp(unit, 42);
	unit[6] ^= 1; /* a torn or interleaved unit */
	assert_int_equal(proto_read_stamp(unit, &ns), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_bytes_match_original),
		cmocka_unit_test(test_start_round_trip),
		cmocka_unit_test(test_start_users_extension),
		cmocka_unit_test(test_start_negative_from_wire),
		cmocka_unit_test(test_check_start),
		cmocka_unit_test(test_feed_units),
		cmocka_unit_test(test_notice),
		cmocka_unit_test(test_stamp_round_trip),
		cmocka_unit_test(test_stamp_rejects_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
