#!/bin/sh
# tr-nsim's eager thresholds against measured runs: 2-rank recordings of
# the stencil with 8 KiB halos (above Open MPI's 4040-byte shared-memory
# limit, below TCP's 65480), replayed on pipelines/net/shm.net with
#   65536   eager-threshold 65536 (tr-nsim's default) for all messages;
#   trace   eager-threshold trace: the run's #meta eager.shm within the
#           node, eager.net between nodes;
# with the recorded CPU time and with wall-clock gaps (-w). Compared: the
# time from the end of MPI_Cart_create to the first start of
# MPI_Finalize. Run it on an idle machine.
#   sh bench/nsim-eager.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-nsime.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
grep -v '^eager-threshold' pipelines/net/shm.net > "$w/base.net"
{ cat "$w/base.net"; echo 'eager-threshold 65536'; } > "$w/65536.net"
{ cat "$w/base.net"; echo 'eager-threshold trace'; } > "$w/trace.net"
span() {
	awk -F'\t' '$1 == "ev" && $4 == "MPI_Cart_create" && $6 > a { a = $6 }
	    $1 == "ev" && $4 == "MPI_Finalize" && (b == "" || $5 < b) { b = $5 }
	    END { printf "%.0f", b - a }' "$1"
}
for rep in $(seq 1 "${1:-3}"); do
	rm -rf "$w/rec"
	OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --allow-run-as-root -np 2 \
	    "$B/tr-record" -o "$w/rec" "$M/stencil" 2048 40 > /dev/null
	"$B/tr-cat" -m "$w"/rec/*.gz > "$w/m.tr"
	m=$(span "$w/m.tr")
	for net in 65536 trace; do
		for mode in -cpu -w; do
			flag=
			[ "$mode" = -w ] && flag=-w
			"$B/tr-nsim" $flag -M "$w/$net.net" "$w/m.tr" > "$w/sim.tr"
			p=$(span "$w/sim.tr")
			printf 'run %d eager %-6s %-4s measured %10d ns predicted %10d ns error %+.2f %%\n' \
			    "$rep" "$net" "$mode" "$m" "$p" \
			    "$(awk -v m="$m" -v p="$p" 'BEGIN { print (p - m) * 100 / m }')"
		done
	done
done
