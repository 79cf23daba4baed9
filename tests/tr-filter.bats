load helper

setup() {
	T=$BATS_TEST_TMPDIR
	tr gen -P ring -n 4 -i 5 -R 3 > "$T/ring.tr"
	{
		hdr 2
		printf '#fields\tpt\tn\tN\tname\n'
		ev 0 0 MPI_Init 0 100
		printf 'pt\t1\t10\talpha\n'
		ev 1 0 MPI_Init 0 2000
		printf 'pt\t4\t20\tbeta\n'
		ev 0 1 MPI_Send 3000 3500 0 main@a.c:10 1 4096 5
		ev 1 1 MPI_Recv 2500 3600 0 main@a.c:20 0 4096 5
		printf 'pt\t16\t30\tgamma delta\n'
	} > "$T/mix.tr"
}

# Records (not header lines) of the last output.
recs() {
	printf '%s\n' "$output" | grep -v '^#'
}

@test "rank==0 keeps the same records as mawk" {
	run tr filter 'rank==0' "$T/ring.tr"
	[ "$status" -eq 0 ]
	want=$(mawk -F'\t' '!/^#/ && $2==0' "$T/ring.tr")
	[ "$(recs)" = "$want" ]
	# header passes through, marked as a selection of the run's records
	[ "$(printf '%s\n' "$output" | grep '^#')" = "$(grep '^#' "$T/ring.tr"
		echo '#meta subset=tr-filter')" ]
}

@test "--window keeps a region whole when it overlaps: tools that follow regions accept the selection" {
	REGF=$(printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime')
	reg() { printf 'reg\t%s\t%s\t%s\t%s\t%s\t-1\t0\n' "$@"; }
	{
		hdr 2
		echo "$REGF"
		ev 0 0 MPI_Init 0 100
		ev 1 0 MPI_Init 0 100
		reg 0 1 enter solve 150
		reg 0 2 enter tr.flush 200
		reg 1 1 enter before 200
		reg 1 2 leave before 300
		reg 1 3 enter phase 400
		reg 0 3 leave tr.flush 1100
		ev 0 4 MPI_Send 1200 1300 0 a.out+0x10 1 8 0
		ev 1 4 MPI_Recv 1000 1400 0 a.out+0x10 0 8 0
		reg 1 5 leave phase 1500
		reg 0 5 enter inner 1600
		reg 0 6 leave inner 1700
		reg 0 7 leave solve 2500
		reg 1 6 enter late 2600
		reg 1 7 leave late 2700
		ev 0 8 MPI_Finalize 2800 2900
		ev 1 8 MPI_Finalize 2800 2900
	} > "$T/r.tr"
	run tr filter -w 1000:2000 "$T/r.tr"
	[ "$status" -eq 0 ]
	# rank 0's solve and flush began before the window and end in it:
	# their enters come before the flush's leave; rank 1's phase comes
	# before the Recv it holds; "before" ended before the window, "late"
	# began after it
	[ "$(recs)" = "$(printf '%s\n' \
		"$(reg 0 1 enter solve 150)" "$(reg 0 2 enter tr.flush 200)" \
		"$(reg 0 3 leave tr.flush 1100)" \
		"$(ev 0 4 MPI_Send 1200 1300 0 a.out+0x10 1 8 0)" \
		"$(reg 1 3 enter phase 400)" \
		"$(ev 1 4 MPI_Recv 1000 1400 0 a.out+0x10 0 8 0)" \
		"$(reg 1 5 leave phase 1500)" \
		"$(reg 0 5 enter inner 1600)" "$(reg 0 6 leave inner 1700)" \
		"$(reg 0 7 leave solve 2500)")" ]
	for t in profile stat delta; do
		run sh -c "tr-filter -w 1000:2000 '$T/r.tr' | tr-$t"
		[ "$status" -eq 0 ]
	done
	# the regions whole, as in the trace
	run sh -c "tr-filter -w 1000:2000 '$T/r.tr' | tr-profile | mawk -F'\t' '\$3 == \"solve\" || \$3 == \"phase\" { print \$2, \$3, \$4, \$7 }'"
	[ "$output" = "$(printf '%s\n' '0 solve 1 2350' '1 phase 1 1100')" ]
	# header lines in the middle of a section (a rank's end, merged by
	# tr-cat -m) do not end the regions held
	awk '/leave\ttr.flush/ { print "#tr 1"; print "#meta clock.offset.fini.1=0" } { print }' "$T/r.tr" > "$T/rh.tr"
	run sh -c "tr-filter -w 1000:2000 '$T/rh.tr' | grep -c '^reg'"
	[ "$output" = 8 ]
	run sh -c "tr-filter -w 1000:2000 '$T/rh.tr' | tr-profile | mawk -F'\t' '\$3 == \"solve\" { print \$7 }'"
	[ "$output" = 2350 ]
	# the window's end: a region that began in it is kept with its leave
	run tr filter -w 0:1650 "$T/r.tr"
	[ "$(recs | grep -c 'inner\|solve')" = 4 ]
	run sh -c "tr-filter -w 0:1650 '$T/r.tr' | tr-profile"
	[ "$status" -eq 0 ]
	# a region entirely before the window: neither half
	run tr filter -w 2000:2700 "$T/r.tr"
	[ "$(recs | cut -f5 | tr '\n' ' ')" = "solve solve late late " ]
	# -v keeps or drops a region with its enter: the ones that began
	# before 1000 are kept whole, inner (in the window) dropped whole
	run tr filter -v -w 1000:2000 "$T/r.tr"
	[ "$(recs | mawk -F'\t' '$1 == "reg" { print $2, $4, $5 }' | tr '\n' ',')" = "0 enter solve,0 enter tr.flush,1 enter before,1 leave before,1 enter phase,0 leave tr.flush,1 leave phase,0 leave solve,1 enter late,1 leave late," ]
	run sh -c "tr-filter -v -w 1000:2000 '$T/r.tr' | tr-profile"
	[ "$status" -eq 0 ]
	# the other tests still apply to each half
	run tr filter -w 1000:2000 -e 'kind == "enter"' "$T/r.tr"
	[ "$(recs | grep '^reg' | cut -f5 | tr '\n' ' ')" = "solve tr.flush phase inner " ]
}

@test "strings, units, regex and sets" {
	run tr filter 'op == "MPI_Send"' "$T/mix.tr"
	[ "$(recs | cut -f1-4)" = "$(printf 'pt\t1\t10\talpha\npt\t4\t20\tbeta\nev\t0\t1\tMPI_Send\npt\t16\t30\tgamma delta')" ]
	run tr filter 'type=="ev" && end - start >= 1us' "$T/mix.tr"
	[ "$(recs | cut -f1-3)" = "$(printf 'ev\t1\t0\nev\t1\t1\npt\t1\t10\npt\t4\t20\npt\t16\t30' | sort -k1,1 -s | head -0; printf 'pt\t1\t10\nev\t1\t0\npt\t4\t20\nev\t1\t1\npt\t16\t30')" ]
	run tr filter 'site ~ "@a\\.c:2[0-9]$"' "$T/mix.tr"
	[ "$(recs | grep -c '^ev')" -eq 1 ]
	[ "$(recs | grep '^ev' | cut -f4)" = MPI_Recv ]
	run tr filter 'op in {MPI_Init, "MPI_Recv"}' "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f4 | tr '\n' ' ')" = "MPI_Init MPI_Init MPI_Recv " ]
	run tr filter 'op !~ "^MPI_(Init|Send)$" && bytes == 4KiB - 0' "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f4)" = MPI_Recv ]
	run tr filter 'op !~ "^MPI_(Init|Recv)$" && bytes > 4KB' "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f4)" = MPI_Send ]
	run tr filter 'bytes == 4096B && op !~ "Send"' "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f4)" = MPI_Recv ]
}

@test "records lacking a field pass through, others are tested" {
	run tr filter 'name ~ " "' "$T/mix.tr"
	[ "$status" -eq 0 ]
	[ "$(recs | grep -c '^ev')" -eq 4 ]
	[ "$(recs | grep '^pt')" = "$(printf 'pt\t16\t30\tgamma delta')" ]
	run tr filter -v 'name ~ " "' "$T/mix.tr"
	[ "$(recs | grep -c '^ev')" -eq 4 ]
	[ "$(recs | grep '^pt' | cut -f4 | tr '\n' ' ')" = "alpha beta " ]
}

# A field no type has would let every record through untested: a
# string left unquoted, or a misspelt name.
@test "a name no record type declares is an error, a declared one is not" {
	run tr filter 'op == MPI_Send' "$T/mix.tr"
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-filter: no record type has a field 'MPI_Send' (a string is written in double quotes)"* ]]
	run tr filter 'rank == 0 && bytse > 1' "$T/ring.tr"
	[ "$status" -eq 2 ]
	[[ "$output" == *"field 'bytse'"* ]]
	# declared, in a type that has no records here: not an error
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  ev 0 0 MPI_Init 0 100; } >"$T/reg.tr"
	run tr filter 'kind == "enter"' "$T/reg.tr"
	[ "$status" -eq 0 ]
	[ "$(recs | cut -f4)" = MPI_Init ]
	# declared in a later section only: known by the end
	cat "$T/ring.tr" "$T/mix.tr" >"$T/two.tr"
	run tr filter 'name ~ "a"' "$T/two.tr"
	[ "$status" -eq 0 ]
}

@test "arithmetic, precedence and functions" {
	for e in '-2^2 == -4' '2^3^2 == 512' '7 % 3 == 1' '1 + 2 * 3 == 7' \
	    '(1 + 2) * 3 == 9' 'abs(-3) == 3' 'min(4, 2, 8) == 2' \
	    'max(4, 2, 8) == 8' 'log2(1024) == 10' 'sqrt(16) == 4' \
	    'pow(2, 10) == 1024' 'floor(2.7) == 2 && ceil(2.2) == 3' \
	    'exp(0) == 1 && log(1) == 0' '1.5ms == 1500000' '2s == 2e9' \
	    '1MB == 1000KB && 1GiB == 1024MiB && 4kB == 4KB' '!(1 > 2) && !0' \
	    '"abc" < "abd" && "b" > "abc"' '0 || 1' '10 / 4 == 2.5' \
	    'n >= 1 || N > 0'; do
		run tr filter -- "$e" "$T/mix.tr"
		[ "$status" -eq 0 ] || { echo "$e: $output"; false; }
		[ "$(recs | grep -c '^pt')" -eq 3 ] || { echo "false: $e"; false; }
	done
	run tr filter '1 == 2' "$T/mix.tr"
	[ "$(recs | grep -c '^pt')" -eq 0 ]
}

@test "model expressions of tr-fit evaluate over n and N" {
	run tr filter '3.2e+06 + 1.5e+05 * n^0.5 * log2(n) > 3.5e6' "$T/mix.tr"
	[ "$(recs | grep '^pt' | cut -f2 | tr '\n' ' ')" = "4 16 " ]
	run tr filter 'abs(1e3 * N - 2e4) < 1' "$T/mix.tr"
	[ "$(recs | grep '^pt' | cut -f2)" = 4 ]
}

@test "--ranks and --window" {
	run tr filter --ranks 1-2,0 "$T/ring.tr"
	[ "$(recs | cut -f2 | sort -u | tr '\n' ' ')" = "0 1 2 " ]
	run tr filter -r 3 "$T/ring.tr"
	[ "$(recs)" = "$(mawk -F'\t' '!/^#/ && $2==3' "$T/ring.tr")" ]
	run tr filter --window 2us:3.5us "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f2,3 | tr '\n' ' ')" = "$(printf '0\t1 1\t1 ')" ]
	run tr filter -w 3.5us:3600 "$T/mix.tr"
	[ "$(recs | grep -c '^ev')" -eq 1 ]
	run tr filter -w :1 -e 'rank == 0' "$T/mix.tr"
	[ "$(recs | grep '^ev' | cut -f2,3)" = "$(printf '0\t0')" ]
	# half-open, as the man page says: adjacent windows share no instant
	{
		printf '#tr 1\n#meta subset=x\n#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
		printf 'reg\t0\t1\tenter\tA\t100\t-1\t0\nreg\t0\t2\tleave\tA\t200\t-1\t0\n'
	} > "$T/w.tr"
	# (a region [100, 200] is a span: it overlaps only the middle one)
	[ "$(tr filter -w 0:100 "$T/w.tr" | grep -c '^reg')" = 0 ]
	[ "$(tr filter -w 100:200 "$T/w.tr" | grep '^reg' | cut -f6 | tr '\n' ' ')" = "100 200 " ]
	[ "$(tr filter -w 200:300 "$T/w.tr" | grep -c '^reg')" = 0 ]
	# ns since the epoch, exactly (a double is 256 ns wide there)
	{
		printf '#tr 1\n#fields\tmine\tid\tstart\tend\n'
		printf 'mine\ta\t1764200000000000001\t1764200000000000002\n'
		printf 'mine\tb\t1764200000000000003\t1764200000000000004\n'
	} > "$T/epoch.tr"
	[ "$(tr filter -w 1764200000000000002:1764200000000000004 "$T/epoch.tr" | grep '^mine' | cut -f2)" = b ]
	[ "$(tr filter -w 1764200000000000001:1764200000000000002ns "$T/epoch.tr" | grep '^mine' | cut -f2)" = a ]
}

@test "chained filters equal one conjunction" {
	a=$(tr filter 'rank==1' "$T/ring.tr" | tr filter 'op=="MPI_Sendrecv"')
	b=$(tr filter 'rank==1 && op=="MPI_Sendrecv"' "$T/ring.tr")
	[ "$a" = "$b" ]
	[ "$(printf '%s\n' "$a" | grep -c '^ev')" -eq 5 ]
}

@test "bad expressions get a caret under the column" {
	run tr filter 'rank = 0' "$T/mix.tr"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "tr-filter: bad expression: unexpected '=' (use == to compare)" ]
	[ "${lines[1]}" = "  rank = 0" ]
	[ "${lines[2]}" = "       ^" ]
	run tr filter 'rank == 0 &&' "$T/mix.tr"
	fails_with 2 "expression ends too soon"
	[ "${lines[2]}" = "              ^" ]
	run tr filter 'foo(1)' "$T/mix.tr"
	fails_with 2 "unknown function 'foo'"
	run tr filter 'wall > 3 parsecs' "$T/mix.tr"
	fails_with 2 "unexpected 'parsecs'"
	run tr filter 'wall > 3xs' "$T/mix.tr"
	fails_with 2 "unknown unit 'xs'"
	run tr filter 'op == "MPI_Send' "$T/mix.tr"
	fails_with 2 "unterminated string"
	run tr filter 'op ~ "(" ' "$T/mix.tr"
	fails_with 2 "bad regular expression"
	run tr filter '(1 + 2' "$T/mix.tr"
	fails_with 2 "expected ')'"
	run tr filter '"a" + 1' "$T/mix.tr"
	fails_with 2 "'+' needs numbers"
	run tr filter '1 < 2 < 3' "$T/mix.tr"
	fails_with 2 "comparisons do not chain"
	run tr filter 'sqrt(1, 2)' "$T/mix.tr"
	fails_with 2 "sqrt takes 1 argument"
	run tr filter "op == 'x'" "$T/mix.tr"
	fails_with 2 "double quotes"
	run tr filter '' "$T/mix.tr"
	fails_with 2 "empty expression"
}

@test "tr-filter: a regular expression too costly to compile is refused, status 2" {
	# glibc's regcomp copies x+ as xx*: 22 '+' would take gigabytes
	# (a SIGSEGV under the limit; ASan reserves more than it)
	lim=1500000
	grep -q __asan_init "$TR_BIN/tr-filter" && lim=unlimited
	run bash -c "ulimit -v $lim; \"$TR_BIN/tr-filter\" 'op ~ \"(x++++++++++++++++++++++)\"' \"$T/mix.tr\""
	fails_with 2 "tr-filter: bad expression: regular expression refused: too costly to compile"
	# empty-matching repetitions, whose closures grow with the square
	run tr filter 'op ~ "(x*){4096}"' "$T/mix.tr"
	fails_with 2 "regular expression refused: too costly to compile"
	run tr filter 'op ~ "((((x*)*)*)*){256}"' "$T/mix.tr"
	fails_with 2 "regular expression refused: too costly to compile"
	# a group with an empty alternative matches nothing too: 4 GB
	run tr filter 'op ~ "((ba|){255}){100}"' "$T/mix.tr"
	fails_with 2 "regular expression refused: too costly to compile"
	# back-references, which make matching backtrack
	run tr filter 'op ~ "(.*)(.*)\\2\\1x"' "$T/mix.tr"
	fails_with 2 "regular expression refused: back-references"
	# groups too deep for glibc's recursive parser (a SIGSEGV)
	deep=$(printf '%20000s' '' | sed 's/ /(/g')x$(printf '%20000s' '' | sed 's/ /)/g')
	run tr filter "op ~ \"$deep\"" "$T/mix.tr"
	fails_with 2 "regular expression refused: groups nested too deep"
	# long but cheap ones are taken (counts up to POSIX's RE_DUP_MAX,
	# 255, as musl's regcomp takes no more)
	run tr filter 'op ~ "^MPI_(I?send|Recv)$|x{255}|((a|b){255}){100}|[[:alpha:]]+_[]a-z]"' "$T/mix.tr"
	[ "$status" -eq 0 ]
}

@test "usage and bad input" {
	run tr filter
	fails_with 2 "usage: tr-filter"
	run tr filter -x 'rank==0'
	fails_with 2 "usage: tr-filter"
	run tr filter -r 3-1 "$T/mix.tr"
	fails_with 2 "tr-filter: -r: '3-1': a range goes up from rank 0"
	run tr filter -w 5 "$T/mix.tr"
	fails_with 2 "tr-filter: -w: '5': not a window T0:T1"
	run tr filter 'op * 2 > 1' "$T/mix.tr"
	fails_with 3 "mix.tr:5: expression needs a number"
	printf '#tr 1\n%s\nev\t0\t0\n' "$EVFIELDS" > "$T/bad.tr"
	run tr filter 'rank==0' "$T/bad.tr"
	fails_with 3 "bad.tr:3:"
	run tr filter 'rank==0' "$T/missing.tr"
	fails_with 4 "missing.tr"
}

@test "gzip input and stdin" {
	gzip -c "$T/ring.tr" > "$T/ring.tr.gz"
	a=$(tr filter 'seq > 3' "$T/ring.tr.gz")
	b=$(tr filter 'seq > 3' < "$T/ring.tr")
	[ "$a" = "$b" ]
	[ "$(printf '%s\n' "$a" | grep -c '^ev')" -eq 12 ]
}

@test "regex results are remembered correctly beyond the memo's size" {
	# 6000 distinct sites of about 30 bytes: more strings than the memo
	# has slots and more bytes than it keeps, matched twice each.
	{
		hdr 1
		mawk 'BEGIN { for (i = 0; i < 12000; i++)
			printf "ev\t0\t%d\tMPI_Send\t%d\t%d\t0\tsome/long/site/name+0x%d\t-1\t0\t-1\t0\t-1\t-1\n",
			    i, i, i, i % 6000 }'
	} > "$BATS_TEST_TMPDIR/m.tr"
	run tr filter 'site ~ "[37]$" && site !~ "x1"' "$BATS_TEST_TMPDIR/m.tr"
	[ "$status" -eq 0 ]
	want=$(grep '^ev' "$BATS_TEST_TMPDIR/m.tr" | mawk -F'\t' '$8 ~ /[37]$/ && $8 !~ /x1/' | wc -l)
	[ "$want" -gt 1000 ]
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq "$want" ]
	[ "$(printf '%s\n' "$output" | grep '^ev' | mawk -F'\t' '$8 !~ /[37]$/ || $8 ~ /x1/' | wc -l)" -eq 0 ]
}

@test "a field compared with a string, either way round, passes lines unchanged" {
	{
		hdr 2; ev 0 0 MPI_Send 1 2; ev 1 0 MPI_Recv 1 2
		printf 'ev\t0\t1\tMPI_Send\t3\t4\t0\t\t-1\t0\t-1\t0\t-1\t-1\n'
	} > "$BATS_TEST_TMPDIR/s.tr"
	run tr filter 'op == "MPI_Send"' "$BATS_TEST_TMPDIR/s.tr"
	[ "$(printf '%s\n' "$output" | grep '^ev' | cut -f2,3)" = "$(printf '0\t0\n0\t1')" ]
	run tr filter '"MPI_Send" != op' "$BATS_TEST_TMPDIR/s.tr"
	[ "$(printf '%s\n' "$output" | grep '^ev')" = "$(ev 1 0 MPI_Recv 1 2 | tr -d '\n')" ]
	run tr filter 'site == "" || rank == "1"' "$BATS_TEST_TMPDIR/s.tr"
	[ "$(printf '%s\n' "$output" | grep '^ev' | cut -f2,3)" = "$(printf '1\t0\n0\t1')" ]
	run tr filter 'op == "MPI_Sen"' "$BATS_TEST_TMPDIR/s.tr"
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 0 ]
}

@test "bad input is still caught at its line while filtering" {
	{ hdr 2; ev 0 0 MPI_Send 1 2; ev 1 0 MPI_Recv 1 2; ev 1 1 MPI_Recv 3 2; } > "$BATS_TEST_TMPDIR/b.tr"
	run tr filter 'op ~ "Send"' "$BATS_TEST_TMPDIR/b.tr"
	fails_with 3 "b.tr:6: ev ends before it starts (2 < 3)"
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 1 ]
}

@test "integers the expression does not read are checked all the same" {
	# tr-filter converts only the fields it tests; the others are
	# checked a block at a time, and must fail as strictly, at their line.
	t=$BATS_TEST_TMPDIR/t.tr
	good='0	a.out+0x10	-1	0	-1	0	-1	-1'
	for tail in '0	s	--1	0	-1	0	-1	-1' '0	s	1-2	0	-1	0	-1	-1' \
	    '0	s	-1	-5	-1	0	-1	-1' '0	s	-1	0	+1	0	-1	-1' \
	    '0	s	-1	0	-1		-1	-1' '0	s	-1	0	-1	0	-1	-' \
	    '0	s	-1	0	-1	0	1a	-1' '0	s	-1	0	-1	0	-1	 1' \
	    '0	s	-1	0	-1	0	99999999999999999999	-1' \
	    '-2	s	-1	0	-1	0	-1	-1' '-	s	-1	0	-1	0	-1	-1' \
	    '0	s	-7	0	-1	0	-1	-1' '0	s	-1	0	-1	0	-1	-2'; do
		{ hdr 2; printf 'ev\t0\t0\tMPI_Send\t1\t2\t%s\n' "$good"
		  printf 'ev\t0\t1\tMPI_Send\t3\t4\t%s\n' "$tail"; } > "$t"
		run tr filter 'rank == 0' "$t"
		fails_with 3 "t.tr:5: ev '"
		run tr cat "$t"
		fails_with 3 "t.tr:5: ev '"
	done
	# Valid ones of every length the fast and careful paths take.
	{ hdr 2; printf 'ev\t1\t0\tMPI_Send\t1\t2\t%s\n' "$good"
	  printf 'ev\t1\t1\tMPI_Send\t3\t4\t-1\ts\t-1\t0\t0\t0\t123456789012345\t-1\n'
	  printf 'ev\t1\t2\tMPI_Send\t5\t6\t7\ts\t123456789012345\t123456789012345\t-123456789012345\t123456789012345\t-123456789012345\t1\n'
	} > "$t"
	run tr filter 'rank == 1 && bytes >= 0' "$t"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 3 ]
	run tr filter 'tag == -123456789012345' "$t"
	[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 1 ]
}

@test "a regex of literals nested thousands of groups deep still matches" {
	tr gen -P stencil3d -n 4 -i 2 > "$T/t.tr"
	deep=$(printf '%3000s' '' | sed 's/ /(/g')MPI_Isend$(printf '%3000s' '' | sed 's/ /)/g')
	run tr filter "op ~ \"^$deep\$\"" "$T/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f4 | sort -u)" = MPI_Isend ]
}

@test "tests bound to the ev layout agree with the general evaluator" {
	# An ev expression whose operands all have known kinds is run as a
	# tree bound to the parsed record; the same columns under a type of
	# no schema go through the slots. Both must keep the same lines.
	t=$BATS_TEST_TMPDIR
	tr gen -P stencil3d -n 8 -i 3 -j 0.3 -R 5 > "$t/ev.tr"
	sed 's/^ev\t/xev\t/; s/^#fields\tev\t/#fields\txev\t/' "$t/ev.tr" > "$t/x.tr"
	n=0
	while IFS= read -r x; do
		run tr filter "$x" "$t/ev.tr"
		[ "$status" -eq 0 ]
		a=$(printf '%s\n' "$output" | grep -v '^#')
		run tr filter "$x" "$t/x.tr"
		[ "$status" -eq 0 ]
		b=$(printf '%s\n' "$output" | grep -v '^#' | sed 's/^xev\t/ev\t/')
		[ "$a" = "$b" ] || { echo "differs: $x"; false; }
		k=$(printf '%s\n' "$a" | grep -c . || true)
		# neither everything nor nothing, or the case shows little
		[ "$k" -gt 0 ] && [ "$k" -lt "$(grep -c '^ev' "$t/ev.tr")" ] && n=$((n + 1))
	done <<'X'
rank == 3
rank != 3 && seq >= 2
op == "MPI_Waitall" && end - start > 1us
"MPI_Isend" == op || op == "MPI_Irecv"
op != "MPI_Waitall"
op < "MPI_J" && op >= "MPI_A"
site > "stencil3d+0x2" || site < op
op ~ "^MPI_(Isend|Irecv)$" && bytes >= 1KiB
op !~ "Wait" && !(peer == -1)
op in {MPI_Isend, "MPI_Irecv", MPI_Barrier}
peer in {0, 1, 2}
!(rank in {1, 3}) && op
(end - start) / 2 + cpu * 0 > 3us || abs(start - end) < 2us
min(rank, seq) == 1 || max(rank, seq, 7) > 7
sqrt(rank) > 1.5 && log2(bytes + 1) >= 1
(op == "MPI_Isend") + (rank > 4) >= 1
rank % 3 == 1 && -tag < 0
2 ^ rank > 16 || floor(seq / 2) == 1
seq % 2
site
op ~ "^MPI_I" && op ~ "(send|recv)$"
op ~ "all$" || site ~ "0x(1|2)"
op !~ "^MPI_(Isend|Irecv)$" && op ~ "^MPI_(I(send|recv)|Waitall|Barrier)$"
op ~ "^(MPI_Waitall|)$" || op ~ "Irec" || site ~ "^$"
op ~ "I.ecv" || op ~ "^MPI_Isend|Barrier$"
op ~ "s(e|a)nd" && op ~ "^MPI_\\I"
op ~ "^MPI_(Wait|Isend)$" || rank == 0
op in {"MPI_Isend", "MPI_Isen", "", MPI_Waitall}
!(op in {MPI_Irecv}) && site in {"stencil3d+0x100", "stencil3d+0x10"}
site in {"stencil3d+0x101", "a name of more than 16 bytes"} || rank == 1
op in {MPI_Isend, 3} || op in {"MPI_Irecv", "MPI_Irecv"}
X
	[ "$n" -ge 28 ]
}
