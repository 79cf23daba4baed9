#!/usr/bin/env bats
# tr-gen: deterministic synthetic traces.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "tr-gen: every pattern gives a trace that tr-cat accepts" {
	for p in ring stencil1d stencil2d stencil3d alltoall master; do
		tr gen -P $p -n 12 -i 4 -j 0.2 -R 7 > t
		tr cat t > /dev/null
	done
}

@test "tr-gen: same seed, same trace; other seed, other trace" {
	tr gen -n 8 -i 5 -j 0.2 -R 3 > a
	tr gen -n 8 -i 5 -j 0.2 -R 3 > b
	tr gen -n 8 -i 5 -j 0.2 -R 4 > c
	cmp a b
	! cmp -s a c || false
}

@test "tr-gen: the 2-D stencil has the right neighbours and counts" {
	tr gen -P stencil2d -n 6 -i 3 > t
	grep -q '^#meta gen.dims=3x2$' t
	# rank 0 at (0,0) of a 3x2 grid has neighbours 2 (below) and 1 (right)
	[ "$(awk -F'\t' '$1=="ev" && $2==0 && $4=="MPI_Isend" {print $9}' t | sort -u | paste -sd,)" = "1,2" ]
	# interior-free 3x2 grid: 7 neighbour pairs, 14 messages per iteration
	[ "$(grep -c $'\tMPI_Isend\t' t)" -eq 42 ]
	[ "$(grep -c $'\tMPI_Irecv\t' t)" -eq 42 ]
	[ "$(grep -c $'\tMPI_Allreduce\t' t)" -eq 18 ]
}

@test "tr-gen: sends and receives match in count and bytes" {
	tr gen -P stencil3d -n 27 -i 2 -b 4096 > t
	s=$(awk -F'\t' '$4=="MPI_Isend" {n++; b+=$10} END {print n, b}' t)
	r=$(awk -F'\t' '$4=="MPI_Irecv" {n++; b+=$10} END {print n, b}' t)
	[ "$s" = "$r" ]
}

@test "tr-gen: a slow rank delays the allreduce for everybody" {
	tr gen -P stencil1d -n 4 -i 1 -c 1ms -S 2:5 > t
	# rank 2 computes 5 ms, the others 1 ms: all leave the allreduce after 5 ms
	awk -F'\t' '$4=="MPI_Allreduce" {print $6}' t | sort -u > ends
	[ "$(wc -l < ends)" -eq 1 ]
	first=$(awk -F'\t' '$4=="MPI_Init" && $2==0 {print $6}' t)
	[ $(( $(cat ends) - first )) -gt 5000000 ]
	[ "$(awk -F'\t' '$1=="ev" && $2==2 && $7>0 {print $7; exit}' t)" -eq 5000000 ]
}

@test "tr-gen: master/worker receives are attributed to the real source" {
	tr gen -P master -n 5 -i 2 -j 0.5 > t
	[ "$(awk -F'\t' '$2==0 && $4=="MPI_Recv" {print $9}' t | sort -n | uniq -c | awk '{print $1}' | sort -u)" = 2 ]
}

@test "tr-gen -r: one rank's events, the same as in the whole trace" {
	tr gen -n 9 -i 3 -j 0.3 > all
	tr gen -n 9 -i 3 -j 0.3 -r 4 > one
	diff <(grep $'^ev\t4\t' all) <(grep '^ev' one)
}

@test "tr-gen: bad options" {
	run tr gen -P nosuch
	fails_with 2 "tr-gen: -P: 'nosuch': not one of ring, stencil1d, stencil2d, stencil3d, alltoall, master"
	run tr gen -n 0
	fails_with 2 "tr-gen: -n: '0': not an integer from 1 to 4194304"
	run tr gen -n 4 -r 4
	fails_with 2 "usage: tr-gen"
	run tr gen -c 5parsecs
	fails_with 2 "tr-gen: -c: '5parsecs': not a duration of 0 or more"
}

@test "tr-gen -b: size units as people type them, 4k 4096 and 4kB 4000" {
	[ "$(tr gen -P ring -n 2 -i 1 -b 4k)" = "$(tr gen -P ring -n 2 -i 1 -b 4096)" ]
	[ "$(tr gen -P ring -n 2 -i 1 -b 4kB)" = "$(tr gen -P ring -n 2 -i 1 -b 4000)" ]
	[ "$(tr gen -P ring -n 2 -i 1 -b 1m)" = "$(tr gen -P ring -n 2 -i 1 -b 1MiB)" ]
	tr gen -P ring -n 2 -i 1 -b 4k | grep -q "$(printf '\t4096\t')"
}

@test "tr-gen: options that would overflow the times, or are not numbers, are usage errors" {
	for o in "-c 1e18" "-L 1e18" "-c 100s -i 1073741824" "-B 1e-300"; do
		run stderr_of tr gen -P ring $o
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == *"the run would last over 2^62 ns"* || "$output" == *"-B: '1e-300': not a number of 1 or more"* ]]
	done
	run stderr_of tr gen -P ring -j nan
	[ "$status" -eq 2 ]
	[ "$output" = "tr-gen: -j: 'nan': not a number from 0 to 1" ]
	run stderr_of tr gen -P ring -S 1:inf
	[ "$status" -eq 2 ]
	[ "$output" = "tr-gen: -S: '1:inf': the factor is not above 0 and at most 1e6" ]
	run stderr_of tr gen -P ring -b 2000GiB
	[ "$status" -eq 2 ]
	[ "$output" = "tr-gen: -b: '2000GiB': not a size from 0 to 1024GiB" ]
	# the largest that fit still work
	tr gen -P ring -n 2 -i 1 -c 1000s -j 1 -S 1:1000 | tr cat > /dev/null
}

@test "tr-gen: 26-point stencil, butterfly, transpose, tree, pairwise and reduce replay whole" {
	for p in stencil27:27 butterfly:8 transpose:6 tree:11 pairwise:7 reduce:11; do
		tr gen -P ${p%:*} -n ${p#*:} -i 3 -j 0.2 > t
		s=$(awk -F'\t' '$4=="MPI_Isend" || $4=="MPI_Send" || $4=="MPI_Sendrecv" {n++; b+=$10} END {print n, b}' t)
		r=$(awk -F'\t' '$4=="MPI_Irecv" || $4=="MPI_Recv" || $4=="MPI_Sendrecv" {n++; b+=$10} END {print n, b}' t)
		[ "$s" = "$r" ]
		tr nsim t | grep -q "^simrun	${p#*:}	"
	done
	# rank 13, the centre of 3x3x3, sends to all 26 others
	tr gen -P stencil27 -n 27 -i 1 > t
	[ "$(awk -F'\t' '$2==13 && $4=="MPI_Isend" {print $9}' t | sort -u | wc -l)" -eq 26 ]
	run tr gen -P butterfly -n 6
	fails_with 2 "-P butterfly: -n 6 is not a power of 2"
	# pairwise: each rank exchanges with each other once an iteration,
	# receiving from the rank it sends to, tagged sender * 7 + receiver
	tr gen -P pairwise -n 7 -i 2 > t
	[ "$(awk -F'\t' '$4 == "MPI_Sendrecv" { n[$2 " " $9]++; b += $9 != $14 || $11 != $2 * 7 + $9 || $13 != $9 * 7 + $2 }
	    END { for (k in n) c += n[k] != 2; print length(n), b + 0, c + 0 }' t)" = "42 0 0" ]
	# rank 0 meets 2 first: the circle method's second round
	[ "$(awk -F'\t' '$4 == "MPI_Sendrecv" && $2 == 0 { print $9 }' t | head -6 | paste -sd ' ')" = "2 4 6 1 3 5" ]
	# reduce: rank 6 (110) of 11 receives from 7 at level 0, sends to 4
	# and 2 at levels 1 and 2, and has no rank 14 to receive from at 3;
	# rank 0 receives from 1, 2, 4 and 8
	tr gen -P reduce -n 11 -i 1 > t
	[ "$(awk -F'\t' '$2 == 6 && $4 ~ /^MPI_(Send|Recv)$/ { print $4, $9 }' t | paste -sd ,)" = "MPI_Recv 7,MPI_Send 4,MPI_Send 2" ]
	[ "$(awk -F'\t' '$2 == 0 && $4 == "MPI_Recv" { print $9 }' t | paste -sd ' ')" = "1 2 4 8" ]
}

@test "tr-gen: grid2d splits a p x q grid into rows and columns, a Bcast along each row, an Allreduce along each column" {
	tr gen -P grid2d -n 12 -i 3 -j 0.2 > t
	grep -q '^#meta gen.dims=4x3$' t
	# rank r's row is r/3's 3 ranks, its column r%3's 4 ranks
	[ "$(grep -c '^comm' t)" -eq 24 ]
	[ "$(awk -F'\t' '$1 == "comm" && $3 == 2 && $5 != (int($2 / 3) * 3) "-" (int($2 / 3) * 3 + 2) { bad++ }
	    $1 == "comm" && $3 == 3 && $5 != ($2 % 3) "-" ($2 % 3 + 9) ":3" { bad++ } END { print bad + 0 }' t)" -eq 0 ]
	# 3 Bcasts per rank on its row, from the row's first rank, 3 Allreduces on its column
	[ "$(awk -F'\t' '$4 == "MPI_Bcast" && $12 == 2 && $14 == int($2 / 3) * 3 { n++ } END { print n }' t)" -eq 36 ]
	[ "$(awk -F'\t' '$4 == "MPI_Allreduce" && $12 == 3 { n++ } END { print n }' t)" -eq 36 ]
	tr nsim t | grep -q '^simrun	12	'
	# one rank's records and comm records alone
	tr gen -P grid2d -n 12 -i 3 -r 4 > r4
	[ "$(grep -c '^comm	4	' r4)" -eq 2 ] && [ "$(grep -c '^comm' r4)" -eq 2 ]
	# 1 rank: rows and columns of itself
	tr gen -P grid2d -n 1 -i 1 | grep -q '^comm	0	3	1	0$'
}
