#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Profiled runs: on-CPU and off-CPU stacks by role (--profile,
# --profile-out), the scheduler timeline of the slowest second
# (--timeline), and their errors.  The samples are checked against the
# CPU the run's own accounting gives, with room for a short run's
# sampling noise; the 20 % claim is measured by tools/, not here.

load helpers

setup() {
	J="$BATS_TEST_TMPDIR/r.json"
	F="$BATS_TEST_TMPDIR/stacks.folded"
	T="$BATS_TEST_TMPDIR/timeline.json"
}

teardown() {
	stop_server
}

jrun() {
	jq -se "map(select(.run)) | last | $1" "$J"
}

@test "--profile: folded stacks of both sides that add up to the samples" {
	require_bpf
	start_server
	run "$CHAT_C" -q --profile --profile-out "$F" -j "$J" \
		127.0.0.1 4 300 "$SRV_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -Eq "^Stack samples      : [0-9]+ at 99 Hz of the benchmark's threads \([0-9.]+x the [0-9]+ its CPU time predicts\)"
	echo "$output" | grep -q "^Off CPU            : waiting to run"
	jrun '.profile.hz == 99 and .profile.samples > 0'
	# Samples against 99 Hz x the CPU both processes used.
	jrun '.profile.samples / .profile.expected_samples | . > 0.6 and . < 1.5'
	# Every line is "frames count"; the counts are the samples.
	! grep -Evq '^[^ ]+ [0-9]+$' "$F"
	total=$(awk '{ s += $NF } END { print s }' "$F")
	jrun ".profile.samples + .profile.outsider_samples == $total"
	# Both sides, by role; the kernel's TCP send path; our own functions.
	grep -q '^cli_snd;' "$F"
	grep -q '^cli_rcv;' "$F"
	grep -Eq '^srv_(rcv|snd);' "$F"
	grep -q ';tcp_sendmsg' "$F"
	# (Under TSan the data path keeps glibc's send and recv, whose use
	# of rbp ends a frame-pointer walk: only the leaf is known.)
	if [ "${CHATBENCH_SAN:-}" != thread ]; then
		grep -q ';run_sender_main;' "$F"
		grep -Eq ';(receiver|sender)_main;' "$F"
	fi
	# Off-CPU time, by why the thread was away.
	grep -Eq '^(cli|srv)_[a-z]+;\[blocked\];.* [0-9]+$' "$F.offcpu"
	jrun '.profile.offcpu_ns.blocked > 0'
	jrun '[.profile.offcpu[] | select(.kind == "blocked")] | length > 0'
	jrun '.profile.cost.run_cnt > 0'
}

@test "--timeline: a JSON trace of our threads' switches in the slowest second" {
	require_bpf
	start_server
	# 4 x 200: over a second here, and a trace jq reads in moments.
	run "$CHAT_C" -q --timeline "$T" -j "$J" 127.0.0.1 4 200 "$SRV_PORT"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -Eq "^Timeline           : .* in $T \([0-9]+ events in the run"
	# One pass of jq over the trace (tens of MB: a second a pass): the
	# checks below, each an element of the array that must be all true.
	jq -se --argjson s "$SRV_PID" '(.[0]) as $d | ($d.otherData) as $w |
		(.[1:] | map(select(.run)) | last | .kernel) as $k |
		(($w.window_start_ns | tonumber) -
		 ($w.run_start_ns | tonumber)) as $from |
		($k.intervals | map(.duration_ns) | max) as $longest |
		[
		 # Events, and slices of running threads of both processes,
		 # named by role, and wakeups.
		 ($d.traceEvents | length > 0),
		 any($d.traceEvents[]; .ph == "X" and .name == "running" and
		     .pid == $s),
		 any($d.traceEvents[]; .ph == "M" and .name == "thread_name"
		     and (.args.name | startswith("cli_snd"))),
		 any($d.traceEvents[]; .name == "wakeup"),
		 # The window is whole intervals of the run'"'"'s series, a
		 # second'"'"'s worth: it may overrun by one interval (a late
		 # sampler under TSan made one 1.23 s), never by more.  A
		 # run too short for a second of intervals (a faster
		 # machine) gives its whole length instead.
		 (($from == 0 and
		   ($w.window_s * 1e9 - $k.wall_ns | fabs) < 1000) or
		  (any($k.intervals[]; .start_ns == $from) and
		   $w.window_s >= 0.95 and
		   $w.window_s * 1e9 <= 1e9 + $longest)),
		 # Every slice lies inside the window.
		 all($d.traceEvents[] | select(.ph == "X"); .ts >= 0 and
		     .ts + .dur <= $w.window_s * 1e6 + 1)
		] | all' "$T" "$J"
	# No profile was asked for.
	jrun 'has("profile") | not'
}

@test "profiling without the tracer, or into an unwritable file, fails at once" {
	run "$CHAT_C" --profile --no-trace 127.0.0.1 1 1 9
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "chat_c: --profile and --timeline are read by the tracer: not with --no-trace" ]
	run "$CHAT_C" --profile=0 127.0.0.1 1 1 9
	[ "$status" -eq 2 ]
	echo "${lines[-1]}" | grep -q -- "--profile"
	require_bpf
	start_server
	run "$CHAT_C" -q --profile-out /nonexistent/dir/f 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "chat_c: --profile-out: cannot write /nonexistent/dir/f: No such file or directory" ]
	run "$CHAT_C" -q --timeline /nonexistent/t.json 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 1 ]
	echo "${lines[-1]}" | grep -q "^chat_c: --timeline: cannot write /nonexistent/t.json"
	# The server served none of them and is fine.
	assert_normal_run 1 5
}

@test "the report of a profiled run holds a flame graph per role, on and off CPU" {
	require_bpf
	start_server
	H="$BATS_TEST_TMPDIR/r.html"
	run "$CHAT_C" -q --profile --report "$H" -j "$J" 127.0.0.1 4 300 "$SRV_PORT"
	[ "$status" -eq 0 ]
	xmllint --noout "$H"
	for role in cli_snd cli_rcv; do
		grep -q "<div class=\"fg\" data-role=\"$role\" data-kind=\"oncpu\">" "$H"
		grep -q "<div class=\"fg\" data-role=\"$role\" data-kind=\"offcpu\">" "$H"
	done
	grep -Eq '<div class="fg" data-role="srv_(rcv|snd)" data-kind="oncpu">' "$H"
	# Frames of the stacks, with their names in the titles.
	[ "$(xmllint --xpath 'count(//*[local-name()="g" and @class="fr"])' "$H")" -gt 20 ]
	grep -q '<title>tcp_sendmsg' "$H"
	# Self-contained: one inline script, nothing fetched.
	[ "$(grep -c '<script' "$H")" -eq 1 ]
	run grep -Eio 'https?:|@import|url\(|<link|<img|<iframe|<object|\b(src|href|xlink:href)=|<script [^>]*src' "$H"
	[ "$status" -eq 1 ]
}

@test "the profiler loads and samples on the raw_tp fallback too" {
	require_bpf
	start_server
	CHATBENCH_BPF_RAW_TP=1 run "$CHAT_C" -q --profile --timeline "$T" \
		-j "$J" 127.0.0.1 2 100 "$SRV_PORT"
	[ "$status" -eq 0 ]
	jrun '.kernel.mode == "raw_tp" and .profile.samples > 0'
	jrun '[.profile.offcpu[] | select(.role == "cli_rcv")] | length > 0'
	jq -e '[.traceEvents[] | select(.name == "running")] | length > 0' "$T"
}
