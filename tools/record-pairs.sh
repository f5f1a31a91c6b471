#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the pairs of series that chatbench-compare --explain's replay
# tests read (tests/unit/test_explain.c): for each PAIR, two series of
# RUNS (7) traced runs of ROOMS x MSGS (4 x 200), each run against a
# --local server of its own, the two settings alternating run by run
# (tools/ab.sh; series recorded one after the other here differ by up to
# 15 % with nothing changed: the VM drifts): NAME-a.json.gz with the
# default setting (the base) and NAME-b.json.gz with one thing changed,
# in tests/data/pairs/.  Beside them NAME.expect names the
# budget line that change works through: one the explanation must rank
# first ("top=wait:own"), or, where the change works through several
# lines of like size, one it must rank with a fifth of the difference or
# more ("ranked=blocked:sock_send"); "top=none" for a pair of one
# setting, where nothing may be ranked.
#
#   tools/record-pairs.sh [PAIR...]   (default: every pair below)
#
# A benchmark, not a test: a few minutes, root for BPF, and nothing
# else may run meanwhile (a compiler beside it is an outsider in one
# series and not in the other).  Run from the project root after make,
# or as `make pairs`.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
RUNS=${RUNS:-7}
ROOMS=${ROOMS:-4}
MSGS=${MSGS:-200}
dir=tests/data/pairs
mkdir -p "$dir"

# name, chat_c's arguments (rooms, messages), options of both sides, the
# b side's options (or "sockbuf": tiny TCP buffers for the b side's
# sockets), the expectation:
# - both processes on CPU 0: the threads queue behind each other;
# - 4 KiB socket buffers: senders block on full send queues, receivers
#   wake for less each time and the threads queue for more wakeups: two or
#   three lines of like size (2026-12-07);
# - the same setting twice: nothing;
# - open-loop (2 rooms, 300 messages/s per user, near the knee), both
#   processes on CPU 0 against free: the offered load is the same, the
#   latency p99 differs, through the same waiting; and the same setting
#   twice, open-loop: nothing.
# SCHED_BATCH against SCHED_OTHER is no pair here: closed-loop it changed
# nothing measurable (interleaved, +4.5 %, 95 % CI -1.9 to +10.7 %; four
# series one after the other: -15, +2, +11 and 0 %), nor at the knee of
# an open load, traced (2 rooms, 400/s per user: p99 -3.5 %, CI -14.8 to
# +8.6 %; 250-350/s alike), 2026-12-07.
pairs="
pinned|$ROOMS $MSGS||--cpus 0 --server-cpus 0|top=wait:own
sockbuf|$ROOMS $MSGS||sockbuf|ranked=blocked:sock_send
same|$ROOMS $MSGS|||top=none
pinned-open|2|--rate 300 --duration 2|--cpus 0 --server-cpus 0|top=wait:own
same-open|2|--rate 300 --duration 2||top=none
"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tiny='sysctl -qw net.ipv4.tcp_rmem="4096 4096 4096" net.ipv4.tcp_wmem="4096 4096 4096"'
back="sysctl -qw net.ipv4.tcp_rmem='$(sysctl -n net.ipv4.tcp_rmem)' net.ipv4.tcp_wmem='$(sysctl -n net.ipv4.tcp_wmem)'"

# The per-interval run-queue histograms are not read by the
# explanation: dropped, as in the verdict's corpus.
save() {
	jq -c 'if .kernel.intervals then
			del(.kernel.intervals[].rq_buckets) else . end' "$1" |
		gzip -9n >"$2"
}

names=("$@")
[ $# -gt 0 ] || read -r -d '' -a names < <(awk -F'|' 'NF { print $1 }' <<<"$pairs") || true
for name in "${names[@]}"; do
	line=$(awk -F'|' -v n="$name" '$1 == n' <<<"$pairs")
	[ -n "$line" ] ||
		{ echo "record-pairs: unknown pair $name" >&2; exit 2; }
	IFS='|' read -r _ args common extra expect <<<"$line"
	read -r -a args <<<"$args"
	if [ "$extra" = sockbuf ]; then
		OUT=$OUT tools/ab.sh -r "$RUNS" -c "$common" \
			--before-b "$tiny" --after-b "$back" \
			"$tmp/a.json" "$tmp/b.json" "${args[@]}"
	else
		OUT=$OUT tools/ab.sh -r "$RUNS" -c "$common" -b "$extra" \
			"$tmp/a.json" "$tmp/b.json" "${args[@]}"
	fi
	save "$tmp/a.json" "$dir/$name-a.json.gz"
	save "$tmp/b.json" "$dir/$name-b.json.gz"
	echo "$expect" >"$dir/$name.expect"
	printf '%-8s b: %s; ' "$name" "${extra:-the same}"
	"$OUT/chatbench-compare" --explain --json "$tmp/a.json" "$tmp/b.json" |
		jq -r 'select(.explain) | .explain.sentence'
done
