#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The server's host's kernel record (chat_s traced on another machine,
# issue 31), judged from recorded data without a live server: a recorded
# disturbed series whose kernel records were moved into "server_host"
# (tests/data/server-host/hog: run 3 slowed by the burner cx_hog, the
# client untraced), and files made from it and from a clean series.

load helpers

JUDGE="$BIN/chatbench-judge"
DATA="$BATS_TEST_DIRNAME/../data"

# The recorded series as saved with the server's host traced.
server_hog() {
	zcat "$DATA/server-host/hog.json.gz" >"$BATS_TEST_TMPDIR/hog.json"
	echo "$BATS_TEST_TMPDIR/hog.json"
}

@test "the server's host's burner is the slow run's first cause, on that host" {
	local f j="$BATS_TEST_TMPDIR/j.json"
	f=$(server_hog)
	run "$JUDGE" -j "$j" --report "$BATS_TEST_TMPDIR/r.html" "$f"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Slow run 3 .*disturbed: outsider_cpu"
	echo "$output" | grep -q "^  1. outsider_cpu ([0-9]* % of the loss): on the server's host (srvhost): "
	echo "$output" | grep -q "^  budget, server's host (srvhost): "
	! echo "$output" | grep -q "untraced: no kernel figures"
	jq -se '[.[] | select(.run == 3)][0] | .slow and
		.causes[0].host == "server" and
		.causes[0].kind == "outsider_cpu" and
		.causes[0].task == "cx_hog" and .loss.host == "server" and
		.server_host.name == "srvhost" and
		(.server_host.kernel | type) == "object" and
		(has("kernel") | not)' "$j"
	jq -se '[.[] | select(.run and .run != 3 and .slow)] | length == 0' "$j"
	jq -se 'map(select(.summary))[0].summary.verdict.verdict_version >= 2' "$j"
	grep -q "srvhost" "$BATS_TEST_TMPDIR/r.html"
}

@test "a clean series traced on the server's host stays silent" {
	zcat "$DATA/series/clean.json.gz" | jq -c 'if .run then
		(.server_host = {name: "srvhost", trace: "on",
				 kernel: .kernel} | del(.kernel)) else . end' \
		>"$BATS_TEST_TMPDIR/clean.json"
	run "$JUDGE" "$BATS_TEST_TMPDIR/clean.json"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Diagnosis *: 0 slow of "
	! echo "$output" | grep -q "server's host"
}

@test "both hosts' records: the cause is named once per host" {
	local f
	f=$(server_hog)
	jq -c 'if .run then .kernel = .server_host.kernel else . end' "$f" \
		>"$BATS_TEST_TMPDIR/both.json"
	run "$JUDGE" -j "$BATS_TEST_TMPDIR/j.json" \
		--report "$BATS_TEST_TMPDIR/r.html" "$BATS_TEST_TMPDIR/both.json"
	[ "$status" -eq 0 ]
	# The report: each run's budget bars of both hosts.
	[ "$(grep -o 'id="g[0-9]*-budget-run[0-9]*-server"' "$BATS_TEST_TMPDIR/r.html" | wc -l)" -eq 5 ]
	[ "$(echo "$output" | grep -c '^  [0-9]\. outsider_cpu')" -eq 2 ]
	[ "$(echo "$output" | grep -c "^  [0-9]\. outsider_cpu.*: on the server's host (srvhost): ")" -eq 1 ]
	jq -se '[.[] | select(.run == 3)][0].causes |
		map(select(.kind == "outsider_cpu") | .host) | sort ==
		["client", "server"]' "$BATS_TEST_TMPDIR/j.json"
}

@test "the server's host not traced: said once, with why" {
	local f
	f=$(server_hog)
	jq -c 'if .run then .server_host = {name: "srvhost",
		trace: "off: chat_s is not root"} else . end' "$f" \
		>"$BATS_TEST_TMPDIR/off.json"
	run "$JUDGE" -j "$BATS_TEST_TMPDIR/j.json" "$BATS_TEST_TMPDIR/off.json"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c "not traced")" -eq 1 ]
	echo "$output" | grep -q "^Server's host *: srvhost is not traced: chat_s is not root$"
	echo "$output" | grep -q "untraced: no kernel figures"
	jq -se '[.[] | select(.run)] | all(.server_host.trace ==
		"off: chat_s is not root")' "$BATS_TEST_TMPDIR/j.json"
}
