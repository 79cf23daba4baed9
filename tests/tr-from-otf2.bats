load helper

# otf2gen DIR [CASE]: an archive written by libotf2's Python writer
# (tests/otf2gen.py says what each case holds).
otf2gen() {
	/usr/bin/python3 "$TOP/tests/otf2gen.py" "$@"
}

setup() {
	/usr/bin/python3 -c 'import otf2' 2>/dev/null ||
		skip "python3-otf2 is not installed"
	command -v otf2-print >/dev/null || skip "otf2-tools is not installed"
	cd "$BATS_TEST_TMPDIR"
	otf2gen h
}

@test "tr-from-otf2: calls, their peers, requests and regions" {
	run tr from-otf2 h/traces.otf2
	[ "$status" -eq 0 ]
	echo "$output" > h.tr
	grep -qx '#meta np=4' h.tr
	grep -qx '#meta host.3=node1' h.tr
	# Every record is valid and whole.
	tr cat h.tr > /dev/null
	[ "$(grep -c '^ev	1	' h.tr)" -eq 30 ]
	# An MPI_Irecv is written with the source its completion names.
	run awk -F'\t' '$1 == "ev" && $2 == 1 && $4 == "MPI_Irecv" { print $9, $10, $11, $12, $13 }' h.tr
	[ "${lines[0]}" = "0 1024 7 0 1" ]
	[ "${lines[1]}" = "2 1024 7 0 2" ]
	# One MPI_Waitall completes four requests: four records of one seq.
	run awk -F'\t' '$1 == "ev" && $2 == 1 && $4 == "MPI_Waitall" && $3 == 7 { print $9, $13 }' h.tr
	[ "$output" = "$(printf '0 1\n2 2\n0 3\n2 4')" ]
	# MPI_Sendrecv: destination, bytes and tag sent; source in root,
	# the tag received in req.
	run awk -F'\t' '$1 == "ev" && $2 == 1 && $4 == "MPI_Sendrecv" { print $9, $10, $11, $13, $14 }' h.tr
	[ "$output" = "2 100 6 5 0" ]
	# Collectives: the buffer's bytes, the root as a world rank, the
	# communicator by the rank's own id; the split's members.
	run awk -F'\t' '$1 == "ev" && $2 == 1 && $4 ~ /^MPI_(Allreduce|Bcast)$/ { print $4, $10, $12, $14 }' h.tr
	[ "$output" = "$(printf 'MPI_Allreduce 8 0 -1\nMPI_Bcast 64 2 3')" ]
	grep -qx 'comm	1	2	2	1,3' h.tr
	grep -qx 'comm	2	2	2	0,2' h.tr
	# Regions are reg records; a call's site is the region around it.
	grep -q '^reg	1	2	enter	exchange	6200	-1	0$' h.tr
	grep -q '^ev	1	3	MPI_Irecv	6300	6510	-1	exchange@halo.c:30	' h.tr
}

@test "tr-from-otf2: the same sends, bytes and matrix as otf2-print reads" {
	tr from-otf2 h/traces.otf2 > h.tr
	# otf2-print: MPI_SEND and MPI_ISEND events per location and the
	# bytes each sent to each receiver (world ranks here).
	otf2-print h/traces.otf2 | awk '$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
		r = $5; for (i = 1; i <= NF; i++) if ($i == "Length:") b = $(i + 1)
		sub(/,/, "", b); n[$2 " " r]++; s[$2 " " r] += b }
		END { for (k in n) print k, n[k], s[k] }' | sort > otf2.cmat
	tr stat h.tr | awk -F'\t' '$1 == "cmat" { print $2, $3, $4, $5 }' | sort > tr.cmat
	[ -s otf2.cmat ]
	diff otf2.cmat tr.cmat
	# Calls: one ev record per MPI region entered, but one per request
	# a completion completes (seqs counted once).
	for r in 0 1 2 3; do
		a=$(otf2-print h/traces.otf2 | awk -v r=$r '$1 == "ENTER" && $2 == r && /"MPI_/' | wc -l)
		b=$(awk -F'\t' -v r=$r '$1 == "ev" && $2 == r { print $3 }' h.tr | sort -u | wc -l)
		[ "$a" -eq "$b" ]
	done
}

@test "tr-from-otf2: the replays and analyses take the stream" {
	tr from-otf2 h/traces.otf2 > h.tr
	run tr nsim h.tr
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^simrun	4	'
	run tr waits h.tr
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^wait	late_sender	-1	'
	run sh -c "tr-delta h.tr | tr-hist | grep -c '^hist'"
	[ "$output" -gt 0 ]
}

@test "tr-from-otf2: events tr has no record for are counted once, -Q says nothing" {
	otf2gen o omp
	run stderr_of tr from-otf2 o/traces.otf2
	[ "$output" = "tr-from-otf2: o/traces.otf2: 1 OmpFork events have no tr record: left out" ]
	run stderr_of tr from-otf2 -Q o/traces.otf2
	[ -z "$output" ]
}

@test "tr-from-otf2: bad archives are one line naming the archive" {
	run tr from-otf2 nope/traces.otf2
	fails_with 4 "tr-from-otf2: nope/traces.otf2: No such file or directory"
	echo hello > bad.otf2
	run tr from-otf2 bad.otf2
	fails_with 3 "tr-from-otf2: bad.otf2: not an OTF2 archive"
	run stderr_of tr from-otf2 bad.otf2
	[ "${#lines[@]}" -eq 1 ]
	cp -r h nodef && rm nodef/traces.def
	run tr from-otf2 nodef/traces.otf2
	fails_with 3 "tr-from-otf2: nodef/traces.otf2: no global definitions"
	cp -r h cut && head -c 300 h/traces.def > cut/traces.def
	run tr from-otf2 cut/traces.otf2
	fails_with 3 "tr-from-otf2: cut/traces.otf2: reading definitions"
	cp -r h noev && rm noev/traces/1.evt
	run tr from-otf2 noev/traces.otf2
	fails_with 3 "tr-from-otf2: noev/traces.otf2: location 1: no events"
	cp -r h short && head -c 100 h/traces/0.evt > short/traces/0.evt
	run tr from-otf2 short/traces.otf2
	fails_with 3 "tr-from-otf2: short/traces.otf2: location 0 (rank 0), event "
	run stderr_of tr from-otf2 short/traces.otf2
	[ "${#lines[@]}" -eq 1 ]
}

@test "tr-from-otf2: events out of time order in a location are an error at the event" {
	otf2gen b backwards
	run tr from-otf2 b/traces.otf2
	fails_with 3 "tr-from-otf2: b/traces.otf2: location 2 (rank 2), event 82: time goes back (25770 ns after 25820 ns)"
}

@test "tr-from-otf2: usage" {
	run tr from-otf2
	fails_with 2 "usage: tr-from-otf2"
	run tr from-otf2 a b
	fails_with 2 "usage: tr-from-otf2"
}

@test "tr-from-otf2: an archive of more locations than files may be open is said, before anything is read" {
	run sh -c 'ulimit -n 16 && exec "$0" h/traces.otf2' "$TR_BIN/tr-from-otf2"
	fails_with 4 "tr-from-otf2: h/traces.otf2: 4 locations need 20 open files, more than the limit of 16 (ulimit -n)"
}

@test "tr-from-otf2: one-sided calls: the window by its communicator and number, the target, the bytes" {
	otf2gen r rma
	run tr from-otf2 r/traces.otf2
	[ "$status" -eq 0 ]
	echo "$output" > r.tr
	# op, peer, bytes, tag (the window's number), comm, root
	run awk -F'\t' '$1 == "ev" && $2 == 0 && $4 ~ /^MPI_(Win|Put|Get|Acc|Fetch)/ { print $4, $9, $10, $11, $12, $14 }' r.tr
	[ "$output" = "$(printf '%s\n' 'MPI_Win_create -1 0 0 0 -1' 'MPI_Win_fence -1 0 0 0 -1' \
	    'MPI_Put 1 800 0 0 -1' 'MPI_Get 1 400 0 0 -1' 'MPI_Accumulate 1 80 0 0 -1' \
	    'MPI_Fetch_and_op 1 8 0 0 8' 'MPI_Win_fence -1 0 0 0 -1' 'MPI_Win_lock 1 0 0 0 -1' \
	    'MPI_Put 1 16 0 0 -1' 'MPI_Win_unlock 1 0 0 0 -1' 'MPI_Win_free -1 0 0 0 -1')" ]
	# nothing left out, and the replay takes the transfers
	run stderr_of tr from-otf2 r/traces.otf2
	[ -z "$output" ]
	run sh -c 'tr-nsim r.tr | grep -c "^simrun	2	"'
	[ "$output" = 1 ]
}

@test "tr-from-otf2: memory follows the definitions an archive has, not their ids" {
	# every kind's ids from just below 2^24, then just below 2^32: a
	# table indexed by id took 2 GB for this 4-rank trace, and refused
	# ids from 2^24 on. ulimit -v bounds what is asked for, the peak RSS
	# what is touched (ASan reserves more address space than any limit).
	tr from-otf2 h/traces.otf2 > h.tr
	lim=200000
	grep -q __asan_init "$TR_BIN/tr-from-otf2" && lim=unlimited
	for first in 16777000 4294967000; do
		otf2gen i$first ids $first
		run bash -c "ulimit -v $lim; exec /usr/bin/time -f %M -o rss \
		    \"$TR_BIN/tr-from-otf2\" i$first/traces.otf2 > i.tr"
		echo "ids from $first: status $status, peak $(tail -n 1 rss) KB"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
		diff h.tr i.tr
		[ "$(tail -n 1 rss)" -lt 200000 ]
	done
}
