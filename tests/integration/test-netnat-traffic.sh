#!/usr/bin/env bash
# Real traffic through netnat's NAT: client, router and server namespaces joined by veth
# pairs, IPv4 and IPv6. The server has a route back to the client's network, so without
# NAT it sees the client's own address: masquerading shows as the router's address, and
# its absence after `del` as the client's again. Port forwards reach the inner server,
# stop after `del`, and respect a listen address.
. "$(dirname "$0")/../lib.sh"
NETNAT=$BIN/netnat

[ "$(id -u)" -eq 0 ] || { skip netnat-traffic "needs root"; finish; }
[ -x "$NETNAT" ] || { fail netnat-traffic "not built (make out/bin/netnat)"; finish; }
for tool in ip python3; do
	command -v $tool >/dev/null || { fail netnat-traffic "$tool missing (scripts/deps.sh installs it)"; finish; }
done

WORK=$(mktemp -d /tmp/netnat-traffic.XXXXXX)
C=netnat-c-$$ R=netnat-r-$$ S=netnat-s-$$
PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
	for ns in "$C" "$R" "$S"; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT

setup() {
	local ns
	for ns in "$C" "$R" "$S"; do ip netns add "$ns" && ip -n "$ns" link set lo up || return 1; done
	ip link add veth-lan netns "$R" type veth peer name eth0 netns "$C" &&
	ip link add veth-wan netns "$R" type veth peer name eth0 netns "$S" || return 1
	ip -n "$R" addr add 10.0.0.1/24 dev veth-lan && ip -n "$R" addr add fd00:1::1/64 dev veth-lan nodad &&
	ip -n "$R" addr add 203.0.113.1/24 dev veth-wan && ip -n "$R" addr add 2001:db8:2::1/64 dev veth-wan nodad &&
	ip -n "$C" addr add 10.0.0.2/24 dev eth0 && ip -n "$C" addr add fd00:1::2/64 dev eth0 nodad &&
	ip -n "$S" addr add 203.0.113.2/24 dev eth0 && ip -n "$S" addr add 2001:db8:2::2/64 dev eth0 nodad || return 1
	for ns in "$C" "$S"; do ip -n "$ns" link set eth0 up || return 1; done
	ip -n "$R" link set veth-lan up && ip -n "$R" link set veth-wan up &&
	ip -n "$C" route add default via 10.0.0.1 && ip -n "$C" -6 route add default via fd00:1::1 &&
	ip -n "$S" route add 10.0.0.0/24 via 203.0.113.1 && ip -n "$S" -6 route add fd00:1::/64 via 2001:db8:2::1
}
if ! setup 2>"$WORK/err"; then
	skip netnat-traffic "cannot build the namespaces: $(head -c 200 "$WORK/err")"
	finish
fi

# A server answers every TCP connection with "PEER LOCAL LOCALPORT" and every UDP
# datagram with "PEER udp LOCALPORT";
# a client prints that answer or "ERR why".
cat > "$WORK/peer.py" <<'PY'
import socket, sys, threading
def clean(a): return a[7:] if a.startswith("::ffff:") else a
def answer(peer, local): return f"{clean(peer[0])} {clean(local[0])} {local[1]}\n".encode()
def tcp_server(port):
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::", port)); s.listen(16); return s
def serve_tcp(s):
    while True:
        c, peer = s.accept()
        c.sendall(answer(peer, c.getsockname())); c.close()
def serve_udp(s):
    while True:
        data, peer = s.recvfrom(512)
        # An unconnected UDP socket does not know its local address: say "udp".
        s.sendto(f"{clean(peer[0])} udp {s.getsockname()[1]}\n".encode(), peer)
if sys.argv[1] == "serve":
    ready, ports = sys.argv[2], [int(p) for p in sys.argv[3:]]
    socks = [tcp_server(p) for p in ports]
    u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    u.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    u.bind(("::", ports[0]))
    for s in socks: threading.Thread(target=serve_tcp, args=(s,), daemon=True).start()
    open(ready, "w").close()
    serve_udp(u)
else:
    kind, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        if kind == "tcp":
            s = socket.create_connection((host, port), timeout=5)
            print(s.recv(200).decode().strip())
        else:
            s = socket.socket(fam, socket.SOCK_DGRAM); s.settimeout(5)
            s.sendto(b"x", (host, port)); print(s.recv(200).decode().strip())
    except OSError as e:
        print("ERR", type(e).__name__)
PY
start_server() { # NS READYFILE PORTS...
	local ns=$1 ready=$2
	shift 2
	ip netns exec "$ns" python3 "$WORK/peer.py" serve "$ready" "$@" 2>"$WORK/server-$ns.err" &
	PIDS+=($!)
	for _ in $(seq 1 100); do [ -e "$ready" ] && return 0; sleep 0.05; done
	return 1
}
start_server "$C" "$WORK/c.ready" 80 || { fail netnat-traffic "inner server did not start: $(cat "$WORK/server-$C.err")"; finish; }
start_server "$S" "$WORK/s.ready" 9000 || { fail netnat-traffic "outer server did not start: $(cat "$WORK/server-$S.err")"; finish; }

nn() { ip netns exec "$R" "$NETNAT" "$@"; }
talk() { local ns=$1; shift; ip netns exec "$ns" python3 "$WORK/peer.py" "$@"; }
# expect NAME WANT ANSWER: the peer's answer starts with WANT.
expect() {
	case $3 in "$2"*) pass "$1" ;; *) fail "$1" "wanted '$2...', got '$3'" ;; esac
}

# --forwarding turns routing on in the router (nothing else does).
[ "$(ip netns exec "$R" cat /proc/sys/net/ipv4/ip_forward)" = 0 ] || ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=0
check masquerade-add-v4 nn --forwarding masquerade add 10.0.0.0/24
check masquerade-add-v6 nn --forwarding masquerade add fd00:1::/64

# Masquerading: the outer server sees the router's address.
expect masquerade-v4 "203.0.113.1 203.0.113.2 9000" "$(talk "$C" tcp 203.0.113.2 9000)"
expect masquerade-v6 "2001:db8:2::1 2001:db8:2::2 9000" "$(talk "$C" tcp 2001:db8:2::2 9000)"
expect masquerade-udp-v4 "203.0.113.1 udp 9000" "$(talk "$C" udp 203.0.113.2 9000)"

# Port forwards reach the inner server, which sees the outer client's address.
check forward-add-v4 nn forward add tcp 8080 10.0.0.2:80
check forward-add-udp nn forward add udp 5353 10.0.0.2:80
check forward-add-v6 nn forward add tcp 8080 '[fd00:1::2]:80'
check forward-add-listen nn forward add tcp 203.0.113.1:8081 10.0.0.2:80
expect forward-v4 "203.0.113.2 10.0.0.2 80" "$(talk "$S" tcp 203.0.113.1 8080)"
expect forward-udp "203.0.113.2 udp 80" "$(talk "$S" udp 203.0.113.1 5353)"
expect forward-v6 "2001:db8:2::2 fd00:1::2 80" "$(talk "$S" tcp 2001:db8:2::1 8080)"
expect forward-listen-address "203.0.113.2 10.0.0.2 80" "$(talk "$S" tcp 203.0.113.1 8081)"
# The forward bound to 203.0.113.1 does not apply to the router's other address.
expect forward-listen-other-address "ERR ConnectionRefusedError" "$(talk "$C" tcp 10.0.0.1 8081)"
# The router itself reaching its own public address is forwarded (output chain; the
# source address was picked before the translation), but loopback is not.
expect forward-from-router "203.0.113.1 10.0.0.2 80" "$(talk "$R" tcp 203.0.113.1 8080)"
expect no-forward-on-loopback "ERR ConnectionRefusedError" "$(talk "$R" tcp 127.0.0.1 8080)"

# After deletion, nothing is translated any more.
check masquerade-del-v4 nn masquerade del 10.0.0.0/24
check masquerade-del-v6 nn masquerade del fd00:1::/64
check forward-del-v4 nn forward del tcp 8080 10.0.0.2:80
check forward-del-v6 nn forward del tcp 8080 '[fd00:1::2]:80'
expect no-masquerade-v4-after-del "10.0.0.2 203.0.113.2 9000" "$(talk "$C" tcp 203.0.113.2 9000)"
expect no-masquerade-v6-after-del "fd00:1::2 2001:db8:2::2 9000" "$(talk "$C" tcp 2001:db8:2::2 9000)"
expect no-forward-v4-after-del "ERR ConnectionRefusedError" "$(talk "$S" tcp 203.0.113.1 8080)"
expect no-forward-v6-after-del "ERR ConnectionRefusedError" "$(talk "$S" tcp 2001:db8:2::1 8080)"
# The entries left alone still work.
expect forward-listen-still-works "203.0.113.2 10.0.0.2 80" "$(talk "$S" tcp 203.0.113.1 8081)"

# apply: one file brings back the whole state.
cat > "$WORK/nat.conf" <<'CONF'
masquerade 10.0.0.0/24
forward tcp 8080 10.0.0.2:80
CONF
check apply-file nn apply "$WORK/nat.conf"
expect apply-masquerades "203.0.113.1 203.0.113.2 9000" "$(talk "$C" tcp 203.0.113.2 9000)"
expect apply-forwards "203.0.113.2 10.0.0.2 80" "$(talk "$S" tcp 203.0.113.1 8080)"
expect apply-dropped-listen-forward "ERR ConnectionRefusedError" "$(talk "$S" tcp 203.0.113.1 8081)"

finish
