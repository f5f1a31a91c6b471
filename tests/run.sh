#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The one test runner: the cmocka unit tests, then the bats integration
# suites, all in TAP; ends with the line "N passed, N failed, N skipped".
# Integration tests that need BPF skip without it, unless
# CHATBENCH_REQUIRE_BPF=1 (CI), where they fail instead.  For a cross
# build (make check-arm64): TEST_RUNNER prefixes every unit test
# (qemu-aarch64-static), SUITES replaces the integration suites, and the
# suites in SKIP_SUITES are each counted as skipped, with SKIP_REASON.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
export OUT
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in
		"not ok"*)
			fail=$((fail + 1)) ;;
		"ok "*"# skip"* | "ok "*"# SKIP"*)
			skip=$((skip + 1)) ;;
		"ok "*)
			pass=$((pass + 1)) ;;
		esac
	done
}

for t in "$OUT"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "# unit: $(basename "$t")"
	# shellcheck disable=SC2086 # a command and its options
	CMOCKA_MESSAGE_OUTPUT=TAP ${TEST_RUNNER:-} "$t" >"$log" 2>&1
	rc=$?
	count <"$log"
	# A crash prints no "not ok": count it.
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log"; then
		echo "not ok - $(basename "$t") exited with status $rc"
		fail=$((fail + 1))
	fi
done

# Every process below $1, depth first.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

# What a suite that did not end was doing, for a CI log that is all one
# gets: each process's threads (class, state, kernel wait channel), its
# kernel stack, and our binaries' user stacks.
hung_report() {
	local p
	echo "# $s: still running after $SUITE_TIMEOUT s; its processes:"
	for p in $(descendants "$1"); do
		ps -L -o pid=,tid=,cls=,rtprio=,stat=,wchan:28=,comm= -p "$p" \
			2>/dev/null | sed 's/^/#   /'
		echo "#   args: $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null)"
		case $(cat /proc/"$p"/comm 2>/dev/null) in
		bash | cat) ;;
		*)
			sed 's/^/#     k /' /proc/"$p"/stack 2>/dev/null |
				head -12 ;;
		esac
		case $(cat /proc/"$p"/comm 2>/dev/null) in
		chat_*)
			command -v gdb >/dev/null || continue
			timeout 60 gdb -p "$p" -batch -ex 'thread apply all bt 12' \
				2>/dev/null | grep '^#\|^Thread' | head -200 |
				sed 's/^/#     u /' ;;
		esac
	done
}

# A suite that hangs must not take the CI stage's whole bound with it,
# nor leave the log without the test it hung in: bats writes each result
# as it ends, so the log shows the last test that ended.
SUITE_TIMEOUT=${SUITE_TIMEOUT:-420}
run_suite() {
	local pid wd rc
	# Appending, both: the report is not written over by bats's last words.
	: >"$log"
	bats --tap "$s" >>"$log" 2>&1 &
	pid=$!
	(
		sleep "$SUITE_TIMEOUT"
		hung_report "$pid" >>"$log"
		kill -TERM $(descendants "$pid") "$pid" 2>/dev/null
		sleep 5
		kill -KILL $(descendants "$pid") "$pid" 2>/dev/null
	) &
	wd=$!
	wait "$pid"
	rc=$?
	kill $(pgrep -P "$wd") "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	return $rc
}

suites=${SUITES:-tests/integration/*.bats}
for s in $suites; do
	echo "# integration: $s"
	t0=$SECONDS
	run_suite
	rc=$?
	count <"$log"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log"; then
		echo "not ok - $s: bats exited with status $rc"
		fail=$((fail + 1))
	fi
	# CI bounds each stage: say where the time goes.
	echo "# $s took $((SECONDS - t0)) s"
done

for s in ${SKIP_SUITES:-}; do
	echo "# integration: $s"
	count <<<"ok - $s # SKIP ${SKIP_REASON:-cannot run here}"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
