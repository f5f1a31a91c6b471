#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the fuzzers with clang's libFuzzer, ASan and UBSan, replays the
# committed seeds and every past crash of each, then fuzzes each for
# FUZZ_SECONDS (60):
#
#   fuzz_wire     the wire protocol, as client and server read it
#                 (seeds tests/fuzz/corpus, crashes tests/fuzz/regressions)
#   fuzz_results  result files, as chatbench-judge reads and judges them
#                 (tests/fuzz/corpus-results, tests/fuzz/regressions-results)
#
# A crash, leak, timeout or out-of-memory is copied into the target's
# regressions folder (to be committed, so it is replayed on every later
# run) and the script exits non-zero.  The growing corpora live in the
# build directory, never in git.
set -euo pipefail
cd "$(dirname "$0")/../.."

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_OUT=${FUZZ_OUT:-build-fuzz}
CLANG=${CLANG:-clang}
src=tests/fuzz

case $FUZZ_SECONDS in
'' | *[!0-9]*)
	echo "fuzz: FUZZ_SECONDS must be a whole number of seconds" >&2
	exit 2
	;;
esac

warn=(-Wall -Wextra)
[ "${WERROR:-0}" = 1 ] && warn+=(-Werror)
san=(-g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=undefined
	-D_GNU_SOURCE -Isrc -Ibpf)
mkdir -p "$FUZZ_OUT"
echo "fuzz: building $FUZZ_OUT/fuzz_wire"
"$CLANG" "${san[@]}" -fsanitize=fuzzer,address,undefined "${warn[@]}" \
	"$src/fuzz_wire.c" src/workload/proto.c -o "$FUZZ_OUT/fuzz_wire"
# The result loader and the analysis reach far into the tree: the
# project's own archive, built with the sanitizers and libFuzzer's
# coverage, and the target linked against it like any program.
echo "fuzz: building $FUZZ_OUT/fuzz_results"
make --no-print-directory -s CC="$CLANG -fsanitize=fuzzer-no-link" \
	SAN=address,undefined WERROR="${WERROR:-0}" OUT="$FUZZ_OUT/lib" \
	"$FUZZ_OUT/lib/libchatbench.a" >/dev/null
"$CLANG" "${san[@]}" -fsanitize=fuzzer,address,undefined "${warn[@]}" \
	"$src/fuzz_results.c" "$FUZZ_OUT/lib/libchatbench.a" \
	-o "$FUZZ_OUT/fuzz_results" -lbpf -ldw -lelf -lz -ljansson -lm -lpthread

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# fuzz NAME SEEDS REGRESSIONS MAX_LEN
fuzz() {
	local name=$1 seeds_dir=$2 regress=$3 max_len=$4
	local bin=$FUZZ_OUT/$name artifacts=$FUZZ_OUT/artifacts-$name
	local rc=0 found=0 f

	mkdir -p "$FUZZ_OUT/corpus-$name" "$artifacts" "$regress"
	# Inputs given as files run once each: a past crash that comes
	# back fails.
	mapfile -t olds < <(find "$regress" -type f ! -name 'README*' | sort)
	mapfile -t seeds < <(find "$seeds_dir" -type f | sort)
	replay=("${seeds[@]}" "${olds[@]}")
	echo "fuzz: $name: replaying ${#seeds[@]} seeds and ${#olds[@]} regressions"
	# Without file arguments libFuzzer would start fuzzing, without end.
	if [ "${#replay[@]}" -gt 0 ] &&
		! "$bin" "${replay[@]}" >"$FUZZ_OUT/replay-$name.log" 2>&1; then
		cat "$FUZZ_OUT/replay-$name.log" >&2
		echo "fuzz: $name: FAILED: a seed or a regression input fails again" >&2
		return 1
	fi
	[ "$FUZZ_SECONDS" -eq 0 ] && return 0
	echo "fuzz: $name: fuzzing for $FUZZ_SECONDS s"
	rm -f "$artifacts"/*
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-max_len="$max_len" -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$FUZZ_OUT/corpus-$name" \
		"$seeds_dir" >"$FUZZ_OUT/fuzz-$name.log" 2>&1 || rc=$?
	grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|Done )' \
		"$FUZZ_OUT/fuzz-$name.log" || true
	for f in "$artifacts"/crash-* "$artifacts"/leak-* \
		"$artifacts"/timeout-* "$artifacts"/oom-*; do
		[ -e "$f" ] || continue
		cp "$f" "$regress/"
		echo "fuzz: saved $regress/$(basename "$f")" >&2
		found=1
	done
	if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
		tail -n 60 "$FUZZ_OUT/fuzz-$name.log" >&2
		echo "fuzz: $name: FAILED (status $rc); commit the input(s) under $regress/" >&2
		return 1
	fi
	echo "fuzz: $name: ok"
}

rc=0
fuzz fuzz_wire "$src/corpus" "$src/regressions" 4096 || rc=1
# Result files: a traced run line is tens of kilobytes.
fuzz fuzz_results "$src/corpus-results" "$src/regressions-results" 65536 ||
	rc=1
exit $rc
