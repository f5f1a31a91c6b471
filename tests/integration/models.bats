#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The server's data-plane models (--model threads, epoll, pool=N): the
# same exact counts and the same robustness in every model, thread names,
# and the CPU placement of the server's threads (--cpus, --pin).

load helpers

teardown() {
	[ -n "${CLI_PID:-}" ] && kill -KILL "$CLI_PID" 2>/dev/null
	stop_server
}

# The client's and the server's own counts, for several sizes.
assert_counts() {
	local rm
	for rm in "1 1" "2 10" "3 37" "10 100"; do
		set -- $rm
		assert_normal_run "$1" "$2"
		grep -qx "SRV: $(($1 * 20 * $2)) messages received, $(($1 * 380 * $2)) messages sent" "$SRV_LOG"
	done
}

@test "threads: exact counts" {
	start_server --model threads
	assert_counts
}

@test "epoll: exact counts" {
	start_server --model epoll
	assert_counts
}

@test "pool=2: exact counts" {
	start_server --model pool=2
	assert_counts
}

@test "pool=3: exact counts (rooms not a multiple of the loops)" {
	start_server --model pool=3
	assert_counts
}

@test "pool without N: one loop per online CPU, exact counts" {
	start_server --model pool
	assert_normal_run 10 20
}

@test "event loops: other room sizes (--users), exact counts" {
	for m in epoll pool=2; do
		start_server --model $m
		for urm in "2 1 1" "5 3 10" "50 2 10"; do
			set -- $urm
			run "$CHAT_C" -q --no-trace --users $1 127.0.0.1 $2 $3 "$SRV_PORT"
			[ "$status" -eq 0 ]
			echo "$output" | grep -qx "Messages sent      : $(($1 * $2 * $3))"
			echo "$output" | grep -qx "Messages received  : $(($1 * $2 * $3 * ($1 - 1)))"
		done
		stop_server
	done
}

@test "event loops: 100 rooms (2,000 connections) run" {
	for m in epoll pool=2; do
		start_server --model $m
		assert_normal_run 100 3
		stop_server
	done
}

@test "event loops: a long run with full socket buffers forwards every unit whole" {
	# 3 rooms x 2,500 messages: 2.85 M units through 60 sockets, whose
	# buffers fill within the first milliseconds, so reads and writes
	# end mid-unit.  The client checks the stamp in the first 16 bytes
	# of each unit it receives: a unit torn or interleaved on the way
	# would be missing from the latency count.
	for m in epoll pool=2; do
		start_server --model $m
		assert_normal_run 3 2500
		echo "$output" | grep -Eq '^Message latency .*\(2850000 messages\)$'
		stop_server
	done
}

@test "the SRV: lines stay the original's in every model" {
	for m in epoll pool=2; do
		start_server --model $m
		assert_normal_run 2 5
		grep -qx "SRV: client connected, rooms = 2 messages = 5" "$SRV_LOG"
		stop_server
	done
}

@test "the model is in the server's command line, for the client to read" {
	start_server --model pool=2
	tr '\0' ' ' </proc/$SRV_PID/cmdline | grep -q -- "--model pool=2 "
}

# Runs a client in the background and freezes it mid-run, every worker of
# the server alive; sets CLI_PID.
frozen_run() {
	# Open loop at 10 messages a second per user: the threads exist and
	# sleep, where a closed-loop run would starve this shell's polls of
	# CPU (seconds per poll beside 80 busy threads a room).
	"$CHAT_C" -q --no-trace --rate 10 127.0.0.1 "$1" 100000 "$SRV_PORT" \
		>/dev/null 2>&1 &
	CLI_PID=$!
	# Every client thread exists only once the server has all its users.
	wait_threads $CLI_PID cli_rcv $(($1 * 20))
	sleep 0.2
	kill -STOP $CLI_PID
}

server_threads() {
	cat /proc/$SRV_PID/task/*/comm | sort | uniq -c
}

@test "event-loop threads are named srv_loop, at most one per room" {
	start_server --model epoll
	frozen_run 3
	server_threads | grep -Eq '^ +1 srv_loop$'
	kill -KILL $CLI_PID
	stop_server
	start_server --model pool=3
	frozen_run 10
	server_threads | grep -Eq '^ +3 srv_loop$'
	kill -KILL $CLI_PID
	stop_server
	start_server --model pool=3
	frozen_run 2
	server_threads | grep -Eq '^ +2 srv_loop$'
}

@test "event loops: client killed mid-run, the server survives" {
	for m in epoll pool=2; do
		start_server --timeout 2 --model $m
		"$CHAT_C" -q --no-trace 127.0.0.1 10 100000 "$SRV_PORT" >/dev/null 2>&1 &
		CLI_PID=$!
		sleep 1
		kill -KILL $CLI_PID
		wait $CLI_PID 2>/dev/null || true
		assert_normal_run
		grep -q "aborted" "$SRV_LOG"
		stop_server
	done
}

# One room whose 20 users send without ever reading: the server's output
# toward them fills, so the run must end on the timeout, not hang or grow.
stalled_readers() {
	local ctl fd i b pids=() fds=()

	exec {ctl}<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	printf '\x01\x00\x00\x00\xa0\x86\x01\x00' >&$ctl # 1 room, 100000 messages
	for i in $(seq 20); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$SRV_PORT"
		fds+=($fd)
	done
	read -r -N 1 -t 5 -u $ctl b
	[ "$b" = $'\x11' ]
	for fd in "${fds[@]}"; do
		head -c 10000000 /dev/zero >&$fd 2>/dev/null &
		pids+=($!)
	done
	# --timeout 1 or 2: seconds of no progress, then the abort.  The
	# server's peak memory meanwhile goes to STALL_RSS_KB.
	STALL_RSS_KB=0
	# Sampled before the check: on a loaded machine the abort may
	# already be in the log at the first look.
	for i in $(seq 100); do
		b=$(awk '/^VmRSS/ {print $2}' /proc/$SRV_PID/status)
		[ "$b" -gt "$STALL_RSS_KB" ] && STALL_RSS_KB=$b
		grep -q "aborted" "$SRV_LOG" && break
		sleep 0.1
	done
	kill "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
	for fd in "${fds[@]}" $ctl; do
		exec {fd}>&-
	done
	grep -q "aborted" "$SRV_LOG"
}

@test "stalled readers: the run fails on the timeout, the next one runs" {
	for m in threads epoll pool=2; do
		start_server --timeout 1 --model $m
		stalled_readers
		assert_normal_run
		stop_server
	done
}

@test "event loops: a stalled reader is named in the abort reason" {
	start_server --timeout 2 --model epoll
	stalled_readers
	grep -Eq "aborted: no progress for [0-9]+ ms: user [0-9]+ does not read" "$SRV_LOG"
	# Output buffers are bounded: 20 stalled users cost no 100s of MB.
	[ "$STALL_RSS_KB" -gt 0 ]
	[ "$STALL_RSS_KB" -lt 32768 ]
}

@test "event loops: a frozen client fails the run on the timeout" {
	for m in epoll pool=2; do
		start_server --timeout 1 --model $m
		frozen_run 2
		for i in $(seq 100); do
			grep -q "aborted" "$SRV_LOG" && break
			sleep 0.1
		done
		grep -q "aborted: no progress for" "$SRV_LOG"
		kill -KILL $CLI_PID
		wait $CLI_PID 2>/dev/null || true
		assert_normal_run
		stop_server
	done
}

# Cpus_allowed_list of every thread of the server, one per line.
allowed_lists() {
	local t
	# A thread may exit between the glob and the read: skip it.
	for t in /proc/$SRV_PID/task/*; do
		awk '/^Cpus_allowed_list/ {print $2}' "$t/status" \
			2>/dev/null || true
	done
}

@test "--cpus 0 confines every server thread, in every model" {
	for m in threads epoll pool=2; do
		start_server --model $m --cpus 0
		frozen_run 2
		lists=$(allowed_lists)
		kill -KILL $CLI_PID
		wait $CLI_PID 2>/dev/null || true
		[ "$(echo "$lists" | wc -l)" -ge 2 ]
		[ -z "$(echo "$lists" | grep -vx 0)" ]
		stop_server
	done
}

@test "--pin with --cpus 0-1: one CPU per thread, both CPUs used" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	for m in threads epoll pool=2; do
		start_server --model $m --cpus 0-1 --pin
		frozen_run 2
		lists=$(allowed_lists)
		kill -KILL $CLI_PID
		wait $CLI_PID 2>/dev/null || true
		[ -z "$(echo "$lists" | grep -vx '[01]')" ]
		echo "$lists" | grep -qx 0
		echo "$lists" | grep -qx 1
		stop_server
	done
}

@test "--pin alone spreads over the CPUs chat_s may use" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	start_server --model pool=2 --pin
	frozen_run 2
	lists=$(allowed_lists)
	[ -z "$(echo "$lists" | grep -v '^[0-9]*$')" ]
	[ "$(echo "$lists" | sort -u | wc -l)" -ge 2 ]
}

@test "bad --model or --cpus values: exit 2 with one line" {
	for args in "--model foo" "--model pool=0" "--model pool=x" \
		"--model=" "--cpus 3-1" "--cpus x" "--cpus ," "--cpus 4096" \
		"--cpus 1000"; do
		run "$CHAT_S" $args 127.0.0.1 0
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == "chat_s: --"* ]]
	done
	run "$CHAT_S" --cpus "" 127.0.0.1 0
	[ "$status" -eq 2 ]
	[ "$output" = "chat_s: --cpus: empty CPU list (expected e.g. 0-3,6)" ]
	run "$CHAT_S" --model threadz 127.0.0.1 0
	[ "$output" = "chat_s: --model must be threads, epoll or pool[=N], not 'threadz'" ]
	run "$CHAT_S" --cpus 3-1 127.0.0.1 0
	[ "$output" = "chat_s: --cpus: range 3-1 is backwards (write 1-3)" ]
}

@test "--help documents the models and the placement, with an example" {
	run "$CHAT_S" --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q -- "--model MODEL"
	echo "$output" | grep -q "pool\[=N\]"
	echo "$output" | grep -q -- "--cpus LIST"
	echo "$output" | grep -q -- "--pin"
	echo "$output" | grep -q "chat_s --model pool=2 --cpus 0-1 --pin"
}
