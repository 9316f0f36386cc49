#!/bin/sh
# Say which variant a libc-only binary was built as (static musl is the only one allowed).
set -eu
desc=$(file -b "$1")
case $desc in
*"statically linked"*|*"static-pie linked"*) echo "  built $(basename "$1"): static, musl" ;;
*) echo "  built $(basename "$1"): NOT static ($desc)" >&2; exit 1 ;;
esac
