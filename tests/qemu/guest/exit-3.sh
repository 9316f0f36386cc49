#!/bin/sh
echo "EMBER-TEST PASS test-command-ran"
exit 3
