#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Whether --profile's samples account for the benchmark's CPU: RUNS (10)
# profiled runs of ROOMS x MSGS (4 x 300) against one separately started
# chat_s, each run's on-CPU samples of our threads against HZ x the CPU
# time the run's own accounting gives both processes, and how many runs
# fall within 20 % of it.  A benchmark, not a test: root for BPF.
#
#   tools/profile-check.sh [ROOMS MSGS RUNS [HZ]]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
ROOMS=${1:-4}
MSGS=${2:-300}
RUNS=${3:-10}
HZ=${4:-99}
TOOL=profile-check
. tools/server.sh
start_server

echo "profile-check: $ROOMS rooms x $MSGS messages, $RUNS runs at $HZ Hz," \
	"kernel $(uname -r), $(nproc) CPUs"
for i in $(seq "$RUNS"); do
	"$OUT/chat_c" -q --profile="$HZ" -j "$tmp/r$i.json" \
		127.0.0.1 "$ROOMS" "$MSGS" "$port" >/dev/null
	jq -r --arg i "$i" 'select(.run) | .profile |
		"run \($i): \(.samples) samples, \(.expected_samples | floor) expected, ratio \(.samples / .expected_samples * 1000 | round / 1000), outsiders \(.outsider_samples), profiler \(.cost.cpu_share * 10000 | round / 100) % CPU"' \
		"$tmp/r$i.json"
done | tee "$tmp/lines"
awk '{ print $8 + 0 }' "$tmp/lines" | sort -n | awk '
	{ v[++n] = $1; if ($1 >= 0.8 && $1 <= 1.2) ok++ }
	END {
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "median ratio %.3f, range %.3f-%.3f, %d of %d runs within 20 %%\n",
			m, v[1], v[n], ok, n
	}'
