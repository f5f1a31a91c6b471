#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The cross-built programs end to end (make check-arm64): chat_s and chat_c
# on loopback and the tools over their JSON, each through $TEST_RUNNER
# (qemu-aarch64-static; empty on an arm64 machine).  qemu-user translates
# user space only: bpf() and perf_event_open() fail with ENOSYS there, so
# what loads BPF skips under it, with that reason.

load ../integration/helpers

QEMU_NO_BPF="qemu-user has no bpf() or perf_event_open() (ENOSYS): BPF loads only on an arm64 kernel"

# Each program through the runner, as a script of its own, so that the
# shared helpers (start_server, assert_normal_run) run them unchanged.
setup() {
	local p
	for p in chat_s chat_c chatbench-judge chatbench-compare; do
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${TEST_RUNNER:-}" \
			"$BIN/$p" >"$BATS_TEST_TMPDIR/$p"
		chmod +x "$BATS_TEST_TMPDIR/$p"
	done
	CHAT_S="$BATS_TEST_TMPDIR/chat_s"
	CHAT_C="$BATS_TEST_TMPDIR/chat_c"
}

teardown() {
	stop_server
}

@test "threads model: exact counts" {
	start_server --model threads
	assert_normal_run 1 10
	assert_normal_run 2 5
	grep -qx "SRV: 200 messages received, 3800 messages sent" "$SRV_LOG"
}

@test "epoll model: exact counts" {
	start_server --model epoll
	assert_normal_run 2 5
}

@test "a JSON series read back by chatbench-judge and chatbench-compare" {
	local j="$BATS_TEST_TMPDIR/r.json"
	start_server
	run "$CHAT_C" -q --no-trace --runs 2 -j "$j" 127.0.0.1 1 10 "$SRV_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"schema_version"' "$j")" -ge 2 ]
	run "$BATS_TEST_TMPDIR/chatbench-judge" "$j"
	echo "$output"
	[ "$status" -eq 0 ]
	run "$BATS_TEST_TMPDIR/chatbench-compare" "$j" "$j"
	echo "$output"
	[ "$status" -eq 0 ]
}

# Under qemu-user the programs are opened, and the load fails as it must;
# any other failure is a failure.
@test "tracing and --profile load their BPF programs" {
	[ -n "${TEST_RUNNER:-}" ] || require_bpf
	start_server
	run "$CHAT_C" -q --trace --profile 127.0.0.1 1 10 "$SRV_PORT"
	echo "$output"
	if [ -n "${TEST_RUNNER:-}" ] && [ "$status" -ne 0 ] &&
		grep -q "cannot load the BPF programs: Function not implemented" \
			<<<"$output"; then
		skip "$QEMU_NO_BPF"
	fi
	[ "$status" -eq 0 ]
}
