#!/bin/sh
# Make the bootable Debian disk ember and systemd both boot (issue: a real distribution):
# a copy of the cached root file system (scripts/rootfs.sh) with ember installed as a
# package would install it, the kernel's modules, an SSH key for the host, and the few
# overrides distro/debian/README.md lists; then an ext4 image of it and the initramfs
# that mounts it.
#   distro-image.sh OUTDIR [--key PUBKEY] [--extra DIR]
# --extra copies DIR's tree over the root file system (tests add their units that way).
# Writes OUTDIR/disk.img (ext4, sparse), OUTDIR/initramfs.cpio. Boot with
# scripts/run-distro.sh.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
out=$1; shift
key="" extra=""
while [ $# -gt 0 ]; do
	case $1 in
	--key) key=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
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
# A second line, for systemd's fstab generator to make a mount unit of (under either init).
printf 'tmpfs /mnt/fstab tmpfs nosuid,nodev,size=1m,mode=0755 0 0\n' >>"$root/etc/fstab"
# And one mounted on first use (the generator makes an .automount unit of it).
printf 'tmpfs /mnt/auto tmpfs nosuid,nodev,size=1m,mode=0755,x-systemd.automount 0 0\n' >>"$root/etc/fstab"
echo ember-debian >"$root/etc/hostname"
# A regular user, as a phone has (the rootfs has none): the tests' units with User= and
# PAMName= run as it. Locked: nobody logs in with it.
if ! grep -q '^embertest:' "$root/etc/passwd"; then
	echo 'embertest:x:1000:1000:ember test user:/home/embertest:/bin/sh' >>"$root/etc/passwd"
	echo 'embertest:x:1000:' >>"$root/etc/group"
	echo 'embertest:!:19000:0:99999:7:::' >>"$root/etc/shadow"
	echo 'embertest:!::' >>"$root/etc/gshadow"
	install -d -m 0750 -o 1000 -g 1000 "$root/home/embertest"
fi
# ember only (its own directories come first on its search path; systemd never reads them):
# the serial getty owns the console, so no console shell of ember's there ...
mkdir -p "$root/etc/ember/services"
printf '# The serial getty (getty.target) owns the console (distro/debian/README.md).\nember.shell=none\n' \
	>"$root/etc/ember/init.conf"
# ... and ember's integration with Debian, as `make install-debian` installs it: the
# enablement of ember's sockets and helpers systemd's services ask for, /run/initctl,
# the init-functions hook and dpkg's hooks (distro/debian/README.md).
"$TOP"/distro/debian/install.sh "$root"
if [ -n "$key" ]; then
	install -d -m 0700 "$root/root/.ssh"
	install -m 0600 "$key" "$root/root/.ssh/authorized_keys"
fi
[ -z "$extra" ] || cp -a "$extra/." "$root/"

# Size: what the tree holds plus room to write.
mb=$(du -sm "$root" | cut -f1)
rm -f "$out/disk.img"
mke2fs -q -t ext4 -L ember-root -d "$root" "$out/disk.img" "$((mb + 768))M"
rm -rf "$root"
"$TOP"/scripts/mkinitramfs.sh "$out/initramfs.cpio" --init "$TOP/distro/debian/initramfs-init" \
	--modules "virtio_pci virtio_blk crc32c_generic ext4"
