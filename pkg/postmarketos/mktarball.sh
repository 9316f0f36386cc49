#!/bin/sh
# Make the source tarball the APKBUILD names and write its sha512sums line.
#   pkg/postmarketos/mktarball.sh [REV [OUTDIR [APKBUILD]]]
# REV defaults to the tag v$pkgver, OUTDIR to pkg/postmarketos, APKBUILD to the one
# beside this script. The tarball is `git archive` of REV with the prefix
# ember-$pkgver/, compressed with `gzip -n`: the same commit always gives the same
# bytes, so anyone can check the sum. (`abuild checksum` would do the rewrite on
# Alpine; this script does it on any machine with git.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
apkbuild=${3:-$here/APKBUILD}
pkgname=$(sed -n 's/^pkgname=//p' "$apkbuild")
pkgver=$(sed -n 's/^pkgver=//p' "$apkbuild")
rev=${1:-v$pkgver}
outdir=${2:-$here}
tarball=$pkgname-$pkgver.tar.gz

git -C "$top" rev-parse --verify --quiet "$rev^{commit}" >/dev/null ||
	{ echo "mktarball: $rev: no such commit or tag in $top" >&2; exit 1; }
mkdir -p "$outdir"
git -C "$top" archive --format=tar --prefix="$pkgname-$pkgver/" "$rev" |
	gzip -n -9 >"$outdir/$tarball"
sum=$(cd "$outdir" && sha512sum "$tarball")
# The install and trigger scripts beside the APKBUILD are sources too, in source= order.
for f in $pkgname.post-upgrade $pkgname.trigger; do
	[ -f "$here/$f" ] || continue
	sum="$sum
$(cd "$here" && sha512sum "$f")"
	# Beside the tarball, as abuild expects every source.
	[ "$(cd "$outdir" && pwd)" = "$here" ] || cp "$here/$f" "$outdir/"
done

# Replace everything from sha512sums=" to the closing quote with the new line.
tmp=$apkbuild.tmp.$$
awk -v line="$sum" '
	/^sha512sums="/ { print "sha512sums=\""; n = split(line, l, "\n"); for (i = 1; i <= n; i++) print l[i]; skip = 1; next }
	skip && /^"/ { print "\""; skip = 0; next }
	!skip { print }
' "$apkbuild" >"$tmp"
mv "$tmp" "$apkbuild"
echo "$outdir/$tarball"
echo "$sum"
