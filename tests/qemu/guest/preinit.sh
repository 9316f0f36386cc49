#!/bin/sh
# Stands in for an initramfs that mounts some API file systems itself, cgroup2 with
# fewer options, then hands over to ember-init.
/bin/mount -t proc -o nosuid,nodev,noexec proc /proc
/bin/mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
/bin/mount -t devtmpfs -o nosuid,mode=0755 devtmpfs /dev
/bin/mkdir -p /sys/fs/cgroup
/bin/mount -t cgroup2 -o nosuid,nodev,noexec,nsdelegate cgroup2 /sys/fs/cgroup
exec /sbin/ember-init
