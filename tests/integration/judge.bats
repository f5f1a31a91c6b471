#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# chatbench-judge: saved series judged again.  A live series' file gives
# the live text and JSON unchanged; recorded series (tests/data/series)
# are judged without BPF; old, truncated or malformed files are judged
# on what they have or refused with one line.

load helpers

JUDGE="$BIN/chatbench-judge"
CORPUS="$BATS_TEST_DIRNAME/../data/series"

# A recorded series, uncompressed into the test's directory.
corpus() {
	zcat "$CORPUS/$1.json.gz" >"$BATS_TEST_TMPDIR/$1.json"
	echo "$BATS_TEST_TMPDIR/$1.json"
}

@test "a live 5-run series' file is judged to the live text and JSON, byte for byte" {
	require_bpf
	local f="$BATS_TEST_TMPDIR/live.json" n
	"$CHAT_C" --local --trace -r 5 -j "$f" 3 100 >"$BATS_TEST_TMPDIR/live.txt"
	"$JUDGE" -j "$BATS_TEST_TMPDIR/judged.json" "$f" \
		>"$BATS_TEST_TMPDIR/judged.txt"
	n=$(wc -l <"$BATS_TEST_TMPDIR/judged.txt")
	[ "$n" -gt 5 ]
	# From the blank line before the summary to the placement line.
	grep -q "^Summary  *: 5 of 5 runs completed" "$BATS_TEST_TMPDIR/judged.txt"
	tail -n "$n" "$BATS_TEST_TMPDIR/live.txt" |
		cmp - "$BATS_TEST_TMPDIR/judged.txt"
	cmp "$f" "$BATS_TEST_TMPDIR/judged.json"
}

@test "a recorded disturbed series: the slow run and its culprit, as text, JSON and report" {
	local f
	f=$(corpus hog)
	run "$JUDGE" -j "$BATS_TEST_TMPDIR/j.json" \
		--report "$BATS_TEST_TMPDIR/r.html" "$f"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Slow run 3 .*disturbed: outsider_cpu"
	echo "$output" | grep -q "1. outsider_cpu.*cx_hog (pid"
	jq -se '[.[] | select(.run and .slow) | .run] | index(3) != null' \
		"$BATS_TEST_TMPDIR/j.json"
	jq -se 'map(select(.summary)) | .[0].summary.verdict.verdict_version >= 1' \
		"$BATS_TEST_TMPDIR/j.json"
	grep -q "cx_hog" "$BATS_TEST_TMPDIR/r.html"
}

@test "a dip is judged from the saved intervals" {
	run "$JUDGE" -q "$(corpus stop)"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Dip in run 3 "
	"$JUDGE" -j - "$BATS_TEST_TMPDIR/stop.json" 2>/dev/null |
		jq -se '.[] | select(.run == 3) | .dips[0].kind == "stopped"'
	! echo "$output" | grep -q "^Placement"
}

@test "--baseline and --slow-threshold work as chat_c's" {
	run "$JUDGE" --baseline "$(corpus clean2)" "$(corpus clean)"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Diagnosis .*baseline median"
	"$JUDGE" -j - --slow-threshold 30 "$(corpus clean3)" 2>/dev/null |
		jq -se 'map(select(.summary)) |
			.[0].summary.verdict.slow_threshold_pct == 30'
	run "$JUDGE" --slow-threshold 0 "$(corpus clean)"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "an old file without budgets or intervals is judged on what it has, and says so" {
	local f
	f=$(corpus freeze)
	jq -c 'if .kernel then del(.kernel.budget, .kernel.intervals) else . end' \
		"$f" >"$BATS_TEST_TMPDIR/old.json"
	run "$JUDGE" "$BATS_TEST_TMPDIR/old.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Not in the file *: time budgets, intervals (judged without)"
	echo "$output" | grep -q "^Diagnosis *: "
	! echo "$output" | grep -q "^  budget:"
}

@test "several files: each named, each judged" {
	run "$JUDGE" "$(corpus clean)" "$(corpus rt)"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^File  *: ')" -eq 2 ]
	[ "$(echo "$output" | grep -c '^Diagnosis  *: ')" -eq 2 ]
}

@test "truncated, malformed or missing files: one line, status 1" {
	local f
	f=$(corpus clean)
	head -c 70000 "$f" >"$BATS_TEST_TMPDIR/cut.json"
	run "$JUDGE" "$BATS_TEST_TMPDIR/cut.json"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	echo "$output" | grep -q "^chatbench-judge: .*cut.json: "
	# A line of JSON that is not a run: a kernel record of the wrong type.
	head -n 1 "$f" | jq -c '.kernel.cpus = "two"' >"$BATS_TEST_TMPDIR/bad.json"
	run "$JUDGE" "$BATS_TEST_TMPDIR/bad.json"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	printf 'not json\n' >"$BATS_TEST_TMPDIR/text.json"
	run "$JUDGE" "$BATS_TEST_TMPDIR/text.json"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$JUDGE" /nonexistent.json
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "bad usage: one line, status 2" {
	run "$JUDGE"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$JUDGE" --bogus x.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$JUDGE" --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Usage: chatbench-judge"
}
