load helper

MF=$(printf '#fields\tmetric\tregion\tmetric\tvalue')
DF=$(printf '#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank')

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "tr-to-extrap: dmax records of three runs, repetitions, one type and quantity" {
	for np in 2 4 8; do
		for r in 1 2; do
			printf '#tr 1\n#meta np=%s\n%s\n' $np "$DF"
			printf 'dmax\tsolve\t%s\t1\t%s\t-1\t1\t0\n' $np $((np * 100 + r))
		done
	done > d.tr
	run tr-to-extrap -t dmax -q wall d.tr
	[ "$status" -eq 0 ]
	[ "$output" = "PARAMETER p
POINTS (2)
POINTS (4)
POINTS (8)

REGION key=solve
METRIC wall
DATA 201 202
DATA 401 402
DATA 801 802" ]
}

@test "tr-to-extrap: two parameters, metric records give back region and metric" {
	for N in 10 20; do
		for np in 2 4; do
			printf '#tr 1\n#meta np=%s\n#meta N=%s\n%s\n' $np $N "$MF"
			printf 'metric\tmain->solve\ttime\t%s.5\n' $((np * N))
			printf 'metric\tmain->solve\tbytes\t%s\n' $N
		done
	done > m.tr
	run tr-to-extrap -n procs -N size m.tr
	[ "$status" -eq 0 ]
	[ "$output" = "PARAMETER procs size
POINTS (2 10)
POINTS (4 10)
POINTS (2 20)
POINTS (4 20)

REGION main->solve
METRIC time
DATA 20.5
DATA 40.5
DATA 40.5
DATA 80.5

REGION main->solve
METRIC bytes
DATA 10
DATA 10
DATA 20
DATA 20" ]
}

@test "tr-to-extrap: a round trip keeps the values" {
	cat > a.txt <<'TXT'
PARAMETER p n
POINTS (2 100) (4 100) (8 100)
POINTS (2 200) (4 200) (8 200)
REGION main
METRIC time
DATA 1.5 1.25 0.1
DATA 2.5 2
DATA 3.5e3 3
DATA 4 4
DATA 5 5.000001
DATA 1e-9 6
METRIC visits
DATA 1
DATA 2
DATA 3
DATA 4
DATA 5
DATA 6
REGION other
DATA 7
DATA 8
DATA 9
DATA 10
DATA 11
DATA 12
TXT
	tr-from-extrap a.txt > a.tr
	tr-to-extrap a.tr > b.txt
	tr-from-extrap b.txt | cmp - a.tr
	run grep -c '^DATA' b.txt
	[ "$output" -eq 18 ]
	grep -qx 'DATA 1.5 1.25 0.1' b.txt
	grep -qx 'DATA 1e-09 6' b.txt
	tr-to-extrap a.tr | cmp - b.txt
}

@test "tr-to-extrap: tr-fit and a converted file agree" {
	printf 'PARAMETER p\nPOINTS (2) (4) (8) (16) (32)\nREGION r\nMETRIC t\nDATA 20 21 19\nDATA 40 40\nDATA 80\nDATA 160 161 159\nDATA 320\n' > k.txt
	tr-from-extrap k.txt | tr-fit > m1.tr
	tr-from-extrap k.txt | tr-to-extrap | tr-from-extrap | tr-fit > m2.tr
	cmp m1.tr m2.tr
	[ "$(grep '^model' m1.tr | cut -f6)" = "0 + 10*n" ]
}

@test "tr-to-extrap: a series without a value at every point" {
	{
		printf '#tr 1\n#meta np=2\n%s\nmetric\ta\tt\t1\nmetric\tb\tt\t1\n' "$MF"
		printf '#tr 1\n#meta np=4\n%s\nmetric\ta\tt\t2\n' "$MF"
	} > g.tr
	run tr-to-extrap g.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-extrap: g.tr: REGION b METRIC t: no value at np=4: Extra-P needs one at every point" ]
	run tr-to-extrap -i g.tr
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "tr-to-extrap: g.tr: REGION b METRIC t: no value at np=4, left out: Extra-P needs one at every point" ]
	tr-to-extrap -i g.tr 2>/dev/null | grep -qx 'REGION a'
	! tr-to-extrap -i g.tr 2>/dev/null | grep -q 'REGION b'
}

@test "tr-to-extrap: bad input and usage errors" {
	printf '#tr 1\n%s\nmetric\ta\tt\t1\n' "$MF" > nonp.tr
	run tr-to-extrap nonp.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-extrap: nonp.tr:3: no np in the header: Extra-P needs the process count of every run" ]
	{
		printf '#tr 1\n#meta np=2\n#meta N=5\n%s\nmetric\ta\tt\t1\n' "$MF"
		printf '#tr 1\n#meta np=4\n%s\nmetric\ta\tt\t2\n' "$MF"
	} > halfN.tr
	run tr-to-extrap halfN.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-extrap: halfN.tr: #meta N in some runs only: Extra-P needs both parameters at every point" ]
	printf '#tr 1\n#meta np=2\n#fields\tnote\ttext\nnote\thi\n' > none.tr
	run tr-to-extrap none.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-extrap: none.tr: no series to write" ]
	run tr-to-extrap -t nosuch nonp.tr
	[ "$status" -eq 2 ]
	run tr-to-extrap -n p -N p nonp.tr
	[ "$status" -eq 2 ]
	run tr-to-extrap -x
	[ "$status" -eq 2 ]
	[ "${lines[1]}" = "usage: tr-to-extrap [-i] [-k keys] [-n param] [-N param] [-q quantities] [-t types] [file ...]" ]
}

@test "tr-to-extrap: the man page's examples run" {
	for n in 4 8 16 32; do
		mkdir run$n
		tr-gen -P ring -n $n -i 3 -R 1 | gzip > run$n/0.tr.gz
	done
	printf 'PARAMETER p\nPOINTS (4) (8)\nREGION example\nMETRIC time\nDATA 8.31 8.02\nDATA 22.74 22.66\n' > input.txt
	man_examples tr-to-extrap.1 > ex.sh
	sh -e ex.sh > out
	[ "$(grep -c '^POINTS' wall.txt)" -eq 4 ]
	grep -q '^METRIC wall$' wall.txt
	grep -qx 'DATA 8.31 8.02' out
}
