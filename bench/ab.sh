#!/bin/sh
# bench/ab.sh - two commands run in turn, N times each, and the fastest
# wall time of each: on a shared, noisy machine a before/after pair
# measured in the same minutes is what can be compared.
#   sh bench/ab.sh N 'COMMAND A' 'COMMAND B'
# e.g. sh bench/ab.sh 5 'old/tr-cat t.tr' 'bin/tr-cat t.tr'
[ $# -eq 3 ] || { echo "usage: sh bench/ab.sh N 'COMMAND A' 'COMMAND B'" >&2; exit 2; }
n=$1 a=$2 b=$3
ms() {
	t0=$(date +%s%N)
	sh -c "$1" > /dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
ma= mb=
i=0
while [ $i -lt "$n" ]; do
	ta=$(ms "$a")
	tb=$(ms "$b")
	{ [ -z "$ma" ] || [ "$ta" -lt "$ma" ]; } && ma=$ta
	{ [ -z "$mb" ] || [ "$tb" -lt "$mb" ]; } && mb=$tb
	i=$((i + 1))
done
echo "A $ma ms  B $mb ms  (fastest of $n; A/B $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'))"
