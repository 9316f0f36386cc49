#!/bin/sh
# A service's probe for tests/qemu/test-execmore-bpf.sh: what it may open and reach.
# an HTTP GET with nc (busybox wget may be missing or broken)
get() { printf 'GET /probe.txt HTTP/1.0\r\n\r\n' | nc -w 3 "$1" 8080 | grep -q probe-ok; }
try() { if (eval "$2") >/tmp/probe.$$ 2>&1; then echo "$1=yes"; else echo "$1=no"; fi; }
for what in "$@"; do
	case $what in
	devices)
		try read-zero 'head -c 1 /dev/zero | wc -c | grep -q 1'
		try write-null 'echo x >/dev/null'
		try read-kmsg 'exec 3</dev/kmsg'
		;;
	net)
		i=0; while [ ! -e /run/net-ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
		try local 'get 127.0.0.1'
		try remote 'get 10.9.0.1'
		try other 'get 10.8.0.1'
		;;
	esac
done
echo probe-done
exec sleep 1000
