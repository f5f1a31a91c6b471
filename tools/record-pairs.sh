#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the pairs of series that chatbench-compare --explain's replay
# tests read (tests/unit/test_explain.c): for each PAIR, two series of
# RUNS (7) traced runs of ROOMS x MSGS (4 x 200), each against a --local
# server of its own, recorded one after the other: NAME-a.json.gz with
# the default setting (the base) and NAME-b.json.gz with one thing
# changed, in tests/data/pairs/.  Beside them NAME.expect says what was
# changed and the budget line that change works through, which the
# explanation must rank first ("top=wait:own"), or "top=none" for a
# pair of one setting, where nothing may be ranked.
#
#   tools/record-pairs.sh [PAIR...]   (default: every pair below)
#
# A benchmark, not a test: a minute or two, root for BPF, and nothing
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

# name, the b side's chat_c options (or "sockbuf": tiny TCP buffers for
# the b side's sockets), the line the change works through:
# - both processes on CPU 0: the threads queue behind each other;
# - 4 KiB socket buffers: senders block on full send queues;
# - the same setting twice: nothing.
pairs="
pinned|--cpus 0 --server-cpus 0|wait:own
sockbuf|sockbuf|blocked:sock_send
same||none
"

saved_r= saved_w=
restore() {
	[ -n "$saved_r" ] && sysctl -qw net.ipv4.tcp_rmem="$saved_r" \
		net.ipv4.tcp_wmem="$saved_w"
	saved_r=
}
tmp=$(mktemp -d)
trap 'restore; rm -rf "$tmp"' EXIT

# One series into $1 with the extra options $2.
series() {
	local f=$1 extra=$2
	local -a opts=()

	[ "$extra" = sockbuf ] || read -r -a opts <<<"$extra"
	if [ "$extra" = sockbuf ]; then
		saved_r=$(sysctl -n net.ipv4.tcp_rmem)
		saved_w=$(sysctl -n net.ipv4.tcp_wmem)
		sysctl -qw net.ipv4.tcp_rmem="4096 4096 4096" \
			net.ipv4.tcp_wmem="4096 4096 4096"
	fi
	"$OUT/chat_c" --local -q --trace -r "$RUNS" --pause 400 \
		"${opts[@]}" -j "$f" "$ROOMS" "$MSGS" >/dev/null
	restore
}

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
	IFS='|' read -r _ extra top <<<"$line"
	series "$tmp/a.json" ""
	series "$tmp/b.json" "$extra"
	save "$tmp/a.json" "$dir/$name-a.json.gz"
	save "$tmp/b.json" "$dir/$name-b.json.gz"
	echo "top=$top" >"$dir/$name.expect"
	printf '%-8s b: %s; ' "$name" "${extra:-the same}"
	"$OUT/chatbench-compare" --explain --json "$tmp/a.json" "$tmp/b.json" |
		jq -r 'select(.explain) | .explain.sentence'
done
