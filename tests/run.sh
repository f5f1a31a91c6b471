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

suites=${SUITES:-tests/integration/*.bats}
for s in $suites; do
	echo "# integration: $s"
	t0=$SECONDS
	bats --tap "$s" >"$log" 2>&1
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
