#!/bin/sh
# Rewrite the sha512sums of an APKBUILD whose sources are all local files beside it
# (what `abuild checksum` does on Alpine).
#   pkg/postmarketos/checksum.sh DIR
set -eu
dir=$1
cd "$dir"
# shellcheck disable=SC2016 # expanded by the inner shell
files=$(env -i sh -c '. ./APKBUILD; for s in $source; do echo "${s##*/}"; done')
sums=$(sha512sum $files)
awk -v sums="$sums" '
	/^sha512sums="/ { print "sha512sums=\""; print sums; skip = 1; next }
	skip && /^"/ { print "\""; skip = 0; next }
	!skip { print }
' APKBUILD >APKBUILD.tmp
mv APKBUILD.tmp APKBUILD
