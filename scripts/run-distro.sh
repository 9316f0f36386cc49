#!/bin/sh
# Boot the Debian disk of scripts/distro-image.sh under QEMU with ember-init or with the
# distribution's systemd as PID 1. The serial console is stdio; the guest's SSH port is
# forwarded to 127.0.0.1:$EMBER_SSH_PORT (default 2222). The guest reaches nothing beyond
# QEMU's own DHCP (restrict=on): chrony's pool, apt's timers and the like stay offline.
#   run-distro.sh DIR [ember|systemd] [-- EXTRA QEMU ARGS...]
# `make run-distro` builds DIR=out/distro and boots it with ember (INIT=systemd for the
# other one). Leave with `poweroff` in the guest, or Ctrl-A X.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
dir=$1; shift
which=ember
if [ $# -gt 0 ] && [ "$1" != -- ]; then which=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
case $which in
ember) init=init=/usr/sbin/ember-init ;;
systemd) init="" ;;
*) echo "run-distro: ember or systemd, not $which" >&2; exit 100 ;;
esac
kdir=$("$TOP"/scripts/kernel.sh)
port=${EMBER_SSH_PORT:-2222}
exec ${QEMU:-qemu-system-x86_64} -accel "${EMBER_QEMU_ACCEL:-tcg}" \
	-m "${QEMU_MEM:-1024M}" -smp "${QEMU_SMP:-2}" -nographic -no-reboot \
	-kernel "$kdir/vmlinuz" -initrd "$dir/initramfs.cpio" \
	-drive file="$dir/disk.img",format=raw,if=virtio \
	-netdev user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:"$port"-:22 -device virtio-net-pci,netdev=n0 \
	-append "console=ttyS0 root=/dev/vda panic=-1 loglevel=4 $init ${EMBER_APPEND:-}" "$@"
