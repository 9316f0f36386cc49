#!/bin/sh
# What `make run` runs (scripts/run-qemu.sh) boots the demo image with a TPM from swtpm,
# and leaves no swtpm behind: neither after a clean power-off nor when QEMU is killed.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
command -v swtpm >/dev/null 2>&1 || { skip make-run "swtpm is not installed"; finish; }
tpm_dir=$TOP/out/run-tpm
log=$QEMU_WORK/make-run.log

swtpm_of_run() { pgrep -f "swtpm socket .*$tpm_dir" 2>/dev/null; }

# A stale swtpm from an earlier run would make the cases below meaningless.
pkill -f "swtpm socket .*$tpm_dir" 2>/dev/null
EMBER_APPEND="ember.run=/bin/true" timeout -k 5 240 "$TOP"/scripts/run-qemu.sh </dev/null >"$log" 2>&1
rc=$?
if [ "$rc" = 124 ]; then
	fail make-run-boots "timed out; console log: $log"
elif grep -q 'EMBER-RUN-EXIT=0' "$log" && grep -q 'TPM 2.0 from swtpm attached' "$log"; then
	pass make-run-boots
else
	fail make-run-boots "no EMBER-RUN-EXIT=0 or no TPM; console log: $log"
fi
sleep 1
left=$(swtpm_of_run)
[ -z "$left" ] && pass make-run-no-swtpm-after-poweroff ||
	fail make-run-no-swtpm-after-poweroff "swtpm still running: pid $left"

# QEMU killed from outside (Ctrl-A X, a terminal closed): run-qemu.sh still stops swtpm.
# A guest that waits gives the time to kill it.
printf '#!/bin/sh\nsleep 600\n' >"$QEMU_WORK/wait.sh"
chmod +x "$QEMU_WORK/wait.sh"
EMBER_IMAGE_ARGS="--file $QEMU_WORK/wait.sh:/test/wait.sh" EMBER_APPEND="ember.run=/test/wait.sh" \
	"$TOP"/scripts/run-qemu.sh </dev/null >"$log.2" 2>&1 &
run=$!
i=0
while [ $i -lt 120 ] && ! pgrep -f "qemu-system.*$TOP/out/ember.cpio" >/dev/null; do sleep 0.5; i=$((i + 1)); done
sleep 2
pkill -f "qemu-system.*$TOP/out/ember.cpio"
wait "$run"
sleep 1
left=$(swtpm_of_run)
if [ -z "$left" ]; then
	pass make-run-no-swtpm-after-qemu-killed
else
	fail make-run-no-swtpm-after-qemu-killed "swtpm still running: pid $left"
	kill $left 2>/dev/null
fi
finish
