#!/bin/sh
# make install: binaries, man pages, completions and example configuration.
#   install.sh DESTDIR PREFIX SYSCONFDIR BINDIR-IN-TREE MANDIR-IN-TREE
# ember-init goes to $INITDIR (default /sbin, where a kernel's init= and postmarketOS
# expect it; /usr/sbin on a merged /usr), the daemons' helpers and user commands to
# PREFIX/bin and PREFIX/sbin.
set -eu
dest=$1 prefix=$2 sysconf=$3 bin=$4 man=$5
TOP=$(cd "$(dirname "$0")/.." && pwd)

sbin_programs="ember-init ember-modload netnat boot-measure ember-caps ember-sandbox ember-session empowerd ember-busname-wait ember-activator ember-udev-wants"
for f in "$bin"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case " $sbin_programs " in
	*" $name "*) dir=$prefix/sbin ;;
	*) dir=$prefix/bin ;;
	esac
	[ "$name" = ember-init ] && dir=${INITDIR:-/sbin}
	install -D -m 0755 "$f" "$dest$dir/$name"
done
[ -d "$man" ] && for f in "$man"/*; do
	[ -f "$f" ] || continue
	sec=${f##*.}
	install -D -m 0644 "$f" "$dest$prefix/share/man/man$sec/$(basename "$f")"
done
for f in "$TOP"/completions/bash/*; do
	[ -f "$f" ] && install -D -m 0644 "$f" "$dest$prefix/share/bash-completion/completions/$(basename "$f")"
done
for f in "$TOP"/completions/zsh/_*; do
	[ -f "$f" ] && install -D -m 0644 "$f" "$dest$prefix/share/zsh/site-functions/$(basename "$f")"
done
# D-Bus activation under ember (ember-activator(8)): its unit and its bus policy. Not
# enabled here: it is for a dbus-daemon run with --systemd-activation (a systemd
# distribution's); `emberctl enable ember-activator` (or a package's link) enables it.
# The same for systemd's private socket (ember-private.socket, for root's systemd tools
# such as the utmp recorder): `emberctl enable ember-private.socket`, and for systemd's
# ManagedOOM Varlink service (systemd-oomd asks there): `emberctl enable
# ember-managed-oom.socket`, and for its dynamic user database (nss-systemd asks there):
# `emberctl enable ember-userdb.socket`.
units=$dest$prefix/lib/ember/services
install -d -m 0755 "$units"
for u in ember-activator.service ember-private.socket ember-private@.service \
	ember-managed-oom.socket ember-managed-oom@.service ember-userdb.socket \
	ember-userdb@.service; do
	sed "s|@SBINDIR@|$prefix/sbin|g" "$TOP/activator/$u" >"$units/$u"
	chmod 0644 "$units/$u"
done
# The units udev's rules ask for (ember-udev-wants(8)), for a system with systemd's udev
# rules: `emberctl enable ember-udev-wants`.
sed "s|@SBINDIR@|$prefix/sbin|g" "$TOP/udevwants/ember-udev-wants.service" >"$units/ember-udev-wants.service"
chmod 0644 "$units/ember-udev-wants.service"
install -D -m 0644 "$TOP/activator/ember-activator.conf" "$dest$prefix/share/dbus-1/system.d/ember-activator.conf"
# Example configuration: never overwrite what an administrator already has.
install -d -m 0755 "$dest$sysconf/ember/services" "$dest$prefix/lib/ember/services"
[ -f "$TOP/LICENSE" ] && install -D -m 0644 "$TOP/LICENSE" "$dest$prefix/share/licenses/ember/LICENSE"
for f in "$TOP"/etc/services/*.service; do
	[ -f "$f" ] && install -D -m 0644 "$f" "$dest$prefix/share/doc/ember/examples/services/$(basename "$f")"
done
for f in "$TOP"/etc/*.example; do
	[ -f "$f" ] && install -D -m 0644 "$f" "$dest$prefix/share/doc/ember/examples/$(basename "$f")"
done
exit 0
