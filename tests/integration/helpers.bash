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
	[ "$status" -eq 0 ]
	local sent=$((rooms * 20 * msgs)) recv=$((rooms * 20 * msgs * 19))
	echo "$output" | grep -qx "Messages sent      : $sent"
	echo "$output" | grep -qx "Messages received  : $recv"
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
