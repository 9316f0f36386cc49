#!/bin/sh
# ember's integration with Debian, into ROOT (/ on a running Debian system, a staging tree
# for an image), once `make install` has put ember there: what makes Debian's own tools,
# init scripts and packages work with ember-init as PID 1. distro/debian/README.md lists
# each piece and why. None of them acts while systemd is PID 1, so the system still boots
# with either init.
#   distro/debian/install.sh ROOT [EMBERCTL]       (make install-debian DESTDIR=ROOT)
# EMBERCTL: the emberctl that makes the enablement links (default: ROOT's own).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: distro/debian/install.sh ROOT [EMBERCTL]}
ctl=${2:-$root/usr/bin/emberctl}
if [ ! -d "$root/etc/dpkg" ] || [ ! -d "$root/usr/lib/ember" ]; then
	echo "install-debian: $root is no Debian system with ember installed (no /etc/dpkg or /usr/lib/ember; run make install first)" >&2
	exit 1
fi
# systemd's private socket, where systemd's utmp recorder asks the manager before the
# system bus is up (docs/dbus.md) ...
"$ctl" --root "$root" -q enable ember-private.socket
# ... systemd's ManagedOOM Varlink service, which systemd-oomd asks at its start (the
# link waits in systemd-oomd.service.wants/ until systemd-oomd is installed) ...
"$ctl" --root "$root" -q enable ember-managed-oom.socket
# ... systemd's dynamic user database, where nss-systemd asks for the names of
# DynamicUser= services' users ...
"$ctl" --root "$root" -q enable ember-userdb.socket
# ... the units Debian's udev rules ask for (SYSTEMD_WANTS=: bluetooth.target when a
# controller appears, systemd-backlight@, systemd-rfkill), started as systemd would ...
"$ctl" --root "$root" -q enable ember-udev-wants
# ... and D-Bus activation through ember: dbus runs with --systemd-activation, as shipped.
"$ctl" --root "$root" -q enable ember-activator
# Debian's poweroff/reboot (systemctl, falling back to /run/initctl) reach ember-init.
install -D -m 0755 "$here/ember-initctl" "$root/usr/lib/ember/ember-initctl"
mkdir -p "$root/etc/ember/services/systemd-initctl.service.d"
printf '[Service]\nExecStart=\nExecStart=/usr/lib/ember/ember-initctl\n' \
	>"$root/etc/ember/services/systemd-initctl.service.d/ember.conf"
# Init scripts run by hand or by invoke-rc.d (a package upgrade's restart) act through
# ember-init on their unit, as Debian's 40-systemd hook does under systemd.
install -D -m 0644 "$here/lsb-init-functions-ember" "$root/usr/lib/lsb/init-functions.d/39-ember"
# A package installed or removed under ember has its enabled unit started or its removed
# one stopped, and an upgraded one's running units restart as its postinst asks, as its
# maintainer scripts do under systemd (only with /run/systemd/system).
install -D -m 0755 "$here/dpkg-post-invoke-ember" "$root/usr/lib/ember/dpkg-post-invoke"
install -D -m 0755 "$here/dpkg-status-logger-ember" "$root/usr/lib/ember/dpkg-status-logger"
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
printf 'status-logger=/usr/lib/ember/dpkg-status-logger\npost-invoke=/usr/lib/ember/dpkg-post-invoke\n' \
	>"$root/etc/dpkg/dpkg.cfg.d/ember"
# invoke-rc.d and service act on a unit that has no init script through ember-init, as
# they act through systemctl under systemd (a trigger's restart, `service NAME restart`);
# Debian's own, diverted to NAME.distrib, do the rest and take the package's updates.
install -D -m 0755 "$here/rc-tools-ember" "$root/usr/lib/ember/rc-tools"
for tool in invoke-rc.d service; do
	dpkg-divert --root "$root" --local --rename --divert "/usr/sbin/$tool.distrib" \
		--add "/usr/sbin/$tool" >/dev/null
	ln -sfn ../lib/ember/rc-tools "$root/usr/sbin/$tool"
done
