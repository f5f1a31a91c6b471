#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The files of one run's clients merged into one view (issue 31, item 4):
# chat_s --clients N releases N chat_c processes' runs together and names
# each released run's group; chatbench-report and chatbench-compare given
# the clients' files show one series, a run being its clients' messages
# over the longest client's time.  Replayed on a recorded series
# (tests/data/clients3, tools/record-clients3.sh: chat_s on host "srv",
# traced, and three clients cli1..cli3 untraced, 2 runs of 2 x 100 each),
# then once live in network namespaces.

load helpers

REPORT="$BIN/chatbench-report"
COMPARE="$BIN/chatbench-compare"
DATA="$BATS_TEST_DIRNAME/../data/clients3"

setup() {
	SRV_WRAP=()
	NETNS=()
	local k
	for k in 1 2 3; do
		zcat "$DATA/c$k.json.gz" >"$BATS_TEST_TMPDIR/c$k.json"
	done
	F=("$BATS_TEST_TMPDIR"/c{1,2,3}.json)
}

teardown() {
	local p
	stop_server_checked
	for p in "${NETNS[@]}"; do
		ip netns del "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
}

# The merged view's section and the budget labels of every host in it.
assert_merged_report() {
	local h="$1"
	shift
	grep -c '<section class="clients" id="clients">' "$h" | grep -qx 1
	grep -q "<h2>One run's $# clients, merged</h2>" "$h"
	# Replaces the comparison of the files as settings.
	! grep -q '<table class="cmp"' "$h"
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$h"
}

@test "recorded: chatbench-report of the three clients' files is one merged view with the server's host's budget" {
	local h="$BATS_TEST_TMPDIR/m.html" k
	run "$REPORT" -o "$h" "${F[@]}"
	[ "$status" -eq 0 ]
	assert_merged_report "$h" "${F[@]}"
	# Every host with a budget: here the server's, once per run (the
	# clients ran --no-trace); each client named in the runs' table.
	[ "$(grep -c "host-label\">server's host srv<" "$h")" -eq 2 ]
	! grep -q "host-label\">client's host" "$h"
	for k in 1 2 3; do
		grep -q "<th class=\"num\">cli$k msg/s</th>" "$h"
	done
	grep -q 'id="clients-run2"' "$h"
	grep -q "Judged on the server's host's record" "$h"
}

@test "recorded: chatbench-compare prints the merged runs with their exact totals, then the verdict" {
	run "$COMPARE" "${F[@]}"
	[ "$status" -eq 0 ]
	echo "$output"
	echo "$output" | grep -q "^Clients of one run : 3 files merged"
	echo "$output" | grep -qE '^run +cli1 +cli2 +cli3 +sent +received'
	# 3 clients x 2 rooms x 20 users x 100 messages sent, x19 received;
	# the total rate is the total over the longest client's time.
	echo "$output" | awk '$1 ~ /^[12]$/ && NF == 8 {
		n++; if ($5 != 12000 || $6 != 228000) bad++
		if (($5 + $6) / $7 < $8 * 0.99 || ($5 + $6) / $7 > $8 * 1.01) bad++
	} END { exit !(n == 2 && !bad) }'
	echo "$output" | grep -q "^Server's host      : srv, traced"
	echo "$output" | grep -q "^Summary            : 2 of 2 runs completed, 6 rooms x 100 messages"
	echo "$output" | grep -q "^Diagnosis          : "
}

@test "recorded: files of different runs, or one file twice, are compared as settings" {
	jq -c 'if .server_host then .server_host.group += "x" else . end' \
		"${F[1]}" >"$BATS_TEST_TMPDIR/other.json"
	run "$COMPARE" "${F[0]}" "$BATS_TEST_TMPDIR/other.json"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "Clients of one run"
	run "$COMPARE" "${F[0]}" "${F[0]}"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "Clients of one run"
	run "$REPORT" -o "$BATS_TEST_TMPDIR/o.html" "${F[0]}" \
		"$BATS_TEST_TMPDIR/other.json"
	[ "$status" -eq 0 ]
	! grep -q 'id="clients"' "$BATS_TEST_TMPDIR/o.html"
}

# Three client namespaces, each its own host name (a UTS namespace), one
# chat_s --clients 3 in a fourth, traced (root): the clients ask for its
# record; cli1 also traces its own host.
@test "live: three clients of chat_s --clients 3 in three namespaces share each run's group, and merge" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
	command -v ip >/dev/null || skip "needs iproute2"
	require_bpf
	local tag="cm$$" k pids=() h="$BATS_TEST_TMPDIR/live.html" trace
	netns_star "$tag" 207 3
	launch_server 0.0.0.0 --clients 3 --timeout 10
	for k in 1 2 3; do
		trace=--no-trace
		[ "$k" -eq 1 ] && trace=
		ip netns exec "$tag-c$k" unshare --uts sh -c \
			'hostname "$1" && shift && exec "$@"' sh "lcli$k" \
			"$CHAT_C" -q $trace -r 2 -j "$BATS_TEST_TMPDIR/l$k.json" \
			"10.207.$k.1" 1 50 "$SRV_PORT" \
			>"$BATS_TEST_TMPDIR/l$k.out" 2>&1 3>&- &
		pids+=($!)
	done
	for k in 0 1 2; do
		wait "${pids[$k]}" || { cat "$BATS_TEST_TMPDIR"/l*.out "$SRV_LOG"; false; }
	done
	jq -sc '[.[] | select(.run) | [.run, .server_host.group,
		.server_host.trace]]' "$BATS_TEST_TMPDIR"/l{1,2,3}.json
	jq -se '[.[] | select(.run)] | length == 6 and
		all(.server_host.trace == "on" and
		    (.server_host.group | length) > 0 and
		    (.server_host.kernel | type) == "object") and
		(group_by(.run) | all(map(.server_host.group) | unique |
				      length == 1)) and
		([.[].server_host.group] | unique | length) == 2' \
		"$BATS_TEST_TMPDIR"/l{1,2,3}.json
	run "$REPORT" -o "$h" "$BATS_TEST_TMPDIR"/l{1,2,3}.json
	[ "$status" -eq 0 ]
	assert_merged_report "$h" 1 2 3
	[ "$(grep -c "host-label\">server's host " "$h")" -eq 2 ]
	[ "$(grep -c "host-label\">client's host lcli1<" "$h")" -eq 2 ]
	! grep -q "host-label\">client's host lcli[23]<" "$h"
}
