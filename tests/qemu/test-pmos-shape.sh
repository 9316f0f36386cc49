#!/bin/sh
# A postmarketOS-shaped device switched to ember, and back (issue 17). There is no
# Alpine here, so the root file system is built the way a pmOS install is laid out:
# busybox applets where Alpine puts them, ember's programs, postmarketos-base-ember's
# package() and its dbus subpackage (run through the simulated abuild), the provider's
# post-install (/sbin/init -> ember-init, the previous init remembered), a deviceinfo
# with a serial getty, zram and /tmp sizes, Debian's sshd and dbus-daemon copied with
# their libraries. It lives on an ext4 disk that a pmOS-like initramfs mounts
# READ-ONLY and hands to a hard-coded /sbin/init (no init= is passed through).
#
# Boot 1 (ember): no root shell on the console (init.conf's ember.shell=none), a login
# prompt on ttyS0 from the provider's deviceinfo getty, / remounted read-write by
# localmount, sshd ready and answering, the bus ready before its client (Type=dbus),
# zram swap and /tmp tmpfs from deviceinfo, a non-root user can list and read status
# but not stop a service; then the provider's pre-deinstall (what `apk del` runs) puts
# /sbin/init back. Boot 2: the same disk comes up with busybox init, the previous init.
# The checks run as a unit of the administrator's (/etc/ember/services), which reports
# on the console and powers off.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
D=$TOP/pkg/postmarketos/postmarketos-base-ember
W=$QEMU_WORK/pmos-shape
rm -rf "$W"
mkdir -p "$W" "$TOP/out/test-logs"
R=$W/root

# copy_with_libs SRC DST [LD_LIBRARY_PATH [PREFIX]]: a dynamic program and the libraries
# it loads; a library below PREFIX (an unpacked package) goes where the package puts it.
copy_with_libs() {
	mkdir -p "$R$(dirname "$2")"
	cp -L "$1" "$R$2"
	for lib in $(LD_LIBRARY_PATH=${3:-} ldd "$1" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
		dst=$lib
		[ -n "${4:-}" ] && dst=${lib#"$4"}
		[ -e "$R$dst" ] && continue
		mkdir -p "$R$(dirname "$dst")"
		cp -L "$lib" "$R$dst"
	done
}

# ---- the root file system ------------------------------------------------------------
# ember's programs, busybox, the zram module: mkinitramfs.sh's tree, unpacked.
qemu_image "$W/base.cpio" --modules zram || { fail image "mkinitramfs failed"; finish; }
mkdir -p "$R"
(cd "$R" && cpio -id --quiet <"$W/base.cpio")
rm -f "$R/init" "$R/sbin/init"
# Alpine's layout: every busybox applet where busybox installs it (/sbin/getty, ...).
for p in $(/bin/busybox --list-full); do
	[ -e "$R/$p" ] || [ -L "$R/$p" ] || { mkdir -p "$R/$(dirname "$p")"; ln -s /bin/busybox "$R/$p"; }
done
# Merged /usr puts ember-init in /usr/sbin (the APKBUILD's INITDIR).
mv "$R/sbin/ember-init" "$R/usr/sbin/ember-init"
# What Alpine's busybox leaves: /sbin/init is busybox's init.
ln -sfn /bin/busybox "$R/sbin/init"

# The provider, as abuild packages it: the main package and the dbus subpackage.
S=$W/abuild
mkdir -p "$S/src"
for s in $(env -i bash -c '. "$1"; for s in $source; do echo "${s##*/}"; done' _ "$D/APKBUILD"); do
	ln -s "$D/$s" "$S/src/$s"
done
if env -u TOP -u BIN bash -c '. "$1"; abuild_setup "$2" "$3"; builddir=$srcdir; abuild_phase package && abuild_split' \
	_ "$TOP/tests/integration/pkg-abuild-shim.sh" "$S" "$D/APKBUILD" >"$W/abuild.log" 2>&1; then
	cp -a "$S/pkg/postmarketos-base-ember/." "$R/"
	cp -a "$S/pkg/postmarketos-base-ember-dbus/." "$R/"
else
	fail provider-package "$(tail -n 3 "$W/abuild.log" | tr '\n' ' ')"
	finish
fi
# `apk add postmarketos-base-ember` runs its post-install.
EMBER_TEST_ROOT=$R sh "$D/postmarketos-base-ember.post-install" >"$W/post-install.out" 2>&1
[ "$(readlink "$R/sbin/init")" = /usr/sbin/ember-init ] && pass post-install-selects-ember ||
	fail post-install-selects-ember "/sbin/init -> $(readlink "$R/sbin/init")"
mkdir -p "$R/usr/libexec/pmos-shape"
cp "$D/postmarketos-base-ember.pre-deinstall" "$R/usr/libexec/pmos-shape/pre-deinstall"

# The device: a serial console in deviceinfo, zram and /tmp sizes; an fstab; users.
mkdir -p "$R/usr/share/deviceinfo" "$R/var/empty" "$R/etc/ssh"
cat >"$R/usr/share/deviceinfo/deviceinfo" <<'EOF'
deviceinfo_name="QEMU pmOS-shaped test device"
deviceinfo_getty="ttyS0;115200"
deviceinfo_zram_swap_pct="25"
deviceinfo_tmp_as_tmpfs_size="16M"
EOF
echo '# the root is mounted by the initramfs' >"$R/etc/fstab"
cat >>"$R/etc/passwd" <<'EOF'
user:x:1000:1000:user:/home/user:/bin/sh
sshd:x:100:65534:sshd:/var/empty:/bin/false
messagebus:x:101:101:messagebus:/nonexistent:/bin/false
EOF
printf 'user:x:1000:\nmessagebus:x:101:\nseat:x:102:user\n' >>"$R/etc/group"
mkdir -p "$R/home/user" && chown 1000:1000 "$R/home/user"

# sshd: Debian's, unpacked into a cache (never installed on this machine).
if sshroot=$("$TOP/scripts/sshd-cache.sh" 2>"$W/sshd-cache.log") && [ -x "$sshroot/usr/sbin/sshd" ] &&
	command -v ssh-keygen >/dev/null; then
	copy_with_libs "$sshroot/usr/sbin/sshd" /usr/sbin/sshd "$sshroot/lib/x86_64-linux-gnu:$sshroot/usr/lib/x86_64-linux-gnu" "$sshroot"
	copy_with_libs "$(command -v ssh-keygen)" /usr/bin/ssh-keygen
	# An RSA host key made here: under TCG on a busy machine ssh-keygen's RSA key can
	# take minutes. sshd-keygen still makes the ECDSA and Ed25519 ones in the guest.
	ssh-keygen -q -t rsa -b 2048 -N '' -f "$R/etc/ssh/ssh_host_rsa_key" >/dev/null
	cat >"$R/etc/ssh/sshd_config" <<'EOF'
PidFile /run/sshd.pid
UsePAM no
PermitRootLogin no
EOF
	have_sshd=1
else
	have_sshd=""
	skip sshd "no sshd to copy: $(tail -n 1 "$W/sshd-cache.log")"
fi

# The system bus: Debian's dbus-daemon, with the provider's dbus.service.
if [ -x /usr/bin/dbus-daemon ] && [ -f /usr/share/dbus-1/system.conf ]; then
	for p in dbus-daemon dbus-uuidgen dbus-send; do copy_with_libs "/usr/bin/$p" "/usr/bin/$p"; done
	mkdir -p "$R/usr/share/dbus-1"
	cp /usr/share/dbus-1/system.conf "$R/usr/share/dbus-1/"
	have_dbus=1
else
	have_dbus=""
	skip dbus "no dbus-daemon here (scripts/deps.sh installs dbus)"
fi

# The checks: the administrator's units, in ember's own directory of /etc.
mkdir -p "$R/etc/ember/services"
cat >"$R/etc/ember/services/bus-client.service" <<'EOF'
# A client of the bus: it asks the bus once, when it starts. Ordered after dbus only.
[Unit]
Requires=dbus
After=dbus
ConditionPathExists=/usr/bin/dbus-send

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/bin/dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId
EOF
cat >"$R/etc/ember/services/user-check.service" <<'EOF'
[Unit]
After=sshd syslogd

[Service]
Type=oneshot
User=user
ExecStart=/bin/sh /usr/libexec/pmos-shape/user-check
EOF
cat >"$R/usr/libexec/pmos-shape/user-check" <<'EOF'
echo "user-check: uid=$(id -u)"
emberctl list >/tmp/user-list 2>&1 && grep -q syslogd /tmp/user-list && echo USER-LIST-OK
emberctl status syslogd >/dev/null 2>&1 && echo USER-STATUS-OK
if emberctl stop syslogd >/tmp/user-stop 2>&1; then echo USER-STOP-ALLOWED; else echo "USER-STOP-REFUSED $(head -n 1 /tmp/user-stop)"; fi
EOF
cat >"$R/etc/ember/services/pmos-shape-check.service" <<'EOF'
[Unit]
After=localmount sshd sshd-keygen bus-client user-check zram-swap tmpfs serial-getty-setup getty-tty1

[Service]
Type=oneshot
StandardOutput=console
StandardError=console
ExecStart=/bin/sh /usr/libexec/pmos-shape/check
EOF
cat >"$R/usr/libexec/pmos-shape/check" <<EOF
have_sshd=$have_sshd
have_dbus=$have_dbus
EOF
cat >>"$R/usr/libexec/pmos-shape/check" <<'EOF'
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
state() { emberctl --json status "$1" 2>/dev/null | sed -n 's/.*"state":"\([^"]*\)".*/\1/p'; }

[ "$(readlink /proc/1/exe)" = /usr/sbin/ember-init ] && ok pid1-is-ember-init-via-sbin-init ||
	bad pid1-is-ember-init-via-sbin-init "$(readlink /proc/1/exe)"
# No root shell on the console: no process of ember-init's with the console as stdin
# but the getty's.
shells=""
for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = sh ] || continue
	case $(readlink "$p/fd/0" 2>/dev/null) in /dev/console | /dev/ttyS0 | /dev/tty1) shells="$shells ${p#/proc/}" ;; esac
done
[ -z "$shells" ] && ok no-console-root-shell || bad no-console-root-shell "shell pids:$shells"
grep -qw 'ember.shell=none' /etc/ember/init.conf && ok init-conf-installed || bad init-conf-installed "$(cat /etc/ember/init.conf)"
# The root came read-only from the initramfs; localmount made it writable.
case $(state localmount) in ready | stopped) ok localmount-done ;; *) false ;; esac || bad localmount-done "$(state localmount)"
awk '$2 == "/" && $4 ~ /(^|,)rw(,|$)/ { f = 1 } END { exit !f }' /proc/mounts && ok root-remounted-rw ||
	bad root-remounted-rw "$(awk '$2 == "/"' /proc/mounts)"
echo written >/var/pmos-shape-write && ok root-writable || bad root-writable "cannot write /var"
# The serial login the provider made from deviceinfo_getty.
[ -f /run/ember/services/serial-getty.service ] && ok serial-getty-generated || bad serial-getty-generated "no unit"
i=0; while [ "$(state serial-getty)" != running ] && [ "$(state serial-getty)" != ready ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
case $(state serial-getty) in running | ready) ok serial-getty-running ;; *) bad serial-getty-running "$(state serial-getty)" ;; esac
# deviceinfo's zram swap and /tmp.
grep -q '^/dev/zram0 ' /proc/swaps && ok zram-swap-on || bad zram-swap-on "$(cat /proc/swaps) $(emberctl log zram-swap 2>&1 | tail -n 2)"
awk '$2 == "/tmp" && $3 == "tmpfs" && $4 ~ /size=16384k/ { f = 1 } END { exit !f }' /proc/mounts && ok tmp-is-tmpfs ||
	bad tmp-is-tmpfs "$(awk '$2 == "/tmp"' /proc/mounts) $(emberctl log tmpfs 2>&1 | tail -n 2)"
# Skipped, not failed: programs this device does not have.
[ "$(state udevd)" = condition-failed ] && ok missing-program-skipped || bad missing-program-skipped "udevd: $(state udevd)"
failed=$(emberctl list 2>/dev/null | awk '$2 == "failed" || $2 == "permanent-failure" { printf "%s ", $1 }')
[ -z "$failed" ] && ok nothing-failed || bad nothing-failed "$failed"
if [ -n "$have_sshd" ]; then
	case $(state sshd) in running | ready) ok sshd-ready ;; *) false ;; esac || bad sshd-ready "$(state sshd): $(emberctl log sshd 2>&1 | tail -n 3)"
	banner=$(echo | nc -w 3 127.0.0.1 22 2>/dev/null | head -n 1)
	case $banner in SSH-2.0-OpenSSH*) ok sshd-answers ;; *) bad sshd-answers "banner '$banner'" ;; esac
	[ -f /etc/ssh/ssh_host_ed25519_key ] && [ -f /etc/ssh/ssh_host_ecdsa_key ] && ok sshd-keygen-made-host-keys ||
		bad sshd-keygen-made-host-keys "$(ls /etc/ssh) $(emberctl log sshd-keygen 2>&1 | tail -n 2)"
fi
if [ -n "$have_dbus" ]; then
	[ "$(state dbus)" = ready ] && ok dbus-ready || bad dbus-ready "$(state dbus)"
	case $(state bus-client) in ready | stopped) ok bus-client-found-the-bus ;; *) false ;; esac ||
		bad bus-client-found-the-bus "$(state bus-client): $(emberctl log bus-client 2>&1 | tail -n 2)"
fi
out=$(emberctl log user-check 2>&1)
case $out in *uid=1000*) ok user-check-ran-as-user ;; *) bad user-check-ran-as-user "$out" ;; esac
case $out in *USER-LIST-OK*) ok user-can-list ;; *) bad user-can-list "$out" ;; esac
case $out in *USER-STATUS-OK*) ok user-can-read-status ;; *) bad user-can-read-status "$out" ;; esac
case $out in *USER-STOP-REFUSED*) ok user-cannot-stop ;; *) bad user-cannot-stop "$out" ;; esac
case $(state syslogd) in running | ready) ok syslogd-still-running ;; *) bad syslogd-still-running "$(state syslogd)" ;; esac
# Back to the previous init, as `apk del postmarketos-base-ember` does.
sh /usr/libexec/pmos-shape/pre-deinstall
[ "$(readlink /sbin/init)" = /bin/busybox ] && ok rollback-restores-sbin-init || bad rollback-restores-sbin-init "$(readlink /sbin/init)"
sync
echo PMOS-SHAPE-BOOT1-DONE
sleep 2
emberctl poweroff
EOF
# After the rollback: busybox init reads /etc/inittab (OpenRC's flavour would run openrc).
cat >"$R/etc/inittab" <<'EOF'
::sysinit:/bin/sh /usr/libexec/pmos-shape/after-rollback
EOF
cat >"$R/usr/libexec/pmos-shape/after-rollback" <<'EOF'
mount -t proc proc /proc 2>/dev/null
exe=$(readlink /proc/1/exe)
[ "$exe" = /bin/busybox ] && echo "EMBER-TEST PASS rollback-boots-previous-init" ||
	echo "EMBER-TEST FAIL rollback-boots-previous-init: PID 1 is $exe"
echo PMOS-SHAPE-BOOT2-DONE
poweroff -f
EOF

# ---- the disk and the initramfs ---------------------------------------------------------
mb=$(du -sm "$R" | cut -f1)
mke2fs -q -t ext4 -L pmos-root -d "$R" "$W/disk.img" "$((mb + 64))M" || { fail disk "mke2fs failed"; finish; }
cat >"$W/initramfs-init" <<'EOF'
#!/bin/sh
# Like postmarketOS's initramfs: mount the root and switch_root to /sbin/init, whatever
# the command line says. Read-only here, so the root's own services must cope.
PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in virtio_pci virtio_blk crc32c_generic ext4; do modprobe "$m" 2>/dev/null; done
mkdir -p /sysroot
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 -o ro /dev/vda /sysroot || { echo "initramfs: cannot mount /dev/vda"; exec sh; }
umount /proc /sys
mount --move /dev /sysroot/dev 2>/dev/null || umount /dev
exec switch_root /sysroot /sbin/init
EOF
qemu_image "$W/initramfs.cpio" --init "$W/initramfs-init" \
	--modules "virtio_pci virtio_blk crc32c_generic ext4" || { fail image "initramfs failed"; finish; }
rm -rf "$R" "$S"

boot() { # NAME TIMEOUT
	log=$W/$1.log
	# init= on the command line is what the pmOS initramfs ignores: it must not matter.
	timeout -k 5 "$2" "$TOP/scripts/qemu-boot.sh" "$W/initramfs.cpio" "init=/nonexistent" -- \
		-drive "file=$W/disk.img,format=raw,if=virtio" </dev/null >"$log" 2>&1
	rc=$?
	relay_guest_results "$log"
	if [ $rc = 124 ]; then fail "$1-completes" "QEMU timed out; log kept"; cp "$log" "$TOP/out/test-logs/pmos-shape-$1.log"
	elif grep -q 'Kernel panic' "$log"; then fail "$1-no-panic" "kernel panic"; cp "$log" "$TOP/out/test-logs/pmos-shape-$1.log"
	else pass "$1-completes"; fi
	[ "$FAILED" = 0 ] || cp "$log" "$TOP/out/test-logs/pmos-shape-$1.log"
}

boot ember 240
clean=$(tr -d '\r' <"$W/ember.log")
printf '%s\n' "$clean" | grep -q 'PMOS-SHAPE-BOOT1-DONE' && pass boot1-checks-ran || fail boot1-checks-ran "no end marker"
printf '%s\n' "$clean" | grep -q 'login: ' && pass login-prompt-on-console || fail login-prompt-on-console "no 'login: ' on ttyS0"
printf '%s\n' "$clean" | grep -q 'console shell .* started' && fail console-says-no-shell "ember-init started a console shell" ||
	pass console-says-no-shell
if printf '%s\n' "$clean" | grep -q 'EMBER-TEST PASS rollback-restores-sbin-init'; then
	boot rollback 120
	tr -d '\r' <"$W/rollback.log" | grep -q 'PMOS-SHAPE-BOOT2-DONE' && pass boot2-ran-previous-init ||
		fail boot2-ran-previous-init "no end marker"
else
	fail boot2-ran-previous-init "not tried: boot 1 did not roll back"
fi
finish
