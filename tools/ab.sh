#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Two settings on one kernel, their runs interleaved: run 1 of A, run 1
# of B, run 2 of A, ... each a traced chat_c --local run of its own, then
# each side's runs put together into one series (A.json, B.json) and
# judged again, as if one chat_c had run them.  Series recorded one
# after the other differ by what the machine did in between: on our
# VMs, the same setting twice by up to 15 %, which chatbench-compare
# rightly calls real.  Interleaved, the drift falls on both sides alike.
#
#   tools/ab.sh [options] OUT_A.json OUT_B.json ROOMS [MSGS]
#     -r RUNS          runs per side (7)
#     -c 'OPTS'        chat_c options of both sides (e.g. '--rate 400
#                      --duration 2' for an open-loop point)
#     -a 'OPTS'        chat_c options of side A (none)
#     -b 'OPTS'        chat_c options of side B (none)
#     --before-b 'CMD' run before each B run (bash -c), e.g. a sysctl
#     --after-b 'CMD'  run after each B run, and on exit if one is due
#
# Then: chatbench-compare --explain OUT_A.json OUT_B.json.  Needs the
# build (OUT, default build) and, for tracing, root.
set -euo pipefail
OUT=${OUT:-build}
runs=7 opts_c= opts_a= opts_b= before_b= after_b=

usage() {
	sed -n '/^#   tools/,/^# Then/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-r) runs=${2:?}; shift 2 ;;
	-c) opts_c=${2?}; shift 2 ;;
	-a) opts_a=${2?}; shift 2 ;;
	-b) opts_b=${2?}; shift 2 ;;
	--before-b) before_b=${2?}; shift 2 ;;
	--after-b) after_b=${2?}; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "ab: unknown option '$1' (--help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
out_a=$1 out_b=$2
shift 2
args=("$@")
[[ $runs =~ ^[1-9][0-9]*$ ]] ||
	{ echo "ab: -r wants a positive number of runs, not '$runs'" >&2; exit 2; }
for f in "$out_a" "$out_b"; do
	: >>"$f" 2>/dev/null ||
		{ echo "ab: cannot write $f" >&2; exit 1; }
done

tmp=$(mktemp -d)
due=
cleanup() {
	[ -n "$due" ] && bash -c "$after_b"
	rm -rf "$tmp"
}
trap cleanup EXIT

# One run of side $2 (a or b) into $1.
one_run() {
	local f=$1 side=$2 opts
	local -a o=()

	[ "$side" = a ] && opts=$opts_a || opts=$opts_b
	read -r -a o <<<"$opts_c $opts"
	if [ "$side" = b ] && [ -n "$before_b" ]; then
		bash -c "$before_b"
		due=1
	fi
	"$OUT/chat_c" --local -q --trace -r 1 "${o[@]}" -j "$f" \
		"${args[@]}" >/dev/null
	if [ -n "$due" ] && [ -n "$after_b" ]; then
		bash -c "$after_b"
	fi
	due=
	# The server of the last run gone, its sockets closed.
	sleep 0.4
}

# The runs of files $2... as one series in $1: numbered in order, under
# the first file's summary with the statistics of them all (as chat_c
# computes them), then judged again so that the verdict is the series'.
merge() {
	local out=$1
	shift
	jq -sc '[.[] | select(.run)] | to_entries |
		map(.value.run = .key + 1 | .value)' "$@" >"$tmp/runs.json"
	{
		jq -c '.[]' "$tmp/runs.json"
		jq -c --slurpfile r "$tmp/runs.json" '
			def median: sort | if length % 2 == 1 then .[length / 2 | floor]
				else (.[length / 2 - 1] + .[length / 2]) / 2 end;
			select(.summary) |
			($r[0] | map(select(.ok) | .throughput)) as $t |
			($t | add / length) as $avg | ($t | median) as $med |
			.summary |= (.runs = ($t | length) |
				.runs_attempted = ($r[0] | length) |
				.avg = $avg | .min = ($t | min) | .max = ($t | max) |
				.median = $med |
				.mad = ($t | map(. - $med | fabs) | median) |
				.rel_spread = ((($t | max) - ($t | min)) / $avg) |
				.command_line += " (runs interleaved by tools/ab.sh)")' "$1"
	} >"$tmp/merged.json"
	"$OUT/chatbench-judge" -q -j "$out" "$tmp/merged.json" >/dev/null
}

a=() b=()
for ((i = 1; i <= runs; i++)); do
	one_run "$tmp/a$i.json" a
	one_run "$tmp/b$i.json" b
	a+=("$tmp/a$i.json")
	b+=("$tmp/b$i.json")
done
merge "$out_a" "${a[@]}"
merge "$out_b" "${b[@]}"
