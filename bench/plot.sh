#!/bin/sh
# tr-plot and tr-report on large traces: time beside tr-cat reading the
# same input (the reader's floor), and the size of what they write,
# which must not grow with the trace.
#   sh bench/plot.sh [EVENTS]     (default 5 M events)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
ev=${1:-5000000}
w=${TMPDIR:-/tmp}/tr-bench-plot.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
per=$("$B/tr-gen" -P stencil3d -n 512 -i 10 | grep -c '^ev')
"$B/tr-gen" -P stencil3d -n 512 -i $((ev * 10 / per + 1)) -j 0.05 > "$w/big.tr"
"$B/tr-gen" -P stencil3d -n 512 -i $((ev / per + 1)) -j 0.05 > "$w/small.tr"
now() { date +%s.%N; }
# run NAME FILE CMD...: best of 3 wall times, output size
run() {
	name=$1 f=$2
	shift 2
	best=
	for i in 1 2 3; do
		t0=$(now)
		"$@" "$f" > "$w/out"
		t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	n=$(grep -c '^ev' "$f")
	printf '%-34s %9d ev %8.3f s %7.2f M ev/s %9d B out\n' "$name" "$n" \
		"$best" "$(echo "$n / $best / 1000000" | bc -l)" \
		"$(wc -c < "$w/out")"
}
run "tr-cat (reading floor)" "$w/small.tr" "$B/tr-cat"
run "tr-plot timeline" "$w/small.tr" "$B/tr-plot"
run "tr-report" "$w/small.tr" "$B/tr-report"
run "tr-cat (reading floor)" "$w/big.tr" "$B/tr-cat"
run "tr-plot timeline" "$w/big.tr" "$B/tr-plot"
run "tr-report" "$w/big.tr" "$B/tr-report"
