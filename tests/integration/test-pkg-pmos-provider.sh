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

for f in APKBUILD postmarketos-base-ember.post-install postmarketos-base-ember.pre-deinstall pmos-serial-getty pmos-zram-swap pmos-tmpfs pmos-usb-networking pmos-deviceinfo; do
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
apk() { env -i bash -c '. "$1"; eval "$2"' _ "$D/APKBUILD" "$1"; }
svc_pkgs=$(apk 'echo $_svc_packages')
base_units=$(apk 'for s in $_services; do echo "$s"; done')
pkg_units=$(apk 'for p in $_svc_packages; do eval "echo \$_svc_$p"; done' | tr ' ' '\n')
listed=$(printf '%s\n%s\n' "$base_units" "$pkg_units" | sed '/^$/d' | sort)
present=$(cd "$D" && ls ./*.service | sed 's|^\./||' | sort)
[ "$listed" = "$present" ] && pass every-service-file-packaged ||
	fail every-service-file-packaged "in _services and _svc_*: $(echo $listed); in the folder: $(echo $present)"

# The services a phone needs are there: the base set, and one for every service the
# OpenRC flavour enables (postmarketos-base-openrc and the UI's -openrc subpackages).
for s in udevd udev-trigger networking getty-tty1 serial-getty-setup localmount modules sshd sshd-keygen \
	deferred-initcalls swapfile zram-swap tmpfs usb-networking dbus NetworkManager ModemManager \
	bluetooth iwd wpa_supplicant chronyd haveged seatd elogind greetd tinydm; do
	[ -f "$D/$s.service" ] && pass "has-$s" || fail "has-$s" "no $s.service"
done

# Every file passes emberctl verify clean: no key ember would ignore or run differently.
if [ -x "$BIN/emberctl" ]; then
	(cd "$D" && "$BIN/emberctl" verify ./*.service) >"$T/verify" 2>&1
	vrc=$?
	notclean=$(grep -v ': clean$' "$T/verify" | head -n 3 | tr '\n' ' ')
	[ $vrc = 0 ] && [ -z "$notclean" ] && [ "$(grep -c ': clean$' "$T/verify")" = "$(echo $present | wc -w)" ] &&
		pass emberctl-verify-clean || fail emberctl-verify-clean "exit $vrc: $notclean"
else
	fail emberctl-verify-clean "no $BIN/emberctl (make all)"
fi

# Readiness: the bus is ready before its clients. dbus.service says when it is ready
# (Type=dbus, notify, or a socket), and every unit that needs the bus is ordered after it.
grep -Eqx 'Type=(dbus|notify)' "$D/dbus.service" || [ -f "$D/dbus.socket" ] &&
	pass dbus-has-readiness || fail dbus-has-readiness "dbus.service: $(grep '^Type=' "$D/dbus.service" || echo 'Type=simple')"
for f in "$D"/*.service; do
	u=$(basename "$f" .service)
	grep -q '^Requires=.*\bdbus\b\|^Type=dbus' "$f" || continue
	[ "$u" = dbus ] && continue
	grep -q '^After=.*\bdbus\b' "$f" && pass "after-dbus-$u" || fail "after-dbus-$u" "needs the bus but is not ordered after dbus"
	case $(grep '^Type=' "$f") in
	Type=dbus) grep -q '^BusName=' "$f" && pass "readiness-$u" || fail "readiness-$u" "Type=dbus without BusName=" ;;
	esac
done

# ember-init's parser and graph: no warning, no error, and the order a phone needs.
SVCCHECK=$T/svccheck
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -DEMBER_VERSION='"test"' -Wall -Wextra -Werror -Wno-unused-parameter \
	-I"$TOP" -I"$TOP/lib" -I"$TOP/cgroup" -I"$TOP/init" -o "$SVCCHECK" "$HERE/pkg-svccheck.c" \
	"$TOP"/init/service-load.c "$TOP"/init/pages.c "$TOP"/init/service.c "$TOP"/init/unit-runtime-keys.c "$TOP"/init/condition.c "$TOP"/init/unit-compat.c "$TOP"/init/exec-line.c "$TOP"/init/depgraph.c "$TOP"/init/unit-targets.c "$TOP"/init/socket-unit.c \
	"$TOP"/init/unit-kinds.c "$TOP"/init/unit-kinds-run.c "$TOP"/init/unit-mount.c "$TOP"/init/unit-swap.c "$TOP"/init/rlimits.c "$TOP"/init/unit-device.c "$TOP"/init/unit-timer.c "$TOP"/init/unit-path.c "$TOP"/init/dynamic-user.c \
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
before udev-trigger NetworkManager
before dbus NetworkManager
before dbus ModemManager
before dbus elogind
before localmount sshd
before sshd-keygen sshd
before udevd seatd
before localmount udevd

# package() in abuild's layout.
S=$T/abuild
mkdir -p "$S/src"
(cd "$D" && for s in $srcs; do ln -s "$D/$s" "$S/src/$s"; done)
ASH="busybox ash"
command -v busybox >/dev/null || ASH=bash
env -u TOP -u BIN $ASH -c '. "$1"; abuild_setup "$2" "$3"; builddir=$srcdir; abuild_phase package && abuild_split' \
	_ "$HERE/pkg-abuild-shim.sh" "$S" "$D/APKBUILD" >"$T/package.log" 2>&1 &&
	pass abuild-package || fail abuild-package "$(tail -n 5 "$T/package.log" | tr '\n' ' ')"
P=$S/pkg/postmarketos-base-ember
meta() { sed -n "s/^$2=//p" "$S/pkg/$1.meta" 2>/dev/null; } # SUBPACKAGE KEY
# The main package holds the base services, each service subpackage its package's.
for s in $base_units; do
	[ -f "$P/usr/lib/ember/services/$s" ] || fail "installed-$s" "not in the main package"
done
[ "$(ls "$P/usr/lib/ember/services" 2>/dev/null | sort)" = "$(printf '%s\n' $base_units | sort)" ] &&
	pass base-services-installed || fail base-services-installed "$(ls "$P/usr/lib/ember/services" 2>&1 | tr '\n' ' ')"
for p in $svc_pkgs; do
	sub=postmarketos-base-ember-$p
	want=$(apk "echo \$_svc_$p")
	got=$(ls "$S/pkg/$sub/usr/lib/ember/services" 2>/dev/null | tr '\n' ' ')
	[ "$got" = "$want " ] && pass "subpackage-$p-has-its-service" || fail "subpackage-$p-has-its-service" "has '$got', wants '$want'"
	# Installed exactly when the provider and the package are, as PKG-openrc with openrc.
	[ "$(meta "$sub" install_if)" = "postmarketos-base-ember=0.1.0-r0 $p" ] && pass "subpackage-$p-install-if" ||
		fail "subpackage-$p-install-if" "install_if=$(meta "$sub" install_if)"
done
# The user interface's counterparts of its -openrc subpackages: the pattern, and that
# everything they pull in exists and verifies clean.
uis=$(apk 'for s in $subpackages; do echo "${s%%:*}"; done' | sed -n 's/^postmarketos-base-ember-ui/ui/p')
for want in ui ui-bluez ui-elogind ui-modemmanager ui-tinydm ui-wifi-iwd ui-wifi-wpa_supplicant ui-phosh; do
	echo "$uis" | grep -qx "$want" && pass "declares-$want" || fail "declares-$want" "no postmarketos-base-ember-$want in subpackages"
done
for ui in $uis; do
	sub=postmarketos-base-ember-$ui
	ii=$(meta "$sub" install_if)
	case $ii in
	"postmarketos-base-ember=0.1.0-r0 postmarketos-"*) pass "$ui-install-if-provider-and-ui" ;;
	*) fail "$ui-install-if-provider-and-ui" "install_if=$ii" ;;
	esac
	deps=$(meta "$sub" depends)
	[ -n "$deps" ] || fail "$ui-pulls-services" "no depends"
	for d in $deps; do
		p=${d#postmarketos-base-ember-}
		files=$(ls "$S/pkg/$d/usr/lib/ember/services/"* 2>/dev/null)
		if [ -z "$files" ]; then
			fail "$ui-pulls-$p" "$d has no service file"
		elif [ -x "$BIN/emberctl" ] && ! "$BIN/emberctl" verify $files 2>&1 | grep -qv ': clean$'; then
			pass "$ui-pulls-$p"
		else
			fail "$ui-pulls-$p" "$("$BIN/emberctl" verify $files 2>&1 | head -n 2 | tr '\n' ' ')"
		fi
	done
done
for x in pmos-serial-getty pmos-zram-swap pmos-tmpfs pmos-usb-networking; do
	[ -x "$P/usr/libexec/ember/$x" ] && pass "installed-executable-$x" ||
		fail "installed-executable-$x" "no executable /usr/libexec/ember/$x"
done
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
