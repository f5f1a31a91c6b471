#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The benchmark on loopback: exact counts, the original's output lines,
# repeated runs, JSON results.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	start_server
}

teardown() {
	stop_server
}

@test "exact message counts for several rooms x messages" {
	for rm in "1 1" "1 7" "2 10" "3 37" "10 100"; do
		set -- $rm
		assert_normal_run "$1" "$2"
	done
}

@test "the original's result lines, in order, with correct totals" {
	run "$CHAT_C" --no-trace 127.0.0.1 2 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Creating room number 1 ..." ]
	[ "${lines[1]}" = "20 connections so far." ]
	[ "${lines[3]}" = "40 connections so far." ]
	echo "$output" | grep -qx "Running the test ..."
	echo "$output" | grep -qx "Test complete."
	echo "$output" | grep -qx "Simulator version  : 1.0.1"
	echo "$output" | grep -qx "Total messages     : 4000"
	echo "$output" | grep -Eqx "Elapsed time       : [0-9]+\.[0-9]{3} seconds"
	echo "$output" | grep -Eqx "Average throughput : [0-9]+ messages per second"
}

@test "seed scripts: grep Average | awk '{print \$4}' gives a positive integer" {
	n=$("$CHAT_C" --no-trace 127.0.0.1 2 20 "$SRV_PORT" | grep Average | awk '{print $4}')
	[[ "$n" =~ ^[0-9]+$ ]]
	[ "$n" -gt 0 ]
	m=$("$CHAT_C" --no-trace 127.0.0.1 2 20 "$SRV_PORT" | grep Average | cut -d" " -f4)
	[ "$m" -gt 0 ]
}

@test "throughput is total messages over elapsed time, in 64 bits" {
	run "$CHAT_C" -q --no-trace 127.0.0.1 2 50 "$SRV_PORT"
	[ "$status" -eq 0 ]
	total=$(echo "$output" | awk '/^Total messages/ {print $4}')
	el=$(echo "$output" | awk '/^Elapsed time/ {print $4}')
	tp=$(echo "$output" | awk '/^Average throughput/ {print $4}')
	# The printed elapsed time is rounded to 1 ms: allow for that.
	awk -v t="$total" -v e="$el" -v p="$tp" \
		'BEGIN { r = t / e; exit !(p > r * 0.9 && p < r * 1.1 + 1000) }'
}

@test "--runs prints each run and a summary" {
	run "$CHAT_C" -q --no-trace --runs 3 127.0.0.1 1 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^Average throughput')" -eq 3 ]
	echo "$output" | grep -q "^Summary            : 3 of 3 runs completed, 1 rooms x 20 messages"
	echo "$output" | grep -Eq "^Throughput median  : [0-9]+"
	echo "$output" | grep -Eq "^Relative spread    : [0-9.]+ %"
}

@test "--json writes one parseable object per run and a summary" {
	f="$BATS_TEST_TMPDIR/r.json"
	run "$CHAT_C" -q --no-trace -r 2 -j "$f" 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$f")" -eq 3 ]
	jq -se 'map(select(.run)) | length == 2 and all(.[];
		.schema_version == 5 and .rooms == 2 and .messages == 10 and
		.users_per_room == 20 and .message_size == 100 and
		.messages_sent == 400 and .messages_received == 7600 and
		.elapsed_s > 0 and .throughput > 0)' "$f"
	tail -n 1 "$f" | jq -e '.summary | .runs == 2 and .avg > 0 and
		.min <= .median and .median <= .max and
		(.kernel_release | length > 0) and .cpus >= 1 and
		(.command_line | test("-j"))'
}

@test "--json - puts JSON on stdout and the text on stderr" {
	run --separate-stderr "$CHAT_C" -q --no-trace -j - 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e . >/dev/null
	echo "$stderr" | grep -q "^Average throughput"
}

@test "--local runs without a hand-started server" {
	run "$CHAT_C" --local -q --no-trace 2 10
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages received  : 7600"
}

@test "threads are named by role" {
	# Messages enough that no worker can be done before the freeze, at
	# 10 a second per user: a closed-loop run's busy threads would
	# starve this shell's polls of CPU (8 s to see the threads).
	"$CHAT_C" -q --no-trace --rate 10 127.0.0.1 2 100000 "$SRV_PORT" \
		>/dev/null &
	cpid=$!
	wait_threads $cpid cli_snd 40
	wait_threads $cpid cli_rcv 40
	wait_threads $SRV_PID srv_snd 40
	wait_threads $SRV_PID srv_rcv 40
	# Frozen mid-run, every worker of both sides is alive.
	kill -STOP $cpid
	names=$(cat /proc/$cpid/task/*/comm /proc/$SRV_PID/task/*/comm \
		2>/dev/null | sort | uniq -c)
	kill -KILL $cpid
	wait $cpid || true
	echo "$names"
	for role in cli_snd cli_rcv srv_rcv srv_snd; do
		echo "$names" | grep -Eq "^ +40 $role\$"
	done
}

@test "100 rooms (2,000 connections, 4,000 threads a side) run" {
	run "$CHAT_C" -q --no-trace 127.0.0.1 100 3 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages received  : 114000"
}

@test "every message carries its send time: latency of each one is recorded" {
	f="$BATS_TEST_TMPDIR/r.json"
	run "$CHAT_C" -q --no-trace -j "$f" 127.0.0.1 2 25 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -Eq "^Message latency    : p50 [0-9.]+[mun]?s, p99 "
	head -n 1 "$f" | jq -e '.latency | .count == 19000 and .unstamped == 0 and
		.p50_ns > 0 and .p50_ns <= .p99_ns and .p99_ns <= .max_ns and
		([.buckets[].count] | add) == 19000'
}

@test "under load no stamp is lost: the slowest messages are measured too" {
	# Server receivers run thousands of units ahead of their senders
	# here; a stamp lost on the way would be a slow message's.
	f="$BATS_TEST_TMPDIR/r.json"
	run "$CHAT_C" -q --no-trace -j "$f" 127.0.0.1 10 600 "$SRV_PORT"
	[ "$status" -eq 0 ]
	head -n 1 "$f" | jq -e '.latency | .count == 2280000 and .unstamped == 0'
}

@test "--users: other room sizes through the start extension, exact counts" {
	run "$CHAT_C" -q --no-trace --users 5 127.0.0.1 3 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages sent      : 150"
	echo "$output" | grep -qx "Messages received  : 600"
	assert_normal_run
}

@test "progress line on a terminal only; piped output stays the original's" {
	command -v script >/dev/null || skip "script(1) not installed"
	# 300,000 messages: a run of 2-3 s under script(1) here (1 s on a
	# pipe), past the half second before the first draw.
	script -q -c "$CHAT_C -q --no-trace 127.0.0.1 5 150 $SRV_PORT" /dev/null \
		>"$BATS_TEST_TMPDIR/tty"
	grep -aq "run 1 of 1: [0-9]* of 300000 messages" "$BATS_TEST_TMPDIR/tty"
	"$CHAT_C" -q --no-trace 127.0.0.1 5 150 "$SRV_PORT" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
	! grep -aq "messages (" "$BATS_TEST_TMPDIR/err"
	! grep -aq $'\r' "$BATS_TEST_TMPDIR/out"
}
