#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make install into a staging DESTDIR: every program with its man page
# and the docs, pages that man renders without a warning, and for each
# program the same options in its --help and in its page, both ways,
# short and long forms paired.  make uninstall takes it all away again.
# No root and no BPF needed.

load helpers

ROOT="$BATS_TEST_DIRNAME/../.."
PFX=/usr/local

# make in the project root on this suite's build.  Flags of a make that
# runs the suite (its jobserver among them) are not passed on.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory \
		-C "$ROOT" OUT="$OUT" ${CHATBENCH_SAN:+SAN=$CHATBENCH_SAN} "$@"
}

# Installs into $1 with the make arguments that follow; make's output is
# shown when it fails.
stage_install() {
	local dest=$1
	shift
	if ! mk install DESTDIR="$dest" "$@" >"$dest.log" 2>&1; then
		cat "$dest.log" >&2
		return 1
	fi
}

# One installation for the tests that only read it, and each page
# rendered once by man -l (man-db runs a pipeline of groff programs per
# page, slow on a loaded machine): the text in PAGES/NAME.txt, groff's
# warnings in PAGES/NAME.warn.  Hyphens are made ASCII, whatever groff
# renders them as.
setup_file() {
	local page
	command -v man >/dev/null || {
		echo "man is missing: tools/install-deps.sh --test installs man-db" >&2
		return 1
	}
	export STAGE="$BATS_FILE_TMPDIR/stage" PAGES="$BATS_FILE_TMPDIR/pages"
	stage_install "$STAGE"
	mkdir "$PAGES"
	for page in "$STAGE$PFX"/share/man/man1/*.1; do
		LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 MANPAGER=cat PAGER=cat \
			man --warnings -E UTF-8 -l "$page" \
			2>"$PAGES/${page##*/}.warn" |
			sed 's/\xe2\x80\x90/-/g' >"$PAGES/${page##*/}.txt"
	done
}

# The options of a --help text, one per line: "-r, --runs", "--pause", or
# "-x" for a short option alone.  An entry is a line indented by 2 to 8
# spaces that starts with a dash (descriptions sit further right); the
# examples are not entries.
help_opts() {
	sed -n -E '/^Example/q
		s/^ {2,8}(-[A-Za-z0-9], )?(--[a-z][a-z0-9-]*).*/\1\2/p
		s/^ {2,8}(-[A-Za-z0-9])( .*)?$/\1/p' | sort
}

# The same of a rendered page: in its OPTIONS section, a line indented by
# 7 that starts with a dash and is followed by its description (indented
# by 11) is an entry.
man_opts() {
	awk '/^[A-Z]/ { sect = $0; tag = ""; next }
		sect != "OPTIONS" { next }
		tag != "" && /^           [^ ]/ { print tag }
		{ tag = "" }
		/^       -/ { tag = $0 }' |
		sed -E 's/^ +(-[A-Za-z0-9], )?(--[a-z][a-z0-9-]*).*/\1\2/
			t
			s/^ +(-[A-Za-z0-9])( .*)?$/\1/' | sort
}

# The programs make built: chat_c, chat_s and the chatbench tools.
built_programs() {
	local f
	for f in "$BIN"/chat_c "$BIN"/chat_s "$BIN"/chatbench-*; do
		[ -f "$f" ] && [ -x "$f" ] && basename "$f"
	done
}

@test "make install puts every program, its man page and the docs under DESTDIR" {
	local p n=0
	for p in $(built_programs); do
		[ -x "$STAGE$PFX/bin/$p" ] || { echo "bin/$p not installed"; return 1; }
		[ -f "$STAGE$PFX/share/man/man1/$p.1" ] ||
			{ echo "man1/$p.1 not installed"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
	# Nothing else in bin or man1: each page is a program's.
	[ "$(ls "$STAGE$PFX/bin" | wc -l)" -eq "$n" ]
	[ "$(ls "$STAGE$PFX/share/man/man1" | wc -l)" -eq "$n" ]
	[ -f "$STAGE$PFX/share/doc/chatbench/README.md" ]
	[ -f "$STAGE$PFX/share/doc/chatbench/budget.md" ]
	[ "$(stat -c %a "$STAGE$PFX/bin/chat_c")" = 755 ]
	[ "$(stat -c %a "$STAGE$PFX/share/man/man1/chat_c.1")" = 644 ]
	# Installed, chat_c --local finds the chat_s beside it (a tiny run).
	run "$STAGE$PFX/bin/chat_c" --local --no-trace -q 1 1
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^Average throughput : [0-9]* messages per second$' <<<"$output"
}

@test "man -l renders every page without a warning, with the usual sections" {
	local page text s
	for page in "$STAGE$PFX"/share/man/man1/*.1; do
		page=${page##*/}
		[ ! -s "$PAGES/$page.warn" ] ||
			{ echo "$page:"; cat "$PAGES/$page.warn"; return 1; }
		text=$(cat "$PAGES/$page.txt")
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES \
			"SEE ALSO"; do
			grep -qx "$s" <<<"$text" ||
				{ echo "$page: no $s section"; return 1; }
		done
		# NAME names the program the page is for.
		grep -A1 -x NAME <<<"$text" | grep -q "^       ${page%.1} - " ||
			{ echo "$page: NAME is not its program's"; return 1; }
	done
}

@test "each program's --help and man page list the same options" {
	local p help man bad=0
	for p in $(built_programs); do
		help=$("$STAGE$PFX/bin/$p" --help | help_opts)
		man=$(man_opts <"$PAGES/$p.1.txt")
		# The parsers found the entries at all.
		grep -qx -- '-h, --help' <<<"$help" ||
			{ echo "$p: no -h, --help in --help"; bad=1; }
		grep -qx -- '-h, --help' <<<"$man" ||
			{ echo "$p: no -h, --help in the man page"; bad=1; }
		if [ "$help" != "$man" ]; then
			echo "$p: --help (<) and man page (>) differ:"
			diff <(echo "$help") <(echo "$man") | grep '^[<>]'
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}

@test "PREFIX is honoured, and make uninstall leaves nothing of ours" {
	local dest="$BATS_TEST_TMPDIR/opt" left
	stage_install "$dest" PREFIX=/opt/chatbench
	[ -x "$dest/opt/chatbench/bin/chat_s" ]
	[ -f "$dest/opt/chatbench/share/man/man1/chat_s.1" ]
	[ -f "$dest/opt/chatbench/share/doc/chatbench/README.md" ]
	mk uninstall DESTDIR="$dest" PREFIX=/opt/chatbench
	left=$(find "$dest" ! -type d)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	[ ! -e "$dest/opt/chatbench/share/doc/chatbench" ]
}
