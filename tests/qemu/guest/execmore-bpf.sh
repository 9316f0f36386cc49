#!/bin/sh
# Inside the guest (cgroup2): DeviceAllow=/DevicePolicy= and IPAddressAllow=/Deny= as BPF
# programs on each service's cgroup. Each verdict is checked against control, the same
# probe without the keys, so a filter that did nothing (or too much) fails.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
# "Non-local" addresses on lo: the packets still carry them, and the filter sees them.
ip link set lo up
ip addr add 10.9.0.1/32 dev lo
ip addr add 10.8.0.1/32 dev lo
mkdir -p /tmp/www && echo probe-ok >/tmp/www/probe.txt
httpd -p 8080 -h /tmp/www
touch /run/net-ready
val() { # NAME KEY
	i=0
	while ! emberctl log "$1" | grep -q probe-done && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
	emberctl log "$1" | sed -n "s/^.*$2=//p" | head -n 1
}
is() { # CASE NAME KEY WANT
	got=$(val "$2" "$3")
	[ "$got" = "$4" ] && ok "$1" || bad "$1" "$2: $3='$got', want '$4' / $(emberctl status "$2" | tr '\n' ' ')"
}
is control-reads-zero control read-zero yes
is control-reads-kmsg control read-kmsg yes
is control-reaches-local control local yes
is control-reaches-remote control remote yes
is strict-refuses-zero devstrict read-zero no
is strict-allows-listed devstrict write-null yes
is strict-refuses-kmsg devstrict read-kmsg no
n=$(cat /proc/sys/fs/nr_open)
is nofile-infinity-is-nr-open nofileinf nofile "$n:$n:$n"
# the device program refuses mknod too: the private /dev binds the nodes instead
is strict-private-dev-allows-listed devstrictpriv write-null yes
is strict-private-dev-refuses-zero devstrictpriv read-zero no
is class-allows-read devclass read-zero yes
is class-refuses-write devclass write-null no
is closed-allows-standard devclosed read-zero yes
is closed-refuses-other devclosed read-kmsg no
is ip-allow-localhost ipfilter local yes
is ip-deny-any ipfilter remote no
is ip-deny-any-other ipfilter other no
is ip-prefix-denied ipprefix remote no
is ip-prefix-others-pass ipprefix other yes
is ip-prefix-local-passes ipprefix local yes
# the guest itself reaches the server (else the network cases above prove nothing)
printf 'GET /probe.txt HTTP/1.0\r\n\r\n' | nc -w 3 10.9.0.1 8080 | grep -q probe-ok && ok guest-reaches-server || bad guest-reaches-server "httpd or nc broken"
# AppArmorProfile=: on when the kernel has AppArmor enabled (Debian's does)
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
i=0; while [ "$(state aaoptional)" != ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
[ "$(state aaoptional)" = ready ] && ok apparmor-optional-missing-runs || bad apparmor-optional-missing-runs "$(state aaoptional)"
if [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ]; then
	i=0; while ! state aastrict | grep -q failed && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	state aastrict | grep -q failed && ok apparmor-missing-profile-fails || bad apparmor-missing-profile-fails "$(state aastrict)"
	emberctl status aastrict | grep -qi apparmor && ok apparmor-failure-named || bad apparmor-failure-named "$(emberctl status aastrict | tr '\n' ' ')"
else
	echo "EMBER-TEST SKIP apparmor-missing-profile-fails: AppArmor is not enabled in this kernel"
	[ "$(state aastrict)" = ready ] && ok apparmor-skipped-when-disabled || bad apparmor-skipped-when-disabled "$(state aastrict)"
fi
# the programs sit on the services' cgroups, nowhere else
for svc in devstrict ipfilter; do
	[ -d "/sys/fs/cgroup/ember.slice/$svc.service" ] && ok "$svc-has-cgroup" || bad "$svc-has-cgroup" "missing"
done
head -c 1 /dev/zero | wc -c | grep -q 1 && ok outside-unrestricted || bad outside-unrestricted "the guest itself lost /dev/zero"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
