#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the wire-protocol fuzzer with clang's libFuzzer, ASan and UBSan,
# replays the committed seeds and every past crash under
# tests/fuzz/regressions/, then fuzzes for FUZZ_SECONDS (60).  A crash,
# leak, timeout or out-of-memory is copied into tests/fuzz/regressions/ (to
# be committed, so it is replayed on every later run) and the script exits
# non-zero.  The growing corpus lives in the build directory, never in git.
set -euo pipefail
cd "$(dirname "$0")/../.."

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_OUT=${FUZZ_OUT:-build-fuzz}
CLANG=${CLANG:-clang}
src=tests/fuzz
regress=$src/regressions
bin=$FUZZ_OUT/fuzz_wire
artifacts=$FUZZ_OUT/artifacts

case $FUZZ_SECONDS in
'' | *[!0-9]*)
	echo "fuzz: FUZZ_SECONDS must be a whole number of seconds" >&2
	exit 2
	;;
esac

warn=(-Wall -Wextra)
[ "${WERROR:-0}" = 1 ] && warn+=(-Werror)
mkdir -p "$FUZZ_OUT/corpus" "$artifacts" "$regress"
echo "fuzz: building $bin"
"$CLANG" -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-D_GNU_SOURCE -Isrc -Ibpf "${warn[@]}" \
	"$src/fuzz_wire.c" src/workload/proto.c -o "$bin"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Inputs given as files run once each: a past crash that comes back fails.
mapfile -t olds < <(find "$regress" -type f ! -name 'README*' | sort)
mapfile -t seeds < <(find "$src/corpus" -type f | sort)
replay=("${seeds[@]}" "${olds[@]}")
echo "fuzz: replaying ${#seeds[@]} seeds and ${#olds[@]} regressions"
# Without file arguments libFuzzer would start fuzzing, without end.
if [ "${#replay[@]}" -gt 0 ] &&
	! "$bin" "${replay[@]}" >"$FUZZ_OUT/replay.log" 2>&1; then
	cat "$FUZZ_OUT/replay.log" >&2
	echo "fuzz: FAILED: a seed or a regression input fails again" >&2
	exit 1
fi

[ "$FUZZ_SECONDS" -eq 0 ] && exit 0
echo "fuzz: fuzzing for $FUZZ_SECONDS s"
rm -f "$artifacts"/*
rc=0
"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
	-max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
	"$FUZZ_OUT/corpus" "$src/corpus" >"$FUZZ_OUT/fuzz.log" 2>&1 || rc=$?
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|Done )' \
	"$FUZZ_OUT/fuzz.log" || true
found=0
for f in "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* \
	"$artifacts"/oom-*; do
	[ -e "$f" ] || continue
	cp "$f" "$regress/"
	echo "fuzz: saved $regress/$(basename "$f")" >&2
	found=1
done
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
	tail -n 60 "$FUZZ_OUT/fuzz.log" >&2
	echo "fuzz: FAILED (status $rc); commit the input(s) under $regress/" >&2
	exit 1
fi
echo "fuzz: ok"
