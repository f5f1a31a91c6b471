#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Records written safely (src/util/safe_file.c): chatbench runs as root
# and its outputs go to shared folders, where someone may have planted a
# link at a name we used to write through (PATH.tmp, PATH.offcpu) or at
# the target itself.  The planted file must stay byte for byte as it was,
# the outputs whole and readable as before (0666 & ~umask), and no
# temporary (.NAME.XXXXXX beside the target) left behind, also after a
# failure, which says so in one line and exits non-zero.

load helpers

REPORT="$BIN/chatbench-report"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	umask 022
	printf 'planted: keep me\n' >victim
	cp victim victim.orig
}

# What a failing command must print: one line, and a non-zero status.
one_line_failure() {
	echo "$output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
}

# The planted file as it was, and no temporary anywhere under here.
nothing_touched() {
	local left
	cmp victim victim.orig
	left=$(find . -name '.?*' -print)
	[ -z "$left" ] || {
		echo "left behind: $left"
		return 1
	}
}

@test "chat_c --json and --report: links at the old temporary names are not written through" {
	ln -s victim out.json.tmp
	ln -s victim out.html.tmp
	run "$CHAT_C" --local -q --no-trace -r 2 -j out.json --report out.html 2 20
	echo "$output"
	[ "$status" -eq 0 ]
	nothing_touched
	[ -L out.json.tmp ] && [ -L out.html.tmp ]
	# Whole: both runs and the summary, each line JSON; the page XML.
	[ "$(jq -s '[.[] | select(.run)] | length' out.json)" -eq 2 ]
	jq -se 'last | .summary | type == "object"' out.json
	xmllint --noout out.html
	[ "$(stat -c %a out.json)" = 644 ]
	[ "$(stat -c %a out.html)" = 644 ]
}

@test "chat_c --json: a link at the target is replaced, not written through; a pipe is written" {
	ln -s victim out.json
	run "$CHAT_C" --local -q --no-trace -r 2 -j out.json 2 20
	echo "$output"
	[ "$status" -eq 0 ]
	nothing_touched
	[ ! -L out.json ] && [ -f out.json ]
	[ "$(jq -s '[.[] | select(.run)] | length' out.json)" -eq 2 ]
	# Devices and pipes stay what they are: written, not replaced.
	mkfifo pipe
	jq -s '[.[] | select(.run)] | length' pipe >count &
	"$CHAT_C" --local -q --no-trace -r 2 -j pipe 2 20 >/dev/null 2>&1
	wait
	[ "$(cat count)" -eq 2 ]
	[ -p pipe ]
}

@test "chatbench-report -o: neither its old temporary nor a link at its target is written through" {
	"$CHAT_C" --local -q --no-trace -r 2 -j in.json 2 20 >/dev/null 2>&1
	ln -s victim r.html.tmp
	"$REPORT" -o r.html in.json
	xmllint --noout r.html
	# A link at the target is replaced by the page, not followed.
	ln -s victim link.html
	"$REPORT" -o link.html in.json
	[ ! -L link.html ]
	xmllint --noout link.html
	nothing_touched
	[ -L r.html.tmp ]
	[ "$(stat -c %a r.html)" = 644 ]
}

@test "unwritable outputs: one line, a non-zero exit, nothing created or followed" {
	mkdir adir
	# The report's path is checked before the first run, creating nothing.
	run "$CHAT_C" --local -q --no-trace -r 2 --report missing/x.html 2 20
	one_line_failure
	[ "$output" = "chat_c: cannot write the report to missing/x.html: No such file or directory" ]
	ln -s victim link.html
	run "$CHAT_C" --local -q --no-trace -r 2 --report link.html 2 20
	one_line_failure
	[[ "$output" == *"link.html: Is a symbolic link"* ]]
	[ -L link.html ]
	run "$CHAT_C" --local -q --no-trace -r 2 --report adir 2 20
	one_line_failure
	[[ "$output" == *"adir: Is a directory" ]]
	run "$CHAT_C" --local -q --no-trace -r 2 -j missing/out.json 2 20
	one_line_failure
	[[ "$output" == *missing/out.json* ]]
	# A failure after the temporary was made: the rename onto a folder.
	"$CHAT_C" --local -q --no-trace -r 2 -j in.json 2 20 >/dev/null 2>&1
	run "$REPORT" -o adir in.json
	one_line_failure
	[[ "$output" == *adir* ]]
	run "$REPORT" -o missing/x.html in.json
	one_line_failure
	[ ! -e missing ]
	nothing_touched
	[ "$(find adir | wc -l)" -eq 1 ]
}

@test "--profile-out and --timeline: the made-up .offcpu name is not written through" {
	require_bpf
	ln -s victim f.folded.offcpu
	ln -s victim tl.json.tmp
	run "$CHAT_C" --local -q -r 2 --profile --profile-out f.folded \
		--timeline tl.json 2 20
	echo "$output"
	[ "$status" -eq 0 ]
	nothing_touched
	[ ! -L f.folded.offcpu ]
	! grep -Evq '^[^ ]+ [0-9]+$' f.folded
	jq -e '.traceEvents | type == "array"' tl.json
	[ "$(stat -c %a f.folded)" = 644 ]
	[ "$(stat -c %a tl.json)" = 644 ]
	# The timeline's path is checked, not created, when it is bad.
	run "$CHAT_C" --local -q -r 2 --timeline missing/t.json 2 20
	one_line_failure
	[ ! -e missing ]
}
