#!/bin/sh
# The corpus test over the same packages of Debian 13 (trixie): systemd 257's unit syntax,
# as postmarketOS's systemd ships it (the tenth round of docs/testing.md found seven of
# these units refused and 25 changed; scripts/unit-corpus.sh, EMBER_UNIT_SUITE).
EMBER_UNIT_SUITE=trixie exec sh "$(dirname "$0")/test-unit-corpus.sh" "$@"
