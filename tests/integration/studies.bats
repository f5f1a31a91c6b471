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
	echo "$output" | grep -q "^Sweep of rooms: 20 messages, 20 users per room$"
	echo "$output" | awk 'length > 99 { print; bad = 1 } END { exit bad }'
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
	echo "$output" | grep -qx "Sweep of messages: 1 rooms, 20 users per room"
	run "$CHAT_C" -q --no-trace --sweep users=2,4 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages received  : 40"
	echo "$output" | grep -qx "Messages received  : 240"
	echo "$output" | grep -qx "Sweep of users: 2 rooms, 10 messages"
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

# Cpus_allowed_list of every thread of $1 named $2, one per line.
allowed_of() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] || continue
		awk '/^Cpus_allowed_list/ { print $2 }' "$t/status"
	done
}

@test "--cpus confines and --pin spreads the client's threads" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	# Open loop, 10 messages a second per user: the threads live and
	# sleep, so this shell's polls are not starved of CPU by them.
	"$CHAT_C" -q --no-trace --rate 10 --cpus 1 127.0.0.1 2 100000 \
		"$SRV_PORT" >/dev/null &
	cpid=$!
	# Each thread names itself as it starts: wait for all 80 names.
	wait_threads $cpid cli_snd 40
	wait_threads $cpid cli_rcv 40
	kill -STOP $cpid
	a=$(allowed_of $cpid cli_snd; allowed_of $cpid cli_rcv)
	kill -KILL $cpid
	wait $cpid || true
	[ "$(echo "$a" | wc -l)" -eq 80 ]
	[ "$(echo "$a" | sort -u)" = "1" ]

	"$CHAT_C" -q --no-trace --rate 10 --cpus 0-1 --pin 127.0.0.1 2 100000 \
		"$SRV_PORT" >/dev/null &
	cpid=$!
	# Each thread names itself as it starts: wait for all 80 names.
	wait_threads $cpid cli_snd 40
	wait_threads $cpid cli_rcv 40
	kill -STOP $cpid
	a=$(allowed_of $cpid cli_snd; allowed_of $cpid cli_rcv)
	kill -KILL $cpid
	wait $cpid || true
	[ "$(echo "$a" | wc -l)" -eq 80 ]
	[ "$(echo "$a" | sort -u | tr '\n' ' ')" = "0 1 " ]
}

@test "the report says which model and placement the server has" {
	f="$BATS_TEST_TMPDIR/m.json"
	run "$CHAT_C" --local --no-trace --model epoll --server-cpus 0 \
		--cpus 0 -j "$f" 2 10
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Placement          : client cpus 0; server model epoll, cpus 0"
	echo "$output" | grep -qx "Messages received  : 7600"
	tail -n 1 "$f" | jq -e '.summary.placement.server.model == "epoll" and
		.summary.placement.client.cpus == "0"'
	# The hand-started server of this suite runs the default model.
	run "$CHAT_C" --no-trace 127.0.0.1 1 1 "$SRV_PORT"
	echo "$output" | grep -q "server model threads"
	run "$CHAT_C" --no-trace --model epoll 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 2 ]
}

# Autogroups (one per session): a client started in a session of its own
# shares the CPUs with the server group against group; chat_c says so
# once, and the JSON keeps both groups.
@test "a server in another session's autogroup is noted once and kept in the JSON" {
	[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] ||
		skip "autogroups are off"
	f="$BATS_TEST_TMPDIR/a.json"
	run "$CHAT_C" -q --no-trace -j "$f" 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "autogroup"
	jq -se 'last | .summary.placement | .client.autogroup ==
		.server.autogroup and (.server.autogroup | startswith("/"))' "$f"
	run setsid -w "$CHAT_C" -q --no-trace -j "$f" 127.0.0.1 1 5 "$SRV_PORT" </dev/null
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c "^chat_c: note: chat_s (pid $SRV_PID) is in scheduler autogroup")" -eq 1 ]
	jq -se 'last | .summary.placement | .client.autogroup !=
		.server.autogroup' "$f"
}
