#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the files of one series of chat_s --clients 3 that merge.bats
# replays (chatbench-report and chatbench-compare merging the files of
# one run's clients): four network namespaces on one kernel, joined by
# veth pairs, each with a hostname of its own (a UTS namespace), so that
# every path of a real four-host run is taken: chat_s in "srv" traces its
# host (it does when root) for the three clients, which cannot see it and
# ask; three chat_c --no-trace in "cli1".."cli3", RUNS (2) runs of
# ROOMS x MSGS (2 x 100) each, released together run by run.  The three
# files land gzipped in tests/data/clients3/ (c1..c3.json.gz).
#
#   tools/record-clients3.sh        (root; after make, OUT as for make)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
RUNS=${RUNS:-2}
ROOMS=${ROOMS:-2}
MSGS=${MSGS:-100}
dir=tests/data/clients3
tag="rc3$$"
tmp=$(mktemp -d)
spid=

cleanup() {
	local k
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" || true
	for k in s 1 2 3; do
		ip netns del "$tag-$k" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

ip netns add "$tag-s"
for k in 1 2 3; do
	ip netns add "$tag-$k"
	ip link add "${tag}${k}a" type veth peer name "${tag}${k}b"
	ip link set "${tag}${k}a" netns "$tag-s"
	ip link set "${tag}${k}b" netns "$tag-$k"
	ip -n "$tag-s" addr add "10.206.$k.1/30" dev "${tag}${k}a"
	ip -n "$tag-$k" addr add "10.206.$k.2/30" dev "${tag}${k}b"
	ip -n "$tag-s" link set "${tag}${k}a" up
	ip -n "$tag-$k" link set "${tag}${k}b" up
done

mkfifo "$tmp/ready"
ip netns exec "$tag-s" unshare --uts sh -c \
	'hostname "$1" && shift && exec "$@"' sh srv "$OUT/chat_s" --ready-fd 3 \
	--clients 3 --timeout 20 0.0.0.0 0 3>"$tmp/ready" >"$tmp/chat_s.log" 2>&1 &
spid=$!
read -r -t 10 port <"$tmp/ready"
pids=()
for k in 1 2 3; do
	ip netns exec "$tag-$k" unshare --uts sh -c \
		'hostname "$1" && shift && exec "$@"' sh "cli$k" "$OUT/chat_c" -q \
		--no-trace -r "$RUNS" -j "$tmp/c$k.json" "10.206.$k.1" \
		"$ROOMS" "$MSGS" "$port" >"$tmp/c$k.log" 2>&1 &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || { cat "$tmp"/c*.log "$tmp/chat_s.log" >&2; exit 1; }
done
mkdir -p "$dir"
for k in 1 2 3; do
	gzip -9n <"$tmp/c$k.json" >"$dir/c$k.json.gz"
done
ls -l "$dir"
