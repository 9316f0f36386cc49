#!/usr/bin/env bash
# pkg/postmarketos/postmarketos-base-ember: the package that makes ember selectable as
# postmarketOS's init. Its APKBUILD (fields, provider, checksums of its files), its
# package() in a simulated abuild run, its service files through ember-init's own
# parser and dependency graph, the serial-getty generator against sample deviceinfo
# files, and the post-install / pre-deinstall switch of /sbin/init in a scratch root.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
D=$TOP/pkg/postmarketos/postmarketos-base-ember
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for f in APKBUILD postmarketos-base-ember.post-install postmarketos-base-ember.pre-deinstall pmos-serial-getty; do
	check "syntax-$f" sh -n "$D/$f"
done

val() { env -i bash -c '. "$1"; eval "printf %s \"\${$2}\""' _ "$D/APKBUILD" "$1" | tr '\n\t' '  '; }
[ "$(val provides)" = postmarketos-base-init ] && pass provides-base-init || fail provides-base-init "provides=$(val provides)"
prio=$(val provider_priority)
[ -n "$prio" ] && [ "$prio" -lt 10 ] && pass priority-below-openrc || fail priority-below-openrc "provider_priority=$prio (openrc has 10)"
deps=" $(val depends) "
for d in ember ember-modload eudev '!systemd'; do
	case $deps in *" $d "*) pass "depends-$d" ;; *) fail "depends-$d" "depends=$deps" ;; esac
done

# Checksums: every source has its line, and the files are what the lines say.
srcs=$(env -i bash -c '. "$1"; for s in $source; do echo "${s##*/}"; done' _ "$D/APKBUILD")
sums=$(env -i bash -c '. "$1"; printf "%s\n" "$sha512sums"' _ "$D/APKBUILD" | sed '/^[[:space:]]*$/d')
[ "$(printf '%s\n' "$sums" | sed 's/^[0-9a-f]\{128\}  //')" = "$srcs" ] && pass sha512sums-one-per-source ||
	fail sha512sums-one-per-source "sources and sums differ"
(cd "$D" && printf '%s\n' "$sums" | sha512sum -c --quiet -) >"$T/sumc" 2>&1 && pass sha512sums-match-files ||
	fail sha512sums-match-files "$(head -n 3 "$T/sumc" | tr '\n' ' ') (run pkg/postmarketos/checksum.sh $D)"
listed=$(env -i bash -c '. "$1"; for s in $_services; do echo "$s"; done' _ "$D/APKBUILD" | sort)
present=$(cd "$D" && ls ./*.service | sed 's|^\./||' | sort)
[ "$listed" = "$present" ] && pass every-service-file-packaged ||
	fail every-service-file-packaged "in _services: $(echo $listed); in the folder: $(echo $present)"

# The services a phone needs are there.
for s in udevd udev-trigger networkmanager networking getty-tty1 serial-getty-setup localmount modules; do
	[ -f "$D/$s.service" ] && pass "has-$s" || fail "has-$s" "no $s.service"
done

# ember-init's parser and graph: no warning, no error, and the order a phone needs.
SVCCHECK=$T/svccheck
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -DEMBER_VERSION='"test"' -Wall -Wextra -Werror -Wno-unused-parameter \
	-I"$TOP" -I"$TOP/lib" -I"$TOP/cgroup" -I"$TOP/init" -o "$SVCCHECK" "$HERE/pkg-svccheck.c" \
	"$TOP"/init/service-load.c "$TOP"/init/service.c "$TOP"/init/unit-runtime-keys.c "$TOP"/init/condition.c "$TOP"/init/unit-compat.c "$TOP"/init/exec-line.c "$TOP"/init/depgraph.c "$TOP"/init/unit-targets.c "$TOP"/init/socket-unit.c \
	"$TOP"/init/unit-kinds.c "$TOP"/init/unit-kinds-run.c "$TOP"/init/unit-mount.c "$TOP"/init/unit-device.c \
	"$TOP"/lib/*.c "$TOP"/cgroup/*.c >"$T/cc.log" 2>&1; then
	pass build-svccheck
else
	fail build-svccheck "$(head -n 5 "$T/cc.log" | tr '\n' ' ')"
	finish
fi
if "$SVCCHECK" "$D" >"$T/parse" 2>&1; then pass services-parse-cleanly
else fail services-parse-cleanly "$(grep -v '^order:' "$T/parse" | head -n 3 | tr '\n' ' ')"; fi
wave() { tr ' ' '\n' <"$T/parse" | sed -n "s/^\([0-9]*\):$1\$/\1/p"; }
before() { # A B: A starts in an earlier wave than B
	a=$(wave "$1") b=$(wave "$2")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && pass "order-$1-before-$2" ||
		fail "order-$1-before-$2" "waves: $1=$a $2=$b"
}
before udevd udev-trigger
before udev-trigger getty-tty1
before udev-trigger networkmanager
before dbus networkmanager
before localmount udevd

# package() in abuild's layout.
S=$T/abuild
mkdir -p "$S/src"
(cd "$D" && for s in $srcs; do ln -s "$D/$s" "$S/src/$s"; done)
ASH="busybox ash"
command -v busybox >/dev/null || ASH=bash
env -u TOP -u BIN $ASH -c '. "$1"; abuild_setup "$2" "$3"; builddir=$srcdir; abuild_phase package' \
	_ "$HERE/pkg-abuild-shim.sh" "$S" "$D/APKBUILD" >"$T/package.log" 2>&1 &&
	pass abuild-package || fail abuild-package "$(tail -n 5 "$T/package.log" | tr '\n' ' ')"
P=$S/pkg/postmarketos-base-ember
for s in $listed; do
	[ -f "$P/usr/lib/ember/services/$s" ] || fail "installed-$s" "not in /usr/lib/ember/services"
done
[ "$(ls "$P/usr/lib/ember/services" 2>/dev/null | wc -l)" = "$(echo $listed | wc -w)" ] &&
	pass services-installed || fail services-installed "$(ls "$P/usr/lib/ember/services" 2>&1 | tr '\n' ' ')"
[ -x "$P/usr/libexec/ember/pmos-serial-getty" ] && pass generator-installed-executable ||
	fail generator-installed-executable "no executable /usr/libexec/ember/pmos-serial-getty"
# No console root shell on an installed phone: the package's init.conf turns it off.
grep -Eq '^[[:space:]]*ember\.shell=none([[:space:]]|$)' "$P/etc/ember/init.conf" 2>/dev/null &&
	pass init-conf-no-console-shell || fail init-conf-no-console-shell "no ember.shell=none in /etc/ember/init.conf"
env -i bash -c '. "$1"; echo "$license"' _ "$D/APKBUILD" | grep -qx MIT && pass provider-license-mit ||
	fail provider-license-mit "license=$(val license)"
head -n 1 "$D/APKBUILD" | grep -Eq '^# Maintainer: [^<]*[^ <] <[^ @>]+@[^ >]+>$' && pass provider-maintainer-line ||
	fail provider-maintainer-line "$(head -n 1 "$D/APKBUILD")"
[ -z "$(find "$P" \( -perm -4000 -o -perm -2000 \))" ] && pass no-suid || fail no-suid "$(find "$P" -perm /6000)"

# The serial-getty generator.
gen() { # DEVICEINFO-FILES...: run it with a stub emberctl; output in $T/gen
	rm -rf "$T/gen"; mkdir -p "$T/gen/run"
	printf '#!/bin/sh\necho "$*" >>%s\n' "$T/gen/emberctl.calls" >"$T/gen/emberctl"
	chmod +x "$T/gen/emberctl"
	PMOS_DEVICEINFO_FILES="$*" EMBER_RUNTIME_SERVICES="$T/gen/run" EMBERCTL="$T/gen/emberctl" \
		"$D/pmos-serial-getty" >"$T/gen/out" 2>&1
}
mkdir -p "$T/di"
echo 'deviceinfo_name="Test phone"' >"$T/di/usr"
printf 'deviceinfo_getty="ttyMSM0;115200"\n' >>"$T/di/usr"
printf 'deviceinfo_getty="ttyS0;9600"\n' >"$T/di/etc"
echo 'deviceinfo_name="No serial"' >"$T/di/none"
echo 'deviceinfo_getty="../tty0;115200"' >"$T/di/bad-port"
echo 'deviceinfo_getty="ttyS0;fast"' >"$T/di/bad-baud"

if gen "$T/di/usr"; then
	grep -qx 'ExecStart=/sbin/getty -L 115200 ttyMSM0 vt100' "$T/gen/run/serial-getty.service" 2>/dev/null &&
		pass serial-getty-from-deviceinfo || fail serial-getty-from-deviceinfo "$(cat "$T/gen/run/serial-getty.service" 2>&1)"
	[ "$(cat "$T/gen/emberctl.calls" 2>/dev/null)" = reload ] && pass serial-getty-reloads ||
		fail serial-getty-reloads "emberctl calls: $(cat "$T/gen/emberctl.calls" 2>&1)"
	"$SVCCHECK" "$T/gen/run" >"$T/gparse" 2>&1 && grep -q ':serial-getty$' "$T/gparse" &&
		pass serial-getty-service-parses || fail serial-getty-service-parses "$(head -n 3 "$T/gparse" | tr '\n' ' ')"
	[ ! -e "$T/gen/run/serial-getty.service.tmp" ] && pass serial-getty-no-temp-left || fail serial-getty-no-temp-left "temp file left"
else
	fail serial-getty-from-deviceinfo "exit $?: $(cat "$T/gen/out")"
fi
gen "$T/di/usr" "$T/di/etc" && grep -q 'getty -L 9600 ttyS0 ' "$T/gen/run/serial-getty.service" 2>/dev/null &&
	pass serial-getty-etc-overrides || fail serial-getty-etc-overrides "$(cat "$T/gen/run/serial-getty.service" "$T/gen/out" 2>&1 | head -n 3)"
gen "$T/di/none" && [ ! -e "$T/gen/run/serial-getty.service" ] && [ ! -e "$T/gen/emberctl.calls" ] &&
	pass serial-getty-none-without-getty || fail serial-getty-none-without-getty "wrote a service or called emberctl"
gen "$T/di/missing-file" && [ ! -e "$T/gen/run/serial-getty.service" ] &&
	pass serial-getty-no-deviceinfo || fail serial-getty-no-deviceinfo "$(cat "$T/gen/out")"
for b in bad-port bad-baud; do
	if gen "$T/di/$b"; then fail "serial-getty-refuses-$b" "exit 0"
	elif [ -e "$T/gen/run/serial-getty.service" ] || [ -e "$T/gen/emberctl.calls" ]; then
		fail "serial-getty-refuses-$b" "wrote a service or called emberctl"
	elif ! grep -q 'deviceinfo_getty=' "$T/gen/out"; then fail "serial-getty-refuses-$b" "message: $(cat "$T/gen/out")"
	else pass "serial-getty-refuses-$b"; fi
done

# post-install and pre-deinstall in a scratch root.
R=$T/root
post() { EMBER_TEST_ROOT=$R sh "$D/postmarketos-base-ember.post-install" >"$T/post.out" 2>&1; }
pre() { EMBER_TEST_ROOT=$R sh "$D/postmarketos-base-ember.pre-deinstall" >"$T/pre.out" 2>&1; }
mkdir -p "$R/sbin" "$R/bin"
: >"$R/bin/busybox"
ln -s /bin/busybox "$R/sbin/init"
post
[ "$(readlink "$R/sbin/init")" = /usr/sbin/ember-init ] && pass post-install-selects-ember || fail post-install-selects-ember "/sbin/init -> $(readlink "$R/sbin/init")"
[ "$(cat "$R/var/lib/ember/previous-init" 2>/dev/null)" = /bin/busybox ] && pass post-install-remembers ||
	fail post-install-remembers "previous-init: $(cat "$R/var/lib/ember/previous-init" 2>&1)"
grep -q 'ember.shell=none' "$T/post.out" && pass post-install-warns-console-shell || fail post-install-warns-console-shell "$(cat "$T/post.out")"
post # again, as on an upgrade: must not remember ember-init as the previous init
[ "$(cat "$R/var/lib/ember/previous-init" 2>/dev/null)" = /bin/busybox ] && pass post-install-idempotent ||
	fail post-install-idempotent "previous-init: $(cat "$R/var/lib/ember/previous-init" 2>&1)"
pre
[ "$(readlink "$R/sbin/init")" = /bin/busybox ] && pass pre-deinstall-restores || fail pre-deinstall-restores "/sbin/init -> $(readlink "$R/sbin/init")"
[ ! -e "$R/var/lib/ember/previous-init" ] && pass pre-deinstall-cleans-state || fail pre-deinstall-cleans-state "state left"
rm -f "$R/sbin/init"
echo 'another init' >"$R/sbin/init"
post
[ ! -L "$R/sbin/init" ] && grep -q 'another init' "$R/sbin/init" && pass post-install-leaves-regular-file ||
	fail post-install-leaves-regular-file "replaced a regular /sbin/init"
rm -f "$R/sbin/init"
ln -s /bin/busybox "$R/sbin/init"
pre
[ "$(readlink "$R/sbin/init")" = /bin/busybox ] && pass pre-deinstall-leaves-other-init || fail pre-deinstall-leaves-other-init "/sbin/init -> $(readlink "$R/sbin/init")"
finish
