#!/bin/sh
# bench/netpipe.sh - NetPIPE (NPopenmpi, Debian's netpipe-openmpi): its own
# ping-pong table against tr-bench's calibration of the same two ranks
# and against tr-nsim's replay of NetPIPE's recorded run on it. Two ranks
# of this machine, shared memory. Run it on an idle machine.
#
# The network: tr-bench -r's ping-pong points (8 B to 4 MiB by 4, best of
# 5) as intra-time, eager-threshold 4041 (Open MPI 4.1's vader), as
# bench/nsim-apps.sh's table.net. NetPIPE runs with -p 0 (its sizes
# 1, 2, 3, 4, 6, 8, 12, ..., 4 MiB: powers of two and halfway), -n REPS
# ping-pongs per trial (default 200), unrecorded, then recorded
# (tr-record -b 64MiB: no flush in the run). Per size, in ns one way:
#   np       NetPIPE's time, unrecorded: the best of its trials' means
#   np.rec   the same of the recorded run
#   trace    from the recorded run's records, rank 0's MPI_Send start to
#            its MPI_Recv end, halved: the median over the size's
#            ping-pongs (NetPIPE's clock reads are outside them)
#   bench    tr-bench's point, where it measured that size
#   replay   the same median of tr-nsim's replay of the recorded run
#   err      replay against trace, %
# and for the whole run, the span from MPI_Init to MPI_Finalize against
# its replay's with -w (wall-clock gaps).
#   sh bench/netpipe.sh [REPS]
set -eu
cd "$(dirname "$0")/.."
. bench/span.sh
B=${TR_BIN:-$PWD/bin}
w=${TMPDIR:-/tmp}/tr-bench-netpipe.$$
mkdir -p "$w"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$w"' EXIT INT TERM
reps=${1:-200}
command -v NPopenmpi > /dev/null || {
	echo "netpipe: no NPopenmpi (apt-get install netpipe-openmpi)"
	exit 0
}
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() {
	(cd "$w" && mpirun --allow-run-as-root -np 2 "$@")
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
mpi "$B/tr-bench" -r -T 5 -s 8:4MiB > "$w/bench.tr"
{
	printf 'topology crossbar\nranks-per-node 2\neager-threshold 4041\n'
	awk -F '\t' '$1 == "benchpt" && $2 == "MPI_Send" && $3 == "world" {
		printf "intra-time %s %.0fns\n", $5, $6 }' "$w/bench.tr"
} > "$w/table.net"
mpi NPopenmpi -p 0 -n "$reps" -u 4194304 -o np.out > /dev/null 2>&1
mpi "$B/tr-record" -b 64MiB -o rec NPopenmpi -p 0 -n "$reps" -u 4194304 \
    -o np.rec.out > /dev/null 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/tr-cat" -m "$w"/rec/*.gz > "$w/m.tr"
"$B/tr-nsim" -M "$w/table.net" "$w/m.tr" > "$w/sim.tr"
"$B/tr-nsim" -w -M "$w/table.net" "$w/m.tr" > "$w/simw.tr"
# median one-way time per size of rank 0's ping-pongs in a trace
oneway() {
	awk -F '\t' '$1 == "ev" && $2 == 0 && $4 == "MPI_Send" { s = $5; b = $10 }
	    $1 == "ev" && $2 == 0 && $4 == "MPI_Recv" && s != "" {
		print b, ($6 - s) / 2; s = "" }' "$1" | sort -k1,1n -k2,2g |
	awk '{ v[$1, ++n[$1]] = $2; if (n[$1] == 1) o[++k] = $1 }
	    END { for (i = 1; i <= k; i++) { b = o[i]; c = n[b]
		printf "%s %.0f\n", b, c % 2 ? v[b, (c + 1) / 2] : (v[b, c / 2] + v[b, c / 2 + 1]) / 2 } }'
}
oneway "$w/m.tr" > "$w/trace"
oneway "$w/sim.tr" > "$w/replay"
awk '{ printf "%s %.0f\n", $1, $3 * 1e9 }' "$w/np.out" > "$w/np"
awk '{ printf "%s %.0f\n", $1, $3 * 1e9 }' "$w/np.rec.out" > "$w/nprec"
awk -F '\t' '$1 == "benchpt" && $2 == "MPI_Send" && $3 == "world" {
	printf "%s %.0f\n", $5, $6 }' "$w/bench.tr" > "$w/bench"
echo
echo "| bytes | np | np.rec | trace | bench | replay | err |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk 'FILENAME ~ /\/np$/ { np[$1] = $2; o[++k] = $1; next }
    FILENAME ~ /nprec$/ { nr[$1] = $2; next }
    FILENAME ~ /trace$/ { t[$1] = $2; next }
    FILENAME ~ /bench$/ { be[$1] = $2; next }
    { r[$1] = $2 }
    END { for (i = 1; i <= k; i++) { b = o[i]
	printf "| %s | %s | %s | %s | %s | %s | %s |\n", b, np[b], nr[b], t[b],
	    (b in be) ? be[b] : "", r[b],
	    (t[b] > 0) ? sprintf("%+.1f %%", (r[b] - t[b]) * 100 / t[b]) : "" } }' \
    "$w/np" "$w/nprec" "$w/trace" "$w/bench" "$w/replay"
m=$(span "$w/m.tr" '^MPI_Init')
p=$(span "$w/simw.tr" '^MPI_Init')
echo
awk -v m="$m" -v p="$p" 'BEGIN { printf "span: recorded %.1f ms, replayed (-w) %.1f ms: %+.1f %%\n",
    m / 1e6, p / 1e6, (p - m) * 100 / m }'
