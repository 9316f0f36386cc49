#!/bin/sh
# Every program has a man page (man/NAME.SECTION.scd) and bash and zsh completions
# (completions/bash/NAME, completions/zsh/_NAME), every file format has its man page,
# and every page renders with scdoc. The programs are those in out/bin plus those whose
# source folder is in the tree, so a program that is not built still needs its pages.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Source folder -> programs it builds.
programs_of_folder() {
	case $1 in
	init) echo ember-init ;;
	emberctl) echo emberctl ;;
	caps) echo ember-caps ;;
	modload) echo ember-modload ;;
	netnat) echo netnat ;;
	boot-measure) echo boot-measure ;;
	empower) echo empower empowerd ;;
	esac
}
{
	for d in init emberctl caps modload netnat boot-measure empower; do
		[ -d "$TOP/$d" ] && programs_of_folder "$d"
	done | tr ' ' '\n'
	for f in "$BIN"/*; do [ -f "$f" ] && basename "$f"; done
} | sort -u >"$T/programs"
# completes_help PROG FILE: loading FILE into bash and completing "PROG --he" offers --help.
completes_help() {
	bash -c '
		. "$2" || exit 1
		fn=$(complete -p "$1" 2>/dev/null | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[ -n "$fn" ] || exit 1
		COMP_WORDS=("$1" --he) COMP_CWORD=1 COMP_LINE="$1 --he" COMP_POINT=$((${#1} + 5))
		"$fn" "$1" --he "$1"
		printf "%s\n" "${COMPREPLY[@]}" | grep -qx -- --help' _ "$1" "$2" 2>/dev/null
}

[ -s "$T/programs" ] && pass found-programs || fail found-programs "no program folders and nothing in $BIN"

for p in $(cat "$T/programs"); do
	page=$(ls "$TOP"/man/"$p".[1-8].scd 2>/dev/null | head -n 1)
	if [ -z "$page" ]; then
		fail "man-$p" "no man/$p.[1-8].scd"
	else
		# A program's page documents its interface and its exit codes.
		missing=$(for h in NAME SYNOPSIS DESCRIPTION 'EXIT STATUS'; do
			grep -qx "# $h" "$page" || printf '"# %s" ' "$h"; done)
		[ -z "$missing" ] && pass "man-$p" || fail "man-$p" "${page##*/} lacks $missing"
	fi

	b=$TOP/completions/bash/$p
	if [ ! -f "$b" ]; then
		fail "bash-completion-$p" "no completions/bash/$p"
	elif ! out=$(bash -n "$b" 2>&1); then
		fail "bash-completion-$p" "syntax: $out"
	elif ! grep -Eq "^[[:space:]]*complete .* $p\$" "$b"; then
		fail "bash-completion-$p" "no 'complete ... $p' line"
	elif ! completes_help "$p" "$b"; then
		fail "bash-completion-$p" "completing '$p --he' does not offer --help"
	else
		pass "bash-completion-$p"
	fi

	z=$TOP/completions/zsh/_$p
	if [ ! -f "$z" ]; then
		fail "zsh-completion-$p" "no completions/zsh/_$p"
	elif ! head -n 1 "$z" | grep -Eq "^#compdef .*\\b$p\\b"; then
		fail "zsh-completion-$p" "first line is not '#compdef $p'"
	else
		pass "zsh-completion-$p"
	fi
done

# File formats.
formats="ember.service.5 modules-load.d.5 netnat.conf.5"
[ -d "$TOP/empower" ] && formats="$formats empower.conf.5"
for f in $formats; do
	[ -f "$TOP/man/$f.scd" ] && pass "man-format-$f" || fail "man-format-$f" "no man/$f.scd"
done

# Every page renders, and its title line names the page: NAME(SECTION).
if command -v scdoc >/dev/null; then
	for s in "$TOP"/man/*.scd; do
		base=${s##*/}; base=${base%.scd}
		name=${base%.*} sec=${base##*.}
		if ! scdoc <"$s" >"$T/page" 2>"$T/err"; then
			fail "scdoc-$base" "$(head -n 2 "$T/err" | tr '\n' ' ')"
		elif ! head -n 1 "$s" | grep -Fqx "$name($sec)"; then
			fail "scdoc-$base" "first line is '$(head -n 1 "$s")', expected '$name($sec)'"
		else
			pass "scdoc-$base"
		fi
	done
else
	fail scdoc "scdoc is missing (scripts/deps.sh installs it)"
fi

# zsh syntax, where zsh is installed (it is not one of ember's build dependencies).
if command -v zsh >/dev/null; then
	for z in "$TOP"/completions/zsh/_*; do
		out=$(zsh -n "$z" 2>&1) && pass "zsh-syntax-${z##*/}" || fail "zsh-syntax-${z##*/}" "$out"
	done
else
	skip zsh-syntax "zsh is not installed on this machine"
fi
finish
