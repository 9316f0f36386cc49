#!/bin/sh
# Boot an initramfs on the cached Debian kernel under QEMU.
#   qemu-boot.sh INITRAMFS [EXTRA KERNEL ARGS] [-- EXTRA QEMU ARGS...]
# The serial console is stdio. QEMU exits when the guest powers off; with ember.run=
# the isa-debug-exit device reports the test's status as QEMU's exit code (2*status+1).
# EMBER_QEMU_ACCEL=kvm opts into KVM (it hangs on some machines; tcg is the default).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
img=$1; shift
append=""
if [ $# -gt 0 ] && [ "$1" != -- ]; then append=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
kdir=$("$TOP"/scripts/kernel.sh)
exec ${QEMU:-qemu-system-x86_64} -accel "${EMBER_QEMU_ACCEL:-tcg}" \
	-m "${QEMU_MEM:-512M}" -smp "${QEMU_SMP:-2}" -nographic -no-reboot \
	-kernel "$kdir/vmlinuz" -initrd "$img" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x01 \
	-append "console=ttyS0 panic=-1 loglevel=4 $append" "$@"
