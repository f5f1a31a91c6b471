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
#   tools/disturb.sh FILE RUN rt [CPU]     a busy loop named chb_rt at
#                                          SCHED_FIFO 10 on CPU (1)
#   tools/disturb.sh FILE RUN ptrace PID   strace -f every thread of the
#                                          process (output to /dev/null)
#   tools/disturb.sh FILE RUN freeze PID   move the process into a freezer
#                                          cgroup, freeze it FREEZE_AFTER
#                                          (1.0) s after run RUN-1 ended,
#                                          thaw it FREEZE_FOR (0.8) s later
#   tools/disturb.sh FILE RUN offline [CPU]
#                                          take CPU (1; not 0) offline
#   tools/disturb.sh FILE RUN renice PID [N]  every thread of the process
#                                          at nice N (19); the threads it
#                                          starts inherit it; back to
#                                          their nice after the run
#   tools/disturb.sh FILE RUN idle PID     every thread of the process at
#                                          SCHED_IDLE; back to SCHED_OTHER
#   tools/disturb.sh FILE RUN shares PID   move the process into a cgroup
#                                          of the least CPU weight
#                                          (cpu.shares 2, cpu.weight 1)
#   tools/disturb.sh FILE RUN drop         drop 5 % of the TCP segments
#                                          with data arriving on lo (a tc
#                                          ingress program, OUT/tc_drop.
#                                          bpf.o): real retransmissions
#
# Run chat_c with --pause 400: the disturbance is then in place before
# the run starts, and gone before the next one.  Needs root for all but
# stop.  Gives up after TIMEOUT seconds (120).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
[ $# -ge 3 ] || { sed -n '4,47p' "$0" >&2; exit 2; }
file=$1 target=$2 what=$3
shift 3
deadline=$((SECONDS + ${TIMEOUT:-120}))

# The watcher runs beside the benchmark, at real-time priority when a
# disturbance would starve it, so it must cost nothing: a fork per poll
# (a grep every 20 ms) took a tenth of a CPU from the very run it
# watched.  It polls the file's mtime against a marker (a stat, no
# fork), sleeps in read -t on a FIFO nobody writes (no fork either),
# and counts lines (one per run, and a summary line once the series
# ends) only when the file changed.
tmpd=$(mktemp -d)
mkfifo "$tmpd/fifo"
exec {nap_fd}<>"$tmpd/fifo"
touch -d @0 "$tmpd/seen"
nruns=0

nap() {
	read -r -t "$1" -u "$nap_fd" _ || true
}

update_runs() {
	[ -f "$file" ] && [ "$file" -nt "$tmpd/seen" ] || return 0
	touch -r "$file" "$tmpd/seen"
	nruns=$(wc -l <"$file" 2>/dev/null || echo 0)
}

wait_runs() {
	update_runs
	while [ "$nruns" -lt "$1" ]; do
		[ $SECONDS -lt $deadline ] || { echo "disturb: timed out" >&2; exit 1; }
		nap 0.02
		update_runs
	done
}

# The mount point of a cgroup hierarchy: v2 ("cgroup2"), or v1's with
# the controller $2 (cpu) ("cgroup"); after the fields of a mountinfo
# line comes "-", then the type, the source and the options.
mount_of() {
	awk -v want="$1" -v ctl="${2:-cpu}" '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == want &&
		    (want == "cgroup2" || $(i + 3) ~ "(^|,)" ctl "(,|$)")) {
			print $5; exit
		}
	}' /proc/self/mountinfo
}

saved_r= saved_w= hog= pins=() cg= cg_pid= cg_home= stopped=
tracer= fz= fz_pid= fz_home= fz_state= fz_thaw= offline= clsact=
reniced= renice_back= idled=
restore() {
	# Undo everything, whatever a step before returned: under set -e
	# a failed kill or wait (a hog killed by SIGTERM waits as 143)
	# would end the trap there and leave the rest in place.
	set +e
	rm -rf "$tmpd"
	[ -n "$offline" ] &&
		echo 1 >/sys/devices/system/cpu/cpu"$offline"/online
	[ -n "$clsact" ] && tc qdisc del dev lo clsact 2>/dev/null
	[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
	# SIGINT makes strace detach from every thread, then exit.
	[ -n "$tracer" ] && kill -INT "$tracer" 2>/dev/null &&
		wait "$tracer" 2>/dev/null
	if [ -n "$fz" ]; then
		echo "$fz_thaw" >"$fz/$fz_state" 2>/dev/null
		echo "$fz_pid" >"$fz_home/cgroup.procs" 2>/dev/null
		rmdir "$fz" 2>/dev/null
	fi
	[ -n "$stopped" ] && kill -CONT "$stopped" 2>/dev/null
	if [ -n "$cg" ]; then
		echo "$cg_pid" >"$cg_home/cgroup.procs" 2>/dev/null || true
		rmdir "$cg" 2>/dev/null || true
	fi
	if [ -n "$idled" ]; then
		for t in /proc/"$idled"/task/*; do
			chrt -o -p 0 "${t##*/}" >/dev/null 2>&1
		done
	fi
	if [ -n "$reniced" ]; then
		for t in /proc/"$reniced"/task/*; do
			renice -n "$renice_back" -p "${t##*/}" >/dev/null 2>&1
		done
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

# A new cpu cgroup for process $1, named chatbench-$2-PID, beside the
# one the process is in: cgroup v1's cpu controller where it is mounted
# (machines like ours), else cgroup v2 (cg_v2 set).  Sets cg, cg_home,
# cg_pid; restore() moves the process back and removes the group.
cpu_cgroup() {
	local root
	cg_pid=$1 cg_v2=
	root=$(mount_of cgroup)
	if [ -n "$root" ]; then
		cg_home=$root$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/"$cg_pid"/cgroup)
	else
		root=$(mount_of cgroup2)
		cg_v2=1
		cg_home=$root$(awk -F: '$1 == "0" { print $3 }' /proc/"$cg_pid"/cgroup)
	fi
	cg=$root/chatbench-$2-$$
	mkdir "$cg"
}

# Mistakes in the arguments show now, not after RUN-1 runs.
case $what in
ptrace|freeze|renice|idle|shares)
	[[ ${1:-} =~ ^[0-9]+$ ]] && [ -d /proc/"$1" ] ||
		{ echo "disturb: no process '${1:-}'" >&2; exit 2; }
	[ "$what" != ptrace ] || command -v strace >/dev/null || {
		echo "disturb: ptrace needs strace (apt-get install strace)" >&2
		exit 1
	}
	;;
rt|offline)
	cpu=${1:-1}
	[ -d /sys/devices/system/cpu/cpu"$cpu" ] ||
		{ echo "disturb: no CPU '$cpu'" >&2; exit 2; }
	# CPU 0 usually cannot go offline (no online file), and where it
	# can, it keeps work the others cannot take over.
	[ "$what" = rt ] || [ "$cpu" != 0 ] ||
		{ echo "disturb: will not take CPU 0 offline" >&2; exit 2; }
	;;
drop)
	[ -f "$OUT/tc_drop.bpf.o" ] ||
		{ echo "disturb: no $OUT/tc_drop.bpf.o (make builds it)" >&2; exit 1; }
	command -v tc >/dev/null ||
		{ echo "disturb: drop needs tc (apt-get install iproute2)" >&2; exit 1; }
	! tc qdisc show dev lo | grep -q clsact ||
		{ echo "disturb: lo already has a clsact qdisc; not touching it" >&2; exit 1; }
	;;
hog|sockbuf|pin|quota|stop)
	;;
*)
	echo "disturb: unknown disturbance '$what' (hog, sockbuf, pin," \
		"quota, stop, rt, ptrace, freeze, renice, idle, shares," \
		"offline, drop)" >&2
	exit 2
	;;
esac

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
idle)
	# As renice: the threads of the next run inherit the main thread's
	# policy.  The watcher takes real-time priority, as beside a hog.
	idled=$1
	for t in /proc/"$1"/task/*; do
		chrt -i -p 0 "${t##*/}" >/dev/null 2>&1 || true
	done
	chrt -f -p 1 $$ >/dev/null 2>&1 || true
	;;
shares)
	# The quota's cgroup, with the least weight instead of a quota.
	cpu_cgroup "$1" shares
	if [ -z "$cg_v2" ]; then
		echo 2 >"$cg/cpu.shares"
	else
		echo 1 >"$cg/cpu.weight"
	fi
	echo "$cg_pid" >"$cg/cgroup.procs"
	chrt -f -p 1 $$ >/dev/null 2>&1 || true
	;;
quota)
	cpu_cgroup "$1" quota
	if [ -z "$cg_v2" ]; then
		echo $((${QUOTA_PCT:-40} * 1000)) >"$cg/cpu.cfs_quota_us"
		echo 100000 >"$cg/cpu.cfs_period_us"
	else
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
rt)
	# The watcher first: at SCHED_FIFO 20 it outranks the spinner, so
	# neither it nor the greps and sleeps it starts wait behind a loop
	# that never sleeps, wherever they land.  The spinner may take 95 %
	# of its CPU (sched_rt_runtime_us of sched_rt_period_us); the
	# benchmark's threads there move to the other CPUs or wait for the
	# rest.  The hog's thread inherits the policy and the CPU that
	# chrt and taskset gave its main thread.
	chrt -f -p 20 $$ >/dev/null 2>&1 ||
		taskset -p -c 0 $$ >/dev/null 2>&1 || true
	chrt -f 10 taskset -c "$cpu" "$OUT/chatbench-hog" --name chb_rt \
		--seconds 600 --threads 1 --nice 0 &
	hog=$!
	;;
ptrace)
	# -f with -p attaches every thread of the process, and the ones it
	# starts later; each system call then stops twice for the tracer,
	# and a server that makes one per message runs 20 to 30 times
	# slower.  -qq: no notes on attaching, detaching or exits.
	strace -f -qq -o /dev/null -p "$1" &
	tracer=$!
	;;
freeze)
	# cgroup v1's freezer where it is mounted (machines like ours),
	# else cgroup v2's cgroup.freeze.  Writing the pid to cgroup.procs
	# moves every thread of the process at once; the check below says
	# so if some did not follow.
	fz_pid=$1
	root=$(mount_of cgroup freezer)
	if [ -n "$root" ]; then
		fz_home=$root$(awk -F: '$2 ~ /(^|,)freezer(,|$)/ { print $3 }' /proc/"$fz_pid"/cgroup)
		fz_state=freezer.state fz_freeze=FROZEN fz_thaw=THAWED
	else
		root=$(mount_of cgroup2)
		[ -n "$root" ] ||
			{ echo "disturb: no cgroup freezer mounted" >&2; exit 1; }
		fz_home=$root$(awk -F: '$1 == "0" { print $3 }' /proc/"$fz_pid"/cgroup)
		fz_state=cgroup.freeze fz_freeze=1 fz_thaw=0
	fi
	fz=$root/chatbench-freeze-$$
	mkdir "$fz"
	echo "$fz_pid" >"$fz/cgroup.procs"
	left=$(grep -L ":/chatbench-freeze-$$\$" /proc/"$fz_pid"/task/*/cgroup \
		2>/dev/null | wc -l || true)
	[ "$left" -eq 0 ] ||
		echo "disturb: $left threads of $fz_pid not moved, not frozen" >&2
	sleep "${FREEZE_AFTER:-1.0}"
	echo "$fz_freeze" >"$fz/$fz_state"
	sleep "${FREEZE_FOR:-0.8}"
	echo "$fz_thaw" >"$fz/$fz_state"
	;;
renice)
	# Once, every thread: the main thread's nice is what the threads
	# of the next run inherit, so no loop has to chase them (a loop
	# would itself be an outsider taking CPU from the run).
	reniced=$1
	renice_back=$(ps -o ni= -p "$1" | tr -d ' ')
	for t in /proc/"$1"/task/*; do
		renice -n "${2:-19}" -p "${t##*/}" >/dev/null 2>&1 || true
	done
	;;
drop)
	# Ingress: a segment dropped on egress of lo is retried locally at
	# once, one dropped on ingress is lost to the receiver, and TCP
	# retransmits it (fast retransmit, or the timer).
	clsact=1
	tc qdisc add dev lo clsact
	tc filter add dev lo ingress bpf direct-action \
		obj "$OUT/tc_drop.bpf.o" sec tc
	;;
offline)
	# Before the write: a signal right after it still brings the CPU
	# back.  The kernel moves the CPU's tasks to the others first,
	# those confined to it included; the watcher then shares the one
	# CPU left with every thread of the benchmark, so it takes real-
	# time priority as with hog.
	offline=$cpu
	echo 0 >/sys/devices/system/cpu/cpu"$cpu"/online
	chrt -f -p 1 $$ >/dev/null 2>&1 ||
		renice -n -20 -p $$ >/dev/null 2>&1 || true
	;;
esac
wait_runs "$target"
