#!/bin/sh
# tr-mean and tr-diff beside tr-cat (the reader alone) and mawk doing the
# same per-op sums, on one synthetic trace; and tr-jobsh's overhead per
# recipe beside plain sh, in one run.
#   sh bench/diff.sh [EVENTS]     (default 2 M events)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
ev=${1:-2000000}
w=${TMPDIR:-/tmp}/tr-bench-diff.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
it=$((ev / 640 + 1))
"$B/tr-gen" -P stencil2d -n 64 -i "$it" -j 0.05 -R 1 > "$w/a.tr"
"$B/tr-gen" -P stencil2d -n 64 -i "$it" -j 0.05 -R 2 -S 3:1.5 > "$w/b.tr"
n=$(grep -c '^ev' "$w/a.tr")
now() { date +%s.%N; }
best() {
	b=
	for i in 1 2 3; do
		t0=$(now); "$@" > /dev/null; t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}
row() {
	name=$1; k=$2; shift 2
	t=$(echo "$(best "$@") / $k" | bc -l)
	printf '%-36s %8.3f s %7.2f M ev/s\n' "$name" "$t" "$(echo "$n / $t / 1000000" | bc -l)"
}
echo "events per file: $n"
row "tr-cat a.tr" 1 "$B/tr-cat" "$w/a.tr"
row "tr-mean a.tr" 1 "$B/tr-mean" "$w/a.tr"
row "tr-diff a.tr b.tr (2 files, per file)" 2 "$B/tr-diff" "$w/a.tr" "$w/b.tr"
row "mawk per-op sum of end-start" 1 mawk -F'\t' '$1=="ev"{s[$4]+=$6-$5} END{for(k in s)print k,s[k]}' "$w/a.tr"
# tr-jobsh: 200 trivial recipes
t_sh=$(best sh -c 'i=0; while [ $i -lt 200 ]; do /bin/sh -c true; i=$((i+1)); done')
t_j=$(best env TR_JOBS="$w/j.tr" sh -c "i=0; while [ \$i -lt 200 ]; do $B/tr-jobsh -c true; i=\$((i+1)); done")
printf '%-36s %8.3f s (%.2f ms per recipe)\n' "200 x sh -c true" "$t_sh" "$(echo "$t_sh * 5" | bc -l)"
printf '%-36s %8.3f s (%.2f ms per recipe)\n' "200 x tr-jobsh -c true (recording)" "$t_j" "$(echo "$t_j * 5" | bc -l)"
