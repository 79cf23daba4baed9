#!/bin/sh
# bench/reduce.sh - large MPI_Allreduce calls, measured on 2 ranks of this
# machine, against tr-nsim's prediction with and without the time of
# reducing (tr-net(5) reduce-bandwidth).
# The network is calibrated now by tr-bench (intra-time points from a
# ping-pong, 64 KiB to 16 MiB; reduce-bandwidth from every rank reducing
# 1 to 16 MiB at once); examples/allreduce.c is recorded and replayed
# with wall-clock gaps (-w). Per size: the median recorded duration of a
# call, and the median replayed one. Then, unrecorded, what an allreduce
# on 2 ranks is made of: an MPI_Sendrecv of the buffer (both ways at
# once), an MPI_Reduce_local of it, and the MPI_Allreduce (the best of 5
# means). Run it on an idle machine.
#   sh bench/reduce.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-reduce.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
mpi() {
	OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --allow-run-as-root -np 2 "$@"
}
# median duration of MPI_Allreduce by size in a trace, rank 0's: the
# first calls of a size take 3 to 5 times longer (Open MPI allocating and
# touching its temporary buffers), which the model does not hold
bysize() {
	awk -F'\t' '$1 == "ev" && $4 == "MPI_Allreduce" && $2 == 0 {
		print $10, $6 - $5 }' "$1" | sort -k1,1n -k2,2n |
	    awk '{ d[$1, ++n[$1]] = $2 }
		END { for (b in n) printf "%d %d\n", b, d[b, int((n[b] + 1) / 2)] }' |
	    sort -n
}
for rep in $(seq 1 "${1:-3}"); do
	mpi "$B/tr-bench" -r -s 64KiB:16MiB > "$w/bench.tr"
	{
		printf 'topology crossbar\nranks-per-node 2\n'
		awk -F '\t' '$1 == "benchpt" && $2 == "MPI_Send" && $3 == "world" {
			printf "intra-time %s %.0fns\n", $5, $6 }' "$w/bench.tr"
	} > "$w/nored.net"
	mpi "$B/tr-bench" -s 1MiB:16MiB > "$w/red.tr"
	rb=$(awk -F '\t' '$1 == "param" && $2 == "MPI_Reduce_local" {
		printf "%.0f", 1e9 / $6 }' "$w/red.tr")
	{ cat "$w/nored.net"; echo "reduce-bandwidth ${rb}B/s"; } > "$w/red.net"
	rm -rf "$w/rec"
	mpi "$B/tr-record" -o "$w/rec" "$M/allreduce" 16777216 21 > /dev/null
	"$B/tr-cat" -m "$w"/rec/*.gz > "$w/m.tr"
	bysize "$w/m.tr" > "$w/measured"
	"$B/tr-nsim" -w -M "$w/nored.net" "$w/m.tr" > "$w/a.tr"
	bysize "$w/a.tr" > "$w/nored"
	"$B/tr-nsim" -w -M "$w/red.net" "$w/m.tr" > "$w/b.tr"
	bysize "$w/b.tr" > "$w/red"
	echo "run $rep: reduce-bandwidth $(awk -v b="$rb" 'BEGIN { printf "%.2f GB/s", b / 1e9 }')"
	join "$w/measured" "$w/nored" | join - "$w/red" | awk '{
		printf "  %9d B  measured %9d ns  messages only %9d ns (%+5.1f %%)" \
		    "  with reducing %9d ns (%+5.1f %%)\n", $1, $2, $3,
		    ($3 - $2) * 100 / $2, $4, ($4 - $2) * 100 / $2 }'
done
echo "what an allreduce is made of (ns; best of 5 means of 20 calls):"
mpi "$M/allreduce" 16777216 20 parts | awk '{
	printf "  %9d B  sendrecv %9d  reduce_local %9d  sum %9d  allreduce %9d\n",
	    $1, $2, $3, $2 + $3, $4 }'
