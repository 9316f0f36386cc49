#!/bin/sh
# PID 1 RSS with 10 and with 50 idle services (two boots; the difference per unit is what
# each loaded unit costs PID 1), and after 1000 restarts of a crashing service: it must
# not grow (everything in PID 1 is statically sized); nor after a burst of control
# clients (each closed slot gives its pages back). A loaded unit must cost less than 4 kB.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
for n in 10 50; do
	svc=$QEMU_WORK/rss-services-$n
	rm -rf "$svc"; mkdir -p "$svc"
	i=1
	while [ $i -le $n ]; do
		printf '[Unit]\nDescription=idle service %s\n[Service]\nExecStart=/bin/sleep 100000\n' $i >"$svc/idle$i.service"
		i=$((i + 1))
	done
	printf '[Unit]\nStartLimitBurst=0\n[Service]\nExecStart=/bin/false\nRestart=on-failure\nRestartSec=5ms\nRestartMaxDelaySec=5ms\n' >"$svc/crasher.service"
	img=$QEMU_WORK/rss-$n.cpio
	qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --dir "$svc:/etc/ember/services" \
		--file "$HELPERS/ctl-hog:/test/ctl-hog"
	qemu_test "$img" rss-$n 300 rss.sh
	tr -d '\r' <"$QEMU_WORK/rss-$n.log" | grep 'MEASURE '
done
r10=$(tr -d '\r' <"$QEMU_WORK/rss-10.log" | sed -n 's/^.*MEASURE pid1_rss_kb_10_services=\([0-9][0-9]*\)$/\1/p')
r50=$(tr -d '\r' <"$QEMU_WORK/rss-50.log" | sed -n 's/^.*MEASURE pid1_rss_kb_50_services=\([0-9][0-9]*\)$/\1/p')
if [ -n "$r10" ] && [ -n "$r50" ]; then
	# one decimal, in shell arithmetic
	echo "MEASURE pid1_rss_kb_per_unit=$(((r50 - r10) / 40)).$(((r50 - r10) % 40 * 10 / 40))"
	# A loaded unit costs its packed service record (~2.5 kB: fixed part and text in
	# use) plus its struct unit: ~3.3 kB. A page of its own per unit (4.7 kB, until
	# 2026-12-06), whole-struct copies (11.4 kB) or a stride that straddles pages (7.6 kB)
	# fail it.
	[ $((r50 - r10)) -lt $((40 * 4)) ] && pass per-unit-cost ||
		fail per-unit-cost "$(((r50 - r10) / 40)) kB per loaded unit, 4 or more"
else
	fail per-unit-cost "no RSS figures from the guest"
fi
finish
