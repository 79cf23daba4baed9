#!/bin/sh
# nightly.sh - pipelines/nightly.mk for cron, exiting with the night's
# outcome, which make cannot: 0 no regression, 1 a regression (as
# tr-diff --fail-above), 2 to 4 a failure (4 a run failed or a system
# error, 3 bad data, 2 a bad variable). The arguments are nightly.mk's
# variables; the report ($(REPORT)) says what happened either way.
#
#   sh pipelines/nightly.sh TR_BIN=/usr/local/bin STORE=/srv/tr/runs NP=16
st=$(mktemp) || exit 4
trap 'rm -f "$st"' EXIT
make -s -f "$(dirname "$0")/nightly.mk" STATUS="$st" "$@"
m=$?
s=$(cat "$st")
# make's own failure (no status written) is a failed night.
[ -n "$s" ] || { [ $m -eq 0 ] && s=0 || s=4; }
exit "$s"
