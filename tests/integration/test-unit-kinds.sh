#!/bin/sh
# Mount and device units under the real ember-init as PID 1 of a PID+mount+network
# namespace (issue 12, unit kinds):
#  - a .mount file mounted by ember, after the unit it is ordered after; the service that
#    Requires= it starts only once it is mounted, and BindsTo= stops when it is unmounted
#  - RequiresMountsFor= a path under an /etc/fstab entry: ember mounts it first
#  - hostile: a mount point a user swapped for a symlink to a root directory is refused
#  - a mount point mounted before boot satisfies Requires=; one that is neither mounted
#    nor configured fails Requires= and not Wants=; an automount with no file fails Requires=
#    (automount units are a kind of their own: tests/qemu/test-automount.sh)
#  - sys-subsystem-net-devices-X.device: a service waits for the interface (created 1.5 s
#    late by another service: the test's command runs only once the boot settled), starts
#    once it appears, stops (BindsTo=) when it is deleted; a device
#    that never comes fails Requires= after JobTimeoutSec= (a drop-in) and not Wants=,
#    is left inactive, and is active once it does appear
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/emberkinds.XXXXXX); trap 'rm -rf "$tmp"' EXIT
OWN=$tmp/etc/ember/services
mkdir -p "$OWN" "$tmp/mark" "$tmp/pre"
E=$BIN/emberctl

# Unit names of paths: systemd-escape --path (mktemp's names need no \x escapes).
esc() { printf '%s' "${1#/}" | tr / -; }
LATE=$tmp/late FST=$tmp/fst PRE=$tmp/pre ABSENT=$tmp/absent
MLATE=$(esc "$LATE").mount MPRE=$(esc "$PRE").mount MABSENT=$(esc "$ABSENT").mount
DEV=sys-subsystem-net-devices-emk0.device NEVER=sys-subsystem-net-devices-emknever.device

unit() { printf '%b' "$2" >"$1"; }
# slow.service leaves its mark itself: a oneshot is done only when its command has
# exited, so the mark exists before anything ordered After= it starts.
unit "$OWN/slow.service" "[Service]\nType=oneshot\nExecStart=/bin/sh -c 'sleep 1; touch $tmp/mark/slow-done'\nRemainAfterExit=yes\n"
unit "$OWN/$MLATE" "[Unit]\nDefaultDependencies=no\nAfter=slow.service\n[Mount]\nWhat=tmpfs\nWhere=$LATE\nType=tmpfs\nOptions=size=1m,mode=0755,nosuid\n"
unit "$OWN/on-late.service" "[Unit]\nRequires=$MLATE\nAfter=$MLATE\n[Service]\nExecStart=/bin/sh -c 'mountpoint -q $LATE && test -e $tmp/mark/slow-done && echo yes >$tmp/mark/late-seen; exec sleep 1000'\n"
unit "$OWN/bound-late.service" "[Unit]\nBindsTo=$MLATE\nAfter=$MLATE on-late.service\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/on-fstab.service" "[Unit]\nRequiresMountsFor=$FST/data/x\n[Service]\nExecStart=/bin/sh -c 'mountpoint -q $FST && echo yes >$tmp/mark/fstab-seen; exec sleep 1000'\n"
unit "$OWN/on-pre.service" "[Unit]\nRequires=$MPRE\nAfter=$MPRE\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/needs-absent.service" "[Unit]\nRequires=$MABSENT\nAfter=$MABSENT\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/wants-absent.service" "[Unit]\nWants=$MABSENT\nAfter=$MABSENT\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/via-automount.service" "[Unit]\nRequires=$(esc "$PRE").automount\nAfter=$(esc "$PRE").automount\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/maker.service" "[Service]\nExecStart=/bin/sh -c 'sleep 1.5; ip link add emk0 type bridge && touch $tmp/mark/dev-made; exec sleep 1000'\n"
unit "$OWN/on-dev.service" "[Unit]\nRequires=$DEV\nBindsTo=$DEV\nAfter=$DEV\n[Service]\nExecStart=/bin/sh -c 'ip link show emk0 >/dev/null && echo yes >$tmp/mark/dev-seen; exec sleep 1000'\n"
unit "$OWN/needs-never.service" "[Unit]\nRequires=$NEVER\nAfter=$NEVER\n[Service]\nExecStart=/bin/sleep 1000\n"
unit "$OWN/wants-never.service" "[Unit]\nWants=$NEVER\nAfter=$NEVER\n[Service]\nExecStart=/bin/sleep 1000\n"
mkdir -p "$OWN/$NEVER.d"
unit "$OWN/$NEVER.d/timeout.conf" '[Unit]\nJobTimeoutSec=2s\n'
printf '# test fstab\ntmpfs %s tmpfs size=1m,mode=0700 0 0\n' "$FST" >"$tmp/fstab"
# Hostile: a mount point in a directory a user owns (as /media/alice/usb), where that
# user replaced it by a symlink to a root directory. PID 1 walks to it with root's
# symlinks only: the mount fails, nothing lands on the root directory.
mkdir -p "$tmp/alice" "$tmp/rootonly"
ln -s "$tmp/rootonly" "$tmp/alice/usb"
chown -h nobody "$tmp/alice/usb" "$tmp/alice"
MUSB=$(esc "$tmp/alice/usb").mount
unit "$OWN/$MUSB" "[Unit]\nDefaultDependencies=no\n[Mount]\nWhat=tmpfs\nWhere=$tmp/alice/usb\nType=tmpfs\n"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$E"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() {
	i=0
	while [ \$i -lt \${3:-200} ]; do
		s=\$(state "\$1"); for want in \$2; do [ "\$s" = "\$want" ] && return 0; done
		sleep 0.05; i=\$((i+1))
	done
	return 1
}
expect() { wait_state "\$2" "\$3" && ok "\$1" || bad "\$1" "\$2 is '\$(state \$2)', expected \$3"; }
# A dependent writes its mark only if what it needs was there when it started; the mark
# itself may land a moment after the unit is up, so wait for it (bounded), not a fixed nap.
seen() { i=0; while [ \$i -lt 100 ]; do [ -e "\$1" ] && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }

expect mount-unit-mounted $MLATE ready
mountpoint -q $LATE && ok mount-unit-made-mount || bad mount-unit-made-mount "$LATE is not a mount point"
expect mount-dependent-starts on-late ready
seen $tmp/mark/late-seen && ok mount-before-dependent || bad mount-before-dependent "on-late started before the mount or before slow.service"
expect fstab-dependent-starts on-fstab ready
seen $tmp/mark/fstab-seen && ok requires-mounts-for-fstab || bad requires-mounts-for-fstab "$FST was not mounted before on-fstab"
"\$E" status on-fstab | grep -q "$(esc "$FST").mount" && ok requires-mounts-for-listed || bad requires-mounts-for-listed "\$("\$E" status on-fstab | head -20)"
expect premounted-satisfies on-pre ready
expect automount-without-file-fails-requires via-automount "invalid failed"
# the requirer never ran: inactive with the result "dependency", as systemd's start job
expect unconfigured-requires-fails needs-absent stopped
[ "\$("\$E" show -p Result --value needs-absent)" = dependency ] && ok unconfigured-requires-result ||
	bad unconfigured-requires-result "\$("\$E" status needs-absent | tail -3)"
"\$E" status $MABSENT | grep -q "neither /etc/fstab nor a .mount file" && ok unconfigured-says-why || bad unconfigured-says-why "\$("\$E" status $MABSENT | tail -3)"
expect unconfigured-wants-proceeds wants-absent ready

# BindsTo= a mount: unmounted behind ember's back, the bound service stops.
expect bound-to-mount-up bound-late ready
umount $LATE && expect bindsto-mount-gone bound-late "stopped stopping" || bad bindsto-mount-gone "umount failed"
expect mount-unit-gone $MLATE stopped

expect planted-symlink-mount-fails $MUSB failed
"\$E" status $MUSB | grep -q 'symlink root does not own' && ok planted-symlink-says-why ||
	bad planted-symlink-says-why "\$("\$E" status $MUSB | tail -3)"
mountpoint -q $tmp/rootonly && bad planted-symlink-not-followed "a tmpfs is on $tmp/rootonly" ||
	ok planted-symlink-not-followed

# The device appeared late (maker.service): its service started after, and stops when
# the device goes.
[ -e $tmp/mark/dev-made ] && ok device-made-late || bad device-made-late "maker.service did not create emk0"
expect device-appears $DEV ready
expect device-dependent-starts on-dev ready
seen $tmp/mark/dev-seen && ok device-before-dependent || bad device-before-dependent "no mark"
ip link del emk0
expect bindsto-device-gone on-dev "stopped stopping"

# A device that never comes: Requires= fails after JobTimeoutSec=, Wants= goes on. The
# device unit is left inactive, as systemd's (its start job timed out: nothing failed),
# and is active once the device does appear.
expect device-timeout-fails-requires needs-never stopped
"\$E" status $NEVER | grep -q "did not appear within 2s" && ok device-timeout-says-why || bad device-timeout-says-why "\$("\$E" status $NEVER | tail -3)"
expect device-timeout-wants-proceeds wants-never ready
expect device-timeout-leaves-it-inactive $NEVER stopped
"\$E" -q is-failed $NEVER && bad device-timeout-not-failed "is-failed says yes" || ok device-timeout-not-failed
ip link add emknever type bridge
expect device-appearing-late-is-active $NEVER ready
kill -0 1 && ok pid1-alive || bad pid1-alive gone
exit 0
EOS
chmod +x "$tmp/guest.sh"
timeout 120 unshare --pid --mount --net --uts --fork --mount-proc sh -c '
	mount --make-rprivate / && mount --bind "$1/fstab" /etc/fstab &&
	mount -t tmpfs -o size=1m tmpfs "$1/pre" || exit 99
	shift; exec env container=ember-test "$@"' sh "$tmp" \
	"$BIN/ember-init" ember.services="$OWN" ember.run="$tmp/guest.sh" ember.shell=none \
	>"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
mountpoint -q "$FST" 2>/dev/null && fail fstab-mount-stayed-in-namespace "visible outside" || pass fstab-mount-stayed-in-namespace
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
