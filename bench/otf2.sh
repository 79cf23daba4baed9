#!/bin/sh
# Throughput and peak memory of tr-to-otf2 (export) and tr-from-otf2
# (import) beside otf2-print reading the same archive, on tr-gen traces
# of 256 ranks at two lengths (1x and 8x).
#   sh bench/otf2.sh [ITERS]     (default 20 iterations at 1x)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
it=${1:-20}
w=${TMPDIR:-/tmp}/tr-bench-otf2.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM

now() { date +%s.%N; }
# best NAME RECORDS CMD...: best of 3 wall times, and the peak RSS
best() {
	name=$1 n=$2
	shift 2
	b=
	for i in 1 2 3; do
		rm -rf "$w/o"
		t0=$(now)
		/usr/bin/time -f %M -o "$w/rss" "$@" > /dev/null
		t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			b=$t
		fi
	done
	printf '%-14s %4s %9d rec %7.3f s %6.2f M rec/s %7d KB\n' "$name" \
	    "$x" "$n" "$b" "$(echo "$n / $b / 1000000" | bc -l)" \
	    "$(cat "$w/rss")"
}

for x in 1x 8x; do
	i=$it
	[ "$x" = 8x ] && i=$((it * 8))
	"$B/tr-gen" -P stencil3d -n 256 -i "$i" -j 0.05 > "$w/t.tr"
	n=$(grep -vc '^#' "$w/t.tr")
	best tr-to-otf2 "$n" "$B/tr-to-otf2" -o "$w/o" "$w/t.tr"
	"$B/tr-to-otf2" -o "$w/a" "$w/t.tr"
	m=$(otf2-print "$w/a/traces.otf2" | grep -c '^[A-Z_]*  *[0-9]')
	best tr-from-otf2 "$m" "$B/tr-from-otf2" "$w/a/traces.otf2"
	best otf2-print "$m" otf2-print "$w/a/traces.otf2"
	rm -rf "$w/a"
done
echo "(export: tr records; import and otf2-print: OTF2 events)"
