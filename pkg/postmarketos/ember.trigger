#!/bin/sh
# apk runs this after a transaction that changed a unit directory: a running ember-init
# re-reads its unit files (new units become known, removed ones stop being started).
# Nothing to do when ember-init is not PID 1 (an image being built, another init).
case $(readlink /proc/1/exe 2>/dev/null) in
*/ember-init) ;;
*) exit 0 ;;
esac
emberctl reload >/dev/null 2>&1 || echo "* ember: 'emberctl reload' failed; run it by hand" >&2
exit 0
