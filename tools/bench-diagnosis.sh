#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# How often the verdict is right: SERIES (10) provoked series, each of
# RUNS (5) runs of ROOMS x MSGS (10 x 300) against a server of its own,
# with a disturbance in run k (k = 2, 3, 4 in turn; tools/disturb.sh),
# and as many clean series between them.  The disturbances take turns
# from KINDS (default: hog, a CPU burner of a name never seen before, two
# threads per CPU at nice -20; "all": every kind of tools/kinds.sh, the
# ones the verdict was never taught a rule for among them: an RT spinner,
# strace -f, the freezer, a CPU offline, SIGSTOP, a CPU quota).
#
#   hit          the disturbed run, and no other, judged slow, with the
#                expected cause first (tools/kinds.sh) and its culprit,
#                and at least 70 % of its loss named
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
PORT=${PORT:-9919}
. tools/kinds.sh
KINDS=${KINDS:-hog}
[ "$KINDS" = all ] && KINDS=$KINDS_ALL
read -r -a kinds <<<"$KINDS"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	tmp=$KEEP
else
	tmp=$(mktemp -d)
fi
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

chat_c=("$OUT/chat_c" -q --trace -r "$RUNS" --pause 400)

# One series into file $1 against a server of its own, disturbed by the
# kind $2 (none: clean) in run $3 with hog name $4.
series() {
	local f=$1 kind=$2 k=$3 name=$4 dpid= a
	"$OUT/chat_s" 127.0.0.1 "$PORT" >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	if [ "$kind" != none ]; then
		read -r -a a <<<"$(kind_args "$kind" "$spid" "$name")"
		OUT=$OUT tools/disturb.sh "$f" "$k" "${a[@]}" &
		dpid=$!
	fi
	"${chat_c[@]}" -j "$f" 127.0.0.1 "$ROOMS" "$MSGS" "$PORT" \
		>/dev/null 2>&1 || true
	[ -z "$dpid" ] || wait "$dpid" || true
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null || true
	spid=
}
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
	kind=${kinds[$(((i - 1) % ${#kinds[@]}))]}
	name=$(printf 'qx%d_%04x' "$k" $((RANDOM % 65536)))
	read -r want task <<<"$(kind_expect "$kind" "$name")"
	f=$tmp/p$i.json
	series "$f" "$kind" "$k" "$name"
	slow=$(slow_runs "$f")
	first=$(jq -r "select(.run == $k) | .causes[0].kind // \"-\"" "$f")
	who=$(jq -r "select(.run == $k) | .causes[0].task // \"-\"" "$f")
	named=$(jq -r "select(.run == $k) | 100 - 100 * (.loss.unexplained // 1) | floor" "$f")
	n=$(jq -s 'map(select(.run)) | length' "$f")
	provoked=$((provoked + 1))
	judged=$((judged + n - 1))
	# Every slow run but k is a false alarm.
	for r in $slow; do
		[ "$r" = "$k" ] || alarms=$((alarms + 1))
	done
	verdict=miss
	if [ "$slow" = "$k" ] && [ "$first" = "$want" ] &&
	    { [ "$task" = - ] || [ "$who" = "$task" ]; } && [ "$named" -ge 70 ]; then
		verdict=hit
		hits=$((hits + 1))
	fi
	printf 'provoked %2d: %s in run %d; slow runs [%s], first cause of run %d: %s %s, %s %% named: %s\n' \
		"$i" "$kind" "$k" "$slow" "$k" "$first" "$who" "$named" "$verdict"

	f=$tmp/c$i.json
	series "$f" none 0 -
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
