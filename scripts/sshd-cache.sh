#!/bin/sh
# Debian's OpenSSH server, unpacked into a cache outside the repository and never
# installed: a QEMU test (tests/qemu/test-pmos-shape.sh) copies sshd into a guest, and
# installing openssh-server would start an SSH server on this machine. Prints the
# directory holding usr/sbin/sshd and the libraries Debian's sshd needs that a build
# machine lacks (libwrap0). Idempotent: a finished cache is reused without the network.
set -eu
CACHE=${EMBER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ember}/openssh
if [ ! -f "$CACHE/.done" ]; then
	rm -rf "$CACHE"
	mkdir -p "$CACHE/dl" "$CACHE/root"
	(cd "$CACHE/dl" && apt-get download openssh-server libwrap0 >&2 2>/dev/null) ||
		(apt-get update -qq >&2 && cd "$CACHE/dl" && apt-get download openssh-server libwrap0 >&2)
	for deb in "$CACHE"/dl/*.deb; do
		dpkg-deb -x "$deb" "$CACHE/root"
	done
	rm -rf "$CACHE/dl"
	touch "$CACHE/.done"
fi
printf '%s\n' "$CACHE/root"
