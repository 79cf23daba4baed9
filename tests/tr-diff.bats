load helper

PF=$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')
MF=$(printf '#fields\tmean\tkey\tn\tmean\tsd\tmin\tmax')

# prof FILE NAME=EXCL ... : a one-rank profile
prof() {
	local f=$1 kv
	shift
	{ printf '#tr 1\n%s\n' "$PF"
	for kv in "$@"; do
		printf 'prof\t0\t%s\t1\t0\t%s\t%s\t0\n' "${kv%=*}" "${kv#*=}" "${kv#*=}"
	done; } > "$f"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	prof a.tr f=100 g=300 h=100
	prof b.tr f=100 g=900 k=50
}

@test "tr-diff: a, b, delta, ratio, PARP's m, one-sided keys marked" {
	run tr diff a.tr b.tr
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "#tr 1" ]
	[ "${lines[3]}" = "#meta diff.correction=holm" ]
	[ "${lines[4]}" = "#meta diff.tests=0" ]
	[ "${lines[5]}" = "$(printf '#fields\tdiff\tkey\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly\tpadj')" ]
	# T_a = 1050 (total of the slower run B); m(g) = 900/1050 ln 3.
	want=$(awk 'BEGIN { printf "%.6f", 900/1050*log(3) }')
	got=$(printf '%s\n' "${lines[6]}" | awk -F'\t' '{ printf "%s %s %s %s %s %.6f %s %s\n", $2, $3, $4, $5, $6, $7, $8, $11 }')
	[ "$got" = "g 300 900 600 3 $want -1 -" ]
	# h only in a: compared with 1 unit; k only in b.
	run sh -c "tr-diff a.tr b.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3, \$4, \$11 }'"
	[ "$output" = "$(printf 'g 300 900 -\nh 100 0 a\nk 0 50 b\nf 100 100 -\n(total) 500 1050 -')" ]
}

@test "tr-diff: -c keeps the top N, -s key sorts by name, total always last" {
	run sh -c "tr-diff -c 1 a.tr b.tr | grep -v '^#' | cut -f2"
	[ "$output" = "$(printf 'g\n(total)')" ]
	run sh -c "tr-diff -s key a.tr b.tr | grep -v '^#' | cut -f2"
	[ "$output" = "$(printf 'f\ng\nh\nk\n(total)')" ]
	run sh -c "tr-diff -s delta a.tr b.tr | grep -v '^#' | cut -f2 | head -n 1"
	[ "$output" = "g" ]
}

@test "tr-diff: Welch p-value from mean records (t = 2.228139, df = 10: p = 0.05)" {
	# n = 6 and sd = sqrt(3) on both sides: se = 1, df = 10.
	sd=$(awk 'BEGIN { printf "%.17g", sqrt(3) }')
	printf '#tr 1\n%s\nmean\tx\t6\t10\t%s\t7\t13\n' "$MF" "$sd" > ma.tr
	printf '#tr 1\n%s\nmean\tx\t6\t12.228139\t%s\t9\t15\n' "$MF" "$sd" > mb.tr
	run sh -c "tr-diff ma.tr mb.tr | awk -F'\t' '\$2 == \"x\" { printf \"%.5f %s %s\", \$8, \$9, \$10 }'"
	[ "$output" = "0.05000 6 6" ]
	# Far apart: tiny p; equal: p = 1.
	printf '#tr 1\n%s\nmean\tx\t6\t10\t%s\t7\t13\n' "$MF" "$sd" > mc.tr
	run sh -c "tr-diff ma.tr mc.tr | awk -F'\t' '\$2 == \"x\" { print \$8 }'"
	[ "$output" = "1" ]
}

@test "tr-diff: of two tr-mean outputs (a closed algebra), p from repeats" {
	prof a2.tr f=110 g=290 h=100
	prof a3.tr f=90 g=310 h=100
	prof b2.tr f=100 g=880 k=50
	prof b3.tr f=100 g=920 k=50
	tr-mean a.tr a2.tr a3.tr > ma.tr
	tr-mean b.tr b2.tr b3.tr > mb.tr
	run sh -c "tr-diff ma.tr mb.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3, \$4, \$9, \$10 }'"
	[ "${lines[0]}" = "g 300 900 3 3" ]
	p=$(tr-diff ma.tr mb.tr | awk -F'\t' '$2 == "g" { print $8 }')
	awk -v p="$p" 'BEGIN { exit !(p > 0 && p < 0.001) }'
	p=$(tr-diff ma.tr mb.tr | awk -F'\t' '$2 == "f" { print $8 }')
	awk -v p="$p" 'BEGIN { exit !(p > 0.9) }'
}

@test "tr-diff --fail-above: exit 1 on a significant slowdown above PCT only" {
	tr-mean a.tr a.tr > ma.tr
	prof c.tr f=100 g=321 h=100
	prof c2.tr f=100 g=319 h=100
	tr-mean c.tr c2.tr > mc.tr
	run tr diff --fail-above 50 a.tr b.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: g: 200.0% slower (300 -> 900, no test)"* ]]
	# k is new in b: slower without bound, 4.8 % of the time.
	run tr diff --fail-above 500 a.tr b.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: k: new in b (50, no test)"* ]]
	[[ "$output" != *"tr-diff: g: "* ]]
	run tr diff --fail-above 500 -S 5 a.tr b.tr
	[ "$status" -eq 0 ]
	# 6.7% slower with p < 0.05 is above 5 but not above 10.
	run tr diff -f 5 -C none ma.tr mc.tr
	[ "$status" -eq 1 ]
	run tr diff -f 10 -C none ma.tr mc.tr
	[ "$status" -eq 0 ]
	# Adjusted for the four keys tested, p = 0.032 becomes 0.13.
	run tr diff -f 5 ma.tr mc.tr
	[ "$status" -eq 0 ]
	# Noise: a big difference that Welch's test does not support.
	prof d.tr f=100 g=100 h=100
	prof d2.tr f=100 g=900 h=100
	tr-mean d.tr d2.tr > md.tr
	run tr diff -f 10 ma.tr md.tr
	[ "$status" -eq 0 ]
}

@test "tr-diff: -k on mean records by another key, or sides by other keys, are bad input" {
	tr-mean a.tr a.tr > ma.tr
	tr-mean -k calls a.tr a.tr > mk.tr
	tr-mean -v calls a.tr a.tr > mv.tr
	run tr diff -k calls ma.tr ma.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-diff: ma.tr:4: -k calls: mean records keep their key (here the default key): make them with tr-mean -k calls" ]
	run tr diff ma.tr mk.tr
	fails_with 3 "mk.tr:5: runs by key calls after runs by the default key"
	run tr diff -v calls a.tr ma.tr
	fails_with 3 "ma.tr:4: -v calls: mean records keep their value (here the default value)"
	# Made by the key asked for, they compare.
	run sh -c "tr-diff -k calls mk.tr mk.tr | grep -c '^diff'"
	[ "$output" = 2 ]
	run sh -c "tr-diff -v calls a.tr mv.tr | awk -F'\t' '\$2 == \"g\" { print \$3, \$4 }'"
	[ "$output" = "1 1" ]
}

@test "tr-diff: a key new in b has no finite ratio and ranks first by ratio; a key gone in b, 0, last" {
	run sh -c "tr-diff -s ratio a.tr b.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$6, \$11 }'"
	[ "$output" = "$(printf 'k -1 b\ng 3 -\nf 1 -\nh 0 a\n(total) 2.1 -')" ]
	# Of two keys new in b, the larger first.
	prof b2.tr f=100 g=900 k=50 n=70
	run sh -c "tr-diff -s ratio a.tr b2.tr | grep '^diff' | cut -f2 | head -n 2 | tr '\n' ' '"
	[ "$output" = "n k " ]
	run sh -c "tr-diff -T -s ratio a.tr b.tr | awk '\$1 == \"k\" || \$1 == \"h\" { print \$1, \$5, \$NF }'"
	[ "$output" = "$(printf 'k inf only-b\nh 0.000 only-a')" ]
	# A key a side lacks counts as 0 in each of its runs, which Welch's
	# test takes: k, new in all three runs of b, differs; s, in one run
	# of b only, may be noise, and --fail-above does not fail on it.
	prof a2.tr f=100 g=300 h=100
	prof a3.tr f=100 g=300 h=100
	prof b3.tr f=100 g=900 k=52 s=200
	prof b4.tr f=100 g=900 k=48
	tr-mean a.tr a2.tr a3.tr > ma.tr
	tr-mean b.tr b3.tr b4.tr > mb.tr
	run sh -c "tr-diff ma.tr mb.tr | awk -F'\t' '\$2 == \"k\" || \$2 == \"s\" { print \$2, \$6, (\$8 < 0.01), \$9, \$10, \$11 }'"
	[ "$output" = "$(printf 's -1 0 3 3 b\nk -1 1 3 3 b')" ]
	run tr diff -f 10 ma.tr mb.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: k: new in b"* ]]
	[[ "$output" != *"tr-diff: s: "* ]]
}

@test "tr-diff --fail-above with one run a side: no test, said once, judged on size" {
	# Failing, and passing, say why: no p-value exists.
	run stderr_of tr diff -f 50 a.tr b.tr
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "tr-diff: no significance test: a.tr has 1 run, b.tr 1 (Welch's test needs 2 a side): keys more than 50% slower fail on size alone" ]
	[ "${lines[1]}" = "tr-diff: g: 200.0% slower (300 -> 900, no test)" ]
	[[ "$output" != *"p=-1"* ]]
	run stderr_of tr diff -f 500 -S 5 a.tr b.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-diff: no significance test: a.tr has 1 run, b.tr 1 (Welch's test needs 2 a side): keys more than 500% slower fail on size alone" ]
	# One side with runs is not enough.
	tr-mean a.tr a.tr a.tr > ma.tr
	run stderr_of tr diff -f 50 ma.tr b.tr
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *"ma.tr has 3 runs, b.tr 1 "* ]]
	# The record keeps p = -1, the text table a dash; no note without -f.
	run sh -c "tr-diff ma.tr b.tr 2>&1 >/dev/null"
	[ "$output" = "" ]
	run sh -c "tr-diff ma.tr b.tr | awk -F'\t' '\$2 == \"g\" { print \$8, \$9, \$10 }'"
	[ "$output" = "-1 3 1" ]
	# Two runs a side: a test, and no note.
	tr-mean a.tr a.tr > ma2.tr
	run stderr_of tr diff -f 50 ma2.tr ma.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

# gen SEED SLOW OUT: tests/nights.awk's five runs OUT.1 ... OUT.5.
gen() {
	awk -v seed="$1" -v slow="$2" -v out="$3" -f "$TOP/tests/nights.awk"
}

# Over 200 such quiet nights, bench/alarms.sh counts 127 raising an alarm
# uncorrected and 5 with Holm's correction; with "slow" 25 % slower, all
# 200 name it, and 5 also a noise key (BENCHMARKS.md).
@test "tr-diff --fail-above: 40 noisy unchanged keys raise no alarm under Holm's correction; a slowed key does" {
	gen 1 1 a; gen 7920 1 b; gen 7920 1.25 s
	tr-mean a.[1-5] > a.tr
	tr-mean b.[1-5] > b.tr
	tr-mean s.[1-5] > s.tr
	# Uncorrected, two of the unchanged keys pass p < 0.05 by chance.
	run stderr_of tr diff -f 10 -C none a.tr b.tr
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf '%s\n' 'tr-diff: k38: 25.1% slower (898 -> 1123, p=0.021)' 'tr-diff: k14: 20.3% slower (930.8 -> 1120, p=0.029)')" ]
	# Holm's (the default) and Benjamini-Hochberg's: no alarm.
	run stderr_of tr diff -f 10 a.tr b.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run stderr_of tr diff --correction bh -f 10 a.tr b.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	# The truly slowed key still fails, alone.
	run stderr_of tr diff -f 10 a.tr s.tr
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "tr-diff: slow: 23.0% slower (2027 -> 2493, p="*", Holm-adjusted "*")" ]]
	# The family: 41 keys and the total.
	run sh -c "tr-diff a.tr b.tr | grep '^#meta diff.[ct]'"
	[ "$output" = "$(printf '#meta diff.correction=holm\n#meta diff.tests=42')" ]
	# p.adj of -T is Holm's (and BH's) adjustment of the records' p.
	for c in holm bh; do
		want=$(tr-diff a.tr b.tr | grep '^diff' | sort -t "$(printf '\t')" -k8,8g |
			awk -F'\t' -v c=$c '
			$1 == "diff" { p[++m] = $8; k[m] = $2 }
			END {
				if (c == "holm") for (i = 1; i <= m; i++) {
					v = (m - i + 1) * p[i]; if (v > 1) v = 1
					if (v > run) run = v; a[i] = run }
				else for (i = m; i >= 1; i--) {
					v = m / i * p[i]; if (i == m || v < run) run = v; a[i] = run }
				for (i = 1; i <= m; i++) printf "%s %.2g\n", k[i], a[i] }' | sort)
		got=$(tr-diff -T -C $c a.tr b.tr | awk 'NR > 1 { print $1, $8 }' | sort)
		[ "$got" = "$want" ]
	done
	# The records carry it (padj), the same with -c keeping three keys:
	# k38's 0.021 is 42 x 0.021, not 4 x.
	for c in holm bh; do
		got=$(tr-diff -C $c -c 3 -s p a.tr b.tr | awk -F'\t' '$1 == "diff" { printf "%s %.2g\n", $2, $12 }')
		want=$(tr-diff -T -C $c -c 3 -s p a.tr b.tr | awk 'NR > 1 { print $1, $8 }')
		[ "$got" = "$want" ]
	done
	run sh -c "tr-diff -c 1 -s p a.tr b.tr | awk -F'\t' '\$2 == \"k38\" { print (\$12 == 42 * \$8) }'"
	[ "$output" = 1 ]
	run tr diff -C sidak a.tr b.tr
	fails_with 2 "tr-diff: -C: 'sidak': not one of none, holm, bh"
}

# profagg's mean is over the ranks that have the function: rank 0's
# 1000 ns of I/O is 500 per rank of two, as from prof records; taken as
# 1000, a run whose two ranks each did 600 seemed 40 % faster.
@test "tr-diff: profagg means are per rank of the run, as prof records" {
	RF=$(printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime')
	{ hdr 2; echo "$RF"; ev 0 0 MPI_Init 0 100; ev 1 0 MPI_Init 0 100
	  printf 'reg\t0\t1\tenter\tio\t100\t0\t0\nreg\t0\t2\tleave\tio\t1100\t0\t0\n'; } > one.tr
	{ hdr 2; echo "$RF"; ev 0 0 MPI_Init 0 100; ev 1 0 MPI_Init 0 100
	  printf 'reg\t0\t1\tenter\tio\t100\t0\t0\nreg\t0\t2\tleave\tio\t700\t0\t0\n'
	  printf 'reg\t1\t1\tenter\tio\t100\t0\t0\nreg\t1\t2\tleave\tio\t700\t0\t0\n'; } > both.tr
	tr-profile -A -s mean one.tr > one.prof
	tr-profile -A -s mean both.tr > both.prof
	run sh -c "tr-diff one.prof both.prof | grep -v '^#' | cut -f2-4"
	[ "$output" = "$(printf 'io\t500\t600\nMPI_Init\t100\t100\ncompute\t0\t0\n(total)\t600\t700')" ]
	tr-profile one.tr > one.p
	tr-profile both.tr > both.p
	run sh -c "tr-diff one.p both.p | grep -v '^#' | cut -f2-4"
	[ "$output" = "$(printf 'io\t500\t600\nMPI_Init\t100\t100\ncompute\t0\t0\n(total)\t600\t700')" ]
}

@test "tr-diff -T: a text table" {
	run tr diff -T a.tr b.tr
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == key*a*b*b-a*b/a*m*p*na*nb ]]
	[[ "${lines[1]}" == g*300*900*+600*3.000* ]]
	[[ "${lines[2]}" == h*only-a ]]
}

@test "tr-diff: a side's trace without a rank's records is bad input" {
	{ hdr 2; ev 0 0 MPI_Send 0 10; ev 1 0 MPI_Recv 0 40; } > a.tr
	{ hdr 2; ev 0 0 MPI_Send 0 10; } > b.tr
	run tr diff a.tr a.tr
	[ "$status" -eq 0 ]
	run stderr_of tr diff a.tr b.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-diff: b.tr:2: np=2, but rank 1 has no records: a rank's file missing? (a selection of ranks says #meta subset)" ]
}

@test "tr-diff: usage and bad input" {
	run tr diff a.tr
	fails_with 2 "usage: tr-diff"
	run tr diff -s bogus a.tr b.tr
	fails_with 2 "tr-diff: -s: 'bogus': not one of m, a, b, delta, ratio, p, key"
	run tr diff -x a.tr b.tr
	fails_with 2 "usage: tr-diff"
	printf '#tr 1\n%s\nprof\t0\tf\t1\t0\tx\t1\t0\n' "$PF" > bad.tr
	run tr diff a.tr bad.tr
	fails_with 3 "bad.tr:3:"
	run tr diff a.tr missing.tr
	fails_with 4 "missing.tr"
	# -k or -v naming a column no record has compared nothing and exit
	# 0: a misspelt key in cron, and --fail-above could never fail.
	run tr diff -k name a.tr b.tr
	[ "$status" -eq 0 ]
	run tr diff -f 10 -k nmae a.tr b.tr
	fails_with 2 "tr-diff: a.tr: -k nmae: no record of it has such a column"
	[ "${#lines[@]}" -eq 1 ]
	run tr diff -v incl -k class a.tr b.tr
	fails_with 2 "tr-diff: a.tr: -k class -v incl: no record of it has these columns"
	# n runs past a long were cast to one (fuzzed tr-mean output)
	printf '#tr 1\n%s\nmean\tf\t9223372036854775807\t1\t0\t1\t1\n' "$MF" > many.tr
	run tr diff a.tr many.tr
	fails_with 3 "many.tr:3: mean: n of 9223372036854775808 runs: more than a double counts exactly"
}

@test "tr-diff: job records per target, with the I/O estimate (-v io)" {
	JF=$(printf '#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd')
	printf '#tr 1\n%s\njob\th\t1\tx\t0\t100\t60\t10\t0\t0\t0\t0\tcc x\njob\th\t2\ty\t0\t50\t40\t5\t0\t0\t0\t0\tcc y\n' "$JF" > ja.tr
	printf '#tr 1\n%s\njob\th\t1\tx\t0\t100\t60\t10\t0\t0\t0\t0\tcc x\njob\th\t2\ty\t0\t250\t40\t5\t0\t0\t0\t0\tcc y\n' "$JF" > jb.tr
	run sh -c "tr-diff -v io ja.tr jb.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3, \$4 }'"
	[ "$output" = "$(printf 'y 5 205\nx 30 30\n(total) 35 235')" ]
	# user + sys past 2^63 (a fuzzed sys) was summed in int64: UBSan's
	# signed overflow, and in the plain build a wrapped, positive I/O
	printf '#tr 1\n%s\njob\th\t1\tx\t0\t100\t60\t9223372036854775807\t0\t0\t0\t0\tcc x\n' "$JF" > big.tr
	run sh -c "tr-diff -v io big.tr jb.tr | awk -F'\t' '\$1 == \"diff\" && \$2 == \"x\" { print (\$3 < -9e18) }'"
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
}

# The known truth: a preload library makes MPI_Allreduce 20 ms slower
# per call, as a worse MPI library would; nothing else changes. Two
# ranks, one per core: with 4 ranks on 2 cores beside other jobs,
# MPI_Waitall's waits for descheduled peers moved by 450 ms between
# runs and outgrew the 150 ms a 5 ms delay added.
@test "tr-diff: a completion of several requests is one call; flushes are not compute; -k rank" {
	{ hdr 2; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  ev 0 0 MPI_Init 0 100
	  for p in 1 2 3 4; do ev 0 1 MPI_Waitall 200 300 0 a+1 $p 8 0 0 $p; done
	  printf 'reg\t0\t2\tenter\ttr.flush\t350\t0\t0\n'
	  printf 'reg\t0\t3\tleave\ttr.flush\t390\t0\t0\n'
	  ev 0 4 MPI_Finalize 500 510
	  ev 1 0 MPI_Init 0 100
	  for p in 0 2; do ev 1 1 MPI_Waitall 150 170 0 a+1 $p 8 0 0 $p; done
	  ev 1 2 MPI_Finalize 500 520; } > w.tr
	# per rank, averaged: Waitall (100 + 20) / 2; compute
	# (100 + 200 - 40 flushed) and (50 + 330), over 2
	run sh -c "tr-diff w.tr w.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3 }' | sort"
	[ "$output" = "$(printf '%s\n' '(total) 495' 'MPI_Finalize 15' 'MPI_Init 100' 'MPI_Waitall 60' 'compute 320')" ]
	run sh -c "tr-diff -v calls w.tr w.tr | awk -F'\t' '\$2 == \"MPI_Waitall\" { print \$3 }'"
	[ "$output" = 1 ]
	# each rank's own time, its computation included, flushes not
	run sh -c "tr-diff -k rank w.tr w.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3 }' | sort"
	[ "$output" = "$(printf '%s\n' '(total) 990' '0 470' '1 520')" ]
}

@test "tr-diff -v cpu: the CPU bursts of ev records, by the call that ends each or by rank; a run without CPU time is bad input" {
	{ hdr 2
	  ev 0 0 MPI_Init 0 100 0; ev 0 1 MPI_Send 200 300 80 a+1 1 8
	  ev 0 2 MPI_Finalize 400 410 10
	  ev 1 0 MPI_Init 0 100 0; ev 1 1 MPI_Recv 150 300 40 a+2 0 8
	  ev 1 2 MPI_Finalize 400 420 20; } > c.tr
	run sh -c "tr-diff -v cpu c.tr c.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3 }' | sort"
	[ "$output" = "$(printf '%s\n' '(total) 75' 'MPI_Finalize 15' 'MPI_Init 0' 'MPI_Recv 20' 'MPI_Send 40')" ]
	run sh -c "tr-diff -k rank -v cpu c.tr c.tr | awk -F'\t' '\$1 == \"diff\" { print \$2, \$3 }' | sort"
	[ "$output" = "$(printf '%s\n' '(total) 150' '0 90' '1 60')" ]
	# recorded with tr-record -C: cpu -1, which summed made -1 ns per
	# call and a ratio of -1 against the other run
	awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "ev" { $7 = -1 } { print }' c.tr > nocpu.tr
	run tr diff -v cpu nocpu.tr c.tr
	fails_with 3 "nocpu.tr:4: cpu -1: the CPU time was not measured (tr-record -C), and -v cpu compares it"
	[ "${#lines[@]}" -eq 1 ]
	run tr mean -v cpu nocpu.tr
	fails_with 3 "nocpu.tr:4: cpu -1"
	# the wall time of its calls still compares
	tr diff nocpu.tr c.tr > /dev/null
}

@test "tr-diff: the MPI stencil with a slowed MPI_Allreduce ranks it first" {
	[ -x "$TR_MPIBIN/stencil" ] && [ -f "$TR_MPIBIN/libslowop.so" ] || skip "no MPI build"
	mpirun -np 2 tr-record -o ra "$TR_MPIBIN/stencil" 96 30 >/dev/null
	# (ASan builds of tr-record must not mind a library preloaded first.)
	mpirun -x LD_PRELOAD="$TR_MPIBIN/libslowop.so" -x TR_SLOW_US=20000 \
		-x ASAN_OPTIONS=verify_asan_link_order=0 \
		-np 2 tr-record -o rb "$TR_MPIBIN/stencil" 96 30 >/dev/null
	tr-cat ra/* > a.tr
	tr-cat rb/* > b.tr
	# MPI_Init and MPI_Finalize last 0.3 s, the launcher's time, which
	# moves by tens of ms between runs on a loaded machine: the slowed
	# call ranks first among the program's own.
	tr-diff a.tr b.tr | grep -v '^#' | head -n 4	# shown on failure
	run sh -c "tr-diff a.tr b.tr | grep -v '^#' |
		grep -Ev '	MPI_(Init|Finalize)	' | head -n 1 | cut -f2"
	[ "$output" = "MPI_Allreduce" ]
	# 30 calls, 20 ms each: at least 600 ms per rank in b, and the
	# difference is that less what a's calls took (waits for a peer, tens
	# of ms on a loaded machine). The upper bound is loose: waiting for a
	# descheduled peer adds to b on a loaded machine too.
	run sh -c "tr-diff a.tr b.tr | awk -F'\t' '\$2 == \"MPI_Allreduce\" { print \$3, \$4, \$5 }'"
	set -- $output
	awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN {
		exit !(b >= 600e6 && b < 4e9 && a < 300e6 &&
		    d - (b - a) < 1 && b - a - d < 1) }'
}

# A delay injected by strace itself into every openat.
@test "tr-diff: strace of cat with slow openat ranks openat and metadata first" {
	command -v strace >/dev/null || skip "no strace"
	mkdir d
	for i in 1 2 3 4 5 6 7 8 9 10; do echo $i > d/f$i; done
	strace -f -tt -T -o sa.txt cat d/f1 d/f2 d/f3 d/f4 d/f5 d/f6 d/f7 d/f8 d/f9 d/f10 >/dev/null
	strace -f -tt -T -e inject=openat:delay_enter=3000 -o sb.txt \
		cat d/f1 d/f2 d/f3 d/f4 d/f5 d/f6 d/f7 d/f8 d/f9 d/f10 >/dev/null
	tr-from-strace sa.txt > a.tr
	tr-from-strace sb.txt > b.tr
	run sh -c "tr-diff a.tr b.tr | grep -v '^#' | head -n 1 | cut -f2"
	[ "$output" = "openat" ]
	run sh -c "tr-diff -k class a.tr b.tr | grep -v '^#' | head -n 1 | cut -f2"
	[ "$output" = "metadata" ]
}

# A consumer waiting on a pipe for its producer's slow opens is no
# data access to a file: with strace -y the descriptors' paths show it.
@test "tr-diff, tr-mean -k class: reads and writes on pipes and sockets are other, not data" {
	command -v strace >/dev/null || skip "no strace"
	mkdir d
	for i in 1 2 3; do echo $i > d/f$i; done
	strace -f -y -tt -T -o s.txt sh -c 'cat d/f1 d/f2 d/f3 | wc -c' >/dev/null
	tr-from-strace s.txt > s.tr
	awk -F'\t' '/^#/ || $5 ~ /^pipe:/' s.tr > p.tr
	[ "$(grep -c '^sys	[0-9]*	[0-9]*	\(read\|write\)	pipe:' p.tr)" -gt 0 ]
	run sh -c "tr-mean -k class -v calls p.tr | grep -v '^#' | cut -f2 | sort"
	[ "$output" = "$(printf '(total)\nother')" ]
	run sh -c "tr-diff -k class -v calls p.tr p.tr | grep -v '^#' | cut -f2 | sort"
	[ "$output" = "$(printf '(total)\nother')" ]
	# cat's reads of the files are data still.
	awk -F'\t' '/^#/ || ($4 == "read" && $5 ~ /d\/f1$/)' s.tr > f.tr
	run sh -c "tr-mean -k class -v calls f.tr | grep -v '^#' | cut -f2 | sort"
	[ "$output" = "$(printf '(total)\ndata')" ]
}

# The example of tr-diff(1), run as the page has it, on a program with
# a user region: its computation is in the region's exclusive time.
@test "tr-diff(1)'s example: which rank computes slower counts the time in user regions" {
	[ -x "$TR_MPIBIN/stencil" ] || skip "no build/mpi/stencil"
	f=$(sed -n "s/^  tr-profile | tr-filter '\(.*\)'$/\1/p" "$TOP/man/tr-diff.1")
	[ -n "$f" ]
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
		-o a1 "$TR_MPIBIN/stencil" 256 20 > /dev/null
	tr-cat -m a1/*.tr.gz > t.tr
	grep -q '^reg	0	[0-9]*	enter	solve	' t.tr
	tr-profile t.tr | tr-filter "$f" > a.prof
	# Rank 0's computation: its span less its time in MPI calls.
	want=$(tr-profile t.tr | awk -F'\t' '$1 == "prof" && $2 == 0 && $3 !~ /^MPI_|^tr[.]flush$/ { s += $6 } END { print s }')
	got=$(tr-diff -k rank a.prof a.prof | awk -F'\t' '$2 == "0" { print $3 }')
	# All of it, not the slivers between calls outside the region.
	awk -v g="$got" -v s="$want" 'BEGIN { exit !(g == s && s > 0) }'
	# The region's own time is in the sum. (Not compared with the time
	# outside regions: at this size that is set-up and scheduling noise,
	# 0.5-13 ms against the region's 1 ms on a loaded machine.)
	[ "$(tr-profile t.tr | awk -F'\t' '$2 == 0 && $3 == "solve" { print $6 }')" -gt 0 ]
}
