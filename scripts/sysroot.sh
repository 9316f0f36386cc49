#!/bin/sh
# Build, once per machine, a static musl sysroot holding only what ember's library-backed
# programs link: libcap, libmnl, libnftnl, tpm2-tss (sys, mu and the device/swtpm/mssim
# TCTIs) and libxcrypt. See docs/build.md.
#
#   scripts/sysroot.sh            build it if missing; print its path (last line of stdout)
#   scripts/sysroot.sh --dir      print the path it has (or would have); build nothing
#   scripts/sysroot.sh --check    exit 0 when it is built, 1 when not
#
# Sources: a folder of release archives checked against its SHA256SUMS. EMBER_DEPS names
# it; else ../shared/deps next to the checkout (CI), else /work/shared/deps.
# Result: $EMBER_CACHE/sysroot-KEY (EMBER_CACHE defaults to ~/.cache/ember), KEY hashing
# the archives' checksums, the compiler, the flags and this script, so any change builds
# a new sysroot and an unchanged one costs nothing. The layout is a normal sysroot
# (usr/include, usr/lib, usr/lib/pkgconfig with prefix=/usr): use it as SYSROOT=.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
CC=${MUSL_CC:-musl-gcc}
BUILD_CC=${BUILD_CC:-cc}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Small and link-time prunable: every function and object in its own section, so the
# programs' --gc-sections drops what they do not call.
LIB_CFLAGS="-Os -g0 -ffunction-sections -fdata-sections"

ARCHIVES="libmnl-1.0.4.tar.xz libnftnl-1.2.8.tar.xz libcap-2.76.tar.xz
tpm2-tss-4.2.0.tar.xz libxcrypt-4.4.38.tar.xz"

TSS_FLAGS="--disable-esys --disable-fapi --disable-policy --with-crypto=none --enable-nodl
--disable-vendor --disable-tcti-cmd --disable-tcti-pcap --disable-tcti-null
--disable-tcti-libtpms --disable-tcti-spi-helper --disable-tcti-spi-ltt2go
--disable-tcti-spidev --disable-tcti-spi-ftdi --disable-tcti-i2c-helper
--disable-tcti-i2c-ftdi --disable-doxygen-doc --disable-unit --disable-integration
--disable-log-file --disable-weakcrypto --with-maxloglevel=warning"
# What crypt(3) must verify in /etc/shadow: yescrypt (Debian), sha512 (Alpine), sha256
# and bcrypt (older systems). No obsolete DES API.
XCRYPT_FLAGS="--enable-hashes=yescrypt,sha512crypt,sha256crypt,bcrypt,bcrypt_a,bcrypt_y
--enable-obsolete-api=no --disable-werror
--disable-xcrypt-compat-files"
AUTOTOOLS_FLAGS="--prefix=/usr --libdir=/usr/lib --enable-static --disable-shared
--disable-dependency-tracking --disable-silent-rules"

die() { echo "sysroot: $*" >&2; exit 1; }

find_deps() {
	for d in ${EMBER_DEPS:-} "$(dirname "$top")/shared/deps" /work/shared/deps; do
		[ -f "$d/SHA256SUMS" ] && { (cd "$d" && pwd); return 0; }
	done
	die "no source archives: set EMBER_DEPS to a folder holding $(echo $ARCHIVES) and SHA256SUMS"
}

# The key: what goes in (checksums of the archives we use), how (compiler, flags, kernel
# headers, this script) and for which machine.
cache_key() {
	{
		for a in $ARCHIVES; do grep " $a\$" "$deps/SHA256SUMS" || die "$a not in $deps/SHA256SUMS"; done
		$CC -dumpmachine; $CC --version 2>/dev/null | head -n 1; uname -m
		echo "$LIB_CFLAGS|$TSS_FLAGS|$XCRYPT_FLAGS|$AUTOTOOLS_FLAGS"
		cat "$here/sysroot.sh" "$here/musl-include.sh"
	} | sha256sum | cut -c1-16
}

deps=$(find_deps)
cache=${EMBER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ember}
dir=$cache/sysroot-$(cache_key)

case ${1:-} in
--dir) echo "$dir"; exit 0 ;;
--check) [ -f "$dir/.complete" ]; exit ;;
"") ;;
*) die "usage: sysroot.sh [--dir|--check]" ;;
esac

if [ -f "$dir/.complete" ]; then
	echo "$dir"
	exit 0
fi

command -v "$CC" >/dev/null || die "$CC not found (Debian: musl-tools)"
(cd "$deps" && for a in $ARCHIVES; do grep " $a\$" SHA256SUMS; done | sha256sum -c --quiet -) ||
	die "checksum mismatch in $deps"

mkdir -p "$cache"
work=$(mktemp -d "$cache/.sysroot-build.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
root=$work/root
src=$work/src
mkdir -p "$root/usr/include" "$src"
start=$(date +%s)

# musl-gcc sees no kernel uapi headers; the libraries (and ember) need linux/, asm/.
"$here/musl-include.sh" "$root/usr/include"

export PKG_CONFIG_LIBDIR="$root/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
export CC CFLAGS="$LIB_CFLAGS" CPPFLAGS="-isystem $root/usr/include" LDFLAGS="-L$root/usr/lib"

unpack() {
	echo "sysroot: building $1" >&2
	tar -C "$src" -xJf "$deps/$1"
	cd "$src/${1%.tar.xz}"
}

# tpm2-tss's archive carries its autotools helpers (ltmain.sh, config.sub, m4/libtool.m4,
# ...) as symlinks into the automake/libtool install that generated configure. Where those
# are not installed, take the same files from libnftnl's and libmnl's archives (the same
# automake 1.16 / libtool 2.4.7 generation), with the tree's own timestamp so that make
# does not think configure needs regenerating: no autotools package is needed.
fill_aux() {
	find . -xtype l | while read -r f; do
		b=$(basename "$f")
		for donor in "$src/libnftnl-1.2.8/build-aux/$b" "$src/libmnl-1.0.4/m4/$b" ""; do
			[ -z "$donor" ] || [ -f "$donor" ] && break
		done
		[ -n "$donor" ] || die "$f is a dangling link and no copy is at hand"
		rm -f "$f"
		cp "$donor" "$f"
		touch -r configure "$f"
	done
}

autotools() {
	# shellcheck disable=SC2086
	./configure $AUTOTOOLS_FLAGS "$@" >configure.log 2>&1 || { tail -n 30 configure.log >&2; die "configure failed in $(pwd)"; }
	make -j"$JOBS" >make.log 2>&1 || { tail -n 30 make.log >&2; die "make failed in $(pwd)"; }
	make install DESTDIR="$root" >install.log 2>&1 || { tail -n 30 install.log >&2; die "install failed in $(pwd)"; }
}

# shellcheck disable=SC2086
{
	(unpack libmnl-1.0.4.tar.xz; autotools)
	(unpack libnftnl-1.2.8.tar.xz; autotools --without-json-parsing)
	(unpack libcap-2.76.tar.xz
	 make -C libcap -j"$JOBS" CC="$CC" BUILD_CC="$BUILD_CC" SHARED=no PAM_CAP=no GOLANG=no \
	      prefix=/usr lib=lib FAKEROOT="$root" install-static-cap >make.log 2>&1 ||
	 { tail -n 30 make.log >&2; die "libcap failed"; })
	(unpack tpm2-tss-4.2.0.tar.xz; fill_aux; autotools $TSS_FLAGS)
	(unpack libxcrypt-4.4.38.tar.xz; autotools $XCRYPT_FLAGS)
}

# Only static archives and what pkg-config and the compiler read; no libtool .la files
# (they name the build's paths), no programs, no docs.
find "$root" -name '*.la' -delete
rm -rf "$root/usr/share/man" "$root/usr/share/doc" "$root/usr/bin" "$root/usr/sbin" \
       "$root/usr/lib/udev" "$root/usr/lib/sysusers.d" "$root/usr/lib/tmpfiles.d" "$root/etc" "$root/var"
for pc in libcap libmnl libnftnl libxcrypt tss2-sys tss2-mu tss2-tcti-device tss2-tcti-swtpm tss2-tcti-mssim; do
	[ -f "$root/usr/lib/pkgconfig/$pc.pc" ] || die "$pc.pc was not installed"
done
if find "$root/usr/lib" -name '*.so*' | grep -q .; then
	die "a shared library was installed: $(find "$root/usr/lib" -name '*.so*' | head -n 1)"
fi
echo "built $(date -u +%FT%TZ) in $(($(date +%s) - start)) s from $deps" >"$root/.complete"

# Publish atomically: a reader sees no sysroot or a complete one.
rm -rf "$dir"
mv "$root" "$dir"
echo "sysroot: ready in $(($(date +%s) - start)) s" >&2
echo "$dir"
