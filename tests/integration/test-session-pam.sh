#!/bin/sh
# ember-session(8) applies what the service's PAM stack asks of pam_env, pam_limits and
# pam_mail ($MAIL) (docs/services.md "PAMName="): in a mount namespace, /etc/pam.d,
# /etc/security and /etc/environment are test copies. pam_env's variables win over the
# unit's (as under systemd), pam_limits' limits are set, pam_mail's MAIL is the user's
# folder, include loops and a stack file that is /dev/zero are bounded, a required
# limit that cannot be set stops the start, and messages about the files are escaped.
. "$(dirname "$0")/../lib.sh"
S=$BIN/ember-session
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip session-pam "needs root and mount namespaces"; finish
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pam.d" "$tmp/vendor" "$tmp/security/limits.d"
: >"$tmp/environment"

# run NAME SERVICE CMD...: ember-session (uid 65534, nobody) in the test root; stdout in
# $tmp/NAME.out, stderr in $tmp/NAME.err, exit code in $rc
run() {
	n=$1 svc=$2; shift 2
	timeout 20 unshare -m sh -c 'mount --bind "$1/pam.d" /etc/pam.d &&
		{ [ ! -d /usr/lib/pam.d ] || mount --bind "$1/vendor" /usr/lib/pam.d; } &&
		mount --bind "$1/security" /etc/security &&
		mount --bind "$1/environment" /etc/environment && shift && exec "$@"' sh "$tmp" \
		"$S" --uid 65534 --service "$svc" --address "unix:path=$tmp/no-bus" -- "$@" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"
	rc=$?
}
has() { grep -qx -- "$2" "$tmp/$1.out"; }

# ---- Debian's login stack ----
cat >"$tmp/pam.d/login" <<'EOC'
auth       optional   pam_faildelay.so  delay=3000000
auth       required   pam_env.so conffile=/etc/security/auth_env.conf readenv=0
session [success=ok ignore=ignore module_unknown=ignore default=bad] pam_selinux.so close
session    required   pam_loginuid.so
session    required   pam_env.so readenv=1
session    required   pam_env.so readenv=1 envfile=/etc/security/locale
@include common-auth
session    required   pam_limits.so
session    optional   pam_mail.so standard
session    include    common-session
EOC
printf 'auth [success=1 default=ignore] pam_unix.so nullok\nauth requisite pam_deny.so\n' \
	>"$tmp/pam.d/common-auth"
printf 'session optional pam_systemd.so\nsession optional pam_env.so user_readenv=1\n' \
	>"$tmp/pam.d/common-session"
cat >"$tmp/environment" <<'EOC'
PATH="/usr/local/bin:/usr/bin:/bin"
export FROM_FILE=environment
FROMUNIT=pam
UNSETME
EOC
echo 'LANG=C.UTF-8' >"$tmp/security/locale"
cat >"$tmp/security/pam_env.conf" <<'EOC'
NOBODY_HOME DEFAULT=@{HOME}/x
KEPT DEFAULT=default OVERRIDE=${KEPT}
EOC
echo 'AUTH_STACK DEFAULT=yes' >"$tmp/security/auth_env.conf"
cat >"$tmp/security/limits.conf" <<'EOC'
*        soft  nofile   777
nobody   hard  nofile   888   # the user's own line beats the default
*        hard  nofile   999
@nogroup soft  core     0
EOC
echo 'nobody - nproc 4242' >"$tmp/security/limits.d/50-test.conf"
echo 'nobody - nproc 1' >"$tmp/security/limits.d/ignored.conf~"
probe='env; echo "nofile=$(ulimit -Sn)/$(ulimit -Hn) nproc=$(awk "/^Max processes/{print \$3\"/\"\$4}" /proc/self/limits) core=$(ulimit -Sc)"'
FROMUNIT=unit KEPT=unit UNSETME=1 run login login /bin/sh -c "$probe"
[ $rc = 0 ] && has login 'PATH=/usr/local/bin:/usr/bin:/bin' && has login FROM_FILE=environment &&
	has login FROMUNIT=pam && ! grep -q '^UNSETME=' "$tmp/login.out" && has login LANG=C.UTF-8 &&
	pass session-pam-env-files || fail session-pam-env-files "rc=$rc $(grep -E '^(PATH|FROM_FILE|FROMUNIT|UNSETME|LANG)=' "$tmp/login.out" | tr '\n' ' ')"
has login NOBODY_HOME=/nonexistent/x && has login KEPT=unit && has login AUTH_STACK=yes &&
	pass session-pam-env-conf || fail session-pam-env-conf "$(grep -E '^(NOBODY_HOME|KEPT|AUTH_STACK)=' "$tmp/login.out" | tr '\n' ' ')"
has login 'nofile=777/888 nproc=4242/4242 core=0' && pass session-pam-limits ||
	fail session-pam-limits "$(grep nofile= "$tmp/login.out") $(tr '\n' ' ' <"$tmp/login.err")"
has login MAIL=/var/mail/nobody && pass session-pam-mail ||
	fail session-pam-mail "$(grep '^MAIL=' "$tmp/login.out")"
grep -q 'user_readenv=1 is not supported' "$tmp/login.err" && pass session-pam-user-readenv-refused ||
	fail session-pam-user-readenv-refused "$(tr '\n' ' ' <"$tmp/login.err")"

# ---- a unit environment larger than ember-session's list is kept whole ----
big=$(i=0; while [ $i -lt 300 ]; do printf 'V%d=%d ' $i $i; i=$((i + 1)); done)
(eval "export $big"; run big login /bin/sh -c env; exit $rc); rc=$?
[ $rc = 0 ] && has big V0=0 && has big V299=299 && grep -q 'pam_env not applied' "$tmp/big.err" &&
	pass session-pam-big-unit-env-kept || fail session-pam-big-unit-env-kept "rc=$rc $(tr '\n' ' ' <"$tmp/big.err")"

# ---- no file for the service: "other", as PAM ----
printf 'session required pam_env.so envfile=/etc/security/other.env\n' >"$tmp/pam.d/other"
echo 'FROM_OTHER=1' >"$tmp/security/other.env"
run other phosh /bin/sh -c env
[ $rc = 0 ] && has other FROM_OTHER=1 && pass session-pam-other-fallback ||
	fail session-pam-other-fallback "rc=$rc $(tr '\n' ' ' <"$tmp/other.err")"

# ---- pam_lastlog's records: the user's lastlog entry and a wtmp login record for the
# service's own process on its terminal, as pam_lastlog writes them (x86 layout) ----
if [ -f /var/log/wtmp ] && [ -f /var/log/lastlog ] &&
	{ [ "$(uname -m)" = x86_64 ] || [ "$(uname -m)" = i686 ]; }; then
	printf 'session optional pam_lastlog.so\n' >"$tmp/pam.d/lastlog"
	: >"$tmp/wtmp"; : >"$tmp/lastlog"
	timeout 20 unshare -m sh -c 'mount --bind "$1/pam.d" /etc/pam.d && mount --bind "$1/wtmp" /var/log/wtmp &&
		mount --bind "$1/lastlog" /var/log/lastlog && shift && exec "$@"' sh "$tmp" \
		"$S" --uid 65534 --service lastlog --tty /dev/tty1 --address "unix:path=$tmp/no-bus" -- \
		/bin/sh -c 'echo pid=$$' >"$tmp/lastlog.out" 2>"$tmp/lastlog.err"
	rc=$?
	got=$(python3 - "$tmp/wtmp" "$tmp/lastlog" <<'PY'
import struct, sys
w = open(sys.argv[1], "rb").read()
recs = [(struct.unpack("<hxxi", w[i:i + 8]) + (w[i + 8:i + 40].rstrip(b"\0").decode(), w[i + 44:i + 76].rstrip(b"\0").decode())) for i in range(0, len(w), 384)]
l = open(sys.argv[2], "rb").read()
e = l[65534 * 292:65535 * 292]
print(" ".join("%d:%d:%s:%s" % r for r in recs), "lastlog:%s" % e[4:36].rstrip(b"\0").decode() if len(e) == 292 else "lastlog:none")
PY
)
	[ $rc = 0 ] && [ "$got" = "7:$(sed -n 's/^pid=//p' "$tmp/lastlog.out"):tty1:nobody lastlog:tty1" ] &&
		pass session-pam-lastlog-records || fail session-pam-lastlog-records "rc=$rc $got $(cat "$tmp/lastlog.out") $(tr '\n' ' ' <"$tmp/lastlog.err")"
	printf 'session optional pam_lastlog.so nowtmp\n' >"$tmp/pam.d/lastlog"
	: >"$tmp/wtmp"; : >"$tmp/lastlog"
	timeout 20 unshare -m sh -c 'mount --bind "$1/pam.d" /etc/pam.d && mount --bind "$1/wtmp" /var/log/wtmp &&
		mount --bind "$1/lastlog" /var/log/lastlog && shift && exec "$@"' sh "$tmp" \
		"$S" --uid 65534 --service lastlog --address "unix:path=$tmp/no-bus" -- /bin/true 2>/dev/null
	[ ! -s "$tmp/wtmp" ] && [ "$(wc -c <"$tmp/lastlog")" = $((65535 * 292)) ] && pass session-pam-lastlog-nowtmp ||
		fail session-pam-lastlog-nowtmp "wtmp $(wc -c <"$tmp/wtmp"), lastlog $(wc -c <"$tmp/lastlog")"
else
	skip session-pam-lastlog-records "no /var/log/wtmp and lastlog to bind over, or no x86 (the layout checked here)"
fi

# ---- Linux-PAM's vendor directory: Debian 12's systemd-user is /usr/lib/pam.d's ----
if [ -d /usr/lib/pam.d ]; then
	printf 'session required pam_env.so envfile=/etc/security/vendor.env\n@include vendor-inc\n' >"$tmp/vendor/vendored"
	printf 'session required pam_limits.so conf=/etc/security/vendor-limits.conf\n' >"$tmp/vendor/vendor-inc"
	echo 'FROM_VENDOR=1' >"$tmp/security/vendor.env"
	echo 'nobody soft nofile 555' >"$tmp/security/vendor-limits.conf"
	run vendored vendored /bin/sh -c 'env; echo "nofile=$(ulimit -Sn)"'
	[ $rc = 0 ] && has vendored FROM_VENDOR=1 && has vendored nofile=555 && ! has vendored FROM_OTHER=1 &&
		pass session-pam-vendor-dir || fail session-pam-vendor-dir "rc=$rc $(tr '\n' ' ' <"$tmp/vendored.err")"
else
	skip session-pam-vendor-dir "no /usr/lib/pam.d to bind a test directory over"
fi

# ---- include loops and a /dev/zero include: bounded, the command runs ----
printf '@include loop-b\nsession required pam_env.so envfile=/etc/security/other.env\n' >"$tmp/pam.d/loop-a"
printf '@include loop-a\n@include zero\n' >"$tmp/pam.d/loop-b"
ln -s /dev/zero "$tmp/pam.d/zero"
run loop loop-a /bin/sh -c 'echo ran'
[ $rc = 0 ] && has loop ran && grep -q 'nested too deep' "$tmp/loop.err" &&
	grep -q 'zero: cannot be read' "$tmp/loop.err" && pass session-pam-include-loop-bounded ||
	fail session-pam-include-loop-bounded "rc=$rc $(tr '\n' ' ' <"$tmp/loop.err")"
# the service file itself is /dev/zero: refused, nothing of it applied
ln -s /dev/zero "$tmp/pam.d/zeroed"
FROMUNIT=unit run zeroed zeroed /bin/sh -c env
[ $rc = 0 ] && has zeroed FROMUNIT=unit && grep -q 'not a regular file' "$tmp/zeroed.err" &&
	pass session-pam-service-file-dev-zero || fail session-pam-service-file-dev-zero "rc=$rc $(tr '\n' ' ' <"$tmp/zeroed.err")"

# ---- hostile text in the files is escaped in messages ----
printf 'session required pam_env.so \033]0;evil\007 envfile=/etc/security/bad.env\n' >"$tmp/pam.d/hostile"
printf 'A="\033[2J\n' >"$tmp/security/bad.env"
run hostile hostile /bin/true
[ $rc = 0 ] && grep -q 'unknown option' "$tmp/hostile.err" && ! grep -q "$(printf '\033')" "$tmp/hostile.err" &&
	pass session-pam-messages-escaped || fail session-pam-messages-escaped "rc=$rc"

# ---- PID 1's limits are the defaults: Debian's pam_limits (and set_all anywhere) ----
# PID 1 of a new PID namespace has the limits given here; the session starts with
# others. Measured with Debian 12's pam_limits under systemd: every limit the files leave
# alone becomes PID 1's (the soft open-files limit at most 1024), over the unit's own.
: >"$tmp/security/empty.conf"
printf 'session required pam_limits.so conf=/etc/security/empty.conf\n' >"$tmp/pam.d/pid1"
printf 'session required pam_limits.so conf=/etc/security/empty.conf set_all\n' >"$tmp/pam.d/pid1-set-all"
lim='echo "stack=$(ulimit -Ss)/$(ulimit -Hs) nofile=$(ulimit -Sn)/$(ulimit -Hn)"'
# pid1_run NAME SERVICE PID1_LIMITS SESSION_LIMITS: prlimit(1) options
pid1_run() {
	n=$1 svc=$2 own=$3 start=$4
	timeout 20 unshare -m -p -f --mount-proc sh -c 'mount --bind "$1/pam.d" /etc/pam.d &&
		mount --bind "$1/security" /etc/security && own=$2 start=$3 && shift 3 &&
		exec prlimit $own -- sh -c "prlimit $start -- \"\$@\"; exit \$?" sh "$@"' sh "$tmp" "$own" "$start" \
		"$S" --uid 65534 --service "$svc" --address "unix:path=$tmp/no-bus" -- /bin/sh -c "$lim" \
		>"$tmp/$n.out" 2>"$tmp/$n.err"
	rc=$?
}
if [ -f /etc/debian_version ]; then
	pid1_run pid1 pid1 "--stack=4194304:unlimited --nofile=2000:8192" "--stack=16777216:unlimited --nofile=4096:8192"
	[ $rc = 0 ] && has pid1 'stack=4096/unlimited nofile=1024/8192' && pass session-pam-limits-from-pid1 ||
		fail session-pam-limits-from-pid1 "rc=$rc $(cat "$tmp/pid1.out") $(tr '\n' ' ' <"$tmp/pid1.err")"
else
	skip session-pam-limits-from-pid1 "not a Debian system: pam_limits does that with set_all only"
fi
pid1_run set-all pid1-set-all "--stack=4194304:unlimited --nofile=512:8192" "--stack=16777216:unlimited --nofile=4096:8192"
[ $rc = 0 ] && has set-all 'stack=4096/unlimited nofile=512/8192' && pass session-pam-limits-set-all ||
	fail session-pam-limits-set-all "rc=$rc $(cat "$tmp/set-all.out") $(tr '\n' ' ' <"$tmp/set-all.err")"
# PID 1's hard limit above the session's: raised where this may (CAP_SYS_RESOURCE), else
# passed over as pam_limits does; no message, the session goes on
pid1_run above pid1-set-all "--nofile=2000:8192" "--nofile=4096:4096"
[ $rc = 0 ] && { has above 'stack=8192/unlimited nofile=4096/4096' || has above 'stack=8192/unlimited nofile=1024/8192'; } &&
	! grep -q pam_limits "$tmp/above.err" && pass session-pam-pid1-limit-above-passed-over ||
	fail session-pam-pid1-limit-above-passed-over "rc=$rc $(cat "$tmp/above.out") $(tr '\n' ' ' <"$tmp/above.err")"

# ---- a required limit that cannot be set stops the start; an optional one does not ----
nr_open=$(cat /proc/sys/fs/nr_open)
printf 'session required pam_limits.so conf=/etc/security/too-big.conf\n' >"$tmp/pam.d/toobig"
printf 'session optional pam_limits.so conf=/etc/security/too-big.conf\n' >"$tmp/pam.d/toobig-opt"
echo "nobody hard nofile $((nr_open + 1))" >"$tmp/security/too-big.conf"
rm -f "$tmp/ran"
run toobig toobig /bin/touch "$tmp/ran"
[ $rc = 111 ] && [ ! -e "$tmp/ran" ] && grep -q 'pam_limits' "$tmp/toobig.err" &&
	pass session-pam-required-limit-stops || fail session-pam-required-limit-stops "rc=$rc $(tr '\n' ' ' <"$tmp/toobig.err")"
run toobig-opt toobig-opt /bin/touch "$tmp/ran"
[ $rc = 0 ] && [ -e "$tmp/ran" ] && pass session-pam-optional-limit-runs ||
	fail session-pam-optional-limit-runs "rc=$rc $(tr '\n' ' ' <"$tmp/toobig-opt.err")"
finish
