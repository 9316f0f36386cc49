#!/bin/sh
# Compiler flags for the pkg-config modules $1; with a sysroot $2, from that sysroot.
#   pkg-cflags.sh "MODULES" SYSROOT [PKG-CONFIG]
#   pkg-cflags.sh --missing "MODULES" SYSROOT [PKG-CONFIG]
# --missing prints the modules pkg-config cannot find (nothing when all are there) and
# never writes to stderr: the Makefile asks this once per library-backed program and
# says in one line what is missing, instead of pkg-config's three lines per module and
# compiler call on a machine whose dependencies are not installed yet.
missing=
if [ "${1-}" = --missing ]; then
	missing=1
	shift
fi
pkgs=${1-} sysroot=${2-} pc=${3:-pkg-config}
[ -n "$pkgs" ] || exit 0

run_pc() {
	if [ -n "$sysroot" ]; then
		PKG_CONFIG_SYSROOT_DIR=$sysroot \
		PKG_CONFIG_LIBDIR=${PKG_CONFIG_LIBDIR:-$sysroot/usr/lib/pkgconfig:$sysroot/usr/share/pkgconfig} \
			$pc "$@"
	else
		$pc "$@"
	fi
}

if [ -n "$missing" ]; then
	for m in $pkgs; do
		run_pc --exists "$m" 2>/dev/null || printf '%s\n' "$m"
	done
	exit 0
fi
# shellcheck disable=SC2086 # one word per module
run_pc --cflags $pkgs
