#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Serving everyone (issue 16): stalled, idle and flooding peers delay no
# real client; clients run at once, each with exact counts, or queued
# beyond --max-runs; chat_s --clients N releases N clients together and
# chat_c --clients N sums them exactly, on one host or over veth; a peer
# that stops reading fails its own run only; runs end cleanly on signals.
# Counts are asserted exactly; the only time bound is the issue's 10 s.

load helpers

PEERS="$BATS_TEST_DIRNAME/peers.py"

setup() {
	SRV_WRAP=()
	NETNS=()
	BG=()
}

teardown() {
	local p
	kill_all "${BG[@]}"
	stop_server_checked
	for p in "${NETNS[@]}"; do
		ip netns del "$p" 2>/dev/null || true
	done
}

# Waits (bounded) for file $1 to exist: a peer says it is in place.
wait_file() {
	local i
	for i in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "no $1" >&2
	return 1
}

# Holds $1 half start messages and $2 idle connections for $3 s in the
# background; returns once they are all open.
hold_peers() {
	local ready="$BATS_TEST_TMPDIR/held"
	rm -f "$ready"
	"$PYTHON3" "$PEERS" hold 127.0.0.1 "$SRV_PORT" "$1" "$2" "$ready" "$3" \
		>"$BATS_TEST_TMPDIR/held.out" 3>&- &
	BG+=($!)
	wait_file "$ready"
}

# Idle peers the server has closed on their handshake deadline.
idle_closed() {
	grep -Eo 'closed [0-9]+ connections? that sent nothing' "$SRV_LOG" |
		awk '{ n += $2 } END { print n + 0 }'
}

# Exact counts of a rooms x messages client in $output (or file $3).
assert_exact() {
	local out=${3:-} rooms=$1 msgs=$2
	[ -n "$out" ] && output=$(cat "$out")
	grep -qx "Messages sent      : $((rooms * 20 * msgs))" <<<"$output"
	grep -qx "Messages received  : $((rooms * 20 * msgs * 19))" <<<"$output"
}

@test "a real 1 x 10 client beside 5 stalled half start messages and 300 idle connections: served exactly in under 10 s" {
	launch_server 127.0.0.1
	hold_peers 5 300 30
	t0=$(date +%s%N)
	run timeout 10 "$CHAT_C" -q --no-trace 127.0.0.1 1 10 "$SRV_PORT"
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "# served in $ms ms" >&3
	[ "$status" -eq 0 ]
	assert_exact 1 10
	[ "$ms" -lt 10000 ]
	kill -0 "$SRV_PID"
	# Then each is closed on its own deadline: a line for each stalled
	# one, the idle ones counted in a line per pass of the accept loop.
	for _ in $(seq 100); do
		[ "$(grep -c 'timed out after 4 of 8 bytes' "$SRV_LOG")" -eq 5 ] &&
			[ "$(idle_closed)" -eq 300 ] && break
		sleep 0.1
	done
	[ "$(grep -c 'timed out after 4 of 8 bytes' "$SRV_LOG")" -eq 5 ]
	[ "$(idle_closed)" -eq 300 ]
	assert_normal_run 1 10
}

@test "after one stalled half start message, 40 short runs leave the server's fds and threads flat" {
	launch_server 127.0.0.1 --handshake-timeout 60000
	assert_normal_run 1 1
	fds0=$(srv_fds) thr0=$(srv_status Threads)
	hold_peers 1 0 60
	run "$CHAT_C" -q --no-trace -r 40 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(grep -cx 'Messages sent      : 100' <<<"$output")" -eq 40 ]
	# The stalled peer still holds its one descriptor, nothing else.
	wait_server_idle $((fds0 + 1)) "$thr0"
	echo "# fds $fds0 -> $(srv_fds) (1 stalled peer), threads $thr0 -> $(srv_status Threads)" >&3
}

@test "a flood of connects beside a real client: the client is served exactly, the server stays up" {
	launch_server 127.0.0.1
	"$PYTHON3" "$PEERS" flood 127.0.0.1 "$SRV_PORT" 3000 3>&- &
	BG+=($!)
	hold_peers 0 500 30
	run timeout 30 "$CHAT_C" -q --no-trace -r 3 127.0.0.1 2 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(grep -cx 'Messages sent      : 800' <<<"$output")" -eq 3 ]
	kill -0 "$SRV_PID"
}

@test "peers beyond the descriptor limit are refused at once with a log line; the server then serves" {
	SRV_WRAP=(prlimit --nofile=120:120)
	launch_server 127.0.0.1
	hold_peers 0 200 30
	refused=$(cat "$BATS_TEST_TMPDIR/held.out" 2>/dev/null || true)
	for _ in $(seq 100); do
		refused=$(cat "$BATS_TEST_TMPDIR/held.out")
		[ -n "$refused" ] && break
		sleep 0.1
	done
	echo "# $refused of 200 idle peers refused at once" >&3
	[ "$refused" -ge 80 ]
	grep -Eq "refused [0-9]+ connections?.*no file descriptor left \(RLIMIT_NOFILE 120\)" "$SRV_LOG"
	kill -KILL "${BG[0]}"
	wait "${BG[0]}" 2>/dev/null || true
	BG=()
	assert_normal_run 2 10
}

# A peer that starts a run of 1 room x $2 messages, sends them all and
# never reads, against a server of model $1; meanwhile a real client is
# served exactly, and the peer's run ends with a reason matching $3.
deaf_peer_run() {
	local ready="$BATS_TEST_TMPDIR/deaf"
	launch_server 127.0.0.1 --timeout 3 --model "$1"
	"$PYTHON3" "$PEERS" deaf 127.0.0.1 "$SRV_PORT" 1 "$2" "$ready" 30 3>&- &
	BG+=($!)
	wait_file "$ready"
	run timeout 60 "$CHAT_C" -q --no-trace 127.0.0.1 2 200 "$SRV_PORT"
	[ "$status" -eq 0 ]
	assert_exact 2 200
	for _ in $(seq 300); do
		grep -q "aborted: $3" "$SRV_LOG" && break
		sleep 0.1
	done
	grep -q "aborted: $3" "$SRV_LOG"
	assert_normal_run 1 10
}

@test "a peer that stops reading mid-run fails its own run on the timeout; another run completes exactly" {
	# The senders' blocking sends time out (SO_SNDTIMEO = --timeout).
	deaf_peer_run threads 2000 "send to user [0-9]*: timed out"
}

@test "event loops: a peer that stops reading fails its own run; another run completes exactly" {
	# Enough that the kernel's socket buffers cannot take it all: a loop
	# writes many units per send, so they hold far more than the 100-byte
	# sends of the threads model.
	deaf_peer_run pool=2 20000 "no progress for .* does not read"
}

@test "two concurrent 2 x 50 clients each get their exact total" {
	launch_server 127.0.0.1
	for i in 1 2; do
		"$CHAT_C" -q --no-trace 127.0.0.1 2 50 "$SRV_PORT" \
			>"$BATS_TEST_TMPDIR/c$i" 2>&1 3>&- &
		BG+=($!)
	done
	for i in 0 1; do
		wait "${BG[$i]}"
	done
	BG=()
	for i in 1 2; do
		assert_exact 2 50 "$BATS_TEST_TMPDIR/c$i"
		grep -qx "Total messages     : 40000" "$BATS_TEST_TMPDIR/c$i"
	done
	[ "$(grep -cx 'SRV: 2000 messages received, 38000 messages sent' "$SRV_LOG")" -eq 2 ]
}

@test "beyond --max-runs a client is queued, says behind how many runs, then is served exactly" {
	launch_server 127.0.0.1 --max-runs 1
	assert_normal_run 1 1
	fds0=$(srv_fds)
	# Open loop, 2 s at 200 messages a second per user: long enough to
	# queue behind, without 80 busy threads starving the polls below.
	"$CHAT_C" -q --no-trace --rate 200 127.0.0.1 2 400 "$SRV_PORT" \
		>"$BATS_TEST_TMPDIR/long" 2>&1 3>&- &
	BG+=($!)
	# The long run holds its 40 users and its control connection.
	for _ in $(seq 200); do
		[ "$(srv_fds)" -ge $((fds0 + 41)) ] && break
		sleep 0.05
	done
	run "$CHAT_C" -q --no-trace 127.0.0.1 1 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	assert_exact 1 10
	[[ "$output" == *"chat_c: the server is busy: this run waits behind 1 run (chat_s --max-runs)"* ]]
	wait "${BG[0]}"
	BG=()
	assert_exact 2 400 "$BATS_TEST_TMPDIR/long"
	grep -q "queued behind 1 run (--max-runs 1)" "$SRV_LOG"
}

@test "two start messages of one address interleaved: the older run fails with that reason, the next is served" {
	launch_server 127.0.0.1 --timeout 5
	exec 5<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	printf '\x01\x00\x00\x00\x01\x00\x00\x00' >&5
	exec 21<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	exec 6<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	printf '\x01\x00\x00\x00\x01\x00\x00\x00' >&6
	for _ in $(seq 100); do
		grep -q "connect one after another" "$SRV_LOG" && break
		sleep 0.05
	done
	exec 5>&- 6>&- 21>&-
	grep -q "refused run from .*: another client of 127.0.0.1:[0-9]* connected (run 2) after 1 of this run's 20 data connections" "$SRV_LOG"
	assert_normal_run 2 10
}

@test "chat_s --clients 2 holds the release until both clients are in; chat_c --clients 2 sums exactly" {
	launch_server 127.0.0.1 --clients 2
	f="$BATS_TEST_TMPDIR/c.json"
	run "$CHAT_C" -q --no-trace --clients 2 -j "$f" 127.0.0.1 2 50 "$SRV_PORT"
	[ "$status" -eq 0 ]
	assert_exact 4 50
	grep -qx "Total messages     : 80000" <<<"$output"
	[ "$(grep -Ec '^Client [12] +: 40000 messages in' <<<"$output")" -eq 2 ]
	grep -q "^Client spread      : " <<<"$output"
	jq -se '.[0] | .ok and .total_messages == 80000 and
		(.clients | length == 2) and
		([.clients[].total_messages] | add == 80000)' "$f"
	[ "$(grep -cx 'SRV: 2000 messages received, 38000 messages sent' "$SRV_LOG")" -eq 2 ]
}

@test "chat_c --local --clients 2 --pin: one client per CPU, the sum exact over 2 runs" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	run "$CHAT_C" -q --no-trace --local --clients 2 --pin -r 2 1 20
	[ "$status" -eq 0 ]
	[ "$(grep -cx 'Total messages     : 16000' <<<"$output")" -eq 2 ]
	grep -q "^Client 1 .*(cpu 0)$" <<<"$output"
	grep -q "^Client 2 .*(cpu 1)$" <<<"$output"
	grep -q "^Summary            : 2 of 2 runs completed" <<<"$output"
}

@test "chat_c --clients 2, traced: each client's kernel record under the sum" {
	require_bpf
	run "$CHAT_C" -q --trace --local --clients 2 1 200
	[ "$status" -eq 0 ]
	grep -qx "Total messages     : 160000" <<<"$output"
	[ "$(grep -c '^Kernel of client [12] (its threads and the whole server):' <<<"$output")" -eq 2 ]
}

@test "chat_s --clients 2 with one client: refused after the timeout, naming the group" {
	launch_server 127.0.0.1 --clients 2 --timeout 2
	run timeout 30 "$CHAT_C" -q --no-trace -t 10 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the server holds the run until 1 more client connect (chat_s --clients)"* ]]
	[[ "${lines[-1]}" == *"refused the run: only 1 of 2 clients connected within 2000 ms (chat_s --clients 2)" ]]
}

@test "three hosts over veth: two clients of other hosts join one run of chat_s --clients 2, each exact" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	command -v ip >/dev/null || skip "needs iproute2"
	local tag="cc$$"
	NETNS=("$tag-s" "$tag-a" "$tag-b")
	for ns in "${NETNS[@]}"; do ip netns add "$ns"; done
	veth_link "$tag-s" 10.204.0.1 "$tag-a" 10.204.0.2 "${tag}a"
	veth_link "$tag-s" 10.204.0.5 "$tag-b" 10.204.0.6 "${tag}b"
	SRV_WRAP=(ip netns exec "$tag-s")
	launch_server 0.0.0.0 --clients 2 --timeout 10
	ip netns exec "$tag-a" "$CHAT_C" -q --no-trace -j "$BATS_TEST_TMPDIR/a.json" \
		10.204.0.1 2 30 "$SRV_PORT" >"$BATS_TEST_TMPDIR/a" 2>&1 3>&- &
	BG+=($!)
	run ip netns exec "$tag-b" "$CHAT_C" -q --no-trace -j "$BATS_TEST_TMPDIR/b.json" \
		10.204.0.5 1 30 "$SRV_PORT"
	[ "$status" -eq 0 ]
	assert_exact 1 30
	wait "${BG[0]}"
	BG=()
	assert_exact 2 30 "$BATS_TEST_TMPDIR/a"
	grep -qx "SRV: 1200 messages received, 22800 messages sent" "$SRV_LOG"
	grep -qx "SRV: 600 messages received, 11400 messages sent" "$SRV_LOG"
	# chat_c --clients 2 from one of those hosts: its two clients share
	# an address and take turns to connect; the sum is exact.
	run ip netns exec "$tag-a" "$CHAT_C" -q --no-trace --clients 2 \
		10.204.0.1 2 30 "$SRV_PORT"
	[ "$status" -eq 0 ]
	assert_exact 4 30
}

@test "SIGTERM with two runs in progress: both complete exactly, the server says so and exits 0" {
	launch_server 127.0.0.1 --timeout 10
	assert_normal_run 1 1
	fds0=$(srv_fds)
	for i in 1 2; do
		# Open loop, 3 s each: in progress at the SIGTERM.
		"$CHAT_C" -q --no-trace --rate 200 127.0.0.1 1 600 "$SRV_PORT" \
			>"$BATS_TEST_TMPDIR/c$i" 2>&1 3>&- &
		BG+=($!)
	done
	for _ in $(seq 400); do
		[ "$(srv_fds)" -ge $((fds0 + 42)) ] && break
		sleep 0.05
	done
	kill -TERM "$SRV_PID"
	for i in 0 1; do wait "${BG[$i]}"; done
	BG=()
	wait "$SRV_PID"
	SRV_PID=
	assert_exact 1 600 "$BATS_TEST_TMPDIR/c1"
	assert_exact 1 600 "$BATS_TEST_TMPDIR/c2"
	grep -q "SIGTERM: finishing 2 runs in progress, then exiting" "$SRV_LOG"
}

@test "SIGINT mid-run: what was measured, marked interrupted in text and JSON, the reason last, status 130" {
	launch_server 127.0.0.1
	f="$BATS_TEST_TMPDIR/r.json" out="$BATS_TEST_TMPDIR/out"
	"$CHAT_C" -q --no-trace -j "$f" 127.0.0.1 2 1000000 "$SRV_PORT" \
		>"$out" 2>&1 3>&- &
	BG+=($!)
	for _ in $(seq 200); do
		[ "$(srv_fds)" -ge 41 ] && break
		sleep 0.05
	done
	sleep 0.5 # into the timed part (the clock starts after 0x11)
	kill -INT "${BG[0]}"
	st=0
	wait "${BG[0]}" || st=$?
	BG=()
	[ "$st" -eq 130 ]
	grep -q "^Interrupted        : yes (interrupted by SIGINT), after " "$out"
	grep -q "^Average throughput : [0-9]* messages per second$" "$out"
	[ "$(tail -n 1 "$out")" = "chat_c: run 1 interrupted by SIGINT: the counts above are partial" ]
	jq -se '.[0] | .interrupted == true and .ok == false and .messages_sent > 0' "$f"
	tail -n 1 "$f" | jq -e '.summary.interrupted == true'
}

@test "a failed run's last line is its reason, after the Placement line" {
	launch_server 127.0.0.1 --max-rooms 2
	run "$CHAT_C" --no-trace 127.0.0.1 3 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Placement          : "* ]]
	[ "${lines[-1]}" = "chat_c: run 1 failed: the server refused the run: rooms = 3 above the cap of 2 (--max-rooms)" ]
}
