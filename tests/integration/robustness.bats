#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Bad input and faults: each gets a clear error, nothing hangs, and the
# server then serves a normal run with exact counts.

load helpers

setup() {
	start_server --timeout 2 --max-rooms 50
}

teardown() {
	stop_server
}

@test "garbage start message is refused, server serves the next run" {
	send_raw '\xde\xad\xbe\xef\xff\xff\xff\xff'
	assert_normal_run
	grep -q "refused run" "$SRV_LOG"
}

@test "short start message then close" {
	send_raw '\x01\x00\x00'
	assert_normal_run
	grep -q "closed after 3 of 8 bytes" "$SRV_LOG"
}

@test "half a start message then a stall is timed out" {
	# The timeout is of inactivity: 2 s to the 4 bytes, 2 s more to none.
	send_raw '\x01\x00\x00\x00' 5
	assert_normal_run
	grep -q "timed out after 4 of 8 bytes" "$SRV_LOG"
}

@test "a client that connects and sends nothing" {
	send_raw '' 3
	assert_normal_run
}

@test "port scanner: connect and close, many times" {
	for i in $(seq 20); do send_raw ''; done
	assert_normal_run
}

@test "zero, negative and huge counts are refused with the reason" {
	send_raw '\x00\x00\x00\x00\x01\x00\x00\x00'
	send_raw '\x01\x00\x00\x00\xff\xff\xff\xff'
	send_raw '\xff\xff\xff\x7f\x01\x00\x00\x00'
	assert_normal_run
	grep -q "rooms = 0" "$SRV_LOG"
	grep -q "messages = -1" "$SRV_LOG"
	grep -q "rooms = 2147483647 above the cap of 50" "$SRV_LOG"
}

@test "the client shows the server's refusal and exits non-zero" {
	run "$CHAT_C" -q --no-trace 127.0.0.1 51 1 "$SRV_PORT"
	[ "$status" -ne 0 ]
	[[ "$output" == *"refused the run: rooms = 51 above the cap of 50"* ]]
	assert_normal_run
}

@test "fewer data connections than announced: the run is aborted" {
	exec 5<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	printf '\x01\x00\x00\x00\x01\x00\x00\x00' >&5
	exec 6<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	sleep 3
	exec 6>&- 5>&-
	assert_normal_run
	grep -q "only 1 of 20 data connections arrived" "$SRV_LOG"
}

@test "client killed mid-run: the server survives" {
	"$CHAT_C" -q --no-trace 127.0.0.1 10 100000 "$SRV_PORT" >/dev/null 2>&1 &
	cpid=$!
	sleep 1
	kill -9 $cpid
	wait $cpid 2>/dev/null || true
	assert_normal_run
	grep -q "aborted" "$SRV_LOG"
}

@test "server killed mid-run: the client exits non-zero with a reason" {
	f="$BATS_TEST_TMPDIR/r.json"
	"$CHAT_C" -q --no-trace -r 50 -j "$f" 127.0.0.1 2 2000 "$SRV_PORT" \
		>"$BATS_TEST_TMPDIR/out" 2>&1 &
	cpid=$!
	sleep 1
	kill -9 "$SRV_PID"
	SRV_PID=
	wait $cpid && st=0 || st=$?
	[ "$st" -eq 1 ]
	grep -q "failed" "$BATS_TEST_TMPDIR/out"
	# The runs measured before are kept, the failed one says why.
	jq -se 'map(select(.run and .ok == false)) | length == 1 and
		(.[0].error | length > 0)' "$f"
	tail -n 1 "$f" | jq -e '.summary'
}

@test "no server: a clear error, quickly" {
	stop_server
	run timeout 10 "$CHAT_C" -q --no-trace 127.0.0.1 1 1 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"Connection refused (is chat_s running?)"* ]]
}

@test "unwritable JSON path fails before the first run" {
	run "$CHAT_C" -q --no-trace -j /nonexistent/dir/r.json 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot write JSON to /nonexistent/dir/r.json"* ]]
	[[ "$output" != *"Average"* ]]
}

@test "bad arguments: one line and status 2" {
	run "$CHAT_C" 127.0.0.1 ten
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$CHAT_S" --timeout 0 127.0.0.1
	[ "$status" -eq 2 ]
	run "$CHAT_S" 127.0.0.1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Address already in use"* ]]
}

@test "a server restarted on the port of a finished run binds at once" {
	assert_normal_run
	port=$SRV_PORT
	# A refused run: the server closes first, so its side is in TIME_WAIT.
	exec 5<>"/dev/tcp/127.0.0.1/$port"
	printf '\xde\xad\xbe\xef\xff\xff\xff\xff' >&5
	timeout 5 cat <&5 >/dev/null
	exec 5>&-
	ss -Htan state time-wait "( sport = :$port )" | grep -q .
	stop_server
	"$CHAT_S" 127.0.0.1 "$port" >"$BATS_TEST_TMPDIR/s2.log" 2>&1 &
	SRV_PID=$!
	for _ in $(seq 50); do
		ss -Hltn "( sport = :$port )" | grep -q . && break
		kill -0 "$SRV_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$SRV_PID" || { cat "$BATS_TEST_TMPDIR/s2.log"; false; }
	assert_normal_run
}

@test "SIGINT ends the current run and keeps the summary" {
	f="$BATS_TEST_TMPDIR/r.json"
	log="$BATS_TEST_TMPDIR/c.log"
	"$CHAT_C" -q --no-trace -r 1000 -j "$f" 127.0.0.1 2 200 "$SRV_PORT" \
		>"$log" 2>&1 &
	cpid=$!
	# After the first run is in the file, not after a fixed time: a
	# loaded machine may take longer than any guess for one run.
	for i in $(seq 300); do
		[ -s "$f" ] && break
		sleep 0.1
	done
	[ -s "$f" ]
	kill -INT $cpid
	wait $cpid && st=0 || st=$?
	# On failure bats shows what the client said (a sanitizer report).
	[ "$st" -eq 130 ] || { echo "status $st"; tail -n 40 "$log"; false; }
	tail -n 1 "$f" | jq -e '.summary.interrupted == true and .summary.runs >= 1'
	assert_normal_run
}
