#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Hardening: a client SIGKILLed at random moments, a soak of 100 runs that
# must leave the server as it found it, resource limits met as an
# unprivileged user, the client and the server on two hosts (network
# namespaces joined by a veth pair, no loopback), counts at and above the
# caps, random start messages, and a full disk under the JSON output.
# After every fault the server must serve a normal run with exact counts.

load helpers

# An unprivileged user: as root, setrlimit could raise a hard limit away.
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

setup() {
	SRV_WRAP=()
	NETNS=()
	SLEEPERS=()
	NOBODY_BIN=
}

teardown() {
	local p st=0
	kill_sleepers
	[ -n "${CLI_PID:-}" ] && kill -KILL "$CLI_PID" 2>/dev/null
	stop_server_checked || st=$?
	for p in "${NETNS[@]}"; do
		ip netns del "$p" 2>/dev/null || true
	done
	if [ -n "$NOBODY_BIN" ]; then
		rm -rf "$NOBODY_BIN"
	fi
	return "$st"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
}

# The binaries the tests run as nobody, copied into a directory of their
# own that nobody may enter: a clone under one only root may enter (/root
# is mode 700) hides build/ from it, and prlimit, run as nobody, fails
# with "Permission denied".  (setpriv itself still holds root's
# capabilities when it execs, so only what nobody execs is refused.)
# The same bytes run; CHAT_S and CHAT_C name the copies for this test.
nobody_bins() {
	NOBODY_BIN=$(mktemp -d)
	chmod 755 "$NOBODY_BIN"
	cp "$CHAT_S" "$CHAT_C" "$NOBODY_BIN/"
	chmod 755 "$NOBODY_BIN/chat_s" "$NOBODY_BIN/chat_c"
	CHAT_S=$NOBODY_BIN/chat_s CHAT_C=$NOBODY_BIN/chat_c
	# A TMPDIR nobody cannot enter, or one mounted noexec, is the host's
	# problem, not the code's: say so rather than fail further on.
	if ! "${NOBODY[@]}" env "$CHAT_C" --version >/dev/null; then
		echo "user nobody cannot run $CHAT_C: set TMPDIR to a" \
			"directory it may enter, on an exec mount" >&2
		return 1
	fi
}

# Every line of a JSON file is whole and a successful run of $2 rooms x $3
# messages, numbered from 1: what a killed client leaves behind.
assert_json_runs_whole() {
	local f=$1 rooms=$2 msgs=$3
	[ -s "$f" ] || return 0
	jq -se --argjson s $((rooms * 20 * msgs)) \
		--argjson r $((rooms * 20 * msgs * 19)) '
		all(.[]; .ok == true and .messages_sent == $s and
			.messages_received == $r) and
		(map(.run) == [range(1; length + 1)])' "$f"
}

@test "client SIGKILLed at 10 random moments: whole JSON lines, server given back, next run exact" {
	launch_server 127.0.0.1 --timeout 2
	assert_normal_run 2 10
	fds0=$(srv_fds) thr0=$(srv_status Threads)
	for i in $(seq 10); do
		f="$BATS_TEST_TMPDIR/kill$i.json"
		"$CHAT_C" -q --no-trace -r 1000 -j "$f" 127.0.0.1 5 100 \
			"$SRV_PORT" >/dev/null 2>&1 3>&- &
		CLI_PID=$!
		# Early kills land in the first run's connect phase, later
		# ones anywhere in a later run: connecting, running, ending.
		ms=$((RANDOM % (i * 150)))
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		kill -KILL "$CLI_PID"
		wait "$CLI_PID" 2>/dev/null || true
		CLI_PID=
		echo "# kill $i after $ms ms: $( (wc -l <"$f") 2>/dev/null || echo 0) runs done" >&3
		assert_json_runs_whole "$f" 5 100
		wait_server_idle "$fds0" "$thr0"
		assert_normal_run 2 10
	done
}

@test "client killed while its users connect: the next client is served at once" {
	launch_server 127.0.0.1 --timeout 5
	assert_normal_run 1 1
	base=$(srv_fds)
	# A client that announced 2 rooms and opened 10 of its 40 users (on
	# fds 21-30: bash keeps fds 10-13 for itself and closed our sockets
	# there, which a server that held closed users used to hide).
	(
		exec 5<>"/dev/tcp/127.0.0.1/$SRV_PORT"
		printf '\x02\x00\x00\x00\x01\x00\x00\x00' >&5
		for i in $(seq 10); do
			eval "exec $((20 + i))<>/dev/tcp/127.0.0.1/$SRV_PORT"
		done
		exec sleep 60
	) 3>&- &
	CLI_PID=$!
	for i in $(seq 100); do
		[ "$(srv_fds)" -ge $((base + 11)) ] && break
		sleep 0.1
	done
	[ "$(srv_fds)" -ge $((base + 11)) ]
	kill -KILL "$CLI_PID"
	wait "$CLI_PID" 2>/dev/null || true
	CLI_PID=
	# No wait for the server's timeout: it must notice that the control
	# connection is gone, not take this client's users as the dead one's.
	assert_normal_run 2 10
}

# Waits (bounded) until the server holds $2 descriptors more than the $1
# it has when idle: the control connection and every user are accepted,
# so the run is under way (its workers may already be done: the kernel's
# socket buffers can hold much of a short run).
wait_run_started() {
	local i
	for i in $(seq 400); do
		[ "$(srv_fds)" -ge $(($1 + $2)) ] && return 0
		sleep 0.05
	done
	echo "no run started: $(srv_fds) fds" >&2
	return 1
}

@test "server SIGTERM mid-run: the run completes with exact counts, then chat_s exits 0" {
	launch_server 127.0.0.1 --timeout 10
	assert_normal_run 1 1
	fds0=$(srv_fds)
	out="$BATS_TEST_TMPDIR/out"
	"$CHAT_C" -q --no-trace 127.0.0.1 2 800 "$SRV_PORT" >"$out" 2>&1 3>&- &
	CLI_PID=$!
	wait_run_started "$fds0" 41
	kill -TERM "$SRV_PID"
	wait "$CLI_PID"
	CLI_PID=
	grep -qx "Messages sent      : 32000" "$out"
	grep -qx "Messages received  : 608000" "$out"
	# The signal came while the run was in progress, not after it.
	grep -q "SIGTERM: finishing 1 run in progress" "$SRV_LOG"
	wait "$SRV_PID" || { cat "$SRV_LOG"; false; }
	SRV_PID=
}

@test "server SIGINT then SIGTERM mid-run: the run is aborted, the client says so, chat_s exits 0" {
	launch_server 127.0.0.1 --timeout 10
	assert_normal_run 1 1
	fds0=$(srv_fds)
	out="$BATS_TEST_TMPDIR/out"
	"$CHAT_C" -q --no-trace -t 20 127.0.0.1 2 1000000 "$SRV_PORT" \
		>"$out" 2>&1 3>&- &
	CLI_PID=$!
	wait_run_started "$fds0" 41
	kill -INT "$SRV_PID"
	kill -TERM "$SRV_PID"
	st=0
	wait "$CLI_PID" || st=$?
	CLI_PID=
	[ "$st" -eq 1 ]
	grep -q "run 1 failed: " "$out"
	wait "$SRV_PID" || { cat "$SRV_LOG"; false; }
	SRV_PID=
	grep -q "aborted: server stopped by a signal" "$SRV_LOG"
}

# 100 runs against one server (of data-plane model $1): its fds, threads
# and RSS at the end are those it had after the first run.  A leak of one
# descriptor or thread a run shows as 99; 100 runs, not 300, keep the
# suite short.
soak() {
	launch_server 127.0.0.1 --timeout 10 -q --model "$1"
	assert_normal_run 2 5
	fds0=$(srv_fds) thr0=$(srv_status Threads) rss0=$(srv_status VmRSS)
	f="$BATS_TEST_TMPDIR/soak.json"
	run "$CHAT_C" -q --no-trace -r 99 -j "$f" 127.0.0.1 2 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(jq -s 'map(select(.run)) | length' "$f")" -eq 99 ]
	grep -v '"summary"' "$f" >"$f.runs"
	assert_json_runs_whole "$f.runs" 2 5
	wait_server_idle "$fds0" "$thr0"
	fds1=$(srv_fds) thr1=$(srv_status Threads) rss1=$(srv_status VmRSS)
	echo "# fds $fds0 -> $fds1, threads $thr0 -> $thr1, RSS $rss0 -> $rss1 kB" >&3
	[ "$fds1" -eq "$fds0" ]
	[ "$thr1" -eq "$thr0" ]
	# Sanitizers keep freed memory in quarantine and grow shadow memory:
	# RSS says nothing under them.  Without, 1 MiB of slack for the
	# allocator, which is 10 kB a run: far less than any per-run leak
	# of a thread stack (8 MiB reserved, its first pages touched), a
	# connection table or a buffer.
	if [ -z "${CHATBENCH_SAN:-}" ]; then
		[ "$rss1" -le $((rss0 + 1024)) ]
	fi
}

@test "soak: 100 runs against one server leave its fds, threads and RSS as after the first" {
	soak threads
}

@test "soak, event loops (--model pool=2): 100 runs, nothing grows" {
	soak pool=2
}

@test "limits: a server short of descriptors refuses the run, naming RLIMIT_NOFILE and the number, then serves" {
	need_root
	nobody_bins
	SRV_WRAP=("${NOBODY[@]}" prlimit --nofile=100:100)
	launch_server 127.0.0.1 --timeout 2
	fds0=$(srv_fds) thr0=$(srv_status Threads)
	run timeout 60 "$CHAT_C" -q --no-trace 127.0.0.1 5 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" =~ refused\ the\ run:\ needs\ ([0-9]+)\ file\ descriptors.*RLIMIT_NOFILE ]]
	[ "${BASH_REMATCH[1]}" -ge 100 ]
	grep -Eq "refused run .*needs [0-9]+ file descriptors.*RLIMIT_NOFILE" "$SRV_LOG"
	# The refused client's users, connected before it read the refusal,
	# hold the server's fds until their hang-ups are read; a run started
	# before then finds no fd left (seen once under ASan).
	wait_server_idle "$fds0" "$thr0"
	assert_normal_run 2 10
}

@test "limits: a server short of threads refuses the run, naming RLIMIT_NPROC and the number, then serves" {
	need_root
	nobody_bins
	SRV_WRAP=("${NOBODY[@]}" prlimit --nproc=100:100)
	launch_server 127.0.0.1 --timeout 2
	run timeout 60 "$CHAT_C" -q --no-trace 127.0.0.1 3 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" =~ refused\ the\ run:\ needs\ ([0-9]+)\ threads.*RLIMIT_NPROC ]]
	[ "${BASH_REMATCH[1]}" -ge 120 ]
	assert_normal_run 2 10
}

@test "limits: a client short of descriptors or threads stops before connecting, naming the limit and the number" {
	need_root
	nobody_bins
	launch_server 127.0.0.1 --timeout 2
	run timeout 60 "${NOBODY[@]}" prlimit --nofile=100:100 \
		"$CHAT_C" -q --no-trace 127.0.0.1 5 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" =~ needs\ ([0-9]+)\ file\ descriptors.*RLIMIT_NOFILE ]]
	[ "${BASH_REMATCH[1]}" -ge 100 ]
	run timeout 60 "${NOBODY[@]}" prlimit --nproc=100:100 \
		"$CHAT_C" -q --no-trace 127.0.0.1 3 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" =~ needs\ ([0-9]+)\ threads.*RLIMIT_NPROC ]]
	[ "${BASH_REMATCH[1]}" -ge 120 ]
	# Neither of them reached the server.
	[ ! -s "$SRV_LOG" ]
	assert_normal_run 2 10
}

# n tasks of the unprivileged user, sleeping: they count against its
# RLIMIT_NPROC, which the check before a run cannot see.
spawn_sleepers() {
	local i
	for i in $(seq "$1"); do
		"${NOBODY[@]}" sleep 600 >/dev/null 2>&1 3>&- &
		SLEEPERS+=($!)
	done
}

kill_sleepers() {
	kill_all "${SLEEPERS[@]}"
	SLEEPERS=()
}

@test "unprivileged: tracing off said once, the runs exact; --trace refuses with the reason" {
	need_root
	nobody_bins
	launch_server 127.0.0.1 --timeout 2
	run timeout 60 "${NOBODY[@]}" "$CHAT_C" -q -r 2 -j - 127.0.0.1 2 10 \
		"$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(grep -v '^{' <<<"$output" | grep -c 'tracing')" -eq 1 ]
	[[ "$output" == *"chat_c: tracing off: tracing needs root or CAP_BPF and CAP_PERFMON"* ]]
	[ "$(grep -cx 'Messages sent      : 400' <<<"$output")" -eq 2 ]
	grep '^{' <<<"$output" | tail -n 1 |
		jq -e '.summary.runs == 2 and (.summary.tracing | startswith("off"))'
	# No kernel object pretends to hold figures it could not collect.
	[ "$(grep '^{' <<<"$output" | jq -s 'map(select(.kernel != null)) | length')" -eq 0 ]
	run timeout 60 "${NOBODY[@]}" "$CHAT_C" -q --trace 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == "chat_c: --trace: tracing is not possible: tracing needs root or CAP_BPF and CAP_PERFMON" ]]
	assert_normal_run 2 10
}

@test "limits: threads taken by the user's other tasks: the server names RLIMIT_NPROC and serves on" {
	need_root
	nobody_bins
	SRV_WRAP=("${NOBODY[@]}" prlimit --nproc=100:100)
	launch_server 127.0.0.1 --timeout 2
	# The 80 threads of 2 rooms pass the up-front check (80 < 100),
	# then pthread_create fails at about the 40th.
	spawn_sleepers 60
	run timeout 60 "$CHAT_C" -q --no-trace 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"refused the run"*"RLIMIT_NPROC"* ]]
	[[ "$output" == *" of 80"* ]]
	kill_sleepers
	assert_normal_run 2 10
}

@test "limits: threads taken by the user's other tasks: the client names RLIMIT_NPROC" {
	need_root
	nobody_bins
	launch_server 127.0.0.1 --timeout 2
	spawn_sleepers 60
	run timeout 60 "${NOBODY[@]}" prlimit --nproc=100:100 \
		"$CHAT_C" -q --no-trace 127.0.0.1 2 10 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"RLIMIT_NPROC"* ]]
	[[ "$output" == *" of 80"* ]]
	kill_sleepers
	assert_normal_run 2 10
}

# Two network namespaces joined by a veth pair, 10.203.0.1 (server side)
# and 10.203.0.2 (client side).  Loopback stays down in both, so nothing
# can take a shortcut through it.  Sets SRV_NS and CLI_NS.
make_two_hosts() {
	local tag="cb$$"
	SRV_NS="$tag-s" CLI_NS="$tag-c"
	NETNS=("$SRV_NS" "$CLI_NS")
	ip netns add "$SRV_NS"
	ip netns add "$CLI_NS"
	veth_link "$SRV_NS" 10.203.0.1 "$CLI_NS" 10.203.0.2 "$tag"
	SRV_WRAP=(ip netns exec "$SRV_NS")
	launch_server 10.203.0.1 --timeout 10
}

@test "two hosts: client and server in two network namespaces over veth, exact counts" {
	need_root
	command -v ip >/dev/null || skip "needs iproute2"
	make_two_hosts
	run ip netns exec "$CLI_NS" "$CHAT_C" -q --no-trace -r 2 \
		10.203.0.1 3 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -cx 'Messages sent      : 1200')" -eq 2 ]
	[ "$(echo "$output" | grep -cx 'Messages received  : 22800')" -eq 2 ]
	grep -qx "SRV: 1200 messages received, 22800 messages sent" "$SRV_LOG"
}

@test "two hosts, traced: both sides' threads and sockets seen across namespaces" {
	need_root
	command -v ip >/dev/null || skip "needs iproute2"
	require_bpf
	make_two_hosts
	f="$BATS_TEST_TMPDIR/two.json"
	# Long enough (several 100 ms intervals) for the socket programs,
	# which the tracer attaches only in a window of each interval.
	run ip netns exec "$CLI_NS" "$CHAT_C" -q --trace \
		--server-pid "$SRV_PID" -j "$f" 10.203.0.1 2 500 "$SRV_PORT"
	[ "$status" -eq 0 ]
	jq -se '.[0] | .ok and .messages_sent == 20000 and
		.messages_received == 380000 and (.kernel | type == "object")
		and .kernel.roles.srv_rcv.wakeups > 0
		and .kernel.roles.srv_snd.wakeups > 0
		and .kernel.roles.cli_rcv.wakeups > 0
		and .kernel.sockets.server.data_ready_sampled > 0
		and .kernel.sockets.client.data_ready_sampled > 0' "$f"
	tail -n 1 "$f" | jq -e '.summary.tracing == "on"'
}

@test "caps: counts at the caps are served, above them refused with the cap named" {
	launch_server 127.0.0.1 --timeout 2 --max-rooms 2 --max-messages 30
	assert_normal_run 2 30
	run "$CHAT_C" -q --no-trace 127.0.0.1 3 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"refused the run: rooms = 3 above the cap of 2"* ]]
	run "$CHAT_C" -q --no-trace 127.0.0.1 1 31 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"refused the run: messages = 31 above the cap of 30"* ]]
	# The users-per-room extension: 1 and 1001 users, a reserved word set.
	send_raw '\x01\x00\x00\x40\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00'
	send_raw '\x01\x00\x00\x40\x01\x00\x00\x00\xe9\x03\x00\x00\x00\x00\x00\x00'
	send_raw '\x01\x00\x00\x40\x01\x00\x00\x00\x05\x00\x00\x00\x01\x00\x00\x00'
	assert_normal_run 1 1
	[ "$(grep -c 'refused run .*users per room' "$SRV_LOG")" -eq 3 ]
	grep -q "users per room = 1001" "$SRV_LOG"
}

@test "200 random start messages: each one refused or dropped with one log line, then a normal run" {
	launch_server 127.0.0.1 --timeout 2 --max-rooms 50
	# Seeded: a failure can be replayed with the same bytes.
	RANDOM=4242
	for ((i = 0; i < 200; i++)); do
		n=$((1 + RANDOM % 24)) bytes=
		# printf -v, not $(printf): a fork per byte took 20 s.
		for ((k = 0; k < n; k++)); do
			printf -v b '\\x%02x' $((RANDOM % 256))
			bytes+=$b
		done
		# The server may refuse and close before all bytes are in:
		# the write may then fail (EPIPE, ECONNRESET), never kill us.
		# shellcheck disable=SC2059 # the bytes are \x escapes
		(
			trap '' PIPE
			printf "$bytes" >"/dev/tcp/127.0.0.1/$SRV_PORT"
		) 2>/dev/null || true
	done
	assert_normal_run 2 10
	[ "$(grep -c '^chat_s: ' "$SRV_LOG")" -eq 200 ]
	[ "$(grep -c '^SRV: client connected' "$SRV_LOG")" -eq 1 ]
}

@test "a full disk under the JSON output: a clear error naming it and a non-zero exit" {
	[ -w /dev/full ] || skip "no /dev/full"
	launch_server 127.0.0.1 --timeout 2
	run "$CHAT_C" -q --no-trace -r 2 -j /dev/full 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"JSON"*"/dev/full"* ]]
	assert_normal_run 1 5
}
