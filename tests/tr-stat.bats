load helper

reg() {
	printf 'reg\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
}

setup() {
	T=$BATS_TEST_TMPDIR
	{
		hdr 3
		ev 0 0 MPI_Init 0 100
		ev 1 0 MPI_Init 0 100
		ev 2 0 MPI_Init 0 100
		ev 0 1 MPI_Send 200 250 0 a+1 1 1000 1
		ev 0 2 MPI_Isend 300 310 0 a+2 2 0 1 0 7
		ev 0 3 MPI_Wait 310 400 0 a+3 -1 0 -1 0 7
		ev 1 1 MPI_Recv 150 260 0 a+4 0 1000 1
		ev 2 1 MPI_Sendrecv 500 600 0 a+5 1 70000 2 0 -1 0
		ev 1 2 MPI_Recv 400 610 0 a+4 2 70000 2
	} > "$T/t.tr"
}

@test "ops, matrix, sizes and imbalance" {
	run tr stat "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'opstat	MPI_Init	3	0	300' \
	    'opstat	MPI_Isend	1	0	10' \
	    'opstat	MPI_Recv	2	71000	320' \
	    'opstat	MPI_Send	1	1000	50' \
	    'opstat	MPI_Sendrecv	1	70000	100' \
	    'opstat	MPI_Wait	1	0	90' \
	    'cmat	0	1	1	1000' \
	    'cmat	0	2	1	0' \
	    'cmat	2	1	1	70000' \
	    'msize	0	1	1	0' \
	    'msize	512	1024	1	1000' \
	    'msize	65536	131072	1	70000' \
	    'imbal	3	150	246.66666666666666	400	1.6216216216216217	2')" ]
	for t in opstat cmat msize imbal; do
		[[ "$output" == *"#fields	$t	"* ]]
	done
}

@test "-s: messages sent per op and call site" {
	run tr stat -s "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(grep '^msite' <<<"$output")" = "$(printf '%s\n' \
	    'msite	MPI_Isend	a+2	1	0' \
	    'msite	MPI_Send	a+1	1	1000' \
	    'msite	MPI_Sendrecv	a+5	1	70000')" ]
	grep -q '^#fields	msite	op	site	calls	bytes$' <<<"$output"
	# the rest as without -s; and without it, none
	diff <(grep -v msite <<<"$output") <(tr stat "$T/t.tr")
	[ "$(tr stat "$T/t.tr" | grep -c msite)" -eq 0 ]
}

@test "persistent sends: every request MPI_Startall starts is a message, each op a call" {
	# One MPI_Startall per rank starting a receive, then a send, then a
	# second send: three records of one seq. The sends after the first
	# record were neither messages nor calls.
	{
		hdr 2
		ev 0 0 MPI_Startall:Recv_init 100 110 0 a+1 1 64 5 0 1
		ev 0 0 MPI_Startall:Send_init 100 110 0 a+1 1 64 5 0 2
		ev 0 0 MPI_Startall:Send_init 100 110 0 a+1 1 32 6 0 3
		ev 0 1 MPI_Waitall 120 200 0 a+2 1 64 5 0 1
		ev 0 1 MPI_Waitall 120 200 0 a+2 1 64 5 0 2
		ev 0 1 MPI_Waitall 120 200 0 a+2 1 32 6 0 3
		ev 1 0 MPI_Startall:Send_init 100 120 0 a+1 0 64 5 0 1
		ev 1 0 MPI_Startall:Recv_init 100 120 0 a+1 0 64 5 0 2
		ev 1 1 MPI_Waitall 130 180 0 a+2 0 64 5 0 1
		ev 1 1 MPI_Waitall 130 180 0 a+2 0 64 5 0 2
	} > "$T/p.tr"
	run tr stat "$T/p.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'opstat	MPI_Startall:Recv_init	2	128	30' \
	    'opstat	MPI_Startall:Send_init	2	160	30' \
	    'opstat	MPI_Waitall	2	288	130' \
	    'cmat	0	1	2	96' \
	    'cmat	1	0	1	64' \
	    'msize	32	64	1	32' \
	    'msize	64	128	2	128' \
	    'imbal	2	10	10	10	1	0')" ]
}

# No point-to-point message: an empty matrix, sorted all the same (the
# ASan+UBSan build caught qsort given NULL).
@test "a run of collectives only has no matrix rows" {
	{ hdr 2; ev 0 0 MPI_Init 0 100; ev 1 0 MPI_Init 0 100
	  ev 0 1 MPI_Barrier 200 300; ev 1 1 MPI_Barrier 200 300; } >"$T/c.tr"
	run tr stat "$T/c.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^cmat')" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^opstat')" -eq 2 ]
}

@test "slow rank of tr-gen shows as the imbalance" {
	tr gen -P stencil2d -n 4 -i 10 -R 2 -S 3:5 > "$T/g.tr"
	run tr stat "$T/g.tr"
	[ "$(printf '%s\n' "$output" | grep '^imbal' | cut -f2,7)" = "$(printf '4\t3')" ]
	# matrix totals agree with the sends in the trace
	want=$(mawk -F'\t' '$1=="ev" && $4 ~ /send/ && $9 >= 0 { n++ } END { print n }' "$T/g.tr")
	got=$(printf '%s\n' "$output" | mawk -F'\t' '$1=="cmat" { n += $4 } END { print n }')
	[ "$got" = "$want" ]
}

@test "sections, pass-through and bad input" {
	run sh -c "tr_gen() { '$TR_BIN/tr-gen' \"\$@\"; }; { tr_gen -P ring -n 2 -i 1; tr_gen -P ring -n 3 -i 1; } | '$TR_BIN/tr-stat'"
	[ "$(printf '%s\n' "$output" | grep '^imbal' | cut -f2 | tr '\n' ' ')" = "2 3 " ]
	run tr stat -p "$T/t.tr"
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 9 ]
	run tr stat -z
	fails_with 2 "usage: tr-stat"
	{ hdr 1; ev 0 0 MPI_Init 0 100; ev 0 0 MPI_Send 200 300; } > "$T/bad.tr"
	run tr stat "$T/bad.tr"
	fails_with 3 "bad.tr:5:"
	# bytes and times that each fit 64 bits, but not their sum (fuzzed
	# input: UBSan's signed integer overflow)
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 x 1 9223372036854775807
	  ev 0 1 MPI_Send 2 3 0 x 1 9223372036854775807; } > "$T/big.tr"
	run tr stat "$T/big.tr"
	fails_with 3 "big.tr:5: bytes: the sum over records overflows 64 bits"
	{ hdr 2; ev 0 0 MPI_Barrier 0 9000000000000000000
	  ev 1 0 MPI_Barrier 0 9000000000000000000; } > "$T/long.tr"
	run tr stat "$T/long.tr"
	fails_with 3 "long.tr:5: time: the sum over records overflows 64 bits"
}

@test "bundled samples: imbalance agrees with the delta sums of tr-delta" {
	d=$SAMPLES/stencil/np4
	[ -e "$d/rank.0.tr.gz" ] || skip "no bundled samples"
	s=$(cat "$d"/rank.*.tr.gz | "$TR_BIN/tr-stat" | grep '^imbal' | cut -f4,5,7)
	m=$(cat "$d"/rank.*.tr.gz | "$TR_BIN/tr-delta" -s | grep '^dmax	\*' | cut -f5,7,8)
	[ -n "$s" ]
	[ "$(printf '%s\n' "$s" | mawk -F'\t' '{ print $2, $1, $3 }')" = "$(printf '%s\n' "$m" | mawk -F'\t' '{ print $1, $2, $3 }')" ]
}

@test "fetching atomics: the bytes sent with an op go origin to target, those fetched back" {
	# NWChem's (ARMCI-MPI's) pattern: a Fetch_and_op with MPI_SUM sends
	# 8 bytes and fetches 8, a Get_accumulate with MPI_NO_OP (root 0)
	# only fetches, a Compare_and_swap sends 16 and fetches 8. The sent
	# halves were lost: the column holding them was not read.
	{
		hdr 2
		ev 1 0 MPI_Fetch_and_op 100 200 0 a+1 0 8 3 2 -1 8
		ev 1 1 MPI_Get_accumulate 300 400 0 a+2 0 152 3 2 -1 0
		ev 0 0 MPI_Compare_and_swap 100 300 0 a+3 1 8 3 2 -1 16
	} > "$T/fetch.tr"
	run tr stat "$T/fetch.tr"
	[ "$status" -eq 0 ]
	[ "$(grep -e '^cmat' -e '^msize' <<<"$output")" = "$(printf '%s\n' \
	    'cmat	0	1	3	176' \
	    'cmat	1	0	2	16' \
	    'msize	8	16	3	24' \
	    'msize	16	32	1	16' \
	    'msize	128	256	1	152')" ]
}

@test "imbalance: tr-record's buffer flushes (region tr.flush) are not compute" {
	# Rank 0 computes 100 ns between its calls and flushes its buffer
	# for 500 more, rank 1 computes 200: rank 1 is the slower. NWChem's
	# 2-rank SCF: 203 and 145 ms of compute, 55 and 57 ms of flushes,
	# reported as 258 and 202 ms, ratio 1.122 for 1.167.
	{
		hdr 2
		printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		ev 0 0 MPI_Init 0 100
		reg 0 1 enter tr.flush 150 0 0
		reg 0 2 leave tr.flush 650 400 0
		ev 0 3 MPI_Barrier 700 800
		ev 1 0 MPI_Init 0 100
		ev 1 1 MPI_Barrier 300 800
	} > "$T/flush.tr"
	run tr stat "$T/flush.tr"
	[ "$status" -eq 0 ]
	[ "$(grep '^imbal' <<<"$output")" = "$(printf 'imbal\t2\t100\t150\t200\t1.3333333333333333\t1')" ]
	# a flush before the rank's first call is before its first gap
	{
		hdr 1
		printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		reg 0 0 enter tr.flush 0 0 0
		reg 0 1 leave tr.flush 50 40 0
		ev 0 2 MPI_Init 60 100
		ev 0 3 MPI_Finalize 130 200
	} > "$T/first.tr"
	run tr stat "$T/first.tr"
	[ "$(grep '^imbal' <<<"$output")" = "$(printf 'imbal\t1\t30\t30\t30\t1\t0')" ]
	# a flush that ends without starting is refused at its line
	sed '/enter/d' "$T/flush.tr" > "$T/bad.tr"
	run tr stat "$T/bad.tr"
	fails_with 3 "bad.tr:6: rank 0 leaves region tr.flush that it is not in"
}

@test "-G: shards of a run; -m: merged, the whole run's byte for byte" {
	for r in 0 1 2 3 4; do
		tr gen -n 5 -i 4 -j 0.3 -P alltoall -r $r > "$T/r$r.tr"
	done
	tr stat -s "$T"/r[0-4].tr > "$T/whole"
	tr stat -s -G 0-2 "$T"/r[0-2].tr > "$T/a"
	tr stat -s -G 3-4 "$T"/r[3-4].tr > "$T/b"
	[ "$(grep -c '^imbal	1	' "$T/a")" -eq 3 ]
	cat "$T/a" "$T/b" | tr stat -m -s > "$T/m"
	cmp "$T/m" "$T/whole"
	grep -q '^imbal	5	' "$T/m"
	run tr stat -m "$T/whole"
	fails_with 3 "imbal of 5 ranks: shards merge the imbal of each rank"
	run tr stat -s -G 0-3 "$T"/r[0-2].tr
	fails_with 3 "rank 3 of the shard (-G 0-3) has no records"
}
