#!/bin/sh
# Events per second of the analysis filters beside mawk
# one-liners doing the same job on the same input, in one run.
#   sh bench/filters.sh [EVENTS]     (default 4 M events; RUNS=5 rounds)
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
ev=${1:-4000000}
w=${TMPDIR:-/tmp}/tr-bench-filters.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
per=$("$B/tr-gen" -P stencil3d -n 64 -i 10 | grep -c '^ev')
"$B/tr-gen" -P stencil3d -n 64 -i $((ev * 10 / per + 1)) -j 0.05 -a 5 > "$w/t.tr"
"$B/tr-delta" "$w/t.tr" > "$w/d.tr"
n=$(grep -c '^ev' "$w/t.tr")
nd=$(grep -c '^delta' "$w/d.tr")

now() { date +%s.%N; }
# run NAME EVENTS CMD...: one wall time; the fastest so far kept in t_NAME.
run() {
	name=$1 evs=$2
	shift 2
	v=t_$(echo "$name" | tr -c 'a-z0-9\n' _)
	t0=$(now)
	"$@" > /dev/null
	t1=$(now)
	t=$(echo "$t1 - $t0" | bc -l)
	eval "best=\${$v:-}"
	if [ -z "$best" ]; then
		names="$names $name"
		eval "n_$v=$evs"
	fi
	if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
		eval "$v=$t"
	fi
}
ratio() {
	printf '  %-22s %.1fx mawk\n' "$1" "$(echo "$3 / $2" | bc -l)"
}

echo "input: $n ev records ($(wc -c < "$w/t.tr") bytes), $nd delta records"
# Every command once per round, RUNS rounds, the fastest of each: the
# machine's slow minutes fall on every command alike, not on a few
# (a tool on two threads suffers more from them than mawk on one).
all() {
	run tr-cat "$n" "$B/tr-cat" "$w/t.tr"
	run tr-filter-rank "$n" "$B/tr-filter" 'rank==0' "$w/t.tr"
	run mawk-filter-rank "$n" mawk -F'\t' '/^#/ || $2 == 0' "$w/t.tr"
	run tr-filter-op "$n" "$B/tr-filter" 'op=="MPI_Waitall" && end-start > 1us' "$w/t.tr"
	run mawk-filter-op "$n" mawk -F'\t' '/^#/ || ($4 == "MPI_Waitall" && $6 - $5 > 1000)' "$w/t.tr"
	run tr-filter-regex "$n" "$B/tr-filter" 'op ~ "^MPI_(Isend|Irecv)$" && bytes >= 1KiB' "$w/t.tr"
	run mawk-filter-regex "$n" mawk -F'\t' '/^#/ || ($4 ~ /^MPI_(Isend|Irecv)$/ && $10 >= 1024)' "$w/t.tr"
	run tr-delta "$n" "$B/tr-delta" "$w/t.tr"
	run mawk-delta "$n" mawk -F'\t' -v OFS='\t' '$1 == "ev" {
	r = $2; if ((r in e) && $3 != q[r]) print "delta", r, $3, s[r] ">" $8, e[r], $5 - e[r], $7
	e[r] = $6; q[r] = $3; s[r] = $8 }' "$w/t.tr"
	run tr-delta-s "$n" "$B/tr-delta" -s "$w/t.tr"
	run mawk-delta-s "$n" mawk -F'\t' -v OFS='\t' '$1 == "ev" {
	r = $2; if ((r in e) && $3 != q[r]) { k = r SUBSEP s[r] ">" $8; c[k]++; t[k] += $5 - e[r] }
	e[r] = $6; q[r] = $3; s[r] = $8 }
	END { for (k in c) { split(k, a, SUBSEP); print "dsum", a[1], a[2], c[k], t[k] } }' "$w/t.tr"
	run tr-hist "$nd" "$B/tr-hist" -w 1000 "$w/d.tr"
	run mawk-hist "$nd" mawk -F'\t' -v OFS='\t' '$1 == "delta" {
	k = $4; v = $6; n[k]++; s[k] += v; q[k] += v * v; b[k SUBSEP int(v / 1000)]++ }
	END { for (k in n) print "hist", k, n[k], s[k] / n[k], q[k]; for (k in b) print "bin", k, b[k] }' "$w/d.tr"
	run tr-stat "$n" "$B/tr-stat" "$w/t.tr"
	run mawk-stat "$n" mawk -F'\t' -v OFS='\t' '$1 == "ev" {
	r = $2; if (!((r SUBSEP $3) in seen)) { c[$4]++; t[$4] += $6 - $5; if (r in e) comp[r] += $5 - e[r]; e[r] = $6 }
	seen[r SUBSEP $3] = 1; delete seen[r SUBSEP ($3 - 1)]; b[$4] += $10
	if ($4 ~ /send/ && $9 >= 0) { m[r SUBSEP $9]++; mb[r SUBSEP $9] += $10 } }
	END { for (o in c) print "opstat", o, c[o], b[o], t[o]; for (k in m) print "cmat", k, m[k], mb[k]; for (r in comp) print "comp", r, comp[r] }' "$w/t.tr"
	run tr-profile "$n" "$B/tr-profile" "$w/t.tr"
	run mawk-profile "$n" mawk -F'\t' -v OFS='\t' '$1 == "ev" {
	r = $2; k = r SUBSEP $4; b[k] += $10; if ((r in q) && q[r] == $3) next
	c[k]++; t[k] += $6 - $5; if (r in e) { cc[r]++; ct[r] += $5 - e[r] }; e[r] = $6; q[r] = $3 }
	END { for (k in c) { split(k, a, SUBSEP); print "prof", a[1], a[2], c[k], 0, t[k], t[k], b[k] }
	for (r in cc) print "prof", r, "compute", cc[r], 0, ct[r], ct[r], 0 }' "$w/t.tr"
	run tr-waits "$n" "$B/tr-waits" "$w/t.tr"
}
names=
round=0
while [ $round -lt "${RUNS:-5}" ]; do
	all
	round=$((round + 1))
done
for name in $names; do
	v=t_$(echo "$name" | tr -c 'a-z0-9\n' _)
	eval "t=\$$v evs=\$n_$v"
	printf '%-24s %8.3f s %7.2f M rec/s\n' "$name" "$t" \
		"$(echo "$evs / $t / 1000000" | bc -l)"
done
echo "ratios (time of mawk / time of tr):"
ratio tr-filter-rank "$t_tr_filter_rank" "$t_mawk_filter_rank"
ratio tr-filter-op "$t_tr_filter_op" "$t_mawk_filter_op"
ratio tr-filter-regex "$t_tr_filter_regex" "$t_mawk_filter_regex"
ratio tr-delta "$t_tr_delta" "$t_mawk_delta"
ratio tr-delta-s "$t_tr_delta_s" "$t_mawk_delta_s"
ratio tr-hist "$t_tr_hist" "$t_mawk_hist"
ratio tr-stat "$t_tr_stat" "$t_mawk_stat"
ratio tr-profile "$t_tr_profile" "$t_mawk_profile"
