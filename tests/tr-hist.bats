load helper

setup() {
	T=$BATS_TEST_TMPDIR
	{
		printf '#tr 1\n#meta np=2\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		for v in 1 2 3 5 8 13; do
			printf 'delta\t0\t%s\ta>b\t0\t%s\t0\n' "$v" "$v"
		done
		printf 'delta\t1\t1\tb>c\t0\t100\t0\n'
	} > "$T/d.tr"
}

@test "bin count: power-of-two widths, stats per key" {
	run tr hist -b 4 "$T/d.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'hist	wall	a>b	6	1	5.333333333333333	13	4.501851470969102	32	272	lin	4	4' \
	    'bin	wall	a>b	0	4	3	2	6' \
	    'bin	wall	a>b	4	8	1	5	5' \
	    'bin	wall	a>b	8	12	1	8	8' \
	    'bin	wall	a>b	12	16	1	13	13' \
	    'hist	wall	b>c	1	100	100	100	0	100	10000	lin	1	4' \
	    'bin	wall	b>c	100	101	1	100	100')" ]
}

@test "fixed width, log bins, no key" {
	run tr hist -w 5 -k - "$T/d.tr"
	[ "$(printf '%s\n' "$output" | grep '^hist' | cut -f2-4,11-13)" = "$(printf 'wall\t*\t7\tlin\t5\t0')" ]
	[ "$(printf '%s\n' "$output" | grep -c '^bin')" -eq 21 ]
	[ "$(printf '%s\n' "$output" | grep '^bin' | mawk -F'\t' '{ n += $6 } END { print n }')" = 7 ]
	run tr hist -l 1 -k - "$T/d.tr"
	[ "$(printf '%s\n' "$output" | grep '^bin' | cut -f4-6)" = "$(printf '1\t10\t5\n10\t100\t1\n100\t1000\t1')" ]
}

@test "merging partial histograms equals the histogram of the whole" {
	tr gen -P stencil2d -n 4 -i 30 -R 9 -j 0.3 | tr delta > "$T/all.tr"
	for opt in "-b 7" "-w 3us" "-l 10"; do
		for r in 0 1 2 3; do
			tr filter -r $r "$T/all.tr" | tr hist $opt > "$T/p$r.tr"
		done
		cat "$T/p3.tr" "$T/p1.tr" "$T/p0.tr" "$T/p2.tr" | tr hist -m > "$T/m.tr"
		tr hist $opt "$T/all.tr" > "$T/w.tr"
		cmp "$T/m.tr" "$T/w.tr"
	done
	[ "$(grep -c '^hist' "$T/w.tr")" -gt 5 ]
}

@test "merging -b parts whose values lie far apart: the width the whole needs, not 2^20 bins" {
	# One interval each, 3 and 7.5 ms: each part alone has 1 ns bins,
	# the whole 262144 ns ones (tr-hist -m said "more than 1048576 bins").
	{
		printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		printf 'delta\t0\t1\tk\t0\t3041931\t0\n'
	} > "$T/a.tr"
	{
		printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		printf 'delta\t1\t1\tk\t0\t7480236\t0\n'
	} > "$T/b.tr"
	tr hist -b 32 "$T/a.tr" > "$T/pa.tr"
	tr hist -b 32 "$T/b.tr" > "$T/pb.tr"
	cat "$T/pb.tr" "$T/pa.tr" | tr hist -m > "$T/m.tr"
	cat "$T/a.tr" "$T/b.tr" | tr hist -b 32 > "$T/w.tr"
	cmp "$T/m.tr" "$T/w.tr"
	[ "$(grep '^hist' "$T/m.tr" | cut -f12-13)" = "$(printf '262144\t32')" ]
	[ "$(grep '^bin' "$T/m.tr" | sed -n '1p;$p' | cut -f4-6)" = "$(printf '2883584\t3145728\t1\n7340032\t7602176\t1')" ]
}

@test "large integers: sd of a small spread, squares past 2^127, -b on ns since the epoch" {
	# 5 s + 0..3 ns: n sumsq - sum^2 cancelled in long double (sd 1.63)
	{
		printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		for v in 5000000000 5000000001 5000000002 5000000003; do
			printf 'delta\t0\t1\tk\t0\t%s\t0\n' "$v"
		done
	} > "$T/s.tr"
	run tr hist -w 1 "$T/s.tr"
	[ "$(printf '%s\n' "$output" | grep '^hist' | cut -f8-10)" = "$(printf '1.2909944487358056\t20000000006\t100000000060000000014')" ]
	# 100 job starts 1 s apart in 2023: their squares add up past 2^127,
	# which wrapped to a negative sumsq and sd 0; -b said "out of range"
	{
		printf '#tr 1\n#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd\n'
		for i in $(seq 1 100); do
			printf 'job\th\t%s\tt\t%s\t1\t0\t0\t0\t0\t0\t0\tc\n' "$i" $((1700000000000000000 + i * 1000000000))
		done
	} > "$T/j.tr"
	for opt in "-w 60s" "-b 20"; do
		run tr hist -t job -f start -k - $opt "$T/j.tr"
		[ "$status" -eq 0 ]
		h=$(printf '%s\n' "$output" | grep '^hist')
		[ "$(cut -f4,8 <<<"$h")" = "$(printf '100\t29011491975.88202')" ]
		[ "$(cut -f10 <<<"$h")" = 2.8900001717000035e+38 ]
		[ "$(printf '%s\n' "$output" | grep '^bin' | mawk -F'\t' '{ n += $6 } END { print n }')" = 100 ]
	done
	# merged from halves whose sums are floats: the parts' sd and mean
	tr filter 'pid <= 50' "$T/j.tr" | tr hist -t job -f start -k - -w 60s > "$T/h1.tr"
	tr filter 'pid > 50' "$T/j.tr" | tr hist -t job -f start -k - -w 60s > "$T/h2.tr"
	[ "$(cat "$T/h1.tr" "$T/h2.tr" | tr hist -m | grep '^hist' | cut -f4,8)" = "$(printf '100\t29011491975.882015')" ]
}

@test "values at the ends of int64 with -b, and -b 1 across 0, end (UBSan overflow; a hang)" {
	cd "$T"
	x() {
		printf '#tr 1\n#fields\tx\tk\tv\n'
		for v in "$@"; do printf 'x\ta\t%s\n' "$v"; done
	}
	# bin indexes from -2^63 to 2^63-1: their distance was taken in
	# int64 (UBSan: signed integer overflow), now unsigned
	x 9223372036854775807 -9223372036854775808 5 > e.tr
	run tr hist -t x -f v -k k -b 4 e.tr
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^bin' | mawk -F'\t' '{ n += $6 } END { print n }')" = 3 ]
	printf '%s\n' "$output" | tr cat >/dev/null
	run stderr_of tr hist -t x -f v -k k -w 1 e.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-hist: e.tr:4: more than 1048576 bins: use a larger width (-w)" ]
	# merged, at the line of the part's bin too far
	x 3 > p1.tr
	x 7000000 > p2.tr
	tr hist -t x -f v -k k -w 1 p1.tr > h1.tr
	tr hist -t x -f v -k k -w 1 p2.tr > h2.tr
	run stderr_of tr hist -m h1.tr h2.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-hist: h2.tr:5: more than 1048576 bins: use a larger width (-w)" ]
	# one bin cannot hold -3 and 5 at any width (bins start at its
	# multiples): the width was doubled for ever
	x -3 5 > m.tr
	run stderr_of timeout 20 "$TR_BIN/tr-hist" -t x -f v -k k -b 1 m.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-hist: m.tr:4: values below 0 and at or above it do not fit in 1 bin: give 2 or more (-b)" ]
	x -3 > m1.tr
	x 5 > m2.tr
	{ tr hist -t x -f v -k k -b 1 m1.tr; tr hist -t x -f v -k k -b 1 m2.tr; } > parts.tr
	run stderr_of timeout 20 "$TR_BIN/tr-hist" -m parts.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-hist: parts.tr:"*": values below 0 and at or above it do not fit in 1 bin: give 2 or more (-b)" ]]
	run tr hist -t x -f v -k k -b 2 m.tr
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^bin' | cut -f4,5,6)" = "$(printf -- '-8\t0\t1\n0\t8\t1')" ]
}

@test "any field of any type; other records pass through" {
	tr gen -P ring -n 2 -i 3 -R 1 > "$T/g.tr"
	run tr hist -t ev -f bytes -k op -p "$T/g.tr"
	[ "$(printf '%s\n' "$output" | grep '^hist' | cut -f2-4)" = "$(printf 'bytes\tMPI_Finalize\t2\nbytes\tMPI_Init\t2\nbytes\tMPI_Sendrecv\t6')" ]
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 10 ]
	run tr hist -f cpu "$T/d.tr"
	[ "$(printf '%s\n' "$output" | grep '^hist' | cut -f2-3 | head -1)" = "$(printf 'cpu\ta>b')" ]
}

@test "bad input and usage" {
	run tr hist -b 0
	fails_with 2 "tr-hist: -b: '0': not an integer from 1 to 1048576"
	run tr hist -w x
	fails_with 2 "tr-hist: -w: 'x': not a positive number or duration"
	run tr hist -q
	fails_with 2 "usage: tr-hist"
	# A misspelt option is the user's, though found at the data: 2, as
	# tr-filter and tr-diff say; -t nope and ev records without tr-delta
	# counted nothing and exited 0.
	run tr hist -f nope "$T/d.tr"
	fails_with 2 "d.tr:4: -f nope: type delta has no such field"
	run tr hist -k nope "$T/d.tr"
	fails_with 2 "d.tr:4: -k nope: type delta has no such field"
	run tr hist -t nope "$T/d.tr"
	fails_with 2 "-t nope: no section of the input declares this type"
	tr gen -P ring -n 2 -i 3 -R 1 > "$T/g.tr"
	run tr hist "$T/g.tr"
	fails_with 2 "no delta record in the input (tr-delta makes them"
	# A declared type without records is an empty count, not an error:
	# tr-delta on ranks of one call each.
	printf '#tr 1\n#meta np=1\n#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot\nev\t0\t0\tMPI_Init\t0\t5\t0\ta+0x1\t-1\t0\t-1\t0\t-1\t-1\n' |
	    tr delta > "$T/one.tr"
	run tr hist "$T/one.tr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"#fields	hist	"* ]]
	[ "$(printf '%s\n' "$output" | grep -c '^hist')" -eq 0 ]
	run tr hist -f key -k - "$T/d.tr"
	fails_with 3 "d.tr:4: field 'key' is not a number"
	printf '#tr 1\n#fields\thist\tfield\tkey\tn\tmin\tmean\tmax\tsd\tsum\tsumsq\tscale\twidth\tbins\nhist\twall\tk\t1\t1\t1\t1\t0\t1\t1\tsquare\t1\t0\n' > "$T/bad.tr"
	run tr hist -m "$T/bad.tr"
	fails_with 3 "bad.tr:3: scale must be lin or log"
	# bins beyond an int were taken as -1 bins (fuzzed tr-hist output)
	sed 's/\tsquare\t1\t0$/\tlin\t1\t9223372036854775807/' "$T/bad.tr" > "$T/nb.tr"
	run tr hist -m "$T/nb.tr"
	fails_with 3 "nb.tr:3: bins must be 0 to 1048576: 9223372036854775807"
	# a value too far for the bins: said at its line (it had none)
	printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\ndelta\t0\t1\tk\t0\t1\t0\ndelta\t0\t2\tk\t0\t9223372036854775807\t0\n' > "$T/far.tr"
	run tr hist -w 0.5 "$T/far.tr"
	fails_with 3 "far.tr:4: value 9.22337e+18 out of range for the bins"
	tr hist -b 4 "$T/d.tr" > "$T/a.tr"
	tr hist -w 4 "$T/d.tr" > "$T/b.tr"
	run sh -c "cat '$T/a.tr' '$T/b.tr' | '$TR_BIN/tr-hist' -m"
	fails_with 3 "have different bins"
}

@test "keys as long as symbolized C++ names: 3000 bytes, told apart by their last byte" {
	long=$(mawk 'BEGIN { for (i = 0; i < 300; i++) printf "f(std::a&)" }')
	{
		printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		printf 'delta\t0\t1\t%s>x\t0\t10\t0\n' "$long"
		printf 'delta\t0\t2\t%s>y\t0\t20\t0\n' "$long"
		printf 'delta\t0\t3\t%s>y\t0\t30\t0\n' "$long"
	} > "$T/long.tr"
	run tr hist "$T/long.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | mawk -F'\t' '$1 == "hist" { print length($3), $4, $9 }' | sort | tr '\n' ,)" = \
	    "3002 1 10,3002 2 50," ]
}

@test "many keys, more than the key cache holds, counted exactly" {
	{
		printf '#tr 1\n#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu\n'
		mawk 'BEGIN { for (i = 0; i < 9000; i++)
			printf "delta\t0\t%d\tsite%d>site%d\t0\t%d\t0\n", i, i % 3000, (i * 7) % 3000, i % 17 }'
	} > "$T/k.tr"
	run tr hist -w 5 "$T/k.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^hist')" -eq 3000 ]
	got=$(printf '%s\n' "$output" | mawk -F'\t' '$1 == "hist" { print $3, $4, $9 }' | sort)
	want=$(grep '^delta' "$T/k.tr" | mawk -F'\t' '{ n[$4]++; s[$4] += $6 }
	    END { for (k in n) print k, n[k], s[k] }' | sort)
	[ "$got" = "$want" ]
	# Negative values floor to lower bins, as in the double arithmetic.
	printf '#tr 1\n#fields\tx\tv\nx\t-1\nx\t-5\nx\t-6\nx\t4\n' > "$T/neg.tr"
	run tr hist -t x -f v -k - -w 5 "$T/neg.tr"
	[ "$(printf '%s\n' "$output" | grep '^bin' | cut -f4-6)" = "$(printf -- '-10\t-5\t1\n-5\t0\t2\n0\t5\t1')" ]
}
