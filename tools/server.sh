# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the tools that run chat_c against one separately started
# chat_s: a scratch directory ($tmp), start_server [chat_s options] (a
# server on a port the kernel picks, told through a FIFO: sets srv and
# port, stops the previous one), and a clean-up on exit that stops it and
# removes $tmp after calling cleanup_more when the tool defines it.
# Needs OUT; TOOL names the tool in messages.
tmp=$(mktemp -d)
srv=
port=

cleanup() {
	declare -F cleanup_more >/dev/null && cleanup_more
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -rf "$tmp"
	return 0
}
trap cleanup EXIT

start_server() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -f "$tmp/ready"
	mkfifo "$tmp/ready"
	"$OUT/chat_s" -q --ready-fd 3 "$@" 127.0.0.1 0 3>"$tmp/ready" &
	srv=$!
	port=
	read -r -t 5 port <"$tmp/ready" || true
	[ -n "$port" ] || { echo "${TOOL:-tools}: chat_s did not start" >&2; exit 1; }
}
