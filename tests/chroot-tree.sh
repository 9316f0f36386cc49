#!/bin/sh
# chroot-tree.sh DIR: a chroot at DIR, as image builders make one on a running system:
# the system's /usr (read-only), its /dev and /proc, and its /run and /tmp bound in (as some
# builders do, so that a tool in the chroot reaches the running init's sockets). Run in
# a mount namespace of the test's own: the mounts go with it.
set -eu
r=$1
mkdir -p "$r/usr" "$r/dev" "$r/proc" "$r/run" "$r/tmp" "$r/etc"
for d in bin sbin lib lib64; do [ -e "/$d" ] && ln -sfn "usr/$d" "$r/$d"; done
mount --bind /usr "$r/usr"
mount -o remount,bind,ro "$r/usr"
mount --bind /dev "$r/dev"
mount -t proc proc "$r/proc"
mount --bind /run "$r/run"
mount --bind /tmp "$r/tmp"
