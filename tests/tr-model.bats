#!/usr/bin/env bats
# tr-model: predictions from a phase model and tr-bench parameters,
# comparison with measured phases, bad models and inputs, and the
# worked example (pipelines/phases.mk) on the real CG solver.

load helper

PF=$(printf '#fields\tparam\top\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\terr')
PH=$(printf '#fields\tphase\twhat\tname\tnp\tN\tcompute\tcomm\ttotal\ttimers\tbarriers')

setup() {
	cd "$BATS_TEST_TMPDIR"
	{
		printf '#tr 1\n#meta np=8\n%s\n' "$PF"
		printf 'param\tMPI_Allreduce\tworld\t2\t1000\t0.5\t8\t65536\t5\t0.1\n'
		printf 'param\tMPI_Allreduce\tworld\t8\t4000\t1\t8\t65536\t5\t0.1\n'
		printf 'param\tMPI_Allgather\trow\t2\t2000\t0.25\t8\t65536\t5\t0.1\n'
		printf 'param\tMPI_Send\tworld\t2\t3000\t0.125\t8\t65536\t5\t0.1\n'
	} > p.tr
	cat > m.model <<-'EOF'
	# two phases
	set iters = 10
	phase a
	    compute = iters * N / P * 1ns   # a comment
	    op MPI_Allreduce
	        calls = iters
	        bytes = 8
	phase b
	    compute = 5us
	    op MPI_Allgather row
	        calls = 2
	        volume = 4KB
	    op MPI_Isend
	        calls = 1
	        bytes = 80
	EOF
}

@test "tr-model: alpha*calls + beta*volume per op, compute from the expression, exact" {
	run tr model -f m.model -P p.tr -N 100 -n 2
	[ "$status" -eq 0 ]
	[ "$(grep -c '^#fields	phase' <<<"$output")" -eq 1 ]
	[ "$(grep '^phase' <<<"$output")" = "$(printf '%s\n' \
		'phase	predicted	a	2	100	500	10040	10540	-1	-1' \
		'phase	predicted	b	2	100	5000	8010	13010	-1	-1' \
		'phase	predicted	*	2	100	5500	18050	23550	-1	-1')" ]
	tr model -f m.model -P p.tr -N 100 -n 2 | tr cat > /dev/null
}

@test "tr-model: several N and P; between measured sizes, interpolated in log2(size)" {
	sed -n '1,/^phase b/p' m.model | sed '$d' > a.model
	run tr model -f a.model -P p.tr -N 100,200 -n 2,4
	[ "$status" -eq 0 ]
	[ "$(grep -c '^phase	predicted	a' <<<"$output")" -eq 4 ]
	# P=4: alpha 2500, beta 0.75 (halfway from 2 to 8 in log2).
	grep -q '^phase	predicted	a	4	100	250	25060	25310	' <<<"$output"
	grep -q '^phase	predicted	a	2	200	1000	10040	11040	' <<<"$output"
}

@test "tr-model: -D overrides a set of the model" {
	run tr model -f m.model -P p.tr -N 100 -n 2 -D iters=20
	[ "$status" -eq 0 ]
	grep -q '^phase	predicted	a	2	100	1000	20080	21080	' <<<"$output"
}

@test "tr-model: a gzip model reads as the plain one" {
	tr model -f m.model -P p.tr -N 100 -n 2 > plain.out
	gzip -c m.model > m.model.gz
	run tr model -f m.model.gz -P p.tr -N 100 -n 2
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat plain.out)" ]
	# errors still name the file and line
	printf 'phase x\ncompute = 1 +\n' | gzip -c > b.model.gz
	run stderr_of tr model -f b.model.gz -N 1 -n 1
	[ "$status" -eq 3 ]
	[ "$output" = "tr-model: b.model.gz:2: compute: col 14: expression ends too soon at the end of '1 +'" ]
	run stderr_of tr model -f nosuch.model -N 1 -n 1
	[ "$status" -eq 4 ]
	[ "$output" = "tr-model: nosuch.model: No such file or directory" ]
}

@test "tr-model: a prediction past 64-bit ns is an error naming the line, N and P" {
	run stderr_of tr model -f m.model -P p.tr -N 100 -n 2 -D iters=1e18
	[ "$status" -eq 3 ]
	[ "$output" = "tr-model: m.model:3: phase a: predicted time out of range (1.054e+21 ns) at N=100 P=2" ]
	run stderr_of tr model -f m.model -P p.tr -N 100 -n 2 -D iters=1/0
	[ "$status" -eq 2 ]
	[ "$output" = "tr-model: -D iters=1/0: not a constant number" ]
}

@test "tr-model: compares with measured phases, per part, and passes input through" {
	{
		printf '#tr 1\n#meta np=2\n%s\n' "$PH"
		printf 'phase\tmeasured\ta\t2\t100\t400\t12000\t12400\t2\t1\n'
		printf 'phase\tcorrected\ta\t2\t100\t250\t10040\t10290\t2\t1\n'
		printf 'phase\tcorrected\tb\t2\t100\t5000\t0\t5000\t0\t0\n'
		printf 'phase\tcorrected\t*\t2\t100\t5250\t10040\t15290\t2\t1\n'
	} > meas.tr
	run tr model -f m.model -P p.tr meas.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^phase	corrected' <<<"$output")" -eq 3 ]
	[ "$(grep '^phasecmp' <<<"$output")" = "$(printf '%s\n' \
		'phasecmp	a	2	100	compute	250	500	100' \
		'phasecmp	a	2	100	comm	10040	10040	0' \
		'phasecmp	a	2	100	total	10290	10540	2.43' \
		'phasecmp	b	2	100	compute	5000	5000	0' \
		'phasecmp	b	2	100	total	5000	13010	160.2' \
		'phasecmp	*	2	100	compute	5250	5500	4.76' \
		'phasecmp	*	2	100	comm	10040	18050	79.78' \
		'phasecmp	*	2	100	total	15290	23550	54.02')" ]
	# -W measured compares the raw measurement instead.
	run tr model -f m.model -P p.tr -W measured -i meas.tr
	[ "$status" -eq 0 ]
	grep -q '^phasecmp	a	2	100	compute	400	500	25$' <<<"$output"
}

@test "tr-model: compute measured takes the measured compute" {
	sed 's/compute = 5us/compute measured/' m.model > mm.model
	printf '#tr 1\n%s\nphase\tcorrected\ta\t2\t100\t1\t2\t3\t0\t0\nphase\tcorrected\tb\t2\t100\t777\t0\t777\t0\t0\n' "$PH" > meas.tr
	run tr model -f mm.model -P p.tr meas.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	predicted	b	2	100	777	8010	8787	' <<<"$output"
	run tr model -f mm.model -P p.tr -N 100 -n 2
	fails_with 3 "phase b: compute measured, but no measurement at N=100 P=2"
}

@test "tr-model: phases the measurement lacks, and the reverse, are errors (-i: warnings)" {
	printf '#tr 1\n%s\nphase\tcorrected\ta\t2\t100\t1\t2\t3\t0\t0\n' "$PH" > lack.tr
	run stderr_of tr model -f m.model -P p.tr lack.tr
	fails_with 3 "tr-model: lack.tr:3: phase b of the model is not in the measurement at np=2 N=100"
	[ "${#lines[@]}" -eq 1 ]
	printf '#tr 1\n%s\nphase\tcorrected\ta\t2\t100\t1\t2\t3\t0\t0\nphase\tcorrected\tb\t2\t100\t1\t2\t3\t0\t0\nphase\tcorrected\tc\t2\t100\t1\t2\t3\t0\t0\n' "$PH" > extra.tr
	run stderr_of tr model -f m.model -P p.tr extra.tr
	fails_with 3 "tr-model: extra.tr:5: measured phase c (np=2 N=100) is not in the model m.model"
	[ "${#lines[@]}" -eq 1 ]
	run tr model -i -f m.model -P p.tr extra.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning"* || "$output" == *"measured phase c"* ]]
	grep -q '^phasecmp	a	' <<<"$output"
}

@test "tr-model: missing parameters, and sizes outside the measured ones" {
	run tr model -f m.model -N 100 -n 2
	fails_with 3 "no parameters for MPI_Allreduce: give tr-bench's output with -P"
	run tr model -f m.model -P p.tr -N 100 -n 16
	fails_with 3 "parameters of MPI_Allreduce cover communicators of 2 to 8 ranks, not 16"
	grep -v Alltoall p.tr > q.tr
	printf 'phase x\ncompute = 0\nop MPI_Alltoall\ncalls = 1\nbytes = 8\n' > x.model
	run tr model -f x.model -P q.tr -N 100 -n 2
	fails_with 3 "x.model:3: phase x: no parameters for MPI_Alltoall"
	# An operation tr-bench never measures: no hint to run it, but how
	# to give its parameters; given, they are used.
	printf 'phase y\ncompute = 0\nop MPI_Reduce\ncalls = 1\nbytes = 8\n' > y.model
	run tr model -f y.model -P p.tr -N 100 -n 2
	fails_with 3 "y.model:3: phase y: no parameters for MPI_Reduce: tr-bench does not measure it; give param records for it"
	[[ "$output" != *"run tr-bench"* ]]
	run tr model -f y.model -N 100 -n 2
	fails_with 3 "no parameters for MPI_Reduce: tr-bench does not measure it"
	{ cat p.tr; printf 'param\tMPI_Reduce\tworld\t2\t500\t1\t8\t8\t1\t0\n'; } > r.tr
	run tr model -f y.model -P r.tr -N 100 -n 2
	[ "$status" -eq 0 ]
	# 500 ns + 8 B x 1 ns/B
	grep -q '^phase	predicted	y	2	100	0	508	508	' <<<"$output"
	# One rank: no communication, no parameter needed.
	run tr model -f x.model -N 100 -n 1
	[ "$status" -eq 0 ]
	grep -q '^phase	predicted	x	1	100	0	0	0	' <<<"$output"
}

@test "tr-model: unit mix-ups in the model and in the parameters" {
	printf 'phase x\ncompute = 8KB * N\n' > u1.model
	run tr model -f u1.model -N 1 -n 1
	fails_with 3 "u1.model:2: compute is a time (ns) but '8KB * N' has a size unit"
	printf 'phase x\ncompute = 0\nop MPI_Bcast\ncalls = 1\nbytes = 2us\n' > u2.model
	run tr model -f u2.model -N 1 -n 1
	fails_with 3 "u2.model:5: bytes of MPI_Bcast is bytes but '2us' has a time unit"
	printf 'phase x\ncompute = 0\nop MPI_Bcast\ncalls = 3KB\nbytes = 8\n' > u3.model
	run tr model -f u3.model -N 1 -n 1
	fails_with 3 "calls of MPI_Bcast is a count: it takes no unit"
	printf '#tr 1\n%s\nparam\tMPI_Bcast\tworld\t2\t0.000004\t0\t8\t8\t1\t0\n' "$PF" > sec.tr
	printf 'phase x\ncompute = 0\n' > ok.model
	run tr model -f ok.model -P sec.tr -N 1 -n 1
	fails_with 3 "seconds given where ns are expected?"
}

@test "tr-model: bad models name the line" {
	printf 'phase x\ncompute = N +* 2\n' > b1.model
	run tr model -f b1.model -N 1 -n 1
	# One line: the column in the line and the text there.
	[ "$status" -eq 3 ]
	[ "$output" = "tr-model: b1.model:2: compute: col 14: expected a value, got '*' near '* 2'" ]
	printf 'phase x\n  compute = 1 +\n' > b0.model
	run tr model -f b0.model -N 1 -n 1
	[ "$status" -eq 3 ]
	[ "$output" = "tr-model: b0.model:2: compute: col 16: expression ends too soon at the end of '1 +'" ]
	run tr model -f b0.model -N 1 -n 1 -D 'k=(1'
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "tr-model: -D k=(1: col 5: "* ]]
	printf 'phase x\ncompute = Q\n' > b2.model
	run tr model -f b2.model -N 1 -n 1
	[ "$status" -eq 3 ]
	printf 'phase x\nop MPI_Bcast\ncalls = 1\nbytes = 8\n' > b3.model
	run tr model -f b3.model -N 1 -n 1
	fails_with 3 "phase x has no compute line"
	printf 'phase x\ncompute = 1\nphase x\ncompute = 2\n' > b4.model
	run tr model -f b4.model -N 1 -n 1
	fails_with 3 "b4.model:3: phase x is defined twice"
	printf 'phase x\ncompute = 1\nop MPI_Bcast\nbytes = 8\n' > b5.model
	run tr model -f b5.model -N 1 -n 1
	fails_with 3 "MPI_Bcast in phase x has no calls line"
	printf 'phase x\ncompute = 1\nfrobnicate 3\n' > b6.model
	run tr model -f b6.model -N 1 -n 1
	fails_with 3 "b6.model:3: unknown keyword 'frobnicate'"
	printf 'phase x\ncompute = N - 5\n' > b7.model
	run tr model -f b7.model -N 1 -n 1
	fails_with 3 "b7.model:2: compute of phase x is negative at N=1 P=1"
	printf '# nothing\n' > b8.model
	run tr model -f b8.model -N 1 -n 1
	fails_with 3 "no phase in the model"
	run tr model -f nosuch.model -N 1 -n 1
	fails_with 4 "nosuch.model"
}

@test "tr-model: usage" {
	run tr model -N 1 -n 1
	fails_with 2 "usage: tr-model"
	run tr model -f m.model -N 1
	fails_with 2 "usage: tr-model"
	run tr model -f m.model -N x -n 1
	fails_with 2 "tr-model: -N: 'x': not a positive number"
	run tr model -f m.model -W guessed -N 1 -n 1
	fails_with 2 "tr-model: -W: 'guessed': not measured or corrected"
	run tr model -f m.model -D 3x=1 -N 1 -n 1
	fails_with 2 "-D 3x"
	# a value is a constant: a name in it, its own, N or another -D's,
	# is an error, not a read of a value not there (a SIGSEGV)
	run tr model -f m.model -D x=x -N 1 -n 1
	fails_with 2 "tr-model: -D x=x: col 3: unknown name 'x'"
	run tr model -f m.model -D x=N -N 1 -n 1
	fails_with 2 "tr-model: -D x=N: col 3: unknown name 'N'"
	run tr model -f m.model -D a=2 -D b=a -N 1 -n 1
	fails_with 2 "tr-model: -D b=a: col 3: unknown name 'a'"
}

@test "tr-model: the worked example (pipelines/phases.mk) runs on the real CG solver" {
	[ -x "$TR_MPIBIN/cg" ] || skip "no build/mpi/cg"
	[ -x "$TR_BIN/tr-bench" ] || skip "no tr-bench"
	# from the test's directory: its model is found beside the file
	run make -s -f "$TOP/pipelines/phases.mk" TR_BIN="$TR_BIN" \
		TR_MPIBIN="$TR_MPIBIN" OUT="$BATS_TEST_TMPDIR/ph" NP=2 \
		SIZES='96 192' ITERS=5 BENCHFLAGS='-s 8:512 -b 100us -T 1'
	[ "$status" -eq 0 ]
	o=$BATS_TEST_TMPDIR/ph
	# Every phase and part at both sizes, with the sums.
	[ "$(grep -c '^phasecmp' "$o/compare.tr")" -eq 30 ]
	for p in matvec dot update norm '\*'; do
		[ "$(grep -c "^$p	2	" "$o/table.txt")" -eq 6 ]
	done
	# The first size calibrates the compute rates: its mat-vec and
	# update compute are reproduced within rounding.
	mawk -F '\t' '$1 == "matvec" && $3 == 96 && $4 == "compute" { d = $5 - $6; exit !(d * d <= ($5 * 1e-4) ^ 2) }' "$o/table.txt"
	# Per-phase instrumentation: ITERS barriers and 2*ITERS timer reads
	# per phase and rank, the baseline (ends) none.
	grep -q '^phase	measured	dot	2	192	[0-9]*	[0-9]*	[0-9]*	10	5$' "$o/192-phase.corr"
	grep -q '^phase	measured	dot	2	192	[0-9]*	[0-9]*	[0-9]*	0	0$' "$o/192-ends.corr"
	grep -q '^phase	measured	dot	2	192	[0-9]*	[0-9]*	[0-9]*	20	10$' "$o/192-comm.corr"
	# Three configurations per size against the baseline.
	[ "$(grep -c '^ends	2	96	[0-9]*	[0-9]*	1	1$' "$o/overhead.txt")" -eq 1 ]
	[ "$(grep -c '^overhead' "$o/overhead.tr")" -eq 6 ]
}

@test "tr-model: an input without phase records is an error" {
	hdr 2 > ev.tr
	ev 0 0 MPI_Init 1 2 >> ev.tr
	run stderr_of tr model -f m.model -P p.tr ev.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-model: ev.tr: no measured or corrected phase records (tr-barrier-correct makes them; -N and -n predict without)" ]
}

# It recorded `cg`, which is build/mpi/cg: no such program, mpirun's
# 127. Run from the top directory (pipelines/cg.model), with quick
# parameters in place of its tr-bench lines.
@test "tr-model(1)'s example: record, correct, model and compare the CG example" {
	[ -x "$TR_MPIBIN/cg" ] || skip "no build/mpi/cg"
	[ -x "$TR_BIN/tr-bench" ] || skip "no tr-bench"
	mkdir build
	ln -s "$TR_MPIBIN" build/mpi
	ln -s "$TOP/pipelines" pipelines
	for n in 2 4; do
		mpirun --oversubscribe --allow-run-as-root -np $n "$TR_BIN/tr-bench" \
			-s 8:512 -b 100us -T 1 > p$n.tr
	done
	cmd=$(man_examples tr-model.1 | grep -v '^mpirun -np [0-9]* tr-bench' |
		grep -v '^make ')
	[ -n "$cmd" ]
	run sh -ec "$cmd"
	[ "$status" -eq 0 ]
	# the predictions at 3 sizes and 2 counts, then each phase's parts
	# measured against predicted: 4 phases and the sum, 3 parts
	[ "$(echo "$output" | grep -c '^phase	predicted	')" -eq 30 ]
	[ "$(echo "$output" | grep -c '^phasecmp	')" -eq 15 ]
	echo "$output" | grep -q '^phasecmp	dot	2	960	total	[1-9]'
}
