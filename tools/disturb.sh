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
#   tools/disturb.sh FILE RUN quota PID    move the process into a cgroup
#                                          with a CPU quota of QUOTA_PCT
#                                          (40) % of one CPU
#   tools/disturb.sh FILE RUN stop PID     SIGSTOP the process STOP_AFTER
#                                          (1.0) s after run RUN-1 ended
#                                          (that is, --pause into run
#                                          RUN), SIGCONT STOP_FOR (0.8) s
#                                          later
#
# Run chat_c with --pause 400: the disturbance is then in place before
# the run starts, and gone before the next one.  Needs root for sockbuf
# and pin.  Gives up after TIMEOUT seconds (120).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
[ $# -ge 3 ] || { sed -n '5,21p' "$0" >&2; exit 2; }
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

# The mount point of a cgroup hierarchy: v2 ("cgroup2"), or v1's with
# the cpu controller ("cgroup"); after the fields of a mountinfo line
# comes "-", then the type, the source and the options.
mount_of() {
	awk -v want="$1" '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == want &&
		    (want == "cgroup2" || $(i + 3) ~ /(^|,)cpu(,|$)/)) {
			print $5; exit
		}
	}' /proc/self/mountinfo
}

saved_r= saved_w= hog= pins=() cg= cg_pid= cg_home= stopped=
restore() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
	[ -n "$stopped" ] && kill -CONT "$stopped" 2>/dev/null
	if [ -n "$cg" ]; then
		echo "$cg_pid" >"$cg_home/cgroup.procs" 2>/dev/null || true
		rmdir "$cg" 2>/dev/null || true
	fi
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
	# At nice 0 this watcher would get about 0.6 % of a CPU beside
	# the hog, so each grep below would take tenths of a second and
	# the hog would spill into the next run.  Real-time priority
	# for the watcher (and the greps and sleeps it starts) ends the
	# hog within one poll; the hog, started before, stays as it is.
	chrt -f -p 1 $$ >/dev/null 2>&1 ||
		renice -n -20 -p $$ >/dev/null 2>&1 || true
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
quota)
	# cgroup v1's cpu controller where it is mounted (machines like
	# ours), else cgroup v2 with the controller enabled.
	cg_pid=$1
	root=$(mount_of cgroup)
	if [ -n "$root" ]; then
		cg_home=$root$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/"$cg_pid"/cgroup)
		cg=$root/chatbench-quota-$$
		mkdir "$cg"
		echo $((${QUOTA_PCT:-40} * 1000)) >"$cg/cpu.cfs_quota_us"
		echo 100000 >"$cg/cpu.cfs_period_us"
	else
		root=$(mount_of cgroup2)
		cg_home=$root$(awk -F: '$1 == "0" { print $3 }' /proc/"$cg_pid"/cgroup)
		cg=$root/chatbench-quota-$$
		mkdir "$cg"
		echo "$((${QUOTA_PCT:-40} * 1000)) 100000" >"$cg/cpu.max"
	fi
	echo "$cg_pid" >"$cg/cgroup.procs"
	;;
stop)
	sleep "${STOP_AFTER:-1.0}"
	kill -STOP "$1"
	stopped=$1
	sleep "${STOP_FOR:-0.8}"
	kill -CONT "$1"
	stopped=
	;;
*)
	echo "disturb: unknown disturbance '$what' (hog, sockbuf, pin, quota, stop)" >&2
	exit 2
	;;
esac
wait_runs "$target"
