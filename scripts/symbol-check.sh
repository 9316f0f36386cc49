#!/bin/sh
# Fail when a global symbol ember's own static library defines is also defined by a
# library the program links. In a static link the first definition wins silently: the
# library's internal calls then land in ember's function (tpm2-tss's `write_all` once did,
# and boot-measure saw "no TPM"). See docs/design.md, "Exported names".
#   symbol-check.sh PROGRAM LIBEMBER.a FILE...
# FILEs are the libraries the linker opened (link-lib.sh takes them from `ld -t`): static
# archives, shared objects (their exported symbols) and the C library among them.
set -eu
prog=$1 own=$2
shift 2

# Global definitions (not undefined, not weak: a weak one yields without harm).
defined() {
	case $1 in
	*.so | *.so.*) nm -D --defined-only "$1" 2>/dev/null ;;
	*) nm -g --defined-only "$1" 2>/dev/null ;;
	esac | awk 'NF == 3 && $2 ~ /^[TDBRGSi]$/ { print $3 }' | sed 's/@.*//' | sort -u
}

ours=$(mktemp)
theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT
defined "$own" >"$ours"
[ -s "$ours" ] || { echo "symbol-check: no symbols in $own" >&2; exit 1; }

status=0
for f in "$@"; do
	[ "$f" -ef "$own" ] && continue
	# A linker script (glibc's libc.so) has no symbols: nm finds none, the files it names
	# are on the list themselves.
	defined "$f" >"$theirs"
	clash=$(comm -12 "$ours" "$theirs" | tr '\n' ' ')
	if [ -n "$clash" ]; then
		echo "  $(basename "$prog"): ember's $(basename "$own") and $f both define: $clash" >&2
		status=1
	fi
done
[ "$status" = 0 ] || echo "  rename ember's symbols (docs/design.md, \"Exported names\")" >&2
exit "$status"
