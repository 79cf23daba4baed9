#!/bin/sh
# bench/shard.sh - wall time of the sharded analysis (pipelines/shard.mk:
# tr-delta -s, tr-stat -s, tr-profile -a, tr-hist, tr-waits, and their
# merges) of a 4,096-rank tr-gen run at 1, 2 and 4 shards under make -j,
# beside one process per tool on the whole run (make whole), each the
# fastest of 3, and whether the merged outputs are the whole run's.
#   sh bench/shard.sh [ITERS]
cd "$(dirname "$0")/.." || exit 4
B=$PWD/bin
iters=${1:-40}
d=$(mktemp -d "${TMPDIR:-/tmp}/trshard.XXXXXX") || exit 4
trap 'rm -rf "$d"' EXIT
mkdir "$d/run"
# One run, written a file per rank as tr-record would.
"$B/tr-gen" -n 4096 -i "$iters" -j 0.2 > "$d/all.tr" || exit 4
grep '^#' "$d/all.tr" > "$d/hdr"
grep -v '^#' "$d/all.tr" | sort -s -t "$(printf '\t')" -k2,2n |
	awk -v dir="$d/run" -v hdr="$d/hdr" '
	NR == 1 || $2 != r { if (f) close(f); r = $2; f = dir "/rank." r ".tr"
		while ((getline l < hdr) > 0) print l > f; close(hdr) }
	{ print > f }'
recs=$(grep -vc '^#' "$d/all.tr")
rm "$d/all.tr"
ms() {
	best=
	for _ in 1 2 3; do
		rm -rf "$d/out"
		t0=$(date +%s%N)
		make -s -f pipelines/shard.mk TR_BIN="$B" RUN="$d/run" OUT="$d/out" \
		    "$@" > /dev/null 2>&1 || { echo "make $*: failed" >&2; exit 1; }
		t1=$(date +%s%N)
		t=$(((t1 - t0) / 1000000))
		{ [ -z "$best" ] || [ "$t" -lt "$best" ]; } && best=$t
	done
	echo "$best"
}
echo "4096 ranks, $recs records, $(nproc) cores"
w=$(ms whole)
echo "one process per tool (make whole): $w ms"
for k in 1 2 4; do
	t=$(ms -j"$k" K="$k")
	make -s -f pipelines/shard.mk TR_BIN="$B" RUN="$d/run" OUT="$d/out" \
	    whole > /dev/null 2>&1
	same=yes
	for f in dsum stat profile hist waits; do
		cmp -s "$d/out/$f.tr" "$d/out/whole/$f.tr" || same=no
	done
	echo "K=$k, make -j$k: $t ms ($(awk -v a="$w" -v b="$t" \
	    'BEGIN { printf "%.2f", a / b }')x one process), merged = whole: $same"
done
