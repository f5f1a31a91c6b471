#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# chatbench-compare on real result files from chat_c --json: one row per
# file, ratio 1.000 for the base, avg/min/max equal to each file's summary,
# the latency columns equal to medians computed independently with jq,
# CSV that parses, and one clear line with a non-zero status for bad input.

load helpers
bats_require_minimum_version 1.5.0

COMPARE="$BIN/chatbench-compare"

# Two small untraced result files, made once for the whole suite.
setup_file() {
	local f
	for f in k1 k2; do
		"$CHAT_C" --local -q --no-trace --runs 2 \
			-j "$BATS_FILE_TMPDIR/$f.json" 2 20 >/dev/null 2>&1 ||
			return 1
	done
}

setup() {
	cd "$BATS_FILE_TMPDIR"
}

# The summary's avg, min and max of file $1, rounded as the table shows them.
summary_rounded() {
	local avg min max
	read -r avg min max < <(jq -r 'select(.summary) | .summary |
		"\(.avg) \(.min) \(.max)"' "$1")
	printf '%.0f %.0f %.0f\n' "$avg" "$min" "$max"
}

# The table row of label $1 from $output, from its first column on.
row_of() {
	echo "$output" | awk -v l="$1" '$1 == l'
}

# Median over the ok runs of file $1 of the jq expression $2.
median_of() {
	jq -s "[.[] | select(.run and .ok) | $2 | select(. != null)] | sort |
		if length == 0 then null
		elif length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end" "$1"
}

# A run's subject run-queue p99, computed apart from the C code: the
# rq_latency buckets of the benchmark roles merged, then the bucket
# holding rank 0.99 x count, interpolated inside it.
RQ_P99='[.kernel.roles | (.cli_snd, .cli_rcv, .srv_rcv, .srv_snd, .srv_loop)
	| .rq_latency.buckets[]?] | group_by(.lo)
	| map({lo: .[0].lo, hi: .[0].hi, count: (map(.count) | add)})
	| (map(.count) | add) as $n
	| if $n == null or $n == 0 then null else
		([0.99 * $n, 1] | max) as $rank
		| first(foreach .[] as $b ({before: 0};
			.prev = .before | .before += $b.count | .b = $b;
			select(.before >= $rank)
			| if .b.hi == null then .b.lo else
				(.b.lo + ($rank - .prev) / .b.count
				 * (.b.hi - .b.lo - 1) + 0.5 | floor) end))
	end'

@test "one row per file; base ratio 1.000; avg/min/max are the summaries" {
	run "$COMPARE" k1.json k2.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == label*runs*"avg msg/s"*min*max*ratio*"msg p99"*"rq p99"*kernel ]]
	local f row want
	for f in k1 k2; do
		row=$(row_of "$f")
		[ -n "$row" ]
		want=$(summary_rounded "$f.json")
		[ "$(echo "$row" | awk '{print $3, $4, $5}')" = "$want" ]
		[ "$(echo "$row" | awk '{print $2}')" = 2 ]
		# Untraced: no run-queue figure; the kernel release is the summary's.
		[ "$(echo "$row" | awk '{print $8}')" = - ]
		[ "$(echo "$row" | awk '{print $9}')" = \
			"$(jq -r 'select(.summary) | .summary.kernel_release' "$f.json")" ]
	done
	[ "$(row_of k1 | awk '{print $6}')" = 1.000 ]
	# k2's ratio is its average over k1's, to the printed 3 decimals.
	local a1 a2
	a1=$(jq 'select(.summary) | .summary.avg' k1.json)
	a2=$(jq 'select(.summary) | .summary.avg' k2.json)
	[ "$(row_of k2 | awk '{print $6}')" = \
		"$(awk -v a="$a2" -v b="$a1" 'BEGIN { printf "%.3f", a / b }')" ]
}

@test "--base makes that file's ratio 1.000" {
	run "$COMPARE" --base k2 k1.json k2.json
	[ "$status" -eq 0 ]
	[ "$(row_of k2 | awk '{print $6}')" = 1.000 ]
	[ "$(row_of k1 | awk '{print $6}')" != 1.000 ] ||
		[ "$(jq 'select(.summary) | .summary.avg' k1.json)" = \
		  "$(jq 'select(.summary) | .summary.avg' k2.json)" ]
}

@test "--csv: a header and one parseable line per file, full figures" {
	run "$COMPARE" --csv k1.json k2.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "label,sweep_param,sweep_value,runs,runs_attempted,avg,min,max,ratio,msg_p99_ns,rq_p99_ns,kernel_release,file" ]
	local i f line
	for i in 1 2; do
		line=${lines[$i]}
		f=k$i
		[ "$(echo "$line" | awk -F, '{print NF}')" -eq 13 ]
		[ "$(echo "$line" | cut -d, -f1)" = "$f" ]
		[ "$(echo "$line" | cut -d, -f13)" = "$f.json" ]
		# avg, min, max to the printed 3 decimals
		local key col want got
		col=6
		for key in avg min max; do
			want=$(jq "select(.summary) | .summary.$key" "$f.json")
			got=$(echo "$line" | cut -d, -f$col)
			awk -v a="$want" -v b="$got" \
				'BEGIN { exit !(a - b < 0.0006 && b - a < 0.0006) }'
			col=$((col + 1))
		done
		# message latency p99: the median over runs of latency.p99_ns
		want=$(median_of "$f.json" '.latency.p99_ns')
		got=$(echo "$line" | cut -d, -f10)
		awk -v a="$want" -v b="$got" \
			'BEGIN { exit !(a - b <= 0.5 && b - a <= 0.5) }'
		[ -z "$(echo "$line" | cut -d, -f11)" ]
	done
	[ "$(echo "${lines[1]}" | cut -d, -f9)" = 1.000 ]
}

@test "--label-by kernel: the kernel release, told apart when equal" {
	local rel
	rel=$(jq -r 'select(.summary) | .summary.kernel_release' k1.json)
	run "$COMPARE" --csv --label-by kernel k1.json k2.json
	[ "$status" -eq 0 ]
	[ "$(echo "${lines[1]}" | cut -d, -f1)" = "$rel (k1)" ]
	[ "$(echo "${lines[2]}" | cut -d, -f1)" = "$rel (k2)" ]
	run "$COMPARE" --base "$rel (k2)" --label-by kernel k1.json k2.json
	[ "$status" -eq 0 ]
	# The same file twice is numbered.
	run "$COMPARE" --csv k1.json k1.json
	[ "$status" -eq 0 ]
	[ "$(echo "${lines[1]}" | cut -d, -f1)" = "k1#1" ]
	[ "$(echo "${lines[2]}" | cut -d, -f1)" = "k1#2" ]
}

@test "bad input: status != 0 and one line naming the problem" {
	: >empty.json
	echo 'not json' >text.json
	grep -v '"summary"' k1.json >nosummary.json
	local -a cases=(
		"missing.json:No such file"
		"empty.json:empty file"
		"text.json:not JSON"
		"nosummary.json:no summary line"
	)
	local c
	for c in "${cases[@]}"; do
		run "$COMPARE" k1.json "${c%%:*}"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == "chatbench-compare: ${c%%:*}: "*"${c#*:}"* ]]
	done
	run "$COMPARE" --base nosuch k1.json k2.json
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *"unknown --base label 'nosuch'"* ]]
	run "$COMPARE"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$COMPARE" --label-by color k1.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "sweep files: a row per file and point, ratios at the same point" {
	"$CHAT_C" --local -q --no-trace -r 2 --sweep rooms=1,2 -j s1.json 10 \
		>/dev/null 2>&1
	"$CHAT_C" --local -q --no-trace -r 1 --sweep rooms=2 -j s2.json 10 \
		>/dev/null 2>&1
	run "$COMPARE" --csv s1.json s2.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$(echo "${lines[1]}" | cut -d, -f1-3,9)" = "s1,rooms,1,1.000" ]
	[ "$(echo "${lines[2]}" | cut -d, -f1-3,9)" = "s1,rooms,2,1.000" ]
	[ "$(echo "${lines[3]}" | cut -d, -f1-3)" = "s2,rooms,2" ]
	local want got b
	# Each row's avg is the summary of its own point.
	want=$(jq 'select(.summary.sweep.value == 1) | .summary.avg' s1.json)
	got=$(echo "${lines[1]}" | cut -d, -f6)
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 0.0006 && b - a < 0.0006) }'
	b=$(jq 'select(.summary.sweep.value == 2) | .summary.avg' s1.json)
	want=$(jq 'select(.summary.sweep.value == 2) | .summary.avg' s2.json)
	[ "$(echo "${lines[3]}" | cut -d, -f9)" = \
		"$(awk -v a="$want" -v b="$b" 'BEGIN { printf "%.3f", a / b }')" ]
	run "$COMPARE" s1.json s2.json
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == label*sweep*runs* ]]
}

@test "--help has examples and exits 0" {
	run "$COMPARE" --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^Usage: chatbench-compare'
	echo "$output" | grep -q '^Examples:'
	echo "$output" | grep -q -- '--base LABEL'
}

@test "traced file: rq p99 is the median of the merged subject roles' p99" {
	require_bpf
	"$CHAT_C" --local -q --trace --runs 2 -j traced.json 2 20 >/dev/null 2>&1
	run "$COMPARE" --csv k1.json traced.json
	[ "$status" -eq 0 ]
	local line want got
	line=$(echo "$output" | grep '^traced,')
	got=$(echo "$line" | cut -d, -f11)
	[ -n "$got" ]
	want=$(median_of traced.json "$RQ_P99")
	[ "$want" != null ]
	awk -v a="$want" -v b="$got" \
		'BEGIN { exit !(a - b <= 0.5 && b - a <= 0.5) }'
	# The table shows it as a duration, not "-".
	run "$COMPARE" k1.json traced.json
	[ "$(row_of traced | awk '{print $8}')" != - ]
}
