#!/bin/sh
# ember-busname-wait against a scripted fake bus (python3, no D-Bus library): the wire
# conversation a real bus has with it, and a hostile bus (refused auth, lying lengths,
# bad header fields, a wrong boolean, silence): each ends with its documented exit code,
# never a hang or a crash. The real bus is exercised in test-init-sockets.sh.
. "$(dirname "$0")/../lib.sh"
W=$BIN/ember-busname-wait
command -v python3 >/dev/null || { skip busname-wait "python3 missing"; finish; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/fakebus.py" <<'PY'
import os, socket, struct, sys
path, mode = sys.argv[1], sys.argv[2]

def pad(b, n):
    return b + b"\0" * ((-len(b)) % n)

def field(code, sig, value):  # a header field, 8-aligned by the caller
    b = bytes([code, 1]) + sig.encode() + b"\0"
    if sig in "so":
        b = pad(b, 4) + struct.pack("<I", len(value)) + value.encode() + b"\0"
    elif sig == "g":
        b += bytes([len(value)]) + value.encode() + b"\0"
    elif sig == "u":
        b = pad(b, 4) + struct.pack("<I", value)
    return b

def message(mtype, serial, fields, body=b"", body_len=None):
    hdr = b""
    for f in fields:
        hdr = pad(hdr, 8) + f
    fixed = struct.pack("<BBBBIII", ord("l"), mtype, 0, 1,
                        len(body) if body_len is None else body_len, serial, len(hdr))
    return pad(fixed + hdr, 8) + body

def reply(serial, reply_to, sig=None, body=b""):
    f = [field(5, "u", reply_to), field(7, "s", "org.freedesktop.DBus")]
    if sig:
        f.append(field(8, "g", sig))
    return message(2, serial, f, body)

def string(s):
    return struct.pack("<I", len(s)) + s.encode() + b"\0"

srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(1)
open(path + ".ready", "w").close()
c, _ = srv.accept()
data = b""
while not data.endswith(b"\r\n"):
    more = c.recv(4096)
    if not more:
        sys.exit(1)
    data += more
if mode == "reject":
    c.sendall(b"REJECTED EXTERNAL\r\n"); c.recv(100); sys.exit(0)
assert data.startswith(b"\0AUTH EXTERNAL "), data
uid_hex = data[15:].split(b"\r\n")[0]
assert bytes.fromhex(uid_hex.decode()).decode() == str(os.geteuid()), uid_hex
c.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
buf = b""
def read_calls(n):  # the next n method calls: [(serial, member)]
    global buf
    calls = []
    while len(calls) < n:
        while len(buf) < 16:
            buf += c.recv(4096)
        if buf.startswith(b"BEGIN\r\n"):
            buf = buf[7:]; continue
        body_len, serial, flen = struct.unpack("<III", buf[4:16])
        total = ((16 + flen + 7) // 8) * 8 + body_len
        while len(buf) < total:
            buf += c.recv(4096)
        member = b"Hello" if b"Hello" in buf[:total] else b"AddMatch" if b"AddMatch" in buf[:total] else b"NameHasOwner"
        calls.append((serial, member.decode()))
        buf = buf[total:]
    return calls
(hello, _), = read_calls(1)
c.sendall(reply(1, hello, "s", string(":1.9")))
calls = dict((m, s) for s, m in read_calls(2))
has = calls["NameHasOwner"]
if mode == "owned":
    c.sendall(reply(2, calls["AddMatch"]) + reply(3, has, "b", struct.pack("<I", 1)))
elif mode in ("signal", "othername"):
    c.sendall(reply(2, calls["AddMatch"]) + reply(3, has, "b", struct.pack("<I", 0)))
    sig = message(4, 4, [field(1, "o", "/org/freedesktop/DBus"), field(2, "s", "org.freedesktop.DBus"),
                         field(3, "s", "NameOwnerChanged"), field(7, "s", "org.freedesktop.DBus"),
                         field(8, "g", "sss")],
                  pad(pad(string("org.other.Name"), 4) + string("") , 4) + string(":1.3"))
    c.sendall(sig)  # another name: must not end the wait
    if mode == "signal":
        c.sendall(sig.replace(b"org.other.Name", b"org.ember.Fake"))
elif mode == "huge":
    c.sendall(struct.pack("<BBBBIII", ord("l"), 2, 0, 1, 0x7fffffff, 3, 0))
elif mode == "badfield":  # REPLY_SERIAL as a string
    c.sendall(message(2, 3, [field(5, "s", "x")]))
elif mode == "badbool":
    c.sendall(reply(3, has, "b", struct.pack("<I", 7)))
elif mode == "error":
    c.sendall(message(3, 3, [field(4, "s", "org.freedesktop.DBus.Error.AccessDenied"),
                             field(5, "u", has)]))
elif mode == "silent":
    pass
c.recv(1)  # until the client goes away
PY

# run MODE EXPECTED-EXIT [ARGS]: one conversation with the fake bus.
run() {
	mode=$1 want=$2; shift 2
	sock=$tmp/$mode.sock
	python3 "$tmp/fakebus.py" "$sock" "$mode" 2>"$tmp/$mode.py.err" &
	py=$!
	i=0; while [ ! -e "$sock.ready" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
	timeout 10 "$W" --address "unix:path=$sock" "$@" org.ember.Fake >"$tmp/$mode.out" 2>&1
	rc=$?
	kill $py 2>/dev/null; wait $py 2>/dev/null
	if [ "$rc" = "$want" ]; then pass "busname-$mode"; else
		fail "busname-$mode" "exit $rc, expected $want: $(cat "$tmp/$mode.out" "$tmp/$mode.py.err" | tail -n 3 | tr '\n' ' ')"; fi
}

"$W" --help | grep -q 'usage: ember-busname-wait' && pass help || fail help "no usage"
"$W" --version | grep -q 'ember' && pass version || fail version "no version"
"$W" org 2>/dev/null; [ $? = 100 ] && pass invalid-name-100 || fail invalid-name-100 "exit $?"
"$W" --timeout-ms nope a.b 2>/dev/null; [ $? = 100 ] && pass bad-timeout-100 || fail bad-timeout-100 "exit $?"
"$W" --address tcp:host=x a.b 2>/dev/null; [ $? = 111 ] && pass non-unix-address-111 || fail non-unix-address-111 "exit $?"
"$W" --timeout-ms 400 --address "unix:path=$tmp/none" a.b 2>"$tmp/none.err"; rc=$?
[ $rc = 1 ] && grep -q 'trying again' "$tmp/none.err" && pass no-bus-times-out || fail no-bus-times-out "exit $rc: $(cat "$tmp/none.err")"
run owned 0
run signal 0
run othername 1 --timeout-ms 500
run reject 111 --timeout-ms 3000
run huge 2
run badfield 2
run badbool 2
run error 2
run silent 1 --timeout-ms 500
grep -q 'AccessDenied' "$tmp/error.out" && pass error-name-reported || fail error-name-reported "$(cat "$tmp/error.out")"
finish
