#!/bin/sh
# bench/nsim.sh - tr-nsim speed and memory against SimGrid's replay of the
# identical trace (tr-to-ti + smpirun), side by side in one run.
#   sh bench/nsim.sh [ITERS_1K] [ITERS_64K]
# Prints one line per run: records (ev), wall seconds, records/s, peak
# RSS, cpu seconds; tr-nsim -v adds its own counts (messages, engine
# events) and cpu rates of the simulation phase alone.
cd "$(dirname "$0")/.." || exit 4
B=${TR_BIN:-bin}
NET=pipelines/net/crossbar.net
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
i1=${1:-30} i64=${2:-2}
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
