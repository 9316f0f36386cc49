#!/bin/sh
# Start a TPM 2.0 emulator for a QEMU guest: swtpm with its state in DIR, listening on
# DIR/swtpm.sock. Prints the QEMU arguments that attach it as a TIS device. With
# --terminate swtpm exits when QEMU closes the connection; a caller whose QEMU may never
# connect kills it through DIR/swtpm.pid.
#   swtpm-start.sh DIR
set -eu
dir=$1
mkdir -p "$dir"
rm -f "$dir/swtpm.sock"
swtpm socket --tpm2 --tpmstate dir="$dir" --ctrl type=unixio,path="$dir/swtpm.sock" \
	--log file="$dir/swtpm.log" --daemon --terminate --pid file="$dir/swtpm.pid"
i=0
while [ ! -S "$dir/swtpm.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
[ -S "$dir/swtpm.sock" ] || { echo "swtpm-start: swtpm did not start (see $dir/swtpm.log)" >&2; exit 1; }
echo "-chardev socket,id=chrtpm,path=$dir/swtpm.sock -tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0"
