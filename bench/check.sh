#!/bin/sh
# The check of grown traces against their models (tr-extrap -T's, and
# tr-check's) on the real applications the pipeline grows: the bundled
# stencil samples, the stencil example recorded now, and LAMMPS (in.melt,
# 4,000 atoms, 100 steps, recorded at 2, 4 and 8 ranks, grown to 16).
# Prints per code: the verdict on the grown trace (pass or FAIL, values
# beyond the tolerance / compared), its largest disagreement relative to
# its tolerance (1 is at it) and what it is; the same for the measured
# run at the target (without rank classes); and the grown trace's max
# per-rank wall and CPU time against the measured run's, which says
# whether a grown trace that fails is wrong.
#
#   sh bench/check.sh [TR_BIN]
set -eu
B=${1:-bin}
W=${TMPDIR:-/tmp}/tr-bench-check.$$
trap 'rm -rf "$W"' EXIT
mkdir -p "$W"
TOP=$(cd "$(dirname "$0")/.." && pwd)
case $B in /*) ;; *) B=$TOP/$B ;; esac

# worst MODELS TRACE...: "verdict ratio: what" of tr-check
worst() {
	m=$1
	shift
	if "$B/tr-check" "$m" "$@" > "$W/c.tr" 2> "$W/c.err"; then v=pass
	else v=FAIL; fi
	n=$(awk -F'\t' '$1 == "accsum" { print $9 "/" $2 }' "$W/c.tr")
	sed -n 's/^tr-check: largest disagreement, \([0-9.]*\) times its tolerance: /\1 /p' \
	    "$W/c.err" | awk -v v="$v" -v n="$n" '{ r = $1; $1 = ""
	    printf "%s %s %s:%s", v, n, r, $0 }'
}

# row NAME OUT TARGET MAKEARGS...: the pipeline, then both checks
row() {
	name=$1 out=$2 target=$3
	shift 3
	st=0
	make -s -f "$TOP/pipelines/extrap.mk" TR_BIN="$B" OUT="$out" \
	    TARGET="$target" "$@" > "$W/make.log" 2>&1 || st=$?
	syn=$out/synthetic.tr.gz
	[ -f "$syn" ] || syn=$out/failed.tr.gz
	if [ -f "$syn" ]; then
		printf '%-22s grown:    %s (make %s)\n' "$name" \
		    "$(worst "$out/models.tr" "$syn")" "$st"
	else
		printf '%-22s grown:    none (make %s): %s\n' "$name" "$st" \
		    "$(tail -n 1 "$W/make.log")"
	fi
	md=$(ls -d "$out/np$target/run" 2>/dev/null || echo "$TRACES_DIR/np$target")
	printf '%-22s measured: %s\n' "" "$(worst "$out/models.tr" "$md"/*.tr*)"
	# whether the grown trace is right: its max per-rank delta sum
	# (wall, then CPU) against the measured run's
	[ -f "$syn" ] && printf '%-22s grown/measured max per-rank wall %s, cpu %s\n' "" \
	    $( { zcat -f "$syn" | "$B/tr-delta" -s; echo; cat "$md"/*.tr* |
	    "$B/tr-delta" -s; } | awk -F'\t' '$1 == "dmax" && $2 == "*" {
	    w[++n] = $5; c[n] = $6 } END { printf "%.2f %.2f", w[1] / w[2],
	    c[1] / c[2] }')
	return 0
}

TRACES_DIR=$TOP/samples/stencil
row "samples/stencil" "$W/samples" 64 TRACES="$TRACES_DIR" \
    SCALES="4 8 16 32"
row "stencil 1024 40" "$W/stencil" 32 SCALES="4 8 16" \
    APP="$TOP/build/mpi/stencil 1024 40"
if command -v lmp > /dev/null &&
    [ -f /usr/share/lammps/examples/melt/in.melt ]; then
	sed 's/^run.*/run		100/' /usr/share/lammps/examples/melt/in.melt \
	    > "$W/in.melt"
	row "lammps in.melt" "$W/lammps" 16 SCALES="2 4 8" \
	    APP="lmp -in $W/in.melt -log none -screen none"
fi

# Past the measured runs: the samples' models and 32-rank template grown
# to 256 and 1024 ranks, checked.
for n in 256 1024; do
	"$B/tr-extrap" -T -Q -W -n $n "$W/samples/models.tr" \
	    "$TRACES_DIR"/np32/*.tr* > "$W/g.tr" 2> /dev/null
	printf '%-22s grown:    %s\n' "samples/stencil > $n" \
	    "$(worst "$W/samples/models.tr" "$W/g.tr")"
done
