#!/bin/sh
# Compiler flags for the pkg-config modules $1; with a sysroot $2, from that sysroot.
pkgs=$1 sysroot=$2 pc=${3:-pkg-config}
[ -n "$pkgs" ] || exit 0
if [ -n "$sysroot" ]; then
	PKG_CONFIG_SYSROOT_DIR=$sysroot \
	PKG_CONFIG_LIBDIR=${PKG_CONFIG_LIBDIR:-$sysroot/usr/lib/pkgconfig:$sysroot/usr/share/pkgconfig} \
		$pc --cflags $pkgs
else
	$pc --cflags $pkgs
fi
