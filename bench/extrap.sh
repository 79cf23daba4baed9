#!/bin/sh
# Accuracy of extrapolation (tr-fit + tr-extrap, pipelines/extrap.mk) on
# several codes: tr-gen's nearest-neighbour patterns (faces, and the
# 26 neighbours of a 27-point stencil) and its butterfly, transpose,
# binomial tree, master/worker, FFTW's pairwise transposes and mpi4py's
# reduce by levels, with 20 % noise per
# compute burst, under weak scaling (fixed compute per rank) and strong
# scaling (compute per rank C/np), then the bundled real stencil samples,
# and the stencil example recorded here at 3 grid sizes N x N and 3
# counts (SIZES), grown to a larger grid at the largest count and to a
# larger grid and count at once.
# Prints, per code: accuracy of the max per-rank delta sum at the target
# predicted by the fits and measured on the synthetic trace, the worst
# accuracy of calls and bytes per operation of the synthetic trace, and
# the simulated runtime (tr-nsim) of the synthetic trace against that of
# the measured one, each as tr-accuracy(1) scores it.
#
#   sh bench/extrap.sh [TR_BIN]          (FAMILY=scalaextrap to compare)
#   ONLY='stencil*N*' sh bench/extrap.sh   (the recorded grid sizes alone)
#
# ONLY='GLOB' runs the rows whose name (as printed) the shell glob
# matches, and only their traces: ONLY='butterfly strong',
# ONLY='* weak', ONLY='samples*'.
set -eu
B=${1:-bin}
FAMILY=${FAMILY:-pmnf}
ONLY=${ONLY:-*}
W=${TMPDIR:-/tmp}/tr-bench-extrap.$$
trap 'rm -rf "$W"' EXIT
mkdir -p "$W"
TOP=$(cd "$(dirname "$0")/.." && pwd)
case $B in /*) ;; *) B=$TOP/$B ;; esac

acc() {	# acc PRED MEAS TYPE KEY QUANTITY -> accuracy in percent
	"$B/tr-accuracy" -t "$3" -K "$4" -q "$5" "$1" "$2" |
	    awk -F'\t' '$1 == "acc" { printf "%.2f", $7 }'
}

want() {	# want NAME: whether ONLY picks row NAME
	case $1 in $ONLY) return 0 ;; esac
	return 1
}

row() {	# row NAME DIR SCALES TARGET [SIZES TARGETN]
	name=$1 dir=$2 scales=$3 target=$4 sizes=${5:-} tn=${6:-}
	pt=$target${sizes:+-N$tn} out=$W/out.$(basename "$2").$target
	want "$name" || return 0
	make -s -f "$TOP/pipelines/extrap.mk" TR_BIN="$B" TRACES="$dir" \
	    SCALES="$scales" TARGET="$target" OUT="$out" FAMILY="$FAMILY" \
	    SIZES="$sizes" TARGETN="$tn" >/dev/null 2>"$W/make.err" || :
	m=$out/np$pt
	fit=$(acc "$out/predicted.tr" "$m/dsum.tr" dmax 'key=*' wall)
	fitc=$(acc "$out/predicted.tr" "$m/dsum.tr" dmax 'key=*' cpu)
	if [ ! -f "$out/synthetic.tr.gz" ]; then	# refused: failed.tr.gz
		printf '%-24s %-14s %8s %8s  %s\n' "$name" \
		    "$scales${sizes:+ x $sizes}>$target${sizes:+,$tn}" "$fit" \
		    "$fitc" "no synthetic trace: $(grep -m1 'check:' \
		    "$W/make.err")"
		return 0
	fi
	syn=$(acc "$out/synthetic/dsum.tr" "$m/dsum.tr" dmax 'key=*' wall)
	cb=$("$B/tr-accuracy" -t opstat -q calls,bytes \
	    "$out/synthetic/stat.tr" "$m/stat.tr" |
	    awk -F'\t' '$1 == "accsum" { printf "%.2f", $5 }')
	sp=$(zcat -f "$out/synthetic.tr.gz" | "$B/tr-nsim" |
	    awk -F'\t' '$1 == "simrun" { print $3 }')
	sm=$(cat "$dir/np$pt"/*.tr* | "$B/tr-nsim" |
	    awk -F'\t' '$1 == "simrun" { print $3 }')
	sim=$(awk -v p="$sp" -v m="$sm" \
	    'function abs(x) { return x < 0 ? -x : x } BEGIN { d = abs(p - m);
	    r = abs(p) > abs(m) ? abs(p) : abs(m);
	    printf "%.2f", r ? (1 - d / r) * 100 : 100 }')
	printf '%-24s %-14s %8s %8s %8s %9s %10s  %s\n' "$name" \
	    "$scales${sizes:+ x $sizes}>$target${sizes:+,$tn}" "$fit" "$fitc" \
	    "$syn" "$cb" "$sim" \
	    "$(awk -F'\t' '$1 == "model" && $2 == "dmax" && $3 == "key=*" && $4 == "wall" { print $5 }' "$out/models.tr")"
}

gen() {	# gen NAME PATTERN SCALING SCALES... : traces in $W/NAME/npN
	name=$1 pat=$2 sc=$3
	shift 3
	want "$pat $sc" || return 0
	for n in "$@"; do
		mkdir -p "$W/$name/np$n"
		if [ "$sc" = weak ]; then c=200us; else c=$((51200000 / n)); fi
		"$B/tr-gen" -P "$pat" -n "$n" -i 20 -c "$c" -j 0.2 -R 11 \
		    > "$W/$name/np$n/all.tr"
	done
}

printf '%-24s %-14s %8s %8s %8s %9s %10s  %s\n' code scales fit-wall fit-cpu \
    synth calls,B nsim-time model
for sc in weak strong; do
	gen s1-$sc stencil1d $sc 4 8 16 32 64
	row "stencil1d $sc" "$W/s1-$sc" "4 8 16 32" 64
	gen s2-$sc stencil2d $sc 4 8 16 32 64
	row "stencil2d $sc" "$W/s2-$sc" "4 8 16 32" 64
	gen s3-$sc stencil3d $sc 8 16 32 64 128
	row "stencil3d $sc" "$W/s3-$sc" "8 16 32 64" 128
	gen r-$sc ring $sc 4 8 16 32 64
	row "ring $sc" "$W/r-$sc" "4 8 16 32" 64
	gen s27-$sc stencil27 $sc 8 27 64 125
	row "stencil27 $sc" "$W/s27-$sc" "8 27 64" 125
	# off any grid: grown by peer functions of (rank, P)
	for p in butterfly transpose tree master pairwise reduce; do
		gen $p-$sc $p $sc 4 8 16 32
		row "$p $sc" "$W/$p-$sc" "4 8 16" 32
	done
done
if [ -d "$TOP/samples/stencil/np64" ] && want "samples/stencil (real)"; then
	row "samples/stencil (real)" "$TOP/samples/stencil" "4 8 16 32" 64
fi
# The stencil's N x N grid: compute per rank N^2 / P, halo N / P^(1/2);
# runs of 20 iterations at 4, 8, 16 ranks and N of 256, 512, 1024, grown
# to N=2048 at 16 ranks, and at 32 (a 4 x 4 template grows to 8 x 4; a
# 2 x 2 one has no inner rank to follow).
S=$TOP/build/mpi/stencil
MPIRUN=${MPIRUN:-mpirun --oversubscribe --allow-run-as-root -np}
if [ -x "$S" ] && { want "stencil N (real)" || want "stencil P,N (real)"; }; then
	for p in 4 8 16 32; do
		for n in 256 512 1024 2048; do
			case $p,$n in 4,2048|8,2048|32,[!2]*|32,256) continue ;; esac
			$MPIRUN "$p" "$B/tr-record" -N "$n" \
			    -o "$W/sz/np$p-N$n" "$S" "$n" 20 > /dev/null
		done
	done
	row "stencil N (real)" "$W/sz" "4 8 16" 16 "256 512 1024" 2048
	row "stencil P,N (real)" "$W/sz" "4 8 16" 32 "256 512 1024" 2048
fi
