#!/usr/bin/env bash
# pkg/postmarketos/APKBUILD in a simulated abuild run on Debian: syntax and fields,
# the sha512sums line and the tarball script, then build(), check() and package() of
# the working tree in abuild's directory layout, every split function, and where every
# file ends up (each binary in exactly one package, man pages in -doc, completions in
# theirs, no setuid, nothing left over in the main package).
#
# Differences from a real abuild run on Alpine, on purpose: CC=musl-gcc builds the
# libc-only programs static against musl as on Alpine, but the library-backed programs
# (ember-caps, netnat, boot-measure, empower) link Debian's glibc libraries
# (_sysroot= and _lib_cc=cc), because Debian has no static musl libcap, libmnl, libnftnl
# or tss2. check() runs as on Alpine: the musl unit tests and the namespace test.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PKG=$TOP/pkg/postmarketos
APKBUILD=$PKG/APKBUILD
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ---- the file itself -----------------------------------------------------------------
check apkbuild-bash-syntax bash -n "$APKBUILD"
check apkbuild-posix-syntax sh -n "$APKBUILD"
# abuild is a busybox ash script on Alpine; the simulation below runs in it too.
ASH="busybox ash"
if command -v busybox >/dev/null; then
	check apkbuild-ash-syntax busybox ash -n "$APKBUILD"
else
	ASH=bash
	skip apkbuild-ash-syntax "busybox is not installed (scripts/deps.sh installs busybox-static); the simulation runs in bash"
fi

fields() { # prints NAME=VALUE for the fields abuild requires, from a clean shell
	env -i bash -c '. "$1"; for v in pkgname pkgver pkgrel pkgdesc url arch license source sha512sums; do
		printf "%s=%s\n" "$v" "$(eval echo \"\${$v}\" | tr "\n" " ")"; done
		for f in build check package; do declare -F "$f" >/dev/null && echo "func=$f"; done
		echo "options=${options:-}"' _ "$APKBUILD"
}
fields >"$T/fields" 2>"$T/fields.err"
missing=$(for v in pkgname pkgver pkgrel pkgdesc url arch license source sha512sums; do
	grep -Eq "^$v=.*[^ ]" "$T/fields" || printf '%s ' "$v"; done)
[ -z "$missing" ] && [ ! -s "$T/fields.err" ] && pass apkbuild-required-fields ||
	fail apkbuild-required-fields "empty or missing: $missing $(head -c 200 "$T/fields.err")"
nfunc=$(grep -c '^func=' "$T/fields")
[ "$nfunc" = 3 ] && pass apkbuild-has-build-check-package || fail apkbuild-has-build-check-package "$(grep '^func=' "$T/fields" | tr '\n' ' ')"
grep -Eq '^options=.*(!check|suid)' "$T/fields" &&
	fail apkbuild-no-suid-no-skipped-check "$(grep '^options=' "$T/fields")" ||
	pass apkbuild-no-suid-no-skipped-check
# Values abuild's sanity check accepts, and a function for every NAME:FUNC subpackage.
env -i bash -c '. "$1"
	echo "$pkgname" | grep -Eqx "[a-z0-9][a-z0-9._+-]*" || echo "pkgname $pkgname"
	echo "$pkgver" | grep -Eqx "[0-9]+(\.[0-9]+)*" || echo "pkgver $pkgver"
	echo "$pkgrel" | grep -Eqx "[0-9]+" || echo "pkgrel $pkgrel"
	for s in $subpackages; do case $s in *:*) f=${s#*:}; f=${f%%:*}
		declare -F "$f" >/dev/null || echo "no function $f for ${s%%:*}";; esac; done' _ "$APKBUILD" >"$T/sanity" 2>&1
[ ! -s "$T/sanity" ] && pass apkbuild-sanity || fail apkbuild-sanity "$(tr '\n' ';' <"$T/sanity")"
# Licence, maintainer and the scripts abuild installs: as aports reviewers expect.
[ "$(sed -n 's/^license=//p' "$T/fields" | tr -d ' ')" = MIT ] && [ -f "$TOP/LICENSE" ] &&
	grep -q '^MIT License' "$TOP/LICENSE" && pass apkbuild-license-mit ||
	fail apkbuild-license-mit "license=$(sed -n 's/^license=//p' "$T/fields"); LICENSE file: $(head -n 1 "$TOP/LICENSE" 2>&1)"
head -n 1 "$APKBUILD" | grep -Eq '^# Maintainer: [^<]*[^ <] <[^ @>]+@[^ >]+>$' && pass apkbuild-maintainer-line ||
	fail apkbuild-maintainer-line "first line: $(head -n 1 "$APKBUILD")"
env -i bash -c '. "$1"; for f in $install; do echo "$f"; done; for t in $triggers; do echo "${t%%=*}"; done' \
	_ "$APKBUILD" >"$T/scripts"
for f in $(cat "$T/scripts"); do
	if [ ! -f "$PKG/$f" ]; then fail "script-$f" "named by install=/triggers= but missing"; continue; fi
	env -i bash -c '. "$1"; for s in $source; do echo "${s##*/}"; done' _ "$APKBUILD" | grep -qx "$f" ||
		{ fail "script-$f" "not in source="; continue; }
	sh -n "$PKG/$f" && pass "script-$f" || fail "script-$f" "syntax error"
done
grep -qx ember.trigger "$T/scripts" && pass apkbuild-has-trigger || fail apkbuild-has-trigger "no triggers="
grep -qx ember.post-upgrade "$T/scripts" && pass apkbuild-has-post-upgrade || fail apkbuild-has-post-upgrade "no post-upgrade"
ver=$(sed -n 's/^pkgver=//p' "$T/fields" | tr -d ' ')
cfgver=$(sed -n 's/^VERSION *= *//p' "$TOP/config.mk")
[ "$ver" = "$cfgver" ] && pass apkbuild-version-matches-config || fail apkbuild-version-matches-config "pkgver $ver, config.mk VERSION $cfgver"

# ---- sha512sums ----------------------------------------------------------------------
sums=$(env -i bash -c '. "$1"; echo "$sha512sums"' _ "$APKBUILD" | sed '/^[[:space:]]*$/d; s/^[[:space:]]*//')
srcs=$(env -i bash -c '. "$1"; for s in $source; do s=${s%%::*}; echo "${s##*/}"; done' _ "$APKBUILD")
bad=$(printf '%s\n' "$sums" | grep -Ev '^[0-9a-f]{128}  [^ /]+$' || true)
[ -z "$bad" ] && [ -n "$sums" ] && pass sha512sums-line-format || fail sha512sums-line-format "bad line(s): $bad"
[ "$(printf '%s\n' "$sums" | sed 's/^[0-9a-f]*  //')" = "$srcs" ] && pass sha512sums-one-per-source ||
	fail sha512sums-one-per-source "sources: $(echo $srcs); sums for: $(printf '%s\n' "$sums" | sed 's/^[0-9a-f]*  //' | tr '\n' ' ')"

# mktarball.sh on HEAD, into a copy of the APKBUILD: the line it writes checks out
# against the tarball it made, and a second run gives the same bytes.
cp "$APKBUILD" "$T/APKBUILD.copy"
if "$PKG/mktarball.sh" HEAD "$T/tar1" "$T/APKBUILD.copy" >"$T/mk.out" 2>&1; then
	(cd "$T/tar1" && env -i bash -c '. "$1"; echo "$sha512sums"' _ "$T/APKBUILD.copy" |
		sed '/^[[:space:]]*$/d' | sha512sum -c --quiet -) >"$T/sumc" 2>&1 &&
		pass mktarball-sum-matches-tarball || fail mktarball-sum-matches-tarball "$(cat "$T/sumc")"
	cp "$APKBUILD" "$T/APKBUILD.copy2"
	"$PKG/mktarball.sh" HEAD "$T/tar2" "$T/APKBUILD.copy2" >/dev/null 2>&1
	cmp -s "$T/tar1/ember-$ver.tar.gz" "$T/tar2/ember-$ver.tar.gz" && pass mktarball-reproducible ||
		fail mktarball-reproducible "two runs on HEAD gave different tarballs"
	tar -tzf "$T/tar1/ember-$ver.tar.gz" | grep -qx "ember-$ver/pkg/postmarketos/APKBUILD" &&
		pass mktarball-prefix || fail mktarball-prefix "no ember-$ver/pkg/postmarketos/APKBUILD in the tarball"
else
	fail mktarball-runs "$(tail -n 3 "$T/mk.out")"
fi
# The committed sum is for the release tag's tarball.
if git -C "$TOP" rev-parse --verify --quiet "v$ver^{commit}" >/dev/null; then
	cp "$APKBUILD" "$T/APKBUILD.tag"
	"$PKG/mktarball.sh" "v$ver" "$T/tag" "$T/APKBUILD.tag" >/dev/null 2>&1
	cmp -s "$APKBUILD" "$T/APKBUILD.tag" && pass sha512sums-match-release-tag ||
		fail sha512sums-match-release-tag "run pkg/postmarketos/mktarball.sh to update sha512sums for v$ver"
else
	skip sha512sums-match-release-tag "no tag v$ver yet (the release step runs pkg/postmarketos/mktarball.sh)"
fi

# ---- a simulated abuild run on the working tree ---------------------------------------
if ! command -v musl-gcc >/dev/null; then
	fail abuild-simulation "musl-gcc is missing (scripts/deps.sh installs musl-tools)"
	finish
fi
S=$T/abuild
mkdir -p "$S/src"
# What abuild would unpack: the tracked and new files of the work tree (not out/).
(cd "$TOP" && git ls-files -co --exclude-standard -z | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' _ |
	tar -cf - -T - --transform "s|^|ember-$ver/|") | tar -C "$S/src" -xf -

cat >"$T/run.sh" <<'EOS'
# $1 = startdir, $2 = APKBUILD, $3 = phase: build | check | package | split
. "$TOP_SHIM"
abuild_setup "$1" "$2"
export CC=musl-gcc
# As abuild on Alpine: its CFLAGS hold -fstack-clash-protection (-frecord-gcc-switches
# makes their use visible in the binaries).
export CFLAGS="-Os -fstack-clash-protection -frecord-gcc-switches" LDFLAGS="-Wl,--as-needed,-O1"
_sysroot= _lib_cc=cc
case $3 in
split) abuild_split ;;
no-userns) _userns_ok() { return 1; }; abuild_phase _namespace_tests ;;
*) abuild_phase "$3" ;;
esac
EOS
# abuild.conf's defaults on Alpine: JOBS is the number of CPUs, MAKEFLAGS=-j$JOBS.
phase() { # PHASE: run it like abuild, in a clean environment (no TOP/BIN from tests/run)
	env -u TOP -u BIN -u HELPERS JOBS="$(nproc)" MAKEFLAGS="-j$(nproc)" TOP_SHIM="$HERE/pkg-abuild-shim.sh" \
		$ASH "$T/run.sh" "$S" "$S/src/ember-$ver/pkg/postmarketos/APKBUILD" "$1" >"$T/$1.log" 2>&1
}
log_tail() { tail -n 8 "$T/$1.log" | tr '\n' ' '; }

phase build && pass abuild-build || { fail abuild-build "$(log_tail build)"; finish; }
phase check && pass abuild-check || fail abuild-check "$(log_tail check)"
readelf -p .GCC.command.line "$S/src/ember-$ver/out/bin/ember-init" 2>/dev/null | grep -q stack-clash &&
	pass build-honours-abuild-cflags || fail build-honours-abuild-cflags "abuild's CFLAGS did not reach the compiler"
grep -Eq '^[0-9]+ passed, 0 failed' "$T/check.log" && grep -q '^PASS runs-as-pid1-of-namespace' "$T/check.log" &&
	pass check-ran-unit-and-namespace-tests || fail check-ran-unit-and-namespace-tests "no unit summary or namespace result in check()'s output"
# abuild runs check() as an unprivileged user: the namespace test then goes through a
# user namespace. Run that path as "nobody". A builder's sandbox may allow no user
# namespace: an unshare that always fails stands for it, and the test must be skipped
# with that reason, not fail check().
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	skip check-namespace-test-unprivileged "needs root and a user nobody to switch to"
elif ! setpriv --reuid nobody --regid nogroup --clear-groups unshare --user --map-root-user true 2>/dev/null; then
	skip check-namespace-test-unprivileged "this kernel does not let unprivileged users create user namespaces"
else
	chmod 755 "$T" "$S" "$S/src"
	# The checkout may sit where nobody cannot reach (a 0700 temp dir): a copy of the shim.
	cp "$HERE/pkg-abuild-shim.sh" "$T/shim.sh" && chmod 644 "$T/shim.sh"
	if env -u TOP -u BIN -u HELPERS HOME=/tmp TOP_SHIM="$T/shim.sh" setpriv --reuid nobody --regid nogroup \
		--clear-groups $ASH "$T/run.sh" "$S" "$S/src/ember-$ver/pkg/postmarketos/APKBUILD" _namespace_tests \
		>"$T/nsuser.log" 2>&1 && grep -q '^PASS runs-as-pid1-of-namespace' "$T/nsuser.log"; then
		pass check-namespace-test-unprivileged
	else
		fail check-namespace-test-unprivileged "$(grep -E '^FAIL|rror' "$T/nsuser.log" | head -n 3 | tr '\n' ' ')"
	fi
fi
# A builder's sandbox that allows no user namespace (its unshare fails): check() skips
# the namespace test with that reason instead of failing.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 755 "$T" "$S" "$S/src"
	cp "$HERE/pkg-abuild-shim.sh" "$T/shim.sh" && chmod 644 "$T/shim.sh"
	if env -u TOP -u BIN -u HELPERS HOME=/tmp TOP_SHIM="$T/shim.sh" setpriv --reuid nobody \
		--regid nogroup --clear-groups $ASH "$T/run.sh" "$S" \
		"$S/src/ember-$ver/pkg/postmarketos/APKBUILD" no-userns >"$T/nons.log" 2>&1 &&
		grep -q '^SKIP runs-as-pid1-of-namespace: .*user namespace' "$T/nons.log" &&
		! grep -q '^PASS' "$T/nons.log"; then
		pass check-skips-namespace-test-without-userns
	else
		fail check-skips-namespace-test-without-userns "$(head -n 3 "$T/nons.log" | tr '\n' ' ')"
	fi
fi
phase package && pass abuild-package || { fail abuild-package "$(log_tail package)"; finish; }
phase split
B=$S/src/ember-$ver
P=$S/pkg
have_empower=no
[ -d "$TOP/empower" ] && have_empower=yes

for sub in ember-doc ember-bash-completion ember-zsh-completion ember-caps ember-modload \
	ember-netnat ember-boot-measure ember-empower ember-dbus ember-udev; do
	if ! grep -qx "split-failed $sub" "$T/split.log"; then
		pass "split-$sub"
	elif [ "$sub" = ember-empower ] && [ $have_empower = no ]; then
		skip "split-$sub" "empower/ is not in the tree yet, so usr/bin/empower and usr/sbin/empowerd do not exist"
	else
		fail "split-$sub" "$(grep -A3 -i "error" "$T/split.log" | head -n 4 | tr '\n' ' ')"
	fi
done

# Every file of every package, as "PACKAGE PATH".
(cd "$P" && for d in */; do d=${d%/}; (cd "$d" && find . ! -type d | sed "s|^\.|$d |"); done) | sort >"$T/files"
owner() { awk -v p="$1" '$2 == p { print $1 }' "$T/files" | tr '\n' ' ' | sed 's/ $//'; }

# Each program the build made is in exactly one package, the one it should be in.
want_pkg() {
	case $1 in
	ember-init|emberctl|ember-busname-wait|ember-sandbox|ember-session) echo ember ;;
	ember-caps) echo ember-caps ;;
	ember-modload) echo ember-modload ;;
	netnat) echo ember-netnat ;;
	boot-measure) echo ember-boot-measure ;;
	empower|empowerd) echo ember-empower ;;
	ember-activator) echo ember-dbus ;;
	ember-udev-wants) echo ember-udev ;;
	*) echo "(no package: add it to the APKBUILD)" ;;
	esac
}
for f in "$B"/out/bin/*; do
	name=${f##*/}
	paths=$(grep -E " /(usr/)?s?bin/$name\$" "$T/files" | awk '{print $1":"$2}' | tr '\n' ' ')
	n=$(grep -cE " /(usr/)?s?bin/$name\$" "$T/files")
	want=$(want_pkg "$name")
	if [ "$n" = 1 ] && [ "${paths%%:*}" = "$want" ]; then pass "binary-$name-in-$want"
	else fail "binary-$name-in-$want" "found $n time(s): $paths"; fi
done
# The programs that must exist. Empower's absence is tolerated only while its source
# folder is absent.
expect_path() { # PACKAGE PATH
	[ "$(owner "$2")" = "$1" ] && pass "path-$2" || fail "path-$2" "expected in $1, found in: $(owner "$2")"
}
expect_path ember /usr/sbin/ember-init
expect_path ember /usr/bin/emberctl
expect_path ember-caps /usr/sbin/ember-caps
expect_path ember-modload /usr/sbin/ember-modload
expect_path ember-netnat /usr/sbin/netnat
expect_path ember-boot-measure /usr/sbin/boot-measure
expect_path ember-dbus /usr/sbin/ember-activator
expect_path ember-udev /usr/sbin/ember-udev-wants
expect_path ember-udev /usr/lib/ember/services/ember-udev-wants.service
expect_path ember-udev /usr/lib/ember/services/systemd-udevd.service.wants/ember-udev-wants.service
expect_path ember-dbus /usr/lib/ember/services/ember-activator.service
expect_path ember-dbus /usr/lib/ember/services/ember-private.socket
expect_path ember-dbus /usr/lib/ember/services/ember-private@.service
expect_path ember-dbus /usr/lib/ember/services/dbus.service.wants/ember-activator.service
expect_path ember-dbus /usr/share/dbus-1/system.d/ember-activator.conf
if [ $have_empower = yes ]; then
	expect_path ember-empower /usr/bin/empower
	expect_path ember-empower /usr/sbin/empowerd
else
	skip path-empower "empower/ is not in the tree yet"
fi

# Man pages (compressed) in -doc, completions in theirs: one per source file.
for m in "$B"/man/*.scd; do
	m=${m##*/}; m=${m%.scd}
	expect_path ember-doc "/usr/share/man/man${m##*.}/$m.gz"
done
for c in "$B"/completions/bash/*; do
	expect_path ember-bash-completion "/usr/share/bash-completion/completions/${c##*/}"
done
for c in "$B"/completions/zsh/_*; do
	expect_path ember-zsh-completion "/usr/share/zsh/site-functions/${c##*/}"
done
expect_path ember-doc /usr/share/doc/ember/examples/services/sshd.service
expect_path ember-doc /usr/share/licenses/ember/LICENSE

# The split is complete: what stays in the main package is ember-init, its helpers
# (ember-busname-wait, ember-sandbox, ember-session), emberctl and the service directories.
left=$(awk '$1 == "ember" && $2 != "/usr/sbin/ember-init" && $2 != "/usr/bin/emberctl" &&
	$2 != "/usr/sbin/ember-busname-wait" && $2 != "/usr/sbin/ember-sandbox" &&
	$2 != "/usr/sbin/ember-session" { print $2 }' "$T/files" | tr '\n' ' ')
[ -z "$left" ] && pass nothing-unassigned || fail nothing-unassigned "left in the main package: $left"
for d in etc/ember/services usr/lib/ember/services; do
	[ -d "$P/ember/$d" ] && pass "dir-$d" || fail "dir-$d" "not in the main package"
done
# Each subpackage's metadata.
grep -qx 'install_if=ember=0.1.0-r0 bash-completion' "$P/ember-bash-completion.meta" 2>/dev/null &&
	pass bash-completion-install-if || fail bash-completion-install-if "$(cat "$P/ember-bash-completion.meta" 2>&1)"
if [ -f "$P/ember-empower.meta" ]; then
	grep -q '^depends=ember-caps=' "$P/ember-empower.meta" && pass empower-depends-on-caps ||
		fail empower-depends-on-caps "$(cat "$P/ember-empower.meta")"
fi

# No setuid or setgid file, and only regular files, symlinks and directories.
suid=$(find "$P" \( -perm -4000 -o -perm -2000 \) -print | sed "s|^$P/||")
[ -z "$suid" ] && pass no-suid || fail no-suid "$suid"
odd=$(find "$P" ! -type f ! -type d ! -type l -print)
[ -z "$odd" ] && pass only-files-and-dirs || fail only-files-and-dirs "$odd"

# The libc-only programs are static musl binaries, as on Alpine.
for name in ember-init emberctl ember-modload; do
	f=$(awk -v n="$name" '$2 ~ "^/(usr/)?s?bin/"n"$" { print $1 $2 }' "$T/files")
	if [ -z "$f" ]; then fail "static-$name" "not packaged"; continue; fi
	d=$(file -b "$P/$f")
	case $d in *"statically linked"*|*"static-pie linked"*) pass "static-$name" ;; *) fail "static-$name" "$d" ;; esac
done
finish
