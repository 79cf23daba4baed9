#!/bin/sh
# bench/shard.sh - wall time of the sharded analysis (pipelines/shard.mk:
# tr-delta -s, tr-stat -s, tr-profile -a, tr-hist, tr-waits, and their
# merges) of a 4,096-rank tr-gen run at 1, 2 and 4 shards under make -j,
# beside one process per tool on the whole run (make whole), each the
# fastest of 3, and whether the merged outputs are the whole run's.
#   sh bench/shard.sh [ITERS [TARGET_NP]]
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

# A synthetic trace at a large target, written by 4 processes (tr-extrap
# -T -G, 2 at a time), from a stencil's models at 4 to 32 ranks: the
# records written and the peak RSS of a part, against the whole in one.
tnp=${2:-262144}
for n in 4 8 16 32; do "$B/tr-gen" -P stencil2d -n $n -i 6 -R 3 > "$d/g$n.tr"; done
for n in 4 8 16 32; do "$B/tr-delta" -s "$d/g$n.tr"; "$B/tr-stat" "$d/g$n.tr"; done |
	"$B/tr-fit" -i > "$d/m.tr" 2> /dev/null
rss() {	# COMMAND...: "KB SECONDS RECORDS" of its run
	/usr/bin/time -f '%M %e' -o "$d/time" "$@" 2>/dev/null |
	    grep -vc '^#' > "$d/count"
	echo "$(cat "$d/time") $(cat "$d/count")"
}
set -- $(rss "$B/tr-extrap" -Q -T -n "$tnp" -R 5 "$d/m.tr" "$d/g32.tr")
echo "tr-extrap -T -n $tnp, one process: $3 records, $2 s, peak RSS $1 KB"
q=$((tnp / 4))
for i in 0 1 2 3; do
	rss "$B/tr-extrap" -Q -T -G $((i * q))-$(((i + 1) * q - 1)) -n "$tnp" -R 5 \
	    "$d/m.tr" "$d/g32.tr" > "$d/part.$i" &
	[ $((i % 2)) -eq 1 ] && wait
done
awk '{ if ($1 > m) m = $1; if ($2 > t) t = $2; n += $3 }
	END { printf "4 parts (-G), 2 at a time: %d records, slowest %s s, peak RSS of a part %d KB\n", n, t, m }' "$d"/part.?
