#!/bin/sh
# bench/pollcost.sh - what a poll that finds nothing costs recorded, and
# what that does to hpcc: the MPI_Iprobe loop of bench/record.sh
# (pingpong -1, no message ever comes, so every probe after the first
# is merged) bare and under tr-record without and with CPU sampling
# (-C, the default), ns per call, medians of many short repeats (the
# noise of a shared machine is in the long ones); then hpcc on 2 ranks
# (1x2 grid, N=1000, as bench/polls.sh) bare and recorded, medians of
# REPS runs taken in turn. Each BASE, the top of another built checkout
# (main, say), has its bin/tr-record run beside this one's, in the same
# turns, on the same programs.
#   sh bench/pollcost.sh [BASE ...]   (REPS, default 5)
set -eu
cd "$(dirname "$0")/.."
top=$PWD
REPS=${REPS:-5}
builds="$top $*"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT INT TERM
mpi="mpirun --allow-run-as-root --oversubscribe -np 2"
percall() {
	$mpi "$@" 2>/dev/null | sed -n 's/.*per-call-ns=\([0-9.]*\).*/\1/p'
}
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ms() {
	s=$(date +%s%N)
	(cd "$w" && $mpi "$@") >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
P="$top/build/mpi/pingpong 5000 -1 400"
i=0
while [ $i -lt 3 ]; do
	percall $P >>"$w/bare"
	for b in $builds; do
		k=$(echo "$b" | cksum | cut -d' ' -f1)
		percall "$b/bin/tr-record" -C -o "$w/t" $P >>"$w/C$k"
		percall "$b/bin/tr-record" -o "$w/t" $P >>"$w/D$k"
	done
	i=$((i + 1))
done
bare=$(med <"$w/bare")
echo "probe loop, bare: $bare ns/call (load $(cut -d' ' -f1 /proc/loadavg))"
for b in $builds; do
	k=$(echo "$b" | cksum | cut -d' ' -f1)
	awk -v b="$b" -v a="$bare" -v c="$(med <"$w/C$k")" \
	    -v d="$(med <"$w/D$k")" 'BEGIN {
		printf "  %s: -C %.1f ns/call (+%.1f), default %.1f (+%.1f)\n",
		    b, c, c - a, d, d - a }'
done
command -v hpcc >/dev/null || { echo "hpcc not installed" >&2; exit 0; }
zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
    sed -e '11s/^2 /1 /' >"$w/hpccinf.txt"
i=0
while [ $i -lt "$REPS" ]; do
	ms hpcc >>"$w/hb"
	for b in $builds; do
		k=$(echo "$b" | cksum | cut -d' ' -f1)
		ms "$b/bin/tr-record" -o "$w/h" hpcc >>"$w/H$k"
	done
	i=$((i + 1))
done
hb=$(med <"$w/hb")
echo "hpcc, bare: $hb ms (load $(cut -d' ' -f1 /proc/loadavg))"
for b in $builds; do
	k=$(echo "$b" | cksum | cut -d' ' -f1)
	awk -v b="$b" -v a="$hb" -v r="$(med <"$w/H$k")" 'BEGIN {
		printf "  %s: recorded %d ms (%+.1f %%)\n", b, r, 100 * (r - a) / a }'
done
