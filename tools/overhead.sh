#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What tracing costs, told apart from noise: PAIRS (15) rounds against one
# separately started chat_s, each running every condition once in a fresh
# random order, then per condition the median of its per-round ratio to
# the untraced run with a bootstrap 95 % interval (chatbench-stats, the
# statistics chatbench-compare uses).  Conditions (CONDS):
#
#   U  untraced: chat_c --no-trace
#   T  chat_c traced by default (add chat_c options with TRACE_ARGS)
#   B  untraced while the runqlat one-liner everybody writes runs in
#      bpftrace beside it (when bpftrace is installed)
#   X  untraced with EXTRA, a command of yours running beside it (say an
#      empty BPF loader, to measure the floor of attaching at all)
#   N  any other letter: chat_c traced with the environment and options in
#      COND_N (say COND_S="CHATBENCH_TRACE_PROGS=sched"), one component
#      at a time
#
#   tools/overhead.sh [ROOMS MSGS PAIRS]        (10 300 15)
#   CONDS="U T" TRACE_ARGS=--trace tools/overhead.sh 10 500 9
#
# A benchmark, not a test: minutes long, root for BPF.  Single runs on a
# shared VM spread by up to 30 % and drift over minutes; only ratios
# taken within a round mean anything, and 15 of them resolve about 5 %.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
ROOMS=${1:-10}
MSGS=${2:-300}
PAIRS=${3:-15}
if [ -z "${CONDS:-}" ]; then
	CONDS="U T"
	command -v bpftrace >/dev/null && tools/mount-tracefs.sh && CONDS="$CONDS B"
fi
bt=
cleanup_more() {
	[ -n "$bt" ] && kill -INT "$bt" 2>/dev/null && wait "$bt" 2>/dev/null
	return 0
}
TOOL=overhead
. tools/server.sh
start_server

# Messages per second of one run, from the seed's own result line.
rate() {
	"$OUT/chat_c" "$@" 127.0.0.1 "$ROOMS" "$MSGS" "$port" 2>/dev/null |
		awk '/^Average throughput/ { print $4 }'
}

# Starts "$@" in the background and waits until it says $1 is ready.
beside() {
	local what=$1
	shift
	"$@" >"$tmp/beside.out" 2>&1 &
	bt=$!
	for _ in $(seq 100); do
		grep -q "$what" "$tmp/beside.out" && return 0
		kill -0 "$bt" 2>/dev/null || break
		sleep 0.1
	done
	echo "overhead: '$*' did not start" >&2
	exit 1
}

stop_beside() {
	kill -INT "$bt" 2>/dev/null
	wait "$bt" 2>/dev/null || true
	bt=
}

one() {
	case $1 in
	U) rate --no-trace ;;
	T) rate ${TRACE_ARGS:-} ;;
	B)
		beside Attaching bpftrace tools/runqlat.bt
		sleep 1
		rate --no-trace
		stop_beside
		;;
	X)
		beside "${EXTRA_READY:-attached}" sh -c "$EXTRA"
		rate --no-trace
		stop_beside
		;;
	*)
		local var="COND_$1"
		[ -n "${!var:-}" ] ||
			{ echo "overhead: condition '$1' needs $var" >&2; exit 2; }
		# Words of the form NAME=VALUE are environment, the rest options.
		local w envs=() args=()
		for w in ${!var}; do
			case $w in
			*=*) envs+=("$w") ;;
			*) args+=("$w") ;;
			esac
		done
		env "${envs[@]}" "$OUT/chat_c" "${args[@]}" 127.0.0.1 "$ROOMS" \
			"$MSGS" "$port" 2>/dev/null |
			awk '/^Average throughput/ { print $4 }'
		;;
	esac
}

echo "overhead: $ROOMS rooms x $MSGS messages, $PAIRS rounds of $CONDS," \
	"kernel $(uname -r), $(nproc) CPUs"
for i in $(seq "$PAIRS"); do
	line="round $i:"
	for c in $(printf '%s\n' $CONDS | shuf); do
		r=$(one "$c") || true
		[ -n "$r" ] || { echo "overhead: a run of $c failed" >&2; exit 1; }
		echo "$c $r" >>"$tmp/round$i"
		line="$line $c=$r"
	done
	echo "$line"
done
for c in $CONDS; do
	[ "$c" = U ] && continue
	for i in $(seq "$PAIRS"); do
		echo "$(awk '$1 == "U" { print $2 }' "$tmp/round$i")" \
			"$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/round$i")"
	done | "$OUT/chatbench-stats" --ratio |
		awk -v c="$c" '{ printf "%s/U: median %.3f, 95 %% CI %.3f-%.3f over %d rounds (ratios vary +-%.3f; %d rounds would resolve 2 %%)\n", c, $4, $6, $7, $2, $9, $11 }'
done
