#!/usr/bin/env bats
# tr-bench: a real MPI program under mpirun; what it measures must be
# there, well formed and plausible, and usable by tr-model and
# tr-barrier-correct.

load helper

QUICK='-s 8:512 -b 100us -T 1'

bench() {
	local np=$1
	shift
	mpirun --oversubscribe --allow-run-as-root -np "$np" "$TR_BIN/tr-bench" "$@"
}

# One rank runs as an MPI singleton, without mpirun's start-up.
bench1() {
	"$TR_BIN/tr-bench" "$@"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	[ -x "$TR_BIN/tr-bench" ] || skip "no tr-bench"
}

@test "tr-bench: 2 ranks: timer, barrier, alpha and beta of every operation" {
	# Best of 3 trials (the last -T wins): with one, a point slowed by
	# another process made a line whose startup went below 0 (clamped
	# to 0) and failed this case once in a make check at load 6.
	bench 2 $QUICK -T 3 > b.tr
	tr cat b.tr > /dev/null
	grep -q '^#meta np=2$' b.tr
	grep -q '^#meta grid=1x2$' b.tr
	grep -q '^#meta timer.cost=[0-9][0-9]*$' b.tr
	grep -q '^#meta barrier.cost=[1-9][0-9]*$' b.tr
	[ "$(grep -c '^param	timer	world	2	' b.tr)" -eq 1 ]
	for op in MPI_Send MPI_Bcast MPI_Allreduce MPI_Allgather MPI_Alltoall MPI_Barrier; do
		# world and the row of a 1x2 grid; a column of one rank has none.
		[ "$(grep -c "^param	$op	world	2	" b.tr)" -eq 1 ]
		[ "$(grep -c "^param	$op	row	2	" b.tr)" -eq 1 ]
		! grep -q "^param	$op	col	" b.tr || false
	done
	# every rank reducing into its own at once: what tr-net(5)'s
	# reduce-bandwidth is
	[ "$(grep -c '^param	MPI_Reduce_local	world	2	' b.tr)" -eq 1 ]
	# the first two ranks exchanging both ways at once: what tr-net(5)'s
	# node-bandwidth comes from
	[ "$(grep -c '^param	MPI_Sendrecv	world	2	' b.tr)" -eq 1 ]
	# Sizes 8, 32, 128, 512 fitted: four points.
	[ "$(grep -c '	8	512	4	' b.tr)" -eq 12 ]
	# Plausible: positive startup, non-negative inverse bandwidth; a
	# local reduction may start at no measurable cost, but takes time
	# per byte.
	mawk -F '\t' '$1 == "param" && $2 != "MPI_Reduce_local" && ($5 <= 0 || $6 < 0) { bad = 1 }
	    $2 == "MPI_Reduce_local" && ($5 < 0 || $6 <= 0) { bad = 1 } END { exit bad }' b.tr
}

@test "tr-bench: 4 ranks oversubscribed: row and column communicators of a 2x2 grid" {
	bench 4 $QUICK -r > b4.tr
	grep -q '^#meta grid=2x2$' b4.tr
	for c in world row col; do
		grep -q "^param	MPI_Allreduce	$c	" b4.tr
	done
	grep -q '^param	MPI_Bcast	world	4	' b4.tr
	grep -q '^param	MPI_Bcast	col	2	' b4.tr
	grep -q '^param	MPI_Reduce_local	world	4	' b4.tr
	[ "$(grep -c '^benchpt	MPI_Reduce_local	world	4	' b4.tr)" -eq 4 ]
	[ "$(grep -c '^benchpt	MPI_Sendrecv	world	4	' b4.tr)" -eq 4 ]
	# -r: the raw points too, four sizes per operation and communicator.
	[ "$(grep -c '^benchpt	MPI_Alltoall	' b4.tr)" -eq 12 ]
	tr cat b4.tr > /dev/null
}

@test "tr-bench: its output feeds tr-model and tr-barrier-correct" {
	bench 2 $QUICK > b.tr
	printf 'phase x\ncompute = 0\nop MPI_Allreduce\ncalls = 10\nbytes = 8\n' > x.model
	run tr model -f x.model -P b.tr -N 1 -n 2
	[ "$status" -eq 0 ]
	a=$(mawk -F '\t' '$1 == "param" && $2 == "MPI_Allreduce" && $3 == "world" { printf "%.0f", 10 * $5 + 80 * $6 }' b.tr)
	c=$(grep '^phase	predicted	x	' <<<"$output" | cut -f7)
	[ "$(( c - a ))" -le 1 ]
	[ "$(( a - c ))" -le 1 ]
	RF=$(printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime')
	printf '#tr 1\n#meta np=2\n%s\n' "$RF" > t.tr
	for r in 0 1; do
		printf 'reg\t%s\t0\tenter\tp\t0\t-1\t0\nreg\t%s\t1\tleave\tp\t100000\t-1\t2\n' $r $r >> t.tr
	done
	run tr barrier-correct -P b.tr t.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	corrected	p	2	-1	' <<<"$output"
}

@test "tr-bench: its exchange both ways gives tr-nsim a node-bandwidth that replays it" {
	bench 2 -r -s 8:128KiB -b 200us -T 2 > b.tr
	# tr-net(5)'s recipe: 2 m / (t - alpha) at the largest size
	awk -F '\t' '$3 != "world" { next } $2 == "MPI_Send" && $1 == "param" { a = $5 }
	    $2 == "MPI_Sendrecv" && $1 == "benchpt" { m = $5; t = $6 }
	    END { if (t > a) printf "node-bandwidth %.0fB/s\n", 2 * m * 1e9 / (t - a) }' b.tr > node.net
	grep -q '^node-bandwidth [1-9][0-9]*B/s$' node.net
	awk -F '\t' '$1 == "param" && $2 == "MPI_Send" && $3 == "world" {
	    printf "ranks-per-node 2\neager-threshold 1MiB\nintra-latency %.0fns\nintra-bandwidth %.0fB/s\n", $5, 1e9 / $6 }' b.tr >> node.net
	# an exchange of the largest size (eager) replayed on it takes
	# alpha + 2 m / node-bandwidth, the time measured, or as one way,
	# alpha + m beta, if that is longer (the copies did not contend)
	t=$(awk -F '\t' '$1 == "param" && $2 == "MPI_Send" && $3 == "world" { a = $5; b = $6 }
	    $1 == "benchpt" && $2 == "MPI_Sendrecv" && $5 == 131072 { t = $6 }
	    END { printf "%.0f", t > a + 131072 * b ? t : a + 131072 * b }' b.tr)
	{ hdr 2; ev 0 0 MPI_Sendrecv 0 1 0 - 1 131072 0 0 0 1
	  ev 1 0 MPI_Sendrecv 0 1 0 - 0 131072 0 0 0 0; } > x.tr
	p=$(tr nsim -M node.net x.tr | awk -F '\t' '$1 == "simrun" { print $3 }')
	echo "replayed $p ns, measured or one way $t ns"
	[ "$p" -le $((t + 2)) ] && [ "$p" -ge $((t - 2)) ]
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 131072 0 0; ev 1 0 MPI_Recv 0 1 0 - 0 131072 0 0; } > o.tr
	q=$(tr nsim -M node.net o.tr | awk -F '\t' '$1 == "simrun" { print $3 }')
	[ "$p" -ge "$q" ]
}

@test "tr-bench: bad options" {
	run bench1 -q
	fails_with 2 "usage: tr-bench"
	run bench1 -s 512
	[ "$status" -eq 2 ]
	[[ "$output" == *"-s: '512': not lo:hi"* ]]
	run bench1 -s 8:1TB
	[ "$status" -eq 2 ]
	run bench1 -T 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"-T: '0': not an integer from 1 to 100"* ]]
}

@test "tr-bench: one rank measures the timer and its reduction rate, nothing that needs two" {
	bench1 -T 1 > one.tr
	grep -q '^param	timer	world	1	' one.tr
	grep -q '^param	MPI_Reduce_local	world	1	' one.tr
	[ "$(grep -c '^param' one.tr)" -eq 2 ]
}

# Its tr-model line named cg.model, which is pipelines/cg.model: run
# from the top directory (as tr-model(1)'s example), it found no model.
@test "tr-bench(1)'s example: the parameters model the CG example" {
	bench 2 $QUICK > p2.tr
	bench 4 $QUICK > p4.tr
	ln -s "$TOP/pipelines" pipelines
	cmd=$(man_examples tr-bench.1 | grep '^tr-model ')
	[ -n "$cmd" ]
	run sh -c "$cmd"
	[ "$status" -eq 0 ]
	# every phase and the sum, at 2 and 4 ranks
	[ "$(echo "$output" | grep -c '^phase	predicted	')" -eq 10 ]
	echo "$output" | grep -q '^phase	predicted	\*	4	960	[1-9]'
}
