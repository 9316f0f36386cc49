#!/bin/sh
# D-Bus activation through ember-activator, with the real ember-init as PID 1 of a
# PID+mount namespace and Debian's dbus.socket + dbus.service unmodified (dbus-daemon
# --systemd-activation): ember-activator comes up with dbus through the enablement link
# make install makes, owns org.freedesktop.systemd1, and a call to a bus-activatable name
# starts the unit its service file names; a unit that is missing or fails gives the
# caller an error at once (not after the bus's 25 s timeout); calls meant for systemd
# are answered; root starts, restarts, stops and reloads units over D-Bus (JobRemoved
# follows: a reload's once ExecReload= is over, "failed" when it failed, "dependency" when a
# unit it requires failed);
# logind's scope requests are checked. Hostile clients: forged ActivationRequest signals
# (from root and from nobody) start nothing, a non-root StartUnit (of poweroff.target, of
# a unit) and a non-root scope request are refused, a flood of calls is answered and
# leaves the activator up. Last, root powers off through it, as
# logind does.
. "$(dirname "$0")/../lib.sh"
for tool in dbus-daemon dbus-send busctl python3 unshare setpriv; do
	command -v $tool >/dev/null || { skip activator "$tool missing (scripts/deps.sh installs it)"; finish; }
done
[ "$(id -u)" = 0 ] || { skip activator "needs root (namespaces, dbus-daemon --system)"; finish; }
id messagebus >/dev/null 2>&1 || { skip activator "no messagebus user (package dbus)"; finish; }

CORPUS=${EMBER_UNIT_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/ember/unit-corpus}
for p in dbus dbus-system-bus-common; do
	[ -d "$CORPUS/$p/lib/systemd/system" ] || "$TOP/scripts/unit-corpus.sh" "$p" >/dev/null 2>&1 ||
		{ skip activator "cannot fetch Debian's $p units"; finish; }
done

tmp=$(mktemp -d)
chmod 0755 "$tmp" # dbus-daemon reads the service files as messagebus
trap 'rm -rf "$tmp"' EXIT
A=$TOP/tests/integration/activator
mkdir -p "$tmp/services" "$tmp/system.d" "$tmp/system-services" "$tmp/inst"
# ember's own files as make install lays them out, enabled as an administrator does.
"$TOP/scripts/install.sh" "$tmp/inst" /usr /etc "$BIN" /nonexistent >/dev/null
"$BIN/emberctl" --root "$tmp/inst" -q enable ember-activator || fail enable-activator "emberctl enable failed"
cp -a "$tmp/inst/usr/lib/ember/services/." "$tmp/services/"
mkdir -p "$tmp/services/dbus.service.wants"
ln -s ../ember-activator.service "$tmp/services/dbus.service.wants/" # the link, in the test's one directory
[ "$(readlink "$tmp/inst/etc/ember/services/dbus.service.wants/ember-activator.service")" = \
	/usr/lib/ember/services/ember-activator.service ] && pass enable-links-into-dbus-wants ||
	fail enable-links-into-dbus-wants "$(ls -l "$tmp/inst/etc/ember/services/dbus.service.wants" 2>&1)"
sed -i "s|^ExecStart=.*|ExecStart=$BIN/ember-activator --unit-root $tmp/inst|" "$tmp/services/ember-activator.service"
# A unit file as an NTP daemon's package ships it, in the tree the activator enables
# units in (--unit-root): systemd-timedated's switch for automatic time enables it.
mkdir -p "$tmp/inst/lib/systemd/system"
printf '[Unit]\nDescription=an NTP daemon\n[Service]\nExecStart=/bin/sleep 1000\n[Install]\nWantedBy=multi-user.target\n' \
	>"$tmp/inst/lib/systemd/system/ntpish.service"
mkdir -p "$tmp/inst/etc/systemd/system" && ln -s /dev/null "$tmp/inst/etc/systemd/system/maskme.service"
cp "$CORPUS/dbus/lib/systemd/system/dbus.service" \
	"$CORPUS/dbus-system-bus-common/lib/systemd/system/dbus.socket" "$tmp/services/"
for f in "$A"/*.service; do
	case $f in */org.ember.*) continue ;; esac
	sed "s|@HELPERS@|$HELPERS|g; s|@TMP@|$tmp|g" "$f" >"$tmp/services/$(basename "$f")"
done
cp "$A"/org.ember.*.service "$tmp/system-services/"
cp -a /etc/dbus-1/system.d/. "$tmp/system.d/" 2>/dev/null
cp "$A/ember-test.conf" "$tmp/inst/usr/share/dbus-1/system.d/ember-activator.conf" "$tmp/system.d/"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
wait_state() { i=0; while [ \$i -lt 200 ]; do [ "\$(state "\$1")" = "\$2" ] && return 0; sleep 0.05; i=\$((i+1)); done; return 1; }
call() { timeout 40 dbus-send --system --print-reply --reply-timeout=30000 "\$@" 2>&1; }
# The error name a call ends with; the bus's own timeout would say NoReply or TimedOut.
error_of() { call "\$@" | sed -n 's/^Error \\([^:]*\\).*/\\1/p'; }
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "\$@"; }
activator_pid() { "\$E" --json status ember-activator | sed -n 's/.*"main_pid":\\([0-9]*\\).*/\\1/p'; }


# ---- activation: the first call starts dbus, dbus pulls in ember-activator, and the
# bus holds the request until ember-activator owns org.freedesktop.systemd1.
out=\$(call --dest=org.ember.Echo /org/ember/Echo org.ember.Echo.Hello)
echo "\$out" | grep -q '^method return' && ok activation-reaches-service || bad activation-reaches-service "\$out"
wait_state echo ready && ok activated-unit-ready || bad activated-unit-ready "echo is \$(state echo)"
"\$E" log echo | grep -q '^called Hello' && ok call-delivered-to-activated-service || bad call-delivered-to-activated-service "\$("\$E" log echo | tail -n 3)"
wait_state ember-activator ready && ok activator-up-with-dbus || bad activator-up-with-dbus "ember-activator is \$(state ember-activator)"
out=\$(call --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetNameOwner string:org.freedesktop.systemd1)
echo "\$out" | grep -q 'string ":1\.' && ok activator-owns-systemd1 || bad activator-owns-systemd1 "\$out"
"\$E" log ember-activator | grep -q 'echo: started for D-Bus activation' && ok activator-says-what-it-started || bad activator-says-what-it-started "\$("\$E" log ember-activator)"

# ---- failures reach the caller at once, as errors the activator chose
e=\$(error_of --dest=org.ember.Missing /x org.ember.Missing.Hello)
[ "\$e" = org.freedesktop.systemd1.NoSuchUnit ] && ok missing-unit-fails-at-once || bad missing-unit-fails-at-once "error '\$e'"
e=\$(error_of --dest=org.ember.Failing /x org.ember.Failing.Hello)
[ "\$e" = org.freedesktop.systemd1.UnitFailed ] && ok failing-unit-fails-at-once || bad failing-unit-fails-at-once "error '\$e'"
[ "\$(state failing)" = failed ] && ok failing-unit-failed || bad failing-unit-failed "failing is \$(state failing)"
e=\$(error_of --dest=org.ember.Bad /x org.ember.Bad.Hello)
[ "\$e" = org.freedesktop.systemd1.NoSuchUnit ] && ok path-like-unit-refused || bad path-like-unit-refused "error '\$e'"
"\$E" log ember-activator | grep -q 'ember cannot start a unit called \.\./\.\./etc/bad\.service' && ok path-like-unit-logged || bad path-like-unit-logged "\$("\$E" log ember-activator | tail -n 3)"
# A second call to an activated name goes straight to it.
call --dest=org.ember.Echo /org/ember/Echo org.ember.Echo.Again | grep -q '^method return' && ok second-call-direct || bad second-call-direct "no return"

# ---- calls meant for systemd are answered, not left to time out
call --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.DBus.Peer.Ping | grep -q '^method return' && ok ping-answered || bad ping-answered "no return"
e=\$(error_of --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.GetUnit string:dbus.service)
[ "\$e" = org.freedesktop.DBus.Error.UnknownMethod ] && ok manager-call-answered || bad manager-call-answered "error '\$e'"
e=\$(nobody dbus-send --system --print-reply --reply-timeout=30000 --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StartUnit string:canary.service string:replace 2>&1 | sed -n 's/^Error \\([^:]*\\).*/\\1/p')
[ "\$e" = org.freedesktop.DBus.Error.AccessDenied ] && [ ! -e "$tmp/canary-started" ] && ok start-unit-root-only || bad start-unit-root-only "error '\$e'"
# Unit properties systemd-logind reads before it powers off (is the target masked?).
prop() { call --dest=org.freedesktop.systemd1 "/org/freedesktop/systemd1/unit/\$1" org.freedesktop.DBus.Properties.Get string:org.freedesktop.systemd1.Unit string:\$2 | sed -n 's/^ *variant *string "\(.*\)"/\1/p'; }
[ "\$(prop dbus_2eservice LoadState)" = loaded ] && [ "\$(prop dbus_2eservice ActiveState)" = active ] &&
	ok unit-properties-answered || bad unit-properties-answered "LoadState '\$(prop dbus_2eservice LoadState)' ActiveState '\$(prop dbus_2eservice ActiveState)'"
[ "\$(prop nosuch_2eservice LoadState)" = not-found ] && ok unknown-unit-not-found || bad unknown-unit-not-found "'\$(prop nosuch_2eservice LoadState)'"
[ "\$(prop poweroff_2etarget LoadState)" = loaded ] && ok power-target-loaded || bad power-target-loaded "'\$(prop poweroff_2etarget LoadState)'"
[ "\$(prop _2e_2e_2fetc_2fpasswd LoadState)" = not-found ] && ok path-like-object-not-found || bad path-like-object-not-found "'\$(prop _2e_2e_2fetc_2fpasswd LoadState)'"
e=\$(error_of --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/_zz org.freedesktop.DBus.Properties.Get string:org.freedesktop.systemd1.Unit string:LoadState)
[ "\$e" = org.freedesktop.DBus.Error.UnknownMethod ] && ok bad-object-path-answered || bad bad-object-path-answered "error '\$e'"

# ---- hostile clients
# Forged activation requests: the same signal the bus sends, from a client.
for who in root nobody; do
	run=""; [ \$who = nobody ] && run=nobody
	\$run dbus-send --system --type=signal --dest=org.freedesktop.systemd1 /org/freedesktop/DBus \
		org.freedesktop.systemd1.Activator.ActivationRequest string:canary.service 2>&1 ||
		bad forged-signal-sent "as \$who: exit \$?"
done
sleep 1
[ ! -e "$tmp/canary-started" ] && [ "\$(state canary)" != ready ] && ok forged-activation-starts-nothing || bad forged-activation-starts-nothing "canary is \$(state canary)"
n=\$("\$E" log ember-activator | grep -c 'ignored an ActivationRequest from :1\.')
[ "\$n" = 2 ] && ok forged-activation-logged || bad forged-activation-logged "\$n lines"
# A non-root caller asks for poweroff.target, as it would through a careless logind.
e=\$(nobody dbus-send --system --print-reply --reply-timeout=30000 --dest=org.freedesktop.systemd1 \
	/org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StartUnit string:poweroff.target string:replace-irreversibly 2>&1 |
	sed -n 's/^Error \\([^:]*\\).*/\\1/p')
[ "\$e" = org.freedesktop.DBus.Error.AccessDenied ] && ok nonroot-poweroff-refused || bad nonroot-poweroff-refused "error '\$e'"
"\$E" list | grep -q . && [ "\$(state dbus)" = ready ] && ok nothing-stopping || bad nothing-stopping "dbus is \$(state dbus)"
# A flood of calls, the longest names the bus lets through among them.
pid=\$(activator_pid)
long=\$(python3 -c "print('.'.join(['a' * 60] * 4))")
i=0; while [ \$i -lt 40 ]; do
	nobody dbus-send --system --print-reply --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 \$long.Member >/dev/null 2>&1 &
	i=\$((i+1))
done
wait
[ "\$(activator_pid)" = "\$pid" ] && call --dest=org.freedesktop.systemd1 / org.freedesktop.DBus.Peer.Ping | grep -q '^method return' &&
	ok flood-answered-activator-alive || bad flood-answered-activator-alive "pid \$pid -> \$(activator_pid)"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"

# ---- units over D-Bus: StartUnit, RestartUnit, StopUnit from root, with the JobRemoved
# signal callers wait for; nothing from anybody else.
dbus-monitor --system "type='signal',interface='org.freedesktop.systemd1.Manager',member='JobRemoved'" >"$tmp/jobs.log" 2>&1 &
mon=\$!
sleep 0.5
mgr() { timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager "\$@" 2>&1; }
worker_pid() { "\$E" --json status worker | sed -n 's/.*"main_pid":\\([0-9]*\\).*/\\1/p'; }
out=\$(nobody timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartUnit ss canary.service replace 2>&1)
sleep 0.5
echo "\$out" | grep -q 'Access denied' && [ ! -e "$tmp/canary-started" ] &&
	"\$E" log ember-activator | grep -q 'start from :1\.[0-9]* refused: not root' &&
	ok unit-start-nonroot-refused || bad unit-start-nonroot-refused "\$out"
out=\$(mgr StartUnit ss worker.service replace)
echo "\$out" | grep -q '^o "/org/freedesktop/systemd1/job/[0-9]*"' && wait_state worker ready &&
	ok unit-start-over-bus || bad unit-start-over-bus "\$out; worker is \$(state worker)"
p1=\$(worker_pid)
mgr RestartUnit ss worker.service replace >/dev/null
i=0; while { [ "\$(worker_pid)" = "\$p1" ] || [ "\$(state worker)" != ready ]; } && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
[ "\$(worker_pid)" != "\$p1" ] && [ "\$(state worker)" = ready ] && ok unit-restart-over-bus || bad unit-restart-over-bus "pid \$p1 -> \$(worker_pid)"
mgr StopUnit ss worker.service replace >/dev/null
wait_state worker stopped && ok unit-stop-over-bus || bad unit-stop-over-bus "worker is \$(state worker)"
# ---- unit files over D-Bus, as systemd-timedated switches automatic time: the unit's
# UnitFileState (Properties.GetAll), EnableUnitFiles, DisableUnitFiles, Reload; root only.
LINK=$tmp/inst/etc/systemd/system/multi-user.target.wants/ntpish.service
ufs() { timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/ntpish_2eservice \
	org.freedesktop.DBus.Properties GetAll s org.freedesktop.systemd1.Unit 2>&1 | grep -o '"UnitFileState" s "[a-z-]*"'; }
all=\$(timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/worker_2eservice \
	org.freedesktop.DBus.Properties GetAll s org.freedesktop.systemd1.Unit 2>&1)
echo "\$all" | grep -q '"Id" s "worker.service"' && echo "\$all" | grep -q '"LoadState" s "loaded"' &&
	echo "\$all" | grep -q '"ActiveState" s "inactive"' && ok unit-getall-answered || bad unit-getall-answered "\$all"
[ "\$(ufs)" = '"UnitFileState" s "disabled"' ] && ok unit-file-state-disabled || bad unit-file-state-disabled "\$(ufs)"
# A unit ember-init has not loaded is "loaded" when its file is there, as systemd loads
# it when asked (logind's CanSuspend asks suspend.target's LoadState), masked when masked.
[ "\$(prop ntpish_2eservice LoadState)" = loaded ] && [ "\$(prop maskme_2eservice LoadState)" = masked ] &&
	ok unloaded-unit-load-state || bad unloaded-unit-load-state "ntpish '\$(prop ntpish_2eservice LoadState)', maskme '\$(prop maskme_2eservice LoadState)'"
out=\$(nobody timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager EnableUnitFiles asbb 1 ntpish.service false true 2>&1)
sleep 0.3
echo "\$out" | grep -q 'Access denied' && [ ! -e \$LINK ] && ok enable-unit-files-root-only || bad enable-unit-files-root-only "\$out"
out=\$(mgr EnableUnitFiles asbb 1 ntpish.service false true)
[ "\$out" = 'ba(sss) true 0' ] && [ -L \$LINK ] && [ "\$(ufs)" = '"UnitFileState" s "enabled"' ] &&
	ok enable-unit-files || bad enable-unit-files "\$out; link: \$(ls -l \$LINK 2>&1); \$(ufs)"
out=\$(mgr Reload)
[ -z "\$out" ] && "\$E" log ember-activator | grep -q 'daemon-reload requested over D-Bus' && ok reload-over-bus || bad reload-over-bus "\$out"
out=\$(mgr DisableUnitFiles asb 1 ntpish.service false)
[ "\$out" = 'a(sss) 0' ] && [ ! -e \$LINK ] && [ "\$(ufs)" = '"UnitFileState" s "disabled"' ] &&
	ok disable-unit-files || bad disable-unit-files "\$out; \$(ufs)"
out=\$(mgr EnableUnitFiles asbb 1 ../../../etc/passwd false true)
echo "\$out" | grep -q 'ember has no unit' && ok enable-path-refused || bad enable-path-refused "\$out"
out=\$(mgr EnableUnitFiles s ntpish.service)
echo "\$out" | grep -qi 'expected unit file names' && [ ! -e \$LINK ] && ok enable-bad-body-refused || bad enable-bad-body-refused "\$out"

# A job's State while it is pending ("running"), NoSuchJob once it is done, as systemd
# answers logind (which otherwise takes an error for a job still pending).
jp=\$(mgr StartUnit ss slowstart.service replace | sed -n 's/^o "\(.*\)"/\1/p')
js=\$(timeout 40 busctl get-property org.freedesktop.systemd1 "\$jp" org.freedesktop.systemd1.Job State 2>&1)
wait_state slowstart ready; sleep 0.8
je=\$(error_of --dest=org.freedesktop.systemd1 "\$jp" org.freedesktop.DBus.Properties.Get string:org.freedesktop.systemd1.Job string:State)
jo=\$(error_of --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1/job/x1 org.freedesktop.DBus.Properties.Get string:org.freedesktop.systemd1.Job string:State)
[ -n "\$jp" ] && [ "\$js" = 's "running"' ] && [ "\$je" = org.freedesktop.systemd1.NoSuchJob ] &&
	[ "\$jo" = org.freedesktop.DBus.Error.UnknownMethod ] && ok job-state-answered ||
	bad job-state-answered "job '\$jp': '\$js', then '\$je'; bad path: '\$jo'"
mgr StopUnit ss slowstart.service replace >/dev/null
out=\$(mgr StartUnit ss failing.service replace)
wait_state failing failed
# a start that fails before the unit runs: the job's result is "dependency", as systemd's
mgr StartUnit ss needsfailing.service replace >/dev/null
wait_state needsfailing stopped
out=\$(mgr StartUnit ss missing.service replace)
echo "\$out" | grep -q 'no such' && ok unit-start-missing-says-so || bad unit-start-missing-says-so "\$out"
out=\$(mgr StartUnit ss user@0.service replace)
echo "\$out" | grep -q '^o "/org/freedesktop/systemd1/job/[0-9]*"' && wait_state user@0 ready &&
	[ "\$(cat "$tmp/user-manager-started" 2>/dev/null)" = 0 ] &&
	ok unit-start-user-manager-over-bus || bad unit-start-user-manager-over-bus "\$out; user@0 is \$(state user@0)"
mgr StopUnit ss user@0.service replace >/dev/null
wait_state user@0 stopped && ok unit-stop-user-manager-over-bus || bad unit-stop-user-manager-over-bus "user@0 is \$(state user@0)"
# A reload's job is pending while ExecReload= runs, and ends "failed" when it fails.
"\$E" start reloader badreload
rp=\$(mgr ReloadUnit ss reloader.service replace | sed -n 's/^o "\(.*\)"/\1/p')
rs=\$(timeout 40 busctl get-property org.freedesktop.systemd1 "\$rp" org.freedesktop.systemd1.Job State 2>&1)
[ -n "\$rp" ] && [ "\$rs" = 's "running"' ] && [ ! -e "$tmp/reloaded" ] && ok reload-job-pending-while-reloading ||
	bad reload-job-pending-while-reloading "job '\$rp': '\$rs'; \$(cat "$tmp/reloaded" 2>&1)"
mgr ReloadUnit ss badreload.service replace >/dev/null
i=0; while [ ! -e "$tmp/reloaded" ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i+1)); done
sleep 0.6
kill \$mon
n_done=\$(grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -c 'string "done"')
grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -q 'string "worker.service"' && [ "\$n_done" -ge 3 ] &&
	ok unit-jobs-removed-done || bad unit-jobs-removed-done "\$n_done done; \$(tr '\n' ' ' <"$tmp/jobs.log" | cut -c1-400)"
grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -B1 'string "failed"' | grep -q 'string "failing.service"' &&
	ok unit-job-failed-said || bad unit-job-failed-said "\$(tr '\n' ' ' <"$tmp/jobs.log" | cut -c1-400)"
grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -A1 'string "needsfailing.service"' | grep -q 'string "dependency"' &&
	ok unit-job-dependency-said || bad unit-job-dependency-said "\$(grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -A1 needsfailing | tr '\n' ' ' | cut -c1-400)"
grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -A1 'string "reloader.service"' | grep -q 'string "done"' &&
	grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -A1 'string "badreload.service"' | grep -q 'string "failed"' &&
	ok reload-jobs-removed-done-and-failed || bad reload-jobs-removed-done-and-failed "\$(grep -A4 'member=JobRemoved' "$tmp/jobs.log" | grep -A1 reload | tr '\n' ' ' | cut -c1-400)"

# ---- sessions: logind's StartTransientUnit of a login's scope. Root only; the body is
# checked; on this host (cgroup v1 controllers, no cgroup2 at /sys/fs/cgroup) the scope
# cannot be made and the caller is told so at once (tests/qemu/test-distro.sh makes real
# ones).
st() { timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartTransientUnit 'ssa(sv)a(sa(sv))' "\$@" 2>&1; }
sleep 1000 & victim=\$!
out=\$(nobody timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartTransientUnit 'ssa(sv)a(sa(sv))' session-9.scope fail 2 PIDs au 1 \$victim Slice s user-0.slice 0 2>&1)
# busctl shows any AccessDenied as "Access denied": the activator's log says it was its refusal.
echo "\$out" | grep -q 'Access denied' && "\$E" log ember-activator | grep -q 'StartTransientUnit from :1\.[0-9]* refused: not root' &&
	ok scope-nonroot-refused || bad scope-nonroot-refused "\$out; \$("\$E" log ember-activator | tail -n 2 | tr '\n' ' ')"
out=\$(st evil.service fail 1 PIDs au 1 \$victim 0)
echo "\$out" | grep -q 'of kind scope only' && ok scope-only-scopes || bad scope-only-scopes "\$out"
out=\$(st session-9.scope fail 1 PIDs au 1 1 0)
echo "\$out" | grep -q 'names PID 1' && ok scope-pid1-refused || bad scope-pid1-refused "\$out"
out=\$(st session-9.scope fail 1 PIDs s 4242 0)
echo "\$out" | grep -q 'malformed StartTransientUnit' && ok scope-wrong-type-refused || bad scope-wrong-type-refused "\$out"
out=\$(st session-9.scope fail 2 PIDs au 1 \$victim Slice s user--0.slice 0)
echo "\$out" | grep -q "is not a slice's name" && ok scope-bad-slice-refused || bad scope-bad-slice-refused "\$out"
out=\$(st ../../etc.scope fail 1 PIDs au 1 \$victim 0)
echo "\$out" | grep -q 'of kind scope only' && ok scope-path-name-refused || bad scope-path-name-refused "\$out"
# logind 257 passes the leader's pidfd (PIDFDs=ah) instead of PIDs= (scope-pidfd sends
# it: busctl cannot): its process is read from the fd (and then, as below, this host has
# no cgroup2); an fd of another kind is refused
if [ "\$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ]; then
	out=\$("$HELPERS/scope-pidfd" session-9.scope pidfd \$victim 2>&1)
	echo "\$out" | grep -q 'no cgroup2 hierarchy' && ok scope-pidfd-read || bad scope-pidfd-read "\$out"
fi
out=\$("$HELPERS/scope-pidfd" session-9.scope file /etc/hostname 2>&1)
echo "\$out" | grep -q 'InvalidArgs: PIDFDs= holds an fd that is no pidfd' && ok scope-pidfd-other-fd-refused ||
	bad scope-pidfd-other-fd-refused "\$out"
if [ "\$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
	echo "SKIP scope-no-cgroup2-said: this host has cgroup2 at /sys/fs/cgroup"
else
	out=\$(st session-9.scope fail 2 PIDs au 1 \$victim Slice s user-0.slice 0)
	echo "\$out" | grep -q 'no cgroup2 hierarchy' && ok scope-no-cgroup2-said || bad scope-no-cgroup2-said "\$out"
fi
out=\$(timeout 40 busctl call --timeout=30 org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager AbandonScope s session-404.scope 2>&1)
echo "\$out" | grep -q 'no such scope' && ok scope-abandon-unknown || bad scope-abandon-unknown "\$out"
out=\$(timeout 40 busctl get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/session_2d404_2escope org.freedesktop.systemd1.Unit LoadState 2>&1)
[ "\$out" = 's "not-found"' ] && ok scope-unknown-not-found || bad scope-unknown-not-found "\$out"
kill \$victim
[ "\$(activator_pid)" = "\$pid" ] && ok activator-alive-after-scopes || bad activator-alive-after-scopes "pid \$pid -> \$(activator_pid)"

# ---- the bus restarted: the activator goes with it and comes back with it
"\$E" stop dbus >/dev/null 2>&1
wait_state ember-activator stopped && ok activator-stops-with-bus || bad activator-stops-with-bus "ember-activator is \$(state ember-activator)"
"\$E" start dbus >/dev/null 2>&1
wait_state ember-activator ready && ok activator-back-with-bus || bad activator-back-with-bus "ember-activator is \$(state ember-activator)"
"\$E" stop echo >/dev/null 2>&1
wait_state echo stopped
call --dest=org.ember.Echo /org/ember/Echo org.ember.Echo.AfterRestart | grep -q '^method return' &&
	ok activation-after-bus-restart || bad activation-after-bus-restart "\$("\$E" log ember-activator | tail -n 2)"

# ---- root powers off through it, as logind does for a power button: the last step.
echo GUEST-CHECKS-DONE
call --dest=org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StartUnit string:poweroff.target string:replace-irreversibly
sleep 60
EOS
chmod +x "$tmp/guest.sh"
# The test's bus policy and service files, in a mount namespace of the test's own, are
# in place before dbus-daemon starts (ember-activator's connection starts it at boot).
timeout 200 unshare --net --mount --propagation private sh -c 'ip link set lo up;
	mount --bind "$0/system.d" /etc/dbus-1/system.d &&
	mount --bind "$0/system-services" /usr/share/dbus-1/system-services || exit 1
	exec unshare --pid --mount --uts --fork --mount-proc env container=ember-test "$1" \
	ember.services="$0/services" ember.run="$0/guest.sh" ember.shell=none' \
	"$tmp" "$BIN/ember-init" >"$tmp/log" 2>&1
rc=$?
guest_results "$tmp/log" $rc
grep -q 'control: poweroff requested by uid 0' "$tmp/log" && pass root-poweroff-through-bus || fail root-poweroff-through-bus "no line"
grep -q '^EMBER-RUN-EXIT=0' "$tmp/log" && fail poweroff-ended-the-run "the guest script ran to its end" || pass poweroff-ended-the-run
[ $rc -ne 124 ] && pass pid1-powered-off || fail pid1-powered-off "ember-init still ran after 200 s"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 80 "$tmp/log"; }
finish
