#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Does a scheduler setting for throughput hurt interactivity?  The question
# of the dbench thread, asked of this kernel: open-loop rate sweeps of the
# chat (latency from each message's scheduled send time) under two
# policies for every benchmark thread, SCHED_OTHER and SCHED_BATCH, each
# without and with CPU burners beside it, one result file per condition,
# then their knees side by side: a table here and the latency-against-load
# plot in one HTML report.
#
#   tools/study-interactivity.sh [ROOMS RATES SECONDS RUNS]
#       (2 "50,100,200,400,800" 2 3)
#   MODEL=pool SLO_MS=10 BURNERS=2 DIR=study tools/study-interactivity.sh
#
# Each point lasts SECONDS (messages per user = rate x SECONDS), RUNS runs
# per point, against a --local chat_s of MODEL (threads); burners are
# BURNERS (2) cb_burn threads at nice 0.  Minutes long: a study, not a
# test.  Root, for SCHED_BATCH on the server's threads and for tracing.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
ROOMS=${1:-2}
RATES=${2:-50,100,200,400,800}
SECONDS_PER_POINT=${3:-2}
RUNS=${4:-3}
MODEL=${MODEL:-threads}
SLO_MS=${SLO_MS:-10}
BURNERS=${BURNERS:-2}
DIR=${DIR:-$OUT/study-interactivity}
mkdir -p "$DIR"

conds=(other batch "other+burn$BURNERS" "batch+burn$BURNERS")
for c in "${conds[@]}"; do
	args=(--sched "all=${c%%+*}")
	[[ $c == *+burn* ]] && args+=(--background "burn=$BURNERS")
	echo "== $c: ${args[*]}" >&2
	"$OUT/chat_c" --local --model "$MODEL" -q -r "$RUNS" \
		--sweep "rate=$RATES" --duration "$SECONDS_PER_POINT" \
		--slo "$SLO_MS" "${args[@]}" -j "$DIR/$c.json" "$ROOMS" 1 \
		>"$DIR/$c.txt" 2>&1 || {
		echo "study-interactivity: $c failed:" >&2
		tail -3 "$DIR/$c.txt" >&2
		exit 1
	}
done

# One row per condition and rate: medians of the runs at that point.
printf '\n%-14s %6s %9s %9s %9s %9s %12s\n' condition rate offered/s \
	achieved p50_ms p99_ms burner_lps
for c in "${conds[@]}"; do
	jq -rs --arg c "$c" '
		(map(select(.run)) | group_by(.sweep.value) |
		 map({key: (.[0].sweep.value | tostring),
		      value: (map(.background.loops_per_s // 0) | sort |
			      .[length / 2 | floor])}) | from_entries) as $bg |
		map(select(.summary)) | .[] | .summary |
		[$c, .sweep.value, .open_loop.offered_sends_per_s,
		 (.open_loop.achieved_sends_per_s | floor),
		 (.open_loop.p50_ns / 1e6 * 100 | floor / 100),
		 (.open_loop.p99_ns / 1e6 * 100 | floor / 100),
		 ($bg[.sweep.value | tostring] | floor)] | @tsv' "$DIR/$c.json" |
		awk -F'\t' '{ printf "%-14s %6s %9s %9s %9s %9s %12s\n", $1, $2, $3, $4, $5, $6, $7 }'
done
echo
for c in "${conds[@]}"; do
	printf '%-14s ' "$c"
	grep '^SLO' "$DIR/$c.txt" || echo "(no SLO line)"
done
files=()
for c in "${conds[@]}"; do files+=("$DIR/$c.json"); done
"$OUT/chatbench-report" -t "Interactivity against throughput ($MODEL server)" \
	-o "$DIR/report.html" "${files[@]}"
echo "report: $DIR/report.html" >&2
