#!/bin/sh
# bench/nsim.sh - tr-nsim speed and memory against SimGrid's replay of the
# identical trace (tr-to-ti + smpirun), side by side in one run.
#   sh bench/nsim.sh [ITERS_1K] [ITERS_64K] [ITERS_3D] [ROUNDS]
# Prints one line per run: records (ev), wall seconds, records/s, peak
# RSS, cpu seconds; tr-nsim -v adds its own counts (messages, engine
# events) and cpu rates of the simulation phase alone. Then, with
# smpirun, the speed table: per trace and network, tr-nsim and smpirun
# run in turn ROUNDS times (default 2; tr-nsim once more), each figure
# the median of its runs, the ratio that of the medians; the spread of
# each tool's runs says how much the shared machine moved them.
cd "$(dirname "$0")/.." || exit 4
B=${TR_BIN:-bin}
NET=pipelines/net/crossbar.net
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
i1=${1:-30} i64=${2:-2} i3=${3:-600} rounds=${4:-2}
printf 'topology fattree 32 2\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 0\n' > "$w/ft.net"

# seconds, peak RSS (KB) and cpu seconds of a command, from GNU time:
# the fastest of $runs runs (short runs on a shared machine vary by 2x)
runs=3
measure() {
	best=
	i=0
	while [ $i -lt $runs ]; do
		/usr/bin/time -f '%e %M %U %S' -o "$w/time" "$@" > "$w/out" \
		    2> "$w/err" || { cat "$w/err" >&2; return 1; }
		if [ -z "$best" ] || [ "$(awk -v a="$(cut -d' ' -f1 "$w/time")" \
		    -v b="$(cut -d' ' -f1 "$w/best")" 'BEGIN { print (a < b) }')" = 1 ]; then
			cp "$w/time" "$w/best"
			best=1
		fi
		i=$((i + 1))
	done
	cat "$w/best"
}

line() {	# name events seconds rss user sys
	awk -v n="$1" -v e="$2" -v s="$3" -v m="$4" -v c="$5" -v y="$6" 'BEGIN {
		printf "%-34s %9d events %7.2f s %10.0f events/s %7.1f MB" \
		    " (cpu %.2f s)\n", n, e, s, (s > 0 ? e / s : 0), m / 1024,
		    c + y }'
	grep '^tr-nsim: stats' "$w/err" | sed 's/^tr-nsim: stats:/   /'
}

$B/tr-gen -P stencil2d -n 1024 -i "$i1" -R 1 > "$w/s1k.tr"
ev=$(grep -c '^ev' "$w/s1k.tr")
set -- $(measure $B/tr-cat "$w/s1k.tr")
line "tr-cat (parsing only), 1k ranks" "$ev" "$@"
set -- $(measure $B/tr-nsim -v -M $NET "$w/s1k.tr")
line "tr-nsim crossbar, 1k ranks" "$ev" "$@"
nsim=$1 nsimc=$(awk -v u="$3" -v y="$4" 'BEGIN { print u + y }')
grep '^simrun' "$w/out" | cut -f3 > "$w/nsim.rt"
set -- $(measure $B/tr-nsim -v -M "$w/ft.net" "$w/s1k.tr")
line "tr-nsim fat tree 32-ary 2-tree, 1k" "$ev" "$@"
if command -v smpirun > /dev/null; then
	$B/tr-to-ti -M $NET -o "$w/ti" "$w/s1k.tr"
	lines=$(cat "$w"/ti/rank*.txt | wc -l)
	runs=2	# 20 s each; and the 64k run below, 6 s each
	set -- $(measure sh "$w/ti/smpirun.sh" --log=root.fmt:%m%n \
		--log=xbt_cfg.thres:warning --log=smpi_config.thres:error)
	line "smpirun -replay crossbar, 1k ranks" "$ev" "$@"
	echo "  (SimGrid replayed $lines TI lines: $(awk -v l="$lines" -v s="$1" 'BEGIN{printf "%.0f", l / s}') lines/s;" \
		"speed ratio tr-nsim/SimGrid $(awk -v a="$nsim" -v b="$1" 'BEGIN{printf "%.1f", b / (a > 0 ? a : 0.01)}')x wall," \
		"$(awk -v a="$nsimc" -v b="$3" -v c="$4" 'BEGIN{printf "%.1f", (b + c) / (a > 0 ? a : 0.01)}')x cpu)"
	echo "  runtime: tr-nsim $(cat "$w/nsim.rt") ns, SimGrid" \
		"$(awk '/Simulation time/{print $3 * 1e9}' "$w/err") ns"
fi
$B/tr-gen -P stencil2d -n 65536 -i "$i64" -R 1 > "$w/s64k.tr"
ev=$(grep -c '^ev' "$w/s64k.tr")
set -- $(measure $B/tr-nsim -v -M $NET "$w/s64k.tr")
line "tr-nsim crossbar, 64k ranks" "$ev" "$@"
# Memory against the length of the trace: the 1k stencil run 10 times
# longer. Read as the replay needs it, the spool holds a few records per
# rank, so peak RSS should stay that of the 30-iteration run.
i1l=$((i1 * 10))
$B/tr-gen -P stencil2d -n 1024 -i "$i1l" -R 1 > "$w/s1kl.tr"
ev=$(grep -c '^ev' "$w/s1kl.tr")
runs=1
set -- $(measure $B/tr-nsim -v -M $NET "$w/s1kl.tr")
line "tr-nsim crossbar, 1k ranks, x10 long" "$ev" "$@"
# Memory per simulated rank: one iteration, so that the ranks' state,
# not the records spooled, is most of the peak.
for n in 65536 262144; do
	$B/tr-gen -P stencil2d -n $n -i 1 -R 1 > "$w/sn.tr"
	ev=$(grep -c '^ev' "$w/sn.tr")
	set -- $(measure $B/tr-nsim -M $NET "$w/sn.tr")
	line "tr-nsim crossbar, $n ranks, 1 iter" "$ev" "$@"
	awk -v m="$2" -v n=$n 'BEGIN { printf "  %.2f KB a rank\n", m / n }'
done
rm -f "$w/sn.tr"

# The speed table. Rows: the 1k 2-D stencil above on the crossbar, and a
# 3-D stencil of 125 ranks (64 KiB halos, 10 % noise) given as one file
# per rank, as tr-record writes them, on the crossbar and on a 16-ary
# 2-tree of 256 nodes.
command -v smpirun > /dev/null || exit 0
printf 'topology fattree 16 2\nlink-bandwidth 10Gbps\nlink-latency 1us\nswitch-latency 0\nintra-bandwidth 20GB/s\nintra-latency 200ns\neager-threshold 65536\n' > "$w/ft256.net"
mkdir -p "$w/s3d"
r=0
while [ $r -lt 125 ]; do
	$B/tr-gen -P stencil3d -n 125 -i "$i3" -b 65536 -j 0.1 -R 1 -r $r \
	    > "$w/s3d/rank.$r.tr"
	r=$((r + 1))
done
# median of the numbers on stdin; "lo-hi" of them in $w/spread
median() {
	sort -n > "$w/m"
	awk '{ a[NR] = $1 } END { printf "%s-%s", a[1], a[NR] > "'"$w/spread"'"
	    print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }' "$w/m"
}
# wall seconds of a command on stdout, its cpu seconds added to $w/cpu
wall() {
	/usr/bin/time -f '%e %U %S' -o "$w/t1" "$@" > "$w/out1" \
	    2> "$w/err1" || { cat "$w/err1" >&2; return 1; }
	awk '{ print $2 + $3 >> "'"$w/cpu"'"; print $1 }' "$w/t1"
}
row() {	# name net ti-dir trace...
	name=$1 net=$2 ti=$3
	shift 3
	: > "$w/tn"
	: > "$w/ts"
	: > "$w/cn"
	: > "$w/cs"
	k=0
	while [ $k -lt "$rounds" ]; do
		wall $B/tr-nsim -Q -M "$net" "$@" >> "$w/tn" || return 1
		tail -n 1 "$w/cpu" >> "$w/cn"
		grep '^simrun' "$w/out1" | cut -f3 > "$w/rt.nsim"
		wall sh "$ti/smpirun.sh" --log=root.fmt:%m%n \
		    --log=xbt_cfg.thres:warning --log=smpi_config.thres:error \
		    >> "$w/ts" || return 1
		tail -n 1 "$w/cpu" >> "$w/cs"
		awk '/Simulation time/ { printf "%.0f", $3 * 1e9 }' "$w/err1" \
		    > "$w/rt.smpi"
		k=$((k + 1))
	done
	wall $B/tr-nsim -Q -M "$net" "$@" >> "$w/tn" || return 1
	tail -n 1 "$w/cpu" >> "$w/cn"
	tn=$(median < "$w/tn") sn=$(cat "$w/spread")
	ts=$(median < "$w/ts") ss=$(cat "$w/spread")
	cn=$(median < "$w/cn") cs=$(median < "$w/cs")
	awk -v n="$name" -v tn="$tn" -v ts="$ts" -v sn="$sn" -v ss="$ss" \
	    -v cn="$cn" -v cs="$cs" -v a="$(cat "$w/rt.nsim")" \
	    -v b="$(cat "$w/rt.smpi")" 'BEGIN {
		printf "| %s | %.2f s (%s) | %.1f s (%s) | %.1fx | %.1fx | %+.3f %% |\n",
		    n, tn, sn, ts, ss, ts / (tn > 0 ? tn : 0.01),
		    cs / (cn > 0 ? cn : 0.01), (b > 0 ? 100 * (a - b) / b : 0) }'
}
echo
echo "| trace, network | tr-nsim | smpirun | ratio, wall | ratio, cpu | runtime against SimGrid's |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
row "2-D stencil, 1,024 ranks, $(grep -c '^ev' "$w/s1k.tr") records, crossbar" \
    $NET "$w/ti" "$w/s1k.tr"
ev=$(cat "$w"/s3d/rank.*.tr | grep -c '^ev')
$B/tr-to-ti -M $NET -o "$w/ti3x" "$w"/s3d/rank.*.tr
row "3-D stencil, 125 ranks, $ev records, per-rank files (-m), crossbar" \
    $NET "$w/ti3x" -m "$w"/s3d/rank.*.tr
$B/tr-to-ti -M "$w/ft256.net" -o "$w/ti3f" "$w"/s3d/rank.*.tr
row "the same, fat tree 16-ary 2-tree (256 nodes)" \
    "$w/ft256.net" "$w/ti3f" -m "$w"/s3d/rank.*.tr
# A recorded run: examples/stencil on 64 ranks of this machine, its
# files per rank as tr-record wrote them (samples/stencil/np64).
rec=samples/stencil/np64
ev=$(gzip -dc $rec/rank.*.tr.gz | grep -c '^ev')
$B/tr-to-ti -M $NET -o "$w/tirx" $rec/rank.*.tr.gz
row "recorded stencil, 64 ranks, $ev records, per-rank files (-m), crossbar" \
    $NET "$w/tirx" -m $rec/rank.*.tr.gz
$B/tr-to-ti -M "$w/ft256.net" -o "$w/tirf" $rec/rank.*.tr.gz
row "the same, fat tree 16-ary 2-tree" \
    "$w/ft256.net" "$w/tirf" -m $rec/rank.*.tr.gz
