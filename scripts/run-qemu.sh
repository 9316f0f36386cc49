#!/bin/sh
# `make run`: build the image and boot it with ember-init as PID 1 and a shell on the
# serial console. Leave with `poweroff` (or Ctrl-A X to kill QEMU).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
# EMBER_BIN picks the programs (`make run` sets it to the static set, out-static/bin, when
# the musl sysroot is built); the image goes next to them.
out=$(dirname "${EMBER_BIN:-$TOP/out/bin}")
img=$out/ember.cpio
echo "run: programs from ${EMBER_BIN:-$TOP/out/bin}"
"$TOP"/scripts/kernel.sh >/dev/null
# The demo system (etc/demo): a few services, the modules its modules-load.d names (with
# their dependencies), a NAT configuration, and an init.conf that asks for the shell.
demo=$TOP/etc/demo
modules=$(grep -hv '^[#;]' "$demo"/modules-load.d/*.conf | tr '\n' ' ')
"$TOP"/scripts/mkinitramfs.sh "$img" --modules "$modules" \
	--dir "$demo/services:/etc/ember/services" --dir "$demo/modules-load.d:/etc/modules-load.d" \
	--file "$demo/netnat.conf:/etc/ember/netnat.conf" --file "$demo/init.conf:/etc/ember/init.conf" \
	${EMBER_IMAGE_ARGS:-}
echo "run: booting $(basename "$("$TOP"/scripts/kernel.sh)") with ember-init as PID 1 (QEMU, ${EMBER_QEMU_ACCEL:-tcg})"
echo "run: type 'poweroff' in the guest shell to stop; Ctrl-A X kills QEMU"
# With swtpm the guest gets a TPM 2.0, and ember-init measures its boot phases into
# PCR 11 (`boot-measure log` in the guest shows them).
tpm_args=""
tpm_dir=$out/run-tpm
# swtpm outlives a QEMU that never connected to it (or was killed): stop it whatever way
# the run ends.
stop_swtpm() {
	[ -f "$tpm_dir/swtpm.pid" ] || return 0
	kill "$(cat "$tpm_dir/swtpm.pid")" 2>/dev/null || true
	rm -f "$tpm_dir/swtpm.pid"
}
trap stop_swtpm EXIT
trap 'exit 130' INT TERM HUP
if command -v swtpm >/dev/null 2>&1; then
	stop_swtpm
	tpm_args=$("$TOP"/scripts/swtpm-start.sh "$tpm_dir") || tpm_args=""
fi
[ -n "$tpm_args" ] && echo "run: TPM 2.0 from swtpm attached: boot phases are measured into PCR 11"
# shellcheck disable=SC2086
"$TOP"/scripts/qemu-boot.sh "$img" "${EMBER_APPEND:-}" -- $tpm_args || true
