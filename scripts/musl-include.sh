#!/bin/sh
# Copy the kernel uapi headers musl-gcc needs (linux/, asm-generic/, asm/) into a private
# include dir, so musl builds see them without glibc's /usr/include.
set -eu
dst=$1
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for d in linux asm-generic; do
	[ -d "/usr/include/$d" ] && cp -R "/usr/include/$d" "$dst/"
done
if [ -d "/usr/include/$multiarch/asm" ]; then
	cp -R "/usr/include/$multiarch/asm" "$dst/"
elif [ -d /usr/include/asm ]; then
	cp -R /usr/include/asm "$dst/"
fi
[ -f "$dst/linux/types.h" ] || { echo "musl-include: kernel headers missing (linux-libc-dev)" >&2; exit 1; }
