#!/bin/sh
# ember-init started as the init of a PID namespace with nothing saying "container"
# (docker run and unshare set no container=): it must see it is one, take its options
# from its own arguments (not the host's /proc/cmdline), leave cgroup2 and the host's
# superblocks alone and run its services (before, it read the host's command line, booted
# the host's units and remounted the host's cgroup2 read-only at its shutdown). Guards in case it does not: the host's unit
# directories and /tmp are hidden behind empty tmpfs mounts, and the host's cgroup2
# options are compared before and after (and restored).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /var/tmp/ember-container.XXXXXX); trap 'rm -rf "$tmp"' EXIT # /tmp is hidden
chmod 0755 "$tmp"
mkdir -p "$tmp/services" "$tmp/bin"
# What the guest runs comes from $tmp: the checkout itself may lie below the hidden /tmp.
cp "$BIN/ember-init" "$BIN/emberctl" "$TOP/tests/integration/guest-lib.sh" "$tmp/bin/"
printf '[Service]\nType=oneshot\nExecStart=/bin/echo probe-ran\nRemainAfterExit=yes\n' \
	>"$tmp/services/probe.service"
cg2() { awk '/ - cgroup2 / { sub(/.* - cgroup2 [^ ]* /, ""); print; exit }' /proc/self/mountinfo; }
before=$(cg2)
cat >"$tmp/boot.sh" <<EOS
#!/bin/sh
set -e
for d in /run /tmp /etc/ember /etc/systemd /lib/systemd/system /usr/lib/systemd/system; do
	[ -d \$d ] && mount -t tmpfs -o mode=0755 tmpfs \$d
done
exec env -u container "$tmp/bin/ember-init" ember.services="$tmp/services" ember.run="$tmp/guest.sh" ember.shell=none
EOS
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$tmp/bin/emberctl"
. "$tmp/bin/guest-lib.sh"
has own-arguments-used probe probe-ran
grep -q ' cgroup2 ' /proc/self/mountinfo && [ "\$(grep -c ' cgroup2 ' /proc/self/mountinfo)" -gt 1 ] &&
	bad no-cgroup2-mounted "\$(grep cgroup2 /proc/self/mountinfo)" || ok no-cgroup2-mounted
echo GUEST-CHECKS-DONE
EOS
chmod +x "$tmp/boot.sh" "$tmp/guest.sh"
timeout 60 unshare --pid --mount --uts --fork --mount-proc "$tmp/boot.sh" >"$tmp/log" 2>&1
guest_results "$tmp/log" $?
# This machine may be a container itself (/.dockerenv): then that is what is named;
# tests/unit/test-container-detect.c covers each sign.
grep -Eq 'ember-init .*starting \(container mode: (pid-namespace|docker|podman)\)' "$tmp/log" &&
	pass container-seen || fail container-seen "$(head -n 3 "$tmp/log" | tr '\n' ' ')"
after=$(cg2)
if [ "$before" = "$after" ]; then
	pass host-cgroup2-options-unchanged
else
	fail host-cgroup2-options-unchanged "'$before' -> '$after' (restored)"
	mount -t cgroup2 -o "remount,$before" none "$(awk '/ - cgroup2 / { print $5; exit }' /proc/self/mountinfo)" 2>/dev/null
fi
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 40 "$tmp/log"; }
finish
