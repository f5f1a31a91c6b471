#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the benchmark's own figures, from real runs on this machine.
#  - messages/s for 10x100 and 30x1000 (median of runs);
#  - CPU time of both processes per million messages, user and system;
#  - tracing overhead: traced/untraced throughput, median of alternating
#    pairs (single runs vary by 15 % here, so only ratios taken pair by
#    pair mean anything), with a runqlat-style bpftrace script beside it;
#  - the BPF programs' own CPU time as a share of the run's CPU time.
# Environment: PAIRS (7), RUNS (5), BENCH_ONLY (space-separated sections:
# throughput overhead bpftrace models).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
PAIRS=${PAIRS:-7}
RUNS=${RUNS:-5}
SECTIONS=${BENCH_ONLY:-throughput overhead bpftrace models}
C="$OUT/chat_c"
S="$OUT/chat_s"
TOOL=bench
. tools/server.sh

# One run; prints its JSON run object.
one() {
	local f="$tmp/one.json"
	"$C" -q -j "$f" "$@" 127.0.0.1 "${ROOMS}" "${MSGS}" "$port" >/dev/null 2>&1
	head -n 1 "$f"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minmax() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s .. %s", lo, hi }'; }

has() { [[ " $SECTIONS " == *" $1 "* ]]; }

echo "chatbench bench: kernel $(uname -r), $(nproc) CPUs, $(date -u +%F)"
start_server

if has throughput; then
	for rm in "10 100" "30 1000"; do
		set -- $rm
		ROOMS=$1 MSGS=$2
		: >"$tmp/runs"
		for i in $(seq "$RUNS"); do one --no-trace >>"$tmp/runs"; done
		tp=$(jq -r .throughput "$tmp/runs" | median)
		printf 'throughput %5s    : median %.0f msg/s over %d runs (%s)\n' \
			"${ROOMS}x${MSGS}" "$tp" "$RUNS" \
			"$(jq -r .throughput "$tmp/runs" | minmax | awk '{ printf "%.0f .. %.0f", $1, $3 }')"
		jq -r '[.total_messages, .cpu.client.user_s, .cpu.client.sys_s,
			.cpu.server.user_s, .cpu.server.sys_s] | @tsv' "$tmp/runs" |
			awk -v tag="${ROOMS}x${MSGS}" '{ m += $1; cu += $2; cs += $3; su += $4; ss += $5 }
			END { f = 1e6 / m; printf "cpu per 1M msgs %s: client user %.3f s sys %.3f s, server user %.3f s sys %.3f s\n", tag, cu * f, cs * f, su * f, ss * f }'
	done
fi

# Alternating pairs A B A B ...; prints the median and range of B/A.
pairs() {
	local label=$1 a=$2 b=$3
	: >"$tmp/ratios"
	for i in $(seq "$PAIRS"); do
		ta=$(eval "$a" | jq -r .throughput)
		tb=$(eval "$b" | jq -r .throughput)
		awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.4f\n", b / a }' >>"$tmp/ratios"
	done
	printf '%-20s: median %.3f over %d pairs (%s)\n' "$label" \
		"$(median <"$tmp/ratios")" "$PAIRS" "$(minmax <"$tmp/ratios")"
}

if has overhead; then
	for rm in "10 1000" "30 1000"; do
		set -- $rm
		ROOMS=$1 MSGS=$2
		: >"$tmp/traced"
		pairs "traced/untraced ${ROOMS}x${MSGS}" "one --no-trace" \
			"one --trace | tee -a $tmp/traced"
		jq -r '.kernel.bpf_cost.cpu_share' "$tmp/traced" | awk -v tag="${ROOMS}x${MSGS}" \
			'{ s += $1; n++ } END { if (n) printf "bpf cpu share %-6s: %.2f %% of the run'"'"'s CPU time (mean of %d runs)\n", tag, 100 * s / n, n }'
	done
fi

if has bpftrace && command -v bpftrace >/dev/null &&
   tools/mount-tracefs.sh; then
	with_bt() {
		bpftrace tools/runqlat.bt >/dev/null 2>&1 &
		local bt=$!
		sleep 2
		# Dead already (could not attach): the pair would time nothing.
		kill -0 $bt 2>/dev/null ||
			{ echo "bench: bpftrace did not start" >&2; exit 1; }
		one --no-trace
		kill -INT $bt
		wait $bt 2>/dev/null || true
	}
	ROOMS=10 MSGS=1000
	pairs "bpftrace/untraced 10x1000" "one --no-trace" "with_bt"
fi

if has models && "$S" --help | grep -q -- '--model'; then
	printf '%-12s %8s %14s %14s\n' model rooms "msg/s median" "msg p99 (ms)"
	for m in threads epoll pool; do
		start_server --model "$m"
		for rooms in 10 30; do
			ROOMS=$rooms MSGS=1000
			: >"$tmp/m"
			for i in $(seq 3); do one --no-trace >>"$tmp/m"; done
			printf '%-12s %8s %14.0f %14s\n' "$m" "$rooms" \
				"$(jq -r .throughput "$tmp/m" | median)" \
				"$(jq -r '(.latency.p99_ns // 0) / 1e6' "$tmp/m" | median | awk '{ printf "%.1f", $1 }')"
		done
	done
fi
