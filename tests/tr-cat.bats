#!/usr/bin/env bats
# tr-cat: concatenation, time merge, sections, gzip, and strict checking.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
	{ hdr 2; printf '#meta host.0=a\n'; ev 0 0 MPI_Init 10 20; ev 0 1 MPI_Send 30 40 5 x+0x2 1 8 0; } > r0.tr
	{ hdr 2; printf '#meta host.1=b\n'; ev 1 0 MPI_Init 11 21; ev 1 1 MPI_Recv 25 45 5 x+0x3 0 8 0; } > r1.tr
}

@test "tr-cat: per-rank files of one run get one merged header" {
	run tr cat r0.tr r1.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^#tr 1$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^#meta np=2$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^#fields' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^#meta host' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 4 ]
}

@test "tr-cat: output is valid input, unchanged by a second pass" {
	tr cat r0.tr r1.tr > a
	tr cat a > b
	cmp a b
}

@test "tr-cat -m: merges by start time" {
	run tr cat -m r0.tr r1.tr
	[ "$status" -eq 0 ]
	[ "$(grep "^ev" <<<"$output" | cut -f5 | paste -sd,)" = "10,11,25,30" ]
}

@test "tr-cat -m: a k-way merge of 16 generated rank files equals a sort by time" {
	for r in $(seq 0 15); do tr gen -P stencil2d -n 16 -i 5 -j 0.3 -r $r > g$r.tr; done
	tr cat -m g*.tr | grep '^ev' | cut -f5 > merged
	sort -n -c merged
	[ "$(wc -l < merged)" -eq "$(tr gen -P stencil2d -n 16 -i 5 -j 0.3 | grep -c '^ev')" ]
}

@test "tr-cat -m: refuses files of different runs" {
	sed 's/np=2/np=4/' r1.tr > r1x.tr
	run tr cat -m r0.tr r1x.tr
	fails_with 3 "r1x.tr:"
	[[ "$output" == *"header disagrees"* ]]
}

@test "tr-cat -m: a file given twice is refused, a rank's records split in time are merged back" {
	# each input was checked alone: the merge wrote rank 0's records
	# twice, a stream that goes back, with status 0 (fuzzed)
	run stderr_of tr cat -m r0.tr r1.tr r0.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: r0.tr:5: rank 0's records here and in r0.tr overlap (seq 0 after 0): a file given twice?" ]
	tr gen -P ring -n 2 -i 4 > g.tr
	tr filter -w :2ms g.tr > early.tr
	tr filter -w 2ms: -e 'start >= 2ms' g.tr > late.tr
	tr cat -m early.tr late.tr > m.tr
	tr cat m.tr > /dev/null
	[ "$(grep '^ev' g.tr | sort)" = "$(grep '^ev' m.tr | sort)" ]
}

@test "tr-cat: different runs in one stream stay separate sections" {
	sed 's/np=2/np=4/' r1.tr > r1x.tr
	run tr cat r0.tr r1x.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^#tr 1$' <<<"$output")" -eq 2 ]
	cat r0.tr r1x.tr | tr cat > viapipe
	[ "$(grep -c '^#tr 1$' viapipe)" -eq 2 ]
}

@test "tr-cat: reads gzip and stdin, writes gzip with -z" {
	gzip -k r1.tr
	run tr cat r0.tr r1.tr.gz
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 4 ]
	tr cat -z < r0.tr > out.gz
	gzip -t out.gz
	[ "$(gzip -dc out.gz | grep -c '^ev')" -eq 2 ]
	gzip -c r0.tr | tr cat - > fromstdin
	grep -q MPI_Send fromstdin
}

@test "tr-cat: concatenated gzip members are one stream" {
	{ gzip -c r0.tr; gzip -c r1.tr; } > both.gz
	run tr cat both.gz
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 4 ]
}

@test "tr-cat: a missing file is reported, the others are read, exit 4" {
	run tr cat r0.tr nosuch.tr
	[ "$status" -eq 4 ]
	[[ "$output" == *"nosuch.tr: No such file"* ]]
	[[ "$output" == *MPI_Send* ]]
}

@test "tr-cat: wrong field count" {
	{ hdr 2; printf 'ev\t0\t0\tMPI_Init\t1\t2\n'; } > bad
	run tr cat bad
	fails_with 3 "tr-cat: bad:4: expected 14 fields for 'ev', got 6"
}

@test "tr-cat: non-numeric number" {
	{ hdr 2; ev 0 0 MPI_Init 1x 2; } > bad
	run tr cat bad
	fails_with 3 "bad:4: ev 'start': not an integer: '1x'"
}

@test "tr-cat: overflowing number" {
	{ hdr 2; ev 0 0 MPI_Init 1 99999999999999999999; } > bad
	run tr cat bad
	fails_with 3 "bad:4: ev 'end': integer out of range"
}

@test "tr-cat: negative time" {
	{ hdr 2; ev 0 0 MPI_Init -5 2; } > bad
	run tr cat bad
	fails_with 3 "bad:4: ev 'start': must not be negative"
}

@test "tr-cat: time decreasing within a rank" {
	{ hdr 2; ev 0 0 MPI_Init 100 200; ev 1 0 MPI_Init 10 20; ev 0 1 MPI_Send 150 300; } > bad
	run tr cat bad
	fails_with 3 "bad:6: rank 0: time goes back"
}

@test "tr-cat: sequence number going back, end before start, rank beyond np" {
	{ hdr 2; ev 0 5 MPI_Init 100 200; ev 0 4 MPI_Send 300 400; } > bad
	run tr cat bad
	fails_with 3 "bad:5: rank 0: sequence number goes back"
	{ hdr 2; ev 0 0 MPI_Init 300 200; } > bad
	run tr cat bad
	fails_with 3 "bad:4: ev ends before it starts"
	{ hdr 2; ev 2 0 MPI_Init 100 200; } > bad
	run tr cat bad
	fails_with 3 "bad:4: rank 2 out of range (np=2)"
}

@test "tr-cat: np is a number of ranks from 1 to 2^24, checked at its line" {
	for np in 0 -1 2000000000 9223372036854775807 16777217 x ''; do
		printf '#tr 1\n#meta app=a\n#meta np=%s\n%s\n' "$np" "$EVFIELDS" > bad
		ev 0 0 MPI_Init 1 2 >> bad
		run stderr_of tr cat bad
		[ "$status" -eq 3 ]
		[ "$output" = "tr-cat: bad:3: #meta np=$np: not a number of ranks (an integer from 1 to 16777216)" ]
	done
	{ hdr 16777216; ev 16777215 0 MPI_Init 1 2; } > ok
	run tr cat ok
	[ "$status" -eq 0 ]
	# np told after records of a rank beyond it, in the same section
	{ printf '#tr 1\n%s\n' "$EVFIELDS"; ev 5 0 MPI_Init 1 2; printf '#meta np=4\n'; ev 0 0 MPI_Init 1 2; } > bad
	run stderr_of tr cat bad
	fails_with 3 "bad:5: #meta np=4, but rank 5 has records before it"
}

@test "tr-cat: peer and root are ranks or -1; tag, comm and req may be below" {
	{ hdr 4; ev 0 0 MPI_Init 1 2; ev 1 0 MPI_Send 1 2 0 a.out+0x10 -7 8 0; } > bad
	run stderr_of tr cat bad
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: bad:5: ev 'peer': must be -1 or more: '-7'" ]
	{ hdr 4; ev 0 0 MPI_Bcast 1 2 0 a.out+0x10 -1 8 -1 0 -1 -2; } > bad
	run stderr_of tr cat bad
	fails_with 3 "bad:4: ev 'root': must be -1 or more: '-2'"
	# MPI_Abort's error code and MPI_Pcontrol's level are in tag.
	{ hdr 4; ev 0 0 MPI_Abort 1 2 0 a.out+0x10 -1 0 -5 -3 -9 -1; } > ok
	run tr cat ok
	[ "$status" -eq 0 ]
}

@test "tr-cat: a bad header line is quoted up to its end, on one line" {
	printf '#tr 1\n#meta\n#meta a=b\n%s\n' "$EVFIELDS" > bad
	run stderr_of tr cat bad
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: bad:2: unknown header line '#meta'" ]
}

@test "tr-cat: a new section whose records are not declared: one error" {
	{ hdr 2; ev 0 0 MPI_Init 1 2; printf '#tr 1\n#meta np=8\n'; ev 0 1 MPI_Init 3 4; } > bad
	run stderr_of tr cat bad
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: bad:7: record type 'ev' has no #fields line" ]
}

@test "tr-cat: unknown version" {
	printf '#tr 2\n' > bad
	run tr cat bad
	fails_with 3 "bad:1: format version 2 is not supported"
}

@test "tr-cat: DOS line ends are named, not taken for bad names" {
	hdr 1 | sed 's/$/\r/' > dos
	run tr cat dos
	fails_with 3 "dos:1: the line ends in a carriage return (DOS line ends"
	# a header line alone
	{ hdr 1 | sed '2s/$/\r/'; ev 0 0 MPI_Init 1 2; } > dos2
	run tr cat dos2
	fails_with 3 "dos2:2: the line ends in a carriage return"
	# a record, whose last field would read as a bad number, or pass
	# as a name with the CR in it
	{ hdr 1; ev 0 0 MPI_Init 1 2 | sed 's/$/\r/'; } > dos3
	run stderr_of tr cat dos3
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: dos3:4: the line ends in a carriage return (DOS line ends: remove them with tr -d '\\r')" ]
	{ hdr 2; ev 0 0 MPI_Init 1 2; ev 1 0 MPI_Init 1 2 | sed 's/$/\r/'; } > dos4
	gzip -c dos4 > dos4.gz
	run stderr_of tr cat -m dos3 dos4.gz
	[ "$status" -eq 3 ]
	[[ "$output" == *"dos"[34]*": the line ends in a carriage return (DOS line ends"* ]]
	printf '#tr 1\n#fields\tx\tname\nx\tab\r\n' > dos5
	run tr cat dos5
	fails_with 3 "dos5:3: the line ends in a carriage return"
}

@test "tr-cat: missing header" {
	ev 0 0 MPI_Init 1 2 > bad
	run tr cat bad
	fails_with 3 "bad:1: missing header"
}

@test "tr-cat: a record type with no #fields line" {
	{ hdr 2; printf 'xyz\t1\n'; } > bad
	run tr cat bad
	fails_with 3 "bad:4: record type 'xyz' has no #fields line"
}

@test "tr-cat: #fields of a known type must match the format" {
	printf '#tr 1\n#fields\tev\trank\tseq\n' > bad
	run tr cat bad
	fails_with 3 "bad:2: #fields of a type that tr 1 defines must be"
}

@test "tr-cat: unknown types pass through, checked against their #fields" {
	{ hdr 2; printf '#fields\tnote\ta\tb\n'; printf 'note\tx\ty\n'; ev 0 0 MPI_Init 1 2; } > ok
	run tr cat ok
	[ "$status" -eq 0 ]
	[[ "$output" == *$'note\tx\ty'* ]]
	printf 'note\tx\n' >> ok
	run tr cat ok
	fails_with 3 "ok:7: expected 3 fields for 'note', got 2"
}

@test "tr-cat -m: a rank's file left out is a warning; tr-cat alone checks no ranks" {
	for r in 0 1 3; do { hdr 4; ev $r 0 MPI_Init $r 10; } > r$r.tr; done
	run stderr_of tr cat -m r0.tr r1.tr r3.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-cat: r0.tr:2: np=4, but rank 2 has no records: a rank's file missing? (a selection of ranks says #meta subset)" ]
	# the records are all copied, and the tools that need every rank stop
	[ "$(tr cat -m r0.tr r1.tr r3.tr 2>/dev/null | grep -c '^ev')" -eq 3 ]
	run stderr_of sh -c 'tr-cat -m r0.tr r1.tr r3.tr 2>/dev/null | tr-stat'
	[ "$status" -eq 3 ]
	[ "$output" = "tr-stat: stdin:2: np=4, but rank 2 has no records: a rank's file missing? (a selection of ranks says #meta subset)" ]
	{ hdr 4; ev 2 0 MPI_Init 2 10; } > r2.tr
	run stderr_of tr cat -m r0.tr r1.tr r2.tr r3.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# a rank that died before its first call, a selection, or pieces
	printf '#tr 1\n#meta end.2=SIGTERM\n' >> r1.tr
	run stderr_of tr cat -m r0.tr r1.tr r3.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	printf '#tr 1\n#meta subset=x\n' > sub.tr
	run stderr_of tr cat -m r0.tr r3.tr sub.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run stderr_of tr cat r0.tr r3.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "tr-cat: truncated gzip keeps what came before and says where it ends" {
	tr gen -n 4 -i 200 | gzip -c > full.gz
	head -c $(( $(stat -c %s full.gz) / 2 )) full.gz > cut.gz
	run tr cat cut.gz
	[ "$status" -eq 3 ]
	[[ "$output" == *"cut.gz:"*"truncated gzip stream"* ]]
	tr cat cut.gz > part 2>/dev/null || true
	[ "$(grep -c '^ev' part)" -gt 100 ]
	# every line delivered is complete
	awk -F'\t' '/^ev/ && NF != 14 { exit 1 }' part
	# named by its last complete line; the files after it are copied
	run stderr_of tr cat cut.gz
	[ "$output" = "tr-cat: cut.gz:$(wc -l < part): truncated gzip stream after this line, the last complete one" ]
	tr gen -n 4 -i 3 > more.tr
	tr cat cut.gz more.tr > both 2>/dev/null && false || [ $? -eq 3 ]
	{ cat part; tr cat more.tr; } | tr cat | cmp - both
	# a stream cut before its first line
	head -c 20 full.gz > tiny.gz
	run stderr_of tr cat tiny.gz
	[ "$status" -eq 3 ]
	[ "$output" = "tr-cat: tiny.gz:1: truncated gzip stream: no complete line" ]
}

@test "tr-cat: binary junk" {
	head -c 4096 /dev/urandom > junk
	run tr cat junk
	[ "$status" -eq 3 ]
	[[ "$output" == *"junk:1:"* ]]
	{ hdr 2; printf 'ev\t0\0\n'; } > nul
	run tr cat nul
	fails_with 3 "nul:4: binary data (a NUL byte)"
}

@test "tr-cat: a 1 MB line" {
	{ hdr 2; head -c 1048576 /dev/zero | tr '\0' a; echo; } > long
	run tr cat long
	fails_with 3 "long:4: line longer than 65536 bytes"
}

@test "tr-cat: empty input, on stdin and as a file" {
	: > empty
	run tr cat empty
	fails_with 3 "empty:1: empty input"
	run tr cat < empty
	fails_with 3 "stdin:1: empty input"
}

@test "tr-cat: an unterminated last line" {
	{ hdr 2; ev 0 0 MPI_Init 1 2 | head -c 20; } > cut
	run tr cat cut
	fails_with 3 "cut:4: incomplete last line"
}

@test "tr-cat: conflicting metadata without a new #tr line" {
	{ hdr 2; ev 0 0 MPI_Init 1 2; printf '#meta np=3\n'; ev 1 0 MPI_Init 1 2; } > bad
	run tr cat bad
	fails_with 3 "disagrees with the header"
}

@test "tr-cat: a write error on stdout is reported" {
	[ -w /dev/full ] || skip "no /dev/full"
	run tr cat r0.tr r1.tr
	run sh -c "$TR_BIN/tr-cat r0.tr > /dev/full"
	fails_with 4 "tr-cat: write error: No space left on device"
}

@test "tr-cat: a closed pipe ends it quietly" {
	tr gen -n 64 -i 200 > big
	run sh -c "$TR_BIN/tr-cat big | head -n 1"
	[ "$status" -eq 0 ]
	[ "$output" = "#tr 1" ]
}

@test "tr-cat: bad option" {
	run tr cat -q
	fails_with 2 "usage: tr-cat"
}

@test "tr-cat: numbers of 1 to 18 digits read back exactly, signed and not" {
	{
		hdr 40
		n=0
		for d in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do
			v=$(printf '%.*s' "$d" 987654321098765432)
			ev "$n" 0 MPI_Send "$v" "$v" 0 a.out+0x10 -1 "$v" "-$v"
			n=$((n + 1))
		done
	} > "$BATS_TEST_TMPDIR/n.tr"
	run tr cat "$BATS_TEST_TMPDIR/n.tr"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/n.tr")" ]
	for d in 1 5 8 9 15 16 18; do
		v=$(printf '%.*s' "$d" 987654321098765432)
		run tr filter "start == $v && bytes == $v && tag == -$v && rank == $((d - 1))" "$BATS_TEST_TMPDIR/n.tr"
		[ "$(printf '%s\n' "$output" | grep -c '^ev')" -eq 1 ]
	done
}

@test "tr-cat: bad numbers of every length are caught at their line" {
	for bad in 1x 12x4567 1234567x9 12345678901234x '-' '--1' '+5' ' 7' '0x10' 12345678901234567890; do
		{ hdr 4; ev 0 0 MPI_Init 5 9; ev 1 0 MPI_Init 5 9 0 a.out+0x10 -1 "$bad"; } > "$BATS_TEST_TMPDIR/b.tr"
		run tr cat "$BATS_TEST_TMPDIR/b.tr"
		fails_with 3 "b.tr:5: ev 'bytes': "
	done
	{ hdr 4; ev 0 0 MPI_Init 5 9 -2; } > "$BATS_TEST_TMPDIR/b.tr"
	run tr cat "$BATS_TEST_TMPDIR/b.tr"
	fails_with 3 "b.tr:4: ev 'cpu': must be -1 or more: '-2'"
	{ hdr 4; ev 0 0 MPI_Init 5 9 0 a.out -1 -3; } > "$BATS_TEST_TMPDIR/b.tr"
	run tr cat "$BATS_TEST_TMPDIR/b.tr"
	fails_with 3 "b.tr:4: ev 'bytes': must not be negative: '-3'"
	{ hdr 4; ev 0 0 '' 5 9; } > "$BATS_TEST_TMPDIR/b.tr"
	run tr cat "$BATS_TEST_TMPDIR/b.tr"
	fails_with 3 "b.tr:4: ev 'op': empty:"
	{ hdr 4; ev 0 0 MPI_Init 5 9 0 ''; } > "$BATS_TEST_TMPDIR/b.tr"
	run tr cat "$BATS_TEST_TMPDIR/b.tr"
	[ "$status" -eq 0 ]
}

@test "tr-cat: records across many read buffers, a bad one far in" {
	tr gen -P ring -n 8 -i 4000 -R 3 > "$BATS_TEST_TMPDIR/big.tr"
	[ "$(wc -c < "$BATS_TEST_TMPDIR/big.tr")" -gt 1000000 ]
	run tr cat "$BATS_TEST_TMPDIR/big.tr"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/big.tr")" ]
	# A NUL, a missing and an extra field, each far into the file.
	n=$(($(wc -l < "$BATS_TEST_TMPDIR/big.tr") - 7))
	for sub in 's/MPI_/MP\x00I_/' 's/\t[^\t]*$//' 's/$/\t1/'; do
		sed "${n}${sub}" "$BATS_TEST_TMPDIR/big.tr" > "$BATS_TEST_TMPDIR/bad.tr"
		run tr cat "$BATS_TEST_TMPDIR/bad.tr"
		fails_with 3 "bad.tr:$n: "
	done
	printf '%s\n' "$output" | grep -q "expected 14 fields for 'ev', got 15"
}

@test "tr-cat: files read ahead on a second thread give what a pipe gives" {
	# Regular files of 64 KiB or more are read (and inflated) ahead in
	# blocks; stdin is read in line. Both must see the same stream.
	tr gen -P stencil3d -n 8 -i 2000 -R 4 > big.tr
	[ "$(wc -c < big.tr)" -gt 4000000 ]
	# Lines close to the longest allowed, at many offsets, so that some
	# straddle the blocks.
	long=$(head -c 65000 /dev/zero | tr '\0' x)
	awk -v l="$long" 'NR > 20 && NR % 9000 == 0 { print "#meta note" NR "=" l } { print }' big.tr > long.tr
	gzip -c long.tr > long.tr.gz
	want=$(tr cat - < long.tr)
	[ "$(printf '%s\n' "$want" | grep -c '^#meta note')" -ge 8 ]
	run tr cat long.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	run tr cat long.tr.gz
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# Lines so short that a block holds more ends than its index.
	{ printf '#tr 1\n#fields\tk\tv\n'; seq 1 300000 | sed 's/^/k\t/'; } > short.tr
	run tr cat short.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$(tr cat - < short.tr)" ]
	[ "$(printf '%s\n' "$output" | grep -c '^k')" -eq 300000 ]
	# Several files in turn, large and small, plain and gzip.
	run tr cat long.tr.gz r0.tr big.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$(tr cat - < long.tr.gz; tr cat - < r0.tr; tr cat - < big.tr)" ] || \
	    [ "$output" = "$(gzip -dc long.tr.gz | cat - r0.tr big.tr | tr cat -)" ]
}

@test "tr-cat: a large gzip file cut or damaged keeps its good lines" {
	tr gen -P stencil3d -n 8 -i 2000 -R 4 | gzip -c > full.gz
	size=$(stat -c %s full.gz)
	head -c $((size * 2 / 3)) full.gz > cut.gz
	tr cat cut.gz > part 2> err && false
	grep -q 'cut.gz:[0-9]*: truncated gzip stream' err
	[ "$(grep -c '^ev' part)" -gt 30000 ]
	awk -F'\t' '/^ev/ && NF != 14 { exit 1 }' part
	# What came out is the start of the whole.
	gzip -dc full.gz | head -n "$(wc -l < part)" | cmp - part
	# A damaged checksum: the lines before the last inflated piece
	# come out, then the error.
	{ head -c $((size - 8)) full.gz; printf '\1\2\3\4'; tail -c 4 full.gz; } > bad.gz
	tr cat bad.gz > part 2> err && false
	# the line after the last one written
	grep -q "bad.gz:$(($(wc -l < part) + 1)): corrupt gzip data (incorrect data check)" err
	[ "$(grep -c '^ev' part)" -gt 100000 ]
	gzip -dc full.gz | head -n "$(wc -l < part)" | cmp - part
	# Junk after the last member.
	{ cat full.gz; printf 'junk'; } > junk.gz
	run tr cat junk.gz
	fails_with 3 "junk.gz:"
	[[ "$output" == *"junk after the end of the gzip data"* ]]
}

@test "tr-cat: a merge of many large files reads at most two of them ahead" {
	# Two threads and their blocks, whatever the number of inputs: a
	# merge of a thousand per-rank files must not hold 4 MiB for each.
	# Files of more than four blocks: their threads wait for the merge
	# to take blocks, so they are alive to be counted.
	tr gen -P ring -n 5 -i 70000 -R 2 > all.tr
	for r in 0 1 2 3 4; do
		{ grep '^#' all.tr; grep "^ev	$r	" all.tr; } > "r$r.big"
		[ "$(wc -c < "r$r.big")" -gt 5000000 ]
	done
	mkfifo last
	"$TR_BIN/tr-cat" -m r0.big r1.big r2.big r3.big last > merged &
	pid=$!
	# The merge waits on the FIFO with the other four open.
	for i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.2
		[ "$(ls /proc/$pid/task | wc -l)" -lt 3 ] || break
	done
	threads=$(ls /proc/$pid/task | wc -l)
	cat r4.big > last
	wait $pid
	[ "$threads" -eq 3 ]
	[ "$(grep -c '^ev' merged)" -eq "$(grep -c '^ev' all.tr)" ]
}

@test "tr-cat: no file and a terminal for stdin is a usage error, not a wait for input" {
	# tr-cat -m $(ls run/*.tr.gz) of an empty directory waited (tr(7))
	on_tty cat
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-cat: no file given, and stdin is a terminal"* ]]
	on_tty cat -m
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-cat: no file given, and stdin is a terminal"* ]]
}

@test "tr-cat -m: progress of a merge on a terminal's stderr, none with -Q" {
	cd "$BATS_TEST_TMPDIR"
	for r in 0 1; do tr gen -P ring -n 2 -i 40000 -r $r > r$r.tr; done
	tr cat -m r0.tr r1.tr > want
	mkfifo f
	merge() {
		{ head -n 5000 r1.tr; sleep 1.5; tail -n +5001 r1.tr; } > f &
		run timeout 30 script -qec "$TR_BIN/tr-cat $1 -m r0.tr f > got" /dev/null
		wait
	}
	merge ""
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-cat: "*" records/s"* ]]
	cmp want got
	merge -Q
	[ "$status" -eq 0 ]
	[[ "$output" != *"records/s"* ]]
	cmp want got
}
