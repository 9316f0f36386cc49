#!/bin/sh
# Measured boot in QEMU with a TPM 2.0 from swtpm: ember-init measures its phases into
# PCR 11 through boot-measure; the guest prints PCR 11 and the event log; the host
# recomputes PCR 11 from the phase words and compares.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
tpm=$(mktemp -d)
trap 'kill $(cat "$tpm/swtpm.pid" 2>/dev/null) 2>/dev/null; rm -rf "$tpm"' EXIT
img=$QEMU_WORK/measure.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test"
# shellcheck disable=SC2046
qemu_test "$img" measure 180 measure.sh "" $("$TOP"/scripts/swtpm-start.sh "$tpm")
log=$QEMU_WORK/measure.log
guest=$(tr -d '\r' <"$log" | sed -n 's/^GUEST-PCR11-SHA256 \([0-9A-Fa-f]*\)$/\1/p' | tr 'A-F' 'a-f')
want=$(python3 -c '
import hashlib
pcr = bytes(32)
for word in ("sysinit", "ready"):
    pcr = hashlib.sha256(pcr + hashlib.sha256(word.encode()).digest()).digest()
print(pcr.hex())')
[ -n "$guest" ] && [ "$guest" = "$want" ] && pass pcr11-matches-phase-words ||
	fail pcr11-matches-phase-words "guest '$guest', expected $want"
for phase in sysinit ready shutdown final; do
	grep -q "measured phase '$phase' into PCR 11" "$log" && pass "measured-$phase" ||
		fail "measured-$phase" "no log line"
done
finish
