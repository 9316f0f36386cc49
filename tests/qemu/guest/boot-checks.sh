#!/bin/sh
# Runs inside the guest as ember.run: checks what ember-init set up at boot.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; status=1; }
status=0

# mount_has TARGET FSTYPE OPTION...: exactly one mount at TARGET, of FSTYPE, with every
# OPTION among its mount or superblock options.
mount_has() {
	target=$1 fstype=$2; shift 2
	lines=$(awk -v t="$target" '$5 == t' /proc/self/mountinfo)
	n=$(printf '%s\n' "$lines" | grep -c .)
	[ "$n" = 1 ] || { bad "mount-$target" "$n mounts at $target"; return; }
	fs=$(printf '%s\n' "$lines" | sed 's/.* - //' | cut -d' ' -f1)
	[ "$fs" = "$fstype" ] || { bad "mount-$target" "type $fs, expected $fstype"; return; }
	opts=$(printf '%s\n' "$lines" | awk '{print $6}'),$(printf '%s\n' "$lines" | sed 's/.* - //' | cut -d' ' -f3)
	for o in "$@"; do
		case ",$opts," in *",$o,"*) ;; *) bad "mount-$target" "option $o missing in $opts"; return ;; esac
	done
	ok "mount-$target"
}

[ "$(readlink /proc/1/exe)" = /sbin/ember-init ] && ok pid1-is-ember-init || bad pid1-is-ember-init "$(readlink /proc/1/exe)"
mount_has /proc proc nosuid nodev noexec
mount_has /sys sysfs nosuid nodev noexec
mount_has /dev devtmpfs nosuid
mount_has /dev/pts devpts nosuid noexec
mount_has /dev/shm tmpfs nosuid nodev
mount_has /run tmpfs nosuid nodev nr_inodes=819200
# /run and /dev/shm as systemd mounts them: strictatime (no relatime among the options),
# /run at most a fifth of the memory (run-time round 9: ember's took tmpfs's half)
for t in /run /dev/shm; do
	o=$(awk -v t="$t" '$5 == t { print $6 }' /proc/self/mountinfo)
	case ",$o," in *,relatime,*) bad "strictatime-$t" "$o" ;; *) ok "strictatime-$t" ;; esac
done
run_kb=$(df -k /run | awk 'NR == 2 { print $2 }')
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
[ "$run_kb" -le $((mem_kb / 5 + 4)) ] && ok run-size-fifth-of-memory ||
	bad run-size-fifth-of-memory "/run ${run_kb} kB of ${mem_kb} kB"
mount_has /run/lock tmpfs nosuid nodev noexec size=5120k
# tmpfs's default mode 1777 is not among its options
[ "$(ls -ld /run/lock | cut -c1-10)" = drwxrwxrwt ] && ok run-lock-sticky-world-writable ||
	bad run-lock-sticky-world-writable "$(ls -ld /run/lock)"
mount_has /sys/fs/cgroup cgroup2 nosuid nodev noexec nsdelegate memory_recursiveprot
# what systemd's PID 1 mounts besides (the Debian kernel has all but efivarfs here)
mount_has /sys/kernel/security securityfs nosuid nodev noexec
mount_has /sys/fs/pstore pstore nosuid nodev noexec
mount_has /sys/fs/bpf bpf nosuid nodev noexec mode=700
[ -d /sys/firmware/efi ] || ! grep -q efivarfs /proc/self/mountinfo && ok no-efivarfs-without-efi ||
	bad no-efivarfs-without-efi "efivarfs mounted on a BIOS boot"
# lo up before any service, as systemd brings it up (a socket unit on [::1] binds)
[ $(( $(cat /sys/class/net/lo/flags) & 1 )) = 1 ] && grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 &&
	ok loopback-up || bad loopback-up "lo flags $(cat /sys/class/net/lo/flags)"
# as systemd's PID 1: datagram queues of 512, not the kernel's 10 (journald's forward to
# the syslog daemon lost 27 messages at boot on the Debian disk)
[ "$(cat /proc/sys/net/unix/max_dgram_qlen)" = 512 ] && ok unix-dgram-qlen-raised ||
	bad unix-dgram-qlen-raised "$(cat /proc/sys/net/unix/max_dgram_qlen)"

if grep -q memory_hugetlb_accounting /sys/kernel/cgroup/features 2>/dev/null; then
	mount_has /sys/fs/cgroup cgroup2 memory_hugetlb_accounting
else
	grep -q memory_hugetlb_accounting /proc/self/mountinfo &&
		bad hugetlb-absent "option shown although the kernel lacks it" || ok hugetlb-absent
	dmesg | grep -q 'memory_hugetlb_accounting unsupported by this kernel' &&
		ok hugetlb-reported-unsupported || bad hugetlb-reported-unsupported "no log line"
fi

[ "$(hostname)" = ember ] && ok hostname || bad hostname "$(hostname)"
dmesg | grep -q 'ember-init: ready' && ok ready-logged-to-kmsg || bad ready-logged-to-kmsg "no ready line in dmesg"

# /etc/ember/init.conf names the service directory.
if [ -e /etc/ember/init.conf ]; then
	i=0; while ! emberctl status from-conf >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
	emberctl status from-conf >/dev/null && ok init-conf-read || bad init-conf-read "no from-conf service"
fi

# The machine ID (the host names the one expected and where from: the VM's UUID, QEMU's
# -uuid, or systemd.machine_id=, which wins over it). The initramfs has no
# /etc/machine-id: a first boot, so the ID is mounted over the file, read-only.
want=$(sed -n 's/.*ember_test\.machine_id=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
from=$(sed -n 's/.*ember_test\.machine_id_from=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ -n "$want" ]; then
	case $from in
	firmware) line="an ID from the firmware's UUID" ;;
	*) line="the ID from the kernel command line" ;;
	esac
	got=$(cat /etc/machine-id)
	[ "$got" = "$want" ] && ok "machine-id-from-$from" || bad "machine-id-from-$from" "got '$got', expected '$want'"
	dmesg | grep -q "machine-id: $line" && ok "machine-id-from-$from-logged" ||
		bad "machine-id-from-$from-logged" "no line '$line' in dmesg"
	[ -e /run/systemd/first-boot ] && grep -q ' /etc/machine-id ' /proc/self/mountinfo &&
		ok "machine-id-first-boot-transient" || bad "machine-id-first-boot-transient" "no flag or no mount"
fi

# Orphans are re-parented to PID 1, which must reap them.
sh -c 'for i in 1 2 3 4 5; do (sleep 0.1 &) ; done'
sleep 1
zombies=$(grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l)
[ "$zombies" = 0 ] && ok orphans-reaped || bad orphans-reaped "$zombies zombies"
exit $status
