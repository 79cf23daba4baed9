#!/bin/sh
# bench/polls.sh - what recording costs a polling application, with every
# poll a record (-p 0) and with polls that find nothing merged (the
# default): hpcc on 2 ranks (1x2 grid, HPL size N, default 1000), whose
# RandomAccess waits in MPI_Test/MPI_Testany loops; with and without CPU
# sampling (-C). For each: wall time of the run, trace size, records,
# polls merged, and the time from the end of MPI_Init to the start of
# MPI_Finalize as recorded. The bare run's wall time is the reference
# (mpirun's start-up, about 0.3 s here, included). bench/nsim-measured.sh
# compares the replays of such recordings with their measured time.
# Run it on an idle machine.
#   sh bench/polls.sh [N]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
command -v hpcc > /dev/null || { echo "hpcc not installed" >&2; exit 4; }
w=${TMPDIR:-/tmp}/tr-bench-polls.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
cd "$w"
zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
    sed -e "6s/^1000 /${1:-1000} /" -e '11s/^2 /1 /' > hpccinf.txt
span() {
	awk -F'\t' '$1 == "ev" && $4 ~ /^MPI_Init/ && $6 > a { a = $6 }
	    $1 == "ev" && $4 == "MPI_Finalize" && (b == "" || $5 < b) { b = $5 }
	    END { printf "%.0f", b - a }' "$1"
}
mpi() {
	OMPI_MCA_rmaps_base_oversubscribe=1 /usr/bin/time -f %e -o time \
	    mpirun --allow-run-as-root -np 2 "$@" > /dev/null
	cat time
}
echo "bare hpcc: $(mpi hpcc) s wall"
for cpu in "" -C; do
	for gap in 0 1us; do
		rm -rf rec
		t=$(mpi "$B/tr-record" $cpu -g $gap -o rec hpcc)
		"$B/tr-cat" -m rec/*.gz > m.tr
		printf '%-3s -p %-3s %6.2f s wall %8d KB %9d records %9d merged; span %6.3f s\n' \
		    "${cpu:-   }" "$gap" "$t" "$(du -k rec | cut -f1)" \
		    "$(grep -c '^ev' m.tr)" \
		    "$(sed -n 's/^#meta polls.merged.[0-9]*=//p' m.tr | awk '{ s += $1 } END { print s + 0 }')" \
		    "$(awk -v m="$(span m.tr)" 'BEGIN { print m / 1e9 }')"
	done
done
