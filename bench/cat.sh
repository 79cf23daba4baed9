#!/bin/sh
# Throughput of tr-cat, tr-cat -m and tr-json beside mawk (and sort -m)
# doing the same job on the same input, in one run.
#   sh bench/cat.sh [EVENTS]     (default 10 M events)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
ev=${1:-10000000}
w=${TMPDIR:-/tmp}/tr-bench-cat.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
# events per iteration of each layout, measured on 10 iterations
per() { "$B/tr-gen" -P stencil3d -n "$1" -i 10 | grep -c '^ev' | awk '{print int($1 / 10)}'; }
"$B/tr-gen" -P stencil3d -n 512 -i $((ev / $(per 512) + 1)) -j 0.05 > "$w/t.tr"
it=$((ev / $(per 64) + 1))
for r in $(seq 0 63); do
	"$B/tr-gen" -P stencil3d -n 64 -i "$it" -j 0.05 -r "$r" > "$w/r$r.tr"
done
cat "$w"/r*.tr > /dev/null
n=$(grep -c '^ev' "$w/t.tr")
bytes=$(wc -c < "$w/t.tr")
nm=$(cat "$w"/r*.tr | grep -c '^ev')
bm=$(cat "$w"/r*.tr | wc -c)

now() { date +%s.%N; }
# run NAME EVENTS BYTES CMD...: best of 3 wall times
run() {
	name=$1 evs=$2 by=$3
	shift 3
	best=
	for i in 1 2 3; do
		t0=$(now)
		"$@" > /dev/null
		t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	printf '%-28s %8.3f s %9.1f MB/s %7.2f M ev/s\n' "$name" "$best" \
		"$(echo "$by / $best / 1000000" | bc -l)" \
		"$(echo "$evs / $best / 1000000" | bc -l)"
	eval "t_$(echo "$name" | tr -c 'a-z0-9\n' _)=$best"
}

echo "input: $n events, $bytes bytes; merge input: 64 files, $nm events"
run tr-cat "$n" "$bytes" "$B/tr-cat" "$w/t.tr"
run mawk-check "$n" "$bytes" mawk -F'\t' '/^#/ { print; next }
	NF != 14 || $2 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ ||
	$6 + 0 < $5 + 0 { print FILENAME ":" NR ": bad" > "/dev/stderr"; exit 3 }
	{ print }' "$w/t.tr"
run tr-cat-m "$nm" "$bm" "$B/tr-cat" -m "$w"/r*.tr
run sort-m "$nm" "$bm" sort -m -t '	' -k5,5n "$w"/r*.tr
run tr-json "$n" "$bytes" "$B/tr-json" "$w/t.tr"
run mawk-json "$n" "$bytes" mawk -F'\t' '/^#/ { next }
	{ printf "{\"type\":\"%s\",\"rank\":%s,\"seq\":%s,\"op\":\"%s\",\"start\":%s,\"end\":%s,\"cpu\":%s,\"site\":\"%s\",\"peer\":%s,\"bytes\":%s,\"tag\":%s,\"comm\":%s,\"req\":%s,\"root\":%s}\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }' "$w/t.tr"
printf 'ratios: tr-cat/mawk %.1fx, tr-cat -m/sort -m %.1fx, tr-json/mawk %.1fx\n' \
	"$(echo "$t_mawk_check / $t_tr_cat" | bc -l)" \
	"$(echo "$t_sort_m / $t_tr_cat_m" | bc -l)" \
	"$(echo "$t_mawk_json / $t_tr_json" | bc -l)"
