#!/usr/bin/env bash
# `make` on a machine whose libraries are not installed yet (issue 17): one line naming
# the missing pkg-config modules and `make deps`, the library-backed programs left out,
# the libc-only ones still built; no pkg-config error per module and compiler call. A
# static or package build (LIB_STATIC=1, SYSROOT=) stops with that line instead.
# `make -n` is enough: the noise came from parsing the Makefile, and -n parses it fully.
. "$(dirname "$0")/../lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/empty-pc"
# A pkg-config that fails as a real one does without .pc files: errors on stderr.
cat >"$T/failing-pkg-config" <<'EOS'
#!/bin/sh
echo "Package $* was not found in the pkg-config search path." >&2
echo "Perhaps you should add the directory containing it" >&2
exit 1
EOS
chmod +x "$T/failing-pkg-config"
LIBPROGS="ember-caps netnat boot-measure empowerd"

dry() { # NAME MAKE-ARGS...: make -n all into a scratch OUT; stdout in $T/NAME.out, stderr in .err
	local name=$1; shift
	(cd "$TOP" && make -n OUT="$T/out-$name" "$@" all >"$T/$name.out" 2>"$T/$name.err")
	echo $? >"$T/$name.rc"
}

quiet_case() { # NAME MAKE-ARGS...
	local name=$1 n p
	dry "$@"
	[ "$(cat "$T/$name.rc")" = 0 ] && pass "$name-make-succeeds" || fail "$name-make-succeeds" "exit $(cat "$T/$name.rc"): $(head -n 3 "$T/$name.err" | tr '\n' ' ')"
	[ ! -s "$T/$name.err" ] && pass "$name-nothing-on-stderr" ||
		fail "$name-nothing-on-stderr" "$(wc -l <"$T/$name.err") lines, first: $(head -n 1 "$T/$name.err")"
	n=$(grep -c '^ember: libraries not found' "$T/$name.out")
	[ "$n" = 1 ] && pass "$name-one-line" || fail "$name-one-line" "$n lines say so"
	grep '^ember: libraries not found' "$T/$name.out" | grep -q 'make deps' && grep -q 'libcap' "$T/$name.out" &&
		pass "$name-says-what-and-how" || fail "$name-says-what-and-how" "$(grep '^ember:' "$T/$name.out")"
	grep -qi 'package .* was not found\|No package' "$T/$name.out" "$T/$name.err" &&
		fail "$name-no-pkg-config-errors" "pkg-config's own errors leak" || pass "$name-no-pkg-config-errors"
	for p in $LIBPROGS; do
		grep -q "link-lib.sh .*/bin/$p " "$T/$name.out" && fail "$name-skips-$p" "would still link $p" || pass "$name-skips-$p"
	done
	grep -q "link-lib.sh .*/bin/ember-init " "$T/$name.out" && pass "$name-builds-ember-init" ||
		fail "$name-builds-ember-init" "ember-init is no longer built"
}

PKG_CONFIG_LIBDIR=$T/empty-pc PKG_CONFIG_PATH= quiet_case empty-pc-dir
quiet_case failing-pkg-config PKG_CONFIG="$T/failing-pkg-config"
quiet_case no-pkg-config PKG_CONFIG="$T/no-such-pkg-config"

# A static build must not silently lose programs: one line, and make stops.
PKG_CONFIG_LIBDIR=$T/empty-pc PKG_CONFIG_PATH= dry static LIB_STATIC=1
[ "$(cat "$T/static.rc")" != 0 ] && pass static-build-stops || fail static-build-stops "make -n LIB_STATIC=1 exited 0"
[ "$(wc -l <"$T/static.err")" = 1 ] && grep -q 'make deps' "$T/static.err" && pass static-build-one-line ||
	fail static-build-one-line "$(wc -l <"$T/static.err") lines: $(head -n 2 "$T/static.err" | tr '\n' ' ')"

# With the libraries installed, nothing is said and nothing is left out.
if [ -z "$("$TOP/scripts/pkg-cflags.sh" --missing "libcap libmnl libnftnl libxcrypt tss2-sys" "")" ]; then
	dry installed
	grep -q '^ember: libraries not found' "$T/installed.out" && fail installed-says-nothing "$(grep '^ember:' "$T/installed.out")" ||
		pass installed-says-nothing
	for p in $LIBPROGS; do
		grep -q "link-lib.sh .*/bin/$p " "$T/installed.out" && pass "installed-builds-$p" || fail "installed-builds-$p" "not linked"
	done
else
	skip installed-says-nothing "the libraries are not installed here (make deps)"
fi
finish
