#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the series the verdict's replay tests judge (tests/unit/
# test_replay.c): for each ENTRY, a series of RUNS (5) runs of ROOMS x
# MSGS (10 x 300) against a server of its own, with one disturbance
# (tools/disturb.sh) in one run, saved as tests/data/series/ENTRY.json.gz
# with its expectation ENTRY.expect: what was done, not what the verdict
# said ("run=N cause culprit [dip=cause]", run=0 for a clean series).
#
#   tools/record-corpus.sh [ENTRY...]   (default: every entry below)
#
# The per-interval run-queue histograms are dropped from the saved
# records (the verdict does not read them; they were three quarters of
# a record).  A benchmark, not a test: minutes long, root for BPF, and
# nothing else may run meanwhile (a compiler beside it is an outsider
# the verdict rightly names).  Run from the project root after make, or
# as `make corpus`.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
RUNS=${RUNS:-5}
ROOMS=${ROOMS:-10}
MSGS=${MSGS:-300}
PORT=${PORT:-9917}
dir=tests/data/series
mkdir -p "$dir"

. tools/kinds.sh

# name kind disturbed-run side (server: chat_s is disturbed; client:
# chat_c).  Clean series several times: a false alarm is what a replay
# corpus catches best.
entries="
clean clean 0 server
clean2 clean 0 server
clean3 clean 0 server
clean4 clean 0 server
hog hog 3 server
hog-r2 hog 2 server
hog-r5 hog 5 server
rt rt 3 server
rt-r4 rt 4 server
ptrace ptrace 3 server
ptrace-client ptrace 3 client
freeze freeze 3 server
freeze-client freeze 4 client
offline offline 3 server
offline-r2 offline 2 server
stop stop 3 server
stop-client stop 4 client
quota quota 3 server
quota-client quota 2 client
sockbuf sockbuf 3 server
pin pin 3 server
drop drop 3 server
drop-r4 drop 4 server
renice renice 3 server
"
entry() {
	awk -v n="$1" '$1 == n { print $2, $3, $4 }' <<<"$entries"
}

tmp=$(mktemp -d)
spid= cpid=
cleanup() {
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

names=("$@")
[ $# -gt 0 ] || read -r -d '' -a names < <(awk 'NF { print $1 }' <<<"$entries") || true
for name in "${names[@]}"; do
	read -r kind run side <<<"$(entry "$name")"
	[ -n "$kind" ] ||
		{ echo "record-corpus: unknown entry $name" >&2; exit 2; }
	hog=cx_${name//-/_}
	want=$(kind_expect "$kind" "$hog")
	[ "$side" = client ] && want=${want/chat_s/chat_c}
	f=$tmp/$name.json
	"$OUT/chat_s" 127.0.0.1 "$PORT" >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	# The client first, so that its pid is known; the disturbance
	# waits for its runs in the file anyway.
	"$OUT/chat_c" -q --trace -r "$RUNS" --pause 400 -j "$f" \
		127.0.0.1 "$ROOMS" "$MSGS" "$PORT" >/dev/null 2>&1 &
	cpid=$!
	dpid=
	if [ "$side" = client ]; then
		read -r -a a <<<"$(kind_args "$kind" "$cpid" "$hog" "$spid")"
	else
		read -r -a a <<<"$(kind_args "$kind" "$spid" "$hog" "$cpid")"
	fi
	if [ ${#a[@]} -gt 0 ]; then
		OUT=$OUT tools/disturb.sh "$f" "$run" "${a[@]}" &
		dpid=$!
	fi
	wait "$cpid" || true
	cpid=
	[ -n "$dpid" ] && { wait "$dpid" || true; }
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true
	spid=
	jq -c 'if .kernel.intervals then
			del(.kernel.intervals[].rq_buckets) else . end' "$f" |
		gzip -9n >"$dir/$name.json.gz"
	# A stop or a freeze lasts 0.8 s of a run of seconds: a dip of its
	# kind is expected in the run, besides the run's own verdict.
	dip=
	case $kind in
	stop|freeze) dip=" dip=${want%% *}" ;;
	esac
	echo "run=$run $want$dip" >"$dir/$name.expect"
	printf '%-14s slow runs [%s], run %s first cause: %s %s; saved %s\n' \
		"$name" \
		"$(jq -r 'select(.run and .slow) | .run' "$f" | tr '\n' ' ')" \
		"$run" \
		"$(jq -r --argjson r "$run" 'select(.run == $r) | .causes[0].kind // "-"' "$f")" \
		"$(jq -r --argjson r "$run" 'select(.run == $r) | .causes[0].task // "-"' "$f")" \
		"$(du -h "$dir/$name.json.gz" | cut -f1)"
done
