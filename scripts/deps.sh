#!/bin/sh
# Install, idempotently, every Debian package ember needs to build, test and run.
# Only missing packages are installed; an up-to-date machine costs one dpkg query.
# Alpine equivalents are listed in docs/build.md.
set -eu

PKGS="build-essential make pkg-config file musl-tools musl-dev linux-libc-dev
libcap-dev libcap2-bin libmnl-dev libnftnl-dev libtss2-dev libcrypt-dev
qemu-system-x86 swtpm swtpm-tools tpm2-tools
nftables iproute2 kmod cpio busybox-static e2fsprogs util-linux
scdoc python3 tmux opendoas procps zsh git clang
dbus debootstrap openssh-client systemd libnss-systemd"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
