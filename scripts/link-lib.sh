#!/bin/sh
# Link a library-backed program, check what came out, and say which variant it became.
#   link-lib.sh OUT "PKG-CONFIG MODULES" "EXTRA LIBS" LDFLAGS... OBJECTS...
# Static musl asked for -- SYSROOT set (a musl sysroot of static libraries, such as
# scripts/sysroot.sh builds) or LIB_STATIC=1 (Alpine: the system's static packages): the
# program must come out static against musl (no program interpreter, no shared library,
# no glibc, no dlopen) or the link fails and nothing is left behind.
# Otherwise against the system's libraries: static when every library has its .a, else
# dynamic.
# Every link: no global symbol of ember's own library may be defined by a library the
# linker opened too (scripts/symbol-check.sh; docs/design.md, "Exported names").
set -eu
out=$1 pkgs=$2 extra=$3
shift 3
name=$(basename "$out")
here=$(dirname "$0")
CC=${CC:-cc} PKG_CONFIG=${PKG_CONFIG:-pkg-config}
own=""
for a in "$@"; do case $a in *libember-*.a) own=$a ;; esac; done
want_static=${LIB_STATIC:-}
[ -n "${SYSROOT:-}" ] && want_static=1

trace=$(mktemp)
trap 'rm -f "$trace" "$trace.err"' EXIT
fail() {
	echo "  $name: $*" >&2
	rm -f "$out"
	exit 1
}

# link ARGS...: link with -t (the linker lists every file it opens) and a trace of dlopen
# (the linker reports each reference to it).
link() {
	# shellcheck disable=SC2068
	$CC -o "$out" "$@" -Wl,-t -Wl,--trace-symbol=dlopen >"$trace" 2>"$trace.err"
}

# The libraries the linker opened, one path a line.
opened() {
	sed -n 's/^-l[^ ]* (\(.*\))$/\1/p; /^\//p' "$trace" | grep -E '\.a$|\.so(\.[0-9]+)*$' | sort -u
}

check_symbols() {
	[ -n "$own" ] || return 0
	# shellcheck disable=SC2046
	"$here"/symbol-check.sh "$out" "$own" $(opened) || fail "ember's exported names collide with a library's"
}

# Static, musl: what the design promises for every binary.
check_static_musl() {
	sysroot_arg=${SYSROOT:+--sysroot=$SYSROOT}
	# shellcheck disable=SC2086
	if printf '#include <stdio.h>\n#ifdef __GLIBC__\nember_libc_is_glibc\n#endif\n' |
		$CC $sysroot_arg -E -x c - 2>/dev/null | grep -q ember_libc_is_glibc; then
		fail "CC=$CC compiles against glibc, not musl (LIB_CC=musl-gcc, or a musl system cc)"
	fi
	readelf -lW "$out" | grep -q 'INTERP' && fail "has a program interpreter: not static"
	readelf -dW "$out" 2>/dev/null | grep -q '(NEEDED)' && fail "needs shared libraries: $(readelf -dW "$out" | sed -n 's/.*Shared library: //p' | tr '\n' ' ')"
	grep -aq 'GLIBC_' "$out" && fail "contains glibc code (GLIBC_ strings)"
	refs=$(grep -h 'reference to dlopen' "$trace" "$trace.err" | sed 's|^[^ ]*ld[^ ]*: ||' | head -n 3 | tr '\n' ' ')
	[ -z "$refs" ] || fail "calls dlopen: $refs"
	return 0
}

if [ -n "$want_static" ]; then
	if [ -n "${SYSROOT:-}" ]; then
		export PKG_CONFIG_SYSROOT_DIR="$SYSROOT"
		export PKG_CONFIG_LIBDIR="${PKG_CONFIG_LIBDIR:-$PKG_CONFIG_LIBDIR_SYSROOT}"
		set -- --sysroot="$SYSROOT" "$@"
	fi
	libs=$([ -z "$pkgs" ] || $PKG_CONFIG --static --libs $pkgs) || fail "pkg-config: $pkgs not found"
	# shellcheck disable=SC2086
	link -static "$@" $libs $extra || { cat "$trace.err" >&2; fail "static link failed"; }
	check_static_musl
	check_symbols
	echo "  built $name: static, musl${SYSROOT:+, sysroot $SYSROOT} ($(wc -c <"$out") bytes)"
	exit 0
fi

static_libs=$([ -z "$pkgs" ] || $PKG_CONFIG --static --libs $pkgs)
# shellcheck disable=SC2086
if link -static "$@" $static_libs $extra; then
	check_symbols
	echo "  built $name: static, system libc"
	exit 0
fi
dyn_libs=$([ -z "$pkgs" ] || $PKG_CONFIG --libs $pkgs)
# shellcheck disable=SC2086
link "$@" $dyn_libs $extra || { cat "$trace.err" >&2; fail "link failed"; }
check_symbols
echo "  built $name: dynamic, system libc (no static $pkgs here)"
