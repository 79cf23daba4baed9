#!/bin/sh
# tr-nsim against measured runs on 2 ranks (one node, shared memory):
# the project's stencil, and hpcc (1x2 grid, N=1000) when installed. Each
# is recorded and replayed on two networks calibrated on this machine:
#   shm.net    pipelines/net/shm.net: intra-latency 140 ns and
#              intra-bandwidth 1.93 GB/s, from ping-pongs of 0 B and
#              1 MB;
#   table.net  intra-time points measured now by tr-bench -r (8 B to
#              4 MiB, half a ping-pong each), as tr-net(5) shows.
# Compared: the time from the end of MPI_Init (or MPI_Cart_create for the
# stencil) to the start of MPI_Finalize, measured and simulated with
# wall-clock gaps (-w; -wP: tr-nsim -w -P, polls that found nothing keep
# their time) and with the recorded CPU time. Run it on an idle machine.
#   sh bench/nsim-measured.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
. bench/span.sh
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-nsimm.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
cp pipelines/net/shm.net "$w/shm.net"
mpi() {
	OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --allow-run-as-root -np 2 "$@"
}
{
	printf 'topology crossbar\nranks-per-node 2\neager-threshold 4041\n'
	mpi "$B/tr-bench" -r -s 8:4MiB | awk -F '\t' '$1 == "benchpt" &&
	    $2 == "MPI_Send" && $3 == "world" {
		printf "intra-time %s %.0fns\n", $5, $6 }'
} > "$w/table.net"
echo "table.net, measured now:"
sed -n 's/^intra-time/ /p' "$w/table.net" | tr '\n' ';'
echo
# compare NAME FIRST: the recording in $w/rec against its replays
compare() {
	"$B/tr-cat" -m "$w"/rec/*.gz > "$w/m.tr"
	m=$(span "$w/m.tr" "$2")
	for net in shm table; do
		for mode in -w -wP -cpu; do
			flag=$mode
			[ "$mode" = -cpu ] && flag=
			[ "$mode" = -wP ] && flag="-w -P"
			"$B/tr-nsim" $flag -M "$w/$net.net" "$w/m.tr" > "$w/sim.tr"
			p=$(span "$w/sim.tr" "$2")
			printf '%-7s run %d %-5s %-4s measured %11d ns predicted %11d ns error %+.2f %%\n' \
			    "$1" "$rep" "$net" "$mode" "$m" "$p" \
			    "$(awk -v m="$m" -v p="$p" 'BEGIN { print (p - m) * 100 / m }')"
		done
	done
}
if command -v hpcc > /dev/null; then
	zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
	    sed -e '11s/^2 /1 /' > "$w/hpccinf.txt"
fi
for rep in $(seq 1 "${1:-3}"); do
	rm -rf "$w/rec"
	mpi "$B/tr-record" -o "$w/rec" "$M/stencil" 1024 200 > /dev/null
	compare stencil '^MPI_Cart_create$'
	[ -f "$w/hpccinf.txt" ] || continue
	rm -rf "$w/rec"
	(cd "$w" && mpi "$B/tr-record" -o rec hpcc > /dev/null)
	compare hpcc '^MPI_Init'
done
