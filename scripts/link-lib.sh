#!/bin/sh
# Link a library-backed program and say which variant it became.
#   link-lib.sh OUT "PKG-CONFIG MODULES" "EXTRA LIBS" LDFLAGS... OBJECTS...
# With SYSROOT set (a musl sysroot holding static libraries): fully static against musl.
# Otherwise against the system's libraries: static when every library has its .a,
# else dynamic.
set -eu
out=$1 pkgs=$2 extra=$3
shift 3
name=$(basename "$out")
CC=${CC:-cc} PKG_CONFIG=${PKG_CONFIG:-pkg-config}

if [ -n "${SYSROOT:-}" ]; then
	export PKG_CONFIG_SYSROOT_DIR="$SYSROOT"
	export PKG_CONFIG_LIBDIR="${PKG_CONFIG_LIBDIR:-$PKG_CONFIG_LIBDIR_SYSROOT}"
	libs=$([ -z "$pkgs" ] || $PKG_CONFIG --static --libs $pkgs)
	# shellcheck disable=SC2086
	$CC --sysroot="$SYSROOT" -static -o "$out" "$@" $libs $extra
	echo "  built $name: static, sysroot $SYSROOT"
	exit 0
fi

static_libs=$([ -z "$pkgs" ] || $PKG_CONFIG --static --libs $pkgs)
# shellcheck disable=SC2086
if $CC -static -o "$out" "$@" $static_libs $extra 2>/dev/null; then
	echo "  built $name: static, system libc"
	exit 0
fi
dyn_libs=$([ -z "$pkgs" ] || $PKG_CONFIG --libs $pkgs)
# shellcheck disable=SC2086
$CC -o "$out" "$@" $dyn_libs $extra
echo "  built $name: dynamic, system libc (no static $pkgs here)"
