#!/usr/bin/env bats
# tr-barrier-correct: per-phase times from region records, less the cost
# of the timer reads and barriers the measurement added; user tables;
# configurations against a baseline; bad input.

load helper

RF=$(printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime')
PH=$(printf '#fields\tphase\twhat\tname\tnp\tN\tcompute\tcomm\ttotal\ttimers\tbarriers')

reg() {
	printf 'reg\t%s\t%s\t%s\t%s\t%s\t-1\t%s\n' "$@"
}

# Two ranks; phase mv holds a barrier and an Allgather and 2 timer
# reads, phase dot 2 timer reads and no MPI; rank 1 is slower in mv.
trace() {
	printf '#tr 1\n#meta np=2\n#meta timer.cost=100\n#meta barrier.cost=1000\n%s\n%s\n' "$RF" "$EVFIELDS"
	for r in 0 1; do
		reg $r 0 enter mv 1000 0
		ev $r 1 MPI_Barrier 1100 2500
		ev $r 2 MPI_Allgather 5000 6000 0 x 1 80
		reg $r 3 leave mv $((11000 + 2000 * r)) 2
		reg $r 4 enter dot $((11000 + 2000 * r)) 2
		reg $r 5 leave dot $((12000 + 2000 * r)) 4
	done
}

# The phase records of that trace with -c phase -N 100.
phases() {
	printf '%s\n' \
		'phase	measured	mv	2	100	8600	2400	11000	2	1' \
		'phase	corrected	mv	2	100	8400	1400	9800	2	1' \
		'phase	measured	dot	2	100	1000	0	1000	2	0' \
		'phase	corrected	dot	2	100	800	0	800	2	0' \
		'phase	measured	*	2	100	9600	2400	12000	4	1' \
		'phase	corrected	*	2	100	9200	1400	10600	4	1'
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	trace > t.tr
}

@test "tr-barrier-correct: per phase and in total, measured and corrected, exact" {
	run tr barrier-correct -c phase -N 100 t.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^#meta instr=phase$' <<<"$output")" -eq 1 ]
	[ "$(grep '^phase' <<<"$output")" = "$(phases)" ]
	# The output is valid tr, without the consumed ev and reg.
	tr barrier-correct t.tr | tr cat > /dev/null
	! tr barrier-correct t.tr | grep -q '^#fields	ev' || false
}

@test "tr-barrier-correct: tr-record's buffer flushes (region tr.flush) are in no phase" {
	# the same trace, with a 3000 ns flush inside mv on each rank
	trace | awk -F '\t' -v OFS='\t' '$1 == "reg" && $3 >= 3 { $3 += 2; $6 += 3000 }
		{ print }
		$1 == "ev" && $4 == "MPI_Allgather" {
			print "reg", $2, 3, "enter", "tr.flush", 6000, -1, 2
			print "reg", $2, 4, "leave", "tr.flush", 9000, -1, 2 }' > f.tr
	run tr barrier-correct -c phase -N 100 f.tr
	[ "$status" -eq 0 ]
	[ "$(grep '^phase' <<<"$output")" = "$(phases)" ]
}

@test "tr-barrier-correct: -T and -b override the header's calibration" {
	run tr barrier-correct -T 1.5us -b 0.5us t.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	corrected	mv	2	-1	5600	1900	7500	2	1$' <<<"$output"
	grep -q '^phase	corrected	dot	2	-1	-2000	0	-2000	2	0$' <<<"$output"
}

@test "tr-barrier-correct: an unknown N is written as -1 and said once on stderr" {
	# two runs, neither with #meta N nor -N: one warning, naming the file
	for run in a b; do sed "s/^#meta np=2\$/&\\n#meta run=$run/" t.tr; done > two.tr
	run stderr_of tr barrier-correct two.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-barrier-correct: two.tr: N unknown (no #meta N, no -N): written as -1, which tr-model refuses; runs of one np are compared as one size" ]
	tr barrier-correct two.tr 2>/dev/null > out.tr
	[ "$(grep -c '^phase	corrected	\*	2	-1	' out.tr)" -eq 2 ]
	# known from -N or from the header: nothing said
	run stderr_of tr barrier-correct -N 100 two.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	sed 's/^#meta np=2$/#meta np=2\n#meta N=100/' t.tr > n.tr
	run stderr_of tr barrier-correct n.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# a table's N is the table's: its -1 was said by whoever wrote it
	run stderr_of tr barrier-correct out.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "tr-barrier-correct: a negative corrected time is reported, not clamped" {
	run tr barrier-correct -T 1.5us t.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	corrected	dot	2	-1	-2000	0	-2000	' <<<"$output"
	[[ "$output" == *"tr-barrier-correct: phase dot (np=2 N=-1): corrected compute is negative (-2000 ns)"* ]]
}

@test "tr-barrier-correct: unit costs from tr-bench param records (-P)" {
	{
		printf '#tr 1\n#fields\tparam\top\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\terr\n'
		printf 'param\ttimer\tworld\t2\t50\t0\t0\t0\t1\t0\n'
		printf 'param\tMPI_Barrier\tworld\t2\t300\t0\t0\t0\t1\t0\n'
		printf 'param\tMPI_Barrier\tworld\t4\t900\t0\t0\t0\t1\t0\n'
	} > p.tr
	run tr barrier-correct -P p.tr t.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	corrected	mv	2	-1	8500	2100	10600	2	1$' <<<"$output"
	# A file without such records is refused.
	printf '#tr 1\n%s\n' "$PH" > empty.tr
	run tr barrier-correct -P empty.tr t.tr
	fails_with 3 "no param records for timer or MPI_Barrier"
}

@test "tr-barrier-correct: a user table in; configurations against the baseline" {
	{
		printf '#tr 1\n#meta instr=ends\n%s\n' "$PH"
		printf 'phase\tmeasured\ta\t4\t1000\t9000\t1000\t10000\t0\t0\n'
		printf '#tr 1\n#meta instr=phase\n%s\n' "$PH"
		printf 'phase\tmeasured\ta\t4\t1000\t9100\t2900\t12000\t2\t1\n'
		printf '#tr 1\n#meta instr=comm\n%s\n' "$PH"
		printf 'phase\tmeasured\ta\t4\t1000\t9300\t4700\t14000\t4\t2\n'
	} > tab.tr
	run tr barrier-correct -T 50ns -b 1us tab.tr
	[ "$status" -eq 0 ]
	[ "$(grep '^overhead' <<<"$output")" = "$(printf '%s\n' \
		'overhead	ends	4	1000	10000	10000	1	1' \
		'overhead	phase	4	1000	12000	10900	1.2	1.09' \
		'overhead	comm	4	1000	14000	11800	1.4	1.18')" ]
	run tr barrier-correct -T 50ns -b 1us -B phase tab.tr
	grep -q '^overhead	phase	4	1000	12000	10900	1	1$' <<<"$output"
	run stderr_of tr barrier-correct -T 50ns -b 1us -B none tab.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-barrier-correct: tab.tr: no run with instr=none at np=4 N=1000 to compare with" ]
	# Its own output is valid input: same corrections again.
	tr barrier-correct -T 50ns -b 1us tab.tr > once.tr
	tr barrier-correct -T 50ns -b 1us once.tr > twice.tr
	[ "$(grep -v '^#' once.tr)" = "$(grep -v '^#' twice.tr)" ]
	# Predictions pass through untouched.
	printf 'phase\tpredicted\ta\t4\t1000\t1\t1\t2\t-1\t-1\n' >> tab.tr
	run tr barrier-correct -T 50ns -b 1us tab.tr
	grep -q '^phase	predicted	a	4	1000	1	1	2	-1	-1$' <<<"$output"
}

@test "tr-barrier-correct: table errors: total not compute+comm, float times, duplicates" {
	printf '#tr 1\n%s\nphase\tmeasured\ta\t4\t1000\t9000\t1000\t10001\t0\t0\n' "$PH" > bad1.tr
	run tr barrier-correct bad1.tr
	fails_with 3 "bad1.tr:3: phase a: total 10001 is not compute + comm"
	printf '#tr 1\n%s\nphase\tmeasured\ta\t4\t1000\t0.009\t0.001\t0.01\t0\t0\n' "$PH" > bad2.tr
	run tr barrier-correct bad2.tr
	fails_with 3 "bad2.tr:3:"
	[[ "$output" == *"0.009"* ]]
	printf '#tr 1\n%s\nphase\tmeasured\ta\t4\t1000\t1\t1\t2\t0\t0\nphase\tmeasured\ta\t4\t1000\t1\t1\t2\t0\t0\n' "$PH" > bad3.tr
	run tr barrier-correct bad3.tr
	fails_with 3 "bad3.tr:4: phase a given twice for np=4 N=1000"
}

@test "tr-barrier-correct: counts but no known cost is an error" {
	grep -v 'cost=' t.tr > nocost.tr
	run tr barrier-correct nocost.tr
	fails_with 3 "has timer reads but no timer cost is known"
	run tr barrier-correct -T 20 nocost.tr
	fails_with 3 "has barriers but no barrier cost is known"
	run tr barrier-correct -T 20 -b 1us nocost.tr
	[ "$status" -eq 0 ]
}

@test "tr-barrier-correct: unit mix-ups in costs" {
	run tr barrier-correct -T 1.5KB t.tr
	fails_with 2 "-T: '1.5KB': a size, not a duration"
	run tr barrier-correct -b 0.0000041 t.tr
	fails_with 2 "-b: '0.0000041': under 1 ns; a bare number is ns (seconds? write 4.1us)"
	run tr barrier-correct -T 3h t.tr
	fails_with 2 "-T: '3h': unknown unit"
	run tr barrier-correct -b 2s t.tr
	fails_with 2 "over a second per call"
	sed 's/timer.cost=100/timer.cost=0.0000001/' t.tr > sec.tr
	run tr barrier-correct sec.tr
	fails_with 3 "costs are ns, not seconds"
}

@test "tr-barrier-correct: np 0, huge counts or costs: one line, no overflow" {
	sed 's/^#meta np=2$/#meta np=0/' t.tr > np0.tr
	run stderr_of tr barrier-correct np0.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-barrier-correct: np0.tr:2: #meta np=0: not a number of ranks (an integer from 1 to 16777216)" ]
	for k in 1e18:1e18 1e13:0 nan:0 inf:0; do
		run stderr_of tr barrier-correct -m "$k" t.tr
		[ "$status" -eq 2 ]
		[ "$output" = "tr-barrier-correct: -m: '$k': not [phase:]timers:barriers, counts per rank from 0 to 1e12" ]
	done
	# in range alone, too large together
	run stderr_of tr barrier-correct -m 1e12:1e12 -T 1s -b 1s t.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-barrier-correct: t.tr:19: phase mv (np=2 N=-1): corrected compute is out of range (-1e+21 ns): unit costs or counts too large" ]
	sed 's/timer.cost=100/timer.cost=1e300/' t.tr > big.tr
	run stderr_of tr barrier-correct big.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-barrier-correct: big.tr:19: timer.cost or barrier.cost over a second per call: unit mix-up?" ]
}

@test "tr-barrier-correct: a header put in mid-stream is one error, not also a warning" {
	{ sed -n 1,7p t.tr; printf '#tr 1\n#meta np=8\n'; sed -n '8,$p' t.tr; } > mid.tr
	run stderr_of tr barrier-correct mid.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-barrier-correct: mid.tr:10: record type 'ev' has no #fields line" ]
}

@test "tr-barrier-correct: badly nested regions" {
	{ printf '#tr 1\n%s\n' "$RF"; reg 0 0 enter a 1 0; reg 0 1 leave b 2 0; } > n1.tr
	run tr barrier-correct n1.tr
	fails_with 3 "n1.tr:4: rank 0 leaves region b inside a"
	{ printf '#tr 1\n%s\n' "$RF"; reg 0 0 leave a 1 0; } > n2.tr
	run tr barrier-correct n2.tr
	fails_with 3 "rank 0 leaves region a it never entered"
	{ printf '#tr 1\n%s\n' "$RF"; reg 0 0 enter '*' 1 0; } > n3.tr
	run tr barrier-correct n3.tr
	fails_with 3 "reserved"
}

@test "tr-barrier-correct: nested regions count exclusively; other records pass through" {
	{
		printf '#tr 1\n#meta np=1\n%s\n%s\n' "$RF" "$EVFIELDS"
		printf '#fields\tcomm\trank\tid\tsize\tmembers\ncomm\t0\t1\t1\t0\n'
		reg 0 0 enter solve 0 0
		reg 0 1 enter inner 100 1
		ev 0 2 MPI_Barrier 150 250
		reg 0 3 leave inner 400 3
		reg 0 4 leave solve 1000 4
	} > nest.tr
	run tr barrier-correct -T 10 -b 20 nest.tr
	[ "$status" -eq 0 ]
	grep -q '^comm	0	1	1	0$' <<<"$output"
	grep -q '^phase	measured	solve	1	-1	700	0	700	2	0$' <<<"$output"
	grep -q '^phase	measured	inner	1	-1	200	100	300	2	1$' <<<"$output"
	grep -q '^phase	corrected	inner	1	-1	180	80	260	2	1$' <<<"$output"
	grep -q '^phase	measured	\*	1	-1	900	100	1000	4	1$' <<<"$output"
}

@test "tr-barrier-correct: usage" {
	run tr barrier-correct -x
	fails_with 2 "usage: tr-barrier-correct"
	run tr barrier-correct -N -3 t.tr
	fails_with 2 "-N: '-3': not a positive number"
	run tr barrier-correct -c 'a b' t.tr
	fails_with 2 "one word"
}

@test "tr-barrier-correct: a real recorded run counts the solver's own timers and barriers" {
	[ -x "$TR_MPIBIN/cg" ] || skip "no build/mpi/cg"
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
		-o rec "$TR_MPIBIN/cg" 64 3 phase > /dev/null
	run sh -c "tr-cat -m rec/* | tr-barrier-correct -c phase -N 64"
	[ "$status" -eq 0 ]
	# Per phase and rank: 3 barriers and 6 timer reads (start and end).
	for p in matvec dot update norm; do
		grep -q "^phase	measured	$p	2	64	[0-9]*	[0-9]*	[0-9]*	6	3$" <<<"$output"
	done
	grep -q '^phase	measured	\*	2	64	[0-9]*	[0-9]*	[0-9]*	24	12$' <<<"$output"
	# Corrected = measured less tr-record's calibrated costs.
	tc=$(tr-cat -m rec/* | sed -n 's/^#meta timer.cost=//p')
	bc=$(tr-cat -m rec/* | sed -n 's/^#meta barrier.cost=//p')
	m=$(grep '^phase	measured	dot' <<<"$output" | cut -f6,7)
	c=$(grep '^phase	corrected	dot' <<<"$output" | cut -f6,7)
	# (within 1 ns: the mean over 2 ranks is rounded once per column)
	d1=$(( $(cut -f1 <<<"$c") - $(cut -f1 <<<"$m") + 6 * tc ))
	d2=$(( $(cut -f2 <<<"$c") - $(cut -f2 <<<"$m") + 3 * bc ))
	[ "$d1" -ge -1 ]
	[ "$d1" -le 1 ]
	[ "$d2" -ge -1 ]
	[ "$d2" -le 1 ]
}

@test "tr-barrier-correct: tr-profile's prof records of regions, counts given with -m" {
	{
		printf '#tr 1\n#meta np=2\n#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes\n'
		printf 'prof\t0\tMPI_Barrier\t1\t0\t1400\t1400\t0\n'
		printf 'prof\t0\tcompute\t3\t0\t9000\t9000\t0\n'
		printf 'prof\t0\tmv\t1\t2\t7600\t10000\t0\n'
		printf 'prof\t1\tmv\t1\t2\t9600\t12000\t0\n'
		printf 'prof\t0\tdot\t1\t0\t1000\t1000\t0\n'
		printf 'prof\t1\tdot\t1\t0\t1000\t1000\t0\n'
	} > prof.tr
	run tr barrier-correct -T 100 -b 1000 -m 2:1 -m dot:2:0 prof.tr
	[ "$status" -eq 0 ]
	[ "$(grep '^phase' <<<"$output")" = "$(printf '%s\n' \
		'phase	measured	mv	2	-1	8600	2400	11000	2	1' \
		'phase	corrected	mv	2	-1	8400	1400	9800	2	1' \
		'phase	measured	dot	2	-1	1000	0	1000	2	0' \
		'phase	corrected	dot	2	-1	800	0	800	2	0' \
		'phase	measured	*	2	-1	9600	2400	12000	4	1' \
		'phase	corrected	*	2	-1	9200	1400	10600	4	1')" ]
	! grep -q '^prof' <<<"$output" || false
	run stderr_of tr barrier-correct -m 2 prof.tr
	[ "$status" -eq 2 ]
	[ "$output" = "tr-barrier-correct: -m: '2': not [phase:]timers:barriers, counts per rank from 0 to 1e12" ]
	cat t.tr prof.tr > both.tr
	run tr barrier-correct both.tr
	fails_with 3 "both reg and prof records"
}

@test "tr-barrier-correct: from the trace and from tr-profile of it, the same times" {
	[ -x "$TR_BIN/tr-profile" ] || skip "no tr-profile"
	# Phases may come in another order: the profile sorts them.
	tr barrier-correct t.tr | grep '^phase' | sort > a
	tr profile t.tr | tr barrier-correct -m 2:1 -m dot:2:0 | grep '^phase' | sort > b
	cmp a b
}

@test "tr-barrier-correct -C: compute from the recorded CPU times, not from wall time" {
	{
		printf '#tr 1\n#meta np=1\n%s\n%s\n' "$RF" "$EVFIELDS"
		printf 'reg\t0\t0\tenter\tp\t0\t5\t0\n'
		ev 0 1 MPI_Barrier 1000 1500 300
		printf 'reg\t0\t2\tleave\tp\t9000\t400\t2\n'
	} > cpu.tr
	run tr barrier-correct -C -T 10 -b 100 cpu.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	measured	p	1	-1	700	500	1200	2	1$' <<<"$output"
	grep -q '^phase	corrected	p	1	-1	680	400	1080	2	1$' <<<"$output"
	run tr barrier-correct -T 10 -b 100 cpu.tr
	grep -q '^phase	measured	p	1	-1	8500	500	9000	2	1$' <<<"$output"
	sed 's/^\(reg	0	2	leave	p	9000	\)400/\1-1/' cpu.tr > nocpu.tr
	run tr barrier-correct -C nocpu.tr
	fails_with 3 "nocpu.tr:7: -C: this record has no CPU time"
}

@test "tr-barrier-correct: a call completing several requests (one seq, several records) is timed once" {
	{
		printf '#tr 1\n#meta np=1\n%s\n%s\n' "$RF" "$EVFIELDS"
		reg 0 0 enter p 0 0
		ev 0 1 MPI_Irecv 100 200 0 x 0 8 0 -1 0
		ev 0 2 MPI_Irecv 300 400 0 x 0 8 0 -1 1
		ev 0 3 MPI_Waitall 1000 3000 0 x 0 8 0 -1 0
		ev 0 3 MPI_Waitall 1000 3000 0 x 0 8 0 -1 1
		reg 0 4 leave p 10000 0
	} > w.tr
	run tr barrier-correct -T 10 -b 100 w.tr
	[ "$status" -eq 0 ]
	grep -q '^phase	measured	p	1	-1	7800	2200	10000	0	0$' <<<"$output"
}

@test "tr-barrier-correct: a real stencil's MPI time per phase is that of its calls, as tr-profile has it" {
	[ -x "$TR_MPIBIN/stencil" ] || skip "no build/mpi/stencil"
	[ -x "$TR_BIN/tr-profile" ] || skip "no tr-profile"
	# Each MPI_Waitall of the stencil completes 8 requests: 8 records.
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
		-o rec "$TR_MPIBIN/stencil" 64 10 > /dev/null
	tr-cat -m rec/* > s.tr
	[ "$(awk -F'\t' '$1 == "ev" && $4 == "MPI_Waitall"' s.tr | wc -l)" -gt 20 ]
	tr-barrier-correct s.tr | grep '^phase' | sort > a
	tr-profile s.tr | tr-barrier-correct -m 0:0 | grep '^phase' | sort > b
	cmp a b
}
