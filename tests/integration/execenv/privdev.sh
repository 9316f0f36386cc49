#!/bin/sh
# Run by privdev.service: what its /dev holds.
echo "dev=$(ls /dev | tr '\n' ' ')"
[ -e /dev/kmsg ] && echo kmsg-visible || echo kmsg-hidden
echo hi >/dev/null && echo null-works
grep CapBnd /proc/self/status
exec sleep 1000
