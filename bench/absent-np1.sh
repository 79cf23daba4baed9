#!/bin/sh
# bench/absent-np1.sh - what taking an op's absence at np=1 for a 0 would
# predict: runs at 1, 2 and 3 ranks with the 0 written out, fitted by
# tr-fit and extrapolated by tr-extrap to 4, 16 and 64 ranks, for two
# patterns of point-to-point calls that both have none on one rank: MPB's
# all-pairs transposes (838 n(n-1) calls, as MPB makes them from 1 to 3
# ranks) and a ring (2 calls a rank, 2n).
#   sh bench/absent-np1.sh [bindir]
b=${1:-bin}
t=$(mktemp -d) || exit 4
trap 'rm -rf "$t"' EXIT
of=$(printf '#fields\topstat\top\tcalls\tbytes\ttime')
for pat in all-pairs ring; do
	for n in 1 2 3; do
		case $pat in
		all-pairs) c=$((838 * n * (n - 1))) ;;
		ring) c=$((2 * n)); [ $n = 1 ] && c=0 ;;
		esac
		printf '#tr 1\n#meta np=%s\n%s\n' $n "$of"
		printf 'opstat\tMPI_Sendrecv\t%s\t%s\t%s\n' $c $((c * 8)) $((c * 5))
	done > "$t/$pat.tr"
	"$b/tr-fit" "$t/$pat.tr" > "$t/$pat.model" || exit
	for n in 4 16 64; do
		case $pat in
		all-pairs) want=$((838 * n * (n - 1))) ;;
		ring) want=$((2 * n)) ;;
		esac
		"$b/tr-extrap" -n $n "$t/$pat.model" | awk -F'\t' -v p=$pat \
		    -v n=$n -v w=$want '$1 == "opstat" && $2 == "MPI_Sendrecv" {
			printf "%s\tnp=%d\tcalls %s, true %d: %+.1f %%\n", p, n,
			    $3, w, 100 * ($3 - w) / w }'
	done
done
