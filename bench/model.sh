#!/bin/sh
# bench/model.sh - the parameters tr-bench measures
# here, tr-barrier-correct's throughput beside an equivalent mawk
# script, and the worked example (pipelines/phases.mk) at 2 and 4 ranks.
#
# usage: sh bench/model.sh [ITERATIONS]	(after make, from the top)
# ITERATIONS sizes the synthetic trace: 16 ranks x 16 records each.
set -e
cd "$(dirname "$0")/.."
it=${1:-20000}
tmp=${TMPDIR:-/tmp}/tr-bench-model.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 \
	OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --allow-run-as-root"

echo "== tr-bench (ns; beta ns/B)"
for np in 2 4; do
	$MPIRUN -np $np bin/tr-bench > "$tmp/p$np.tr"
	grep '^#meta \(timer\|barrier\).cost' "$tmp/p$np.tr" | sed "s/^/np=$np /"
	mawk -F '\t' -v np=$np '$1 == "param" && $2 != "timer" {
		printf "np=%s %-13s %-5s size %s alpha %9.1f beta %.4f (%.0f MB/s) maxdev %.2f\n",
		    np, $2, $3, $4, $5, $6, ($6 > 0 ? 1000 / $6 : 0), $10 }' "$tmp/p$np.tr"
done

echo "== tr-barrier-correct beside mawk ($it iterations x 16 ranks)"
mawk -v it="$it" 'BEGIN {
	print "#tr 1"; print "#meta np=16"; print "#meta timer.cost=25"
	print "#meta barrier.cost=4000"
	print "#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime"
	print "#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot"
	split("matvec dot update norm", ph, " ")
	for (r = 0; r < 16; r++) {
		t = 0; s = 0; w = 0
		for (i = 0; i < it; i++)
			for (k = 1; k <= 4; k++) {
				printf "reg\t%d\t%d\tenter\t%s\t%d\t-1\t%d\n", r, s++, ph[k], t, w
				w++
				printf "ev\t%d\t%d\tMPI_Barrier\t%d\t%d\t-1\tcg+0x1\t-1\t0\t-1\t0\t-1\t-1\n", r, s++, t + 10, t + 4000
				printf "ev\t%d\t%d\tMPI_Allreduce\t%d\t%d\t-1\tcg+0x2\t-1\t8\t-1\t0\t-1\t-1\n", r, s++, t + 5000, t + 9000
				w++; t += 12000 + r
				printf "reg\t%d\t%d\tleave\t%s\t%d\t-1\t%d\n", r, s++, ph[k], t, w
			}
	}
}' > "$tmp/big.tr"
n=$(grep -vc '^#' "$tmp/big.tr")
mb=$(( $(wc -c < "$tmp/big.tr") / 1000000 ))
cat > "$tmp/bc.awk" <<'EOF'
# The core of tr-barrier-correct in mawk: per-rank region stacks,
# exclusive time, MPI time, barriers and timer reads per phase.
BEGIN { FS = "\t" }
/^#meta np=/ { np = substr($0, 10) }
/^#meta timer.cost=/ { ct = substr($0, 18) }
/^#meta barrier.cost=/ { cb = substr($0, 20) }
/^#/ { next }
$1 == "reg" {
	r = $2; d = dep[r]
	if (d > 0) { p = st[r, d]; wall[p] += $6 - lt[r]; tim[p] += $8 - lw[r] }
	lt[r] = $6; lw[r] = $8
	if ($4 == "enter") { if (!($5 in wall)) { ord[++nph] = $5; wall[$5] = 0 } dep[r] = d + 1; st[r, d + 1] = $5 }
	else dep[r] = d - 1
	next
}
$1 == "ev" {
	r = $2; d = dep[r]
	if (d > 0) { p = st[r, d]; comm[p] += $6 - $5; if ($4 == "MPI_Barrier") bar[p]++ }
}
END {
	for (i = 1; i <= nph; i++) {
		p = ord[i]; c = comm[p] / np; t = wall[p] / np
		printf "phase\tcorrected\t%s\t%d\t-1\t%.0f\t%.0f\n", p, np, t - c - tim[p] / np * ct, c - bar[p] / np * cb
	}
}
EOF
best() {
	for k in 1 2 3; do
		s=$(date +%s.%N)
		"$@" > /dev/null
		e=$(date +%s.%N)
		echo "$s $e"
	done | mawk -v n="$n" -v mb="$mb" -v what="$1" '
		{ t = $2 - $1; if (NR == 1 || t < b) b = t }
		END { printf "%-22s %7.3f s %6.2f M records/s %7.1f MB/s\n", what, b, n / b / 1e6, mb / b }'
}
best bin/tr-barrier-correct "$tmp/big.tr"
best mawk -f "$tmp/bc.awk" "$tmp/big.tr"
bin/tr-barrier-correct "$tmp/big.tr" | grep '^phase	corrected' | grep -v '	\*	' | cut -f3,6,7 > "$tmp/a"
mawk -f "$tmp/bc.awk" "$tmp/big.tr" | cut -f3,6,7 > "$tmp/b"
cmp "$tmp/a" "$tmp/b" && echo "same corrected compute and comm as mawk"

for np in 2 4; do
	echo "== worked example, $np ranks"
	make -s -f pipelines/phases.mk OUT="$tmp/ph$np" NP=$np \
		SIZES="${SIZES:-480 960 1920}" BENCHFLAGS='-s 8:65536'
	grep -c '^phasecmp' "$tmp/ph$np/compare.tr" | sed 's/^/phasecmp records: /'
done
