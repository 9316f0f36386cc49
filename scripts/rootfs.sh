#!/bin/sh
# Build, once, the Debian 12 root file system of distro/debian/packages with debootstrap,
# into a cache outside the tree keyed by that list and FORMAT below. Prints its path.
#   scripts/rootfs.sh
# The tree is the distribution as debootstrap and the packages' own scripts leave it:
# /sbin/init stays systemd. ember is installed into a copy per image (scripts/distro-image.sh).
# The mirror is the one this machine's apt uses (its sources for bookworm).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${EMBER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ember}/rootfs
list=$TOP/distro/debian/packages

# Raise when the way the tree is built changes (the cache key holds it and the list).
FORMAT=1
key=$( (cat "$list"; echo "format $FORMAT") | sha256sum | cut -c1-16)
dir=$CACHE/debian12-$key

if [ ! -f "$dir/.done" ]; then
	command -v debootstrap >/dev/null || {
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
			{ apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; }
	}
	mirror=$("$TOP"/scripts/apt-mirror.sh) ||
		{ echo "rootfs.sh: no bookworm source in apt's configuration" >&2; exit 1; }
	pkgs=$(grep -v '^[[:space:]]*#' "$list" | grep -v '^[[:space:]]*$' | tr '\n' ',' | sed 's/,$//')
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	echo "rootfs.sh: debootstrap bookworm with: $pkgs" >&2
	debootstrap --variant=minbase --include="$pkgs" bookworm "$dir.tmp" "$mirror" >"$CACHE/debootstrap.log" 2>&1 ||
		{ echo "rootfs.sh: debootstrap failed, see $CACHE/debootstrap.log" >&2; tail -n 20 "$CACHE/debootstrap.log" >&2; exit 1; }
	# Package caches are not part of the system.
	rm -rf "$dir.tmp"/var/cache/apt/archives/*.deb "$dir.tmp"/var/lib/apt/lists/*_Packages
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	touch "$dir/.done"
fi
printf '%s\n' "$dir"
