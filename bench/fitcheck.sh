#!/bin/sh
# bench/fitcheck.sh - tr-fit against known functions: for each ground
# truth, runs at the process counts users measure (5 repetitions, exact
# or with 3 % multiplicative noise), the model tr-fit selects, and the
# error of tr-extrap's prediction at 1024 and 4096 ranks (N = 16000 and
# 64000 for the functions of two parameters, measured at N = 1000 to
# 16000).
#
# usage: sh bench/fitcheck.sh [FAMILY]	(after make, from the top)
# The noise of the k-th measurement is 3 % * sin(7.3 k): spread over
# -3 % to 3 %, and the same on every machine and awk.
set -e
cd "$(dirname "$0")/.."
fam=${1:-pmnf}
tmp=${TMPDIR:-/tmp}/tr-bench-fitcheck.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# The ground truths, in us (written in ns).
truth='
function truth(f, n, N,  l) {
	l = log(n) / log(2)
	if (f == "5*p") return 5 * n
	if (f == "3+2*log2(p)") return 3 + 2 * l
	if (f == "0.5*p*log2(p)") return 0.5 * n * l
	if (f == "100+p^(1/2)") return 100 + sqrt(n)
	if (f == "7+0.01*p^2") return 7 + 0.01 * n * n
	if (f == "1e6/p") return 1e6 / n
	if (f == "3000+1e6/p") return 3000 + 1e6 / n
	if (f == "1000+1e6/p") return 1000 + 1e6 / n
	if (f == "42") return 42
	if (f == "n*p") return N * n
	if (f == "n/p") return N / n
	if (f == "1e5+n/p") return 1e5 + N / n
	return -1
}'

# runs FUNCTION NOISE "P ..." ["N ..."]: 5 dmax streams per point.
runs() {
	awk -v f="$1" -v a="$2" -v P="$3" -v NN="${4:-0}" "$truth"'
	BEGIN { np = split(P, p, " "); nN = split(NN, Ns, " ")
	for (j = 1; j <= nN; j++) for (i = 1; i <= np; i++) for (r = 0; r < 5; r++) {
		k++
		printf "#tr 1\n#meta np=%d\n", p[i]
		if (Ns[j] > 0) printf "#meta N=%d\n", Ns[j]
		printf "#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\n"
		printf "dmax\t*\t%d\t1\t%.0f\t-1\t1\t0\n", p[i],
		    1000 * truth(f, p[i], Ns[j]) * (1 + a * sin(7.3 * k))
	} }'
}

# err FUNCTION n N MODELS: the prediction's error at (n, N), %.
err() {
	bin/tr-extrap -n "$2" ${3:+-N "$3"} "$4" | awk -v f="$1" -v n="$2" \
	    -v N="$3" -F '\t' "$truth"'
	$1 == "dmax" {
		t = 1000 * truth(f, n, N); printf "%+.1f %%", 100 * ($5 - t) / t }'
}

echo "| function | p measured | noise | selected model (ns) | adj. R^2 | CV SMAPE % | error at 1024 | error at 4096 |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
one() {
	f=$1 P=$2 NN=$3
	for a in 0 0.03; do
		runs "$f" "$a" "$P" "$NN" > "$tmp/in.tr"
		if ! bin/tr-fit -f "$fam" -q wall "$tmp/in.tr" > "$tmp/m.tr" 2> "$tmp/err"; then
			echo "| $f | $P | $a | error: $(cat "$tmp/err") | | | | |"
			continue
		fi
		N1=${NN:+16000} N2=${NN:+64000}
		awk -F '\t' -v f="$f" -v P="$P" -v a="$a" -v e1="$(err "$f" 1024 "$N1" "$tmp/m.tr")" \
		    -v e2="$(err "$f" 4096 "$N2" "$tmp/m.tr")" '$1 == "model" {
			printf "| %s | %s | %d %% | %s | %.4f | %.2f | %s | %s |\n", f, P,
			    100 * a, $6, $8, $10, e1, e2 }' "$tmp/m.tr" |
		    sed 's/\([0-9]\.[0-9]\{4\}\)[0-9]*/\1/g'
	done
}
for f in "5*p" "3+2*log2(p)" "0.5*p*log2(p)" "100+p^(1/2)" "7+0.01*p^2" "1e6/p" "3000+1e6/p" "1000+1e6/p" "42"; do
	for P in "2 4 8 16 32" "4 8 16 32 64" "2 4 8" "3 5 6 12 24"; do
		one "$f" "$P" ""
	done
done
for f in "n*p" "n/p" "1e5+n/p"; do
	one "$f" "4 8 16 32 64" "1000 2000 4000 8000 16000"
done
