#!/bin/sh
# Build an initramfs with ember-init as /init, busybox, every ember program and example
# configuration. Usage:
#   mkinitramfs.sh OUT.cpio [--init ember|busybox|PATH] [--modules "m1 m2 ..."]
#                  [--file SRC:DST]... [--dir SRC:DST]...
# --init PATH installs the file PATH as /init (e.g. a script standing in for an initramfs
# that mounts things and then execs /usr/bin/ember-init).
# --modules copies those modules of the cached Debian kernel and their dependencies, and
# runs depmod for them. The archive is an uncompressed newc cpio: under TCG the kernel
# unpacks it faster than it could inflate a gzip one.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
out=$1; shift
init=ember modules="" extra_files="" extra_dirs=""
while [ $# -gt 0 ]; do
	case $1 in
	--init) init=$2; shift 2 ;;
	--modules) modules="$modules $2"; shift 2 ;;
	--file) extra_files="$extra_files $2"; shift 2 ;;
	--dir) extra_dirs="$extra_dirs $2"; shift 2 ;;
	*) echo "mkinitramfs: unknown option $1" >&2; exit 100 ;;
	esac
done

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root" # mktemp made it 0700: the image's / must be searchable by every user
mkdir -p "$root"/bin "$root"/sbin "$root"/usr/bin "$root"/usr/sbin "$root"/etc/ember \
	"$root"/proc "$root"/sys "$root"/dev "$root"/run "$root"/tmp "$root"/root "$root"/var/log
chmod 1777 "$root/tmp"
mknod -m 600 "$root/dev/console" c 5 1
mknod -m 666 "$root/dev/null" c 1 3

cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ "$applet" = busybox ] || [ "$applet" = init ] || ln -s busybox "$root/bin/$applet"
done
# ember's programs where `make install` puts them (ember-init in /sbin, daemons and
# helpers in /usr/sbin, commands in /usr/bin); from EMBER_BIN when set (the static set:
# out-static/bin), else out/bin.
"$TOP"/scripts/install.sh "$root" /usr /etc "${EMBER_BIN:-$TOP/out/bin}" "$root/.no-man" >/dev/null
rm -rf "$root/usr/share"
# Library-backed programs are dynamic on Debian (no static tss2, libmnl): bring the
# shared libraries they load, at the same paths.
for f in "$root"/sbin/* "$root"/usr/bin/* "$root"/usr/sbin/*; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	file -b "$f" | grep -q 'dynamically linked' || continue
	for lib in $(ldd "$f" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
case $init in
ember) ln -s sbin/ember-init "$root/init"; ln -s ember-init "$root/sbin/init" ;;
busybox) ln -s bin/busybox "$root/init"; ln -s ../bin/busybox "$root/sbin/init" ;;
*) [ -f "$init" ] || { echo "mkinitramfs: --init ember|busybox|FILE" >&2; exit 100; }
	cp "$init" "$root/init"; chmod 755 "$root/init"; ln -s ember-init "$root/sbin/init" ;;
esac

cp -R "$TOP"/etc/image/. "$root/etc/"
for pair in $extra_files; do
	mkdir -p "$root/$(dirname "${pair#*:}")"
	cp "${pair%%:*}" "$root/${pair#*:}"
done
for pair in $extra_dirs; do
	mkdir -p "$root/${pair#*:}"
	cp -R "${pair%%:*}"/. "$root/${pair#*:}/"
done

if [ -n "$modules" ]; then
	kdir=$("$TOP"/scripts/kernel.sh)
	release=$(basename "$kdir")
	mdir=lib/modules/$release
	mkdir -p "$root/$mdir"
	# shellcheck disable=SC2086
	for f in $(modprobe -d "$kdir" -S "$release" --show-depends -a $modules 2>/dev/null |
		sed -n 's/^insmod \([^ ]*\).*/\1/p' | sort -u); do
		rel=${f#"$kdir"/}
		mkdir -p "$root/$(dirname "$rel")"
		cp "$f" "$root/$rel"
	done
	cp "$kdir/$mdir"/modules.order "$kdir/$mdir"/modules.builtin* "$root/$mdir/" 2>/dev/null || true
	depmod -b "$root" "$release"
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
