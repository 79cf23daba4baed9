load helper

# Ranks one after the other, as concatenated per-rank files are.
fixture() {
	hdr 3
	ev 0 0 MPI_Init 0 100 0 i@x.c:1
	ev 0 1 MPI_Barrier 100 600 0 b@x.c:2
	ev 0 2 MPI_Send 1000 1010 0 s@x.c:3 1 8 1
	ev 0 3 MPI_Ssend 2000 2500 0 ss@x.c:4 1 8 2
	ev 0 4 MPI_Send 3400 3450 0 s@x.c:5 1 8 3
	ev 0 5 MPI_Bcast 4000 4100 0 bc@x.c:6 -1 8 -1 0 -1 0
	ev 0 6 MPI_Reduce 5000 5010 0 rd@x.c:7 -1 8 -1 0 -1 1
	ev 0 7 MPI_Finalize 6000 6100 0 f@x.c:8
	ev 1 0 MPI_Init 0 100 0 i@x.c:1
	ev 1 1 MPI_Barrier 200 600 0 b@x.c:2
	ev 1 2 MPI_Recv 800 1100 0 r@x.c:10 0 8 1
	ev 1 3 MPI_Recv 2300 2500 0 r@x.c:11 0 8 2
	ev 1 4 MPI_Irecv 3000 3010 0 ir@x.c:12 0 8 3 0 5
	ev 1 5 MPI_Wait 3100 3600 0 w@x.c:13 -1 0 -1 0 5
	ev 1 6 MPI_Bcast 3800 4100 0 bc@x.c:6 -1 8 -1 0 -1 0
	ev 1 7 MPI_Reduce 4500 5300 0 rd@x.c:7 -1 8 -1 0 -1 1
	ev 1 8 MPI_Finalize 6000 6100 0 f@x.c:8
	ev 2 0 MPI_Init 0 100 0 i@x.c:1
	ev 2 1 MPI_Barrier 500 600 0 b@x.c:2
	ev 2 2 MPI_Bcast 3900 4100 0 bc@x.c:6 -1 8 -1 0 -1 0
	ev 2 3 MPI_Reduce 5200 5210 0 rd@x.c:7 -1 8 -1 0 -1 1
	ev 2 4 MPI_Finalize 6000 6100 0 f@x.c:8
}

@test "every kind of wait, per rank, site and in total, with blame" {
	fixture > "$BATS_TEST_TMPDIR/t.tr"
	run tr waits "$BATS_TEST_TMPDIR/t.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'wait	late_sender	-1	*	2	500' \
	    'wait	late_sender	1	*	2	500' \
	    'wait	late_sender	1	r@x.c:10	1	200' \
	    'wait	late_sender	1	w@x.c:13	1	300' \
	    'wait	late_receiver	-1	*	1	300' \
	    'wait	late_receiver	0	*	1	300' \
	    'wait	late_receiver	0	ss@x.c:4	1	300' \
	    'wait	wait_barrier	-1	*	2	700' \
	    'wait	wait_barrier	0	*	1	400' \
	    'wait	wait_barrier	0	b@x.c:2	1	400' \
	    'wait	wait_barrier	1	*	1	300' \
	    'wait	wait_barrier	1	b@x.c:2	1	300' \
	    'wait	late_bcast	-1	*	2	300' \
	    'wait	late_bcast	1	*	1	200' \
	    'wait	late_bcast	1	bc@x.c:6	1	200' \
	    'wait	late_bcast	2	*	1	100' \
	    'wait	late_bcast	2	bc@x.c:6	1	100' \
	    'wait	early_reduce	-1	*	1	700' \
	    'wait	early_reduce	1	*	1	700' \
	    'wait	early_reduce	1	rd@x.c:7	1	700' \
	    'blame	late_sender	0	2	500' \
	    'blame	late_receiver	1	1	300' \
	    'blame	wait_barrier	2	2	700' \
	    'blame	late_bcast	0	2	300' \
	    'blame	early_reduce	2	1	700')" ]
}

@test "time order does not matter: tr-cat -m gives the same" {
	fixture > "$BATS_TEST_TMPDIR/t.tr"
	a=$(tr waits "$BATS_TEST_TMPDIR/t.tr")
	b=$(tr cat -m "$BATS_TEST_TMPDIR/t.tr" | tr waits)
	[ "$a" = "$b" ]
}

@test "the slow rank of tr-gen causes the collective waits" {
	tr gen -P alltoall -n 4 -i 6 -R 7 -S 2:3 > "$BATS_TEST_TMPDIR/g.tr"
	run tr waits "$BATS_TEST_TMPDIR/g.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^blame' | cut -f2-4)" = "$(printf 'wait_nxn\t2\t18')" ]
	[ "$(printf '%s\n' "$output" | grep '^wait	wait_nxn	2	')" = "" ]
	tr gen -P stencil2d -n 4 -i 6 -R 7 -S 1:4 > "$BATS_TEST_TMPDIR/s.tr"
	run tr waits "$BATS_TEST_TMPDIR/s.tr"
	[ "$(printf '%s\n' "$output" | grep '^blame	late_sender' | sort -t'	' -k4,4n | tail -1 | cut -f3)" = 1 ]
}

@test "wildcard receives match in non-overtaking order per tag" {
	{
		hdr 2
		ev 0 0 MPI_Send 100 110 0 a 1 8 1
		ev 0 1 MPI_Send 120 130 0 b 1 8 2
		ev 0 2 MPI_Send 900 910 0 c 1 8 1
		ev 1 0 MPI_Recv 50 200 0 x 0 8 2
		ev 1 1 MPI_Recv 300 950 0 y 0 8 1
		ev 1 2 MPI_Recv 960 970 0 z 0 8 1
	} > "$BATS_TEST_TMPDIR/w.tr"
	run tr waits "$BATS_TEST_TMPDIR/w.tr"
	# x waits for b (70), y for nobody (a came first), z for nothing
	[ "$(printf '%s\n' "$output" | grep '^wait	late_sender	1	[xyz]')" = "$(printf 'wait\tlate_sender\t1\tx\t1\t70')" ]
}

@test "an MPI_ANY_SOURCE Irecv matches the send its completion recorded" {
	# rank 0's Irecv has no source yet (peer -1); its Wait says rank 2.
	# Rank 1's send, first in time, goes to the later blocking Recv.
	{
		hdr 3
		ev 0 0 MPI_Irecv 0 10 0 ir -1 8 -1 0 7
		ev 0 1 MPI_Wait 20 900 0 w 2 8 4 0 7
		ev 0 2 MPI_Recv 900 950 0 r 1 8 3
		ev 1 0 MPI_Send 100 110 0 s1 0 8 3
		ev 2 0 MPI_Send 800 810 0 s2 0 8 4
	} > "$BATS_TEST_TMPDIR/a.tr"
	run tr waits "$BATS_TEST_TMPDIR/a.tr"
	[ "$status" -eq 0 ]
	# the Wait waited from 20 for rank 2's send at 800
	[ "$(printf '%s\n' "$output" | grep '^wait	late_sender	0	')" = "$(printf 'wait\tlate_sender\t0\t*\t1\t780\nwait\tlate_sender\t0\tw\t1\t780')" ]
}

@test "the requests of one MPI_Waitall, and the halves of an MPI_Sendrecv, wait at once: the call waits the longest" {
	# rank 0 waits from 10 to 1000 for sends that start at 500 and 900:
	# it waited 890 ns, not 490 + 890 (more than the call lasted); each
	# sender is blamed for what it added
	{ hdr 3; ev 0 0 MPI_Irecv 0 1 0 ir 1 8 5 0 1; ev 0 1 MPI_Irecv 1 2 0 ir 2 8 5 0 2
	  ev 0 2 MPI_Waitall 10 1000 0 w 1 8 5 0 1; ev 0 2 MPI_Waitall 10 1000 0 w 2 8 5 0 2
	  ev 1 0 MPI_Send 500 510 0 s1 0 8 5 0; ev 2 0 MPI_Send 900 910 0 s2 0 8 5 0; } > "$BATS_TEST_TMPDIR/wa.tr"
	run tr waits "$BATS_TEST_TMPDIR/wa.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#')" = "$(printf '%s\n' \
	    'wait	late_sender	-1	*	2	890' 'wait	late_sender	0	*	2	890' \
	    'wait	late_sender	0	w	2	890' 'blame	late_sender	1	1	490' \
	    'blame	late_sender	2	1	400')" ]
	# a Sendrecv of a large message: rank 1's receive at 700 and rank
	# 2's send at 600 end rank 0's wait at 700, from 100
	{ hdr 3; ev 0 0 MPI_Sendrecv 100 800 0 sr 1 100000 5 0 5 2
	  ev 1 0 MPI_Recv 700 800 0 r 0 100000 5 0
	  ev 2 0 MPI_Send 600 610 0 s 0 8 5 0; } > "$BATS_TEST_TMPDIR/sr.tr"
	run tr waits "$BATS_TEST_TMPDIR/sr.tr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'wait\tlate_sender\t0\t*\t1\t500')"* ]]
	[[ "$output" == *"$(printf 'wait\tlate_receiver\t0\t*\t1\t100')"* ]]
}

@test "records read as the replay needs them give what reading all first gives" {
	# With #meta np the replay reads on when a rank needs a record (or
	# the source of a wildcard receive); without it, all is read first.
	d=$SAMPLES/stencil/np8
	[ -e "$d/rank.0.tr.gz" ] || skip "no bundled samples"
	cd "$BATS_TEST_TMPDIR"
	tr cat -m "$d"/rank.*.tr.gz > m.tr
	tr waits m.tr | grep -v '^#' > m.out
	[ "$(grep -c "^wait	late_sender" m.out)" -gt 0 ]
	grep -v '^#meta np=' m.tr | tr waits | grep -v '^#' > f.out
	cmp m.out f.out
	{ hdr 3; ev 0 0 MPI_Irecv 0 10 0 ir -1 8 -1 0 7
	  ev 1 0 MPI_Send 100 110 0 s1 0 8 3; ev 2 0 MPI_Send 800 810 0 s2 0 8 4
	  ev 0 1 MPI_Wait 20 900 0 w 2 8 4 0 7
	  ev 0 2 MPI_Recv 900 950 0 r 1 8 3; } > w.tr
	tr waits w.tr | grep -v '^#' > m.out
	grep -q '^wait	late_sender	0	w	1	780$' m.out
	grep -v '^#meta np=' w.tr | tr waits | grep -v '^#' > f.out
	cmp m.out f.out
}

@test "one communicator may have different ids on its ranks" {
	# rank 0's id 2 is its own (MPI_Comm_create gave rank 1 none): the
	# barrier on the shared one (3 on rank 0, 2 on rank 1) waits for 1
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  printf 'comm\t0\t2\t1\t0\ncomm\t0\t3\t2\t0-1\ncomm\t1\t2\t2\t0-1\n'
	  ev 0 0 MPI_Barrier 100 900 0 b@x.c:2 -1 0 -1 3
	  ev 1 0 MPI_Barrier 800 900 0 b@x.c:2 -1 0 -1 2; } > "$BATS_TEST_TMPDIR/ids.tr"
	run tr waits "$BATS_TEST_TMPDIR/ids.tr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'wait\twait_barrier\t0\tb@x.c:2\t1\t700')"* ]]
}

@test "MPI_Cart_sub waits for the last rank as communicator creation does" {
	# collective over the Cartesian communicator it splits: rank 0
	# waited 700 ns for rank 1 (before, a local call, no wait at all)
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  printf 'comm\t0\t2\t2\t0-1\ncomm\t1\t2\t2\t0-1\n'
	  ev 0 0 MPI_Cart_sub 100 900 0 c@x.c:3 -1 0 -1 2 3
	  ev 1 0 MPI_Cart_sub 800 900 0 c@x.c:3 -1 0 -1 2 3; } > "$BATS_TEST_TMPDIR/cs.tr"
	run tr waits "$BATS_TEST_TMPDIR/cs.tr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'wait\twait_barrier\t0\tc@x.c:3\t1\t700')"* ]]
	[[ "$output" == *"$(printf 'blame\twait_barrier\t1\t1\t700')"* ]]
}

@test "MPI_Comm_create_group and MPI_Intercomm_create wait for the members of what they make" {
	# ranks 0 and 1 make a group communicator (2): rank 0 waits 700 ns
	# for rank 1; then all three an intercommunicator (3), where ranks
	# 0 and 1 wait 1000 and 900 ns for rank 2 (before, both were local
	# calls; a collective over world, which rank 2 never entered there)
	{ hdr 3; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 1; do printf 'comm\t%s\t2\t2\t0-1\n' $r; done
	  for r in 0 1 2; do printf 'comm\t%s\t3\t3\t0-2\n' $r; done
	  ev 0 0 MPI_Comm_create_group 100 900 0 g@x.c:3 -1 0 -1 0 2
	  ev 1 0 MPI_Comm_create_group 800 900 0 g@x.c:3 -1 0 -1 0 2
	  ev 0 1 MPI_Intercomm_create 1000 2100 0 i@x.c:4 -1 0 -1 2 3
	  ev 1 1 MPI_Intercomm_create 1100 2100 0 i@x.c:4 -1 0 -1 2 3
	  ev 2 0 MPI_Intercomm_create 2000 2100 0 i@x.c:4 -1 0 -1 1 3
	  } > "$BATS_TEST_TMPDIR/cg.tr"
	run tr waits "$BATS_TEST_TMPDIR/cg.tr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'wait\twait_barrier\t0\tg@x.c:3\t1\t700')"* ]]
	[[ "$output" == *"$(printf 'wait\twait_barrier\t0\ti@x.c:4\t1\t1000')"* ]]
	[[ "$output" == *"$(printf 'wait\twait_barrier\t1\ti@x.c:4\t1\t900')"* ]]
	[[ "$output" == *"$(printf 'blame\twait_barrier\t1\t1\t700')"* ]]
	[[ "$output" == *"$(printf 'blame\twait_barrier\t2\t2\t1900')"* ]]
}

@test "collectives some rank never entered: said once, an error without a reason" {
	cd "$BATS_TEST_TMPDIR"
	# rank 2's trace stops after the first Allreduce: the second and
	# the barrier never complete
	{ hdr 3; for r in 0 1 2; do ev $r 0 MPI_Allreduce $((10 * r)) 100 0 a -1 8 -1 0; done
	  for r in 0 1; do ev $r 1 MPI_Allreduce 200 $((300 + r)) 0 b -1 8 -1 0
	    ev $r 2 MPI_Barrier 400 500 0 c -1 0 -1 0; done; } > cut.tr
	run stderr_of tr waits cut.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-waits: cut.tr:2: 2 collectives never completed, left out of the waits: the first, MPI_Allreduce on MPI_COMM_WORLD, lacks rank 2, and no rank's recording ended early (#meta end.R): a trace cut short?" ]
	# its early end marked: a warning after the mark's, the waits of
	# the collective that completed
	{ cat cut.tr; printf '#tr 1\n#meta end.2=SIGSEGV\n'; } > end.tr
	run stderr_of tr waits end.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' "tr-waits: end.tr:12: rank 2's recording ended early (SIGSEGV): what followed is not in the trace" \
		"tr-waits: end.tr:2: 2 collectives never completed, left out of the waits: the first, MPI_Allreduce on MPI_COMM_WORLD, lacks rank 2")" ]
	[ "$(tr waits end.tr 2>/dev/null | grep -c '^wait	wait_nxn	-1	\*	2	30$')" -eq 1 ]
	# a selection of ranks: a warning, on a sub-communicator its members
	tr filter -r 0-1 cut.tr > sel.tr
	run stderr_of tr waits sel.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"3 collectives never completed, left out of the waits: the first, MPI_Allreduce on MPI_COMM_WORLD, lacks rank 2" ]]
	{ hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 1 2 3; do printf 'comm\t%s\t2\t2\t%s\n' $r "$([ $r -lt 2 ] && echo 0-1 || echo 2-3)"; done
	  for r in 0 1 2 3; do ev $r 0 MPI_Barrier 0 100 0 a -1 0 -1 2; done
	  ev 2 1 MPI_Bcast 200 300 0 b -1 8 -1 2 -1 3
	  ev 3 1 MPI_Bcast 200 300 0 b -1 8 -1 2 -1 3
	  ev 0 1 MPI_Reduce 200 300 0 b -1 8 -1 2 -1 0; } > sub.tr
	run stderr_of tr waits sub.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-waits: sub.tr:2: 1 collective never completed, left out of the waits: the first, MPI_Reduce on the communicator of ranks 0-1, lacks rank 1, and "* ]]
}

# Rank 0 sends to rank 1 and rank 2, each receive posted 100 ns late,
# messages about the limits of the trace's header: eager_fixture
# [META...], each META a "#meta" line's KEY=VALUE.
eager_fixture() {
	printf '#tr 1\n#meta np=3\n'
	for m in "$@"; do printf '#meta %s\n' "$m"; done
	printf '%s\n' "$EVFIELDS"
	ev 0 0 MPI_Send 1000 1200 0 s1 1 4040 1
	ev 0 1 MPI_Isend 2000 2010 0 s2 1 4041 2 0 5
	ev 0 2 MPI_Wait 2010 2200 0 w2 -1 0 -1 0 5
	ev 0 3 MPI_Send 3000 3200 0 s3 2 65480 3
	ev 0 4 MPI_Send 4000 4200 0 s4 2 65481 4
	ev 0 5 MPI_Send 5000 5200 0 s5 2 65536 5
	ev 1 0 MPI_Recv 1100 1200 0 r 0 4040 1
	ev 1 1 MPI_Recv 2100 2200 0 r 0 4041 2
	ev 2 0 MPI_Recv 3100 3200 0 r 0 65480 3
	ev 2 1 MPI_Recv 4100 4200 0 r 0 65481 4
	ev 2 2 MPI_Recv 5100 5200 0 r 0 65536 5
}

# The call sites of rank 0 that waited for a late receiver.
late_receivers() {
	tr waits "$@" | awk -F '\t' '$1 == "wait" && $2 == "late_receiver" &&
	    $3 == 0 && $4 != "*" { printf "%s%s", sep, $4; sep = " " }'
}

# A receive that failed with MPI_ERR_TRUNCATE took its message (MPI
# consumes what does not fit), as tr-nsim replays it: the next receive
# waits for the next send. Taken as no receive, rank 1's second Recv was
# paired with the first Send (no wait) and the second Send said never
# matched.
@test "a truncated receive (a fail record) takes its message; another failed receive takes none" {
	cd "$BATS_TEST_TMPDIR"
	{ hdr 2; echo "$FAILFIELDS"
	  ev 0 0 MPI_Send 0 10 0 - 1 100 5 0
	  ev 0 1 MPI_Send 10000 10010 0 - 1 100 5 0
	  failrec 1 0 MPI_Recv 0 10 0 a.out+0x10 0 8 5 0 -1 -1 MPI_ERR_TRUNCATE
	  ev 1 1 MPI_Recv 10 20000 0 - 0 100 5 0; } > cut.tr
	run stderr_of tr waits cut.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run sh -c "tr-waits cut.tr | grep '^blame'"
	[ "$output" = "$(printf 'blame\tlate_sender\t0\t1\t9990')" ]
	# failed otherwise (a bad rank), it took nothing: the second Recv
	# takes the first Send, and the second is said never matched
	sed 's/MPI_ERR_TRUNCATE/MPI_ERR_RANK/' cut.tr > bad.tr
	run stderr_of tr waits bad.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 point-to-point message never matched"*"rank 0's send to rank 1 (tag 5) posted at 10000 ns"* ]]
}

@test "messages never matched are said in one line; a receive cancelled before its message is not one" {
	cd "$BATS_TEST_TMPDIR"
	# rank 0 receives from rank 1, which never sends: no wait to find,
	# said, not silence
	{ hdr 2; ev 0 0 MPI_Recv 0 1 0 a 1 8 5 0; ev 1 0 MPI_Init 0 1; } > u.tr
	run stderr_of tr waits u.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-waits: u.tr:2: 1 point-to-point message never matched, left out of the waits: the first, rank 0's receive from rank 1 (tag 5) posted at 0 ns" ]
	# a server's receive cancelled at shut-down, then waited for: no
	# message to match, nothing said; a send cancelled too late (it
	# matched) is received as usual, and its late receiver found
	{ hdr 2; ev 0 0 MPI_Irecv 0 10 0 a 1 8 9 0 7; ev 0 1 MPI_Cancel 20 30 0 b -1 0 -1 -1 7
	  ev 0 2 MPI_Wait 40 50 0 c -1 0 -1 0 7
	  ev 0 3 MPI_Recv 60 200 0 d 1 100000 4 0
	  ev 1 0 MPI_Isend 0 10 0 e 0 100000 4 0 3; ev 1 1 MPI_Cancel 20 30 0 f -1 0 -1 -1 3
	  ev 1 2 MPI_Wait 40 200 0 g -1 100000 4 0 3; } > c.tr
	run stderr_of tr waits -e 1000 c.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$(tr waits -e 1000 c.tr 2>/dev/null | awk -F'\t' '$1 == "wait" && $2 == "late_receiver" && $3 == 1 && $4 == "g" { print $6 }')" = 20 ]
}

@test "without -e the eager limits of the trace decide, by the hosts of the two ranks" {
	cd "$BATS_TEST_TMPDIR"
	E='eager.shm=4040 eager.net=65480' H='host.0=a host.1=a host.2=b'
	eager_fixture $E $H > t.tr
	# 4041 bytes on one host and 65481 to another wait; 4040 and 65480
	# were eager
	[ "$(late_receivers t.tr)" = "s4 s5 w2" ]
	tr waits t.tr | grep -qx "$(printf 'wait\tlate_receiver\t0\tw2\t1\t90')"
	# hosts known per rank, from the headers of per-rank files
	{ eager_fixture $E host.0=a | sed '/^ev	[12]	/d'
	  printf '#tr 1\n#meta host.1=a\n'; eager_fixture | grep '^ev	1	'
	  printf '#tr 1\n#meta host.2=b\n'; eager_fixture | grep '^ev	2	'; } > r.tr
	[ "$(late_receivers r.tr)" = "s4 s5 w2" ]
	[ "$(tr cat -m r.tr | late_receivers)" = "s4 s5 w2" ]
	# a run without the shared-memory transport sent over its network
	eager_fixture eager.net=65480 $H > n.tr
	[ "$(late_receivers n.tr)" = "s4 s5" ]
	# the default, 64 KiB, without the limits or without the hosts
	eager_fixture $H > d.tr
	[ "$(late_receivers d.tr)" = "s5" ]
	eager_fixture $E > h.tr
	[ "$(late_receivers h.tr)" = "s5" ]
	eager_fixture $E host.0=a host.1=a > h.tr
	[ "$(late_receivers h.tr)" = "s5 w2" ]
	# -e overrides the trace
	[ "$(late_receivers -e 4096 t.tr)" = "s3 s4 s5" ]
	# with a unit: 4k is 4096, 64k 65536 (65480 and 65481 eager), 64kB
	# and 64KB 64000 (both wait)
	[ "$(late_receivers -e 4k t.tr)" = "s3 s4 s5" ]
	[ "$(late_receivers -e 64k t.tr)" = "$(late_receivers -e 65536 t.tr)" ]
	[ "$(late_receivers -e 64kB t.tr)" = "$(late_receivers -e 64000 t.tr)" ]
	[ "$(late_receivers -e 64KB t.tr)" != "$(late_receivers -e 64K t.tr)" ]
	[ "$(late_receivers -e 0 t.tr)" = "" ]
	# a limit no message exceeds: none waits
	eager_fixture eager.shm=9223372036854775807 eager.net=9223372036854775807 $H > m.tr
	[ "$(late_receivers m.tr)" = "" ]
	# each section has its own: a run with a larger limit follows
	eager_fixture eager.shm=8136 eager.net=65480 $H > l.tr
	[ "$(cat t.tr l.tr | late_receivers)" = "s4 s5 w2 s4 s5" ]
}

@test "a buffered send waits for no receiver, whatever its size" {
	cd "$BATS_TEST_TMPDIR"
	{ hdr 2
	  ev 0 0 MPI_Send 0 500000 0 s@x.c:1 1 1000000 5 0
	  ev 0 1 MPI_Bsend 600000 700000 0 b@x.c:2 1 1000000 6 0
	  ev 0 2 MPI_Ibsend 700000 700010 0 ib@x.c:3 1 1000000 7 0 4
	  ev 0 3 MPI_Wait 700020 700030 0 w@x.c:4 1 1000000 7 0 4
	  ev 1 0 MPI_Recv 400000 500000 400000 r@x.c:5 0 1000000 5 0
	  ev 1 1 MPI_Recv 900000 1000000 400000 r@x.c:5 0 1000000 6 0
	  ev 1 2 MPI_Recv 1000000 1100000 0 r@x.c:5 0 1000000 7 0; } > b.tr
	run tr waits b.tr
	[ "$status" -eq 0 ]
	[ "$(grep '^wait	late_receiver	0	' <<<"$output" | cut -f4 | sort -u | tr '\n' ' ')" = "* s@x.c:1 " ]
}

@test "a real late receiver of 8 KiB on one node: above the shared-memory limit, below 64 KiB" {
	[ -x "$TR_MPIBIN/late" ] || skip "no build/mpi/late"
	cd "$BATS_TEST_TMPDIR"
	# rank 1 posts its receive 20 ms late, 3 times
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
	    -o a "$TR_MPIBIN/late" 3 8192 20 >/dev/null
	tr cat -m a/rank.*.tr.gz > a.tr
	[ "$(sed -n 's/^#meta host\.0=//p' a.tr)" = "$(sed -n 's/^#meta host\.1=//p' a.tr)" ]
	shm=$(sed -n 's/^#meta eager\.shm=//p' a.tr)
	[ "$shm" -lt 8192 ]
	# MPI_Send waited for the receive: rendezvous, as the limit says
	[ "$(awk -F '\t' '$4 == "MPI_Send" && $6 - $5 >= 15000000' a.tr | wc -l)" -eq 3 ]
	tr waits a.tr > w.out
	set -- $(awk -F '\t' '$1 == "wait" && $2 == "late_receiver" && $3 == 0 && $4 == "*" { print $5, $6 }' w.out)
	[ "$1" -eq 3 ]
	[ "$2" -ge 45000000 ]
	grep -q "$(printf '^blame\tlate_receiver\t1\t3\t')" w.out
	# the old default, 64 KiB, missed them
	[ "$(tr waits -e 64KiB a.tr | grep -c late_receiver)" -eq 0 ]
	# an eager limit raised above the message: none is counted
	mpirun --oversubscribe --allow-run-as-root -np 2 \
	    --mca btl_vader_eager_limit 16384 "$TR_BIN/tr-record" -o b \
	    "$TR_MPIBIN/late" 3 8192 20 >/dev/null
	tr cat -m b/rank.*.tr.gz > b.tr
	grep -qx '#meta eager.shm=16328' b.tr
	[ "$(tr waits b.tr | grep -c late_receiver)" -eq 0 ]
}

# 4 iterations, ranks one after another: each splits the world by
# parity into id $1 (reuse: 2 every time, else 2 + i), enters an
# MPI_Allreduce on it 100 ns per rank after the rank before, and frees
# it ($2 free, or disconnect: by MPI_Comm_disconnect) or not; $3 skip:
# rank 3 leaves out the last MPI_Allreduce
iters() {
	hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1 2 3; do
		s=0
		for i in 0 1 2 3; do
			id=$([ "$1" = reuse ] && echo 2 || echo $((2 + i)))
			t=$((i * 10000))
			printf 'comm\t%s\t%s\t2\t%s\n' $r $id $([ $((r % 2)) = 0 ] && echo 0,2 || echo 1,3)
			ev $r $s MPI_Comm_split $t $((t + 1000)) 0 sp@x.c:1 -1 0 -1 0 $id; s=$((s + 1))
			[ "$3" = skip ] && [ $r = 3 ] && [ $i = 3 ] && continue
			ev $r $s MPI_Allreduce $((t + 2000 + r * 100)) $((t + 3000)) 0 ar@x.c:2 -1 8 -1 $id; s=$((s + 1))
			[ "$2" = keep ] && continue
			ev $r $s "$([ "$2" = free ] && echo MPI_Comm_free || echo MPI_Comm_disconnect)" \
			    $((t + 4000)) $((t + 4100)) 0 fr@x.c:3 -1 0 -1 $id; s=$((s + 1))
		done
	done
}

@test "communicators freed and made again, their ids reused: the waits of ones never freed" {
	cd "$BATS_TEST_TMPDIR"
	iters reuse free > a.tr
	iters fresh keep > b.tr
	tr waits a.tr | grep -E '^(wait|blame)' > a.out
	tr waits b.tr | grep -E '^(wait|blame)' > b.out
	cmp a.out b.out
	# ranks 0 and 1 wait 200 ns in each for 2 and 3
	grep -Fqx "$(printf 'wait\twait_nxn\t-1\t*\t8\t1600')" a.out
	grep -Fqx "$(printf 'blame\twait_nxn\t3\t4\t800')" a.out
}

@test "a communicator made and freed every iteration: memory does not grow with the iterations" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	cd "$BATS_TEST_TMPDIR"
	# 16 ranks, 500 then 4,000 iterations; keeping freed communicators
	# takes 4 MB more, forgetting them 0.1 MB (0.8 under ASan)
	for op in MPI_Comm_free MPI_Comm_disconnect; do
		a=$(commloop_rss waits 16 500 $op)
		b=$(commloop_rss waits 16 4000 $op)
		echo "$op: peak RSS $a KB, then $b KB"
		# every iteration 15 ranks wait for rank 15, 150 + 140 + ... + 10 ns
		grep -qxF "$(printf 'wait\twait_nxn\t-1\t*\t60000\t4800000')" out.waits.4000
		[ $((b - a)) -lt 2048 ]
	done
}

@test "communicators disconnected (MPI_Comm_disconnect) and made again, their ids reused: freed as by MPI_Comm_free" {
	cd "$BATS_TEST_TMPDIR"
	iters reuse disconnect > d.tr
	iters fresh keep > b.tr
	run stderr_of tr waits d.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	tr waits d.tr | grep -E '^(wait|blame)' > d.out
	tr waits b.tr | grep -E '^(wait|blame)' > b.out
	cmp b.out d.out
}

@test "a persistent request made on a communicator freed before it, every iteration: memory does not grow with the iterations" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	cd "$BATS_TEST_TMPDIR"
	# 16 ranks, 500 then 4,000 iterations, each request freed
	# (MPI_Request_free, as tr-record writes it): keeping each
	# communicator to the end took 17 MB more, letting go of it at the
	# request's free 0-0.1 MB
	a=$(commloop_rss waits 16 500 pers)
	b=$(commloop_rss waits 16 4000 pers)
	echo "peak RSS $a KB, then $b KB"
	# no receive waits: each send is 300 ns or more before it
	[ "$(grep -c '^wait' out.waits.4000)" -eq 0 ]
	[ $((b - a)) -lt 2048 ]
}

@test "MPI_Request_free lets go of a freed communicator once its id's last persistent request is freed, and no sooner" {
	cd "$BATS_TEST_TMPDIR"
	# the free after the waits: the same waits as without it
	pers_trace before > b.tr
	pers_trace before "" freed > f.tr
	waits_alike f.tr b.tr
	pers_trace before same freed > sf.tr
	waits_alike sf.tr b.tr
	# two requests on the id, the second started after the first is
	# freed: its message matched on the communicator, rank 1's receive
	# of tag 8 waiting (all its 10 ns) for rank 0's send
	pers2_trace > two.tr
	run stderr_of tr waits two.tr
	[ "$status" -eq 0 ] && [ -z "$output" ]
	tr waits two.tr | grep '^wait' > two.out
	grep -Fqx "$(printf 'wait\tlate_sender\t1\tw@q.c:11\t1\t10')" two.out
	grep -Fqx "$(printf 'wait\tlate_sender\t-1\t*\t2\t20')" two.out
}

@test "a collective some member never entered keeps its communicator, freed, for the report" {
	cd "$BATS_TEST_TMPDIR"
	iters reuse free skip > c.tr
	run stderr_of tr waits c.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-waits: c.tr:2: 1 collective never completed, left out of the waits: the first, MPI_Allreduce on the communicator of ranks 1,3, lacks rank 3, and no rank's recording ended early (#meta end.R): a trace cut short?" ]
}

# Trace $1 (a communicator freed early) gives, without a word on
# stderr, the waits $2 (freed late) gives: in ${1%.tr}.out, ${2%.tr}.out.
waits_alike() {
	run stderr_of tr waits "$1"
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; return 1; }
	tr waits "$1" | grep -E '^(wait|blame)' > "${1%.tr}.out"
	tr waits "$2" | grep -E '^(wait|blame)' > "${2%.tr}.out"
	cmp "${2%.tr}.out" "${1%.tr}.out"
}

@test "a window keeps the communicator it was made on, freed before the window's fences and frees" {
	cd "$BATS_TEST_TMPDIR"
	# they were "left out": no wait in them, and a warning
	winfree_trace before > b.tr
	winfree_trace after > a.tr
	waits_alike b.tr a.tr
	# rank 0 waits in the fences for rank 1's 5 and 3 us
	grep -Fqx "$(printf 'wait\twait_barrier\t0\t*\t2\t8000')" b.out
}

@test "a persistent request keeps its communicator, freed before the request is started" {
	cd "$BATS_TEST_TMPDIR"
	# its messages were "never matched, left out of the waits"
	pers_trace before > b.tr
	pers_trace after > a.tr
	waits_alike b.tr a.tr
	# rank 0's receive, waited for from 1400 ns, is sent at 1100 + 5000
	# ns, in each of the two iterations
	grep -Fqx "$(printf 'wait\tlate_sender\t0\tw@p.c:6\t2\t%s' $((2 * (6100 - 1400))))" b.out
	# the second duplicate with the first's id
	pers_trace before same > s.tr
	waits_alike s.tr a.tr
}

@test "MPI_Comm_free or MPI_Comm_disconnect of MPI_COMM_WORLD or MPI_COMM_SELF is bad input" {
	cd "$BATS_TEST_TMPDIR"
	for op in MPI_Comm_free MPI_Comm_disconnect; do
	for c in 0 1; do
		{ hdr 2; ev 0 0 MPI_Barrier 0 10 0 b@x.c:1 -1 0 -1 0
		  ev 0 1 $op 10 20 0 f@x.c:2 -1 0 -1 $c
		  ev 1 0 MPI_Barrier 0 10 0 b@x.c:1 -1 0 -1 0; } > f.tr
		run stderr_of tr waits f.tr
		[ "$status" -eq 3 ]
		[ "$output" = "tr-waits: f.tr:5: rank 0 seq 1: $op of $([ $c = 0 ] && echo MPI_COMM_WORLD || echo MPI_COMM_SELF)" ]
	done
	done
	# one without a comm record is a local call, as before
	{ hdr 1; ev 0 0 MPI_Comm_free 10 20 0 f@x.c:2 -1 0 -1 7; } > u.tr
	run tr waits u.tr
	[ "$status" -eq 0 ]
}

@test "bad input and usage" {
	run tr waits -e lots
	fails_with 2 "tr-waits: -e: 'lots': not a size of 0 or more"
	run tr waits -y
	fails_with 2 "usage: tr-waits"
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'; printf 'comm\t0\t2\t2\t0-x\n'; } > "$BATS_TEST_TMPDIR/bad.tr"
	run tr waits "$BATS_TEST_TMPDIR/bad.tr"
	fails_with 3 "bad.tr:5: bad members list"
	# np sizes the replay's tables before any record: checked at its line
	for np in 2000000000 9223372036854775807 0 -1; do
		{ printf '#tr 1\n#meta np=%s\n%s\n' "$np" "$EVFIELDS"; ev 0 0 MPI_Init 0 10; } > "$BATS_TEST_TMPDIR/np.tr"
		run stderr_of tr waits "$BATS_TEST_TMPDIR/np.tr"
		[ "$status" -eq 3 ]
		[ "$output" = "tr-waits: $BATS_TEST_TMPDIR/np.tr:2: #meta np=$np: not a number of ranks (an integer from 1 to 16777216)" ]
	done
	# eager limits are sizes, checked at their line too
	for m in eager.shm=4KiB eager.net=-1 eager.shm= eager.net=9223372036854775808; do
		{ printf '#tr 1\n#meta np=2\n#meta %s\n%s\n' "$m" "$EVFIELDS"; ev 0 0 MPI_Init 0 10; } > "$BATS_TEST_TMPDIR/e.tr"
		run stderr_of tr waits "$BATS_TEST_TMPDIR/e.tr"
		[ "$status" -eq 3 ]
		[ "$output" = "tr-waits: $BATS_TEST_TMPDIR/e.tr:3: #meta $m: not a size in bytes (an integer of at least 0)" ]
	done
}

@test "a recording that left messages out is said to have" {
	cd "$BATS_TEST_TMPDIR"
	{ hdr 2; echo '#meta unrecorded.persistent=persistent requests (MPI_*_init, MPI_Start)'
	  echo '#meta unrecorded.rma=one-sided communication (MPI_Win_*)'
	  ev 0 0 MPI_Barrier 0 1 0 - -1 0 -1 0; ev 1 0 MPI_Barrier 0 1 0 - -1 0 -1 0; } > u.tr
	run tr waits u.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-waits: u.tr: the recording left out persistent requests (MPI_*_init, MPI_Start): their messages are missing here"* ]]
	run tr to-ti -o ti u.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' "tr-to-ti: u.tr: the recording left out persistent requests (MPI_*_init, MPI_Start): their messages are missing here" "tr-to-ti: u.tr: the recording left out one-sided communication (MPI_Win_*): their messages are missing here")" ]
}

@test "bundled samples: per-rank files concatenated equal the time-merged run" {
	d=$SAMPLES/stencil/np4
	[ -e "$d/rank.0.tr.gz" ] || skip "no bundled samples"
	a=$(cat "$d"/rank.*.tr.gz | "$TR_BIN/tr-waits" | grep -E '^(wait|blame)	')
	b=$(tr cat -m "$d"/rank.*.tr.gz | tr waits | grep -E '^(wait|blame)	')
	[ "$a" = "$b" ]
	[ "$(printf '%s\n' "$a" | grep -c '^wait	wait_nxn	-1	\*')" -eq 1 ]
}

@test "-G: a shard's waits, read with its partners; -m: the whole run's" {
	T=$BATS_TEST_TMPDIR
	for r in 0 1 2 3 4 5; do
		tr gen -n 6 -i 4 -j 0.4 -P ring -r $r > "$T/r$r.tr"
	done
	tr waits "$T"/r[0-5].tr > "$T/whole"
	grep -q '^wait	late_sender	3	' "$T/whole"
	tr waits -G 0-2 "$T"/r[0-5].tr > "$T/a"
	tr waits -G 3-5 "$T"/r[0-5].tr > "$T/b"
	! grep -q '^wait	[a-z_]*	[3-5]	' "$T/a"
	cat "$T/a" "$T/b" | tr waits -m | cmp - "$T/whole"
	# without the partners' records a shard cannot answer: said, not guessed
	run tr waits -G 0-2 "$T"/r[0-2].tr
	fails_with 3 "rank 0's receive from rank 5 (tag 7) posted at"
	[[ "$output" == *"never matched: a shard's waits need the records of its ranks' partners"* ]]
	run tr waits -G 0-3 "$T"/r[0-2].tr
	fails_with 3 "rank 3 of the shard (-G 0-3) has no records"
	run tr waits -m -G 0 "$T/a"
	[ "$status" -eq 2 ]
}
