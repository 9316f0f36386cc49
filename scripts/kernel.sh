#!/bin/sh
# Fetch the Debian kernel that linux-image-amd64 currently depends on into a cache outside
# the repository, unpack it and run depmod. Prints the kernel release directory on stdout:
#   $CACHE/<release>/vmlinuz, $CACHE/<release>/lib/modules/<release>/
# Idempotent: a cached, unpacked kernel is reused without touching the network.
set -eu

CACHE=${EMBER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ember}/kernel
mkdir -p "$CACHE"

resolve_package() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1
}

pkg=$(resolve_package)
if [ -z "$pkg" ]; then
	apt-get update -qq >&2
	pkg=$(resolve_package)
fi
[ -n "$pkg" ] || { echo "kernel.sh: cannot resolve the package behind linux-image-amd64" >&2; exit 1; }
release=${pkg#linux-image-}
dir=$CACHE/$release

if [ ! -f "$dir/.done" ]; then
	rm -rf "$dir" "$CACHE/dl"
	mkdir -p "$CACHE/dl" "$dir"
	(cd "$CACHE/dl" && apt-get download "$pkg" >&2)
	dpkg-deb -x "$CACHE"/dl/"$pkg"_*.deb "$dir/root"
	cp "$dir/root/boot/vmlinuz-$release" "$dir/vmlinuz"
	mkdir -p "$dir/lib/modules"
	mv "$dir/root/lib/modules/$release" "$dir/lib/modules/$release"
	rm -rf "$dir/root" "$CACHE/dl"
	depmod -b "$dir" "$release"
	touch "$dir/.done"
fi
printf '%s\n' "$dir"
