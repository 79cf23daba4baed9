load helper

MF=$(printf '#fields\tmetric\tregion\tmetric\tvalue')

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# bad FILE-CONTENT LINE MESSAGE: the error at LINE, status 3.
bad() {
	printf '%s\n' "$1" > bad.txt
	run tr-from-extrap bad.txt
	[ "$status" -eq 3 ]
	[ "$output" = "tr-from-extrap: bad.txt:$2: $3" ]
}

@test "tr-from-extrap: one parameter, repetitions, a section per point" {
	cat > a.txt <<'TXT'
# a comment
PARAMETER p
POINTS (4) (8)

REGION main
METRIC time
DATA 1.5 1.25
DATA 3 3.5e1
METRIC visits
DATA 7
DATA 8
TXT
	run tr-from-extrap a.txt
	[ "$status" -eq 0 ]
	[ "$output" = "#tr 1
#meta np=4
$MF
metric	main	time	1.5
metric	main	time	1.25
metric	main	visits	7
#tr 1
#meta np=8
$MF
metric	main	time	3
metric	main	time	35
metric	main	visits	8" ]
}

@test "tr-from-extrap: two parameters, points on lines of their own, no METRIC, no last LF" {
	printf 'PARAMETER n\nPARAMETER procs\nPOINTS ( 100 2 ) ( 100 4 )\nPOINTS (200 2)\nREGION a  b\nDATA 1\nDATA 2\nDATA 3' > b.txt
	run tr-from-extrap b.txt
	[ "$status" -eq 0 ]
	[ "$output" = "#tr 1
#meta np=2
#meta N=100
$MF
metric	a b	-	1
#tr 1
#meta np=4
#meta N=100
$MF
metric	a b	-	2
#tr 1
#meta np=2
#meta N=200
$MF
metric	a b	-	3" ]
}

@test "tr-from-extrap: -n and -N name the parameters" {
	printf 'PARAMETER x y\nPOINTS (2 10) (4 10)\nREGION r\nDATA 1\nDATA 2\n' > c.txt
	run tr-from-extrap c.txt
	[ "$status" -eq 3 ]
	[ "$output" = "tr-from-extrap: c.txt:1: no parameter is a process count (p, P, np, nprocs, procs, ranks): name one with -n" ]
	run sh -c 'tr-from-extrap -n y -N x c.txt | grep "^#meta"'
	[ "$output" = "#meta np=10
#meta N=2
#meta np=10
#meta N=4" ]
	[ "$(tr-from-extrap -n x c.txt | grep -c '^#meta N=10$')" -eq 2 ]
	run tr-from-extrap -n z c.txt
	[ "$status" -eq 2 ]
	[ "$output" = "tr-from-extrap: -n z: no such parameter (the file has: x y)" ]
}

@test "tr-from-extrap: tr-fit recovers a known function from a converted file" {
	{
		echo 'PARAMETER p'
		echo 'POINTS (2) (4) (8) (16) (32) (64)'
		echo 'REGION solve'
		echo 'METRIC time'
		for p in 2 4 8 16 32 64; do
			awk -v p=$p 'BEGIN { v = 3 + 2 * p * log(p) / log(2)
			    printf "DATA %.6f %.6f %.6f\n", v * 0.99, v, v * 1.01 }'
		done
	} > k.txt
	tr-from-extrap k.txt | tr-fit > m.tr
	run grep '^model' m.tr
	[ "$(echo "$output" | cut -f2-6)" = "metric	region=solve;metric=time	value	pmnf	3 + 2*n*log2(n)" ]
	[ "$(echo "$output" | cut -f12)" -eq 3 ]
	tr-extrap np=1024 m.tr | awk -F'\t' '$1 == "metric" {
		t = 3 + 2 * 1024 * 10; e = ($4 - t) / t; exit !(e < 1e-3 && e > -1e-3) }'
}

@test "tr-from-extrap: malformed lines are errors at their line" {
	bad 'PARAMETER p
DATA 1' 2 "measurements before POINTS"
	bad 'PARAMETER p
POINTS 1 2
REGION r
DATA 1
DATA 2
DATA 3' 6 "REGION r METRIC -: more DATA lines than the 2 points"
	bad 'PARAMETER p
POINTS 1 2
REGION r
DATA 1
REGION s
DATA 1
DATA 2' 4 "REGION r METRIC -: DATA for 1 of the 2 points"
	bad 'PARAMETER p
POINTS 1 2
REGION r
DATA 1
DATA x2' 5 "'x2' is not a number"
	bad 'PARAMETER p
POINTS 1 2
REGOIN r' 3 "unknown keyword 'REGOIN'"
	bad 'PARAMETER p
POINTS 1 1.5
REGION r' 2 "p=1.5 is no process count (a whole number from 1 to 16777216)"
	bad 'PARAMETER p n
POINTS 1 2
REGION r' 2 "points of 2 parameters are written in parentheses, as (4 100)"
	bad 'PARAMETER p n
POINTS (1 2) (2)' 2 "a point of 1 coordinates for 2 parameters"
	bad 'PARAMETER p
POINTS (1) (1)
REGION r' 2 "point p=1 given twice"
	bad 'PARAMETER p
POINTS 1
REGION r
DATA 1
REGION r
DATA 2' 6 "REGION r METRIC - given twice"
	bad 'PARAMETER p
POINTS 1
REGION r
DATA' 4 "DATA without values"
	bad 'PARAMETER p
POINTS 1
REGION r' 3 "no DATA lines"
}

@test "tr-from-extrap: usage errors" {
	run tr-from-extrap -x
	[ "$status" -eq 2 ]
	run tr-from-extrap a b
	[ "$status" -eq 2 ]
	[ "$output" = "usage: tr-from-extrap [-n param] [-N param] [file]" ]
}

@test "tr-from-extrap: the man page's examples run" {
	printf 'PARAMETER p\nPOINTS (4) (8) (16) (32) (64)\nREGION example\nMETRIC time\nDATA 8.31 8.02 8.14\nDATA 22.74 22.66 23.20\nDATA 65.79 64.74 66.62\nDATA 186.78 184.68 181.58\nDATA 528.86 522.44 531.78\n' > input.txt
	printf 'PARAMETER x y\nPOINTS (2 1) (4 1) (8 1) (2 2) (4 2) (8 2)\nREGION r\nDATA 2\nDATA 4\nDATA 8\nDATA 4\nDATA 8\nDATA 16\n' > two.txt
	man_examples tr-from-extrap.1 > ex.sh
	[ "$(wc -l < ex.sh)" -eq 2 ]
	sh -e ex.sh > out
	[ "$(grep -c '^model	metric	region=' out)" -eq 2 ]
}
