load helper

setup() {
	command -v otf2-print >/dev/null || skip "otf2-tools is not installed"
	cd "$BATS_TEST_TMPDIR"
}

# keep FILE: the columns of ev, reg and comm records a round trip keeps,
# sorted, times from the first record. Completions are read back with
# their request's peer, bytes and tag; calls without messages keep no
# communicator; MPI_Pcontrol's level and a neighborhood collective's
# bytes have no place in OTF2 (tr-to-otf2(1), CAVEATS).
keep() {
	awk -F'\t' 'NR == FNR {
		t = $1 == "ev" ? $5 : $1 == "reg" ? $6 : ""
		if (t != "" && (m == "" || t + 0 < m)) m = t + 0
		next }
	$1 == "ev" {
		if ($4 ~ /^MPI_(Wait|Test)/) $9 = $10 = $11 = "x"
		if ($9 == -1 && $14 == -1 && $4 !~ /Barrier|Bcast|Reduce|Gather|Scatter|All|Scan|Comm_|Cart_|Intercomm/) $12 = "x"
		if ($4 ~ /Pcontrol|Neighbor/) $10 = $11 = "x"
		print $2, $3, $4, $5 - m, $6 - m, $9, $10, $11, $12, $13, $14 }
	$1 == "reg" { print $2, $3, $4, $5, $6 - m }
	$1 == "comm" && $3 > 1 { print "comm", $2, $3, $4, $5 }' "$1" "$1" | sort
}

# trip FILE...: FILE to OTF2 and back, the kept columns compared.
trip() {
	rm -rf o
	tr to-otf2 -o o "$@"
	tr from-otf2 o/traces.otf2 > back.tr
	cat "$@" | gzip -dcf > in.tr
	keep in.tr > in.keep
	keep back.tr > back.keep
	[ -s in.keep ]
	diff in.keep back.keep
}

@test "tr-to-otf2: tr-gen traces of every pattern come back from OTF2" {
	for p in ring stencil1d stencil2d stencil3d alltoall master; do
		tr gen -P $p -n 8 -i 4 > $p.tr
		trip $p.tr
	done
}

@test "tr-to-otf2: a trace extrapolated to 1024 ranks comes back from OTF2" {
	for n in 4 8 16; do tr gen -P stencil2d -n $n -i 3 -R 3 > g$n.tr; done
	for n in 4 8 16; do tr delta -s g$n.tr; tr stat g$n.tr; done |
		tr fit -i > m.tr 2> /dev/null
	tr extrap -T -n 1024 -R 5 m.tr g16.tr > t.tr
	trip t.tr
	[ "$(ls o/traces | grep -c '\.evt$')" -eq 1024 ]
}

@test "tr-to-otf2: interleaved ranks, ranks one after the other, stdin" {
	tr gen -P stencil2d -n 6 -i 3 > g.tr
	trip g.tr
	cp back.keep merged.keep
	# rank after rank, as per-rank files concatenated
	{ head -n 12 g.tr; for r in 0 1 2 3 4 5; do
		awk -F'\t' -v r=$r '$1 == "ev" && $2 == r' g.tr; done; } > byrank.tr
	trip byrank.tr
	diff merged.keep back.keep
	rm -rf s && tr to-otf2 -o s < g.tr
	tr from-otf2 s/traces.otf2 | cmp - back.tr
}

@test "tr-to-otf2: the bundled recording keeps its calls, regions and communicators" {
	trip "$SAMPLES"/stencil/np16/*.tr.gz
	grep -q '^comm	3	2	16	0-15$' back.tr
	grep -q '^reg	0	2	enter	solve	' back.tr
	grep -qx '#meta host.15=vm' back.tr
}

@test "tr-to-otf2: a recording of the project's communicators example" {
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
	    -o rec "$TR_MPIBIN/comms" > rec.out 2>&1 || { cat rec.out; false; }
	tr cat -m rec/rank.*.tr.gz > rec.tr
	trip rec.tr
	grep -c '^comm	' back.tr
	# every communicator a call made is read back as the id it made
	run awk -F'\t' '$1 == "ev" && $4 ~ /^MPI_Comm_split$/ && $13 < 2' back.tr
	[ -z "$output" ]
}

@test "tr-to-otf2: communicators made in another order on some rank are said" {
	cm() { printf 'comm\t%s\t%s\t2\t%s\n' "$@"; }
	{ hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  cm 0 2 0-1; cm 0 3 0,2; cm 1 2 0-1; cm 2 2 2-3; cm 2 3 0,2; cm 3 2 2-3
	  for r in 0 1 2 3; do ev $r 0 MPI_Init 0 10; done
	  ev 2 1 MPI_Send 20 30 0 - 0 8 1 3; } > c.tr
	run stderr_of tr to-otf2 -o o c.tr
	[ "$output" = "tr-to-otf2: o: rank 2 made communicators in another order than the archive defines them: readers give them other ids" ]
	# the send is on the communicator of ranks 0 and 2, whatever its id
	tr from-otf2 o/traces.otf2 > back.tr
	id=$(awk -F'\t' '$1 == "comm" && $2 == 2 && $5 == "0,2" { print $3 }' back.tr)
	[ "$(awk -F'\t' '$1 == "ev" && $4 == "MPI_Send" { print $9, $12 }' back.tr)" = "0 $id" ]
	run stderr_of tr to-otf2 -Q -o q c.tr
	[ -z "$output" ]
}

@test "tr-to-otf2: otf2-print reads the events and sends of the input" {
	tr gen -P stencil3d -n 8 -i 3 > g.tr
	tr to-otf2 -o o g.tr
	otf2-print o/traces.otf2 > p.txt
	for r in 0 3 7; do
		n() { awk -v r=$r -v k="$1" '$1 == k && $2 == r' p.txt | wc -l; }
		c() { awk -F'\t' -v r=$r -v op="$1" '$1 == "ev" && $2 == r && $4 == op' g.tr | wc -l; }
		[ "$(n ENTER)" -eq "$(awk -F'\t' -v r=$r '$1 == "ev" && $2 == r { print $3 }' g.tr | sort -u | wc -l)" ]
		[ "$(n ENTER)" -eq "$(n LEAVE)" ]
		[ "$(n MPI_ISEND)" -eq "$(c MPI_Isend)" ]
		[ "$(n MPI_ISEND_COMPLETE)" -eq "$(c MPI_Isend)" ]
		[ "$(n MPI_IRECV_REQUEST)" -eq "$(c MPI_Irecv)" ]
		[ "$(n MPI_IRECV)" -eq "$(c MPI_Irecv)" ]
		[ "$(n MPI_COLLECTIVE_END)" -eq "$(c MPI_Allreduce)" ]
	done
	awk '$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
		r = $5; for (i = 1; i <= NF; i++) if ($i == "Length:") b = $(i + 1)
		sub(/,/, "", b); n[$2 " " r]++; s[$2 " " r] += b }
		END { for (k in n) print k, n[k], s[k] }' p.txt | sort > otf2.cmat
	tr stat g.tr | awk -F'\t' '$1 == "cmat" { print $2, $3, $4, $5 }' | sort > tr.cmat
	[ -s otf2.cmat ]
	diff otf2.cmat tr.cmat
	grep -q 'CLOCK_PROPERTIES.*Ticks per Seconds: 1000000000' <(otf2-print -G o/traces.otf2)
}

@test "tr-to-otf2: records it cannot place are an error at their line" {
	{ hdr 2; ev 2 0 MPI_Init 0 10; } > rank.tr
	run tr to-otf2 -o a rank.tr
	fails_with 3 "tr-to-otf2: rank.tr:4: rank 2 out of range (np=2)"
	{ hdr 2; ev 0 0 MPI_Wait 0 10 0 - -1 0 -1 0 5; } > wait.tr
	run tr to-otf2 -o b wait.tr
	fails_with 3 "tr-to-otf2: wait.tr:4: rank 0 completes request 5, which it never started"
	{ hdr 2; ev 1 0 MPI_Send 0 10 0 - 0 8 1 3; } > comm.tr
	run tr to-otf2 -o c comm.tr
	fails_with 3 "tr-to-otf2: comm.tr:4: communicator 3 of rank 1 has no comm record before it"
	{ hdr 2; ev 0 0 MPI_Init 20 30; ev 0 1 MPI_Barrier 10 40 0 - -1 0 -1 0; } > back.tr
	run tr to-otf2 -o d back.tr
	fails_with 3 "tr-to-otf2: back.tr:5: "
	printf '#tr 1\n%s\n' "$EVFIELDS" > nonp.tr
	ev 0 0 MPI_Init 0 10 >> nonp.tr
	run tr to-otf2 -o e nonp.tr
	fails_with 3 "tr-to-otf2: nonp.tr:3: no #meta np"
	{ hdr 2; ev 0 0 MPI_Init 0 10; hdr 4; ev 0 0 MPI_Init 0 10; } > two.tr
	run tr to-otf2 -o f two.tr
	fails_with 3 "tr-to-otf2: two.tr:"
	printf '#tr 1\nev\t0\n' > bad.tr
	run tr to-otf2 -o g bad.tr
	[ "$status" -eq 3 ]
	[ "${output#tr-to-otf2: bad.tr:2: }" != "$output" ]
}

@test "tr-to-otf2: an output directory that exists or cannot be made" {
	tr gen -n 2 -i 1 > g.tr
	mkdir o
	run tr to-otf2 -o o g.tr
	fails_with 4 "tr-to-otf2: o: File exists"
	run tr to-otf2 -o nope/o g.tr
	fails_with 4 "tr-to-otf2: nope/o: No such file or directory"
	run tr to-otf2 -o x missing.tr
	[ "$status" -eq 4 ]
}

@test "tr-to-otf2: the man page's examples run" {
	tr gen -P ring -n 4 > trace.tr
	man_examples tr-to-otf2.1 | grep -v '^vampir\|^scalasca\|^mpirun\|^tr-extrap' > ex.sh
	[ -s ex.sh ]
	PATH="$TR_BIN:$PATH" sh -e ex.sh
}

@test "tr-to-otf2: usage" {
	run tr to-otf2
	fails_with 2 "usage: tr-to-otf2"
	run tr to-otf2 -x -o a
	fails_with 2 "usage: tr-to-otf2"
}
