#!/bin/sh
# `make install install-debian DESTDIR=ROOT` (distro/debian/install.sh) into a staging
# tree that looks like Debian: the init-functions hook, dpkg's hooks and their
# configuration, invoke-rc.d and service (Debian's own diverted beside them), /run/initctl's service and its drop-in, and the enablement links of the
# sockets and helpers systemd's services ask for, as the QEMU Debian disk gets them
# (scripts/distro-image.sh uses the same script). A tree that is no Debian system, or
# has no ember installed, is refused and left as it was.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
mkdir -p "$R/etc/dpkg/dpkg.cfg.d" "$R/var/lib/dpkg" "$R/usr/sbin"
for t in invoke-rc.d service; do printf '#!/bin/sh\necho debian %s "$@"\n' "$t" >"$R/usr/sbin/$t"; done
if ! make -C "$TOP" -s install install-debian DESTDIR="$R" PREFIX=/usr INITDIR=/usr/sbin >"$tmp/make.log" 2>&1; then
	fail install-debian "$(tail -5 "$tmp/make.log" | tr '\n' ' ')"
	finish
fi
pass install-debian
for f in usr/lib/lsb/init-functions.d/39-ember usr/lib/ember/dpkg-post-invoke \
	usr/lib/ember/dpkg-status-logger usr/lib/ember/ember-initctl \
	etc/ember/services/systemd-initctl.service.d/ember.conf etc/dpkg/dpkg.cfg.d/ember; do
	[ -s "$R/$f" ] || { fail "installed-$(basename "$f")" "missing $f"; continue; }
	pass "installed-$(basename "$f")"
done
[ -x "$R/usr/lib/ember/dpkg-post-invoke" ] && [ -x "$R/usr/lib/ember/dpkg-status-logger" ] &&
	[ ! -x "$R/usr/lib/lsb/init-functions.d/39-ember" ] && pass modes || fail modes "$(ls -l "$R/usr/lib/ember" "$R/usr/lib/lsb/init-functions.d")"
[ "$(cat "$R/etc/dpkg/dpkg.cfg.d/ember")" = "status-logger=/usr/lib/ember/dpkg-status-logger
post-invoke=/usr/lib/ember/dpkg-post-invoke" ] && pass dpkg-configuration || fail dpkg-configuration "$(cat "$R/etc/dpkg/dpkg.cfg.d/ember")"
for u in ember-private.socket ember-managed-oom.socket ember-userdb.socket ember-udev-wants.service ember-activator.service; do
	link=$(find "$R/etc/ember/services" -name "$u" -path '*.wants/*' | head -n 1)
	[ -n "$link" ] && pass "enabled-$u" || fail "enabled-$u" "no link in $(ls "$R/etc/ember/services" | tr '\n' ' ')"
done

# invoke-rc.d and service: ember's, with Debian's own diverted beside them, also when
# installed a second time (Debian's are not lost under ember's)
make -C "$TOP" -s install-debian DESTDIR="$R" PREFIX=/usr INITDIR=/usr/sbin >"$tmp/make2.log" 2>&1 ||
	fail install-debian-again "$(tail -5 "$tmp/make2.log" | tr '\n' ' ')"
for t in invoke-rc.d service; do
	if [ "$(readlink -f "$R/usr/sbin/$t")" = "$(readlink -f "$R/usr/lib/ember/rc-tools")" ] &&
		[ -x "$R/usr/lib/ember/rc-tools" ] && grep -q "^echo debian $t" "$R/usr/sbin/$t.distrib" &&
		dpkg-divert --root "$R" --list "/usr/sbin/$t" | grep -q "to /usr/sbin/$t.distrib"; then
		pass "diverted-$t"
	else
		fail "diverted-$t" "$(ls -l "$R/usr/sbin" | tr '\n' ' '); $(dpkg-divert --root "$R" --list 2>&1)"
	fi
done

# no Debian (no /etc/dpkg), no ember installed: refused, nothing written
mkdir -p "$tmp/plain/usr/lib/ember" "$tmp/bare/etc/dpkg"
for t in plain bare; do
	before=$(find "$tmp/$t" | sort)
	if sh "$TOP/distro/debian/install.sh" "$tmp/$t" "$BIN/emberctl" >"$tmp/out" 2>&1; then
		fail "refuses-$t" "accepted"
	else
		[ "$(find "$tmp/$t" | sort)" = "$before" ] && grep -q "no Debian system with ember installed" "$tmp/out" &&
			pass "refuses-$t" || fail "refuses-$t" "$(cat "$tmp/out")"
	fi
done
finish
