#!/bin/sh
# A service's probe for tests/qemu/test-execmore-bpf.sh: what it may open and reach.
try() { if sh -c "$2" >/tmp/probe.$$ 2>&1; then echo "$1=yes"; else echo "$1=no"; fi; }
for what in "$@"; do
	case $what in
	devices)
		try read-zero 'head -c 1 /dev/zero | wc -c | grep -q 1'
		try write-null 'echo x >/dev/null'
		try read-kmsg 'exec 3</dev/kmsg'
		;;
	net)
		i=0; while [ ! -e /run/net-ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
		try local 'wget -q -T 3 -O - http://127.0.0.1:8080/probe.txt | grep -q probe-ok'
		try remote 'wget -q -T 3 -O - http://10.9.0.1:8080/probe.txt | grep -q probe-ok'
		try other 'wget -q -T 3 -O - http://10.8.0.1:8080/probe.txt | grep -q probe-ok'
		;;
	esac
done
echo probe-done
exec sleep 1000
