#!/bin/sh
# Print the Debian mirror this machine's apt uses: the first bookworm "deb" source of its
# configuration (deb822 or one-line format), security sources left out. Exit 1 if none.
# For the tools that reach Debian themselves: rootfs.sh (debootstrap) and unit-corpus.sh
# (another suite's package lists).
set -eu
{
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
			/(^|\n)Types:[^\n]*deb([ \n]|$)/ && /(^|\n)Suites:[^\n]*bookworm([ \n]|$)/ {
				for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, " "); print u[2]; exit }
			}' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $3 == "bookworm" { print $2 }'
} | grep -v '^$' | grep -v security | head -n 1 | grep . || exit 1
