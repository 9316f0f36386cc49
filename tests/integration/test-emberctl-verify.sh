#!/bin/sh
# emberctl verify: ember-init's parser offline. The output format (FILE:LINE: KEY: WHY,
# then one verdict per file), exit codes, --json, --verbose, --root lookups, and bad
# input: unreadable files, a FIFO, a NUL byte, an unknown section, an unsupported
# specifier, a template, control bytes in a file name, swap units.
. "$(dirname "$0")/../lib.sh"
V="$BIN/emberctl verify"
[ -x "$BIN/emberctl" ] || { fail build "run make first (missing $BIN/emberctl)"; finish; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

printf '[Unit]\nDescription=fine\n[Service]\nExecStart=/bin/true\n' >"$T/good.service"
printf '[Unit]\nDescription=sandboxed\nDocumentation=man:x(8)\n[Service]\nExecStart=/bin/true\nRestrictFileSystems=ext4\n' >"$T/sandbox.service"
printf '[Service]\nExecStart=/bin/true\nRootImage=/srv/app.raw\n' >"$T/rootimage.service"
printf '[Service]\nExecStart=/bin/true %%d/x.key\n' >"$T/spec.service"
printf '[Service]\nExec\000Start=/bin/true\n' >"$T/nul.service"
printf '[Service]\nExecStart=/bin/true\n[Frobnicate]\nX=1\n' >"$T/section.service"
printf '[Service]\nExecStart=/sbin/agetty %%I\n' >"$T/getty@.service"
: >"$T/masked.service"

out=$($V "$T/good.service"); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$T/good.service: clean" ] && pass clean-file ||
	fail clean-file "rc=$rc out=$out"

out=$($V "$T/sandbox.service"); rc=$?
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qxF "$T/sandbox.service:6: RestrictFileSystems: not supported by ember: every file system type is allowed" &&
	printf '%s\n' "$out" | grep -qxF "$T/sandbox.service: changes (0 errors, 1 warning)" &&
	pass changes-file-warns-what-changes || fail changes-file-warns-what-changes "rc=$rc out=$out"
printf '%s\n' "$out" | grep -q Documentation && fail harmless-is-silent "$out" || pass harmless-is-silent
$V --verbose "$T/sandbox.service" | grep -qxF "$T/sandbox.service:3: Documentation: ignored, harmless: documentation links only" &&
	pass verbose-shows-harmless-notes || fail verbose-shows-harmless-notes "$($V --verbose "$T/sandbox.service")"

out=$($V "$T/rootimage.service"); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "^$T/rootimage.service:3: RootImage: refused by ember: .*root file system" &&
	printf '%s\n' "$out" | grep -qxF "$T/rootimage.service: refused (1 error, 0 warnings)" &&
	pass refused-file-exits-1 || fail refused-file-exits-1 "rc=$rc out=$out"

out=$($V "$T/spec.service")
printf '%s\n' "$out" | grep -q ':2: ExecStart=.*specifier %d is not supported (credentials directory: use $CREDENTIALS_DIRECTORY' &&
	pass unsupported-specifier-names-replacement || fail unsupported-specifier-names-replacement "$out"
out=$($V "$T/nul.service"); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "nul.service:2: .*NUL" && pass nul-byte-refused ||
	fail nul-byte-refused "rc=$rc out=$out"
out=$($V "$T/section.service"); rc=$?
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q "section.service:3: unknown section \[Frobnicate\]" &&
	pass unknown-section-warns || fail unknown-section-warns "rc=$rc out=$out"
# A template is checked as an instance of itself, as systemd-analyze verify does.
out=$($V "$T/getty@.service"); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$T/getty@.service: clean" ] && pass template-checked-as-instance ||
	fail template-checked-as-instance "rc=$rc out=$out"
out=$($V "$T/masked.service"); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$T/masked.service: clean" ] && pass empty-file-is-masked || fail empty-file-is-masked "$out"

# unreadable: missing, a dangling link, a directory, a FIFO (must not hang)
ln -s "$T/nowhere" "$T/dangling.service"
mkfifo "$T/fifo.service"
mkdir "$T/dir.service"
out=$(timeout 10 $V "$T/missing.service" "$T/dangling.service" "$T/dir.service" "$T/fifo.service"); rc=$?
[ "$rc" = 1 ] &&
	printf '%s\n' "$out" | grep -qxF "$T/missing.service: cannot read: No such file or directory" &&
	printf '%s\n' "$out" | grep -qxF "$T/dangling.service: cannot read: No such file or directory" &&
	printf '%s\n' "$out" | grep -qxF "$T/dir.service: is a directory, not a unit file" &&
	printf '%s\n' "$out" | grep -qxF "$T/fifo.service: not a regular file" &&
	pass unreadable-files-reported || fail unreadable-files-reported "rc=$rc out=$out"

# control bytes in a name are escaped, never printed raw
esc=$(printf '%s/bad\033[2Jname.service' "$T")
printf '[Service]\nExecStart=/bin/true\n' >"$esc"
printf '[Service]\nExecStart=/bin/true\nFoo\033[2J=1\nUser=a\033[2J\n' >"$T/esc.service"
out=$($V "$esc" "$T/esc.service")
printf '%s' "$out" | grep -q "$(printf '\033')" && fail control-bytes-escaped "raw ESC in output" ||
	{ printf '%s\n' "$out" | grep -qF 'bad\x1b[2Jname.service: refused' &&
	  printf '%s\n' "$out" | grep -qF 'esc.service:3: ' && pass control-bytes-escaped ||
	fail control-bytes-escaped "$out"; }

# names are looked up below --root in ember's and systemd's directories
mkdir -p "$T/root/lib/systemd/system" "$T/root/etc/ember/services"
cp "$T/sandbox.service" "$T/root/lib/systemd/system/demo.service"
cp "$T/good.service" "$T/root/etc/ember/services/mine.service"
cp "$T/getty@.service" "$T/root/lib/systemd/system/getty@.service"
out=$($V --root="$T/root" demo mine.service getty@tty1.service nosuch)
printf '%s\n' "$out" | grep -qxF "$T/root/lib/systemd/system/demo.service: changes (0 errors, 1 warning)" &&
	printf '%s\n' "$out" | grep -qxF "$T/root/etc/ember/services/mine.service: clean" &&
	printf '%s\n' "$out" | grep -qxF "$T/root/lib/systemd/system/getty@.service: clean" &&
	printf '%s\n' "$out" | grep -qxF "nosuch: no such unit in ember's or systemd's unit directories below $T/root" &&
	pass root-lookup || fail root-lookup "$out"

# --json: one valid document with the same verdicts
$V --json "$T/good.service" "$T/sandbox.service" "$T/rootimage.service" >"$T/out.json"; rc=$?
if [ "$rc" = 1 ] && python3 - "$T/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = [u["result"] for u in d["units"]]
assert r == ["clean", "changes", "refused"], r
assert (d["clean"], d["changes"], d["refused"]) == (1, 1, 1)
w = d["units"][1]["diagnostics"][0]
assert w["severity"] == "warning" and w["line"] == 6 and w["message"].startswith("RestrictFileSystems: "), w
PY
then pass json-output; else fail json-output "rc=$rc $(head -c 300 "$T/out.json")"; fi

# swap units: the same parser as ember-init; What= must be the unit's name
printf '[Swap]\nWhat=/dev/zram0\nPriority=100\nOptions=discard\n' >"$T/dev-zram0.swap"
printf '[Swap]\nWhat=/dev/zram0\n' >"$T/dev-zram1.swap"
out=$($V "$T/dev-zram0.swap"); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$T/dev-zram0.swap: clean" ] && pass swap-unit-clean ||
	fail swap-unit-clean "rc=$rc out=$out"
out=$($V "$T/dev-zram1.swap"); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -qF "What=/dev/zram0 does not match the unit name (its unit is dev-zram0.swap)" &&
	pass swap-unit-bad-what-refused || fail swap-unit-bad-what-refused "rc=$rc out=$out"

# drop-ins are checked with their unit, as ember-init applies them: those beside a FILE,
# those of a NAME's search path (below --root); their messages name the drop-in, and
# the unit is judged with them (a drop-in may give a fragment the ExecStart= it lacks)
mkdir -p "$T/di/pkg.service.d" "$T/di/lock.service.d" "$T/root/etc/systemd/system/demo.service.d"
printf '[Service]\nExecStart=/bin/true\n' >"$T/di/pkg.service"
printf '[Service]\nBogusKey=1\nRestrictFileSystems=ext4\n' >"$T/di/pkg.service.d/10-more.conf"
printf '[Unit]\nDescription=no command of its own\n' >"$T/di/lock.service"
printf '[Service]\nExecStart=/bin/true\n' >"$T/di/lock.service.d/cmd.conf"
out=$($V "$T/di/pkg.service" "$T/di/lock.service"); rc=$?
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q "^$T/di/pkg.service.d/10-more.conf:3: RestrictFileSystems: " &&
	printf '%s\n' "$out" | grep -qxF "$T/di/pkg.service: changes (0 errors, 2 warnings)" &&
	printf '%s\n' "$out" | grep -qxF "$T/di/lock.service: clean" &&
	pass dropins-beside-file || fail dropins-beside-file "rc=$rc $out"
printf '[Service]\nRootImage=/srv/x.raw\n' >"$T/root/etc/systemd/system/demo.service.d/override.conf"
out=$($V --root="$T/root" demo); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "^$T/root/etc/systemd/system/demo.service.d/override.conf:2: RootImage: refused" &&
	printf '%s\n' "$out" | grep -qxF "$T/root/lib/systemd/system/demo.service: refused (1 error, 1 warning)" &&
	pass dropins-below-root || fail dropins-below-root "rc=$rc $out"
$V --json "$T/di/pkg.service" | python3 -c '
import json, sys
d = json.load(sys.stdin)["units"][0]["diagnostics"]
assert any(x.get("dropin", "").endswith("/pkg.service.d/10-more.conf") and x["line"] == 3 for x in d), d' &&
	pass dropins-json || fail dropins-json "$($V --json "$T/di/pkg.service")"
out=$($V "$T/di/pkg.service.d/10-more.conf"); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -qF "a drop-in: verify its unit" && pass dropin-file-named ||
	fail dropin-file-named "rc=$rc $out"

# options may come before the verb; usage errors exit 100
$BIN/emberctl --json verify "$T/good.service" | grep -q '"clean":1' && pass options-before-verb ||
	fail options-before-verb "$($BIN/emberctl --json verify "$T/good.service" 2>&1)"
$V >/dev/null 2>&1; rc=$?
[ "$rc" = 100 ] && pass no-arguments-is-usage || fail no-arguments-is-usage "rc=$rc"
$V --bogus x >/dev/null 2>&1; rc=$?
[ "$rc" = 100 ] && pass unknown-option-is-usage || fail unknown-option-is-usage "rc=$rc"
finish
