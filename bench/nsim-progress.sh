#!/bin/sh
# tr-nsim against measured runs of programs that compute while their
# messages are in flight: examples/overlap.c (4 MB MPI_Isend/MPI_Irecv
# with computation before MPI_Waitall, with and without MPI_Testall
# calls inside it) and examples/nbc.c (an MPI_Iallreduce of 4 MB
# overlapped). Each is recorded on 2 ranks and replayed on the
# shared-memory network pipelines/net/shm.net with `progress calls`
# (the default) and `progress background`. Run it on an idle machine.
#   sh bench/nsim-progress.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-nsimp.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
cp pipelines/net/shm.net "$w/calls.net"
{ cat "$w/calls.net"; echo 'progress background'; } > "$w/background.net"
# from the end of the last MPI_Init to the start of the first MPI_Finalize
span() {
	awk -F'\t' '$1 == "ev" && $4 == "MPI_Init" && $6 > a { a = $6 }
	    $1 == "ev" && $4 == "MPI_Finalize" && (b == "" || $5 < b) { b = $5 }
	    END { print b - a }' "$1"
}
run() {	# name program args...
	name=$1
	shift
	rm -rf "$w/d"
	OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --allow-run-as-root -np 2 \
	    "$B/tr-record" -o "$w/d" "$M/$@" > /dev/null
	"$B/tr-cat" -m "$w"/d/*.gz > "$w/t.tr"
	m=$(span "$w/t.tr")
	for mode in calls background; do
		"$B/tr-nsim" -w -M "$w/$mode.net" "$w/t.tr" > "$w/sim.tr"
		p=$(span "$w/sim.tr")
		printf '%-28s %-10s measured %11d ns predicted %11d ns error %+7.1f %%\n' \
		    "$name" "$mode" "$m" "$p" "$(echo "($p - $m) * 100 / $m" | bc -l)"
	done
}
for rep in $(seq 1 "${1:-3}"); do
	echo "run $rep"
	run "overlap, no calls" overlap 20 4194304 2000 0
	run "overlap, 8 MPI_Testall" overlap 20 4194304 2000 8
	run "overlap, no computation" overlap 20 4194304 0 0
	run "nbc 10" nbc 10
done
