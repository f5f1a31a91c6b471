#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Slow runs provoked with real causes, and the verdict of the report.  In
# a series of 5 (or 7) runs, one run is disturbed by tools/disturb.sh,
# which watches the series' JSON file.  Assertions are on the verdict,
# names and kinds, not on numbers a VM does not promise.

load helpers

DISTURB="$BATS_TEST_DIRNAME/../../tools/disturb.sh"

setup() {
	require_bpf
	F="$BATS_TEST_TMPDIR/r.json"
}

# A provoked slowdown is a matter of timing; under a sanitizer the
# benchmark's own code runs several times slower and hides it.  The
# diagnosis code itself still runs there, in the other tests.
no_sanitizer() {
	[ -z "${CHATBENCH_SAN:-}" ] ||
		skip "timing verdicts are not checked under $CHATBENCH_SAN"
}

teardown() {
	[ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null || true
	wait 2>/dev/null || true
}

# Runs a series of $1 runs with run $2 disturbed by the rest of the
# arguments (disturb.sh's).
series() {
	local runs=$1 k=$2
	shift 2
	rm -f "$F"
	OUT="$BIN" "$DISTURB" "$F" "$k" "$@" &
	DPID=$!
	run "$CHAT_C" --local -q --trace -r "$runs" --pause 400 -j "$F" 10 300
	wait "$DPID" || true
	DPID=
	[ "$status" -eq 0 ]
}

run3() {
	jq -c 'select(.run == 3)' "$F"
}

# Every run of the series: number, throughput, slow, disturbed, causes.
show_runs() {
	jq -c 'select(.run) | [.run, (.throughput | floor), .slow,
		.disturbed, [.causes[]? | .kind, .task]]' "$F"
}

# A burner with a name never seen before in run $1 of 5: that run, and
# no other after the first, is slow, and the burner is its first cause.  One retry: a
# shared 2-core machine may disturb another run of the series too.
burner_in_run() {
	local k=$1 name try ok=0
	no_sanitizer
	for try in 1 2; do
		name=$(printf 'qx%d_%04x' "$k" $((RANDOM % 65536)))
		series 5 "$k" hog "$name"
		show_runs
		# Run 1 is not asked about: on a machine that just ran
		# another suite (its connections' TIME_WAITs), the first run
		# of a series goes 10-30 % slower with nothing in the kernel
		# record to name (CI, 2026-12-07: runs 1 of both tries of
		# "run 2 of 5", 10 % and 25 % below their series, "nothing
		# stands out"); what this test checks is the burner's run.
		if jq -se --argjson k "$k" --arg n "$name" '
			[.[] | select(.run and .run > 1 and .slow) | .run] ==
			[$k] and
			(.[] | select(.run == $k) | .causes[0].kind ==
			 "outsider_cpu" and .causes[0].task == $n and
			 .causes[0].pid > 0)' "$F"; then
			ok=1
			break
		fi
	done
	[ $ok -eq 1 ]
	echo "$output" | grep -q "^Slow run $k .*disturbed: outsider_cpu"
	echo "$output" | grep -q "1. outsider_cpu.*$name (pid"
	# What the series can resolve is said, in the text and the JSON.  The
	# floors are 10 % and 5 % of the median, computed in floating point:
	# 10 % of a median, over the median, may come out as 9.999999999.
	echo "$output" | grep -q "^Resolution .*runs vary +-"
	jq -se 'map(select(.summary)) | .[0].summary.verdict |
		.reference == "series" and .spread_pct >= 0 and
		.min_slow_pct >= 9.999 and .min_slow_evidence_pct >= 4.999' "$F"
	# The text stays under 100 columns, wrapped at spaces: no line ends
	# in one, none starts with a "%" torn from its number.
	echo "$output" | awk 'length > 99 || / $/ || /^ *%/ { print; bad = 1 }
		END { exit bad }'
}

@test "a burner in run 2 of 5: that run alone is slow, the burner named first" {
	burner_in_run 2
}

@test "a burner in run 3 of 5: that run alone is slow, the burner named first" {
	burner_in_run 3
}

@test "a burner in run 4 of 5: that run alone is slow, the burner named first" {
	burner_in_run 4
}

# Runs a series of 5 with run $1 disturbed by disturb.sh's $2 (quota or
# stop) aimed at $3: the client (chat_c) or the server (chat_s).
series_at() {
	local k=$1 what=$2 who=$3 cpid spid target i
	rm -f "$F"
	"$CHAT_C" --local -q --trace -r 5 --pause 800 -j "$F" 10 200 \
		>"$BATS_TEST_TMPDIR/out" 2>&1 &
	cpid=$!
	for i in $(seq 100); do
		spid=$(pgrep -P $cpid chat_s || true)
		[ -n "$spid" ] && break
		sleep 0.1
	done
	[ -n "$spid" ]
	target=$cpid
	[ "$who" = server ] && target=$spid
	# A stop lands 0.4 s into the run, after the 0.8 s pause.
	STOP_AFTER=1.2 OUT="$BIN" "$DISTURB" "$F" "$k" "$what" "$target"
	wait $cpid
	output=$(cat "$BATS_TEST_TMPDIR/out")
	show_runs
}

# The process's name as the verdict says it.
name_of() {
	[ "$1" = server ] && echo chat_s || echo chat_c
}

# A CPU quota of 40 % of one CPU on $2 during run $1: that run, and no
# other after the first, is slow, and its first cause is the throttling
# of that process.
quota_in_run() {
	local k=$1 who=$2 try ok=0
	no_sanitizer
	for try in 1 2; do
		series_at "$k" quota "$who"
		# Not run 1: see burner_in_run.
		if jq -se --argjson k "$k" --arg p "$(name_of "$who")" '
			[.[] | select(.run and .run > 1 and .slow) | .run] ==
			[$k] and
			(.[] | select(.run == $k) | .causes[0].kind ==
			 "cpu_quota" and .causes[0].task == $p)' "$F"; then
			ok=1
			break
		fi
	done
	[ $ok -eq 1 ]
	echo "$output" | grep -q "cpu_quota.*CPU quota: $(name_of "$who") (pid"
	jq -se --argjson k "$k" '.[] | select(.run == $k) |
		.kernel.processes.'"$who"'.cgroup | .quota_us == 40000 and
		.throttled_periods > 0' "$F"
}

# SIGSTOP of $2 for 0.8 s in the middle of run $1: that run gets a dip or
# a cause that says which process was stopped.
stop_in_run() {
	local k=$1 who=$2 try ok=0
	no_sanitizer
	for try in 1 2; do
		series_at "$k" stop "$who"
		if jq -se --argjson k "$k" --arg p "$(name_of "$who")" '
			.[] | select(.run == $k) |
			[(.dips // [])[], (.causes // [])[] |
			 select(.kind == "stopped") | .sentence] |
			any(startswith($p) or contains($p + " (pid"))' "$F"; then
			ok=1
			break
		fi
	done
	[ $ok -eq 1 ]
	# Who sent the signal: the kernel says, the record keeps it.
	jq -se --argjson k "$k" '.[] | select(.run == $k) |
		.kernel.processes.'"$who"'.stops | .signals >= 1 and
		.signal == 19 and .stopped_ns > 500000000' "$F"
}

@test "a CPU quota on the server in run 3 of 5: named first, that run alone" {
	quota_in_run 3 server
}

@test "a CPU quota on the client in run 2 of 5: named first, that run alone" {
	quota_in_run 2 client
}

@test "SIGSTOP of the server for 0.8 s in run 3: the stop is named" {
	stop_in_run 3 server
}

@test "SIGSTOP of the client for 0.8 s in run 4: the stop is named" {
	stop_in_run 4 client
}

@test "tiny socket buffers during one run: socket backpressure is named" {
	no_sanitizer
	# Tiny buffers cost 7 to 30 % here, not always the margin a verdict
	# needs (under sanitizers the CPU hides them): up to 3 tries.  Every
	# try must record full send buffers (client or server side: which
	# fills depends on who falls behind) in run 3 and nowhere else;
	# whenever run 3 is judged slow, backpressure must be among its causes.
	local slow=0 full='.kernel.sockets | .client.sndbuf_full + .server.sndbuf_full'
	for try in 1 2 3; do
		series 5 3 sockbuf
		jq -c "select(.run) | [.run, (.throughput | floor), .slow,
			($full), [.causes[]?.kind]]" "$F"
		jq -se "map(select(.run)) | (.[2] | $full) >
			10 * ([.[0,1,3,4] | $full] | max) + 100" "$F"
		if run3 | jq -e '.slow == true'; then
			run3 | jq -e '[.causes[].kind] | index("socket_backpressure") != null'
			slow=1
			break
		fi
	done
	[ $slow -eq 1 ] || echo "# tiny buffers never slowed run 3 past the margin here" >&3
}

@test "both processes confined to one CPU during one run: scheduler contention" {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	no_sanitizer
	# Confinement halves the threads model's rate on most of these VMs,
	# but where a cross-CPU wakeup costs as much as the parallelism
	# gains it may not: up to 3 tries.  Every try must show that the
	# confinement took hold in run 3 and only there (the benchmark's
	# threads waited on CPU 0 alone; how long CPU 1 then idles is the
	# VM's business, not ours); whenever run 3 is judged slow, scheduler
	# contention must be named.
	local slow=0
	for try in 1 2 3; do
		rm -f "$F"
		"$CHAT_C" --local -q --trace -r 5 --pause 400 -j "$F" 10 300 \
			>"$BATS_TEST_TMPDIR/out" 2>&1 &
		cpid=$!
		# The server is the chat_s child of this chat_c.
		for i in $(seq 50); do
			spid=$(pgrep -P $cpid chat_s || true)
			[ -n "$spid" ] && break
			sleep 0.1
		done
		[ -n "$spid" ]
		OUT="$BIN" "$DISTURB" "$F" 3 pin $cpid $spid
		wait $cpid
		jq -c 'select(.run) | [.run, (.throughput | floor), .slow,
			[.causes[]?.kind]]' "$F"
		run3 | jq -e '[.kernel.stealers[] | select(.is_benchmark) |
			.cpus] | length > 0 and all(. == [0])'
		jq -se 'map(select(.run and .run != 3)) | all(.[];
			[.kernel.stealers[] | select(.is_benchmark) |
			 .cpus | index(1)] | any)' "$F"
		if run3 | jq -e '.slow == true'; then
			run3 | jq -e '[.causes[].kind] | index("sched_contention") != null'
			slow=1
			break
		fi
	done
	[ $slow -eq 1 ] || echo "# one CPU never slowed run 3 past the margin here" >&3
}

# One clean series.  Returns 2 if what holds of any series does not (the
# record is whole, nothing is blamed on the benchmark itself), 1 if the
# verdict is not clean, 0 if it is (or under a sanitizer, where the
# benchmark's threads run several times slower and in lumps, so the
# verdict itself is not checked).
clean_series() {
	run "$CHAT_C" --local -q --trace -r 5 --pause 400 -j "$F" 10 300
	[ "$status" -eq 0 ] || return 2
	show_runs
	[ "$(jq -s 'map(select(.run)) | length' "$F")" -eq 5 ] || return 2
	# Phases need a series of at least 6 intervals (a sanitizer's
	# sampler may not get one).
	jq -se 'map(select(.run)) | all(.[]; has("slow") and (has("phases") or
		((.kernel.intervals // []) | length) < 6))' "$F" || return 2
	# A slow run of a clean series may only blame an outsider that
	# really ran: never the benchmark's own processes.
	jq -se '[.[] | select(.slow == true) | .causes[]? |
		select(.kind == "outsider_cpu") | .task] |
		all(.[]; test("^(chat_c|chat_s|cli_|srv_)") | not)' "$F" ||
		return 2
	[ -n "${CHATBENCH_SAN:-}" ] && return 0
	jq -se 'map(select(.run)) | all(.[]; .slow == false and
		((.dips // []) | length) == 0)' "$F" || return 1
	echo "$output" | grep -q "^Diagnosis *: 0 slow of 5" || return 1
	echo "$output" | grep -q "^Phases *: 0 dips in the steady parts" ||
		return 1
	! echo "$output" | grep -q "^Dip in run" || return 1
}

# No slow run and no dip.  One retry, as for the burners: runs of this
# VM now and then fall 10-22 % below their series with nothing in the
# kernel record (2 in 90 of make bench-diagnosis's undisturbed runs, 6 in
# 81 in a noisy spell), and the verdict rightly calls such a run slow
# with no cause standing out.
@test "clean runs: no slow run, no dip, and nothing false is said" {
	local try rc
	for try in 1 2; do
		rc=0
		clean_series || rc=$?
		[ $rc -ne 2 ]
		[ $rc -eq 0 ] && return 0
		echo "# try $try: a run fell short or dipped" >&3
	done
	false
}

@test "a single run gets a profile, not a verdict" {
	run "$CHAT_C" --local -q --trace 5 300
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Profile of run 1"
	echo "$output" | grep -q "threads' time"
	echo "$output" | grep -q "^Judged against *: its own steady intervals (no --baseline)"
	! echo "$output" | grep -q "^Diagnosis"
}

@test "--baseline judges runs against a saved file" {
	"$CHAT_C" --local -q --trace -r 3 -j "$BATS_TEST_TMPDIR/base.json" 5 200
	run "$CHAT_C" --local -q --trace -r 2 --baseline "$BATS_TEST_TMPDIR/base.json" 5 200
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Diagnosis .*baseline median"
	run "$CHAT_C" --local -q --baseline /nonexistent.json 1 1
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
}
