#!/bin/sh
# The `make run` image: its services are up, modules loaded in parallel, NAT applied.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }
for s in syslogd heartbeat; do
	[ "$(state $s)" = ready ] && ok "$s-ready" || bad "$s-ready" "$(state $s)"
done
for s in modules devices nat; do
	[ "$(state $s)" = stopped ] && ok "$s-done" || bad "$s-done" "$(state $s): $(emberctl status $s)"
done
for m in nf_tables nft_masq veth; do
	grep -q "^$m " /proc/modules && ok "module-$m" || bad "module-$m" "not loaded"
done
out=$(netnat list --json)
echo "$out"
echo "$out" | grep -q '192.168.42.0/24' && ok nat-masquerade-applied || bad nat-masquerade-applied "$out"
echo "$out" | grep -q '2222' && ok nat-forward-applied || bad nat-forward-applied "$out"
emberctl list
emberctl analyze
exit 0
