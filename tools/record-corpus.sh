#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the series the verdict's replay tests judge (tests/unit/
# test_budget.c): for each KIND, a series of RUNS (5) runs of ROOMS x MSGS
# (10 x 300) against a server of its own, with the disturbance KIND in
# run 3 (tools/disturb.sh), saved as tests/data/series/KIND.json.gz with
# its expectation KIND.expect: what was done, not what the verdict said.
#
#   tools/record-corpus.sh [KIND...]   (default: every kind below)
#
# The per-interval run-queue histograms are dropped from the saved
# records (the verdict does not read them; they were three quarters of
# a record).  A benchmark, not a test: minutes long, root for BPF.  Run
# from the project root after make, or as `make corpus`.
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
all=(clean $KINDS_ALL)

tmp=$(mktemp -d)
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

for kind in "${@:-${all[@]}}"; do
	want=$(kind_expect "$kind" cx_hog) ||
		{ echo "record-corpus: unknown kind $kind" >&2; exit 2; }
	f=$tmp/$kind.json
	"$OUT/chat_s" 127.0.0.1 "$PORT" >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	dpid=
	read -r -a a <<<"$(kind_args "$kind" "$spid" cx_hog)"
	if [ ${#a[@]} -gt 0 ]; then
		OUT=$OUT tools/disturb.sh "$f" 3 "${a[@]}" &
		dpid=$!
	fi
	"$OUT/chat_c" -q --trace -r "$RUNS" --pause 400 -j "$f" \
		127.0.0.1 "$ROOMS" "$MSGS" "$PORT" >/dev/null 2>&1 || true
	[ -n "$dpid" ] && { wait "$dpid" || true; }
	kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true
	spid=
	jq -c 'if .kernel.intervals then
			del(.kernel.intervals[].rq_buckets) else . end' "$f" |
		gzip -9n >"$dir/$kind.json.gz"
	echo "run=3 $want" >"$dir/$kind.expect"
	printf '%-8s slow runs [%s], run 3 first cause: %s %s; saved %s\n' \
		"$kind" \
		"$(jq -r 'select(.run and .slow) | .run' "$f" | tr '\n' ' ')" \
		"$(jq -r 'select(.run == 3) | .causes[0].kind // "-"' "$f")" \
		"$(jq -r 'select(.run == 3) | .causes[0].task // "-"' "$f")" \
		"$(du -h "$dir/$kind.json.gz" | cut -f1)"
done
