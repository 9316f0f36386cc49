#!/usr/bin/env bash
# netnat against the kernel, each case in its own network namespace: the ruleset is
# exactly the one docs/netnat.md shows (text and JSON); a pre-existing ruleset is left
# alone; refused input and refused batches leave the ruleset byte-identical; concurrent
# invocations end consistent; recovery after `nft flush ruleset`; --forwarding.
. "$(dirname "$0")/../lib.sh"
NETNAT=$BIN/netnat
DOC=$TOP/docs/netnat.md

[ "$(id -u)" -eq 0 ] || { skip netnat-ruleset "needs root"; finish; }
[ -x "$NETNAT" ] || { fail netnat-ruleset "not built (make out/bin/netnat)"; finish; }
for tool in ip nft python3; do
	command -v $tool >/dev/null || { fail netnat-ruleset "$tool missing (scripts/deps.sh installs it)"; finish; }
done

WORK=$(mktemp -d /tmp/netnat-test.XXXXXX)
NS=netnat-rs-$$
cleanup() {
	ip netns del "$NS" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
if ! ip netns add "$NS" 2>"$WORK/err"; then
	skip netnat-ruleset "cannot create a network namespace: $(cat "$WORK/err")"
	finish
fi

in_ns() { ip netns exec "$NS" "$@"; }
nn() { in_ns "$NETNAT" "$@"; }
fresh() { in_ns nft flush ruleset; }

# nft -j without metainfo and handles, one object per line (as docs/netnat.md shows it).
cat > "$WORK/norm.py" <<'PY'
import json, sys
for o in json.load(sys.stdin)["nftables"]:
    (kind, v), = o.items()
    if kind == "metainfo":
        continue
    v.pop("handle", None)
    print(json.dumps({kind: v}, sort_keys=True, separators=(",", ":")))
PY
# The fenced block between <!-- NAME:begin --> and <!-- NAME:end --> in the docs.
doc_block() {
	sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "$DOC" | sed '1,2d;$d' | sed '$d'
}
cat > "$WORK/doc.conf" <<'CONF'
# NAT for the hotspot
masquerade 192.168.42.0/24
masquerade fd00:42::/64
forward tcp 2222 192.168.42.10:22
forward udp 203.0.113.1:5353 192.168.42.11
forward tcp [2001:db8::1]:443 [fd00:42::10]:8443
CONF

# ---- the documented ruleset ------------------------------------------------------------
fresh
check apply-doc-example nn apply "$WORK/doc.conf"
doc_block netnat-ruleset-text > "$WORK/want.txt"
in_ns nft list ruleset > "$WORK/got.txt"
if [ -s "$WORK/want.txt" ] && diff -u "$WORK/want.txt" "$WORK/got.txt" > "$WORK/diff"; then
	pass ruleset-text-as-documented
else
	fail ruleset-text-as-documented "$(head -c 600 "$WORK/diff")"
fi
doc_block netnat-ruleset-json > "$WORK/want.json"
in_ns nft -j list ruleset | python3 "$WORK/norm.py" > "$WORK/got.json"
if [ -s "$WORK/want.json" ] && diff -u "$WORK/want.json" "$WORK/got.json" > "$WORK/diff"; then
	pass ruleset-json-as-documented
else
	fail ruleset-json-as-documented "$(head -c 600 "$WORK/diff")"
fi

# list prints the file's entries back, in the file format.
grep -v '^#' "$WORK/doc.conf" | sed 's/192.168.42.11$/192.168.42.11:5353/' | sort > "$WORK/want.list"
nn list | sort > "$WORK/got.list"
if diff -u "$WORK/want.list" "$WORK/got.list" > "$WORK/diff"; then pass list-round-trips
else fail list-round-trips "$(cat "$WORK/diff")"; fi
nn list > "$WORK/listed.conf"
before=$(in_ns nft -j list ruleset)
check apply-of-listed-state nn apply "$WORK/listed.conf"
[ "$before" = "$(in_ns nft -j list ruleset)" ] && pass apply-same-state-changes-nothing ||
	fail apply-same-state-changes-nothing "ruleset changed (handles or elements)"
if nn list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [t["present"] and t["intact"] for t in d["tables"]] == [True, True], d["tables"]
assert {m["prefix"] for m in d["masquerade"]} == {"192.168.42.0/24", "fd00:42::/64"}
f = {(x["protocol"], x["address"], x["port"], x["target"], x["target_port"]) for x in d["forward"]}
assert ("udp", "203.0.113.1", 5353, "192.168.42.11", 5353) in f and len(f) == 3, f
'; then pass list-json; else fail list-json "unexpected JSON: $(nn list --json)"; fi

# Adding and deleting entries changes elements only: the rules keep their handles.
rules() { in_ns nft -a list table "$1" ember_nat | grep -E 'dnat|masquerade'; }
r4=$(rules ip) r6=$(rules ip6)
nn forward add tcp 8080 192.168.42.20:80 && nn masquerade add 10.8.0.0/16 &&
	nn forward add udp '[fd00::1]:53' '[fd00:42::53]' && nn forward del tcp 2222 192.168.42.10:22
if [ "$r4" = "$(rules ip)" ] && [ "$r6" = "$(rules ip6)" ] &&
	in_ns nft list map ip ember_nat fwd_port | grep -q 'tcp . 8080 : 192.168.42.20 . 80' &&
	! in_ns nft list map ip ember_nat fwd_port | grep -q 2222; then
	pass entries-change-elements-not-rules
else
	fail entries-change-elements-not-rules "rules or elements differ: $(in_ns nft -a list ruleset | head -c 400)"
fi

# ---- the rest of the ruleset is left alone --------------------------------------------
fresh
cat > "$WORK/other.nft" <<'NFT'
table inet filter {
	set blocked { type ipv4_addr; elements = { 198.51.100.7 } }
	chain input { type filter hook input priority filter; policy accept; ip saddr @blocked drop; }
	chain forward { type filter hook forward priority filter; policy accept; ct state established,related accept; }
}
table ip nat {
	chain postrouting { type nat hook postrouting priority srcnat; policy accept; oifname "wwan0" masquerade; }
}
table ip6 ember_nat_not_ours {
	chain c { type filter hook output priority 0; policy accept; }
}
NFT
in_ns nft -f "$WORK/other.nft"
others() { in_ns nft -a list table inet filter; in_ns nft -a list table ip nat; in_ns nft -a list table ip6 ember_nat_not_ours; }
others > "$WORK/others.before"
nn apply "$WORK/doc.conf" && nn masquerade add 10.9.0.0/16 && nn forward del tcp 2222 192.168.42.10:22 &&
	nn list >/dev/null && nn flush
others > "$WORK/others.after"
if cmp -s "$WORK/others.before" "$WORK/others.after" && ! in_ns nft list tables | grep -qx 'table ip ember_nat'; then
	pass other-tables-untouched
else
	fail other-tables-untouched "$(diff "$WORK/others.before" "$WORK/others.after" | head -c 400)"
fi
tables=$(in_ns nft list tables | tr '\n' ' ')
[ "$tables" = "table inet filter table ip nat table ip6 ember_nat_not_ours " ] &&
	pass flush-removes-only-ember-tables || fail flush-removes-only-ember-tables "tables left: $tables"

# ---- bad input and refused batches change nothing --------------------------------------
fresh
nn apply "$WORK/doc.conf"
in_ns nft -f "$WORK/other.nft"
snapshot() { in_ns nft -a list ruleset; in_ns nft -j list ruleset; }
snapshot > "$WORK/before"
same_ruleset() { snapshot > "$WORK/after"; cmp -s "$WORK/before" "$WORK/after"; }

# expect_code NAME CODE CMD...: the command exits CODE and the ruleset stays byte-identical.
expect_code() {
	local name=$1 want=$2 got
	shift 2
	"$@" > "$WORK/out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name" "exit $got, wanted $want: $(head -c 300 "$WORK/out")"
	elif ! same_ruleset; then
		fail "$name" "ruleset changed: $(diff "$WORK/before" "$WORK/after" | head -c 300)"
	elif [ "$want" -ne 0 ] && ! grep -q '^netnat: ' "$WORK/out"; then
		fail "$name" "no error message"
	else
		pass "$name"
	fi
}
{ seq 1 200 | sed 's/.*/forward tcp & 10.1.0.1/'; echo 'masquerade 10.0.0.0/33'; } > "$WORK/bad-last.conf"
expect_code file-with-one-bad-entry 1 nn apply "$WORK/bad-last.conf"
expect_code check-finds-bad-entry 1 nn check "$WORK/bad-last.conf"
printf 'masquerade 10.0.0.0/24\nforward tcp 80 10.0.0.2\nmasquerade 10.0.0.0/24\n' > "$WORK/dup.conf"
expect_code file-with-duplicate 1 nn apply "$WORK/dup.conf"
printf 'masquerade 10.0.0.0/8\nmasquerade 10.20.0.0/16\n' > "$WORK/overlap.conf"
expect_code file-with-overlap 1 nn apply "$WORK/overlap.conf"
printf 'forward tcp 80 10.0.0.2\nforward tcp 80 10.0.0.3\n' > "$WORK/twice.conf"
expect_code file-with-two-targets-for-one-port 1 nn apply "$WORK/twice.conf"
python3 -c 'print("masquerade 10.0.0.0/24" + " " * 600)' > "$WORK/longline.conf"
expect_code file-with-overlong-line 1 nn apply "$WORK/longline.conf"
head -c 1100000 /dev/zero | tr '\0' '#' > "$WORK/huge.conf"
expect_code file-too-large 1 nn apply "$WORK/huge.conf"
printf 'masquerade 10.0.0.0/24\n\0\n' > "$WORK/nul.conf"
expect_code file-with-nul 1 nn apply "$WORK/nul.conf"
head -c 3000 /dev/urandom > "$WORK/garbage.conf"
expect_code file-of-garbage 1 nn apply "$WORK/garbage.conf"
expect_code missing-file 111 nn apply "$WORK/does-not-exist"
expect_code bad-prefix 1 nn masquerade add 10.0.0.0/33
expect_code host-bits 1 nn masquerade add 192.168.42.1/24
expect_code port-zero 1 nn forward add tcp 0 10.0.0.2
expect_code port-65536 1 nn forward add tcp 80 10.0.0.2:65536
expect_code bad-protocol 1 nn forward add icmp 80 10.0.0.2
expect_code bad-address 1 nn forward add tcp 80 10.0.0.256
expect_code mixed-families 1 nn forward add tcp 10.0.0.1:80 '[fd00::2]:80'
expect_code duplicate-add 2 nn masquerade add 192.168.42.0/24
expect_code overlapping-add 2 nn masquerade add 192.168.0.0/16
expect_code other-target-same-port 2 nn forward add tcp 2222 192.168.42.99:22
expect_code delete-missing 2 nn forward del tcp 9999 192.168.42.10
expect_code delete-wrong-target 2 nn forward del tcp 2222 192.168.42.10:23
expect_code unknown-command 100 nn frobnicate
expect_code missing-argument 100 nn masquerade add
expect_code extra-argument 100 nn masquerade add 10.0.0.0/8 10.1.0.0/16
expect_code forwarding-with-del 100 nn --forwarding masquerade del 192.168.42.0/24
# A batch the kernel refuses (the test hook adds a message naming a missing set last) is
# undone as a whole: first a big apply, then a single add, then a flush.
{ seq 1 300 | sed 's/.*/forward udp & 10.2.0.1/'; echo 'masquerade 10.3.0.0/16'; } > "$WORK/big.conf"
expect_code refused-batch-apply 5 env NETNAT_TEST_FAIL_LAST=1 ip netns exec "$NS" "$NETNAT" apply "$WORK/big.conf"
expect_code refused-batch-add 5 env NETNAT_TEST_FAIL_LAST=1 ip netns exec "$NS" "$NETNAT" masquerade add 10.4.0.0/16
expect_code refused-batch-flush 5 env NETNAT_TEST_FAIL_LAST=1 ip netns exec "$NS" "$NETNAT" flush
grep -q 'netnat_test_missing' "$WORK/out" && pass refused-batch-names-object ||
	fail refused-batch-names-object "$(cat "$WORK/out")"
check big-apply-after-refusal nn apply "$WORK/big.conf"
[ "$(nn list | wc -l)" -eq 301 ] && pass big-apply-complete || fail big-apply-complete "$(nn list | wc -l) entries"

# ---- permission denied -----------------------------------------------------------------
if command -v setpriv >/dev/null; then
	in_ns setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$NETNAT" masquerade add 10.5.0.0/16 > "$WORK/out" 2>&1
	rc=$?
	[ $rc -eq 4 ] && grep -q 'permission denied' "$WORK/out" && pass permission-denied ||
		fail permission-denied "exit $rc: $(cat "$WORK/out")"
else
	skip permission-denied "setpriv missing"
fi

# ---- concurrency -----------------------------------------------------------------------
fresh
pids=()
for i in $(seq 1 24); do nn forward add tcp $((2000 + i)) 10.0.$i.1:80 & pids+=($!); done
for i in $(seq 1 8); do nn masquerade add 10.$((100 + i)).0.0/16 & pids+=($!); done
for i in $(seq 1 4); do nn forward add udp $((3000 + i)) "[fd00::$i]" & pids+=($!); done
bad=0
for pid in "${pids[@]}"; do wait "$pid" || bad=$((bad + 1)); done
n=$(nn list | wc -l)
n_rules=$(in_ns nft list ruleset | grep -cE 'dnat|masquerade')
n_tables=$(in_ns nft list tables | grep -c ember_nat)
if [ $bad -eq 0 ] && [ "$n" -eq 36 ] && [ "$n_rules" -eq 10 ] && [ "$n_tables" -eq 2 ]; then
	pass concurrent-adds-consistent
else
	fail concurrent-adds-consistent "failures=$bad entries=$n rules=$n_rules tables=$n_tables"
fi
# Concurrent applies of different files: the result is exactly one of them.
seq 1 50 | sed 's/.*/forward tcp & 10.7.0.1/' > "$WORK/a.conf"
seq 1 50 | sed 's/.*/forward udp & 10.8.0.1/' > "$WORK/b.conf"
pids=()
for i in 1 2 3 4; do nn apply "$WORK/a.conf" & pids+=($!); nn apply "$WORK/b.conf" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid"; done
nn list | sort > "$WORK/got.list"
sort_conf() { sed 's/10\.[78]\.0\.1$/&:/' "$1" | awk '{ if ($4 ~ /:$/) $4 = $4 $3; print }' | sort; }
if cmp -s "$WORK/got.list" <(sort_conf "$WORK/a.conf") || cmp -s "$WORK/got.list" <(sort_conf "$WORK/b.conf"); then
	pass concurrent-applies-end-in-one-state
else
	fail concurrent-applies-end-in-one-state "$(head -5 "$WORK/got.list")"
fi

# ---- recovery --------------------------------------------------------------------------
fresh
nn apply "$WORK/doc.conf"
in_ns nft flush ruleset
[ -z "$(nn list)" ] && pass list-after-flush-empty || fail list-after-flush-empty "$(nn list)"
check add-after-flush nn forward add tcp 2222 192.168.42.10:22
in_ns nft list ruleset > "$WORK/got.txt"
if grep -q 'fib daddr type local dnat ip to meta l4proto . th dport map @fwd_port' "$WORK/got.txt" &&
	grep -q 'ip saddr @masq_saddr masquerade' "$WORK/got.txt" && [ "$(nn list)" = "forward tcp 2222 192.168.42.10:22" ]; then
	pass rebuilt-after-flush
else
	fail rebuilt-after-flush "$(head -c 400 "$WORK/got.txt")"
fi
check reapply-after-flush nn apply "$WORK/doc.conf"
in_ns nft list ruleset > "$WORK/got.txt"
diff -q "$WORK/want.txt" "$WORK/got.txt" >/dev/null && pass reapply-restores-documented-ruleset ||
	fail reapply-restores-documented-ruleset "$(diff "$WORK/want.txt" "$WORK/got.txt" | head -c 300)"
# A damaged table (one rule gone) is rebuilt by the next change, keeping its entries.
handle=$(in_ns nft -a list chain ip ember_nat output | sed -n 's/.*fwd_port # handle \([0-9]*\)$/\1/p')
in_ns nft delete rule ip ember_nat output handle "$handle"
nn list 2>"$WORK/err" >/dev/null
grep -q 'changed rules in chain output' "$WORK/err" && pass list-warns-about-damage ||
	fail list-warns-about-damage "$(cat "$WORK/err")"
check change-after-damage nn masquerade add 10.6.0.0/16
in_ns nft list table ip ember_nat > "$WORK/got.txt"
if [ "$(grep -c 'dnat ip to' "$WORK/got.txt")" -eq 4 ] && [ "$(nn list | wc -l)" -eq 6 ]; then
	pass damaged-table-rebuilt-with-entries
else
	fail damaged-table-rebuilt-with-entries "$(nn list | tr '\n' ';')"
fi

# ---- --forwarding ----------------------------------------------------------------------
fresh
in_ns sysctl -qw net.ipv4.ip_forward=0 net.ipv6.conf.all.forwarding=0
nn masquerade add 10.0.0.0/24
f4=$(in_ns cat /proc/sys/net/ipv4/ip_forward)
nn --forwarding forward add tcp 80 '[fd00::80]'
f6=$(in_ns cat /proc/sys/net/ipv6/conf/all/forwarding)
f4b=$(in_ns cat /proc/sys/net/ipv4/ip_forward)
nn --forwarding masquerade add 10.1.0.0/24
f4c=$(in_ns cat /proc/sys/net/ipv4/ip_forward)
[ "$f4$f6$f4b$f4c" = 0101 ] && pass forwarding-only-when-asked ||
	fail forwarding-only-when-asked "ipv4 after plain add=$f4, ipv6 after --forwarding=$f6, ipv4 then=$f4b, ipv4 after --forwarding=$f4c"

# ---- a minimal busybox root ------------------------------------------------------------
# netnat alone in a root holding busybox and the libraries it links (none when static):
# no nft, no shell scripts, no /etc beyond the file.
BB=$(command -v busybox || true)
if [ -n "$BB" ] && file -b "$BB" | grep -q 'statically linked'; then
	ROOT=$WORK/root
	mkdir -p "$ROOT/bin" "$ROOT/etc" "$ROOT/proc"
	cp "$BB" "$ROOT/bin/busybox" && cp "$NETNAT" "$ROOT/bin/netnat" && cp "$WORK/doc.conf" "$ROOT/etc/netnat.conf"
	for lib in $(ldd "$NETNAT" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$ROOT$(dirname "$lib")" && cp "$lib" "$ROOT$lib"
	done
	fresh
	in_ns unshare -m chroot "$ROOT" /bin/busybox sh -c \
		'/bin/busybox mount -t proc proc /proc && /bin/netnat --forwarding apply /etc/netnat.conf &&
		 /bin/netnat list && /bin/busybox cat /proc/sys/net/ipv4/ip_forward' > "$WORK/out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c . "$WORK/out")" -eq 6 ] && [ "$(tail -n 1 "$WORK/out")" = 1 ]; then
		pass busybox-root
	else
		fail busybox-root "exit $rc: $(head -c 300 "$WORK/out")"
	fi
else
	skip busybox-root "no static busybox (busybox-static)"
fi

finish
