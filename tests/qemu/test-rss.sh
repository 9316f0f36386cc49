#!/bin/sh
# PID 1 RSS with 50 services, and after 1000 restarts of a crashing service: it must not
# grow (everything in PID 1 is statically sized).
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
svc=$QEMU_WORK/rss-services
rm -rf "$svc"; mkdir -p "$svc"
i=1
while [ $i -le 50 ]; do
	printf '[Unit]\nDescription=idle service %s\n[Service]\nExecStart=/bin/sleep 100000\n' $i >"$svc/idle$i.service"
	i=$((i + 1))
done
printf '[Unit]\nStartLimitBurst=0\n[Service]\nExecStart=/bin/false\nRestart=on-failure\nRestartSec=5ms\nRestartMaxDelaySec=5ms\n' >"$svc/crasher.service"
img=$QEMU_WORK/rss.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --dir "$svc:/etc/ember/services"
qemu_test "$img" rss 300 rss.sh
tr -d '\r' <"$QEMU_WORK/rss.log" | grep '^MEASURE '
finish
