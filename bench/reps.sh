#!/bin/sh
# How far extrapolation's accuracy moves between independent recordings,
# with one run per scale (REPS=1) and with the median of five (REPS=5,
# tr-fit -r, as Extra-P's authors recommend). Each of K rounds records
# the program anew under pipelines/extrap.mk once with each setting, the
# two side by side so that they share the machine's load, each in its
# own OUT; every run also records the target count to compare with.
# Programs: the stencil example (2-D halo exchange, a fixed 1024 x 1024
# grid, 200 iterations: tens of ms of compute per rank, so that the
# compute, not the noise, is what is fitted) and the cg example (an
# Allgather and two Allreduce an iteration, 1440 x 1440, 100
# iterations), each at 4, 6 and 9 ranks (a 3 x 3 grid, whose inner rank
# the stencil's synthetic trace needs) and predicted at 12.
# Prints, per program and setting, the minimum, median, maximum and
# spread (max - min) over the K rounds of: the accuracy of the predicted
# maximum per-rank CPU delta sum against the measured run's (tr-accuracy
# -t dmax -K 'key=*' -q cpu), and of tr-nsim's runtime of the synthetic
# trace (tr-extrap -T) against that of the measured trace, both scored
# as tr-accuracy(1) does, then the K values in the order run.
#
# The runs of a pipeline are made one at a time (make -j1): two
# recordings at once on 2 cores disturb each other's compute too.
#
#   sh bench/reps.sh [TR_BIN]            (K=5 rounds; about 3 minutes)
#   K=3 J=2 sh bench/reps.sh             (fewer rounds, make -j2)
set -eu
B=${1:-bin}
K=${K:-5}
J=${J:-1}
W=${TMPDIR:-/tmp}/tr-bench-reps.$$
trap 'rm -rf "$W"' EXIT
mkdir -p "$W"
TOP=$(cd "$(dirname "$0")/.." && pwd)
case $B in /*) ;; *) B=$TOP/$B ;; esac
M=$TOP/build/mpi
SCALES="4 6 9"
TARGET=12

score() {	# score P M: 100 (1 - |p - m| / max(|p|, |m|))
	awk -v p="$1" -v m="$2" 'function abs(x) { return x < 0 ? -x : x }
	    BEGIN { d = abs(p - m); r = abs(p) > abs(m) ? abs(p) : abs(m);
	    printf "%.2f", r ? (1 - d / r) * 100 : 100 }'
}

simrun() {	# simrun FILE...: tr-nsim's runtime of the trace in FILEs
	cat "$@" | "$B/tr-nsim" | awk -F'\t' '$1 == "simrun" { print $3 }'
}

one() {	# one NAME REPS ROUND SYNTH APP...: a pipeline; appends the scores
	name=$1 reps=$2 round=$3 synth=$4
	shift 4
	out=$W/$name.r$reps.$round
	make -s -j"$J" -f "$TOP/pipelines/extrap.mk" TR_BIN="$B" APP="$*" \
	    SCALES="$SCALES" TARGET=$TARGET REPS="$reps" SYNTH="$synth" \
	    OUT="$out" > /dev/null 2> "$out.err" || {
		cat "$out.err" >&2
		echo "bench/reps.sh: $name REPS=$reps round $round failed" >&2
		exit 1
	}
	fit=$("$B/tr-accuracy" -t dmax -K 'key=*' -q cpu "$out/predicted.tr" \
	    "$out/np$TARGET/dsum.tr" | awk -F'\t' '$1 == "acc" { print $7 }')
	echo "$fit" >> "$W/$name.r$reps.fit"
	if [ -f "$out/synthetic.tr.gz" ]; then
		echo "$(score "$(simrun "$out/synthetic.tr.gz")" \
		    "$(simrun "$out/np$TARGET/run"/*.tr*)")" >> "$W/$name.r$reps.sim"
	fi
	rm -rf "$out"	# REPS=5 keeps 16 runs of traces
}

stats() {	# stats FILE: min median max spread, then the values
	sort -n "$1" | awk '{ v[NR] = $1 } END {
	    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	    printf "%8.2f %8.2f %8.2f %8.2f ", v[1], m, v[NR], v[NR] - v[1] }'
	awk '{ printf " %.2f", $1 }' "$1"
}

bench() {	# bench NAME SYNTH APP...
	name=$1 synth=$2
	shift 2
	[ -x "$1" ] || { echo "bench/reps.sh: $1: not built (make)" >&2; exit 1; }
	k=1
	while [ "$k" -le "$K" ]; do
		one "$name" 1 "$k" "$synth" "$@"
		one "$name" 5 "$k" "$synth" "$@"
		k=$((k + 1))
	done
	for r in 1 5; do
		for q in fit sim; do
			f=$W/$name.r$r.$q
			[ -s "$f" ] || continue
			printf '%-8s %4s %-8s ' "$name" "$r" \
			    "$([ $q = fit ] && echo cpu-dmax || echo replay)"
			stats "$f"
			echo
		done
	done
}

echo "K=$K rounds, np=$SCALES > $TARGET, load: $(uptime | sed 's/.*load average: //')"
printf '%-8s %4s %-8s %8s %8s %8s %8s  %s\n' code REPS accuracy min median \
    max spread values
bench stencil auto "$M/stencil" 1024 200
bench cg auto "$M/cg" 1440 100
echo "load after: $(uptime | sed 's/.*load average: //')"
