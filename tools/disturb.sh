#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Disturbs one run of a chat_c series on purpose, to see the diagnosis
# name the cause.  It watches the series' --json file: when RUN-1 runs
# are in it, the disturbance starts; when RUN are, it stops.
#
#   tools/disturb.sh FILE RUN hog [NAME]   a CPU hog named NAME: HOG_THREADS
#                                          threads (2 per CPU) at nice
#                                          HOG_NICE (-20)
#   tools/disturb.sh FILE RUN sockbuf      tiny TCP buffers for new sockets
#   tools/disturb.sh FILE RUN pin PID...   confine the processes to CPU 0
#
# Run chat_c with --pause 400: the disturbance is then in place before
# the run starts, and gone before the next one.  Needs root for sockbuf
# and pin.  Gives up after TIMEOUT seconds (120).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
[ $# -ge 3 ] || { sed -n '5,12p' "$0" >&2; exit 2; }
file=$1 target=$2 what=$3
shift 3
deadline=$((SECONDS + ${TIMEOUT:-120}))

runs_done() {
	[ -f "$file" ] || { echo 0; return; }
	grep -c '"run":' "$file" 2>/dev/null || true
}

wait_runs() {
	while [ "$(runs_done)" -lt "$1" ]; do
		[ $SECONDS -lt $deadline ] || { echo "disturb: timed out" >&2; exit 1; }
		sleep 0.02
	done
}

saved_r= saved_w= hog= pins=()
restore() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
	[ -n "$saved_r" ] && sysctl -qw net.ipv4.tcp_rmem="$saved_r" net.ipv4.tcp_wmem="$saved_w"
	for p in "${pins[@]}"; do
		for t in /proc/"$p"/task/*; do
			taskset -p -c "$(cat /sys/devices/system/cpu/online)" \
				"${t##*/}" >/dev/null 2>&1 || true
		done
	done
	return 0
}
trap restore EXIT

wait_runs $((target - 1))
case $what in
hog)
	"$OUT/chatbench-hog" --name "${1:-chb_hog}" --seconds 600 \
		--nice "${HOG_NICE:--20}" \
		--threads "${HOG_THREADS:-$((2 * $(nproc)))}" &
	hog=$!
	;;
sockbuf)
	saved_r=$(sysctl -n net.ipv4.tcp_rmem)
	saved_w=$(sysctl -n net.ipv4.tcp_wmem)
	sysctl -qw net.ipv4.tcp_rmem="4096 4096 4096" net.ipv4.tcp_wmem="4096 4096 4096"
	;;
pin)
	# Every thread, and new ones inherit it; threads come and go, so
	# one that exits under our feet is no error.
	for p in "$@"; do
		for t in /proc/"$p"/task/*; do
			taskset -p -c 0 "${t##*/}" >/dev/null 2>&1 || true
		done
		pins+=("$p")
	done
	;;
*)
	echo "disturb: unknown disturbance '$what' (hog, sockbuf, pin)" >&2
	exit 2
	;;
esac
wait_runs "$target"
