#!/bin/sh
# The image `make run` boots: ember-init supervises the demo services, ember-modload loads
# the NAT modules in parallel at boot, and a service runs `netnat apply`; the guest shows
# the expected NAT entries.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/qemu/lib.sh"
demo=$TOP/etc/demo
img=$QEMU_WORK/demo.cpio
modules=$(grep -hv '^[#;]' "$demo"/modules-load.d/*.conf | tr '\n' ' ')
qemu_image "$img" --dir "$TOP/tests/qemu/guest:/test" --modules "$modules" \
	--dir "$demo/services:/etc/ember/services" --dir "$demo/modules-load.d:/etc/modules-load.d" \
	--file "$demo/netnat.conf:/etc/ember/netnat.conf"
qemu_test "$img" demo 180 demo.sh
finish
