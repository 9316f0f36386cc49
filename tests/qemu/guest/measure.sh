#!/bin/sh
# ember-init measured sysinit and ready before running this: print PCR 11 and the log.
ok() { echo "EMBER-TEST PASS $1"; }
bad() { echo "EMBER-TEST FAIL $1: $2"; }
boot-measure status && ok tpm2-present || bad tpm2-present "boot-measure status failed"
echo "GUEST-PCR11-SHA256 $(cat /sys/class/tpm/tpm0/pcr-sha256/11)"
boot-measure log
boot-measure verify && ok log-verifies || bad log-verifies "verify exit $?"
exit 0
