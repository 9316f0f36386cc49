#!/bin/sh
# empower under ember-init on the Debian 6.1 kernel: empowerd started from its service
# file, a plain user gets every capability with its own uid, sessions run in cgroups
# below empowerd.service and are stopped with it (as at shutdown). Plus the hostile cases
# where the kernel matters: TIOCSTI (ember.legacy_tiocsti=0 on a kernel without the
# setting) and core files of empowered processes.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
for f in empower empowerd ember-caps emberctl ember-init; do
	[ -x "$BIN/$f" ] || { fail empower-qemu "$BIN/$f is missing: run make"; finish; }
done
for f in pty-run tiocsti; do
	[ -x "$HELPERS/$f" ] || { fail empower-qemu "$HELPERS/$f is missing: run make"; finish; }
done
W=$(mktemp -d /tmp/empower-qemu.XXXXXX)
trap 'rm -rf "$W"' EXIT
printf 'permit nopass :wheel\n' >"$W/empower.conf"
# The daemon may write core files of any size: an empowered command must still get none.
sed 's/^\[Service\]$/[Service]\nLimitCORE=infinity/' "$TOP/etc/services/empowerd.service" \
	>"$W/empowerd.service"
chmod 0644 "$W/empower.conf"
img=$QEMU_WORK/empower.cpio
qemu_image "$img" --file "$TOP/tests/qemu/guest/empower.sh:/test/empower.sh" \
	--file "$W/empowerd.service:/etc/ember/services/empowerd.service" \
	--file "$W/empower.conf:/etc/ember/empower.conf" \
	--file "$HELPERS/pty-run:/usr/bin/pty-run" --file "$HELPERS/tiocsti:/usr/bin/tiocsti"
qemu_test "$img" empower 180 empower.sh ember.legacy_tiocsti=0
finish
