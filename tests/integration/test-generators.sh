#!/bin/sh
# systemd's generators under ember-init as PID 1 of a PID+mount namespace (a private /run):
# run with the three output directories before the first load, their units found at
# systemd's places (early before the unit directory, normal and late after it), a
# generator's broken unit or failure reported while the boot goes on (one whose file
# name holds ESC and a newline named escaped in the log), run again by
# daemon-reload with the last run's output gone, told systemd.generator(7)'s facts
# ($SYSTEMD_FIRST_BOOT from /etc/machine-id, $SYSTEMD_VIRTUALIZATION, $SYSTEMD_ARCHITECTURE,
# $SYSTEMD_IN_INITRD), and not run at all with ember.services= unless ember.generators=
# says where they are.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$tmp/services M=$tmp/mark G1=$tmp/gen1 G2=$tmp/gen2
mkdir -p "$S" "$M" "$G1" "$G2"
chmod 755 "$tmp"
svc() { printf "[Service]\nExecStart=/bin/sh -c 'echo %s >>$M/%s; exec sleep 1000'\n" "$2" "$1"; }
svc shadow dir >"$S/shadow.service"
# As Debian's systemd-machine-id-commit.service: runs only where /etc/machine-id is a
# mount point of its own (a file bind-mounted over: the transient ID of a first boot).
printf "[Unit]\nConditionPathIsMountPoint=/etc/machine-id\n[Service]\nType=oneshot\nExecStart=/bin/sh -c 'echo mounted >>$M/commit'\n" >"$S/commit.service"
svc shadow2 dir >"$S/shadow2.service"
cat >"$G1/units" <<EOF
#!/bin/sh
n=\$(( \$(cat $M/runs 2>/dev/null | wc -l) + 1 ))
echo "run \$n \$SYSTEMD_SCOPE" >>$M/runs
env | grep '^SYSTEMD_' | LC_ALL=C sort >$M/env
touch "\$1/run-\$n"
mkdir -p "\$1/multi-user.target.wants"
w() { ln -sf "../\$2" "\$1/multi-user.target.wants/\$2"; }
printf "[Service]\nExecStart=/bin/sh -c 'echo normal >>$M/normal; exec sleep 1000'\n" >"\$1/gen-normal.service"
w "\$1" gen-normal.service
printf "[Service]\nExecStart=/bin/sh -c 'echo early >>$M/shadow; exec sleep 1000'\n" >"\$2/shadow.service"
printf "[Service]\nExecStart=/bin/sh -c 'echo normal >>$M/shadow2; exec sleep 1000'\n" >"\$1/shadow2.service"
w "\$1" shadow.service; w "\$1" shadow2.service
printf "[Service]\nExecStart=/bin/sh -c 'echo late >>$M/late; exec sleep 1000'\n" >"\$3/late-only.service"
w "\$1" late-only.service
printf "[Service]\nType=bogus\nExecStart=/bin/true\n" >"\$1/gen-broken.service"
w "\$1" gen-broken.service
EOF
printf '#!/bin/sh\necho "gen-fails says why" >&2\nexit 4\n' >"$G1/fails"
printf '#!/bin/sh\ntouch %s/masked-ran\n' "$M" >"$G1/masked"
ln -s /dev/null "$G2/masked"
chmod +x "$G1/units" "$G1/fails" "$G1/masked"
# A file name with ESC and a newline: it fails, and its name reaches the log escaped.
ESC=$(printf '\033') NL='
'
BADNAME="bad${ESC}[31m${NL}name"
printf '#!/bin/sh\nexit 5\n' >"$G1/$BADNAME" && chmod +x "$G1/$BADNAME"

cat >"$tmp/guest.sh" <<EOS
#!/bin/sh
E="$BIN/emberctl"
ok() { echo "PASS \$1"; }
bad() { echo "FAIL \$1: \$2"; }
state() { "\$E" --json status "\$1" 2>/dev/null | sed -n 's/.*"state":"\\([^"]*\\)".*/\\1/p'; }
i=0; while [ "\$(state late-only)" != running ] && [ "\$(state late-only)" != ready ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i+1)); done
sleep 0.3
[ "\$(cat $M/normal 2>/dev/null)" = normal ] && ok normal-output-unit-runs || bad normal-output-unit-runs "\$(cat $M/normal 2>&1)"
[ "\$(cat $M/late 2>/dev/null)" = late ] && ok late-output-unit-runs || bad late-output-unit-runs "\$(cat $M/late 2>&1)"
[ "\$(cat $M/shadow 2>/dev/null)" = early ] && ok early-output-before-unit-dir || bad early-output-before-unit-dir "\$(cat $M/shadow 2>&1)"
[ "\$(cat $M/shadow2 2>/dev/null)" = dir ] && ok unit-dir-before-normal-output || bad unit-dir-before-normal-output "\$(cat $M/shadow2 2>&1)"
[ "\$(state gen-broken)" = invalid ] && ok generated-broken-unit-refused || bad generated-broken-unit-refused "\$(state gen-broken)"
[ ! -e $M/masked-ran ] && ok masked-generator-not-run || bad masked-generator-not-run "it ran"
[ "\$(cat $M/runs)" = "run 1 system" ] && ok ran-once-at-boot || bad ran-once-at-boot "\$(cat $M/runs | tr '\n' '|')"
"\$E" daemon-reload >/dev/null
[ "\$(wc -l <$M/runs)" = 2 ] && ok daemon-reload-runs-them-again || bad daemon-reload-runs-them-again "\$(cat $M/runs | tr '\n' '|')"
[ ! -e /run/systemd/generator/run-1 ] && [ -e /run/systemd/generator/run-2 ] && ok last-output-removed ||
	bad last-output-removed "\$(ls /run/systemd/generator | tr '\n' ' ')"
s=\$(state gen-normal); [ "\$s" = running ] || [ "\$s" = ready ] && ok units-kept-over-reload || bad units-kept-over-reload "\$s"
kill -0 1 && ok pid1-alive || bad pid1-alive gone
echo GUEST-CHECKS-DONE
EOS
chmod +x "$tmp/guest.sh"

boot() { # LOG [ember.generators=...]
	log=$1; shift
	timeout 60 unshare --pid --mount --uts --fork --mount-proc sh -c \
		"mount -t tmpfs -o mode=0755 ember-run /run && ${PREP:-:} && exec \"\$0\" \"\$@\"" \
		env container=ember-test ${BOOT_ENV:-} "$BIN/ember-init" ember.services="$S" \
		ember.run="${RUN:-$tmp/guest.sh}" ember.shell=none "$@" >"$log" 2>&1
}
# What systemd would tell them here: the host's architecture in systemd's words, the
# container this test runs ember-init in, not an initrd; first boot as /etc/machine-id says.
case $(uname -m) in
x86_64) arch=x86-64 ;; aarch64) arch=arm64 ;; i?86) arch=x86 ;; arm*) arch=arm ;; *) arch=$(uname -m) ;;
esac
expect_env() { # FIRST_BOOT
	printf 'SYSTEMD_ARCHITECTURE=%s\nSYSTEMD_FIRST_BOOT=%s\nSYSTEMD_IN_INITRD=0\nSYSTEMD_SCOPE=system\nSYSTEMD_VIRTUALIZATION=container:ember-test\n' "$arch" "$1"
}
first=0; [ -e /etc/machine-id ] && ! grep -q '^uninitialized' /etc/machine-id || first=1
boot "$tmp/log" ember.generators="$G2:$G1"
guest_results "$tmp/log" $?
grep -q 'generator fails exited with status 4' "$tmp/log" && pass failing-generator-reported ||
	fail failing-generator-reported "no line for it"
grep -q 'gen-broken.service:2: Type=bogus' "$tmp/log" && pass broken-generated-unit-names-file-and-line ||
	fail broken-generated-unit-names-file-and-line "no file:line"
grep -qF 'generator bad\x1b[31m\x0aname exited with status 5' "$tmp/log" && pass control-bytes-name-escaped ||
	fail control-bytes-name-escaped "$(grep -a 'status 5' "$tmp/log" | od -c | head -n 4 | tr '\n' ' ')"
grep -q "$ESC" "$tmp/log" && fail no-raw-control-byte-logged "$(grep -a "$ESC" "$tmp/log" | od -c | head -n 4 | tr '\n' ' ')" ||
	pass no-raw-control-byte-logged
grep -q '^name exited' "$tmp/log" && fail no-forged-log-line "a line starts with the name's tail" ||
	pass no-forged-log-line
grep -q 'generators: 3 run, 2 failed, 0 killed, 1 masked' "$tmp/log" && pass others-run-beside-it ||
	fail others-run-beside-it "$(grep -a 'generators:' "$tmp/log" | head -n 2)"
[ ! -e "$M/commit" ] && pass mount-point-condition-not-met || fail mount-point-condition-not-met "$(cat "$M/commit")"
[ "$(cat "$M/env")" = "$(expect_env $first)" ] && pass told-the-facts ||
	fail told-the-facts "$(tr '\n' ' ' <"$M/env")"
[ "$FAILED" = 0 ] || { echo "---- ember-init output"; tail -n 60 "$tmp/log"; }

# Without ember.generators=, a unit directory of its own means no generators.
rm -f "$M/runs"
boot "$tmp/log2"
[ ! -e "$M/runs" ] && pass not-run-with-own-unit-dir || fail not-run-with-own-unit-dir "$(cat "$M/runs")"

# An image made to be copied: /etc/machine-id "uninitialized" (in this boot's own mount
# namespace) is a first boot. ember-init makes an ID, mounts it over the file read-only
# (the disk keeps "uninitialized" for systemd-machine-id-commit), makes systemd's
# first-boot flag, and the generators are told so. An empty file is not a first boot
# (systemd since v247): it gets an ID too, but in a container (as here) ember-init never
# writes one into /etc: it is mounted over, and the file stays empty; the ID is the one
# the container's manager gave it in $container_uuid (libvirt, LXC), as under systemd.
printf 'uninitialized\n' >"$tmp/image-machine-id"
: >"$tmp/empty-machine-id"
cat >"$tmp/quiet.sh" <<'EOS'
#!/bin/sh
id=$(cat /etc/machine-id)
echo "$id" | grep -qx '[0-9a-f]\{32\}' && echo "machine-id valid" || echo "machine-id '$id'"
echo "id-is $id"
[ -e /run/systemd/first-boot ] && echo first-boot-flag
[ -w /etc/machine-id ] || echo read-only
# emberctl log of a service whose buffer is empty, where journald runs (this boot's own
# /run): a hint says where the output is, on stderr.
mkdir -p /run/systemd/journal && : >/run/systemd/journal/stdout
EMBERCTL log commit 2>&1 >/dev/null | grep -q 'journalctl -u commit' && echo journal-hint
EMBERCTL log commit 2>/dev/null | wc -c | sed 's/^ */log-stdout-bytes /'
echo GUEST-CHECKS-DONE
EOS
sed -i "s|EMBERCTL|$BIN/emberctl|" "$tmp/quiet.sh"
chmod +x "$tmp/quiet.sh"
rm -f "$M/env"
PREP="mount --bind $tmp/image-machine-id /etc/machine-id" RUN=$tmp/quiet.sh \
	boot "$tmp/log3" ember.generators="$G2:$G1"
[ "$(cat "$M/env" 2>&1)" = "$(expect_env 1)" ] && pass first-boot-told ||
	fail first-boot-told "$(tr '\n' ' ' <"$M/env" 2>&1)"
grep -q '^journal-hint' "$tmp/log3" && grep -q '^log-stdout-bytes 0$' "$tmp/log3" && pass log-hints-journal ||
	fail log-hints-journal "$(grep -aE '^(journal-hint|log-stdout)' "$tmp/log3" | tr '\n' ' ')"
g=$(grep -aE '^(machine-id|first-boot-flag|read-only)' "$tmp/log3" | tr '\n' ' ')
[ "$g" = "machine-id valid first-boot-flag read-only " ] && [ "$(cat "$tmp/image-machine-id")" = uninitialized ] &&
	pass first-boot-transient-machine-id || fail first-boot-transient-machine-id "guest: $g; disk: $(cat "$tmp/image-machine-id")"
[ "$(cat "$M/commit" 2>&1)" = mounted ] && pass mounted-file-is-mount-point ||
	fail mounted-file-is-mount-point "$(cat "$M/commit" 2>&1)"
rm -f "$M/env"
: >"$tmp/no-dbus-id" # D-Bus's ID comes first: this host's must not be taken
PREP="mount --bind $tmp/empty-machine-id /etc/machine-id && { [ ! -e /var/lib/dbus/machine-id ] || mount --bind $tmp/no-dbus-id /var/lib/dbus/machine-id; }" \
	RUN=$tmp/quiet.sh BOOT_ENV=container_uuid=7E2B9C41-5D3A-4F8E-B6C7-0A1D2E3F4B5C boot "$tmp/log4" ember.generators="$G2:$G1"
g=$(grep -aE '^(machine-id|first-boot-flag|read-only)' "$tmp/log4" | tr '\n' ' ')
[ "$(cat "$M/env" 2>&1)" = "$(expect_env 0)" ] && [ "$g" = "machine-id valid read-only " ] &&
	[ ! -s "$tmp/empty-machine-id" ] && pass empty-machine-id-not-first-boot ||
	fail empty-machine-id-not-first-boot "env: $(tr '\n' ' ' <"$M/env" 2>&1); guest: $g; disk: $(cat "$tmp/empty-machine-id")"
grep -q '^id-is 7e2b9c415d3a4f8eb6c70a1d2e3f4b5c$' "$tmp/log4" && pass container-uuid-is-machine-id ||
	fail container-uuid-is-machine-id "$(grep -a '^id-is' "$tmp/log4")"
finish
