#!/bin/sh
# PID 1's memory stays bounded: RSS with 50 services up, then again after the crasher
# was restarted 1000 times.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
rss() { sed -n 's/^VmRSS:[^0-9]*\([0-9]*\).*/\1/p' /proc/1/status; }
field() { emberctl --json status "$1" | sed -n "s/.*\"$2\":\([-0-9]*\).*/\1/p"; }
up=$(emberctl list | grep -c ' ready ')
[ "$up" -ge 50 ] && ok fifty-services-ready || bad fifty-services-ready "$up ready"
before=$(rss)
echo "MEASURE pid1_rss_kb_50_services=$before"
i=0; while [ "$(field crasher restarts)" -lt 1000 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
r=$(field crasher restarts)
[ "$r" -ge 1000 ] && ok thousand-restarts || bad thousand-restarts "only $r restarts"
after=$(rss)
echo "MEASURE pid1_rss_kb_after_${r}_restarts=$after"
[ $((after - before)) -le 64 ] && ok rss-bounded || bad rss-bounded "RSS grew from $before to $after kB"
exit 0
