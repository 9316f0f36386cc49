#!/bin/sh
# sandbox-more on the Debian 6.1 kernel (cgroup2): DeviceAllow=/DevicePolicy= and
# IPAddressAllow=/IPAddressDeny= as the BPF programs PID 1 assembles and attaches to each
# service's cgroup (init/svc-bpf.c). One boot for every check; the host's cgroups are
# never touched.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
img=$QEMU_WORK/execmore-bpf.cpio
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" \
	--dir "$TOP/tests/qemu/services-execmore:/etc/ember/services"
qemu_test "$img" execmore-bpf 240 execmore-bpf.sh
if tr -d '\r' <"$QEMU_WORK/execmore-bpf.log" | grep -q 'NOT restricted\|NOT filtered'; then
	fail bpf-attached-without-warnings "$(tr -d '\r' <"$QEMU_WORK/execmore-bpf.log" | grep 'NOT ' | head -3 | tr '\n' ' ')"
else
	pass bpf-attached-without-warnings
fi
finish
