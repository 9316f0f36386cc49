#!/bin/sh
# PID 1's memory stays bounded: RSS with N idle services up (N: the idle*.service files,
# 10 or 50), then, with 50, again after the crasher was restarted 1000 times.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
rss() { sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' /proc/1/status; }
field() { emberctl --json status "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
# Only emergencies on the console from here: the crasher's exit, logged by ember-init
# through the kernel log, once landed inside a MEASURE line and broke the host's parse.
echo 1 >/proc/sys/kernel/printk
n=$(ls /etc/ember/services/idle*.service | wc -l)
i=0; while [ "$(emberctl list | grep -c ' ready ')" -lt "$n" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
up=$(emberctl list | grep -c ' ready ')
[ "$up" -ge "$n" ] && ok "services-ready-$n" || bad "services-ready-$n" "$up of $n ready"
before=$(rss)
# PID 1's tables (its largest mapping, the .bss) are opted out of transparent huge pages:
# with them, each 2 MiB span holding one touched page would be resident in full.
nohuge=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { rw = $2 ~ /^rw/ }
	/^Size:/ { size = $2 } /^AnonHugePages:/ { huge += $2 }
	/^VmFlags:/ { if (rw && size > best) { best = size; nh = / nh/ } }
	END { print (nh ? "nh" : "no-nh") " " huge + 0 }' /proc/1/smaps)
[ "$nohuge" = "nh 0" ] && ok "tables-without-huge-pages-$n" ||
	bad "tables-without-huge-pages-$n" "largest writable mapping and AnonHugePages: $nohuge"
echo "MEASURE pid1_rss_kb_${n}_services=$before"
[ "$n" -ge 50 ] || exit 0
i=0; while [ "$(field crasher restarts)" -lt 1000 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
r=$(field crasher restarts)
[ "$r" -ge 1000 ] && ok thousand-restarts || bad thousand-restarts "only $r restarts"
after=$(rss)
echo "MEASURE pid1_rss_kb_after_${r}_restarts=$after"
[ $((after - before)) -le 64 ] && ok rss-bounded || bad rss-bounded "RSS grew from $before to $after kB"
# Every slot users may hold at once (ctl-hog as four users, four slots each, 3 s; silent
# ones are dropped 2 s after they connect, followers when it exits): each slot's 4 KiB
# reply buffer goes back when the slot closes, so PID 1 ends where it began (before, it
# kept the pages of every slot a burst had used, for good: 64 kB here).
before=$(rss)
for u in 65534 1000 1001 1002; do
	/test/ctl-hog -u $u 3 /run/ember/control /run/ember/notify idle1 >/tmp/hog.$u 2>&1 &
done
wait
cat /tmp/hog.* >/tmp/hog.out
sleep 1
after=$(rss)
echo "MEASURE pid1_rss_kb_after_control_burst=$after"
[ "$(grep -c 'ctl-hog: [0-9]* connection attempts' /tmp/hog.out)" = 4 ] && ok control-burst-ran || bad control-burst-ran "$(cat /tmp/hog.out)"
[ $((after - before)) -le 16 ] && ok control-slots-given-back ||
	bad control-slots-given-back "RSS $before kB before the burst, $after kB after"
exit 0
