#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# chatbench-compare on real result files from chat_c --json: one row per
# file, ratio 1.000 for the base, avg/min/max equal to each file's summary,
# the latency columns equal to medians computed independently with jq,
# CSV and JSON that parse and agree with the table, and one clear line with
# a non-zero status for bad input.  The statistics (interval, p-value,
# runs needed) are asserted on synthetic files with known throughputs,
# never on real runs, whose noise would make such a test flaky: real
# files only carry the plumbing.

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

# The table row of label $1 from $output, from its first column on (the
# legend after the table starts with "*: ", "p: ", "-: " or "runs").
row_of() {
	echo "$output" | awk -v l="$1" '/^([*p-]: |runs )/ { exit } $1 == l'
}

# A result file $1 as chat_c would write it, with ok runs of the given
# throughputs and a summary line that agrees with them.
synth() {
	local f=$1 i=0 v
	shift
	: >"$f"
	for v in "$@"; do
		i=$((i + 1))
		printf '{"run":%d,"ok":true,"throughput":%s}\n' "$i" "$v" >>"$f"
	done
	printf '%s\n' "$@" | awk '
		{ s += $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
		END { printf "{\"summary\":{\"runs\":%d,\"runs_attempted\":%d,\"avg\":%.17g,\"min\":%.17g,\"max\":%.17g,\"kernel_release\":\"synthetic\"}}\n", NR, NR, s / NR, lo, hi }' >>"$f"
}

# Field $2 of the JSON row labelled $1 in $output (compact, jq -c).
json_row() {
	echo "$output" | jq -c --arg l "$1" "select(.label == \$l) | $2"
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
	[[ "${lines[0]}" == label*runs*"avg msg/s"*min*max*ratio*"95% CI"*p*"msg p99"*"rq p99"*kernel ]]
	[[ "${lines[1]}" == k1\ * ]]
	[[ "${lines[2]}" == k2\ * ]]
	# The rest is the legend.
	[[ "${lines[3]}" == "*: the ratio's 95% CI excludes 1"* ]]
	[[ "${lines[4]}" == "p: two-sided Mann-Whitney"*"(k1)" ]]
	local f row want
	for f in k1 k2; do
		row=$(row_of "$f")
		[ -n "$row" ]
		want=$(summary_rounded "$f.json")
		[ "$(echo "$row" | awk '{print $3, $4, $5}')" = "$want" ]
		[ "$(echo "$row" | awk '{print $2}')" = 2 ]
		# Untraced: no run-queue figure; the kernel release is the summary's.
		[ "$(echo "$row" | awk '{print $10}')" = - ]
		[ "$(echo "$row" | awk '{print $11}')" = \
			"$(jq -r 'select(.summary) | .summary.kernel_release' "$f.json")" ]
	done
	# The base: ratio 1, no interval or p-value (it is not tested
	# against itself).
	[ "$(row_of k1 | awk '{print $6, $7, $8}')" = "1.000 - -" ]
	# k2's ratio is its average over k1's, to the printed 3 decimals,
	# with a '*' when its interval excludes 1.
	local a1 a2
	a1=$(jq 'select(.summary) | .summary.avg' k1.json)
	a2=$(jq 'select(.summary) | .summary.avg' k2.json)
	[ "$(row_of k2 | awk '{sub(/\*$/, "", $6); print $6}')" = \
		"$(awk -v a="$a2" -v b="$a1" 'BEGIN { printf "%.3f", a / b }')" ]
}

@test "--base makes that file's ratio 1.000" {
	run "$COMPARE" --base k2 k1.json k2.json
	[ "$status" -eq 0 ]
	[ "$(row_of k2 | awk '{print $6}')" = 1.000 ]
	# k1's ratio to k2 is its own: 1.000 only when the two averages are
	# within the table's rounding of each other.
	a1=$(jq 'select(.summary) | .summary.avg' k1.json)
	a2=$(jq 'select(.summary) | .summary.avg' k2.json)
	[ "$(row_of k1 | awk '{sub(/\*$/, "", $6); print $6}')" = \
		"$(awk -v a="$a1" -v b="$a2" 'BEGIN { printf "%.3f", a / b }')" ]
}

@test "--csv: a header and one parseable line per file, full figures" {
	run "$COMPARE" --csv k1.json k2.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	# The columns of old come first, in their old order.
	[ "${lines[0]}" = "label,sweep_param,sweep_value,runs,runs_attempted,avg,min,max,ratio,msg_p99_ns,rq_p99_ns,kernel_release,file,ratio_ci95_low,ratio_ci95_high,p_value,runs_needed" ]
	local i f line
	for i in 1 2; do
		line=${lines[$i]}
		f=k$i
		[ "$(echo "$line" | awk -F, '{print NF}')" -eq 17 ]
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
	# The base has no interval or p-value; k2 has both (2 runs a side).
	[ "$(echo "${lines[1]}" | cut -d, -f14-16)" = ",," ]
	[ -n "$(echo "${lines[2]}" | cut -d, -f14)" ]
	[ -n "$(echo "${lines[2]}" | cut -d, -f16)" ]
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
	echo "$output" | grep -q -- '--json'
	echo "$output" | grep -q -- '--resolve PCT'
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
	[ "$(row_of traced | awk '{print $10}')" != - ]
}

@test "--json: a header, then every field of every row, as in the table" {
	run "$COMPARE" --json k1.json k2.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	echo "${lines[0]}" | jq -e '.compare | .base == "k1" and
		.base_file == "k1.json" and .resolve == 0.02 and
		.level == 0.95 and .resamples == 10000 and .min_runs == 2'
	local json=$output f key
	for f in k1 k2; do
		for key in label file sweep runs avg min max ratio ratio_ci95 \
			p_value runs_needed msg_p99_ns rq_p99_ns kernel_release; do
			[ "$(json_row "$f" "has(\"$key\")")" = true ]
		done
		[ "$(json_row "$f" .file)" = "\"$f.json\"" ]
		[ "$(json_row "$f" .runs)" = 2 ]
	done
	# The base: ratio 1, no interval or p-value; its runs_needed is at
	# its own noise.
	[ "$(json_row k1 '[.base, .ratio == 1, .ratio_ci95, .p_value]')" = \
		"[true,true,null,null]" ]
	[ "$(json_row k2 '.ratio_ci95 | length')" = 2 ]
	[ "$(json_row k2 '.p_value >= 0 and .p_value <= 1')" = true ]
	# The table says the same, to its decimals.
	local want got
	want=$(echo "$json" | jq -r 'select(.label == "k2") | [.ratio,
		(if .significant then "*" else "" end), .ratio_ci95[0],
		.ratio_ci95[1], .p_value] | @tsv' |
		awk -F'\t' '{ printf "%.3f%s %.3f-%.3f ", $1, $2, $3, $4
			if ($5 < 0.001) print "<0.001"; else printf "%.3f\n", $5 }')
	run "$COMPARE" k1.json k2.json
	got=$(row_of k2 | awk '{print $6, $7, $8}')
	[ "$got" = "$want" ]
	want=$(echo "$json" | jq -r 'select(.label) |
		"\(.label) \(.runs_needed)"' | paste -sd, | sed 's/,/, /g')
	[ "$(echo "$output" | grep -A1 '^runs per side to resolve 2%' |
		tail -1)" = "  $want" ]
	# --csv and --json do not mix.
	run "$COMPARE" --json --csv k1.json k2.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "statistics: one setup twice holds 1; a clear difference excludes it" {
	# a and b: the same spread around 100; c: around 200
	synth a.json 100 103 97 101 99 102 98
	synth b.json 98 101 104 96 100 99 102
	synth c.json 198 203 197 201 199 202 200
	run "$COMPARE" --json a.json b.json c.json
	[ "$status" -eq 0 ]
	local json=$output
	[ "$(json_row b '.ratio_ci95[0] < 1 and .ratio_ci95[1] > 1')" = true ]
	[ "$(json_row b '.significant == false and .p_value > 0.5')" = true ]
	[ "$(json_row c '.ratio_ci95[0] > 1.9 and .ratio_ci95[1] < 2.1')" = \
		true ]
	[ "$(json_row c '.significant and .p_value < 0.05')" = true ]
	# 7 runs a side, every one of c above every one of a: the exact
	# two-sided p is 2 / C(14, 7) = 2 / 3432.
	[ "$(json_row c '.p_value - 2 / 3432 | fabs < 1e-12')" = true ]
	# The table marks c, not b; the same input gives the same interval.
	run "$COMPARE" a.json b.json c.json
	[[ "$(row_of c | awk '{print $6}')" == *'*' ]]
	[[ "$(row_of b | awk '{print $6}')" != *'*' ]]
	[ "$(row_of c | awk '{print $7}')" = \
		"$(echo "$json" | jq -r 'select(.label == "c") |
			.ratio_ci95 | @tsv' |
			awk '{ printf "%.3f-%.3f", $1, $2 }')" ]
	local again
	again=$("$COMPARE" --json a.json b.json c.json)
	[ "$again" = "$json" ]
}

@test "runs_needed: from the pooled robust noise, for --resolve" {
	# Medians 100 and 200, MADs 10 and 20: relative robust SD 0.14826 on
	# both sides, so 2 (1.95996 + 0.84162)^2 0.14826^2 / d^2 runs a side:
	# 862.6 for 2 %, 138.02 for 5 %.
	synth n1.json 90 100 110
	synth n2.json 180 200 220
	run "$COMPARE" --json n1.json n2.json
	[ "$status" -eq 0 ]
	[ "$(json_row n2 .runs_needed)" = 863 ]
	[ "$(json_row n1 .runs_needed)" = 863 ]
	[ "$(json_row n2 '.noise - 0.14826 | fabs < 1e-9')" = true ]
	run "$COMPARE" --json --resolve 5 n1.json n2.json
	[ "$(json_row n2 .runs_needed)" = 139 ]
	[ "$(echo "${lines[0]}" | jq .compare.resolve)" = 0.05 ]
	run "$COMPARE" --resolve 5 n1.json n2.json
	[ "$(echo "$output" | grep -A1 '^runs per side to resolve 5%' |
		tail -1)" = "  n1 139, n2 139" ]
	run "$COMPARE" --resolve 0 n1.json n2.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *"--resolve must be a number"* ]]
}

@test "fewer than 2 runs on a side: '-' in the table, null in JSON, said why" {
	synth m1.json 100 101 99
	synth m2.json 150
	run "$COMPARE" m1.json m2.json
	[ "$status" -eq 0 ]
	[ "$(row_of m2 | awk '{print $6, $7, $8}')" = "1.500 - -" ]
	echo "$output" | grep -qx -- '-: fewer than 2 ok runs on a side: m2'
	run "$COMPARE" --json m1.json m2.json
	[ "$(json_row m2 '[.ratio, .ratio_ci95, .p_value, .runs_needed]')" = \
		"[1.5,null,null,null]" ]
	# A base of one run leaves every row without.
	run "$COMPARE" --json m2.json m1.json
	[ "$(json_row m1 '[.ratio_ci95, .p_value, .runs_needed]')" = \
		"[null,null,null]" ]
}

# --explain on recorded traced series (tests/data/series): the plumbing
# of text, JSON and CSV, which must say the same.  What the explanation
# ranks is asserted by the replay of recorded pairs (test_explain.c).
CORPUS="$BATS_TEST_DIRNAME/../data/series"

@test "--explain: the sentence, both budgets and the figures; JSON and CSV agree" {
	zcat "$CORPUS/clean.json.gz" >clean.json
	zcat "$CORPUS/hog.json.gz" >hog.json
	run "$COMPARE" --explain clean.json hog.json
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "hog against clean"
	echo "$output" | grep -q "^  hog is [0-9.]* % slower than clean (95 % CI"
	echo "$output" | grep -q "^  Threads' time per message"
	echo "$output" | grep -q "^  CPUs' time per message"
	echo "$output" | grep -q "^  Figures behind them:"
	local text=$output json csv top
	# The first row of the threads' table is the JSON's rank 1.
	top=$(echo "$text" | grep -A2 "^  Threads' time" | tail -1 |
		awk '{ print $1, $NF }')
	run "$COMPARE" --explain --json clean.json hog.json
	[ "$status" -eq 0 ]
	json=$(echo "$output" | jq -c 'select(.label == "hog") | .explain')
	[ "$(echo "$json" | jq -r '.lines[] | select(.part == "threads" and
		.rank == 1) | "\(.name) \(.rank)"')" = "$top" ]
	# Every ranked line's interval excludes 0, and its share is positive.
	echo "$json" | jq -e '[.lines[] | select(.rank) |
		(.real and (.diff_ci95[0] > 0 or .diff_ci95[1] < 0) and
		 .share > 0)] | all and length > 0'
	# The sentence is the text's, rewrapped.
	[ "$(echo "$json" | jq -r .sentence)" = \
		"$(echo "$text" | sed -n '/^hog against clean$/,/^  \(Note\|Threads\)/p' |
			sed '1d;$d' | sed 's/^ *//' | paste -sd' ')" ]
	# Recorded one after the other: the drift between them is said.
	echo "$json" | jq -e '.interleaved == false and (.caveat | test("one after the other"))'
	echo "$text" | grep -q "^  Note: the series were recorded one after the other"
	# The base's own row is not explained.
	echo "$output" | jq -se 'map(select(.label == "clean"))[0] |
		has("explain") and .explain == null'
	run "$COMPARE" --explain --csv clean.json hog.json
	[ "$status" -eq 0 ]
	[ "${lines[0]%%,*}" = label ]
	[ "$((${#lines[@]} - 1))" -eq "$(echo "$json" | jq '.lines | length')" ]
	csv=$(echo "$output" | awk -F, '$10 == "threads" && $20 == 1 { print $11 }')
	[ "$csv" = "${top% *}" ]
}

@test "--explain on untraced files says what is missing, status 0" {
	run "$COMPARE" --explain k1.json k2.json
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "k2 against k1"
	echo "$output" | grep -A3 "^k2 against k1" | sed 's/^ *//' |
		paste -sd' ' | grep -q "not explained: fewer than 2 traced runs"
	! echo "$output" | grep -q "Threads' time"
	run "$COMPARE" --explain --json k1.json k2.json
	echo "$output" | jq -se 'map(select(.label == "k2"))[0].explain |
		.explained == false and (.lines | length) == 0'
}

@test "--explain along a sweep: each point against the base's same point, and where it differs" {
	require_bpf
	local f
	for f in sa sb; do
		"$CHAT_C" --local -q --trace --runs 2 --sweep rooms=1,2 \
			-j "$f.json" 1 20 >/dev/null 2>&1
	done
	run "$COMPARE" --explain sa.json sb.json
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "^Along the sweep: sb "
	echo "$output" | grep -qx "sb rooms=1 against sa"
	echo "$output" | grep -qx "sb rooms=2 against sa"
	run "$COMPARE" --explain --json sa.json sb.json
	[ "$(echo "$output" | jq -s '[.[] | select(.label == "sb") |
		.explain.runs_base] | length')" -eq 2 ]
}
