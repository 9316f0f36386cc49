#!/bin/sh
# `make install install-debian DESTDIR=ROOT` (distro/debian/install.sh) into a staging
# tree that looks like Debian: the init-functions hook, dpkg's hooks and their
# configuration, /run/initctl's service and its drop-in, and the enablement links of the
# sockets and helpers systemd's services ask for, as the QEMU Debian disk gets them
# (scripts/distro-image.sh uses the same script). A tree that is no Debian system, or
# has no ember installed, is refused and left as it was.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
mkdir -p "$R/etc/dpkg/dpkg.cfg.d"
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
