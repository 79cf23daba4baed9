#!/usr/bin/env bats
# tr-accuracy: accuracy per key, histogram distances, the summary, and
# the -m threshold.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
	DF=$(printf '#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank')
	HF=$(printf '#fields\thist\tfield\tkey\tn\tmin\tmean\tmax\tsd\tsum\tsumsq\tscale\twidth\tbins\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum')
	{ printf '#tr 1\n#meta np=64\n%s\n' "$DF"
	  printf 'dmax\t*\t64\t100\t900\t-1\t0\t0\n'
	  printf 'dmax\ta\t64\t100\t110\t-1\t50\t0\n'; } > pred.tr
	{ printf '#tr 1\n#meta np=64\n%s\n' "$DF"
	  printf 'dmax\t*\t64\t100\t1000\t-1\t0\t0\n'
	  printf 'dmax\ta\t64\t100\t100\t-1\t40\t0\n'
	  printf 'dmax\tb\t64\t1\t1\t-1\t1\t0\n'; } > meas.tr
}

@test "tr-accuracy: accuracy = (1 - |pred - meas| / max(|pred|, |meas|)) * 100 per key" {
	run tr accuracy pred.tr meas.tr
	[ "$status" -eq 0 ]
	# 900 for 1000: 1 - 100/1000
	[ "$(grep -P '^acc\tdmax\tkey=\*\twall\t' <<<"$output")" = "$(printf 'acc\tdmax\tkey=*\twall\t900\t1000\t90')" ]
	# 110 for 100: 1 - 10/110, not 1 - 10/100; 50 for 40: 1 - 10/50
	[[ "$(grep -P '^acc\tdmax\tkey=a\twall\t' <<<"$output" | cut -f7)" == 90.909090909090* ]]
	[ "$(grep -P '^acc\tdmax\tkey=a\tmean\t' <<<"$output" | cut -f7)" = 80 ]
	# Both 0: 100; key b only measured: missing.
	[ "$(grep -P '^acc\tdmax\tkey=\*\tmean\t' <<<"$output" | cut -f7)" = 100 ]
	[ "$(grep '^accsum' <<<"$output" | cut -f2,3)" = "$(printf '8\t4')" ]
	tr accuracy pred.tr meas.tr | tr cat > /dev/null
}

@test "tr-accuracy -T: a table with a summary line; -q and -K select" {
	run tr accuracy -T -q wall -K 'key=*' pred.tr meas.tr
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf '%-6s %-44s %-12s %14s %14s %9s' type key quantity predicted measured accuracy)" ]
	[[ "${lines[1]}" == "dmax   key=*"*"wall"*"900"*"1000"*"90.00%" ]]
	[ "${lines[2]}" = "compared 1, missing on one side 0, median accuracy 90.00%, min 90.00%, within 5/10/25%: 0/100/100% of keys" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "tr-accuracy: symmetric, bounded by -100 and 100, a measured 0 scores 0" {
	pm() {	# pm FILE CPU...: one dmax key kN per value (cpu may be < 0)
		{ printf '#tr 1\n#meta np=4\n%s\n' "$DF"; local i=0 v
		  for v in "${@:2}"; do printf 'dmax\tk%d\t4\t1\t1\t%s\t0\t0\n' $((i++)) "$v"; done; } > "$1"
	}
	pm p.tr 50 200 -30 7 0 1000
	pm m.tr 200 50 30 0 0 999
	run tr accuracy -q cpu p.tr m.tr
	[ "$status" -eq 0 ]
	# 1 - 150/200 both ways; opposite signs: 1 - 60/30; only meas 0:
	# 1 - 7/7; both 0: 100; 1000 for 999: 1 - 1/1000
	[ "$(grep -P '^acc\t' <<<"$output" | cut -f3,7)" = "$(printf '%s\n' \
	    'key=k0	25' 'key=k1	25' 'key=k2	-100' 'key=k3	0' 'key=k4	100' 'key=k5	99.9')" ]
	run tr accuracy -q cpu m.tr p.tr
	[ "$(grep -P '^acc\t' <<<"$output" | cut -f3,7)" = "$(printf '%s\n' \
	    'key=k0	25' 'key=k1	25' 'key=k2	-100' 'key=k3	0' 'key=k4	100' 'key=k5	99.9')" ]
	# the summary: median of -100 0 25 25 99.9 100 is 25; within 5 %
	# (95 and more) 2 of 6, within 25 % (75 and more) 2 of 6
	[ "$(grep '^accsum' <<<"$output" | cut -f2-)" = "$(printf '6\t0\t25\t-100\t33.333333333333336\t33.333333333333336\t33.333333333333336\t0')" ]
	# the worst three by name, lowest first, first seen first among equals
	[ "$(grep '^accworst' <<<"$output" | cut -f3,7)" = "$(printf '%s\n' 'key=k2	-100' 'key=k3	0' 'key=k0	25')" ]
	run tr accuracy -T -q cpu m.tr p.tr
	[ "${lines[7]}" = "compared 6, missing on one side 0, median accuracy 25.00%, min -100.00%, within 5/10/25%: 33/33/33% of keys" ]
	[ "${lines[8]}" = "worst keys:" ]
	[[ "${lines[9]}" == "dmax   key=k2"*"cpu"*"30"*"-30"*"-100.00%" ]]
	[ "${#lines[@]}" -eq 12 ]
}

@test "tr-accuracy -T: values with six significant digits, integers whole" {
	{ printf '#tr 1\n#meta np=4\n%s\n' "$DF"
	  printf 'dmax\ta\t4\t1\t1\t-1\t4605713.497426471\t0\n'
	  printf 'dmax\tb\t4\t1\t1\t-1\t0.000123456789\t0\n'; } > p.tr
	{ printf '#tr 1\n#meta np=4\n%s\n' "$DF"
	  printf 'dmax\ta\t4\t1\t1\t-1\t2592297.59375\t0\n'
	  printf 'dmax\tb\t4\t1\t1\t-1\t90.909090909\t0\n'; } > m.tr
	run tr accuracy -T -q mean p.tr m.tr
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *" mean "*" 4605713 "*" 2592298 "* ]]
	[[ "${lines[2]}" == *" mean "*" 0.000123457 "*" 90.9091 "* ]]
}

@test "tr-accuracy -m: exit 1 below the threshold" {
	run tr accuracy -m 95 -q wall pred.tr meas.tr
	[ "$status" -eq 1 ]
	[ "$(grep '^accsum' <<<"$output" | cut -f9)" = 2 ]
	run tr accuracy -m 90 -q wall pred.tr meas.tr
	[ "$status" -eq 0 ]
}

@test "tr-accuracy: histogram distances (EMD and KS)" {
	hist() {	# hist LO0 — two bins of width 10 starting at LO0, 5 values each
		printf '#tr 1\n%s\n' "$HF"
		printf 'hist\twall\tk\t10\t%s\t%s\t%s\t0\t0\t0\tlin\t10\t2\n' "$1" $(($1 + 10)) $(($1 + 20))
		printf 'bin\twall\tk\t%s\t%s\t5\t%s\t0\n' "$1" $(($1 + 10)) $(($1 + 5)) $(($1 + 10)) $(($1 + 20)) $(($1 + 15))
	}
	hist 0 > a.tr
	hist 5 > b.tr
	run tr accuracy a.tr a.tr
	[ "$(grep '^hdist' <<<"$output")" = "$(printf 'hdist\twall\tk\t0\t0')" ]
	# Uniform on [0,20) against uniform on [5,25): EMD 5, KS 0.25.
	run tr accuracy a.tr b.tr
	[ "$(grep '^hdist' <<<"$output")" = "$(printf 'hdist\twall\tk\t5\t0.25')" ]
	# 100 bins of width 1 (tr-hist -b 100), one value each, the second
	# shifted by 10: every bin counts, the 64th and after too
	many() {	# many LO0 [BINS]
		printf '#tr 1\n%s\n' "$HF"
		printf 'hist\twall\tk\t%d\t%s\t0\t%s\t0\t0\t0\tlin\t1\t%d\n' ${2:-100} "$1" $(($1 + ${2:-100})) ${2:-100}
		awk -v s="$1" -v n=${2:-100} 'BEGIN { for (i = 0; i < n; i++)
			printf "bin\twall\tk\t%d\t%d\t1\t%g\t0\n", s + i, s + i + 1, s + i + 0.5 }'
	}
	many 0 > m0.tr
	many 10 > m10.tr
	run tr accuracy m0.tr m10.tr
	# (the first 64 bins alone: KS 0.15625)
	grep '^hdist' <<<"$output" | awk -F'\t' '{
		exit !($4 > 9.999999 && $4 < 10.000001 && $5 > 0.0999999 &&
		    $5 < 0.1000001) }'
	# more bins than it compares: an error, not a part, at the line of
	# the first bin too many, on either side
	many 0 4097 > big.tr
	run tr accuracy big.tr m10.tr
	fails_with 3 "tr-accuracy: big.tr:4101: histogram field=wall;key=k: bin 4096: more than 4096 bins to compare"
	run tr accuracy m10.tr big.tr
	fails_with 3 "tr-accuracy: big.tr:4101: histogram field=wall;key=k: bin 4096: more than 4096 bins to compare"
}

@test "tr-accuracy: hdist reads a bin's values around its mean, not across the whole bin" {
	# The same 100 values, 4 to 396 and one of 15000, binned by 8 and by
	# 4000: the outlier makes the 8 bins 2048 wide, and the first,
	# holding 99 values of mean 200, was read as filling 0..2048 (KS
	# 0.80, EMD 820 where the values' mean is 348).
	{ printf '#tr 1\n#meta np=1\n#fields\tx\tkey\tv\n'
	  for i in $(seq 1 99); do printf 'x\ta\t%d\n' $((i * 4)); done
	  printf 'x\ta\t15000\n'; } > v.tr
	tr hist -t x -f v -k key -b 8 v.tr > h8.tr
	tr hist -t x -f v -k key -b 4000 v.tr > h4000.tr
	run tr accuracy h8.tr h4000.tr
	[ "$status" -eq 0 ]
	# 99 values read as even over 4..396 against the values themselves.
	grep '^hdist' <<<"$output" | awk -F'\t' '{
		exit !($4 > 1.3133 && $4 < 1.3134 && $5 > 0.0099999 &&
		    $5 < 0.0100001) }'
}

@test "tr-accuracy: histograms of other binnings meet at their quantiles, not bin by bin" {
	# hist STEP: the 11 values 0, STEP, ..., 10*STEP, one per bin of
	# width STEP, so that each quantile read off the bins is exact.
	hist() {
		printf '#tr 1\n%s\n' "$HF"
		printf 'hist\twall\tk\t11\t0\t%s\t%s\t0\t0\t0\tlin\t%s\t16\n' $((5 * $1)) $((10 * $1)) $1
		for i in 0 1 2 3 4 5 6 7 8 9 10; do
			printf 'bin\twall\tk\t%s\t%s\t1\t%s\t%s\n' $((i * $1)) $((i * $1 + $1)) $((i * $1)) $((i * $1))
		done
	}
	hist 10 > m.tr
	hist 15 > p.tr
	run tr accuracy p.tr m.tr
	[ "$status" -eq 0 ]
	# Measured q10..q90 10, 25, 50, 75, 90; predicted 1.5 times as
	# much: accuracy 1 - 0.5/1.5, two thirds.
	[ "$(grep -P '^acc\thist\t[^\t]*\tq' <<<"$output" | cut -f4-6)" = "$(printf '%s\n' \
	    'q10	15	10' 'q25	37.5	25' 'q50	75	50' \
	    'q75	112.5	75' 'q90	135	90')" ]
	grep -P '^acc\thist\t[^\t]*\tq' <<<"$output" | awk -F'\t' '{ d = $7 - 200 / 3;
	    if (d < -1e-9 || d > 1e-9) exit 1 }' 
	# Bins of other ranges and the binning are not compared value by
	# value; n, min, mean, max, sd, sum, sumsq and 5 quantiles are.
	[ -z "$(grep -P '^acc\tbin\t' <<<"$output")" ]
	[ -z "$(grep -P '^acc\thist\t[^\t]*\t(width|bins)\t' <<<"$output")" ]
	[ "$(grep '^accsum' <<<"$output" | cut -f2,3)" = "$(printf '12\t0')" ]
	# EMD: a bin of one value is that value, so the distance of the
	# values themselves, means 75 and 50, and KS 4/11 at 100, where 7 of
	# the 11 predicted are (bins read as filled: 27.5 and 1/11).
	[ "$(grep "^hdist" <<<"$output" | cut -f4,5)" = "$(printf '25\t0.36363636363636365')" ]
	run tr accuracy -T p.tr m.tr
	[[ "$(grep '^compared' <<<"$output")" == *", not compared value by value 57 (bins of other ranges, binnings)" ]]
	# Bins of one range are compared as before.
	run tr accuracy m.tr m.tr
	[ "$(grep -cP '^acc\tbin\t' <<<"$output")" -eq 55 ]
}

@test "tr-accuracy -P: several predicted files, here a synthetic trace's statistics" {
	tr gen -P stencil2d -n 16 -i 4 > g16.tr
	tr gen -P stencil2d -n 32 -i 4 > g32.tr
	tr delta -s g16.tr > d16.tr
	tr stat g16.tr > s16.tr
	tr extrap -T -n 32 g16.tr > t.tr
	tr delta -s t.tr > td.tr
	tr stat t.tr > ts.tr
	run tr accuracy -T -t opstat,dmax -q calls,bytes,n -P ts.tr -P td.tr \
	    <(tr stat g32.tr) <(tr delta -s g32.tr)
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "compared "*", median accuracy 100.00%, min 100.00%, within 5/10/25%: 100/100/100% of keys" ]]
}

@test "tr-accuracy: nothing in common, bad input, usage" {
	printf '#tr 1\n#meta np=4\n%s\n' "$DF" > empty.tr
	run stderr_of tr accuracy empty.tr meas.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-accuracy: empty.tr, meas.tr: no key is both predicted and measured" ]
	# the inputs of both sides, stdin by that name, many as a count
	run stderr_of tr accuracy empty.tr - < meas.tr
	[ "$output" = "tr-accuracy: empty.tr, stdin: no key is both predicted and measured" ]
	run stderr_of tr accuracy -P empty.tr -P empty.tr meas.tr meas.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-accuracy: empty.tr ... meas.tr (4 files): no key is both predicted and measured" ]
	printf '#tr 1\n%s\ndmax\t*\tx\n' "$DF" > bad.tr
	run tr accuracy pred.tr bad.tr
	fails_with 3 "bad.tr:3"
	run tr accuracy pred.tr
	fails_with 2 "usage: tr-accuracy"
	run tr accuracy -m x pred.tr meas.tr
	fails_with 2 "tr-accuracy: -m: 'x': not a number"
}

@test "tr-accuracy -k: phases of tr-model against corrected measurements" {
	PF=$(printf '#fields\tphase\twhat\tname\tnp\tN\tcompute\tcomm\ttotal\ttimers\tbarriers')
	printf '#tr 1\n%s\nphase\tpredicted\tmatvec\t4\t960\t1000\t200\t1200\t0\t0\nphase\tpredicted\tdot\t4\t960\t100\t300\t400\t0\t0\n' "$PF" > pred.tr
	printf '#tr 1\n%s\nphase\tcorrected\tmatvec\t4\t960\t1100\t200\t1300\t0\t0\nphase\tcorrected\tdot\t4\t960\t100\t200\t300\t0\t0\n' "$PF" > meas.tr
	# without -k the what column is part of the key: nothing matches
	run tr accuracy -t phase pred.tr meas.tr
	[ "$status" -ne 0 ]
	run sh -c "$TR_BIN/tr-accuracy -t phase -k name,np,N -q compute,comm,total pred.tr meas.tr | awk -F'\t' '\$1 == \"acc\" { print \$3, \$4, \$7 }'"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p <<<"$output")" = "name=matvec;np=4;N=960 compute 90.909090909090907" ] ||
		[[ "$(sed -n 1p <<<"$output")" == "name=matvec;np=4;N=960 compute 90.90909090909"* ]]
	# 300 for 200: 1 - 100/300
	[[ "$output" == *"name=dot;np=4;N=960 comm 66.66666666666"* ]]
	[ "$(wc -l <<<"$output")" -eq 6 ]
}
