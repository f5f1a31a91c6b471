#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# How often the verdict is right: SERIES (10) provoked series, each of
# RUNS (5) runs of ROOMS x MSGS (10 x 300) with a CPU burner of a name
# never seen before in run k (k = 2, 3, 4 in turn; tools/disturb.sh, two
# threads per CPU at nice -20), and as many clean series between them.
#
#   hit          the disturbed run, and no other, judged slow, with the
#                burner named as its first cause
#   false alarm  a run of a clean series judged slow, a dip in a clean
#                series, or an undisturbed run of a provoked series
#                judged slow
#
# Prints one line per series, then the hit rate and the false-alarm rate
# (per run); KEEP=DIR keeps every series' --json file there.  A benchmark,
# not a test: minutes long, root for BPF.  Run from the project root after
# make, or as `make bench-diagnosis`.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
SERIES=${SERIES:-10}
RUNS=${RUNS:-5}
ROOMS=${ROOMS:-10}
MSGS=${MSGS:-300}
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	tmp=$KEEP
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi

chat_c=("$OUT/chat_c" --local -q --trace -r "$RUNS" --pause 400)
hits=0 provoked=0 alarms=0 judged=0

# Slow runs of file $1 as "1 3", and its number of dips.
slow_runs() {
	jq -r 'select(.run and .slow) | .run' "$1" | tr '\n' ' ' | sed 's/ $//'
}
dips_of() {
	jq -s '[.[] | select(.run) | (.dips // [])[]] | length' "$1"
}

for i in $(seq "$SERIES"); do
	k=$((2 + (i - 1) % 3))
	name=$(printf 'qx%d_%04x' "$k" $((RANDOM % 65536)))
	f=$tmp/p$i.json
	OUT=$OUT tools/disturb.sh "$f" "$k" hog "$name" &
	dpid=$!
	"${chat_c[@]}" -j "$f" "$ROOMS" "$MSGS" >/dev/null 2>&1 || true
	wait "$dpid" || true
	slow=$(slow_runs "$f")
	first=$(jq -r "select(.run == $k) | .causes[0].task // \"-\"" "$f")
	n=$(jq -s 'map(select(.run)) | length' "$f")
	provoked=$((provoked + 1))
	judged=$((judged + n - 1))
	# Every slow run but k is a false alarm.
	for r in $slow; do
		[ "$r" = "$k" ] || alarms=$((alarms + 1))
	done
	verdict=miss
	if [ "$slow" = "$k" ] && [ "$first" = "$name" ]; then
		verdict=hit
		hits=$((hits + 1))
	fi
	printf 'provoked %2d: burner %s in run %d; slow runs [%s], first cause of run %d: %s: %s\n' \
		"$i" "$name" "$k" "$slow" "$k" "$first" "$verdict"

	f=$tmp/c$i.json
	"${chat_c[@]}" -j "$f" "$ROOMS" "$MSGS" >/dev/null 2>&1 || true
	slow=$(slow_runs "$f")
	d=$(dips_of "$f")
	n=$(jq -s 'map(select(.run)) | length' "$f")
	judged=$((judged + n))
	set -- $slow
	alarms=$((alarms + $# + d))
	printf 'clean    %2d: slow runs [%s], dips %d\n' "$i" "$slow" "$d"
done
echo "hit rate         : $hits of $provoked provoked series" \
	"($((100 * hits / provoked)) %)"
echo "false-alarm rate : $alarms in $judged undisturbed runs" \
	"($((100 * alarms / judged)) %)"
