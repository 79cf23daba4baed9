#!/bin/sh
# bench/record.sh - the cost tr-record adds to an MPI call, on 2 ranks:
# a zero-byte ping-pong (MPI_Send/MPI_Recv) and an MPI_Iprobe loop, each
# run bare, preloaded without CPU sampling (-C), and preloaded with it.
# Figures are medians over repeats of the mean time per call; the added
# cost is the difference to the bare run. Also: compressed bytes/event.
set -e
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
M=${TR_MPIBIN:-build/mpi}
N=${N:-20000}
REPS=${REPS:-15}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {
	mpirun --allow-run-as-root --oversubscribe -np 2 "$@" |
		sed -n 's/.*per-call-ns=//p'
}
for mode in ping probe; do
	bytes=0
	[ $mode = probe ] && bytes=-1
	bare=$(run "$M/pingpong" "$N" $bytes "$REPS")
	nocpu=$(run "$B/tr-record" -C -o "$T/a" "$M/pingpong" "$N" $bytes "$REPS")
	cpu=$(run "$B/tr-record" -o "$T/b" "$M/pingpong" "$N" $bytes "$REPS")
	awk -v m=$mode -v a="$bare" -v b="$nocpu" -v c="$cpu" 'BEGIN {
		printf "%-5s bare %7.1f ns/call  traced %7.1f (+%.1f)  traced+cpu %7.1f (+%.1f)\n",
		    m, a, b, b - a, c, c - a }'
done
ev=$(zcat "$T"/b/rank.*.tr.gz | grep -vc '^#')
sz=$(cat "$T"/b/rank.*.tr.gz | wc -c)
echo "trace: $ev events, $sz bytes gzip, $(awk -v s=$sz -v e=$ev 'BEGIN{printf "%.2f", s/e}') bytes/event"
