#!/bin/sh
# Make the bootable Debian disk ember and systemd both boot (issue: a real distribution):
# a copy of the cached root file system (scripts/rootfs.sh) with ember installed as a
# package would install it, the kernel's modules, an SSH key for the host, and the few
# overrides distro/debian/README.md lists; then an ext4 image of it and the initramfs
# that mounts it.
#   distro-image.sh OUTDIR [--key PUBKEY]
# Writes OUTDIR/disk.img (ext4, sparse), OUTDIR/initramfs.cpio. Boot with
# scripts/run-distro.sh.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
out=$1; shift
key=""
while [ $# -gt 0 ]; do
	case $1 in
	--key) key=$2; shift 2 ;;
	*) echo "distro-image: unknown option $1" >&2; exit 100 ;;
	esac
done
tree=$("$TOP"/scripts/rootfs.sh)
kdir=$("$TOP"/scripts/kernel.sh)
release=$(basename "$kdir")
mkdir -p "$out"
root=$out/root
rm -rf "$root"
cp -a "$tree" "$root"
rm -f "$root/.done"

# ember as its package installs it; /sbin/init stays the distribution's (systemd).
make -C "$TOP" -s install DESTDIR="$root" PREFIX=/usr INITDIR=/usr/sbin >/dev/null
# The kernel QEMU boots is the cached Debian one: its modules go where kmod looks.
mkdir -p "$root/usr/lib/modules"
rm -rf "$root/usr/lib/modules/$release"
cp -a "$kdir/lib/modules/$release" "$root/usr/lib/modules/$release"

# Overrides (each one is listed with its reason in distro/debian/README.md).
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$root/etc/fstab"
echo ember-debian >"$root/etc/hostname"
# The serial login that systemd's getty generator would make at run time: an enablement
# link, the way `systemctl enable serial-getty@ttyS0` makes it, so both inits see it.
mkdir -p "$root/etc/systemd/system/getty.target.wants"
ln -sfn /lib/systemd/system/serial-getty@.service \
	"$root/etc/systemd/system/getty.target.wants/serial-getty@ttyS0.service"
if [ -n "$key" ]; then
	install -d -m 0700 "$root/root/.ssh"
	install -m 0600 "$key" "$root/root/.ssh/authorized_keys"
fi

# Size: what the tree holds plus room to write.
mb=$(du -sm "$root" | cut -f1)
rm -f "$out/disk.img"
mke2fs -q -t ext4 -L ember-root -d "$root" "$out/disk.img" "$((mb + 768))M"
rm -rf "$root"
"$TOP"/scripts/mkinitramfs.sh "$out/initramfs.cpio" --init "$TOP/distro/debian/initramfs-init" \
	--modules "virtio_pci virtio_blk crc32c_generic ext4"
