# SPDX-License-Identifier: GPL-2.0
# Shared by the bats suites: binaries, a chat_s on an ephemeral loopback
# port per test, raw protocol bytes over bash's /dev/tcp, and the BPF rule
# (skip without BPF, fail instead when CHATBENCH_REQUIRE_BPF=1).

OUT=${OUT:-build}
case $OUT in
/*) BIN=$OUT ;;
*) BIN="$BATS_TEST_DIRNAME/../../$OUT" ;;
esac
CHAT_S="$BIN/chat_s"
CHAT_C="$BIN/chat_c"
# Debian's interpreter, which install-deps.sh installs: a version
# manager's shim in front of it (pyenv) costs half a second a start, and
# the suites start it dozens of times.
PYTHON3=/usr/bin/python3
[ -x "$PYTHON3" ] || PYTHON3=python3

# Starts chat_s with the given options on 127.0.0.1, port picked by the
# kernel; sets SRV_PID, SRV_PORT and SRV_LOG.
start_server() {
	local fifo="$BATS_TEST_TMPDIR/ready"
	SRV_LOG="$BATS_TEST_TMPDIR/chat_s.log"
	mkfifo "$fifo"
	"$CHAT_S" --ready-fd 3 "$@" 127.0.0.1 0 3>"$fifo" >"$SRV_LOG" 2>&1 &
	SRV_PID=$!
	read -r -t 5 SRV_PORT <"$fifo"
	rm -f "$fifo"
	[ -n "$SRV_PORT" ]
}

stop_server() {
	if [ -n "${SRV_PID:-}" ]; then
		kill "$SRV_PID" 2>/dev/null || true
		wait "$SRV_PID" 2>/dev/null || true
		SRV_PID=
	fi
}

# Bytes (printf escapes) on a fresh connection to the server, then close.
send_raw() {
	exec 5<>"/dev/tcp/127.0.0.1/$SRV_PORT"
	printf "$1" >&5
	[ -n "${2:-}" ] && sleep "$2"
	exec 5>&-
}

# A normal run against the current server with exact counts.
assert_normal_run() {
	local rooms=${1:-2} msgs=${2:-10}
	run "$CHAT_C" -q --no-trace 127.0.0.1 "$rooms" "$msgs" "$SRV_PORT"
	# Shown only if the test fails: the client's reason.
	echo "$output"
	[ "$status" -eq 0 ]
	local sent=$((rooms * 20 * msgs)) recv=$((rooms * 20 * msgs * 19))
	echo "$output" | grep -qx "Messages sent      : $sent"
	echo "$output" | grep -qx "Messages received  : $recv"
}

srv_fds() {
	local ents=("/proc/$SRV_PID/fd"/*)
	echo "${#ents[@]}"
}

srv_status() {
	awk -v k="$1:" '$1 == k { print $2 }' "/proc/$SRV_PID/status"
}

# Waits (bounded: a stuck server fails the test) until the server holds
# exactly $1 descriptors and $2 threads, as it did when idle before: the
# last run is over and everything it took is given back.  (Idle is one
# thread, plus TSan's own background thread under TSan.)
wait_server_idle() {
	local fds=$1 threads=$2 i
	for i in $(seq 200); do
		if [ "$(srv_fds)" -eq "$fds" ] &&
			[ "$(srv_status Threads)" -eq "$threads" ]; then
			return 0
		fi
		sleep 0.1
	done
	echo "server not idle: $(srv_fds) fds (want $fds)," \
		"$(srv_status Threads) threads (want $threads)" >&2
	return 1
}

# start_server with a command in front of chat_s (setpriv, prlimit, ip netns
# exec; each of them execs it, so $! is chat_s) and the address to bind as
# first argument.  Sets SRV_PID, SRV_PORT, SRV_LOG.
launch_server() {
	local addr=$1 fifo="$BATS_TEST_TMPDIR/ready"
	shift
	SRV_LOG="$BATS_TEST_TMPDIR/chat_s.log"
	mkfifo "$fifo"
	"${SRV_WRAP[@]}" "$CHAT_S" --ready-fd 3 "$@" "$addr" 0 \
		3>"$fifo" >"$SRV_LOG" 2>&1 &
	SRV_PID=$!
	read -r -t 10 SRV_PORT <"$fifo" || true
	rm -f "$fifo"
	[ -n "$SRV_PORT" ]
	[ "$(cat "/proc/$SRV_PID/comm")" = chat_s ]
}

# SIGTERM lets chat_s finish and exit 0; anything else (a sanitizer report,
# a leak found at exit) is a failure of the test that ran it.
stop_server_checked() {
	local st=0
	[ -n "${SRV_PID:-}" ] || return 0
	kill "$SRV_PID" 2>/dev/null || true
	wait "$SRV_PID" || st=$?
	SRV_PID=
	if [ "$st" -ne 0 ]; then
		echo "chat_s exited with status $st; its log:" >&2
		cat "$SRV_LOG" >&2
		return 1
	fi
}

# A veth pair named $5a/$5b from namespace $1 (address $2/30) to
# namespace $3 (address $4/30), both ends up; loopback is left as it is
# (down in a new namespace), so nothing can take a shortcut through it.
veth_link() {
	ip link add "${5}a" type veth peer name "${5}b"
	ip link set "${5}a" netns "$1"
	ip link set "${5}b" netns "$3"
	ip -n "$1" addr add "$2/30" dev "${5}a"
	ip -n "$3" addr add "$4/30" dev "${5}b"
	ip -n "$1" link set "${5}a" up
	ip -n "$3" link set "${5}b" up
}

# A star of network namespaces: the server's $1-s and $3 client
# namespaces $1-c1.., client k reached over its own veth pair at
# 10.$2.k.1 (server side) and 10.$2.k.2.  Appends the namespaces to
# NETNS (the caller's teardown deletes them) and sets SRV_WRAP to run a
# command in the server's.
netns_star() {
	local tag=$1 net=$2 n=$3 k
	NETNS+=("$tag-s")
	ip netns add "$tag-s"
	for k in $(seq "$n"); do
		NETNS+=("$tag-c$k")
		ip netns add "$tag-c$k"
		veth_link "$tag-s" "10.$net.$k.1" "$tag-c$k" "10.$net.$k.2" \
			"${tag}$k"
	done
	SRV_WRAP=(ip netns exec "$tag-s")
}

# SIGKILLs and reaps the background processes whose pids are given.
kill_all() {
	local p
	for p in "$@"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}

bpf_available() {
	[ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]
}

require_bpf() {
	if ! bpf_available; then
		if [ "${CHATBENCH_REQUIRE_BPF:-0}" = 1 ]; then
			echo "BPF required (CHATBENCH_REQUIRE_BPF=1) but not available" >&2
			return 1
		fi
		skip "BPF not available (needs root and BTF)"
	fi
}

# Waits (up to 20 s) until process $1 has $3 threads named $2: thread
# creation is slow under sanitizers, so a fixed sleep is not enough.
wait_threads() {
	local i n
	for i in $(seq 200); do
		n=$(cat /proc/"$1"/task/*/comm 2>/dev/null | grep -cx "$2" || true)
		[ "$n" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
