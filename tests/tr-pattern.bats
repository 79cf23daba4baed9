#!/usr/bin/env bats
# tr-pattern: the peer function of each call site, from several scales.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# scales PATTERN NP...: tr-gen traces of PATTERN, one file per NP.
scales() {
	local p=$1 n
	shift
	for n in "$@"; do
		tr gen -P "$p" -n "$n" -i 3 -j 0.3 > "$p.$n.tr"
	done
}

# fn_trace P N EXPR: MPI_Send at site f+0x40 from every rank r to EXPR
# (awk, of r, P and i, with bxor(a, b)) for i = 1..N, twice, where it
# is a rank, after an MPI_Init.
fn_trace() {
	printf '#tr 1\n#meta np=%d\n%s\n' "$1" "$EVFIELDS"
	awk -v P="$1" -v N="$2" '
	function bxor(a, b,   x, m) {
		x = 0
		for (m = 1; a > 0 || b > 0; m *= 2) {
			if (a % 2 != b % 2) x += m
			a = int(a / 2); b = int(b / 2)
		}
		return x
	}
	BEGIN {
		for (r = 0; r < P; r++)
			print "ev\t" r "\t" s[r]++ "\tMPI_Init\t0\t5\t0\tf+0x10\t-1\t0\t-1\t0\t-1\t-1"
		for (it = 0; it < 2; it++)
			for (r = 0; r < P; r++)
				for (i = 1; i <= N; i++) {
					d = '"$3"'
					if (d < 0 || d >= P) continue
					k = s[r]++; print "ev\t" r "\t" k "\tMPI_Send\t" 10 * k "\t" 10 * k + 5 "\t0\tf+0x40\t" d "\t8\t1\t0\t-1\t-1"
				}
	}'
}

# peer OP SITE CLASS: the fn, arg, order, trips, scales, nps of that record.
peer() {
	awk -F'\t' -v o="$1" -v s="$2" -v c="$3" '$1=="peer" && $2==o && $3==s && $4==c {print $5, $6, $7, $8, $9, $10}' out
}

@test "tr-pattern: 26 neighbours of a 3-D stencil, one offset per site" {
	scales stencil27 8 27 64
	tr pattern stencil27.8.tr stencil27.27.tr stencil27.64.tr > out
	[ "$(grep -c '^peer	' out)" -eq 52 ]
	# the cell (0,0,0) of the 3x3x3 cube: the corner below on every axis
	[ "$(peer MPI_Isend stencil27+0x200 all)" = "grid 3d/open/(-1,-1,-1) fixed 1 3 8,27,64" ]
	[ "$(peer MPI_Irecv stencil27+0x21a all)" = "" ]
	[ "$(peer MPI_Irecv stencil27+0x11a all)" = "grid 3d/open/(+1,+1,+1) fixed 1 3 8,27,64" ]
	# every record explains every scale
	[ "$(awk -F'\t' '$1=="peer" && $9!=3' out)" = "" ]
}

@test "tr-pattern: faces of 2-D and 3-D stencils and a periodic ring" {
	scales stencil2d 4 9 16
	tr pattern stencil2d.*.tr > out
	[ "$(peer MPI_Isend stencil2d+0x203 all)" = "grid 2d/open/(+0,+1) fixed 1 3 4,9,16" ]
	scales ring 3 5 8
	tr pattern ring.*.tr > out
	[ "$(peer MPI_Sendrecv ring+0x100 all)" = "shift 1d/periodic/(+1) fixed 1 3 3,5,8" ]
}

@test "tr-pattern: recursive doubling, transposes and binomial trees" {
	scales butterfly 4 8 16
	tr pattern butterfly.*.tr > out
	[ "$(peer MPI_Sendrecv butterfly+0x100 all)" = "xor asc fixed log2(P) 3 4,8,16" ]
	# its trips: 2, 3 and 4 a cycle, three cycles at every scale
	[ "$(awk -F'\t' '$1 == "peer" { print $11, $12, $13 }' out)" = "3,3,3 world -" ]
	scales transpose 4 6 9
	tr pattern transpose.*.tr > out
	[ "$(peer MPI_Sendrecv transpose+0x100 all)" = "pairs +i fixed P-1 3 4,6,9" ]
	# its Sendrecvs receive from rank - i, with one tag
	[ "$(awk -F'\t' '$1 == "peer" { print $14, $15 }' out)" = "inverse kept" ]
	scales reduce 4 5 8
	tr pattern reduce.*.tr > out
	[ "$(peer MPI_Send reduce+0x100 all)" = "xorbit set/asc fixed log2(P) 3 4,5,8" ]
	[ "$(peer MPI_Recv reduce+0x200 all)" = "xorbit clear/asc fixed log2(P) 3 4,5,8" ]
	scales tree 5 8 13
	tr pattern tree.*.tr > out
	[ "$(peer MPI_Recv tree+0x100 all)" = "parent - fixed 1 3 5,8,13" ]
	[ "$(peer MPI_Send tree+0x200 all)" = "children asc fixed log2(P) 3 5,8,13" ]
}

@test "tr-pattern: FFTW's transposes, pairwise exchanges with every other rank in an order of their own" {
	local P
	for P in 4 5 8; do tr gen -P pairwise -n $P -i 2 > t$P.tr; done
	tr pattern t4.tr t5.tr t8.tr > out
	[ "$(peer MPI_Sendrecv pairwise+0x100 all)" = "others - any P-1 3 4,5,8" ]
	# each receives from the rank it sends to, tagged sender * P + receiver
	[ "$(awk -F'\t' '$1 == "peer" { print $14, $15 }' out)" = "peer sP+r" ]
	# one tag that is no function of the pair is the template's to keep
	awk -F'\t' 'BEGIN { OFS = "\t" } $4 == "MPI_Sendrecv" { $11 = $13 = 5 } { print }' t8.tr > k8.tr
	tr pattern t4.tr t5.tr k8.tr > out
	[ "$(awk -F'\t' '$1 == "peer" { print $14, $15 }' out)" = "peer kept" ]
}

@test "tr-pattern: a real MPB run's FFTW transposes" {
	command -v mpb-mpi > /dev/null || skip "mpb-mpi not installed"
	local P
	cp "$TOP/examples/inputs/rods.ctl" .
	for P in 2 4; do
		mpirun --oversubscribe --allow-run-as-root -np $P "$TR_BIN/tr-record" \
			-o m$P mpb-mpi rods.ctl > m$P.out 2>&1
		tr cat -m m$P/rank.*.tr.gz > m$P.tr
	done
	tr pattern m2.tr m4.tr > out
	[ "$(awk -F'\t' '$1 == "peer" { print $2, $5, $6, $7, $8, $9, $10, $14, $15 }' out)" = \
	    "MPI_Sendrecv others - any P-1 2 2,4 peer sP+r" ]
}

@test "tr-pattern: master/worker, the master's receives in arrival order" {
	scales master 3 5 9
	tr pattern master.*.tr > out
	[ "$(peer MPI_Send master+0x100 0)" = "others - fixed P-1 3 3,5,9" ]
	[ "$(peer MPI_Send master+0x100 rest)" = "none - fixed 0 0 -" ]
	[ "$(peer MPI_Recv master+0x200 all)" = "root 0 fixed 1 3 3,5,9" ]
	[ "$(peer MPI_Send master+0x300 all)" = "root 0 fixed 1 3 3,5,9" ]
	# noise reorders the arrivals: any order within a round
	[ "$(peer MPI_Recv master+0x400 0)" = "others - any P-1 3 3,5,9" ]
}

@test "tr-pattern: rank+-P/2, rank+-sqrt(P), rank^i, rank^2^k downwards, root P-1" {
	# +-1 and +-sqrt(P) on ranks in a line: no 2-D grid, which wraps rows
	for P in 4 16 64; do fn_trace $P 4 'i == 1 ? r + 1 : i == 2 ? r - 1 : i == 3 ? r + sqrt(P) : r - sqrt(P)' > q$P.tr; done
	tr pattern q4.tr q16.tr q64.tr > out
	[ "$(peer MPI_Send f+0x40 all)" = "shift 1d/open/(+1)(-1)(+1sqrtP)(-1sqrtP) fixed 4 3 4,16,64" ]
	# 12 ranks make a 4x3 grid, on which P/2 is no neighbour
	for P in 6 12 20; do fn_trace $P 1 '(r + P / 2) % P' > h$P.tr; done
	tr pattern h6.tr h12.tr h20.tr > out
	[ "$(peer MPI_Send f+0x40 all)" = "shift 1d/periodic/(+1P/2) fixed 1 3 6,12,20" ]
	for P in 4 8; do fn_trace $P $((P - 1)) 'bxor(r, i)' > x$P.tr; done
	tr pattern x4.tr x8.tr > out
	[ "$(peer MPI_Send f+0x40 all)" = "xorpairs - fixed P-1 2 4,8" ]
	for P in 4 8 16; do fn_trace $P $(awk -v P=$P 'BEGIN{print log(P)/log(2)}') 'bxor(r, 2 ^ (log(P) / log(2) - i))' > d$P.tr; done
	tr pattern d4.tr d8.tr d16.tr > out
	[ "$(peer MPI_Send f+0x40 all)" = "xor desc fixed log2(P) 3 4,8,16" ]
	for P in 3 7; do fn_trace $P 1 'r == P - 1 ? -1 : P - 1' > l$P.tr; done
	tr pattern l3.tr l7.tr > out
	[ "$(peer MPI_Send f+0x40 all)" = "root P-1 fixed 1 2 3,7" ]
}

@test "tr-pattern: a scale of one rank is no obstacle, and is not counted" {
	tr gen -P stencil2d -n 1 -i 3 > one.tr
	scales stencil2d 4 9
	tr pattern one.tr stencil2d.4.tr stencil2d.9.tr > out
	[ "$(peer MPI_Isend stencil2d+0x203 all)" = "grid 2d/open/(+0,+1) fixed 1 2 4,9" ]
}

@test "tr-pattern: the same inputs give the same bytes, gzip or not" {
	scales tree 5 8 13
	tr pattern tree.5.tr tree.8.tr tree.13.tr > a
	gzip tree.8.tr
	tr pattern tree.5.tr tree.8.tr.gz tree.13.tr > b
	cmp a b
	grep -q '^#meta tool=tr-pattern ' a
	# -p: the trace too, as read
	tr pattern -p tree.5.tr > c
	diff <(grep '^ev	' c) <(grep '^ev	' tree.5.tr)
}

@test "tr-pattern: refuses a site no function explains, naming what it saw" {
	for P in 6 10; do fn_trace $P 1 '(r * r + 3) % P' > m$P.tr; done
	run stderr_of tr pattern m6.tr m10.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-pattern: m6.tr, m10.tr: MPI_Send at f+0x40: no peer function of (rank, P) explains its peers (np=6: 0>3 0>3 1>4 1>4 ...; np=10: 0>3 0>3 1>4 1>4 ...); tried for all ranks, rank 0 apart and rank P-1 apart: grid offsets in 1 to 3 dimensions"* ]]
	[[ "$output" == *"butterfly rank^2^k, its levels by the rank's bit, all-pairs (rank+-i) mod P, rank^i, every other rank, roots 0 and P-1, binomial parent and children" ]]
}

@test "tr-pattern: a binomial tree within column communicators, in their ranks; one it does not explain is refused" {
	for n in 8 16 32; do colbcast $n > b$n.tr; done
	tr pattern b8.tr b16.tr b32.tr > out
	[ "$(grep -c '^peer	' out)" -eq 2 ]
	# the columns of 4, 4 and 8: the tree's children in descending
	# order, log2 of the column's size, named by its communicator
	[ "$(peer MPI_Send cb+0x40 all)" = "children desc fixed log2(P) 3 8,16,32" ]
	[ "$(peer MPI_Recv cb+0x30 all)" = "parent - fixed 1 3 8,16,32" ]
	[ "$(awk -F'\t' '$1 == "peer" { print $11, $12, $13 }' out | sort -u)" = "4,4,4 2 4,4,8" ]
	# the comm records pass through
	[ "$(grep -c '^comm	' out)" -eq 56 ]
	for n in 8 16 32; do colbcast $n 1 > o$n.tr; done
	run stderr_of tr pattern o8.tr o16.tr o32.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-pattern: o8.tr, o16.tr, o32.tr: MPI_Send at cb+0x40: no peer function of (rank, P) explains its peers (np=8: on communicator 2 of 4, its ranks 0>3 0>2 0>1 0>2 ...; np=16: on communicator 2 of 4, its ranks 0>3 "*"; np=32: on communicator 2 of 8, its ranks 0>7 0>4 0>2 0>1 ...); tried for all ranks"* ]]
	# without the comm records the members are unknown: said, not modelled
	for n in 8 16 32; do grep -v '^comm' b$n.tr > u$n.tr; done
	run stderr_of tr pattern u8.tr u16.tr u32.tr
	[ "$status" -eq 0 ]
	[[ "$output" == "tr-pattern: "*" point-to-point calls on communicators other than MPI_COMM_WORLD and its copies in rank order, whose peers are not modelled" ]]
	[ "$(tr pattern u8.tr u16.tr u32.tr 2> /dev/null | grep -c '^peer	')" -eq 0 ]
}

@test "tr-pattern: a stencil seen at one scale on one grid, at another on none, is refused" {
	tr gen -P stencil2d -n 9 -i 2 > a.tr
	# the ring's sends stand at np 8 where the stencil has none
	tr gen -P ring -n 8 -i 2 | sed 's/ring+0x100/stencil2d+0x201/; s/MPI_Sendrecv/MPI_Isend/' > c.tr
	run tr pattern a.tr c.tr
	fails_with 3 "MPI_Isend at stencil2d+0x201"
	[[ "$output" == *"np=9: 0>3 0>3 1>4 1>4 ...; np=8: 0>1 0>1 1>2 1>2 ..."* ]]
}

@test "tr-pattern: bad input and usage" {
	printf '#tr 1\n%s\nev\t0\t0\tMPI_Send\t1\t2\t0\ts\t1\t8\t1\t0\t-1\t-1\n' "$EVFIELDS" > nonp.tr
	run tr pattern nonp.tr
	fails_with 3 "nonp.tr:3: no np in the header"
	run tr pattern -x
	[ "$status" -eq 2 ]
	run tr pattern -h
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: tr-pattern"* ]]
}

@test "tr-pattern: the page's example" {
	man_examples tr-pattern.1 > ex.sh
	[ -s ex.sh ]
	PATH=$TR_BIN:$PATH sh ex.sh > out
	[ "$(grep -c '^peer	' out)" -eq 52 ]
}

@test "tr-pattern: the recorded 2-D stencil, on its Cartesian communicator" {
	for np in 4 9; do
		mpirun --oversubscribe --allow-run-as-root -np $np \
			"$TR_BIN/tr-record" -o s$np "$TR_MPIBIN/stencil" 32 3 p \
			>/dev/null 2>&1
	done
	tr pattern s4/* s9/* > out 2> err
	# 4 Irecv and 4 Isend sites, one offset each, on the periodic grid
	[ "$(awk -F'\t' '$1 == "peer"' out | wc -l)" -eq 8 ]
	[ "$(awk -F'\t' '$1 == "peer" {print $4, $5, $7, $8, $9, $10}' out | sort -u)" = "all grid fixed 1 2 4,9" ]
	[ "$(awk -F'\t' '$1 == "peer" {print $6}' out | sort | paste -sd' ')" = "2d/periodic/(+0,+1) 2d/periodic/(+0,+1) 2d/periodic/(+0,-1) 2d/periodic/(+0,-1) 2d/periodic/(+1,+0) 2d/periodic/(+1,+0) 2d/periodic/(-1,+0) 2d/periodic/(-1,+0)" ]
	[ ! -s err ]
}

@test "tr-pattern: the recorded example's doubling, transpose, tree and 27-point halo" {
	for np in 4 8 27; do
		mpirun --oversubscribe --allow-run-as-root -np $np \
			"$TR_BIN/tr-record" -o p$np "$TR_MPIBIN/peers" 2 \
			>/dev/null 2>&1
	done
	tr pattern p4/* p8/* p27/* > out
	f() { awk -F'\t' -v o=$1 '$1 == "peer" && $2 == o {print $5, $6, $7, $8, $9, $10, $11}' out; }
	# recursive doubling runs on 4 and 8 ranks only (at 8 alone it is
	# also a periodic 2x2x2 grid)
	[ "$(f MPI_Sendrecv | sort)" = "pairs +i fixed P-1 3 4,8,27 2,2,2
xor asc fixed log2(P) 2 4,8 2,2" ]
	[ "$(f MPI_Recv)" = "parent - fixed 1 3 4,8,27 2,2,2" ]
	[ "$(f MPI_Send)" = "children asc fixed log2(P) 3 4,8,27 2,2,2" ]
	# one call site each for the 26 neighbours, in the loop's order
	f MPI_Isend > isend
	[ "$(cut -d' ' -f1,3- isend)" = "grid fixed 26 3 4,8,27 2,2,2" ]
	[[ "$(cut -d' ' -f2 isend)" == "3d/open/(-1,-1,-1)(-1,-1,+0)(-1,-1,+1)(-1,+0,-1)"*"(+1,+1,+0)(+1,+1,+1)" ]]
	[ "$(f MPI_Irecv | cut -d' ' -f1,3-)" = "grid fixed 26 3 4,8,27 2,2,2" ]
}
