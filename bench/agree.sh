#!/bin/sh
# bench/agree.sh - tr-nsim beside SimGrid (tr-to-ti + smpirun) on every
# tr-gen pattern, two scales, eager and rendezvous sizes, with noise, on
# a crossbar, two fat trees (4-ary 2-tree, 2-ary 4-tree), a torus, a
# dragonfly, and with several ranks per node a crossbar and a fat tree
# (round-robin).
# Prints one line per trace and, per network, the mean and largest
# |error|.
#   sh bench/agree.sh [ITERS]	(default 4; about 10 minutes)
#   NETS='torus crossbar' sh bench/agree.sh	(some networks only)
cd "$(dirname "$0")/.." || exit 4
B=${TR_BIN:-$PWD/bin}
it=${1:-4}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp pipelines/net/crossbar.net "$w/crossbar.net"
cp pipelines/net/fattree.net "$w/fattree-4-2.net"
printf 'topology fattree 2 4\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 0\n' \
    > "$w/fattree-2-4.net"
printf 'topology torus 4 4 2\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 0\n' \
    > "$w/torus.net"
printf 'topology dragonfly 4 3 2 1\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 300ns\n' \
    > "$w/dragonfly.net"
printf 'topology crossbar\nranks-per-node 4\nlink-bandwidth 1GB/s\nlink-latency 1us\nintra-bandwidth 5GB/s\n' \
    > "$w/crossbar-4pn.net"
printf 'topology fattree 4 2\nranks-per-node 2\nmapping round-robin\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 0\n' \
    > "$w/fattree-2pn-rr.net"
# SimGrid moves a rendezvous message once both ends are posted
for f in "$w"/*.net; do
	echo 'progress background' >> "$f"
done
cd "$w" || exit 4
for net in ${NETS:-crossbar fattree-4-2 fattree-2-4 torus dragonfly crossbar-4pn fattree-2pn-rr}; do
	for p in ring stencil1d stencil2d stencil3d alltoall master; do
		for np in 8 16; do
			for b in 3000 40000 200000; do
				f=$p-$np-$b.tr
				"$B/tr-gen" -P $p -n $np -i "$it" -b $b -j 0.3 -R 7 > $f
				a=$("$B/tr-nsim" -M $net.net $f |
				    awk -F'\t' '$1 == "simrun" { print $3 }')
				rm -rf ti
				"$B/tr-to-ti" -M $net.net -o ti $f
				s=$(sh ti/smpirun.sh 2>&1 |
				    awk '/Simulation time/ { print $NF }')
				echo "$net $f $a $s"
			done
		done
	done
done | awk '{
	if ($4 == "") { print $1, $2, "failed"; bad++; next }
	e = ($3 - $4 * 1e9) / ($4 * 1e9) * 100
	printf "%-12s %-22s tr-nsim %12d ns  smpirun %12.0f ns  %+6.2f %%\n",
	    $1, $2, $3, $4 * 1e9, e
	if (e < 0) e = -e
	sum[$1] += e; n[$1]++; if (e > max[$1]) max[$1] = e
}
END {
	for (k in n)
		printf "%s: %d traces, mean |error| %.3f %%, largest %.2f %%\n",
		    k, n[k], sum[k] / n[k], max[k]
	exit bad > 0
}'
