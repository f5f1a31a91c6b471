#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A server that is not ours, and our server with a client that is not
# ours: orig.py stands in for the original 1.0.1 pair (same wire protocol,
# same threads, same output lines).  chat_c must say that the server was
# foreign, and its tracer must class the foreign server's threads by what
# they do, as it classes ours by name.  The traced test skips without BPF,
# unless CHATBENCH_REQUIRE_BPF=1.

load helpers
bats_require_minimum_version 1.5.0

ORIG="$BATS_TEST_DIRNAME/orig.py"

setup() {
	[ -x "$CHAT_C" ] || skip "no $CHAT_C"
	J="$BATS_TEST_TMPDIR/run.json"
	ORIG_PID=
}

teardown() {
	if [ -n "$ORIG_PID" ]; then
		kill "$ORIG_PID" 2>/dev/null || true
		wait "$ORIG_PID" 2>/dev/null || true
	fi
	stop_server
}

# The stand-in server on a port the kernel picks: ORIG_PID, ORIG_PORT.
# Its options first (--procs: a process per worker, as the original's).
start_orig() {
	local log="$BATS_TEST_TMPDIR/orig.log" i
	"$PYTHON3" "$ORIG" server "$@" 127.0.0.1 0 >"$log" 2>&1 &
	ORIG_PID=$!
	for i in $(seq 100); do
		ORIG_PORT=$(awk '$2 == "port" { print $3 }' "$log")
		[ -n "$ORIG_PORT" ] && return 0
		sleep 0.05
	done
	cat "$log" >&2
	return 1
}

@test "chat_c against the original server: exact counts, a foreign server" {
	start_orig
	run "$CHAT_C" --no-trace --runs 1 --json "$J" 127.0.0.1 1 100 \
		"$ORIG_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "Messages sent      : 2000" <<<"$output"
	grep -qx "Messages received  : 38000" <<<"$output"
	grep -q "^Placement .*server model foreign (python3)," <<<"$output"
	! grep -q "server model threads" <<<"$output"
	[ "$(jq -r 'select(.summary) | .summary.placement.server.foreign' \
		"$J")" = true ]
	grep -qx "SRV: 2000 messages received, 38000 messages sent" \
		"$BATS_TEST_TMPDIR/orig.log"
}

# chat_c traced against the stand-in, 1 room: its workers in their roles,
# 20 of each (a worker process counts as a thread), none an outsider.
traced_against_orig() {
	run "$CHAT_C" -q --trace --runs 1 --server-pid "$ORIG_PID" \
		--json "$J" 127.0.0.1 1 100 "$ORIG_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "Messages received  : 38000" <<<"$output"
	"$PYTHON3" - "$J" <<'EOF'
import json, sys
k = [json.loads(l) for l in open(sys.argv[1]) if '"kernel"' in l][-1]["kernel"]
for r in ("srv_rcv", "srv_snd"):
    role, budget = k["roles"][r], k["budget"]["threads"][r]
    print(r, role["oncpu_ns"], role["wakeups"], budget["threads"])
    # One receiver and one sender per connection: 20 each.  Not their
    # wakeups: a role is learned at a task's first data receive or send,
    # and a receiver whose data is always queued after that first one
    # wakes only before it (CI once saw srv_rcv with 0 wakeups).
    assert role["oncpu_ns"] > 0, r
    assert budget["threads"] == 20, r
# The server's tasks are all subjects: no outsider is the stand-in.
out = [s for s in k["stealers"] if not s["is_benchmark"]]
print(out)
assert not [s for s in out if s["comm"].startswith("python")], out
# The learners ran, and only the server's data sends and receives.
progs = {p["name"][4:]: p["run_cnt"] for p in k["bpf_cost"]["programs"]}
assert progs.get("sock_recv_length", 0) > 0, progs
EOF
}

@test "the original server traced by pid: its threads in server roles" {
	require_bpf
	start_orig
	traced_against_orig
}

@test "the original's worker processes traced by pid: in server roles" {
	require_bpf
	start_orig --procs
	traced_against_orig
	# Said once its workers are reaped, after the client's 0x22.
	for i in $(seq 50); do
		grep -qx "SRV: 2000 messages received, 38000 messages sent" \
			"$BATS_TEST_TMPDIR/orig.log" && return 0
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/orig.log"
	return 1
}

@test "the original client against chat_s: exact counts, chat_s's SRV: line" {
	start_server
	run "$PYTHON3" "$ORIG" client 127.0.0.1 1 50 "$SRV_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "Test complete." <<<"$output"
	grep -qx "Total messages     : 20000" <<<"$output"
	grep -qE "^Average throughput : [0-9]+ messages per second$" \
		<<<"$output"
	for i in $(seq 50); do
		grep -q "^SRV: 1000 messages received, 19000 messages sent" \
			"$SRV_LOG" && break
		sleep 0.1
	done
	cat "$SRV_LOG"
	grep -q "^SRV: 1000 messages received, 19000 messages sent" "$SRV_LOG"
}

@test "our own server is ours: no learner programs loaded" {
	require_bpf
	start_server
	run "$CHAT_C" --trace --runs 1 --json "$J" 127.0.0.1 1 50 "$SRV_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "^Placement .*server model threads," <<<"$output"
	[ "$(jq -r 'select(.summary) | .summary.placement.server.foreign' \
		"$J")" = false ]
	[ "$(jq -s '[.[] | select(.kernel) | .kernel.bpf_cost.programs[].name |
		select(endswith("_length"))] | length' "$J")" = 0 ]
}
