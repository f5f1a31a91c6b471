#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# contrib/: chatbench in the suites kernel people run, mmtests and LKP.
# One real small series with its --json goes through LKP's run (under a
# stand-in for the two LKP libraries it sources), one without --json and
# one untraced run beside it; both parse scripts must turn the text and
# the JSON into well-formed lines of their suite's format, carrying the
# figures chat_c printed and wrote.  Every series is traced when BPF is
# there (and must be with CHATBENCH_REQUIRE_BPF=1); the run-queue keys
# are only left unchecked when it is not.

load helpers

bats_require_minimum_version 1.5.0

CONTRIB="$BATS_TEST_DIRNAME/../../contrib"
MM_PACK="$CONTRIB/mmtests/shellpack_src/src/chatbench"
MM_PARSE="$MM_PACK/parse-results"
LKP_PROG="$CONTRIB/lkp/programs/chatbench"
LKP_PARSE="$LKP_PROG/parse"

setup_file() {
	local tracing=no
	cd "$BATS_FILE_TMPDIR" || return 1
	bpf_available && tracing=yes
	echo "$tracing" >tracing
	# What programs/chatbench/run sources from LKP: die, and log_cmd,
	# which prints the command (into the output, as LKP's does) and
	# keeps it in reproduce.sh.
	mkdir -p lkp-src/lib lkp mm mm-text mm-untraced
	cat >lkp-src/lib/debug.sh <<-'EOF'
		die() { echo "$@" >&2; exit 99; }
	EOF
	cat >lkp-src/lib/reproduce-log.sh <<-'EOF'
		. $LKP_SRC/lib/debug.sh
		log_cmd() {
			echo "$(date +'%F %T') $*"
			echo "$*" >>"$TMP_RESULT_ROOT/reproduce.sh"
			"$@"
		}
	EOF
	# A: 3 runs of 2 rooms x 100 with the --json record, through LKP's run.
	env -u BENCHMARK_ROOT LKP_SRC="$PWD/lkp-src" TMP_RESULT_ROOT="$PWD/lkp" \
		PATH="$BIN:$PATH" rooms=2 messages=100 runs=3 tracing=$tracing \
		bash "$LKP_PROG/run" >lkp/chatbench 2>lkp/stderr || return 1
	# B: 2 runs of 1 room x 100, the text alone, judged against A with every
	# run at 100 million messages a second: chat_c calls both runs slow.
	jq -c 'if .run then .throughput = 1e8 else . end' lkp/chatbench.json >fast.json
	local opt=--no-trace
	[ "$tracing" = yes ] && opt=--trace
	"$CHAT_C" --local -r 2 $opt --baseline fast.json 1 100 >plain.txt 2>&1 ||
		return 1
	# C: one untraced run.
	"$CHAT_C" --local --no-trace 1 20 >untraced.txt 2>&1 || return 1
	# As shellpack-bench-chatbench leaves them: A with its JSON, B without.
	cp lkp/chatbench mm/chatbench-2.log
	cp lkp/chatbench.json mm/chatbench-2.json
	cp plain.txt mm/chatbench-1.log
	cp lkp/chatbench mm-text/chatbench-2.log
	cp untraced.txt mm-untraced/chatbench-1.log
	# D: a recorded series (tests/data/series), run 3 slow under a CPU hog,
	# gzipped as mmtests may leave it.
	mkdir -p corpus mm-corpus
	zcat "$BATS_TEST_DIRNAME/../data/series/hog.json.gz" >corpus/chatbench.json
	cp "$BATS_TEST_DIRNAME/../data/series/hog.json.gz" mm-corpus/chatbench-10.json.gz
}

setup() {
	cd "$BATS_FILE_TMPDIR" || return 1
	bpf_rule
}

# Whether the series were traced (else their run-queue keys are left
# unchecked), and the BPF rule: with CHATBENCH_REQUIRE_BPF=1 they must be.
traced() {
	[ "$(cat tracing)" = yes ]
}

bpf_rule() {
	traced || [ "${CHATBENCH_REQUIRE_BPF:-0}" != 1 ] || {
		echo "BPF required (CHATBENCH_REQUIRE_BPF=1) but not available" >&2
		return 1
	}
}

# Every line `key: value`, a key without blanks, a number, no key twice.
lkp_well_formed() {
	local bad
	bad=$(grep -Ev '^[A-Za-z0-9_.%-]+: -?[0-9]+(\.[0-9]+)?$' <<<"$1") || true
	[ -z "$bad" ] || {
		echo "not key: value: $bad"
		return 1
	}
	[ -z "$(cut -d: -f1 <<<"$1" | sort | uniq -d)" ]
}

# Every line six tab-separated fields: a declared metric, two factors,
# the run, a number and `_`.
mm_well_formed() {
	awk -F'\t' 'NF != 6 || $1 !~ /^(throughput|latency|rqlat|slowruns)$/ ||
		$2 == "" || $3 == "" || $4 !~ /^[1-9][0-9]*$/ ||
		$5 !~ /^-?[0-9]+(\.[0-9]+)?$/ || $6 != "_" {
		print "not an mmtests line: " $0; bad = 1 } END { exit bad }' <<<"$1"
}

# A duration of the JSON (ns) in us, as chat_c prints it (src/util/fmt.c)
# or as it is.
AWK_US='
function us(ns) {
	if (mode == "exact") return ns / 1000
	if (ns < 999.5) return sprintf("%.0f", ns) / 1000
	if (ns < 999.95e3) return sprintf("%.1f", ns / 1e3) + 0
	if (ns < 999.95e6) return sprintf("%.1f", ns / 1e6) * 1000
	return sprintf("%.2f", ns / 1e9) * 1e6
}'

# The runs of a --json file as `run N tp slow p50 p99 max` and
# `rq N role p99` lines (ns), each role that switched at all.
json_runs() {
	jq -r -s '.[] | select(.run and .ok) | .run as $n |
		"run \($n) \(.throughput) \(.slow == true) \(.latency.p50_ns) \(.latency.p99_ns) \(.latency.max_ns)",
		(.kernel.roles // {} | to_entries[] | select(.value.wakeups +
			.value.vol_switches + .value.invol_switches > 0) |
			"rq \($n) \(.key) \(.value.rq_latency.p99_ns)")' "$1"
}

# What the LKP parse must print for a --json file, `key<TAB>value`; mode
# exact (read from the JSON) or shown (read from the text).
lkp_expected() {
	{
		jq -r -s '.[] | select(.summary) | .summary |
			"avg \(.avg) \(.min) \(.max) \(.median)"' "$2"
		json_runs "$2"
	} | awk -v mode="$1" "$AWK_US"'
	$1 == "avg" {
		printf "throughput\t%.0f\nthroughput_min\t%.0f\n", $2, $3
		printf "throughput_max\t%.0f\nthroughput_median\t%.0f\n", $4, $5
	}
	$1 == "run" {
		n++; slow += $4 == "true"
		p50 += us($5); p99 += us($6); if (us($7) > max) max = us($7)
	}
	$1 == "rq" { rq[$3] += us($4); rqn[$3]++ }
	END {
		printf "runs\t%d\nslow_runs\t%d\n", n, slow
		printf "latency_50%%_us\t%.4f\nlatency_99%%_us\t%.4f\n", p50 / n, p99 / n
		printf "latency_max_us\t%.4f\n", max
		for (r in rq) printf "rq_latency_99%%_us.%s\t%.4f\n", r, rq[r] / rqn[r]
	}'
}

# What mmtests' parse-results must print for a --json file of ROOMS
# rooms, `metric factorA factorB run<TAB>value`.
mm_expected() {
	json_runs "$3" | awk -v mode="$1" -v r="$2" "$AWK_US"'
	$1 == "run" {
		printf "throughput %s _ %s\t%.0f\n", r, $2, $3
		printf "latency 50th %s %s\t%.4f\n", r, $2, us($5)
		printf "latency 99th %s %s\t%.4f\n", r, $2, us($6)
		printf "latency max %s %s\t%.4f\n", r, $2, us($7)
		slow += $4 == "true"
	}
	$1 == "rq" { printf "rqlat %s %s %s\t%.4f\n", $3, r, $2, us($4) }
	END { printf "slowruns %s _ 1\t%d\n", r, slow }'
}

lkp_figures() { sed 's/: /\t/' <<<"$1"; }
mm_figures() { awk -F'\t' '{ print $1 " " $2 " " $3 " " $4 "\t" $5 }' <<<"$1"; }

# The same keys on both sides, each value within the last printed
# decimal (0.05) of the other.
same_figures() {
	awk -F'\t' 'NR == FNR { want[$1] = $2; next } { got[$1] = $2 }
	END {
		for (k in want)
			if (!(k in got)) { print "missing: " k; bad = 1 }
			else if ((want[k] - got[k]) ^ 2 > 0.0501 ^ 2) {
				print k ": want " want[k] ", got " got[k]; bad = 1 }
		for (k in got)
			if (!(k in want)) { print "unexpected: " k; bad = 1 }
		exit bad
	}' <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

# The text's own figure after "LABEL :" (its first word).
text_figure() {
	sed -n "s/^$1 *: \([0-9]*\).*/\1/p" "$2"
}

@test "lkp run: one series, chat_c's text as the output and its record in chatbench.json" {
	cat lkp/stderr
	[ "$(grep -c '^Average throughput : ' lkp/chatbench)" -eq 3 ]
	grep -q '^Summary            : 3 of 3 runs completed, 2 rooms x 100 messages$' lkp/chatbench
	[ "$(jq -s '[.[] | select(.run and .ok)] | length' lkp/chatbench.json)" -eq 3 ]
	jq -se 'last | .summary.rooms == 2 and .summary.messages == 100' lkp/chatbench.json
	# The command LKP would replay, with the parameters as options.
	grep -q -- "--local --runs 3 .*--json $PWD/lkp/chatbench.json 2 100$" lkp/reproduce.sh
	if traced; then
		grep -q -- ' --trace ' lkp/reproduce.sh
		jq -se 'last | .summary.tracing == "on"' lkp/chatbench.json
	fi
}

@test "lkp parse: the JSON record gives key: value lines with chat_c's figures" {
	run env RESULT_ROOT="$PWD/lkp" "$LKP_PARSE" lkp/chatbench <lkp/chatbench
	echo "$output"
	[ "$status" -eq 0 ]
	lkp_well_formed "$output"
	same_figures "$(lkp_expected exact lkp/chatbench.json)" "$(lkp_figures "$output")"
	# The throughput is the summary's, as chat_c printed it.
	grep -qx "throughput: $(text_figure 'Throughput avg' lkp/chatbench)" <<<"$output"
	grep -qx "slow_runs: $(text_figure Diagnosis lkp/chatbench)" <<<"$output"
	if traced; then
		grep -q '^rq_latency_99%_us\.cli_rcv: ' <<<"$output"
		grep -q '^rq_latency_99%_us\.srv_snd: ' <<<"$output"
	fi
}

@test "lkp parse: the text alone gives the same keys, the figures as chat_c printed them" {
	# No JSON beside it (LKP's stdin and nothing else), then the JSON
	# there but CHATBENCH_PARSE=text: the same lines.
	run env -u RESULT_ROOT "$LKP_PARSE" <lkp/chatbench
	echo "$output"
	[ "$status" -eq 0 ]
	lkp_well_formed "$output"
	same_figures "$(lkp_expected shown lkp/chatbench.json)" "$(lkp_figures "$output")"
	grep -qx "throughput: $(text_figure 'Throughput avg' lkp/chatbench)" <<<"$output"
	local text=$output
	run env CHATBENCH_PARSE=text RESULT_ROOT="$PWD/lkp" "$LKP_PARSE" lkp/chatbench <lkp/chatbench
	[ "$output" = "$text" ]
	if traced; then
		grep -q '^rq_latency_99%_us\.cli_snd: ' <<<"$output"
	fi
}

@test "lkp parse: a series without --json, and an untraced run without a summary" {
	run "$LKP_PARSE" <plain.txt
	echo "$output"
	[ "$status" -eq 0 ]
	lkp_well_formed "$output"
	grep -qx "throughput: $(text_figure 'Throughput avg' plain.txt)" <<<"$output"
	grep -qx "throughput_min: $(text_figure 'Throughput min' plain.txt)" <<<"$output"
	grep -qx 'runs: 2' <<<"$output"
	# Against the baseline both runs are slow, each with its line.
	[ "$(grep -c '^Slow run [12] ' plain.txt)" -eq 2 ]
	grep -qx 'slow_runs: 2' <<<"$output"
	grep -qx "slow_runs: $(text_figure Diagnosis plain.txt)" <<<"$output"
	# p99 of the two runs' "Message latency" lines (ms or s here).
	local want
	want=$(sed -n 's/^Message latency .* p99 \([0-9.]*\)\(m\{0,1\}\)s,.*/\1 \2/p' plain.txt |
		awk '{ s += $1 * ($2 == "m" ? 1000 : 1000000) } END { printf "%.1f", s / NR }')
	grep -qx "latency_99%_us: $want" <<<"$output"
	if traced; then
		[ "$(grep -c '^rq_latency_99%_us\.' <<<"$output")" -ge 4 ]
	fi
	# One run: no summary in the text, its throughput is the run's.
	run "$LKP_PARSE" <untraced.txt
	echo "$output"
	[ "$status" -eq 0 ]
	lkp_well_formed "$output"
	grep -qx "throughput: $(text_figure 'Average throughput' untraced.txt)" <<<"$output"
	grep -qx 'runs: 1' <<<"$output"
	grep -qx 'slow_runs: 0' <<<"$output"
	! grep -q '^rq_' <<<"$output"
}

@test "mmtests parse-results: generic lines per rooms and run, the JSON where there is one" {
	run "$MM_PARSE" "$PWD/mm"
	echo "$output"
	[ "$status" -eq 0 ]
	mm_well_formed "$output"
	# 2 rooms: the JSON's figures.
	same_figures "$(mm_expected exact 2 lkp/chatbench.json)" \
		"$(mm_figures "$(awk -F'\t' '$2 == 2 || $3 == 2' <<<"$output")")"
	# 1 room, text only: its runs' throughputs, in order, and its verdict.
	[ "$(awk -F'\t' '$1 == "throughput" && $2 == 1 { print $5 }' <<<"$output")" = \
		"$(text_figure 'Average throughput' plain.txt)" ]
	[ "$(awk -F'\t' '$1 == "throughput" && $2 == 1 { print $4 }' <<<"$output" | paste -sd,)" = 1,2 ]
	grep -qx "slowruns	1	_	1	2	_" <<<"$output"
	[ "$(grep -c '^latency	99th	1	' <<<"$output")" -eq 2 ]
	if traced; then
		grep -q '^rqlat	cli_rcv	1	2	' <<<"$output"
		grep -q '^rqlat	srv_snd	2	3	' <<<"$output"
	fi
}

@test "mmtests parse-results: CHATBENCH_PARSE=text reads the series as chat_c printed it" {
	run env CHATBENCH_PARSE=text "$MM_PARSE" "$PWD/mm"
	echo "$output"
	[ "$status" -eq 0 ]
	mm_well_formed "$output"
	same_figures "$(mm_expected shown 2 lkp/chatbench.json)" \
		"$(mm_figures "$(awk -F'\t' '$2 == 2 || $3 == 2' <<<"$output")")"
	# A directory with the text alone reads the same.
	run "$MM_PARSE" "$PWD/mm-text"
	same_figures "$(mm_expected shown 2 lkp/chatbench.json)" "$(mm_figures "$output")"
	# Untraced: no run-queue lines.
	run "$MM_PARSE" "$PWD/mm-untraced"
	echo "$output"
	mm_well_formed "$output"
	[ "$(grep -c '^throughput	1	_	1	' <<<"$output")" -eq 1 ]
	! grep -q '^rqlat' <<<"$output"
}

@test "a recorded series with a slow run (tests/data/series/hog), gzipped: both parses" {
	run env RESULT_ROOT="$PWD/corpus" "$LKP_PARSE" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	lkp_well_formed "$output"
	same_figures "$(lkp_expected exact corpus/chatbench.json)" "$(lkp_figures "$output")"
	grep -qx 'slow_runs: 1' <<<"$output"
	grep -q '^rq_latency_99%_us\.cli_rcv: ' <<<"$output"
	# Without the verdict's count, the runs marked slow are counted.
	jq -c 'del(.summary.verdict.slow_runs)' corpus/chatbench.json >corpus/nocount.json
	run "$LKP_PARSE" corpus/nocount </dev/null
	grep -qx 'slow_runs: 1' <<<"$output"
	run "$MM_PARSE" "$PWD/mm-corpus"
	echo "$output"
	[ "$status" -eq 0 ]
	mm_well_formed "$output"
	same_figures "$(mm_expected exact 10 corpus/chatbench.json)" "$(mm_figures "$output")"
	grep -qx 'slowruns	10	_	1	1	_' <<<"$output"
	mkdir -p mm-nocount
	cp corpus/nocount.json mm-nocount/chatbench-10.json
	run "$MM_PARSE" "$PWD/mm-nocount"
	grep -qx 'slowruns	10	_	1	1	_' <<<"$output"
}

@test "text: durations in every unit chat_c prints them (ns, us, ms, s)" {
	# Run 1 of A with its latencies and first four run-queue p99s set to
	# values of each unit, as src/util/fmt.c writes them.
	mkdir -p units
	awk 'BEGIN { split("512ns 17.2us 3.5ms 1.55s", v, " ") }
	/^Average throughput : / { run++ }
	run == 1 && /^Message latency    : / {
		sub(/p50 .*\(/, "p50 900ns, p99 2.50s, max 12.34s (")
	}
	run == 1 && roles && NF == 12 && i < 4 { $8 = v[++i]; $0 = "  " $0 }
	{ roles = /^  role +wakeups / || (roles && NF == 12); print }' \
		lkp/chatbench >units/chatbench-2.log
	grep -q '^Message latency    : p50 900ns, p99 2.50s, max 12.34s (' units/chatbench-2.log
	run "$MM_PARSE" "$PWD/units"
	echo "$output"
	mm_well_formed "$output"
	grep -qx 'latency	50th	2	1	0.9	_' <<<"$output"
	grep -qx 'latency	99th	2	1	2500000.0	_' <<<"$output"
	grep -qx 'latency	max	2	1	12340000.0	_' <<<"$output"
	run "$LKP_PARSE" <units/chatbench-2.log
	grep -qx 'latency_max_us: 12340000.0' <<<"$output"
	if traced; then
		run "$MM_PARSE" "$PWD/units"
		[ "$(awk -F'\t' '$1 == "rqlat" && $4 == 1 { print $2 "=" $5 }' <<<"$output" |
			grep -E '=(0\.5|17\.2|3500\.0|1550000\.0)$' | wc -l)" -eq 4 ]
	fi
}

@test "parse: a broken JSON falls back to the text; CHATBENCH_PARSE=json will not; no run is an error" {
	mkdir -p broken
	cp lkp/chatbench broken/chatbench-2.log
	head -c 3000 lkp/chatbench.json >broken/chatbench-2.json
	run --separate-stderr "$MM_PARSE" "$PWD/broken"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"chatbench-2.json unreadable"* ]]
	[ "$output" = "$(CHATBENCH_PARSE=text "$MM_PARSE" "$PWD/mm-text")" ]
	run --separate-stderr env CHATBENCH_PARSE=json "$MM_PARSE" "$PWD/mm-text"
	[ "$status" -ne 0 ] && [ -z "$output" ]
	[[ "$stderr" == *"CHATBENCH_PARSE=json"* ]]
	run env CHATBENCH_PARSE=json "$LKP_PARSE" <lkp/chatbench
	[ "$status" -ne 0 ]
	run "$LKP_PARSE" </dev/null
	[ "$status" -ne 0 ]
	[ "$output" = "chatbench parse: no completed run in the output" ]
}

@test "shellpack.yaml and meta.yaml declare what the parses print; the scripts are bash" {
	local yaml="$MM_PACK/shellpack.yaml" meta="$LKP_PROG/meta.yaml" metrics m k f
	# (The recorded series is traced: run-queue lines whatever this host can.)
	metrics=$({ "$MM_PARSE" "$PWD/mm"; "$MM_PARSE" "$PWD/mm-corpus"; } | cut -f1 | sort -u)
	[ "$(wc -w <<<"$metrics")" -eq 4 ]
	for m in $metrics; do
		grep -qx "  - $m" "$yaml"
		sed -n "/^$m:/,/^\$/p" "$yaml" | grep -q '^  units: '
	done
	# Throughput is the one better higher, and the default.
	sed -n '/^throughput:/,/^$/p' "$yaml" | grep -qx '  preferhigher: true'
	[ "$(grep -c 'preferhigher' "$yaml")" -eq 1 ]
	grep -qx 'default-metric: throughput' "$yaml"
	for k in $(RESULT_ROOT="$PWD/corpus" "$LKP_PARSE" </dev/null |
		cut -d: -f1 | sed 's/^rq_latency_99%_us\..*/rq_latency_99%_us.ROLE/'); do
		grep -qF "  chatbench.$k:" "$meta"
	done
	# The run's parameters, as LKP reads them, are the documented ones.
	[ "$(sed -n 's/^# - //p' "$LKP_PROG/run" | sort)" = \
		"$(sed -n '/^parameters:/,/^$/s/^  \([a-z_]*\):.*/\1/p' "$meta" | sort)" ]
	for f in "$MM_PACK"/chatbench-bench "$MM_PACK"/chatbench-install "$MM_PARSE" \
		"$CONTRIB"/mmtests/drivers/driver-chatbench.sh \
		"$CONTRIB"/mmtests/configs/config-scheduler-chatbench \
		"$LKP_PROG"/run "$LKP_PARSE"; do
		bash -n "$f"
	done
	[ -x "$MM_PARSE" ] && [ -x "$LKP_PARSE" ] && [ -x "$LKP_PROG/run" ]
}
