#!/bin/sh
# bench/record.sh - the cost tr-record adds to an MPI call, on 2 ranks:
# a zero-byte ping-pong (MPI_Send/MPI_Recv), the same by MPI_Irecv,
# MPI_Isend and MPI_Waitall (wait), and an MPI_Iprobe loop, each
# run bare, preloaded without CPU sampling (-C), with it reading the CPU
# clock at every call (-c 0), and with its default window (10 us between
# reads); the loop also as tr-record merges polls that find nothing.
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
# probe: every MPI_Iprobe a record (-p 0), the cost of a record;
# poll: the same loop as a polling loop is recorded by default, its
# calls that find nothing merged into one record.
for mode in ping wait probe poll; do
	bytes=0 gap=0
	case $mode in
	wait) bytes=-2 ;;
	probe | poll) bytes=-1 ;;
	esac
	[ $mode = poll ] && gap=1us
	bare=$(run "$M/pingpong" "$N" $bytes "$REPS")
	nocpu=$(run "$B/tr-record" -g $gap -C -o "$T/a$mode" "$M/pingpong" "$N" $bytes "$REPS")
	every=$(run "$B/tr-record" -g $gap -c 0 -o "$T/c$mode" "$M/pingpong" "$N" $bytes "$REPS")
	cpu=$(run "$B/tr-record" -g $gap -o "$T/b$mode" "$M/pingpong" "$N" $bytes "$REPS")
	awk -v m=$mode -v a="$bare" -v b="$nocpu" -v c="$cpu" -v e="$every" 'BEGIN {
		printf "%-5s bare %7.1f ns/call  traced %7.1f (+%.1f)  cpu every call %7.1f (+%.1f)  cpu 10us window %7.1f (+%.1f)\n",
		    m, a, b, b - a, e, e - a, c, c - a }'
done
ev=$(zcat "$T"/bprobe/rank.*.tr.gz | grep -vc '^#')
sz=$(cat "$T"/bprobe/rank.*.tr.gz | wc -c)
echo "trace: $ev events, $sz bytes gzip, $(awk -v s=$sz -v e=$ev 'BEGIN{printf "%.2f", s/e}') bytes/event"
