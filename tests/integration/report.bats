#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# chatbench-report on real result files from chat_c --json: the page is
# well-formed XML, has one run bar per run line (slow runs marked, their
# causes in words, task names escaped), as many heat-map cells as jq finds
# non-empty (interval, latency row) pairs in the same JSON, with and
# without merged intervals, sweep points and the comparison table, each
# run's time budget as two bars that add up (a slow run's grown lines
# marked; no section for files without a budget), and nothing that would
# make a browser fetch anything.  Then a real browser
# (Debian's chromium, headless) renders it to a PNG of the expected size
# that is not blank; without chromium that test skips, unless
# CHATBENCH_REQUIRE_BROWSER=1.

load helpers
bats_require_minimum_version 1.5.0

REPORT="$BIN/chatbench-report"

# Small real result files, made once: a traced series when BPF can load
# (plain otherwise), an untraced one, a sweep, and a copy of the traced
# series in which the diagnosis called run 2 slow because of a task whose
# name needs escaping, and the others not (a slow run cannot be provoked
# reliably on a shared machine, and one may be slow by chance, notably
# under TSan; the page shows what the file says, which is what is tested).
# verdict.json says what the diagnosis now writes, set by hand the same
# way: the resolution, run 1 disturbed but not slow, run 2 slow, every
# run's ramp and drain, and two dips in run 3, one explained and one
# not; old.json is the traced series with all of that taken out, as
# files written before it were.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	"$CHAT_C" --local -q --runs 3 -j traced.json 2 50 >/dev/null 2>&1 ||
		return 1
	"$CHAT_C" --local -q --no-trace --runs 2 -j plain.json 2 20 \
		>/dev/null 2>&1 || return 1
	"$CHAT_C" --local -q --runs 1 --sweep rooms=1,2 -j sweep.json 1 20 \
		>/dev/null 2>&1 || return 1
	jq -c 'if .run == 2 then .slow = true | .causes = [{kind: "outsider_cpu",
		share: 0.9, figure: "outsider_pct", now: 40, baseline: 5,
		sentence: "CPU contention by an outsider: <hog&co> took 1.2s",
		task: "<hog&co>", pid: 4242}] elif .run then .slow = false |
		del(.causes) else . end' traced.json >slow.json
	jq -c "$VERDICT" traced.json >verdict.json
	jq -c 'del(.disturbed, .evidence, .phases, .dips, .summary.verdict)' \
		traced.json >old.json
}

VERDICT='
def dip($e; $from; $kind; $why): {from_s: ($e * $from),
	to_s: ($e * ($from + 0.1)), throughput: (.throughput * 0.6),
	low: (.throughput * 0.5), median: .throughput, depth_pct: 40,
	noise_pct: 8, kind: $kind, sentence: $why};
if .run then .elapsed_s as $e | .slow = (.run == 2) |
	.disturbed = (.run <= 2) | del(.causes, .evidence, .dips) |
	.phases = {ramp_s: [0, ($e * 0.1)], drain_s: [($e * 0.85), $e],
		median: .throughput, noise_pct: 8} |
	if .run == 1 then .evidence = ["sched_contention", "softirq"]
	elif .run == 2 then .evidence = ["outsider_cpu"] | .causes = [{
		kind: "outsider_cpu", share: 1, figure: "outsider_pct", now: 40,
		baseline: 5, sentence: "hog took the CPUs", task: "hog",
		pid: 4242}]
	else .dips = [dip($e; 0.3; "outsider_cpu";
			"outsider <hog&co> (pid 4242) took 60 % of the CPUs"),
		dip($e; 0.6; null; "unexplained: idle 1 % vs 1 %")] end
else .summary.verdict = {reference: "series", reference_runs: 2,
	reference_median: .summary.median, spread_pct: 9.2, min_slow_pct: 27.6,
	min_slow_evidence_pct: 9.2, slow_threshold: 1, slow_runs: 1} end'


setup() {
	cd "$BATS_FILE_TMPDIR"
}

# Elements of the page $1 whose class list holds $2, counted by XPath.
count_class() {
	xmllint --xpath "count(//*[contains(concat(' ', normalize-space(@class), ' '), ' $2 ')])" "$1"
}

# Non-empty (column, row) pairs of file $1 with $2 intervals per column,
# computed apart from the C code: a column is $2 consecutive intervals of
# one run, a row a half octave of run-queue latency (two per octave:
# 2 floor(log2 lo), plus one from 1.5 times that power of two).
hm_pairs() {
	jq -s --argjson f "$2" '[.[] | select(.run) | (.kernel.intervals // [])
		| to_entries | group_by(.key / $f | floor) | .[]
		| [.[].value.rq_buckets[]? | select(.count > 0) | .lo
		   | if . < 1 then 0 else (log2 | floor) as $e
		     | $e * 2 + (if . >= 1.5 * pow(2; $e) then 1 else 0 end) end]
		| unique | length] | add // 0' "$1"
}

# Everything that could make a browser fetch: there must be none.
assert_self_contained() {
	run grep -Eio 'https?:|//|@import|url\(|<script|<link|<img|<iframe|<object|\b(src|href|xlink:href)=' "$1"
	[ "$status" -eq 1 ]
}

@test "--help has examples; bad usage and bad files give one line" {
	run "$REPORT" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *Usage:* ]]
	[[ "$output" == *Examples:* ]]
	run "$REPORT"
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no result files"* ]]
	run "$REPORT" --bogus plain.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$REPORT" --max-columns 0 plain.json
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$REPORT" -o x.html missing.json
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *missing.json* ]]
	[ ! -e x.html ]
	echo 'not json' >bad.json
	run "$REPORT" -o x.html bad.json
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$REPORT" -o /nonexistent/dir/x.html plain.json
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == */nonexistent/dir/x.html* ]]
}

@test "the page is well-formed, self-contained, one bar per run" {
	local f runs
	for f in traced plain sweep slow verdict old; do
		run "$REPORT" -o "$f.html" "$f.json"
		[ "$status" -eq 0 ]
		xmllint --noout "$f.html"
		assert_self_contained "$f.html"
		runs=$(jq -s '[.[] | select(.run)] | length' "$f.json")
		[ "$(count_class "$f.html" run-bar)" -eq "$runs" ]
		[ "$(count_class "$f.html" slow)" -ge \
			"$(jq -s '[.[] | select(.run and .slow == true)] | length' "$f.json")" ]
	done
	# Written to stdout with -o -, the same page.
	"$REPORT" -o - plain.json >stdout.html
	cmp stdout.html plain.html
}

@test "a slow run is marked and explained in words, names escaped" {
	"$REPORT" -o slow.html slow.json
	xmllint --noout slow.html
	[ "$(xmllint --xpath "count(//*[@class='run-bar slow'])" slow.html)" -eq 1 ]
	[ "$(count_class slow.html run-bar)" -eq 3 ]
	grep -q 'Run 2 was slow' slow.html
	grep -q 'another task took the CPUs' slow.html
	grep -q '&lt;hog&amp;co&gt;' slow.html
	run grep -c '<hog' slow.html
	[ "$output" -eq 0 ]
	# The run's row says SLOW next to its bar.
	[ "$(xmllint --xpath "count(//tr[@id='g0-run2'][contains(@class, 'slow')]//*[@class='tag'])" slow.html)" -eq 1 ]
}

@test "the verdict: resolution, a disturbed run, ramps, drains, dips and causes" {
	"$REPORT" -o verdict.html verdict.json
	xmllint --noout verdict.html
	assert_self_contained verdict.html
	grep -q 'Runs vary ±9.2 %: slowdowns under 28 % are not called, nor under 9 % with kernel evidence of a disturbance' verdict.html
	[ "$(count_class verdict.html resolution)" -eq 1 ]
	# Disturbed, not slow: a quiet mark in its row and a line saying why.
	grep -q '<b>Run 1 was disturbed</b> but not slow' verdict.html
	grep -q 'benchmark threads queued behind each other and network softirq work grew' verdict.html
	[ "$(xmllint --xpath "count(//tr[@id='g0-run1'][contains(@class, 'disturbed')]//*[@class='tag quiet'])" verdict.html)" -eq 1 ]
	grep -q 'Run 2 was slow' verdict.html
	[ "$(xmllint --xpath "count(//*[@class='run-bar slow'])" verdict.html)" -eq 1 ]
	# The dips in the table, with depth, noise and cause or none.
	grep -q '40 % below the steady .* msg/s (intervals vary ±8 %): another task took the CPUs' verdict.html
	grep -q '(intervals vary ±8 %): unexplained' verdict.html
	grep -q 'outsider &lt;hog&amp;co&gt; (pid 4242)' verdict.html
	run grep -c '<hog' verdict.html
	[ "$output" -eq 0 ]
	# On the timeline, when the runs were traced: each run's ramp and
	# drain shaded, and both dips marked.
	[ "$(jq -s '[.[] | select(.run) | .kernel.intervals // [] | length] | add' verdict.json)" -gt 0 ] ||
		skip "the series has no intervals (tracing unavailable)"
	[ "$(count_class verdict.html ramp)" -eq 3 ]
	[ "$(count_class verdict.html drain)" -eq 3 ]
	[ "$(count_class verdict.html dip)" -eq 3 ]	# two, and the legend's
	grep -q 'start-up ramp and drain: not dips' verdict.html
}

@test "an older file, without the verdict's new fields, still renders" {
	"$REPORT" -o old.html old.json
	xmllint --noout old.html
	[ "$(count_class old.html run-bar)" -eq 3 ]
	[ "$(count_class old.html resolution)" -eq 0 ]
	[ "$(count_class old.html phase)" -eq 0 ]
	[ "$(count_class old.html disturbed)" -eq 0 ]
}

# The budget bars of page $1 against file $2: one CPU bar and one
# threads bar per run that has a budget, each segment with a tooltip,
# their widths adding up to the bar's within 1 %.
assert_budget_bars() {
	local html=$1 json=$2 r kind id w sum
	grep -q '<h3>Where the time went</h3>' "$html"
	[ "$(count_class "$html" bbar)" -eq \
		"$(jq -s '[.[] | select(.run and .kernel.budget)] | length * 2' "$json")" ]
	for r in $(jq -s '.[] | select(.run and .kernel.budget) | .run' "$json"); do
		for kind in cpu threads; do
			id="g0-budget-run$r-$kind"
			[ "$(xmllint --xpath "count(//*[@id='$id'][contains(concat(' ', @class, ' '), ' bbar ')])" "$html")" -eq 1 ]
			w=$(xmllint --xpath "string(//*[@id='$id']/@data-width)" "$html")
			sum=$(xmllint --xpath "sum(//*[@id='$id']/*[contains(concat(' ', @class, ' '), ' bseg ')]/@width)" "$html")
			echo "run $r $kind: segments $sum of $w"
			awk -v s="$sum" -v w="$w" \
				'BEGIN { exit !(w > 0 && s >= 0.99 * w && s <= 1.01 * w) }'
			[ "$(xmllint --xpath "count(//*[@id='$id']/*[contains(concat(' ', @class, ' '), ' bseg ')][not(title)])" "$html")" -eq 0 ]
		done
	done
}

# A real series (five runs of 10 rooms x 300 messages on 2 CPUs, CPU 1
# taken offline during run 3 by tools/disturb.sh), its intervals left out
# to keep it small: the diagnosis called run 3 slow and its loss account
# says the offline line grew.
@test "where the time went: two budget bars per run, a slow run's grown lines marked" {
	local unexplained
	zcat "$BATS_TEST_DIRNAME/../data/report-offline.json.gz" >offline.json
	"$REPORT" -o offline.html offline.json
	xmllint --noout offline.html
	assert_self_contained offline.html
	assert_budget_bars offline.html offline.json
	[ "$(count_class offline.html bbar)" -eq 10 ]
	# Run 3's offline line grew the most: outlined thick and labelled.
	[ "$(xmllint --xpath "count(//*[@id='g0-budget-run3-cpu']/*[@data-line='offline'][contains(concat(' ', @class, ' '), ' grown ')][contains(concat(' ', @class, ' '), ' much ')])" offline.html)" -eq 1 ]
	xmllint --xpath "//*[@id='g0-budget-run3']//*[@class='mark']/text()" offline.html |
		grep -q '^+6.2 µs/msg'
	# Every line it grew in is marked, and nothing in the other runs.
	[ "$(xmllint --xpath "count(//*[@id='g0-budget-run3-cpu']/*[contains(concat(' ', @class, ' '), ' grown ')])" offline.html)" -eq \
		"$(jq -s '[.[] | select(.run == 3) | .loss.lines_ns_per_msg | to_entries[]
			| select((.key | startswith("cpu:")) and .value > 0)] | length' offline.json)" ]
	[ "$(count_class offline.html grown)" -eq \
		"$(xmllint --xpath "count(//*[@id='g0-budget-run3']//*[contains(concat(' ', @class, ' '), ' grown ')])" offline.html)" ]
	# Its unexplained share beside the bars; a tooltip in words.
	unexplained=$(jq -s '.[] | select(.run == 3) | .loss.unexplained * 100 | round' offline.json)
	xmllint --xpath "string(//*[@id='g0-budget-run3'])" offline.html |
		grep -q "$unexplained % unexplained"
	xmllint --xpath "string(//*[@id='g0-budget-run3-cpu']/*[@data-line='offline']/title)" offline.html |
		grep -q '^offline (hotplug): 7.47 s, 50.0 % of 2 CPUs × 7.47 s; +6.2 µs per message'
	# A traced series of this machine, when it has a budget: the same.
	if jq -se 'any(.[]; .kernel.budget)' traced.json >/dev/null; then
		"$REPORT" -o traced.html traced.json
		assert_budget_bars traced.html traced.json
	fi
}

@test "where the time went: the outsiders the threads waited behind, beside their run's bars" {
	# A recorded series, with the writer's budget.outsiders on run 3.
	zcat "$BATS_TEST_DIRNAME/../data/series/hog.json.gz" | jq -c '
		if .run == 3 then .kernel.budget.outsiders = [
			{comm: "qx_<b>", pid: 4242, class: "fair", wait_ns:
			 (.kernel.budget.threads.subjects.total_ns * 0.3 | floor)},
			{comm: "kworker", pid: 7, class: "fair", wait_ns: 1}]
		else . end' >o.json
	"$REPORT" -o o.html o.json
	xmllint --noout o.html
	[ "$(count_class o.html outsiders)" -eq 1 ]
	xmllint --xpath "string(//*[@id='g0-budget-run3']//*[@class='outsiders'])" o.html |
		grep -qx "Waited behind qx_<b> (pid 4242, fair) 30 % of the threads' time."
}

@test "where the time went: no section without a budget, no bars for one that does not add up" {
	zcat "$BATS_TEST_DIRNAME/../data/report-offline.json.gz" |
		jq -c 'del(.kernel.budget)' >nobudget.json
	run "$REPORT" -o nobudget.html nobudget.json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"wrote nobudget.html"* ]]
	xmllint --noout nobudget.html
	run grep -c 'Where the time went' nobudget.html
	[ "$output" -eq 0 ]
	[ "$(count_class nobudget.html bbar)" -eq 0 ]
	[ "$(count_class nobudget.html run-bar)" -eq 5 ]
	# Run 2's CPU lines far from their supply: refused, said so.
	zcat "$BATS_TEST_DIRNAME/../data/report-offline.json.gz" |
		jq -c 'if .run == 2 then .kernel.budget.cpus.lines.idle += 1000000000000 else . end' >badbudget.json
	run "$REPORT" -o badbudget.html badbudget.json
	[ "$status" -eq 0 ]
	xmllint --noout badbudget.html
	[ "$(count_class badbudget.html bbar)" -eq 8 ]
	[ "$(xmllint --xpath "count(//*[@id='g0-budget-run2']//svg)" badbudget.html)" -eq 0 ]
	xmllint --xpath "string(//*[@id='g0-budget-run2'])" badbudget.html |
		grep -q 'no time budget'
}

@test "a lone run: judged against its own steady intervals" {
	"$CHAT_C" --local -q --runs 1 -j lone.json 2 50 >/dev/null 2>&1
	"$REPORT" -o lone.html lone.json
	xmllint --noout lone.html
	grep -q 'One run, .* msg/s, judged against its own steady intervals' lone.html
}

@test "heat-map cells: the non-empty (interval, latency row) pairs of the JSON" {
	require_bpf
	[ "$(jq -s '[.[] | select(.run) | .kernel.intervals // [] | length] | add' traced.json)" -gt 0 ] ||
		skip "the series has no intervals (tracing unavailable)"
	"$REPORT" -o traced.html traced.json
	[ "$(xmllint --xpath 'string(//*[@data-merge]/@data-merge)' traced.html)" = 1 ]
	[ "$(count_class traced.html hm-cell)" -eq "$(hm_pairs traced.json 1)" ]
	[ "$(count_class traced.html hm-cell)" -gt 0 ]
	# Merged: a budget of 2 columns puts ceil(n / 2) intervals in each.
	local n f
	n=$(jq -s '[.[] | select(.run) | .kernel.intervals | length] | add' traced.json)
	f=$(((n + 1) / 2))
	"$REPORT" --max-columns 2 -o merged.html traced.json
	xmllint --noout merged.html
	[ "$(xmllint --xpath 'string(//*[@data-merge]/@data-merge)' merged.html)" -eq "$f" ]
	[ "$(count_class merged.html hm-cell)" -eq "$(hm_pairs traced.json "$f")" ]
	# Untraced: no heat map, and it says why.
	"$REPORT" -o plain.html plain.json
	[ "$(count_class plain.html hm-cell)" -eq 0 ]
	grep -q 'not traced' plain.html
}

@test "sweeps: a point per value; several files: one table row per file and point" {
	"$REPORT" -o sweep.html sweep.json
	grep -q '<h2>Sweep of rooms</h2>' sweep.html
	# Three charts (throughput, message p99, run-queue p99), two points each.
	[ "$(count_class sweep.html sweep-point)" -ge 4 ]
	[ "$(count_class sweep.html sweep-point)" -le 6 ]
	[ "$(count_class sweep.html run-bar)" -eq 2 ]
	run "$REPORT" -o cmp.html plain.json traced.json sweep.json
	[ "$status" -eq 0 ]
	xmllint --noout cmp.html
	assert_self_contained cmp.html
	[ "$(count_class cmp.html cmp-row)" -eq 4 ]
	[ "$(xmllint --xpath "string(//tr[@class='cmp-row'][1]/td[1])" cmp.html)" = plain ]
	[ "$(count_class cmp.html run-bar)" -eq 7 ]
}

# Ten runs of 30 rooms x 1000 messages at their heaviest for the page:
# 200 intervals of 100 ms each (20 s runs) with every half-octave row
# from 256 ns to 4 s filled in every interval, full histograms for every
# role, ten tasks taking CPU, a dip in every run and one slow run.
WORST='
def buckets($i): [range(8; 33) as $e | (0, 1) as $h
	| {lo: (pow(2; $e) * (2 + $h) / 2 | floor),
	   hi: (pow(2; $e) * (2 + $h) / 2 + pow(2; $e - 4) | floor),
	   count: (1 + ($i * 7 + $e * 3 + $h) % 97)}];
def hist: {count: 100000, p50_ns: 1000000, p99_ns: 100000000,
	buckets: [range(0; 400) as $k | {lo: (1000 + $k * 1000),
		hi: (2000 + $k * 1000), count: (1 + $k % 13)}]};
(range(1; 11) as $r
 | {schema_version: 1, run: $r, ok: true, rooms: 30, messages: 1000,
    users_per_room: 20, elapsed_s: 20, throughput: (570000 + $r * 1000),
    slow: ($r == 7),
    causes: [{kind: "outsider_cpu", share: 1, figure: "outsider_pct",
	now: 40, baseline: 5, sentence: "task_1 took 4.2s of CPU",
	task: "task_1", pid: 1001}],
    dips: [{from_s: 3.1, to_s: 3.5, throughput: 100000, median: 570000,
	sentence: "rq p99 2.27s vs 596.1ms"}],
    latency: hist,
    kernel: {roles: ([("cli_snd", "cli_rcv", "srv_rcv", "srv_snd", "srv_loop",
		"other", "ksoftirqd") | {key: ., value: {rq_latency: hist}}]
		| from_entries),
	stealers: [range(0; 10) as $n | {comm: "task_\($n)", pid: (1000 + $n),
		ns: (1000000 * (20 - $n)), cpus: [0, 1], is_benchmark: false,
		role: null}],
	sockets: {client: {rq_bytes: hist}, server: {rq_bytes: hist}},
	intervals: [range(0; 200) as $i | {start_ns: ($i * 100000000),
		duration_ns: 100000000, messages: 57000, throughput: 570000,
		rq_p99_ns: 100000000, rq_buckets: buckets($i + $r)}]}}),
{summary: {schema_version: 1, runs: 10, runs_attempted: 10, avg: 575500,
	min: 571000, max: 580000, median: 575500, rooms: 30, messages: 1000,
	users_per_room: 20, cpus: 2, tracing: "on", interrupted: false}}'

@test "10 runs of 30 rooms x 1000 messages weigh well under 1 MB" {
	jq -nc "$WORST" >worst.json
	"$REPORT" -o worst.html worst.json
	xmllint --noout worst.html
	[ "$(count_class worst.html run-bar)" -eq 10 ]
	# 2000 intervals in 150 columns: 14 a column, 15 columns a run.
	[ "$(xmllint --xpath 'string(//*[@data-merge]/@data-merge)' worst.html)" -eq 14 ]
	[ "$(count_class worst.html hm-cell)" -eq "$(hm_pairs worst.json 14)" ]
	[ "$(stat -c %s worst.html)" -lt 600000 ]
}

@test "chat_c --report and chatbench-report on its --json give the same page" {
	run "$CHAT_C" --local -q --runs 2 -j same.json --report same.html 2 20
	[ "$status" -eq 0 ]
	xmllint --noout same.html
	[ "$(count_class same.html run-bar)" -eq 2 ]
	"$REPORT" -o again.html same.json
	# Only the line naming the file read differs.
	diff <(grep -v 'class="meta"' same.html) <(grep -v 'class="meta"' again.html)
}

# PNG: the size from IHDR, then the filtered pixel bytes.  A page of one
# colour leaves only a handful of byte values whatever the row filters
# (the colour itself, or zero differences); a rendered report has most.
png_check() {
	"$PYTHON3" - "$1" "$2" "$3" <<'EOF'
import struct, sys, zlib
path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = open(path, 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w, h = 8, b'', 0, 0
while pos < len(d):
    n, kind = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    pos += 12 + n
    if kind == b'IHDR':
        w, h = struct.unpack('>II', body[:8])
    elif kind == b'IDAT':
        idat += body
assert (w, h) == (want_w, want_h), 'size %dx%d' % (w, h)
values = len(set(zlib.decompress(idat)))
assert values > 64, 'looks blank: %d byte values' % values
print('%dx%d, %d bytes, %d byte values' % (w, h, len(d), values))
EOF
}

@test "headless chromium renders the page to a non-blank 1200x1600 PNG" {
	local browser
	browser=$(command -v chromium || command -v chromium-browser || true)
	if [ -z "$browser" ]; then
		[ "${CHATBENCH_REQUIRE_BROWSER:-0}" = 1 ] && {
			echo "chromium required (CHATBENCH_REQUIRE_BROWSER=1) but not installed" >&2
			return 1
		}
		skip "chromium not installed"
	fi
	"$REPORT" -o slow.html slow.json
	# Name resolution mapped to nowhere: the page must not need any.
	run timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars \
		--host-resolver-rules='MAP * ~NOTFOUND' \
		--user-data-dir="$BATS_TEST_TMPDIR/profile" \
		--screenshot="$BATS_TEST_TMPDIR/page.png" --window-size=1200,1600 \
		"file://$BATS_FILE_TMPDIR/slow.html"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/page.png")" -gt 20000 ]
	png_check "$BATS_TEST_TMPDIR/page.png" 1200 1600
}

@test "the example in tests/golden is a well-formed page and its picture" {
	local g="$BATS_TEST_DIRNAME/../golden"
	xmllint --noout "$g/report-example.html"
	assert_self_contained "$g/report-example.html"
	[ "$(count_class "$g/report-example.html" run-bar)" -gt 1 ]
	[ "$(count_class "$g/report-example.html" slow)" -ge 1 ]
	png_check "$g/report-example.png" 1200 1600
}

@test "several traced files: why each differs from the first, both budgets side by side" {
	local corpus="$BATS_TEST_DIRNAME/../data/series" n
	zcat "$corpus/clean.json.gz" >clean.json
	zcat "$corpus/hog.json.gz" >hog.json
	run "$REPORT" -o why.html clean.json hog.json
	[ "$status" -eq 0 ]
	xmllint --noout why.html
	assert_self_contained why.html
	grep -q '<h3 class="explain">Why hog differs from clean</h3>' why.html
	# The sentence is compare --explain's, and so are the ranked lines.
	run "$BIN/chatbench-compare" --explain --json clean.json hog.json
	grep -qF "$(echo "$output" | jq -r 'select(.label == "hog") |
		.explain.sentence' | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')" why.html
	n=$(echo "$output" | jq -s '[.[] | select(.label == "hog") |
		.explain.lines[] | select(.rank)] | length')
	[ "$n" -gt 0 ]
	[ "$(grep -o 'class="ex-line ranked"' why.html | wc -l)" -eq "$n" ]
	# Two rows of bars: the base's and the file's, each CPUs and threads.
	[ "$(grep -o 'id="g10000-budget-run[01]-\(cpu\|threads\)"' why.html |
		sort -u | wc -l)" -eq 4 ]
}
