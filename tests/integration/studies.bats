#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Studies as one command: load sweeps (and, with their own suites, server
# models, placement and kernel comparison).

load helpers

setup() {
	start_server
}

teardown() {
	stop_server
}

@test "a sweep of 3 points gives 3 rows with throughput and latency" {
	f="$BATS_TEST_TMPDIR/s.json"
	run "$CHAT_C" -q --no-trace -r 2 --sweep rooms=1,2,3 -j "$f" \
		127.0.0.1 1 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Sweep of rooms: 20 messages 20 users per room"
	rows=$(echo "$output" | awk '/^ +rooms runs/ { t = 1; next } t && NF >= 6')
	[ "$(echo "$rows" | wc -l)" -eq 3 ]
	echo "$rows" | awk '{ if ($1 != NR || $2 != 2 || $3 <= 0) exit 1 }'
	# One summary per point, runs tagged with their point.
	[ "$(jq -s 'map(select(.summary)) | length' "$f")" -eq 3 ]
	jq -se 'map(select(.summary)) | map(.summary.sweep.value) == [1, 2, 3]' "$f"
	jq -se 'map(select(.run)) | length == 6 and
		all(.[]; .sweep.param == "rooms" and .rooms == .sweep.value and
		    .latency.count > 0 and (.latency.buckets | length) > 0 and
		    .messages_sent == .rooms * 20 * 20)' "$f"
}

@test "sweeps of messages and users" {
	run "$CHAT_C" -q --no-trace --sweep messages=5,10 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages sent      : 100"
	echo "$output" | grep -qx "Messages sent      : 200"
	run "$CHAT_C" -q --no-trace --sweep users=2,4 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages received  : 40"
	echo "$output" | grep -qx "Messages received  : 240"
}

@test "bad --sweep values are refused with one line" {
	run "$CHAT_C" --sweep rooms 127.0.0.1
	[ "$status" -eq 2 ]
	run "$CHAT_C" --sweep cows=1,2 127.0.0.1
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown parameter 'cows'"* ]]
	run "$CHAT_C" --sweep users=1 127.0.0.1
	[ "$status" -eq 2 ]
}
