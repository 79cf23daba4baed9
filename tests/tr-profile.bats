load helper

setup() {
	T=$BATS_TEST_TMPDIR
	{
		hdr 2
		printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		ev 0 0 MPI_Init 0 100
		reg 0 1 enter solve 150 50 0
		ev 0 2 MPI_Send 200 260 50 a+2 1 800 5
		reg 0 3 enter inner 300 40 0
		ev 0 4 MPI_Allreduce 400 500 100 a+3 -1 8
		reg 0 5 leave inner 550 50 0
		reg 0 6 leave solve 600 50 0
		ev 0 7 MPI_Finalize 700 710 100
		ev 1 0 MPI_Init 0 100
		ev 1 1 MPI_Recv 150 270 50 a+5 0 800 5
		ev 1 2 MPI_Allreduce 390 500 120 a+3 -1 8
		ev 1 3 MPI_Finalize 690 710 190
	} > "$T/t.tr"
}

reg() {
	printf 'reg\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
}

@test "TAU's calls, subrs, excl and incl per rank" {
	run tr profile "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'prof	0	MPI_Allreduce	1	0	100	100	8' \
	    'prof	0	MPI_Finalize	1	0	10	10	0' \
	    'prof	0	MPI_Init	1	0	100	100	0' \
	    'prof	0	MPI_Send	1	0	60	60	800' \
	    'prof	0	compute	2	0	150	150	0' \
	    'prof	0	inner	1	1	150	250	0' \
	    'prof	0	solve	1	2	140	450	0' \
	    'prof	1	MPI_Allreduce	1	0	110	110	8' \
	    'prof	1	MPI_Finalize	1	0	20	20	0' \
	    'prof	1	MPI_Init	1	0	100	100	0' \
	    'prof	1	MPI_Recv	1	0	120	120	800' \
	    'prof	1	compute	3	0	360	360	0')" ]
}

@test "MPI_Startall's requests: each op a call with its bytes, the time once" {
	{
		hdr 1
		ev 0 0 MPI_Startall:Recv_init 100 110 0 a+1 0 64 5 0 1
		ev 0 0 MPI_Startall:Send_init 100 110 0 a+1 0 64 5 0 2
		ev 0 0 MPI_Startall:Send_init 100 110 0 a+1 0 32 6 0 3
		ev 0 1 MPI_Waitall 120 200 0 a+2 0 64 5 0 1
		ev 0 1 MPI_Waitall 120 200 0 a+2 0 64 5 0 2
		ev 0 1 MPI_Waitall 120 200 0 a+2 0 32 6 0 3
	} > "$T/p.tr"
	run tr profile "$T/p.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'prof	0	MPI_Startall:Recv_init	1	0	10	10	64' \
	    'prof	0	MPI_Startall:Send_init	1	0	0	0	96' \
	    'prof	0	MPI_Waitall	1	0	80	80	160' \
	    'prof	0	compute	1	0	10	10	0')" ]
}

@test "mean, min and max over ranks" {
	run tr profile -A -s max,mean "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep -c '^prof	')" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep 'compute')" = "$(printf '%s\n' \
	    'profagg	mean	compute	2	2.5	0	255	255	0' \
	    'profagg	max	compute	2	3	0	360	360	0')" ]
	run tr profile -a "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep '^profagg	min	MPI_Allreduce')" = "$(printf 'profagg\tmin\tMPI_Allreduce\t2\t1\t0\t100\t100\t8')" ]
}

@test "computation inside a region is the region's exclusive time, not compute too" {
	# rank 0: 100-150 and 600-700 are outside regions; solve's 140 of
	# exclusive time is 150-200, 260-300 and 550-600; the top-level
	# inclusive times sum to the span, 710
	run tr profile "$T/t.tr"
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "prof" && $2 == 0 &&
	    ($3 ~ /^MPI_(Init|Finalize)$/ || $3 == "compute" || $3 == "solve") {
		s += $7 } END { print s }')" = 710 ]
	# tr-record's flushes are regions too: out of compute
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  ev 0 0 MPI_Init 0 100; reg 0 1 enter tr.flush 120 0 0
	  reg 0 2 leave tr.flush 170 10 0; ev 0 3 MPI_Finalize 200 210 5; } > "$T/f.tr"
	run tr profile "$T/f.tr"
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f3-)" = "$(printf '%s\n' \
	    'MPI_Finalize	1	0	10	10	0' 'MPI_Init	1	0	100	100	0' \
	    'compute	2	0	50	50	0' 'tr.flush	1	0	50	50	0')" ]
}

@test "per-rank sum of incl of MPI and compute is the rank's span" {
	tr gen -P stencil3d -n 8 -i 5 -R 4 > "$T/g.tr"
	run tr profile "$T/g.tr"
	got=$(printf '%s\n' "$output" | mawk -F'\t' '$1=="prof" && $2==5 { s += $7 } END { print s }')
	want=$(mawk -F'\t' '$1=="ev" && $2==5 { if (!f) { f = 1; a = $5 } b = $6 } END { print b - a }' "$T/g.tr")
	[ "$got" = "$want" ]
}

@test "bad input and usage" {
	run tr profile -s median
	fails_with 2 "tr-profile: -s: 'median': not a list of mean, min and max"
	run tr profile -k
	fails_with 2 "usage: tr-profile"
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'; reg 0 0 enter a 5 0 0; reg 0 1 leave b 6 0 0; } > "$T/bad.tr"
	run tr profile "$T/bad.tr"
	fails_with 3 "bad.tr:6: rank 0 leaves region 'b'"
	# bytes that each fit 64 bits, but not their sum (fuzzed input:
	# UBSan's signed integer overflow)
	{ hdr 1; ev 0 0 MPI_Send 0 1 0 x 0 9223372036854775807
	  ev 0 1 MPI_Send 2 3 0 x 0 1; } > "$T/big.tr"
	run tr profile "$T/big.tr"
	fails_with 3 "big.tr:5: bytes: the sum over records overflows 64 bits"
}

@test "-G: shards of a run; -m: prof merged, statistics the whole run's" {
	for r in 0 1 2 3; do
		tr gen -n 4 -i 4 -j 0.3 -r $r > "$T/r$r.tr"
	done
	tr profile -G 0 "$T/r0.tr" > "$T/a"
	tr profile -G 1-3 "$T"/r[1-3].tr > "$T/b"
	for o in "" -a "-A -s max"; do
		tr profile $o "$T"/r[0-3].tr > "$T/whole"
		cat "$T/a" "$T/b" | tr profile -m $o | cmp - "$T/whole"
	done
	grep -q '^profagg	max	compute	4	' "$T/whole"
	run tr profile -A -G 0 "$T/r0.tr"
	[ "$status" -eq 2 ]
	run tr profile -G 0 "$T/r0.tr" "$T/r1.tr"
	fails_with 3 "rank 1 has records but is not in the shard (-G 0)"
}
