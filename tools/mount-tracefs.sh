#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bpftrace's and perf's tracepoint probes look the events up in tracefs,
# which some VMs boot without (chatbench's own tp_btf/raw_tp programs do
# not need it).  Mounts it at /sys/kernel/tracing when it is missing;
# exits 1 with one line when it cannot (not root, no tracefs in the kernel).
set -u
dir=/sys/kernel/tracing
[ -d "$dir/events/sched" ] && exit 0
if ! mount -t tracefs nodev "$dir" 2>/dev/null || [ ! -d "$dir/events/sched" ]; then
	echo "tracefs is not mounted at $dir and could not be (root needed)" >&2
	exit 1
fi
exit 0
