load helper

setup() {
	T=$BATS_TEST_TMPDIR
	{
		hdr 2
		printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		ev 0 0 MPI_Init 0 100 0 m@a.c:1
		ev 1 0 MPI_Init 0 100 0 m@a.c:1
		reg 0 1 enter solve 150 40 0
		ev 0 2 MPI_Send 300 350 150 m@a.c:5 1 8 1
		ev 1 1 MPI_Recv 200 400 90 m@a.c:6 0 8 1
		ev 0 3 MPI_Waitall 500 600 140 m@a.c:7 -1 0 -1 0 1
		ev 0 3 MPI_Waitall 500 600 140 m@a.c:7 -1 0 -1 0 2
		reg 0 4 leave solve 650 50 0
		ev 0 5 MPI_Finalize 700 800 -1 m@a.c:9
		ev 1 2 MPI_Finalize 750 800 300 m@a.c:9
	} > "$T/t.tr"
}

reg() {
	printf 'reg\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
}

@test "deltas keyed by sites, with cpu of the interval" {
	run tr delta "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'delta	0	2	m@a.c:1>m@a.c:5	100	200	190' \
	    'delta	1	1	m@a.c:1>m@a.c:6	100	100	90' \
	    'delta	0	3	m@a.c:5>m@a.c:7	350	150	140' \
	    'delta	0	5	m@a.c:7>m@a.c:9	600	100	-1' \
	    'delta	1	2	m@a.c:6>m@a.c:9	400	350	300')" ]
	[[ "$output" == *"$(printf '#fields\tdelta\trank\tseq\tkey\tstart\twall\tcpu')"* ]]
	[[ "$output" != *"#fields	ev"* ]]
}

@test "keys by op names and by region" {
	run tr delta -c "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f4 | tr '\n' ' ')" = "MPI_Init>MPI_Send MPI_Init>MPI_Recv MPI_Send>MPI_Waitall MPI_Waitall>MPI_Finalize MPI_Recv>MPI_Finalize " ]
	run tr delta -r "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f4 | tr '\n' ' ')" = "solve - solve - - " ]
}

@test "tr-record's buffer flushes (region tr.flush) are out of the deltas, wall and cpu" {
	{
		hdr 1
		printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		ev 0 0 MPI_Init 0 100 0 m@a.c:1
		reg 0 1 enter tr.flush 110 10 0
		reg 0 2 leave tr.flush 1110 900 0
		ev 0 3 MPI_Send 1200 1250 60 m@a.c:5 0 8 1
		reg 0 4 enter solve 1300 5 0
		reg 0 5 enter tr.flush 1310 5 0
		reg 0 6 leave tr.flush 1810 450 0
		ev 0 7 MPI_Finalize 1900 2000 80 m@a.c:9
	} > "$T/f.tr"
	# 1100 ns between Init and Send, 1000 of them flushing: 100 wall,
	# 10 + 60 cpu; then 650 ns less the flush's 500, in region solve
	run tr delta "$T/f.tr"
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'delta	0	3	m@a.c:1>m@a.c:5	100	100	70' \
	    'delta	0	7	m@a.c:5>m@a.c:9	1250	150	90')" ]
	run tr delta -r "$T/f.tr"
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f4 | tr '\n' ' ')" = "- solve " ]
	run tr delta -s "$T/f.tr"
	[[ "$output" == *"$(printf 'dsum\t0\t*\t2\t250\t160')"* ]]
	# a flush that ends without starting is refused at its line
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  ev 0 0 MPI_Init 0 100 0 m@a.c:1; reg 0 1 leave tr.flush 1110 900 0; } > "$T/g.tr"
	run tr delta "$T/g.tr"
	fails_with 3 "g.tr:6: rank 0 leaves region tr.flush that it is not in"
}

@test "sums per rank and the max over ranks" {
	run tr delta -s "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^dsum	.	\*')" = "$(printf '%s\n' \
	    'dsum	0	*	3	450	-1' 'dsum	1	*	2	450	390')" ]
	[ "$(printf '%s\n' "$output" | grep '^dmax' | head -1)" = "$(printf 'dmax\t*\t2\t5\t450\t-1\t450\t0')" ]
	[ "$(printf '%s\n' "$output" | grep -c '^dmax')" -eq 6 ]
}

@test "slow rank from tr-gen has the largest delta sum" {
	tr gen -P stencil1d -n 4 -i 20 -R 5 -S 1:4 > "$T/g.tr"
	run tr delta -s "$T/g.tr"
	[ "$(printf '%s\n' "$output" | grep '^dmax	\*' | cut -f8)" = 1 ]
	# the sum of deltas equals the sum of starts minus previous ends
	want=$(mawk -F'\t' '$1=="ev" { if (($2) in e && $3 != q[$2]) s += $5 - e[$2]; e[$2] = $6; q[$2] = $3 } END { print s }' "$T/g.tr")
	got=$(printf '%s\n' "$output" | mawk -F'\t' '$1=="dsum" && $3=="*" { s += $5 } END { print s }')
	[ "$got" = "$want" ]
}

@test "sections report separately; -p keeps the calls" {
	tr gen -P ring -n 2 -i 2 -R 1 > "$T/a.tr"
	tr gen -P ring -n 3 -i 2 -R 1 > "$T/b.tr"
	run sh -c "cat '$T/a.tr' '$T/b.tr' | '$TR_BIN/tr-delta' -s"
	[ "$(printf '%s\n' "$output" | grep -c '^#tr 1')" -eq 2 ]
	[ "$(printf '%s\n' "$output" | grep '^dmax	\*' | cut -f3 | tr '\n' ' ')" = "2 3 " ]
	run tr delta -p "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 8 ]
	[ "$(printf '%s\n' "$output" | grep -c '^delta')" -eq 5 ]
}

@test "an empty site is a key of its own" {
	# the empty site left the previous site NULL for memcpy (UBSan:
	# null pointer passed as argument, from a fuzzed trace)
	{ hdr 1; printf 'ev\t0\t0\tMPI_Init\t0\t10\t0\t\t-1\t0\t-1\t0\t-1\t-1\n'
	  ev 0 1 MPI_Send 20 30 0 x; } > "$T/empty.tr"
	run tr delta "$T/empty.tr"
	[ "$status" -eq 0 ]
	[ "$(grep '^delta' <<<"$output")" = "$(printf 'delta\t0\t1\t>x\t10\t10\t0')" ]
}

@test "bad input and usage" {
	run tr delta -x
	fails_with 2 "usage: tr-delta"
	run tr delta -c -r "$T/t.tr"
	fails_with 2 "usage: tr-delta"
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'; reg 0 0 leave x 5 0 0; } > "$T/bad.tr"
	run tr delta -r "$T/bad.tr"
	fails_with 3 "bad.tr:5: rank 0 leaves region 'x'"
	{ hdr 1; ev 0 0 MPI_Init 10 5; } > "$T/bad2.tr"
	run tr delta "$T/bad2.tr"
	fails_with 3 "bad2.tr:4:"
	# CPU sums past what an integer holds: an error, not an overflow
	{ hdr 1; ev 0 0 MPI_Init 0 1; ev 0 1 MPI_Send 2 3 9223372036854775000; ev 0 2 MPI_Send 4 5 200000; } > "$T/big.tr"
	run tr delta -s "$T/big.tr"
	fails_with 3 "big.tr:6: a sum of deltas: the sum over records overflows 64 bits"
}

# rank files of a tr-gen run at 6 ranks, and the whole run's sums
gen_ranks() {
	for r in 0 1 2 3 4 5; do
		tr gen -n 6 -i 4 -j 0.3 -P "${1:-stencil2d}" -r $r > "$T/r$r.tr"
	done
}

@test "-G: shards of a run; -m: their sums merged are the whole run's" {
	gen_ranks
	tr delta -s "$T"/r[0-5].tr > "$T/whole"
	tr delta -s -G 0-1 "$T/r0.tr" "$T/r1.tr" > "$T/a"
	tr delta -s -G 2-5 "$T"/r[2-5].tr > "$T/b"
	grep -q '^dmax' "$T/a"
	cat "$T/a" "$T/b" | tr delta -m > "$T/m"
	cmp "$T/m" "$T/whole"
	# delta records of shards are the whole run's, in rank order
	cat <(tr delta -G 0-2 "$T"/r[0-2].tr) <(tr delta -G 3-5 "$T"/r[3-5].tr |
	    grep -v '^#') | cmp - <(tr delta "$T"/r[0-5].tr)
}

@test "-G: a shard's missing file is an error, as are another shard's ranks" {
	gen_ranks
	run tr delta -s -G 0-2 "$T/r0.tr" "$T/r2.tr"
	fails_with 3 "r0.tr:2: rank 1 of the shard (-G 0-2) has no records: a rank's file missing?"
	run tr delta -s -G 0-1 "$T"/r[0-2].tr
	fails_with 3 "rank 2 has records but is not in the shard (-G 0-1)"
	run tr delta -s "$T/r0.tr" "$T/r1.tr"
	fails_with 3 "np=6, but ranks 2-5 have no records"
	run tr delta -G 0-x "$T/r0.tr"
	fails_with 2 "-G: '0-x': not a rank list such as 0-7,12"
	run tr delta -m -G 0 "$T/r0.tr"
	[ "$status" -eq 2 ]
	tr delta -s -G 0-2 "$T"/r[0-2].tr > "$T/a"
	run tr delta -m "$T/a" "$T/a"
	fails_with 3 "in two shards"
}
