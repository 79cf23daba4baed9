#!/bin/sh
# Records per second of tr-to-chrome beside tr-json on the same input:
#   sh bench/chrome.sh [EVENTS]     (default 2 M events; RUNS=3 rounds)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
ev=${1:-2000000}
w=${TMPDIR:-/tmp}/tr-bench-chrome.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
per=$("$B/tr-gen" -P stencil3d -n 64 -i 10 | grep -c '^ev')
"$B/tr-gen" -P stencil3d -n 64 -i $((ev * 10 / per + 1)) -j 0.05 > "$w/t.tr"
n=$(grep -c '^ev' "$w/t.tr")
now() { date +%s.%N; }
best() {
	b=
	i=0
	while [ $i -lt "${RUNS:-3}" ]; do
		t0=$(now)
		"$@" > "$w/out"
		t=$(echo "$(now) - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			b=$t
		fi
		i=$((i + 1))
	done
	printf '%-14s %7.3f s %6.2f M records/s %5d MB out\n' "$(basename "$1")" \
	    "$b" "$(echo "$n / $b / 1000000" | bc -l)" \
	    "$(($(wc -c < "$w/out") / 1000000))"
}
echo "input: $n ev records ($(wc -c < "$w/t.tr") bytes), tr-gen -P stencil3d -n 64"
best "$B/tr-json" "$w/t.tr"
best "$B/tr-to-chrome" "$w/t.tr"
