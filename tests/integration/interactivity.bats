#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Interactivity against throughput: open-loop load on a schedule fixed in
# advance (--rate, --arrival), latency from the scheduled send time, rate
# sweeps with an SLO, the scheduling of the benchmark's own threads read
# back from the kernel, and CPU burners beside the chat.  Assertions are
# invariants of a correct run, not speeds a VM may not give.

load helpers

setup() {
	start_server
	J="$BATS_TEST_TMPDIR/r.json"
}

teardown() {
	[ -n "${CLI_PID:-}" ] && kill -KILL "$CLI_PID" 2>/dev/null || true
	[ -n "${SRV_PID:-}" ] && kill -CONT "$SRV_PID" 2>/dev/null || true
	stop_server
}

# jq over the JSON lines of the last run ($J), true or the test fails.
jrun() {
	jq -se "map(select(.run)) | last | $1" "$J"
}

@test "an open-loop run keeps its schedule and reports rates and latency by room" {
	# 100 messages at 100/s: the schedule alone takes 0.99 s.
	run "$CHAT_C" -q --no-trace --rate 100 -j "$J" 127.0.0.1 2 100 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Messages sent      : 4000"
	echo "$output" | grep -qx "Messages received  : 76000"
	echo "$output" | grep -q "^Open-loop load     : 100 messages/s per user, fixed arrivals: 4000 sends/s offered$"
	echo "$output" | grep -Eq "^Achieved           : [0-9]+ sends/s \([0-9.]+ % of offered\), [0-9]+ receives/s$"
	echo "$output" | grep -Eq "^Latency, scheduled : p50 .*, p90 .*, p99 .*, p99.9 .*, max .* \(76000 messages\)$"
	# A run cannot end before its last scheduled send.
	jrun '.elapsed_s >= 0.99'
	jrun '.open_loop.rate_per_user == 100 and .open_loop.arrival == "fixed"
		and .open_loop.offered_sends_per_s == 4000'
	# Sends cannot run ahead of the schedule (100 sends in >= 99 periods).
	jrun '.open_loop.achieved_sends_per_s > 0 and
		.open_loop.achieved_sends_per_s <= 4000 * 100 / 99 + 1'
	jrun '.open_loop.latency as $l | $l.count == 76000 and
		$l.p50_ns > 0 and $l.p50_ns <= $l.p90_ns and $l.p90_ns <= $l.p99_ns
		and $l.p99_ns <= $l.p999_ns and $l.p999_ns <= $l.max_ns'
	jrun '.open_loop.rooms | length == 2 and
		(map(.count) | add) == 76000 and all(.[]; .max_ns > 0)'
	jrun '.open_loop.latency_resolution_pct < 1'
	# The coarse histogram of every run is still there, and agrees.
	jrun '.latency.count == 76000'
}

@test "Poisson arrivals send the same messages on a random schedule" {
	run "$CHAT_C" -q --no-trace --rate 200 --arrival poisson -j "$J" \
		127.0.0.1 1 100 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "200 messages/s per user, poisson arrivals"
	jrun '.messages_sent == 2000 and .open_loop.arrival == "poisson" and
		.open_loop.latency.count == 38000'
}

@test "a server stopped for 1 s is charged in full to open-loop latency" {
	# 4 s of schedule; the stop lands inside it whatever the set-up costs.
	"$CHAT_C" -q --no-trace --rate 100 -j "$J" 127.0.0.1 2 400 "$SRV_PORT" \
		>"$BATS_TEST_TMPDIR/out" 2>&1 &
	CLI_PID=$!
	wait_threads "$CLI_PID" cli_snd 40
	sleep 1
	kill -STOP "$SRV_PID"
	sleep 1
	kill -CONT "$SRV_PID"
	wait "$CLI_PID"
	CLI_PID=
	# Messages scheduled during the stop waited up to 1 s: well over 1 %
	# of them waited more than 0.5 s.
	jrun '.ok and .open_loop.latency.p99_ns >= 500000000 and
		.open_loop.latency.max_ns >= 800000000'
}

@test "a rate sweep writes a point per rate with its offered rate and p99, and the SLO" {
	run "$CHAT_C" -q --no-trace --sweep rate=100,400,1600 --slo 60000 \
		-j "$J" 127.0.0.1 1 40 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Sweep of rate: 1 rooms, 20 users per room"
	rows=$(echo "$output" | awk '/^ +rate +msgs +runs/ { t = 1; next } t && $1 ~ /^[0-9]+$/')
	[ "$(echo "$rows" | wc -l)" -eq 3 ]
	echo "$rows" | awk '{ if ($2 != 40 || $4 != $1 * 20) exit 1 }'
	# Every point's p99 is far below a minute: the highest rate meets it.
	echo "$output" | grep -q "^SLO p99 < 60000 ms    : highest rate 1600 per user (32000 sends/s"
	jq -se 'map(select(.summary)) | length == 3 and
		map(.summary.sweep.value) == [100, 400, 1600] and
		all(.[]; .summary.open_loop as $o |
			$o.offered_sends_per_s == .summary.sweep.value * 20 and
			$o.p99_ns > 0 and $o.slo.met)' "$J"
	jq -se 'map(select(.run)) | length == 3 and
		all(.[]; .open_loop.rate_per_user == .sweep.value)' "$J"
}

@test "an SLO no rate meets is said so" {
	run "$CHAT_C" -q --no-trace --sweep rate=100,200 --slo 0.001 \
		127.0.0.1 1 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^SLO p99 < 0.001 ms    : met at no rate of the sweep$"
}

# The policy (field 41 of stat) of every thread of $1 named $2, in one
# pass: a fork per thread would outlast the run.
policies_of() {
	cat /proc/"$1"/task/*/stat 2>/dev/null |
		awk -v n="($2)" '$2 == n { sub(/.*\) /, ""); print $39 }'
}

@test "--sched all=batch puts both sides' benchmark threads under SCHED_BATCH" {
	# 4 s of schedule: time enough to look at every thread (the
	# loops below take tenths of a second).
	"$CHAT_C" -q --no-trace --rate 50 --sched all=batch --nice client=3 \
		-j "$J" 127.0.0.1 2 200 "$SRV_PORT" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	CLI_PID=$!
	wait_threads "$CLI_PID" cli_rcv 40
	wait_threads "$SRV_PID" srv_snd 40
	# Each client thread sets itself after it named itself, the server's
	# are set once it sent 0x11: wait (bounded) for the last of them.
	for i in $(seq 100); do
		{ policies_of "$CLI_PID" cli_snd; policies_of "$CLI_PID" cli_rcv
		  policies_of "$SRV_PID" srv_snd; policies_of "$SRV_PID" srv_rcv
		} | grep -qvx 3 || break
		sleep 0.1
	done
	for role in cli_snd cli_rcv; do
		[ "$(policies_of "$CLI_PID" $role | grep -cx 3)" -eq 40 ]
	done
	for role in srv_rcv srv_snd; do
		[ "$(policies_of "$SRV_PID" $role | grep -cx 3)" -eq 40 ]
	done
	wait "$CLI_PID"
	CLI_PID=
	grep -Eq "^Scheduling         : cli_snd  batch nice 3 .*\(40 threads, read back\)$" \
		"$BATS_TEST_TMPDIR/out"
	jrun '.sched.cli_snd.policy == "batch" and .sched.cli_snd.nice == 3 and
		.sched.cli_snd.threads == 40 and .sched.cli_rcv.threads == 40 and
		.sched.srv_rcv.policy == "batch" and .sched.srv_rcv.nice == 0 and
		.sched.srv_rcv.threads == 40 and .sched.srv_snd.threads == 40'
}

@test "a slice request is read back, or the run says the kernel ignored it" {
	run "$CHAT_C" -q --no-trace --slice client=3000 -j "$J" \
		127.0.0.1 1 20 "$SRV_PORT"
	if [ "$status" -eq 0 ]; then
		jrun '.sched.cli_snd.slice_ns == 3000000 and
			.sched.cli_rcv.slice_ns == 3000000'
	else
		[[ "${lines[-1]}" == *"ignored the slice request"* ]]
	fi
}

@test "server roles cannot be set on a server the client does not know" {
	run "$CHAT_C" -q --no-trace --sched server=batch --server-pid 1 \
		127.0.0.1 1 10 "$SRV_PORT"
	# pid 1 is not a chat_s: it has no srv_* threads, nothing is set.
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "^Scheduling"
}

@test "burners run beside every run, are outsiders, and report their progress" {
	run "$CHAT_C" -q --no-trace -r 2 --background burn=2:5 -j "$J" \
		127.0.0.1 1 100 "$SRV_PORT"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -Ec '^Background         : 2 burners \(cb_burn\): [0-9]+ loops/s during the run$')" -eq 2 ]
	jq -se 'map(select(.run)) | length == 2 and
		all(.[]; .background.burners == 2 and .background.loops_per_s > 0)' "$J"
	# They end with the client.
	! pgrep -x cb_burn
}

@test "burners show up in the kernel record as outsiders" {
	require_bpf
	run "$CHAT_C" -q --trace --background burn=2 -j "$J" \
		127.0.0.1 2 200 "$SRV_PORT"
	[ "$status" -eq 0 ]
	jrun '.kernel.stealers | any(.comm == "cb_burn" and
		(.is_benchmark | not) and .ns > 0)'
}

@test "bad open-loop and scheduling arguments get one line and status 2" {
	for args in "--rate -1" "--rate x" "--arrival poisson" \
		"--rate 10 --arrival bursty" "--slo 5" "--sched all" \
		"--sched all=fifo" "--sched cpu=batch" "--nice all=20" \
		"--slice all=10" "--background burn=0" "--background spin=1" \
		"--sweep rate=0,10"; do
		# shellcheck disable=SC2086
		run "$CHAT_C" $args 127.0.0.1 1 10 "$SRV_PORT"
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == "chat_c: "* ]]
	done
}

@test "the saturating default stays as it was: no open-loop lines or keys" {
	run "$CHAT_C" -q --no-trace -j "$J" 127.0.0.1 1 10 "$SRV_PORT"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "^Open-loop\|^Achieved\|^Scheduling\|^Background"
	jrun '(has("open_loop") or has("sched") or has("background")) | not'
}

@test "TCP_NODELAY on both sides, said in the placement" {
	stop_server
	start_server --nodelay
	run "$CHAT_C" --no-trace --nodelay --rate 100 -j "$J" \
		127.0.0.1 1 20 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Placement          : client cpus all, TCP_NODELAY;"
	jq -se 'map(select(.summary)) | last | .summary.placement.client.nodelay' "$J"
}

@test "the report plots latency against load, one curve per condition" {
	for pol in other batch; do
		run "$CHAT_C" -q --no-trace --sweep rate=50,200 --duration 0.3 \
			--sched client=$pol -j "$BATS_TEST_TMPDIR/$pol.json" \
			127.0.0.1 1 1 "$SRV_PORT"
		[ "$status" -eq 0 ]
		# --duration sizes each point: rate x 0.3 s messages per user.
		jq -se 'map(select(.run) | .messages) == [15, 60]' \
			"$BATS_TEST_TMPDIR/$pol.json"
	done
	h="$BATS_TEST_TMPDIR/r.html"
	"$BIN/chatbench-report" -o "$h" "$BATS_TEST_TMPDIR/other.json" \
		"$BATS_TEST_TMPDIR/batch.json"
	grep -q '<h2>Latency against load</h2>' "$h"
	chart=$(sed -n 's/.*\(<svg class="loadchart".*\)/\1/p' "$h" | sed 's,</svg>.*,,')
	# p99 and p50 for each of the two files, a point per rate and file.
	[ "$(grep -o '<path ' <<<"$chart" | wc -l)" -eq 4 ]
	[ "$(grep -o '<circle ' <<<"$chart" | wc -l)" -eq 4 ]
	grep -q 'rate 200/user' <<<"$chart"
	# A saturating sweep has no such chart.
	run "$CHAT_C" -q --no-trace --sweep rooms=1,2 -j "$J" 127.0.0.1 1 5 "$SRV_PORT"
	"$BIN/chatbench-report" -o "$h" "$J"
	! grep -q 'loadchart' "$h"
}

@test "scheduling is a sweep axis: a point per policy, set and read back, in the report" {
	run "$CHAT_C" -q --no-trace --sweep sched=other,batch,idle --rate 100 \
		--duration 0.3 -j "$J" 127.0.0.1 1 1 "$SRV_PORT"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "Sweep of sched: 1 rooms, 30 messages, 20 users per room"
	[ "$(echo "$output" | awk '/^ +sched runs/ { t = 1; next } t && NF >= 6 { print $1 }' | tr '\n' ' ')" = "other batch idle " ]
	jq -se 'map(select(.summary) | .summary.sweep.value) == ["other", "batch", "idle"]' "$J"
	# Each point's threads, both sides, held the point's policy.
	jq -se 'map(select(.run)) | length == 3 and all(.[];
		.sweep.value as $p | .sched.cli_snd.policy == $p and
		.sched.cli_rcv.policy == $p and .sched.srv_rcv.policy == $p and
		.sched.srv_snd.policy == $p and .sched.srv_snd.threads == 20)' "$J"
	h="$BATS_TEST_TMPDIR/r.html"
	"$BIN/chatbench-report" -o "$h" "$J"
	for p in other batch idle; do
		grep -q "text-anchor=\"middle\">$p</text>" "$h"
	done
	run "$CHAT_C" -q --no-trace --sweep nice=0,5 -j "$J" 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 0 ]
	jq -se 'map(select(.run) | [.sweep.value, .sched.cli_snd.nice,
		.sched.srv_rcv.nice]) == [[0, 0, 0], [5, 5, 5]]' "$J"
	run "$CHAT_C" --sweep sched=other,fast 127.0.0.1 1 5 "$SRV_PORT"
	[ "$status" -eq 2 ]
}

@test "chat_s --sched sets its own threads, and refuses what it cannot parse" {
	stop_server
	start_server --model epoll --sched all=batch --nice srv_loop=7
	"$CHAT_C" -q --no-trace --rate 50 127.0.0.1 1 200 "$SRV_PORT" \
		>"$BATS_TEST_TMPDIR/out" 2>&1 &
	CLI_PID=$!
	wait_threads "$SRV_PID" srv_loop 1
	for i in $(seq 50); do
		[ "$(policies_of "$SRV_PID" srv_loop)" = 3 ] && break
		sleep 0.1
	done
	[ "$(policies_of "$SRV_PID" srv_loop)" = 3 ]
	kill -KILL "$CLI_PID"
	CLI_PID=
	run "$CHAT_S" --sched all=fifo 127.0.0.1 0
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"fifo needs a priority"* ]]
}
