#!/bin/sh
# sandbox-more: the exec keys that need no cgroup, with the real ember-init as PID 1 of a
# PID+mount namespace (as test-execenv-run.sh): ProtectProc=, ProcSubset=, PrivateUsers=,
# PrivateMounts=, MountFlags=, I/O and CPU scheduling, CPUAffinity=, UnsetEnvironment=,
# LoadCredential=/SetCredential= (and their removal at stop), PermissionsStartOnly=, the
# old ReadOnlyDirectories= name. Every key is checked against procopen, the same probe
# without the keys, so a key that did nothing fails. ember-sandbox's new options are
# checked directly first. The BPF keys (DeviceAllow=, IPAddressDeny=) need cgroup2 and
# run in QEMU: tests/qemu/test-execmore-bpf.sh.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
# The services run as nobody: they read the probe from a copy every user may reach (a
# checkout in a 0700 directory, as mktemp -d makes, is out of nobody's reach).
src="$TOP/tests/integration/execmore"
mkdir -p "$tmp/services" "$tmp/probes"
cp "$src/probe.sh" "$tmp/probes/" && chmod 0755 "$tmp/probes" && chmod 0644 "$tmp/probes/probe.sh"
for f in "$src"/*.service; do
	sed -e "s|@DIR@|$tmp/probes|g" -e "s|@TMP@|$tmp|g" "$f" >"$tmp/services/$(basename "$f")"
done
printf 'the-secret' >"$tmp/secret"
printf 'first' >"$tmp/secret2"
chmod 0600 "$tmp/secret" # root's: only the credential copy is the service's

# ---- ember-sandbox directly
SB="$BIN/ember-sandbox"
"$SB" --protect-proc=hidden -- /bin/true >/dev/null 2>&1
[ $? = 100 ] && pass sandbox-bad-protect-proc-100 || fail sandbox-bad-protect-proc-100 "exit $?"
"$SB" --private-users=x:1 -- /bin/true >/dev/null 2>&1
[ $? = 100 ] && pass sandbox-bad-private-users-100 || fail sandbox-bad-private-users-100 "exit $?"
"$SB" --mount-propagation=rslave -- /bin/true >/dev/null 2>&1
[ $? = 100 ] && pass sandbox-bad-mount-propagation-100 || fail sandbox-bad-mount-propagation-100 "exit $?"
out=$("$SB" --proc-subset=pid -- /bin/sh -c '[ -e /proc/meminfo ] && echo present || echo absent' 2>&1)
[ "$out" = absent ] && pass sandbox-proc-subset || fail sandbox-proc-subset "$out"
[ -e /proc/meminfo ] && pass sandbox-host-proc-untouched || fail sandbox-host-proc-untouched "host /proc lost meminfo"
out=$("$SB" --private-users=65534:65534 -- /bin/sh -c 'tr -s " " </proc/self/uid_map | tr "\n" ";"' 2>&1)
[ "$out" = " 0 0 1; 65534 65534 1;" ] && pass sandbox-private-users-map || fail sandbox-private-users-map "$out"
out=$("$SB" --private-users=0:0 -- /bin/sh -c 'tr -s " " </proc/self/uid_map | tr "\n" ";"' 2>&1)
[ "$out" = " 0 0 1;" ] && pass sandbox-private-users-root-only || fail sandbox-private-users-root-only "$out"
out=$("$SB" --private-users=identity -- /bin/sh -c 'tr -s " " </proc/self/gid_map | tr "\n" ";"' 2>&1)
[ "$out" = " 0 0 65536;" ] && pass sandbox-private-users-identity || fail sandbox-private-users-identity "$out"
out=$("$SB" --private-users=full -- /bin/sh -c 'tr -s " " </proc/self/uid_map | tr "\n" ";"' 2>&1)
[ "$out" = " 0 0 1; 1 1 4294967294;" ] && pass sandbox-private-users-full || fail sandbox-private-users-full "$out"
"$SB" --private-users=ident -- /bin/true >/dev/null 2>&1
[ $? = 100 ] && pass sandbox-bad-private-users-mode-100 || fail sandbox-bad-private-users-mode-100 "exit $?"
# The bounding set PrivateDevices= and ProtectKernelModules= take away holds in the user
# namespace too (a new namespace starts with a full one: it is dropped after it is made).
# CAP_MKNOD 27, CAP_SYS_RAWIO 17, CAP_SYS_MODULE 16.
out=$("$SB" --private-users=0:0 --private-devices --protect-kernel-modules -- /bin/sh -c \
	'b=$(sed -n "s/^CapBnd:[[:space:]]*//p" /proc/self/status); echo $(( (0x$b >> 27 & 1) + (0x$b >> 17 & 1) + (0x$b >> 16 & 1) ))' 2>&1)
[ "$out" = 0 ] && pass sandbox-private-users-keeps-bounding-drops ||
	fail sandbox-private-users-keeps-bounding-drops "mknod+rawio+module in CapBnd: $out"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$SB" --private-users=1:1 -- /bin/true 2>&1)
rc=$?
[ $rc = 1 ] && pass sandbox-unprivileged-refused || fail sandbox-unprivileged-refused "exit $rc: $out"

cat >"$tmp/boot.sh" <<EOS
#!/bin/sh
# shared, as on a booted system (unshare(1) made the copy private): MountFlags= shows
mount --make-rshared / || exit 1
for d in /run /var/lib; do mount -t tmpfs -o mode=0755 tmpfs \$d || exit 1; done
mount -t tmpfs -o mode=1777 tmpfs /dev/shm || exit 1
mkdir -p /run/credstore && printf 'from-the-store' >/run/credstore/fromstore
ipcmk -M 4096 >/dev/null || exit 1 # PrivateIPC=: a segment the services outside may see
# ImportCredential=: /run/credstore comes before /usr/local/lib/credstore (a tmpfs here)
for c in imp.first:store-first imp.second:run-second one.cred:one pre.x:px pre.y:py unrelated:u; do
	printf '%s' "\${c#*:}" >/run/credstore/"\${c%%:*}"
done
mkdir -p /run/credstore/imp.dir
mount -t tmpfs -o mode=0755 tmpfs /usr/local/lib && mkdir /usr/local/lib/credstore || exit 1
printf usrlocal >/usr/local/lib/credstore/imp.second
printf usrlocal-third >/usr/local/lib/credstore/imp.third
# PassEnvironment=: PID 1's own environment, as the kernel gives it boot options
exec env PASSME=from-pid1 OVERRIDDEN=from-pid1 "$BIN/ember-init" ember.services="$tmp/services" \\
	ember.run="$tmp/guest.sh" ember.shell=none
EOS
cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
. "$TOP/tests/integration/guest-lib.sh"
val() { # NAME KEY: the value the probe printed (waits for probe-done, up to 10 s)
	i=0
	while ! "\$E" log "\$1" | grep -q "probe-done" && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
	"\$E" log "\$1" | sed -n "s/^.*\$2=//p" | head -n 1
}
is() { # CASE NAME KEY WANT
	got=\$(val "\$2" "\$3")
	[ "\$got" = "\$4" ] && ok "\$1" || bad "\$1" "\$2: \$3='\$got', want '\$4' / \$("\$E" status "\$2" | tr '\n' ' ')"
}

# ---- the control: no keys
is control-sees-pid1 procopen pid1 visible
is control-has-meminfo procopen meminfo present
is control-full-uid-map procopen uidmap "0 0 4294967295;"
is control-policy-other procopen policy 0
is control-all-cpus procopen cpus "0-\$((\$(nproc) - 1))"
is control-no-credentials procopen creds unset
is control-env-all procopen env "UNSET_A=1 UNSET_B=2 UNSET_C=3 "
is control-no-passed-env procopen passenv ""
is pass-environment passenv passenv "OVERRIDDEN=from-the-unit PASSME=from-pid1 "
ctl_ionice=\$(val procopen ionice)
pid1_ns=\$(readlink /proc/1/ns/mnt)

# ---- /proc
is protect-proc-hides-pid1 protectproc pid1 hidden
is protect-proc-keeps-self protectproc self visible
is proc-subset-no-meminfo procsubset meminfo absent
is proc-subset-keeps-self procsubset self visible
[ -e /proc/meminfo ] && [ -e /proc/1/status ] && ok proc-only-inside || bad proc-only-inside "PID 1's /proc changed"

# ---- namespaces
is private-users-uid-map privusers uidmap "0 0 1;65534 65534 1;"
is private-users-gid-map privusers gidmap "0 0 1;65534 65534 1;"
is private-users-runs-as-user privusers uid 65534
# systemd 257's self (as yes) and identity, 258's full (two extents: still a namespace)
is private-users-self-uid-map privusersself uidmap "0 0 1;65534 65534 1;"
is private-users-identity-uid-map privusersid uidmap "0 0 65536;"
is private-users-identity-gid-map privusersid gidmap "0 0 65536;"
is private-users-identity-runs-as-user privusersid uid 65534
is private-users-full-uid-map privusersfull uidmap "0 0 1;1 1 4294967294;"
is private-users-full-gid-map privusersfull gidmap "0 0 1;1 1 4294967294;"
is private-users-full-runs-as-user privusersfull uid 65534
# No device node can be made in a user namespace: the private /dev binds the host's
# nodes onto empty files, as systemd does (mknod failed and the start with it).
is private-users-private-dev-runs privusersdev uid 65534
# (and what systemd's private /dev shares with the host's, where the host has it)
devs=\$(for n in fd full hugepages log mqueue null ptmx pts random shm stderr stdin stdout tty urandom zero; do
	case \$n in hugepages|log|mqueue) [ -e /dev/\$n ] || [ -L /dev/\$n ] || continue ;; esac; printf '%s ' \$n; done)
is private-users-private-dev-nodes privusersdev devs "\$devs"
is private-users-private-dev-null-works privusersdev devnull works
got=\$(val privmounts mntns)
[ -n "\$got" ] && [ "\$got" != "\$pid1_ns" ] && ok private-mounts-own-namespace || bad private-mounts-own-namespace "'\$got' vs PID 1 \$pid1_ns"
[ "\$(val procopen mntns)" = "\$pid1_ns" ] && ok control-shares-namespace || bad control-shares-namespace "\$(val procopen mntns)"
is read-only-directories-old-name privmounts varlib read-only
# PrivateIPC=: its own IPC namespace (the segment made at boot is not there) and mqueue
pid1_ipc=\$(readlink /proc/1/ns/ipc)
is control-shares-ipc-namespace procopen ipcns "\$pid1_ipc"
[ "\$(val procopen shm)" -ge 1 ] && ok control-sees-shm || bad control-sees-shm "\$(val procopen shm)"
got=\$(val privipc ipcns)
[ -n "\$got" ] && [ "\$got" != "\$pid1_ipc" ] && ok private-ipc-own-namespace || bad private-ipc-own-namespace "'\$got' vs PID 1 \$pid1_ipc"
is private-ipc-no-shm-of-others privipc shm 0
is private-ipc-own-mqueue privipc mqueue mqueue
# MountFlags=: the propagation of the sandbox's "/" once set up
is mount-flags-default-shared-slave propdefault prop "shared master "
is mount-flags-slave propslave prop "master "
is mount-flags-private propprivate prop none
[ "\$(val propshared mntns)" = "\$pid1_ns" ] && ok mount-flags-shared-no-namespace || bad mount-flags-shared-no-namespace "\$(val propshared mntns)"
[ "\$(val propprivate mntns)" != "\$pid1_ns" ] && ok mount-flags-private-own-namespace || bad mount-flags-private-own-namespace "\$(val propprivate mntns)"
touch /var/lib/from-pid1 && ok read-only-only-inside || bad read-only-only-inside "PID 1's /var/lib is read-only"

# ---- scheduling
is cpu-policy-idle sched policy 5
is cpu-affinity sched cpus 0
is io-class-idle sched ionice idle
got=\$(val rtprio ionice)
[ "\$got" = "best-effort: prio 7" ] && [ "\$ctl_ionice" != "\$got" ] && ok io-priority-7 || bad io-priority-7 "'\$got' (control '\$ctl_ionice')"
got=\$(val rtprio chrt)
case "\$got" in *SCHED_RR\|SCHED_RESET_ON_FORK*"priority: 10"*) ok cpu-rr-priority-reset-on-fork ;; *) bad cpu-rr-priority-reset-on-fork "'\$got'" ;; esac

# ---- environment
is unset-environment unsetenv env "UNSET_C=3 "

# ---- credentials
is credentials-directory creds creds /run/credentials/creds.service
got=\$("\$E" log creds | grep '^key=')
[ "\$got" = "key=the-secret store=from-the-store greeting=hello world" ] && ok credentials-contents || bad credentials-contents "'\$got'"
is credentials-missing-name-skipped creds files "fromstore greeting key "
# ImportCredential=: LoadCredential= wins, then the first store; SetCredential= only
# where nothing was loaded or imported; a directory is skipped; renamed names and prefixes
is credentials-imported credimport credfiles "imp.first=the-secret imp.second=run-second imp.third=usrlocal-third new.x=px new.y=py only.set=set-value renamed.cred=one "
is credentials-owner creds owner "nobody 400 dirmode=nobody 500"
is credentials-read-only creds cred-write no
[ "\$(cat "$tmp/secret")" = the-secret ] && ok credentials-source-untouched || bad credentials-source-untouched "changed"
"\$E" stop creds; wait_state creds stopped
i=0; while [ -e /run/credentials/creds.service ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ ! -e /run/credentials/creds.service ] && ok credentials-removed-on-stop || bad credentials-removed-on-stop "\$(ls -la /run/credentials/creds.service)"
grep -q ' /run/credentials/creds.service ' /proc/self/mountinfo && bad credentials-unmounted "still mounted" || ok credentials-unmounted
# A start right after the stop gets credentials of its own, not the last run's directory
# (which the stop then took away).
wait_log credquick "run key=first" || bad credentials-quick-restart "no first run"
quick=ok
for n in 1 2 3 4 5 6 7 8; do
	printf "v\$n" >"$tmp/secret2"; "\$E" restart credquick
	wait_log credquick "run key=v\$n\\\$" && sleep 0.3 &&
		[ "\$(cat /run/credentials/credquick.service/key 2>&1)" = "v\$n" ] || { quick="round \$n"; break; }
done
[ "\$quick" = ok ] && ok credentials-quick-restart ||
	bad credentials-quick-restart "\$quick: \$("\$E" log credquick | tr '\n' ' '); dir: \$(ls -la /run/credentials/credquick.service 2>&1 | tr '\n' ' ')"
wait_state credmissing failed permanent-failure && ok credentials-missing-path-fails || bad credentials-missing-path-fails "\$(state credmissing)"
"\$E" log credmissing | grep -q credmissing-ran && bad credentials-missing-runs-nothing "it ran" || ok credentials-missing-runs-nothing

# ---- PermissionsStartOnly=
i=0; while ! "\$E" log permstart | grep -q main-uid && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$("\$E" log permstart | sed -n 's/^.*pre-uid=//p')" = 0 ] && ok permissions-start-only-pre-root || bad permissions-start-only-pre-root "\$("\$E" log permstart | tr '\n' ' ')"
[ "\$("\$E" log permstart | sed -n 's/^.*main-uid=//p')" = 65534 ] && ok permissions-start-only-main-user || bad permissions-start-only-main-user "\$("\$E" log permstart | tr '\n' ' ')"
i=0; while ! "\$E" log permcontrol | grep -q pre-uid && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$("\$E" log permcontrol | sed -n 's/^.*pre-uid=//p')" = 65534 ] && ok control-pre-as-user || bad control-pre-as-user "\$("\$E" log permcontrol | tr '\n' ' ')"
# ---- SecureBits=, AppArmorProfile=
is securebits-noroot securebits capeff 0000000000000000
is securebits-through-ember-caps securecaps capeff 0000000000000000
# with User=: the bits need CAP_SETPCAP after the uid change (Debian's gdnsd failed so)
is securebits-with-user securebitsuser securebits noroot
is securebits-with-user-runs-as-user securebitsuser uid 65534
is securebits-gdnsd-keys securebitsgdnsd securebits "noroot,noroot_locked,no_setuid_fixup,no_setuid_fixup_locked"
is securebits-gdnsd-ambient-kept securebitsgdnsd capeff 0000000000000400
got=\$(val rootcaps capeff)
[ -n "\$got" ] && [ "\$got" != 0000000000000000 ] && ok control-root-has-caps || bad control-root-has-caps "'\$got'"
if [ "\$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ]; then
	echo "SKIP apparmor-skipped-when-disabled: AppArmor is enabled here (tests/qemu/test-execmore-bpf.sh checks that case)"
else
	wait_state apparmor "running ready" && ok apparmor-skipped-when-disabled || bad apparmor-skipped-when-disabled "\$(state apparmor)"
fi

# ---- RemoveIPC=
is ipc-made ipcuser shm-made yes
is ipc-control-made ipckeep shm-made yes
n_before=\$(ipcs -m | grep -c ' nobody \| 65534 ')
"\$E" stop ipcuser; "\$E" stop ipckeep; wait_state ipcuser stopped; wait_state ipckeep stopped
i=0; while [ -e /dev/shm/execmore-nobody ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
[ "\$n_before" -ge 1 ] && [ "\$(ipcs -m | grep -c ' nobody \| 65534 ')" = 0 ] && ok remove-ipc-sysv || bad remove-ipc-sysv "before \$n_before: \$(ipcs -m | tr '\n' ' ')"
[ ! -e /dev/shm/execmore-nobody ] && ok remove-ipc-posix || bad remove-ipc-posix "\$(ls -l /dev/shm)"
[ -e /dev/shm/execmore-daemon ] && ipcs -m | grep -q ' daemon ' && ok control-ipc-kept || bad control-ipc-kept "\$(ls -l /dev/shm; ipcs -m)"
kill -0 1 && ok pid1-alive || bad pid1-alive "gone"
exit 0
EOS
chmod +x "$tmp/boot.sh" "$tmp/guest.sh"
timeout 120 unshare --pid --mount --uts --ipc --fork --mount-proc \
	env container=ember-test "$tmp/boot.sh" >"$tmp/log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$tmp/log"
grep -q '^FAIL ' "$tmp/log" && FAILED=1
grep -q '^EMBER-RUN-EXIT=0$' "$tmp/log" && pass guest-completed || fail guest-completed "rc $rc; $(tail -5 "$tmp/log" | tr '\n' ' ')"
grep -q 'credmissing.*credentials.*No such file' "$tmp/log" &&
	pass credentials-failure-says-why || fail credentials-failure-says-why "$(grep 'credmissing' "$tmp/log" | tr '\n' ' ')"
[ ! -e /run/credentials/creds.service ] && pass host-untouched || fail host-untouched "left /run/credentials/creds.service on the host"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }
finish
