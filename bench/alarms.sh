#!/bin/sh
# bench/alarms.sh - false and true alarms of tr-diff --fail-above over
# simulated nights: each night compares five runs of 40 unchanged keys
# (15 % noise) and a key "slow" with five other runs of the same
# (quiet) or with "slow" 25 % slower (slowed), as tests/nights.awk
# makes them, under each correction for the number of keys.
#   sh bench/alarms.sh [NIGHTS]
cd "$(dirname "$0")/.." || exit 4
B=${TR_BIN:-$PWD/bin}
w=$(mktemp -d) || exit 4
trap 'rm -rf "$w"' EXIT
n=${1:-200}
gen() {
	awk -v seed="$1" -v slow="$2" -v out="$w/$3" -f tests/nights.awk
	"$B/tr-mean" "$w/$3".[1-5] > "$w/$3.tr"
}
for c in none holm bh; do
	quiet=0 found=0 extra=0 i=1
	while [ "$i" -le "$n" ]; do
		gen "$i" 1 a
		gen $((i + 100000)) 1 b
		gen $((i + 100000)) 1.25 s
		"$B/tr-diff" -C $c -f 10 "$w/a.tr" "$w/b.tr" > /dev/null 2>&1
		[ $? -eq 1 ] && quiet=$((quiet + 1))
		"$B/tr-diff" -C $c -f 10 "$w/a.tr" "$w/s.tr" > /dev/null 2> "$w/err"
		grep -q '^tr-diff: slow:' "$w/err" && found=$((found + 1))
		grep -q '^tr-diff: k[0-9]' "$w/err" && extra=$((extra + 1))
		i=$((i + 1))
	done
	printf '%-5s %d nights: quiet nights with an alarm %d; slowed nights' \
	    $c "$n" $quiet
	printf ' naming slow %d, also a quiet key %d\n' $found $extra
done
