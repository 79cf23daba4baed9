#!/bin/sh
# tr-nsim against a measured run: the project's stencil recorded on 2
# ranks (one node, shared memory) is replayed on a network calibrated by
# ping-pongs on this machine (intra-latency 140 ns, 1.93 GB/s); the time
# from the end of MPI_Cart_create to the start of MPI_Finalize (latest
# rank) is compared, simulated with wall-clock gaps (-w) and with the
# recorded CPU time. Run it on an idle machine.
#   sh bench/nsim-measured.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-nsimm.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
cat > "$w/shm.net" <<'E'
topology crossbar
ranks-per-node 2
intra-latency 140ns
intra-bandwidth 1.93GB/s
eager-threshold 65536
E
span() {
	awk -F'\t' '$1 == "ev" && $4 == "MPI_Cart_create" && $6 > a { a = $6 }
	    $1 == "ev" && $4 == "MPI_Finalize" && $5 > b { b = $5 }
	    END { print b - a }' "$1"
}
for rep in $(seq 1 "${1:-3}"); do
	rm -rf "$w/st"
	OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --allow-run-as-root -np 2 \
	    "$B/tr-record" -o "$w/st" "$M/stencil" 1024 200 > /dev/null
	"$B/tr-cat" -m "$w"/st/*.gz > "$w/st.tr"
	m=$(span "$w/st.tr")
	for mode in -w -cpu; do
		flag=$mode
		[ "$mode" = -cpu ] && flag=
		"$B/tr-nsim" $flag -n "$w/shm.net" "$w/st.tr" > "$w/sim.tr"
		p=$(span "$w/sim.tr")
		printf 'run %d %-4s measured %11d ns predicted %11d ns error %+.2f %%\n' \
		    "$rep" "$mode" "$m" "$p" "$(echo "($p - $m) * 100 / $m" | bc -l)"
	done
done
