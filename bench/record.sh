#!/bin/sh
# bench/record.sh - the cost tr-record adds to an MPI call, on 2 ranks:
# a zero-byte ping-pong (MPI_Send/MPI_Recv), the same by MPI_Irecv,
# MPI_Isend and MPI_Waitall (wait), and an MPI_Iprobe loop, each
# run bare, preloaded without CPU sampling (-C), with it reading the CPU
# clock at every call (-c 0), and with its default window (10 us between
# reads), and that deflated by zlib's level 1 and level 0 (stored) in
# place of igzip's level 1 (TR_RECORD_LEVEL=1, =0); the loop also
# as tr-record merges polls that find nothing. Figures are means over
# all repeats of the time per call, the buffer's flushes (formatting,
# compression, writing) in them; the added cost is the difference to the
# bare run. Also: compressed bytes/event, and the flushes' CPU time per
# record (their tr.flush marks), which a ping-pong pays twice a call:
# the partner waits.
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
		sed -n 's/.*mean-ns=//p'
}
# the flushes' CPU ns per record, over the rank files of DIR
flushcpu() {
	for f in "$1"/rank.*.tr.gz; do gzip -dc "$f"; done | awk -F '\t' '
	$1 == "reg" && $4 == "leave" && $5 == "tr.flush" { c += $7 }
	!/^#/ { n++ }
	END { printf "%.0f", n ? c / n : 0 }'
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
	l1=$(TR_RECORD_LEVEL=1 run "$B/tr-record" -g $gap -o "$T/y$mode" "$M/pingpong" "$N" $bytes "$REPS")
	l0=$(TR_RECORD_LEVEL=0 run "$B/tr-record" -g $gap -o "$T/z$mode" "$M/pingpong" "$N" $bytes "$REPS")
	awk -v m=$mode -v a="$bare" -v b="$nocpu" -v c="$cpu" -v e="$every" \
	    -v y="$l1" -v z="$l0" -v fc="$(flushcpu "$T/b$mode")" \
	    -v fy="$(flushcpu "$T/y$mode")" -v fz="$(flushcpu "$T/z$mode")" 'BEGIN {
		printf "%-5s bare %7.1f ns/call  traced %7.1f (+%.1f)  cpu every call %7.1f (+%.1f)  cpu 10us window %7.1f (+%.1f)  zlib 1 %7.1f (+%.1f)  zlib 0 %7.1f (+%.1f)  flush cpu/record %s ns, zlib 1 %s ns, zlib 0 %s ns\n",
		    m, a, b, b - a, e, e - a, c, c - a, y, y - a, z, z - a, fc, fy, fz }'
done
ev=$(zcat "$T"/bprobe/rank.*.tr.gz | grep -vc '^#')
for d in b:igzip-1 y:zlib-1 z:zlib-0; do
	sz=$(cat "$T"/${d%%:*}probe/rank.*.tr.gz | wc -c)
	echo "trace, ${d#*:}: $ev events, $sz bytes gzip, $(awk -v s=$sz -v e=$ev 'BEGIN{printf "%.2f", s/e}') bytes/event"
done
# The fixed cost at 8 ranks: a run with one ping-pong, bare and traced
# (start-up, clock synchronisation, final flush), and traced with the
# eager limits read through MPI_T (TR_RECORD_MPIT=1); wall ms, medians
# of FIXREPS runs taken in turn.
FIXREPS=${FIXREPS:-7}
ms() {
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >"$T/fb" && : >"$T/ft" && : >"$T/fm"
i=0
while [ $i -lt "$FIXREPS" ]; do
	ms mpirun --allow-run-as-root --oversubscribe -np 8 "$M/pingpong" 1 0 1 >>"$T/fb"
	ms mpirun --allow-run-as-root --oversubscribe -np 8 "$B/tr-record" -o "$T/f" "$M/pingpong" 1 0 1 >>"$T/ft"
	ms env TR_RECORD_MPIT=1 mpirun --allow-run-as-root --oversubscribe -np 8 "$B/tr-record" -o "$T/f" "$M/pingpong" 1 0 1 >>"$T/fm"
	i=$((i + 1))
done
fb=$(med <"$T/fb") ft=$(med <"$T/ft") fm=$(med <"$T/fm")
echo "fixed, 8 ranks: bare $fb ms  traced $ft ms (+$((ft - fb)))  eager limits by MPI_T $fm ms (+$((fm - fb)))"
