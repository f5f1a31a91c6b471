#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Whole-process time of our chat_c against the original 1.0.1's, the same
# work, alternating pairs (the order swapped every pair), each client
# against its own separately started server; prints each pair and the
# median ratio ours / original with its bootstrap 95 % interval.  Start-up
# and tear-down count: that is what a user of `time chat_c ...` sees.
#
#   tools/vs-original.sh ORIG_DIR [ROOMS MSGS PAIRS]     (10 100 15)
#   CHAT_C_ARGS= tools/vs-original.sh ...    traced (default: --no-trace)
#
# ORIG_DIR holds chat_s and chat_c of the original, built by you (this
# project does not ship them).  A benchmark, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
ORIG=${1:?usage: tools/vs-original.sh ORIG_DIR [ROOMS MSGS PAIRS]}
ROOMS=${2:-10}
MSGS=${3:-100}
PAIRS=${4:-15}
ARGS=${CHAT_C_ARGS---no-trace}
for b in chat_s chat_c; do
	[ -x "$ORIG/$b" ] ||
		{ echo "vs-original: no executable $ORIG/$b" >&2; exit 2; }
done
osrv=
cleanup_more() {
	# The original dies of the signal: its status is not ours.
	if [ -n "$osrv" ] && kill "$osrv" 2>/dev/null; then
		wait "$osrv" 2>/dev/null || true
	fi
}
TOOL=vs-original
. tools/server.sh
start_server

# The original takes a fixed port: the first free one above ours.
oport=$((port + 1))
while ss -Htln "sport = :$oport" | grep -q .; do
	oport=$((oport + 1))
done
"$ORIG/chat_s" 127.0.0.1 "$oport" >"$tmp/orig_s.log" 2>&1 &
osrv=$!
for _ in $(seq 50); do
	ss -Htln "sport = :$oport" | grep -q . && break
	sleep 0.1
done

# Nanoseconds from start to exit of "$@"; a failed run ends the tool.
wall() {
	local t0 rc=0
	t0=$(date +%s%N)
	"$@" >"$tmp/run.out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || {
		echo "vs-original: '$*' failed ($rc):" \
			"$(tail -n 1 "$tmp/run.out")" >&2
		kill -0 "$osrv" 2>/dev/null ||
			echo "vs-original: the original chat_s had exited:" \
				"$(tail -n 1 "$tmp/orig_s.log")" >&2
		exit 1
	}
	echo $(($(date +%s%N) - t0))
}

echo "vs-original: $ROOMS rooms x $MSGS messages, $PAIRS pairs," \
	"ours with '${ARGS}', kernel $(uname -r), $(nproc) CPUs"
for i in $(seq "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then
		o=$(wall "$ORIG/chat_c" 127.0.0.1 "$ROOMS" "$MSGS" "$oport")
		u=$(wall "$OUT/chat_c" $ARGS 127.0.0.1 "$ROOMS" "$MSGS" "$port")
	else
		u=$(wall "$OUT/chat_c" $ARGS 127.0.0.1 "$ROOMS" "$MSGS" "$port")
		o=$(wall "$ORIG/chat_c" 127.0.0.1 "$ROOMS" "$MSGS" "$oport")
	fi
	echo "$o $u" >>"$tmp/pairs"
	awk -v i="$i" -v o="$o" -v u="$u" 'BEGIN { printf "pair %d: original %.3f s, ours %.3f s\n", i, o / 1e9, u / 1e9 }'
done
"$OUT/chatbench-stats" --ratio <"$tmp/pairs" |
	awk '{ printf "ours/original, whole process: median %.3f, 95 %% CI %.3f-%.3f over %d pairs\n", $4, $6, $7, $2 }'
