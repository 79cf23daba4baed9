#!/usr/bin/env bats
# tr-nsim: exact analytic cases, MPI semantics, topologies, errors.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
	# 1 byte per ns, 2.5 us from node to node
	cat > x.net <<-'E'
	topology crossbar
	link-bandwidth 1GB/s
	link-latency 1us
	switch-latency 500ns
	eager-threshold 65536
	E
}

# runtime of the simulated run on stdin
runtime() { awk -F'\t' '$1=="simrun"{print $3}'; }

@test "tr-nsim: ping-pong is latency plus size over bandwidth, exactly" {
	{ hdr 2
	  ev 0 0 MPI_Send 0 10 0 - 1 1000000 5 0
	  ev 0 1 MPI_Recv 10 20 0 - 1 8 6 0
	  ev 1 0 MPI_Recv 0 10 0 - 0 1000000 5 0
	  ev 1 1 MPI_Send 10 20 1000 - 0 8 6 0; } > pp.tr
	run tr nsim -M x.net pp.tr
	[ "$status" -eq 0 ]
	# rendezvous: 2500 + 1e6; then 1000 compute; eager 8 B: 2500 + 8
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Send\t0\t1002500\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t1\tMPI_Send\t1003500\t1003500\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Recv\t1002500\t1006008\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 1006008 ]
	[[ "$output" == *"$(printf 'simrank\t0\t1006008\t0\t')"* ]]
	[[ "$output" == *"$(printf 'simlink\t0\tn0.up\t1000000\t1000000\t')"* ]]
}

@test "tr-nsim: a bandwidth in kB/s is one in KB/s (SI); one in KiB/s is binary" {
	# kB/s was an unknown unit, though kB is a size (tr(7))
	{ hdr 2; ev 0 0 MPI_Send 0 10 0 - 1 8 5 0; ev 1 0 MPI_Recv 0 10 0 - 0 8 5 0; } > e.tr
	sed 's/^link-bandwidth .*/link-bandwidth 1000kB\/s/' x.net > k.net
	run tr nsim -M k.net e.tr
	[ "$status" -eq 0 ]
	# 8 B at 1e6 B/s: 8 us, plus 2.5 us of latency
	[ "$(runtime <<<"$output")" -eq 10500 ]
	sed 's/^link-bandwidth .*/link-bandwidth 1000KiB\/s/' x.net > ki.net
	[ "$(tr nsim -M ki.net e.tr | runtime)" -eq 10313 ]
}

@test "tr-nsim: a zero-byte message costs the latency" {
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 0 0 0; ev 1 0 MPI_Recv 0 1 0 - 0 0 0 0; } > z.tr
	run tr nsim -M x.net z.tr
	[ "$(runtime <<<"$output")" -eq 2500 ]
}

@test "tr-nsim: a ring of 4 eager messages adds up hop by hop" {
	{ hdr 4
	  ev 0 0 MPI_Send 0 1 0 - 1 1000 0 0; ev 0 1 MPI_Recv 1 2 0 - 3 1000 0 0
	  for r in 1 2 3; do
		ev $r 0 MPI_Recv 0 1 0 - $((r - 1)) 1000 0 0
		ev $r 1 MPI_Send 1 2 0 - $(((r + 1) % 4)) 1000 0 0
	  done; } > ring.tr
	run tr nsim -M x.net ring.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 14000 ]
}

@test "tr-nsim: binomial broadcast shares the root's link max-min fairly" {
	{ hdr 8; for r in 0 1 2 3 4 5 6 7; do ev $r 0 MPI_Bcast 0 1 0 - -1 1000 -1 0 -1 0; done; } > b.tr
	run tr nsim -M x.net b.tr
	[ "$status" -eq 0 ]
	# root sends to 4, 2, 1 at once: 2500 + 3000; 4 to 6 and 5: +4500;
	# 6 to 7: +3500
	[ "$(runtime <<<"$output")" -eq 13500 ]
	[[ "$output" == *"$(printf 'simrank\t1\t5500\t')"* ]]
	[[ "$output" == *"$(printf 'simrank\t3\t9000\t')"* ]]
}

@test "tr-nsim: a rendezvous message moves once its receiver is in an MPI call, or at once with progress background" {
	# both ranks: MPI_Irecv and MPI_Isend of BYTES to each other, 3 ms
	# of computation (cut by an MPI_Test at 1 ms with TEST, none with
	# NONE), MPI_Waitall
	ov() { local c=3000000; hdr 2; for r in 0 1; do
		ev $r 0 MPI_Irecv 0 1 0 - $((1 - r)) "$1" 7 0 1
		ev $r 1 MPI_Isend 1 2 0 - $((1 - r)) "$1" 7 0 2
		case ${2:-} in
		test)	ev $r 2 MPI_Test 1000001 1000002 1000000 - -1 0 -1 0 -1
			c=2000000 ;;
		none)	c=0 ;;
		esac
		ev $r 3 MPI_Waitall 3000001 3000002 $c - -1 0 -1 0 1
		ev $r 3 MPI_Waitall 3000001 3000002 $c - -1 0 -1 0 2; done; }
	# 1 MB: each receiver fetches in MPI_Waitall, 1002500 ns
	ov 1000000 > rv.tr
	run tr nsim -M x.net rv.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t1\t3\tMPI_Waitall\t3000000\t4002500\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 4002500 ]
	# a progress thread fetches it during the computation
	{ cat x.net; echo 'progress background'; } > bg.net
	run tr nsim -M bg.net rv.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 3000000 ]
	# so does an MPI_Test at 1 ms: done at 2002500
	ov 1000000 test > rt.tr
	run tr nsim -M x.net rt.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t3\tMPI_Waitall\t3000000\t3000000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 3000000 ]
	# eager messages (60,000 bytes) need no call of their receiver
	ov 60000 > ev.tr
	run tr nsim -M x.net ev.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 3000000 ]
	# within a node the receiver copies it in the call (1000500 ns at
	# 1 GB/s and 500 ns): MPI_Test lasts the copy, which overlaps no
	# computation; with nothing to compute, both ranks copy at once
	printf 'topology crossbar\nranks-per-node 2\nintra-latency 500ns\nintra-bandwidth 1GB/s\n' > shm.net
	run tr nsim -M shm.net rt.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t2\tMPI_Test\t1000000\t2000500\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 4000500 ]
	ov 1000000 none > nc.tr
	run tr nsim -M shm.net nc.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 1000500 ]
	# a receiver blocked in MPI_Recv fetches from a computing sender
	{ hdr 2; ev 0 0 MPI_Isend 0 1 0 - 1 1000000 7 0 2
	  ev 0 1 MPI_Wait 3000001 3000002 3000000 - -1 0 -1 0 2
	  ev 1 0 MPI_Recv 0 1 0 - 0 1000000 7 0; } > sc.tr
	run tr nsim -M x.net sc.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Recv\t0\t1002500\t')"* ]]
}

@test "tr-nsim: a call that copies a message first sends its own, as Open MPI and MPICH do" {
	# LAMMPS's halo exchange: MPI_Irecv, a blocking MPI_Send, MPI_Wait
	# on both ranks of a node, 30,000 bytes each way (rendezvous).
	# Rank 1 comes 900 ns later: rank 0's message waits for it, and rank
	# 1's MPI_Send copies it, but sends its own first, which rank 0,
	# blocked in its MPI_Send, copies meanwhile. Both sends end when the
	# copies do (30100 ns after 990) and the waits find the messages
	# there; before, rank 1 sent after its copy, and its message was
	# copied after it (61190 ns). Recorded, 28 KB exchanged so end their
	# MPI_Send together, 7.9 us, and MPI_Wait in 30 ns.
	{ hdr 2
	  ev 0 0 MPI_Irecv 0 10 0 - 1 30000 0 0 5
	  ev 0 1 MPI_Send 100 200 0 - 1 30000 0 0
	  ev 0 2 MPI_Wait 300 400 0 - 1 30000 0 0 5
	  ev 1 0 MPI_Irecv 0 10 0 - 0 30000 0 0 5
	  ev 1 1 MPI_Send 1000 1100 0 - 0 30000 0 0
	  ev 1 2 MPI_Wait 1200 1300 0 - 0 30000 0 0 5; } > x.tr
	printf 'ranks-per-node 2\nintra-eager-threshold 4041\nintra-latency 100ns\nintra-bandwidth 1GB/s\n' > n.net
	run tr nsim -w -M n.net x.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Send\t90\t31090\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t1\tMPI_Send\t990\t31090\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t2\tMPI_Wait\t31190\t31190\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t2\tMPI_Wait\t31190\t31190\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 31190 ]
	# records still come out in the order of their ends
	awk -F'\t' '$1 == "ev" { if ($6 < e) exit 1; e = $6 }' <<<"$output"
	# a rank that finds nothing to copy: unchanged
	{ hdr 2
	  ev 0 0 MPI_Irecv 0 10 0 - 1 30000 0 0 5
	  ev 0 1 MPI_Send 100 200 0 - 1 30000 0 0
	  ev 0 2 MPI_Wait 300 400 0 - 1 30000 0 0 5
	  ev 1 0 MPI_Recv 1000 1100 0 - 0 30000 0 0
	  ev 1 1 MPI_Send 1200 1300 0 - 0 30000 0 0; } > y.tr
	run tr nsim -w -M n.net y.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 60390 ]
}

@test "tr-nsim: a nonblocking broadcast progresses while its MPI_Wait waits for it" {
	{ hdr 8; for r in 0 1 2 3 4 5 6 7; do
		ev $r 0 MPI_Ibcast 0 1 0 - -1 1000 -1 0 5 0
		ev $r 1 MPI_Wait 1 2 0 - -1 0 -1 0 5; done; } > ib.tr
	run tr nsim -M x.net ib.tr
	[ "$status" -eq 0 ]
	# the binomial broadcast above
	[ "$(runtime <<<"$output")" -eq 13500 ]
	[[ "$output" == *"$(printf 'simrank\t3\t9000\t')"* ]]
}

@test "tr-nsim: a nonblocking allreduce overlaps computation: its next rounds start in MPI calls, or at once with progress background" {
	# 4 ranks, recursive doubling: two exchanges of 60,000 bytes
	# (eager), each 62500 ns; 3 ms of computation between
	# MPI_Iallreduce and its MPI_Wait
	ia() { hdr 4; for r in 0 1 2 3; do
		ev $r 0 MPI_Iallreduce 0 1 0 - -1 "$1" -1 0 5
		ev $r 1 MPI_Wait 3000001 3000002 3000000 - -1 0 -1 0 5; done; }
	ia 60000 > ie.tr
	run tr nsim -M x.net ie.tr
	[ "$status" -eq 0 ]
	# the first exchange ends during the computation; the second starts
	# when MPI_Wait is called
	[[ "$output" == *"$(printf 'ev\t2\t0\tMPI_Iallreduce\t0\t0\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t2\t1\tMPI_Wait\t3000000\t3062500\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 3062500 ]
	# 1 MB (rendezvous): the receivers fetch the first round's messages
	# only once they call MPI again, so both exchanges (1002500 ns each)
	# come after the computation
	ia 1000000 > ia.tr
	run tr nsim -M x.net ia.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t2\t1\tMPI_Wait\t3000000\t5005000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 5005000 ]
	# with background progress both end before the MPI_Wait
	{ cat x.net; echo 'progress background'; } > bg.net
	run tr nsim -M bg.net ia.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t2\t1\tMPI_Wait\t3000000\t3000000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 3000000 ]
	# a rank without records is a file left out, said before the replay
	grep -v "$(printf '^ev\t3\t')" ia.tr > lost.tr
	run tr nsim -M x.net lost.tr
	fails_with 3 "lost.tr:2: np=4, but rank 3 has no records: a rank's file missing?"
	# in a selection of ranks, one that never starts it: the others'
	# MPI_Wait is a deadlock
	sed '2a\
#meta subset=test' lost.tr > short.tr
	run tr nsim -M x.net short.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"deadlock: 3 ranks blocked: rank 0 in MPI_Wait"* ]]
	# a rank that starts it and never waits: still a deadlock, named
	grep -v "$(printf '^ev\t[0-2]\t1\t')" short.tr > nowait.tr
	run tr nsim -M x.net nowait.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"nonblocking collectives never completed, the first of rank 0 (seq 0)"* ]]
	printf 'progress sometimes\n' > bad.net
	run tr nsim -M bad.net ia.tr
	fails_with 3 "bad.net:1: progress is calls or background"
}

@test "tr-nsim: reduce-bandwidth prices reducing what each step of a reduction receives" {
	{ cat x.net; echo 'reduce-bandwidth 2GB/s'; } > r2.net
	# 2 ranks, recursive doubling: one exchange of 1 MB (2500 + 1e6),
	# then 1e6 bytes reduced at 2 bytes per ns
	{ hdr 2; for r in 0 1; do ev $r 0 MPI_Allreduce 0 1 0 - -1 1000000 -1 0; done; } > ar.tr
	run tr nsim -M x.net ar.tr
	[ "$(runtime <<<"$output")" -eq 1002500 ]
	run tr nsim -M r2.net ar.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 1502500 ]
	# time reducing inside the call counts as communication
	[[ "$output" == *"$(printf 'simrank	0	1502500	0	1502500	0	1')"* ]]
	# a nonblocking one reduces before its MPI_Wait ends
	{ hdr 2; for r in 0 1; do
		ev $r 0 MPI_Iallreduce 0 1 0 - -1 1000000 -1 0 7
		ev $r 1 MPI_Wait 1 2 0 - -1 0 -1 0 7; done; } > iar.tr
	run tr nsim -M r2.net iar.tr
	[[ "$output" == *"$(printf 'ev	1	1	MPI_Wait	0	1502500	')"* ]]
	# binomial reduce to rank 0 of 100,000 bytes at 1 byte per ns: 3
	# sends to 2 and 1 to 0 (102500); 2 reduces, then sends to 0, which
	# has reduced 1's (202500 each); 0 reduces 2's: 305000 + 100000
	{ cat x.net; echo 'reduce-bandwidth 1GB/s'; } > r1.net
	{ hdr 4; for r in 0 1 2 3; do ev $r 0 MPI_Reduce 0 1 0 - -1 100000 -1 0 -1 0; done; } > rd.tr
	run tr nsim -M r1.net rd.tr
	[ "$(runtime <<<"$output")" -eq 405000 ]
	[[ "$output" == *"$(printf 'simrank	2	305000	')"* ]]
	run tr nsim -M x.net rd.tr
	[ "$(runtime <<<"$output")" -eq 205000 ]
	# what moves data without reducing it is not priced
	{ hdr 4; for r in 0 1 2 3; do ev $r 0 MPI_Bcast 0 1 0 - -1 100000 -1 0 -1 0; done; } > bc.tr
	[ "$(tr nsim -M r1.net bc.tr | runtime)" -eq "$(tr nsim -M x.net bc.tr | runtime)" ]
	printf 'reduce-bandwidth 0\n' > bad.net
	run tr nsim -M bad.net ar.tr
	fails_with 3 "bad.net:1: bandwidth '0' out of range"
}

@test "tr-nsim: tests and probes that found nothing take no time, or their recorded time with -P" {
	# rank 1 polls 5000 ns for a message that, replayed, comes at 2508
	for op in MPI_Test MPI_Iprobe; do
		{ hdr 2
		  ev 0 0 MPI_Send 0 10 0 - 1 8 5 0
		  ev 1 0 MPI_Irecv 0 10 0 - 0 8 5 0 7
		  ev 1 1 $op 100 5100 90 - -1 0 -1 0 -1
		  ev 1 2 MPI_Wait 5100 5200 0 - 0 8 5 0 7; } > p.tr
		run tr nsim -M x.net p.tr
		[ "$status" -eq 0 ]
		# after its 90 ns of CPU the poll ends where it starts, the
		# wait at the message
		[[ "$output" == *"$(printf "ev\t1\t1\t$op\t90\t90\t")"* ]]
		[ "$(runtime <<<"$output")" -eq 2508 ]
		run tr nsim -P -M x.net p.tr
		[[ "$output" == *"$(printf "ev\t1\t1\t$op\t90\t5090\t")"* ]]
		[ "$(runtime <<<"$output")" -eq 5090 ]
		# and the export to SimGrid computes the same
		tr to-ti -M x.net -o ti p.tr
		grep -qx '1 compute 90' ti/rank1.txt
		tr to-ti -P -M x.net -o tiP p.tr
		grep -qx '1 compute 5090' tiP/rank1.txt
		rm -rf ti tiP
	done
}

@test "tr-nsim: MPI_Issend completes once its receiver's acknowledgement comes back" {
	{ hdr 2
	  ev 0 0 MPI_Issend 0 1 0 - 1 8 1 0 3
	  ev 0 1 MPI_Wait 1 2 0 - 1 8 1 0 3
	  ev 1 0 MPI_Recv 1000001 1000002 1000000 - 0 8 1 0; } > ss.tr
	run tr nsim -M x.net ss.tr
	[ "$status" -eq 0 ]
	# below the eager limit its 8 bytes went at once and are there when
	# the receive is posted at 1e6; the acknowledgement takes 2500 ns
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Recv\t1000000\t1000000\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t0\t1002500\t')"* ]]
	# the sender waited for its receiver, then for the acknowledgement
	[[ "$output" == *"$(printf 'simrank\t0\t1002500\t0\t2500\t1000000\t')"* ]]
	sed 's/MPI_Issend/MPI_Isend/' ss.tr > s.tr
	run tr nsim -M x.net s.tr
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t0\t0\t')"* ]]
	# above it, a rendezvous: posted at 1e6, then 2500 + 100000 bytes
	sed 's/\t8\t1\t0/\t100000\t1\t0/' ss.tr > big.tr
	run tr nsim -M x.net big.tr
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t0\t1102500\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Recv\t1000000\t1102500\t')"* ]]
}

@test "tr-nsim: a buffered send is done once copied, whatever its size; its message goes when its receive is posted" {
	# each rank sends 1 MB to the other, then receives: with MPI_Bsend
	# that runs, with MPI_Send (a rendezvous) it deadlocks
	{ hdr 2
	  ev 0 0 MPI_Bsend 0 1 0 - 1 1000000 5 0
	  ev 0 1 MPI_Recv 1 2 0 - 1 1000000 6 0
	  ev 1 0 MPI_Bsend 0 1 0 - 0 1000000 6 0
	  ev 1 1 MPI_Recv 1 2 0 - 0 1000000 5 0; } > b.tr
	run tr nsim -M x.net b.tr
	[ "$status" -eq 0 ]
	# the copy at intra-bandwidth's 10 GB/s: 100 us; then 2500 ns and
	# 1 ms on the wire
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Bsend\t0\t100000\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Recv\t100000\t1102500\t')"* ]]
	sed 's/MPI_Bsend/MPI_Send/' b.tr > s.tr
	run tr nsim -M x.net s.tr
	fails_with 3 "deadlock: 2 ranks blocked: rank 0 in MPI_Send"
	# MPI_Ibsend: its wait waits for nothing
	{ hdr 2
	  ev 0 0 MPI_Ibsend 0 1 0 - 1 1000000 5 0 7
	  ev 0 1 MPI_Wait 1 2 0 - 1 1000000 5 0 7
	  ev 1 0 MPI_Recv 1 2 500000 - 0 1000000 5 0; } > ib.tr
	run tr nsim -M x.net ib.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t100000\t100000\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Recv\t500000\t1502500\t')"* ]]
}

@test "tr-nsim: a receiver acknowledges a synchronous send in its next MPI call, or at once with progress background" {
	# the receive is posted at 0 and waited for at 1 ms: the 8 bytes come
	# at 2508 ns, while the receiver computes
	{ hdr 2
	  ev 0 0 MPI_Issend 0 1 0 - 1 8 1 0 3
	  ev 0 1 MPI_Wait 1 2 0 - 1 8 1 0 3
	  ev 1 0 MPI_Irecv 0 1 0 - 0 8 1 0 5
	  ev 1 1 MPI_Wait 1000001 1000002 1000000 - 0 8 1 0 5; } > ir.tr
	run tr nsim -M x.net ir.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t0\t1002500\t')"* ]]
	{ cat x.net; echo 'progress background'; } > bg.net
	run tr nsim -M bg.net ir.tr
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Wait\t0\t5008\t')"* ]]
	# MPI_Ssend alike
	{ hdr 2
	  ev 0 0 MPI_Ssend 0 1 0 - 1 8 1 0
	  ev 1 0 MPI_Irecv 0 1 0 - 0 8 1 0 5
	  ev 1 1 MPI_Wait 1000001 1000002 1000000 - 0 8 1 0 5; } > s.tr
	run tr nsim -M x.net s.tr
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Ssend\t0\t1002500\t')"* ]]
}

@test "tr-nsim: recorded nonblocking collectives started in different orders, and an NBX exchange, replay without deadlock" {
	# examples/nbc.c: 128 KB broadcasts (rendezvous) started on two
	# communicators in opposite orders by odd and even ranks; MPI_Issend,
	# MPI_Iprobe and MPI_Ibarrier in NBX; an MPI_Iallreduce overlapped
	mpirun --oversubscribe --allow-run-as-root -np 4 \
		"$TR_BIN/tr-record" -o nbc "$TR_MPIBIN/nbc" 3 > /dev/null 2>&1
	tr cat -m nbc/rank.*.tr.gz > nbc.tr
	[ "$(grep -c "$(printf '\tMPI_Ibcast\t')" nbc.tr)" -eq 24 ]
	[ "$(grep -c "$(printf '\tMPI_Ibarrier\t')" nbc.tr)" -eq 12 ]
	for bg in calls background; do
		{ cat x.net; echo "progress $bg"; } > p.net
		run tr nsim -M p.net nbc.tr
		[ "$status" -eq 0 ]
		[ "$(grep -c '^ev' <<<"$output")" -eq "$(grep -c '^ev' nbc.tr)" ]
		[ "$(runtime <<<"$output")" -gt 0 ]
	done
	# SimGrid's replay has no nonblocking collectives: tr-to-ti says so
	run tr to-ti -M x.net -o ti nbc.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"nbc.tr: SimGrid's replay has no nonblocking collectives: 48 are exported as blocking ones"* ]]
}

@test "tr-nsim: a blocking probe waits for the envelope of the message its record names" {
	{ hdr 2
	  ev 0 0 MPI_Probe 0 90000 0 - 1 8 5 0
	  ev 0 1 MPI_Recv 90000 90001 0 - 1 8 5 0
	  ev 1 0 MPI_Send 0 1 10000 - 0 8 5 0; } > p.tr
	run tr nsim -M x.net p.tr
	[ "$status" -eq 0 ]
	# sent at 10 us: its envelope comes 2500 ns later, its 8 bytes 8 ns
	# after that
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Probe\t0\t12500\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Recv\t12500\t12508\t')"* ]]
	# the probe's time is waiting
	[[ "$output" == *"$(printf 'simrank\t0\t12508\t0\t8\t12500\t')"* ]]
	# a message already there is found at once (MPI_Mprobe alike)
	sed 's/MPI_Probe\t0\t90000\t0/MPI_Mprobe\t0\t90000\t20000/; s/MPI_Recv/MPI_Mrecv/' p.tr > m.tr
	run tr nsim -M x.net m.tr
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Mprobe\t20000\t20000\t')"* ]]
	# a message never sent: the probe is a deadlock
	sed 's/MPI_Send/MPI_Comm_rank/' p.tr > none.tr
	run tr nsim -M x.net none.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"deadlock: 1 rank blocked: rank 0 in MPI_Probe (seq 0, peer 1, tag 5)"* ]]
}

@test "tr-nsim: MPI_Cancel cancels a receive still unmatched in the replay, not one matched" {
	{ hdr 2
	  ev 0 0 MPI_Irecv 0 1 0 - 1 8 5 0 0
	  ev 0 1 MPI_Irecv 1 2 0 - 1 8 6 0 1
	  ev 0 2 MPI_Cancel 10 11 10000 - -1 0 -1 -1 0
	  ev 0 3 MPI_Wait 11 12 0 - -1 0 -1 0 0
	  ev 0 4 MPI_Cancel 12 13 0 - -1 0 -1 -1 1
	  ev 0 5 MPI_Wait 13 14 0 - 1 8 6 0 1
	  ev 1 0 MPI_Send 0 1 0 - 0 8 6 0; } > c.tr
	run tr nsim -M x.net c.tr
	[ "$status" -eq 0 ]
	# tag 5: nothing sends it, cancelled at 10 us (the call lasts its
	# recorded 1 ns); tag 6: arrived at 2508 ns, so its cancel fails and
	# MPI_Wait finds it complete
	[[ "$output" == *"$(printf 'ev\t0\t3\tMPI_Wait\t10001\t10001\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t5\tMPI_Wait\t10002\t10002\t')"* ]]
	[[ "$output" != *"never received"* ]]
	# sent after the cancel: the receive is cancelled, the send is left
	sed "s/^\(ev\t1\t0\tMPI_Send\t0\t1\t\)0/\120000/" c.tr > late.tr
	run tr nsim -M x.net late.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t5\tMPI_Wait\t10002\t10002\t')"* ]]
	[[ "$output" == *"1 sends never received, the first: rank 1 seq 0"* ]]
	# a recorded server that cancels its receives at the end
	mpirun --oversubscribe --allow-run-as-root -np 4 \
		"$TR_BIN/tr-record" -o can "$TR_MPIBIN/cancel" 3 > /dev/null 2>&1
	tr cat -m can/rank.*.tr.gz > can.tr
	run tr nsim -M x.net can.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq "$(grep -c '^ev' can.tr)" ]
	[[ "$output" != *"never received"* ]]
	# SimGrid's replay cannot cancel: tr-to-ti says so
	run tr to-ti -M x.net -o ti can.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"can.tr: SimGrid's replay cannot cancel: 3 receives"* ]]
}

@test "tr-nsim: one-sided transfers go and come back, and complete in the calls that wait for them" {
	{ hdr 2
	  ev 0 0 MPI_Win_allocate 0 10 0 - -1 4096 0 0
	  ev 0 1 MPI_Win_lock_all 20 21 0 - -1 0 0 0
	  ev 0 2 MPI_Put 21 22 0 - 1 1000000 0 0
	  ev 0 3 MPI_Win_flush_all 22 23 0 - -1 0 0 0
	  ev 0 4 MPI_Get 23 24 0 - 1 1000 0 0
	  ev 0 5 MPI_Win_flush 24 25 0 - 1 0 0 0
	  ev 0 6 MPI_Win_unlock_all 25 26 0 - -1 0 0 0
	  ev 0 7 MPI_Win_free 26 27 0 - -1 0 0 0
	  ev 1 0 MPI_Win_allocate 0 10 0 - -1 4096 0 0
	  ev 1 1 MPI_Win_free 26 27 0 - -1 0 0 0; } > p.tr
	run tr nsim -M x.net p.tr
	[ "$status" -eq 0 ]
	# the window is made by a barrier (2500) and its cost (the least
	# duration recorded, 10); the put goes on at once, its flush waits
	# for the bytes (2500 + 1e6) and the acknowledgement (2500); a get
	# is a request (2500) and its bytes back (2500 + 1000); freeing the
	# window costs 1 after its barrier
	[[ "$output" == *"$(printf 'ev	0	2	MPI_Put	2511	2511	')"* ]]
	[[ "$output" == *"$(printf 'ev	0	3	MPI_Win_flush_all	2511	1007511	')"* ]]
	[[ "$output" == *"$(printf 'ev	0	5	MPI_Win_flush	1007511	1013511	')"* ]]
	[ "$(runtime <<<"$output")" -eq 1016012 ]
	# a fence waits for the rank's transfers, then for all; MPI_Wait
	# for an MPI_Rget's request; an atomic read (root 0: no bytes sent)
	{ hdr 2; for r in 0 1; do
	  ev $r 0 MPI_Win_create 0 10 0 - -1 4096 0 0
	  ev $r 1 MPI_Win_fence 10 11 0 - -1 0 0 0
	  ev $r 2 MPI_Put 11 12 0 - $((1 - r)) 1000 0 0
	  ev $r 3 MPI_Win_fence 12 13 0 - -1 0 0 0
	  ev $r 4 MPI_Rget 13 14 0 - $((1 - r)) 2000 0 0 3
	  ev $r 5 MPI_Wait 14 15 0 - $((1 - r)) 2000 0 0 3
	  ev $r 6 MPI_Fetch_and_op 15 16 0 - $((1 - r)) 8 0 0 -1 0
	  ev $r 7 MPI_Win_fence 16 17 0 - -1 0 0 0; done; } > f.tr
	run tr nsim -M x.net f.tr
	[ "$status" -eq 0 ]
	# (all 10 ns later: MPI_Win_create's cost)
	[[ "$output" == *"$(printf 'ev	1	3	MPI_Win_fence	5010	13510	')"* ]]
	[[ "$output" == *"$(printf 'ev	1	5	MPI_Wait	13510	20510	')"* ]]
	[ "$(runtime <<<"$output")" -eq 28018 ]
	# a target out of range is an error
	sed 's/MPI_Put\t11\t12\t0\t-\t1/MPI_Put\t11\t12\t0\t-\t7/' f.tr > bad.tr
	run tr nsim -M x.net bad.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"target 7 out of range (np=2)"* ]]
}

@test "tr-nsim: within a node the origin copies a one-sided transfer in its call; rma-overhead prices every one-sided call" {
	{ hdr 2
	  ev 0 0 MPI_Win_allocate 0 10 0 - -1 4096 0 0
	  ev 0 1 MPI_Win_lock_all 20 21 0 - -1 0 0 0
	  ev 0 2 MPI_Put 21 22 0 - 1 1000000 0 0
	  ev 0 3 MPI_Win_flush_all 22 23 0 - -1 0 0 0
	  ev 0 4 MPI_Accumulate 23 24 0 - 1 1000 0 0
	  ev 0 5 MPI_Get_accumulate 24 25 0 - 1 2000 0 0 -1 0
	  ev 0 6 MPI_Fetch_and_op 25 26 0 - 1 8 0 0 -1 8
	  ev 0 7 MPI_Rget 26 27 0 - 1 4000 0 0 3
	  ev 0 8 MPI_Wait 27 28 0 - 1 4000 0 0 3
	  ev 0 9 MPI_Win_flush 28 29 0 - 1 0 0 0
	  ev 0 10 MPI_Win_unlock_all 29 30 0 - -1 0 0 0
	  ev 0 11 MPI_Win_free 30 31 0 - -1 0 0 0
	  ev 1 0 MPI_Win_allocate 0 10 0 - -1 4096 0 0
	  ev 1 1 MPI_Win_free 30 31 0 - -1 0 0 0; } > p.tr
	# both ranks on one node: 1 us and 1 byte per ns for a message, 2
	# bytes per ns for the origin's copies, 100 ns a one-sided call
	cat > n.net <<-'E'
	topology crossbar
	ranks-per-node 2
	intra-latency 1us
	intra-bandwidth 1GB/s
	intra-rma-bandwidth 2GB/s
	rma-overhead 100ns
	E
	run tr nsim -M n.net p.tr
	[ "$status" -eq 0 ]
	# the window: a barrier (1000) and its cost (10), MPI_Win_lock_all
	# its recorded 1; the put copies 1e6 bytes in its call (100 +
	# 500000) and its flush finds nothing to wait for (100); an
	# accumulate copies 1000 bytes, a get_accumulate with no bytes sent
	# 2000 back, a fetch_and_op 8 there and 8 back; MPI_Wait finds the
	# MPI_Rget done
	cat > want <<-'E'
	MPI_Put 1011 501111
	MPI_Win_flush_all 501111 501211
	MPI_Accumulate 501211 501811
	MPI_Get_accumulate 501811 502911
	MPI_Fetch_and_op 502911 503019
	MPI_Rget 503019 505119
	MPI_Wait 505119 505119
	MPI_Win_flush 505119 505219
	MPI_Win_unlock_all 505219 505319
	E
	awk -F'\t' '$1 == "ev" && $2 == 0 && $3 >= 2 && $3 <= 10 {
		print $4, $5, $6 }' <<<"$output" | diff want -
	# what the calls cost is communication: the breakdown sums to the
	# finish, with the LogGP overhead of a nonblocking send too
	sums() { awk -F'\t' '$1 == "simrank" { n++; if ($3 != $4 + $5 + $6) bad = 1 }
		END { exit bad || !n }' <<<"$output"; }
	sums
	{ cat n.net; echo 'loggp 50ns 0 0 0'; } > lo.net
	{ hdr 2; ev 0 0 MPI_Isend 0 1 0 - 1 8 0 0 5; ev 0 1 MPI_Wait 1 2 0 - 1 8 0 0 5
	  ev 1 0 MPI_Recv 0 2 0 - 0 8 0 0; } > is.tr
	for t in p.tr is.tr; do
		run tr nsim -M lo.net $t
		[ "$status" -eq 0 ]
		sums
	done
	# between nodes the transfer still goes and comes back, leaving
	# once its call has posted it: the put's call lasts 100, its bytes
	# arrive 2500 + 1e6 later and its acknowledgement 2500 after that;
	# the flush costs its 100 too, but the wait is longer
	printf 'rma-overhead 100ns\n' >> x.net
	run tr nsim -M x.net p.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev	0	2	MPI_Put	2511	2611	')"* ]]
	[[ "$output" == *"$(printf 'ev	0	3	MPI_Win_flush_all	2611	1007611	')"* ]]
	# without the copy's rate, a transfer within a node moves as a
	# message does, there and back: 1000 + 1e6, then 1000
	sed '/^intra-rma-bandwidth/d' n.net > m.net
	run tr nsim -M m.net p.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev	0	2	MPI_Put	1011	1111	')"* ]]
	[[ "$output" == *"$(printf 'ev	0	3	MPI_Win_flush_all	1111	1003111	')"* ]]
	# bad values are errors at their line
	printf 'intra-rma-bandwidth 0B/s\n' >> n.net
	run tr nsim -M n.net p.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"n.net:7: "* ]]
	printf 'rma-overhead -1ns\n' > o.net
	run tr nsim -M o.net p.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"o.net:1: bad overhead '-1ns'"* ]]
}

@test "tr-nsim: a neighborhood collective exchanges a block with each neighbour of its cart grid" {
	# 3 ranks on a line that does not wrap: 0 and 2 have one neighbour,
	# 1 has two; 2000 bytes recorded are two blocks of 1000
	{ hdr 3; printf '#fields\tcomm\trank\tid\tsize\tmembers\n#fields\tcart\trank\tid\tdims\tperiods\n'
	  for r in 0 1 2; do printf 'comm\t%s\t2\t3\t0-2\ncart\t%s\t2\t3\t0\n' $r $r
		ev $r 0 MPI_Neighbor_alltoall 0 10 0 - -1 2000 -1 2; done; } > nb.tr
	run tr nsim -M x.net nb.tr
	[ "$status" -eq 0 ]
	# rank 1's links carry two flows each way: 2500 + 1000 / 0.5
	[ "$(runtime <<<"$output")" -eq 4500 ]
	[[ "$output" == *"$(printf 'simlink\t2\tn1.up\t2000\t')"* ]]
	[[ "$output" == *"$(printf 'simlink\t0\tn0.up\t1000\t')"* ]]
	# without its grid (a graph topology) the call keeps its time
	grep -v '^cart' nb.tr > ng.tr
	run tr nsim -M x.net ng.tr
	[ "$(runtime <<<"$output")" -eq 10 ]
	# a wrapping grid of 2 has one rank both sides: two blocks to it
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n#fields\tcart\trank\tid\tdims\tperiods\n'
	  for r in 0 1; do printf 'comm\t%s\t2\t2\t0-1\ncart\t%s\t2\t2\t1\n' $r $r
		ev $r 0 MPI_Neighbor_alltoall 0 10 0 - -1 2000 -1 2; done; } > nw.tr
	run tr nsim -M x.net nw.tr
	[[ "$output" == *"$(printf 'simlink\t0\tn0.up\t2000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 4500 ]
	# a grid that is not the communicator's ranks, or is not a grid
	sed 's/^cart\t\([01]\)\t2\t2\t1$/cart\t\1\t2\t3\t1/' nw.tr > nb3.tr
	run tr nsim -M x.net nb3.tr
	fails_with 3 "rank 0 seq 0: the cart grid of communicator 2 is not its 2 ranks"
	sed 's/^cart\t0\t2\t2\t1$/cart\t0\t2\tx\t1/' nw.tr > nbx.tr
	run tr nsim -M x.net nbx.tr
	fails_with 3 "nbx.tr:7: cart: bad dims 'x'"
}

@test "tr-nsim: persistent requests started by MPI_Startall are nonblocking sends and receives" {
	{ hdr 2; ev 0 0 MPI_Send_init 0 1 0 - 1 1000 3 0
	  ev 0 1 MPI_Startall:Send_init 1 2 0 - 1 1000 3 0 0
	  ev 0 2 MPI_Waitall 2 3 0 - 1 1000 3 0 0
	  ev 1 0 MPI_Recv_init 0 1 0 - 0 1000 3 0
	  ev 1 1 MPI_Start:Recv_init 1 2 0 - 0 1000 3 0 0
	  ev 1 2 MPI_Wait 2 3 0 - 0 1000 3 0 0; } > p.tr
	run tr nsim -M x.net p.tr
	[ "$status" -eq 0 ]
	# after the init's recorded 1 ns, an eager message: 2500 + 1000 B at
	# 1 B/ns, received by the Wait; the sender's Waitall returns at once
	[ "$(runtime <<<"$output")" -eq 3501 ]
	[[ "$output" == *"$(printf 'ev\t0\t2\tMPI_Waitall\t1\t1\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t2\tMPI_Wait\t1\t3501\t')"* ]]
}

@test "tr-nsim: the records of one MPI_Startall keep one time span" {
	# With a CPU overhead per message, each request's record got its
	# own times under the call's one seq, which tr-cat rejects.
	{ hdr 2; ev 0 0 MPI_Init 0 10; ev 1 0 MPI_Init 0 10
	  ev 0 1 MPI_Startall:Send_init 100 200 0 x 1 8 0 0 1
	  ev 0 1 MPI_Startall:Send_init 100 200 0 x 1 8 1 0 2
	  ev 0 2 MPI_Waitall 300 400 0 x -1 0 -1 0 1
	  ev 0 2 MPI_Waitall 300 400 0 x -1 0 -1 0 2
	  ev 1 1 MPI_Recv 100 200 0 x 0 8 0 0
	  ev 1 2 MPI_Recv 300 400 0 x 0 8 1 0; } > sa.tr
	printf 'loggp 50 0 0 0\n' > o.net
	run tr nsim -M o.net sa.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Startall:Send_init\t0\t100\t0\tx\t1\t8\t0\t0\t1\t-1\nev\t0\t1\tMPI_Startall:Send_init\t0\t100\t')"* ]]
	tr nsim -M o.net sa.tr | tr cat > /dev/null
}

@test "tr-nsim: records of one seq that no group joins are an error, not a second call" {
	# a garbled op before a Waitall's records of its seq: replayed as a
	# call of its own, then the Waitall with other times under the same
	# seq, status 0 and an output tr-cat rejects
	{ hdr 2; ev 0 0 MPI_Init 0 10; ev 1 0 MPI_Init 0 10
	  ev 0 1 MPI_Isend 100 200 0 x 1 8 0 0 1
	  ev 0 2 MPI_Waitaln 300 400 0 x -1 0 -1 0 1
	  ev 0 2 MPI_Waitall 300 400 0 x -1 0 -1 0 1
	  ev 1 1 MPI_Recv 100 200 0 x 0 8 0 0; } > g.tr
	tr cat g.tr > /dev/null
	run stderr_of tr nsim g.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: g.tr:8: rank 0 seq 2: records of one seq that are not one call" ]
	sed 's/Waitaln/Waitall/' g.tr > ok.tr
	tr nsim ok.tr | tr cat > /dev/null
}

@test "tr-nsim: a nonblocking receive without a request id posts nothing (its reuse looped the queue)" {
	# MPI_Irecv with req -1 (a call that failed; fuzzed): its receive
	# went back to the free list while still posted, was reused for
	# the next, and the posted queue became a loop: a hang
	{ hdr 2; for r in 0 1; do p=$((1 - r)) s=0 t=0
		for i in 1 2 3; do
			ev $r $s MPI_Irecv $t $((t + 1)) 0 x $p 8 7 0 -1
			ev $r $((s + 1)) MPI_Isend $((t + 10)) $((t + 11)) 0 x $p 8 7 0 1
			ev $r $((s + 2)) MPI_Wait $((t + 20)) $((t + 21)) 0 x -1 0 -1 0 1
			s=$((s + 3)) t=$((t + 30))
		done; done; } > irq.tr
	run stderr_of timeout 20 "$TR_BIN/tr-nsim" irq.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-nsim: irq.tr: 6 sends never received, the first: rank 1 seq 1 sent 8 bytes to rank 0 (tag 7)" ]
}

@test "tr-nsim: a fail record has simulated times: the computation before it, then its recorded time, as a local call's" {
	# a send to rank 7 of 1 (MPI_ERR_RANK) 5 ms into the recording,
	# after 100 ns of CPU: it was copied with its recorded times, and
	# its CPU burst was left out of the rank's clock
	{ hdr 1; echo "$FAILFIELDS"; ev 0 0 MPI_Comm_rank 0 10 0
	  failrec 0 1 MPI_Send 5000000 5000300 100 a.out+0x10 7 4 0 0 -1 -1 MPI_ERR_RANK
	  ev 0 2 MPI_Comm_rank 5000400 5000410 50; } > f1.tr
	run tr nsim -M x.net f1.tr
	[ "$status" -eq 0 ]
	[ "$(grep -v '^#' <<<"$output" | grep '^ev\|^fail' | cut -f1-6,15)" = "$(printf '%s\n' \
	    "ev	0	0	MPI_Comm_rank	0	10" \
	    "fail	0	1	MPI_Send	110	410	MPI_ERR_RANK" \
	    "ev	0	2	MPI_Comm_rank	460	470")" ]
	[ "$(runtime <<<"$output")" -eq 470 ]
	# its columns after the times as they were, and its type declared
	grep -qx "$FAILFIELDS" <<<"$output"
	[[ "$output" == *"$(printf 'fail\t0\t1\tMPI_Send\t110\t410\t100\ta.out+0x10\t7\t4\t0\t0\t-1\t-1\tMPI_ERR_RANK')"* ]]
	# with wall-clock gaps, the gap before it
	run tr nsim -w -M x.net f1.tr
	[[ "$output" == *"$(printf 'fail\t0\t1\tMPI_Send\t5000000\t5000300\t')"* ]]
}

@test "tr-nsim: a receive truncated (MPI_ERR_TRUNCATE), blocking or by its request's completion, takes its message and the sender completes" {
	# rendezvous messages of 100000 bytes into receives of 4: the run
	# consumed them (MPI_Recv and MPI_Wait failed), and the replay
	# refused the trace (the receives were not replayed: a deadlock)
	{ hdr 2; echo "$FAILFIELDS"
	  ev 0 0 MPI_Send 0 10 0 - 1 100000 5 0; ev 0 1 MPI_Send 10 20 0 - 1 100000 6 0
	  failrec 1 0 MPI_Recv 0 10 0 a.out+0x10 0 4 5 0 -1 -1 MPI_ERR_TRUNCATE
	  ev 1 1 MPI_Irecv 10 11 0 - 0 4 6 0 3
	  failrec 1 2 MPI_Wait 11 20 0 a.out+0x10 0 100000 6 0 3 -1 MPI_ERR_TRUNCATE; } > tc.tr
	run tr nsim -M x.net tc.tr
	[ "$status" -eq 0 ]
	# each a rendezvous: 2500 + 100000 ns, one after the other
	[ "$(grep '^ev\|^fail' <<<"$output" | cut -f1-6 | sort)" = "$(printf '%s\n' \
	    "ev	0	0	MPI_Send	0	102500" "ev	0	1	MPI_Send	102500	205000" \
	    "ev	1	1	MPI_Irecv	102500	102500" "fail	1	0	MPI_Recv	0	102500" \
	    "fail	1	2	MPI_Wait	102500	205000")" ]
	[ "$(runtime <<<"$output")" -eq 205000 ]
	# a completion of many requests that failed in one: its ev and fail
	# records are one call
	{ hdr 2; echo "$FAILFIELDS"
	  ev 0 0 MPI_Send 0 10 0 - 1 4 5 0; ev 0 1 MPI_Send 10 20 0 - 1 100000 6 0
	  ev 1 0 MPI_Irecv 0 1 0 - 0 4 5 0 2; ev 1 1 MPI_Irecv 1 2 0 - 0 4 6 0 3
	  ev 1 2 MPI_Waitall 11 20 0 - 0 4 5 0 2
	  failrec 1 2 MPI_Waitall 11 20 0 a.out+0x10 0 100000 6 0 3 -1 MPI_ERR_TRUNCATE; } > wa.tr
	run tr nsim -M x.net wa.tr
	[ "$status" -eq 0 ]
	[ "$(grep 'MPI_Waitall' <<<"$output" | cut -f1,5,6,13)" = "$(printf '%s\n' \
	    "ev	0	102504	2" "fail	0	102504	3")" ]
}

@test "tr-nsim: a truncating receive found at its MPI_Wait exits 3 and leaks nothing" {
	cd "$BATS_TEST_TMPDIR"
	# under the sanitizers, a request dropped before the error is a
	# leak, and the status is 1
	tr gen -P stencil2d -n 8 -i 2 -a 1 -j 0.1 -R 3 |
		awk -F'\t' -v OFS='\t' '$1=="ev"&&$2==0&&$3==1&&$4=="MPI_Irecv"&&!d{$10=0;d=1}{print}' > leak.tr
	run stderr_of tr nsim leak.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: leak.tr:61: rank 0 seq 1: a receive of 0 bytes matches a message of 1024 bytes from rank 2 seq 4 (tag 0): it would be truncated" ]
}

@test "tr-nsim: a receive smaller than its message whose call did not fail is an error, where its completion says so" {
	# the Waitall's record of the larger message an ev: found at the
	# match, before the completion is read, it waits for that
	{ hdr 2
	  ev 0 0 MPI_Send 0 10 0 - 1 4 5 0; ev 0 1 MPI_Send 10 20 0 - 1 100000 6 0
	  ev 1 0 MPI_Irecv 0 1 0 - 0 4 5 0 2; ev 1 1 MPI_Irecv 1 2 0 - 0 4 6 0 3
	  ev 1 2 MPI_Waitall 11 20 0 - 0 4 5 0 2
	  ev 1 2 MPI_Waitall 11 20 0 - 0 100000 6 0 3; } > wt.tr
	run tr nsim -M x.net wt.tr
	fails_with 3 "tr-nsim: wt.tr:9: rank 1 seq 1: a receive of 4 bytes matches a message of 100000 bytes from rank 0 seq 1 (tag 6): it would be truncated"
	# an MPI_Wait after the match
	{ hdr 2
	  ev 0 0 MPI_Send 0 10 0 - 1 8 5 0
	  ev 1 0 MPI_Irecv 0 1 0 - 0 4 5 0 2; ev 1 1 MPI_Comm_rank 1000 1001 1000
	  ev 1 2 MPI_Wait 1001 1002 0 - 0 8 5 0 2; } > wl.tr
	run tr nsim -M x.net wl.tr
	fails_with 3 "tr-nsim: wl.tr:7: rank 1 seq 0: a receive of 4 bytes matches a message of 8 bytes from rank 0 seq 0 (tag 5): it would be truncated"
	# a blocking receive, at once
	{ hdr 2; ev 0 0 MPI_Send 0 10 0 - 1 8 5 0; ev 1 0 MPI_Recv 0 1 0 - 0 4 5 0; } > rb.tr
	run tr nsim -M x.net rb.tr
	fails_with 3 "tr-nsim: rb.tr:5: rank 1 seq 0: a receive of 4 bytes matches a message of 8 bytes from rank 0 seq 0 (tag 5): it would be truncated"
	# a failed call of another class took nothing
	{ hdr 2; echo "$FAILFIELDS"; ev 0 0 MPI_Send 0 10 0 - 1 8 5 0
	  failrec 1 0 MPI_Recv 0 1 0 a.out+0x10 0 4 5 0 -1 -1 MPI_ERR_OTHER; } > ro.tr
	run stderr_of tr nsim -M x.net ro.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-nsim: ro.tr: 1 sends never received, the first: rank 0 seq 0 sent 8 bytes to rank 1 (tag 5)" ]
}

@test "tr-nsim: v-collectives move what their uniform forms move" {
	# Gatherv and Scatterv record the root's total and each other
	# rank's own block; Allgatherv and Alltoallv every rank's total
	for op in Gather Scatter Allgather Alltoall; do
		{ hdr 4; for r in 0 1 2 3; do
			ev $r 0 MPI_$op 0 1 0 - -1 1000 -1 0 -1 0; done; } > u.tr
		{ hdr 4; for r in 0 1 2 3; do
			b=1000
			case $op in Gather|Scatter) [ $r -eq 0 ] && b=4000 ;;
			*) b=4000 ;; esac
			ev $r 0 MPI_${op}v 0 1 0 - -1 $b -1 0 -1 0; done; } > v.tr
		u=$(tr nsim -M x.net u.tr | runtime)
		v=$(tr nsim -M x.net v.tr | runtime)
		echo "$op: $u vs $v"
		[ "$u" -gt 2500 ]
		[ "$u" = "$v" ]
	done
	# Reduce_scatter records the total of its counts, and
	# Reduce_scatter_block one block: the same data, the same time, and
	# longer than with blocks 4 times smaller
	for b in 250 1000; do
		{ hdr 4; for r in 0 1 2 3; do
			ev $r 0 MPI_Reduce_scatter_block 0 1 0 - -1 $b -1 0 -1 0; done; } > b$b.tr
	done
	{ hdr 4; for r in 0 1 2 3; do
		ev $r 0 MPI_Reduce_scatter 0 1 0 - -1 4000 -1 0 -1 0; done; } > rs.tr
	v=$(tr nsim -M x.net rs.tr | runtime)
	u=$(tr nsim -M x.net b1000.tr | runtime)
	s=$(tr nsim -M x.net b250.tr | runtime)
	echo "Reduce_scatter: $v, _block: $u, a block of 250: $s"
	[ "$u" = "$v" ]
	[ "$s" -lt "$u" ]
}

@test "tr-nsim: collectives on a sub-communicator use its members" {
	{ hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 2; do printf 'comm\t%s\t2\t2\t0,2\n' $r; done
	  for r in 1 3; do printf 'comm\t%s\t2\t2\t1,3\n' $r; done
	  for r in 0 1 2 3; do ev $r 0 MPI_Bcast 0 1 0 - -1 1000 -1 2 -1 $((r % 2)); done; } > sub.tr
	run tr nsim -M x.net sub.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 3500 ]
	[ "$(grep -c '^comm' <<<"$output")" -eq 4 ]
}

@test "tr-nsim: one communicator may have different ids on its ranks" {
	# ids count each rank's own creations: rank 0 got a communicator
	# that rank 1 did not (MPI_Comm_create, MPI_UNDEFINED), so their
	# shared one is 3 on rank 0 and 2 on rank 1
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  printf 'comm\t0\t2\t1\t0\ncomm\t0\t3\t2\t0-1\ncomm\t1\t2\t2\t0-1\n'
	  ev 0 0 MPI_Allreduce 0 1 0 - -1 1000 -1 3
	  ev 1 0 MPI_Allreduce 0 1 0 - -1 1000 -1 2; } > ids.tr
	run tr nsim -M x.net ids.tr
	[ "$status" -eq 0 ]
	# one exchange of 1000 bytes both ways: 2500 + 1000
	[ "$(runtime <<<"$output")" -eq 3500 ]
}

# Four ranks written one after another (as per-rank files concatenated
# are read): a split into pairs as id 2, an MPI_Allreduce on it, its
# free, then a duplicate of the world as id $1, an MPI_Allreduce of
# 1 MB on it, its free (by $2, MPI_Comm_free if not given). Rank 0's
# second communicator is read before its first MPI_Allreduce can be
# replayed.
freed_trace() {
	local free=${2:-MPI_Comm_free}
	hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1 2 3; do
		printf 'comm\t%s\t2\t2\t%s\n' $r $([ $r -lt 2 ] && echo 0-1 || echo 2-3)
		ev $r 0 MPI_Comm_split 0 1000 0 - -1 0 -1 0 2
		ev $r 1 MPI_Allreduce 1000 2000 0 - -1 8 -1 2
		ev $r 2 "$free" 2000 2100 0 - -1 0 -1 2
		printf 'comm\t%s\t%s\t4\t0-3\n' $r "$1"
		ev $r 3 MPI_Comm_dup 3000 4000 0 - -1 0 -1 0 "$1"
		ev $r 4 MPI_Allreduce 4000 5000 0 - -1 1000000 -1 "$1"
		ev $r 5 "$free" 5000 5100 0 - -1 0 -1 "$1"
	done
}

@test "tr-nsim: a comm id used again after its MPI_Comm_free names the new communicator" {
	# the replay of the id's first use comes after the second comm
	# record is read; it took that one (a deadlock: ranks 0 and 1 in
	# an MPI_Allreduce over all four). Now the replay is the one of
	# the same trace with a fresh id for the second communicator.
	freed_trace 2 > reuse.tr
	freed_trace 3 > fresh.tr
	run tr nsim -M x.net reuse.tr
	[ "$status" -eq 0 ]
	tr nsim -M x.net fresh.tr |
	    sed 's/\t3\t-1\t-1$/\t2\t-1\t-1/; s/\t0\t3\t-1$/\t0\t2\t-1/
		s/^\(comm\t[0-9]\)\t3\t/\1\t2\t/' > fresh.out
	[ "$output" = "$(cat fresh.out)" ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 24 ]
	# the pairs' exchange of 8 bytes, then the 1 MB one over the four
	[ "$(runtime <<<"$output")" -gt 2000000 ]
}

@test "tr-nsim: MPI_Comm_disconnect frees as MPI_Comm_free does, a local call of its recorded time: its id used again names the new communicator" {
	freed_trace 2 MPI_Comm_disconnect > dreuse.tr
	freed_trace 2 > reuse.tr
	run tr nsim -M x.net dreuse.tr
	[ "$status" -eq 0 ]
	[ "$output" = "$(tr nsim -M x.net reuse.tr | sed 's/MPI_Comm_free/MPI_Comm_disconnect/')" ]
	[ "$(grep -c "$(printf '^ev\t[0-9]\t[25]\tMPI_Comm_disconnect\t')" <<<"$output")" -eq 8 ]
}

# Trace $1 (a communicator freed early) replays as $2 (freed late)
# does, read in turn or (-w) each rank's file whole before the other's
# replay: their sim lines in ${1%.tr}.out and ${2%.tr}.out.
replays_alike() {
	local b=${1%.tr} a=${2%.tr}
	run tr nsim -M x.net "$1"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	grep '^sim' <<<"$output" > "$b.out"
	tr nsim -M x.net "$2" | grep '^sim' > "$a.out"
	cmp "$a.out" "$b.out" || return 1
	tr nsim -w -M x.net "$1" | grep '^simrun' > "${b}w.out"
	tr nsim -w -M x.net "$2" | grep '^simrun' > "${a}w.out"
	cmp "${a}w.out" "${b}w.out"
}

@test "tr-nsim: a window keeps the communicator it was made on, freed before the window's fences and frees" {
	# legal MPI (a window holds its group), and OpenCoarrays' end: the
	# fence after the free was "communicator 2 has no comm record"
	winfree_trace before > b.tr
	winfree_trace after > a.tr
	replays_alike b.tr a.tr
	# rank 0 waits in the fences for rank 1's 5 and 3 us
	[ "$(awk -F'\t' '$1 == "simrank" && $2 == 0 { print $6 }' b.out)" -eq 8000 ]
}

@test "tr-nsim: a persistent request keeps its communicator, freed before the request is started" {
	# legal MPI (MPI_Comm_free leaves its requests be): the start after
	# the free was "communicator 2 has no comm record", exit 3
	pers_trace before > b.tr
	pers_trace after > a.tr
	replays_alike b.tr a.tr
	# its 4 messages of 4 bytes (one each way per iteration) all sent
	[ "$(awk -F'\t' '$1 == "simlink" && $3 ~ /up$/ { n += $4 }
	    END { print n }' b.out)" -eq $((4 * 4)) ]
	# the second duplicate with the first's id, its comm record read
	# ahead: the first's start still takes the first
	pers_trace before same > s.tr
	replays_alike s.tr a.tr
}

@test "tr-nsim: a coarray program (OpenCoarrays) replays to its end" {
	command -v caf >/dev/null || skip "no caf (libcoarrays-openmpi-dev)"
	caf -O2 -o halo "$TOP/examples/inputs/halo-caf.f90"
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
	    -o c ./halo > halo.out
	grep -q 'iter  *20 sum' halo.out
	tr cat -m c/rank.*.tr.gz > c.tr
	# its communicator freed before its windows
	[ "$(awk -F'\t' '$1 == "ev" && $2 == 0 && $4 == "MPI_Comm_free" { f = $3 }
	    $1 == "ev" && $2 == 0 && $4 == "MPI_Win_free" && f { n++ }
	    END { print n + 0 }' c.tr)" -ge 1 ]
	run tr nsim -M x.net c.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq "$(grep -c '^ev' c.tr)" ]
	# 20 iterations of two puts per image, each under a lock
	[ "$(grep -c "$(printf '^ev\t0\t[0-9]*\tMPI_Put\t')" <<<"$output")" -eq 40 ]
}

@test "tr-nsim: MPI_Comm_free of MPI_COMM_WORLD or MPI_COMM_SELF is bad input" {
	{ hdr 2; ev 0 0 MPI_Barrier 0 10; ev 0 1 MPI_Comm_free 10 20 0 - -1 0 -1 0
	  ev 1 0 MPI_Barrier 0 10; } > wf.tr
	run stderr_of tr nsim -M x.net wf.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: wf.tr:5: rank 0 seq 1: MPI_Comm_free of MPI_COMM_WORLD" ]
	{ hdr 1; ev 0 0 MPI_Comm_free 10 20 0 - -1 0 -1 1; } > sf.tr
	run tr nsim -M x.net sf.tr
	fails_with 3 "sf.tr:4: rank 0 seq 0: MPI_Comm_free of MPI_COMM_SELF"
	# a communicator without a comm record is freed as a local call
	{ hdr 1; ev 0 0 MPI_Comm_free 10 20 0 - -1 0 -1 7; } > uf.tr
	run tr nsim -M x.net uf.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 10 ]
}

@test "tr-nsim: a real communicator made and freed every iteration, an MPI_Ibcast on it pending at the free" {
	[ -x "$TR_MPIBIN/commfree" ] || skip "no build/mpi/commfree"
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
	    -o a "$TR_MPIBIN/commfree" 20 >/dev/null
	tr cat -m a/rank.*.tr.gz > a.tr
	[ "$(grep -c "$(printf '^ev\t[0-9]*\t[0-9]*\tMPI_Comm_free\t')" a.tr)" -eq 160 ]
	run tr nsim -M x.net a.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq "$(grep -c '^ev' a.tr)" ]
	# read rank after rank, each rank's ids are read far ahead of the
	# replay: the same simulated run
	grep -E '^sim(run|rank)' <<<"$output" > merged.out
	tr nsim -M x.net a/rank.*.tr.gz | grep -E '^sim(run|rank)' > ranks.out
	cmp merged.out ranks.out
	[ "$(wc -l < merged.out)" -eq 5 ]
}

@test "tr-nsim: a communicator made and freed every iteration: memory does not grow with the iterations" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	# 16 ranks, 500 then 4,000 iterations; keeping freed communicators
	# takes 6 MB more, forgetting them 0-0.1 MB (0.8 under ASan)
	for op in MPI_Comm_free MPI_Comm_disconnect; do
		a=$(commloop_rss nsim 16 500 $op)
		b=$(commloop_rss nsim 16 4000 $op)
		echo "$op: peak RSS $a KB, then $b KB"
		[ "$(grep -c '^ev' out.nsim.4000)" -eq $((16 * 3 * 4000)) ]
		[ $((b - a)) -lt 2048 ]
	done
}

@test "tr-nsim: a persistent request made on a communicator freed before it, every iteration: memory does not grow with the iterations" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	# 16 ranks, 500 then 4,000 iterations, each request freed
	# (MPI_Request_free, as tr-record writes it): keeping each
	# communicator to the end took 7 MB more, letting go of it at the
	# request's free 0-0.1 MB
	a=$(commloop_rss nsim 16 500 pers)
	b=$(commloop_rss nsim 16 4000 pers)
	echo "peak RSS $a KB, then $b KB"
	[ "$(grep -c '^ev' out.nsim.4000)" -eq $((16 * 8 * 4000)) ]
	# each rank's receive waits for its partner's send, 100 ns a pair
	[ "$(awk -F'\t' '$1 == "simrun" { print $3, $4 }' out.nsim.4000)" = "28801280 512000" ]
	[ $((b - a)) -lt 2048 ]
}

@test "tr-nsim: memory follows the links the ranks' routes take, not the network declared" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	cd "$BATS_TEST_TMPDIR"
	# 2 ranks on a 2048x2048 torus of 25M links: 1.97 GB when every
	# link was set up, 4 MB when only those used are (257 under ASan)
	printf 'topology torus 2048 2048 1\n' > big.net
	printf 'topology torus 2 1 1\n' > small.net
	tr gen -n 2 -i 3 > two.tr
	/usr/bin/time -f %M -o rss "$TR_BIN/tr-nsim" -M big.net two.tr > big.out
	"$TR_BIN/tr-nsim" -M small.net two.tr > small.out
	echo "peak RSS $(tail -1 rss) KB"
	[ "$(tail -1 rss)" -lt 500000 ]
	[ "$(grep -c '^ev' big.out)" -eq "$(grep -c '^ev' two.tr)" ]
	[ "$(grep '^simrank' big.out)" = "$(grep '^simrank' small.out)" ]
}

@test "tr-nsim: MPI_Request_free lets go of a freed communicator once its id's last persistent request is freed, and no sooner" {
	# the free after the waits: the same replay as without it (but for
	# its record); with the second duplicate of the first's id too
	pers_trace before "" freed > f.tr
	pers_trace before same freed > sf.tr
	for t in f sf; do
		run tr nsim -M x.net $t.tr
		[ "$status" -eq 0 ]
		[ "$(grep -c '^ev' <<<"$output")" -eq 36 ]
		grep -E '^sim(rank|link)' <<<"$output" | cut -f1-6 > $t.out
	done
	pers_trace before > b.tr
	tr nsim -M x.net b.tr | grep -E '^sim(rank|link)' | cut -f1-6 > b.out
	cmp b.out f.out
	cmp b.out sf.out
	# two requests on the id: the second is started after the first is
	# freed, on the communicator (it was "communicator 2 has no comm
	# record" when the first free let go of it), its 4 bytes each way
	pers2_trace > two.tr
	run tr nsim -M x.net two.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 28 ]
	[ "$(awk -F'\t' '$1 == "simlink" && $3 ~ /up$/ { n += $4 }
	    END { print n }' <<<"$output")" -eq $((4 * 4)) ]
	# a free with no request made on its id (not recorded, -x) is a
	# local call, as is one on the world
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  printf 'comm\t0\t2\t2\t0-1\ncomm\t1\t2\t2\t0-1\n'
	  for r in 0 1; do
		ev $r 0 MPI_Comm_dup 0 10 0 d@p.c:1 -1 0 -1 0 2
		ev $r 1 MPI_Comm_free 10 20 0 f@p.c:2 -1 0 -1 2
		ev $r 2 MPI_Request_free 20 30 0 r@p.c:3 -1 0 -1 2
		ev $r 3 MPI_Request_free 30 40 0 r@p.c:3 -1 0 -1 0
		ev $r 4 MPI_Barrier 40 50 0 b@p.c:4 -1 0 -1 0
	  done; } > u.tr
	run tr nsim -M x.net u.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ev' <<<"$output")" -eq 10 ]
}

@test "tr-nsim: MPI_Cart_sub, graph communicators and MPI_Intercomm_merge synchronise as a barrier" {
	# recorded: rank 0 waited 5 ms in each for rank 1, which computed;
	# in the replay rank 1 does not compute, so nobody waits: each is a
	# barrier of 2 ranks, one exchange of 2500 ns (before, rank 0 kept
	# the 5 ms it waited in the recording, as if working), then the
	# call's own cost, rank 1's 1000 ns (the least of the two)
	{ hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 1; do printf 'comm\t%s\t2\t2\t0-1\n' $r; done
	  for r in 0 1; do printf 'comm\t%s\t3\t2\t0-1\n' $r; done
	  t=0; s=0
	  for op in Cart_sub Graph_create Dist_graph_create Dist_graph_create_adjacent Intercomm_merge; do
		ev 0 $s MPI_$op $t $((t + 5000000)) 0 - -1 0 -1 2 3
		ev 1 $s MPI_$op $((t + 4999000)) $((t + 5000000)) 0 - -1 0 -1 2 3
		t=$((t + 5000000)); s=$((s + 1))
	  done; } > cs.tr
	run tr nsim -M x.net cs.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 17500 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Cart_sub\t0\t3500\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t4\tMPI_Intercomm_merge\t14000\t17500\t')"* ]]
}

@test "tr-nsim: MPI_Comm_create_group and MPI_Intercomm_create synchronise the communicator they make" {
	# Comm_create_group is called by ranks 0 and 1 only (rank 2 is not
	# in the group), Intercomm_create by all three (local groups {0,1}
	# and {2}): each is a barrier over the new communicator, 2 and 3.
	# Recorded, rank 0 waited 5 ms in each; replayed without that
	# computation, nobody waits (before, both kept their recorded time,
	# as if the ranks worked, and a barrier over world, 0, would hang);
	# each then costs the least its ranks recorded, 1000 ns
	newcomm_trace > cg.tr
	run tr nsim -M x.net cg.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Comm_create_group\t0\t3500\t')"* ]]
	# dissemination over 3 ranks: two rounds of 2500 ns; rank 2 starts
	# at 0, sends at once and gets rank 0's second round at 6000; rank
	# 0's second round waits for rank 1's, which left at 6000
	[[ "$output" == *"$(printf 'ev\t2\t0\tMPI_Intercomm_create\t0\t7000\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Intercomm_create\t3500\t9500\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 14500 ]
	# without the communicator made (req -1), its recorded time
	sed '/Comm_create_group/s/	0	2	-1$/	0	-1	-1/' cg.tr > noreq.tr
	run tr nsim -M x.net noreq.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Comm_create_group\t0\t5000000\t')"* ]]
	# a communicator made without its members: said, not guessed
	grep -v '^comm	.	2	' cg.tr > nocomm.tr
	run tr nsim -M x.net nocomm.tr
	fails_with 3 "nocomm.tr:8: rank 0 seq 0: communicator 2 has no comm record"
}

@test "tr-nsim: making or freeing a window or communicator costs, after its barrier, the least duration its ranks recorded" {
	# Win_allocate recorded 500 ns on rank 0, which waited, and 200 on
	# rank 1: both compute 1000, meet in 2500 and spend 200
	win_trace > w.tr
	run tr nsim -M x.net w.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Win_allocate\t1000\t3700\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Win_allocate\t1000\t3700\t')"* ]]
	# Win_free: 100 and 160 computed, rank 0 gets rank 1's message at
	# 3860 + 2500, rank 1 rank 0's at 3800 + 2500, each then 40
	[[ "$output" == *"$(printf 'ev\t0\t1\tMPI_Win_free\t3800\t6400\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t1\t1\tMPI_Win_free\t3860\t6340\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 6400 ]
	# the cost is communication (time in MPI not waiting), as a call's
	# own time is; rank 0 waited 60 for rank 1 in Win_free
	[[ "$output" == *"$(printf 'simrank\t0\t6400\t1100\t5240\t60\t')"* ]]
	# work in the library, not the program's: -s leaves it as it was
	run tr nsim -s 2 -M x.net w.tr
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Win_allocate\t2000\t4700\t')"* ]]
	run tr nsim -s 0 -M x.net w.tr
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Win_allocate\t0\t2700\t')"* ]]
	# each instance has its own least duration, whichever rank has it;
	# dissemination over 3 ranks is two rounds of 2500
	makes_trace > m.tr
	run tr nsim -M x.net m.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Comm_dup\t0\t5300\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t2\t1\tMPI_Comm_dup\t5300\t10350\t')"* ]]
	# a window of one rank: no message, its own recorded time
	[[ "$output" == *"$(printf 'ev\t2\t2\tMPI_Win_create\t10350\t17350\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 17350 ]
}

@test "tr-nsim, tr-to-ti: an np far above the ranks with records is refused at its line before any rank is allocated" {
	# out of range or not a number: the reader's error at the line
	for np in 2000000000 1e9; do
		{ printf '#tr 1\n#meta np=%s\n%s\n' "$np" "$EVFIELDS"
		  for r in 0 1 2 3; do ev $r 0 MPI_Barrier 0 10 0 - -1 0 -1 0; done; } > np.tr
		msg="np.tr:2: #meta np=$np: not a number of ranks (an integer from 1 to 16777216)"
		run stderr_of tr nsim np.tr
		[ "$status" -eq 3 ]
		[ "$output" = "tr-nsim: $msg" ]
		run stderr_of tr to-ti -o ti np.tr
		[ "$status" -eq 3 ]
		[ "$output" = "tr-to-ti: $msg" ]
	done
	# 2^24, allowed, with 4 ranks' records: each rank's first record is
	# read before np ranks are allocated, so the missing ones are said
	# at once (before, tr-nsim took 45 s and 12 GB to say it)
	{ hdr 16777216; for r in 0 1 2 3; do ev $r 0 MPI_Barrier 0 10 0 - -1 0 -1 0; done; } > big.tr
	msg="big.tr:2: np=16777216, but ranks 4-16777215 have no records: a rank's file missing? (a selection of ranks says #meta subset)"
	run stderr_of timeout 30 "$TR_BIN/tr-nsim" big.tr
	[ "$status" -eq 3 ]	# 124: timed out
	[ "$output" = "tr-nsim: $msg" ]
	run stderr_of timeout 30 "$TR_BIN/tr-to-ti" -o ti big.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-ti: $msg" ]
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o rss "$TR_BIN/tr-nsim" big.tr > /dev/null 2>&1 || true
		echo "peak RSS $(tail -1 rss) KB"
		[ "$(tail -1 rss)" -lt 200000 ]
	fi
}

@test "tr-nsim: a Waitall group keeps one start and end" {
	{ hdr 2
	  ev 0 0 MPI_Isend 0 1 0 - 1 100000 0 0 1; ev 0 1 MPI_Irecv 1 2 0 - 1 10 1 0 2
	  ev 0 2 MPI_Waitall 2 3 0 - -1 0 -1 0 1; ev 0 2 MPI_Waitall 2 3 0 - -1 0 -1 0 2
	  ev 1 0 MPI_Recv 0 1 5000 - 0 100000 0 0; ev 1 1 MPI_Send 1 2 0 - 0 10 1 0; } > w.tr
	run tr nsim -M x.net w.tr
	[ "$status" -eq 0 ]
	# rendezvous matched at 5000: done 107500; reply eager 2510 later
	[ "$(grep -c "$(printf 'MPI_Waitall\t0\t110010\t')" <<<"$output")" -eq 2 ]
}

# rank 0 posts four Irecv with no source (peer -1): one never completed
# (req 4), two from MPI_ANY_SOURCE whose Waits name the source they got
# (req 1 got rank 2's 1 MB, req 2 rank 1's 1 kB), one from MPI_PROC_NULL
wild() {
	hdr 3
	ev 0 0 MPI_Irecv 0 1 0 - -1 8 -1 0 4
	ev 0 1 MPI_Irecv 1 2 0 - -1 1000000 -1 0 1
	ev 0 2 MPI_Irecv 2 3 0 - -1 1000000 -1 0 2
	ev 0 3 MPI_Irecv 3 4 0 - -1 0 -1 0 3
	ev 0 4 MPI_Wait 4 5 0 - 2 1000000 6 0 1
	ev 0 5 MPI_Wait 5 6 0 - 1 1000 5 0 2
	ev 0 6 MPI_Wait 6 7 0 - -1 0 -1 0 3
	ev 1 0 MPI_Send 0 1 0 - 0 1000 5 0
	ev 2 0 MPI_Send 0 1 0 - 0 1000000 6 0
}

@test "tr-nsim: MPI_ANY_SOURCE receives take the source their completion recorded" {
	wild > w.tr
	run tr nsim -M x.net w.tr
	[ "$status" -eq 0 ]
	# both transfers share rank 0's link for the 1 kB's 2000 ns:
	# 2500 + 2000 + 999000; the never-completed Irecv took nothing
	[[ "$output" == *"$(printf 'MPI_Wait\t0\t1003500\t0\t-\t2\t')"* ]]
	[[ "$output" == *"$(printf 'MPI_Wait\t1003500\t1003500\t0\t-\t1\t')"* ]]
	[ "$(runtime <<<"$output")" = 1003500 ]
}

@test "tr-nsim: records read as the replay needs them give what reading all first gives" {
	# With #meta np the replay reads on when a rank needs a record;
	# without it the section is read whole first. Ranks one after the
	# other, merged by time, comm records last (read on to the end), and
	# wildcard receives (read on to the completion) must not matter.
	d=$SAMPLES/stencil/np8
	[ -e "$d/rank.0.tr.gz" ] || skip "no bundled samples"
	recs() { grep -v '^#' | sort; }
	tr cat -m "$d"/rank.*.tr.gz > m.tr
	grep -v '^#meta np=' m.tr > nonp.tr
	{ grep -v '^comm' m.tr; grep '^comm' m.tr; } > late.tr
	tr nsim m.tr | recs > m.out
	[ "$(grep -c '^ev' m.out)" -eq "$(grep -c '^ev' m.tr)" ]
	for f in nonp.tr late.tr; do
		tr nsim $f | recs > f.out
		cmp m.out f.out
	done
	gunzip -c "$d"/rank.*.tr.gz | tr nsim | recs > f.out
	cmp m.out f.out
	wild > w.tr
	tr nsim -M x.net w.tr | recs > w.out
	grep -v '^#meta np=' w.tr | tr nsim -M x.net | recs > f.out
	cmp w.out f.out
	# past 4096 ranks a rank's few staged records are copied, not
	# swapped with the reader's buffer
	tr gen -P stencil2d -n 4500 -i 1 -R 2 > big.tr
	tr nsim big.tr | recs > m.out
	[ "$(grep -c '^ev' m.out)" -eq "$(grep -c '^ev' big.tr)" ]
	grep -v '^#meta np=' big.tr | tr nsim | recs > f.out
	cmp m.out f.out
}

@test "tr-nsim: runs of different sizes in one input are simulated each on its own" {
	# the default crossbar is sized for each run, not kept from the first
	tr gen -P ring -n 4 -i 3 > r4.tr
	tr gen -P stencil2d -n 8 -i 2 > r8.tr
	run tr nsim r4.tr r8.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c '^simrun' <<<"$output")" -eq 2 ]
	[ "$(grep '^simrun' <<<"$output" | cut -f2 | tr -d '\n')" = 48 ]
	[ "$(tr nsim r8.tr | grep '^simrun')" = "$(grep '^simrun' <<<"$output" | tail -1)" ]
	printf 'topology crossbar 4\n' > four.net
	run tr nsim -M four.net r4.tr r8.tr
	fails_with 3 "four.net:1: 8 ranks at 1 per node need 8 nodes, the network has 4"
}

@test "tr-nsim: -s scales computation and -w takes wall-clock gaps" {
	{ hdr 1; ev 0 0 MPI_Init 0 10 100; ev 0 1 MPI_Finalize 1000 1010 100; } > c.tr
	# MPI_Init and MPI_Finalize take no time on the target, nor does the
	# CPU before MPI_Init (start-up): what is left is the computation
	# between them, 100 x 3, or the wall-clock gap, 990.
	run tr nsim -M x.net -s 3 c.tr
	[ "$(runtime <<<"$output")" -eq 300 ]
	run tr nsim -M x.net -w c.tr
	[ "$(runtime <<<"$output")" -eq 990 ]
}

@test "tr-nsim: reg times move, other records pass through in order" {
	{ hdr 1; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  printf '#fields\tnote\ttext\n'; printf 'note\thello\n'
	  printf 'reg\t0\t0\tenter\tsolve\t5000\t40\t0\n'
	  ev 0 1 MPI_Barrier 6000 6100 60 - -1 0 -1 0; } > r.tr
	run tr nsim -M x.net r.tr
	[ "$status" -eq 0 ]
	[ "${lines[8]}" = "$(printf 'note\thello')" ]
	[[ "$output" == *"$(printf 'reg\t0\t0\tenter\tsolve\t40\t40\t0')"* ]]
	[[ "$output" == *"$(printf 'MPI_Barrier\t100\t100\t')"* ]]
}

@test "tr-nsim: fat tree, torus and dragonfly routes set the latency" {
	# two ranks of many, a selection
	hdr() { printf '#tr 1\n#meta np=%s\n#meta subset=test\n%s\n' "$1" "$EVFIELDS"; }
	{ hdr 16; ev 0 0 MPI_Send 0 1 0 - 15 0 0 0; ev 15 0 MPI_Recv 0 1 0 - 0 0 0 0; } > f.tr
	printf 'topology fattree 4 2\nlink-latency 1us\nswitch-latency 100ns\n' > ft.net
	run tr nsim -M ft.net f.tr
	[ "$(runtime <<<"$output")" -eq 4300 ]
	[[ "$output" != *"n0.up"* ]]
	printf 'topology torus 4 2 2\nlink-latency 1us\nswitch-latency 100ns\n' > t.net
	{ hdr 16; ev 0 0 MPI_Send 0 1 0 - 2 0 0 0; ev 2 0 MPI_Recv 0 1 0 - 0 0 0 0; } > t.tr
	run tr nsim -M t.net t.tr
	[ "$(runtime <<<"$output")" -eq 2300 ]
	printf 'topology dragonfly 3 2 2 1\nlink-latency 1us\nswitch-latency 100ns\n' > d.net
	{ hdr 12; ev 0 0 MPI_Send 0 1 0 - 11 0 0 0; ev 11 0 MPI_Recv 0 1 0 - 0 0 0 0; } > d.tr
	run tr nsim -M d.net d.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 5400 ]
}

@test "tr-nsim: ranks per node communicate through shared memory" {
	printf 'topology crossbar\nranks-per-node 2\nintra-latency 200ns\nintra-bandwidth 10GB/s\n' > n.net
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 1000 0 0; ev 1 0 MPI_Recv 0 1 0 - 0 1000 0 0; } > i.tr
	run tr nsim -M n.net i.tr
	[ "$(runtime <<<"$output")" -eq 300 ]
	printf 'model loggp\nloggp 10ns 0 1ns 700ns\n' > l.net
	run tr nsim -M l.net i.tr
	[ "$(runtime <<<"$output")" -eq 1720 ]
}

@test "tr-nsim: node-bandwidth: two ranks exchanging both ways on one node share its memory" {
	# 30,000 bytes each way at once (eager), 1 GB/s a copy alone, the
	# node's memory 1.5 GB/s: each copy 0.75 GB/s, 500 + 2 * 30000 / 1.5
	sr() { ev "$1" 0 MPI_Sendrecv 0 1 0 - "$2" 30000 0 0 0 "$2"; }
	{ hdr 2; sr 0 1; sr 1 0; } > ex.tr
	printf 'topology crossbar\nranks-per-node 2\nintra-latency 500ns\nintra-bandwidth 1GB/s\n' > a.net
	{ cat a.net; echo 'node-bandwidth 1.5GB/s'; } > n.net
	run tr nsim -M n.net ex.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 40500 ]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Sendrecv\t0\t40500\t')"* ]]
	# the node's memory carried both copies, busy for 40 us
	[[ "$output" == *"$(printf '\tn0.mem\t60000\t40000\t')"* ]]
	# without it the copies do not contend: 500 + 30000
	run tr nsim -M a.net ex.tr
	[ "$(runtime <<<"$output")" -eq 30500 ]
	# a copy alone keeps its own rate, and so do two when the node
	# has room for both (4 GB/s)
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 30000 0 0; ev 1 0 MPI_Recv 0 1 0 - 0 30000 0 0; } > ow.tr
	run tr nsim -M n.net ow.tr
	[ "$(runtime <<<"$output")" -eq 30500 ]
	{ cat a.net; echo 'node-bandwidth 4GB/s'; } > w.net
	run tr nsim -M w.net ex.tr
	[ "$(runtime <<<"$output")" -eq 30500 ]
	# two nodes: each node's pair shares its own memory only
	{ hdr 4; sr 0 1; sr 1 0; sr 2 3; sr 3 2; } > ex4.tr
	run tr nsim -M n.net ex4.tr
	[ "$(runtime <<<"$output")" -eq 40500 ]
	# with intra-time the rate alone comes from the table: 30000 B in
	# 3000 ns after the 100 ns at 0 B, 10 GB/s; the node's 15 GB/s
	# gives each 7.5: 100 + 2 * 30000 / 15
	printf 'ranks-per-node 2\nintra-time 0 100ns\nintra-time 30000 3100ns\nnode-bandwidth 15GB/s\n' > t.net
	run tr nsim -M t.net ex.tr
	[ "$(runtime <<<"$output")" -eq 4100 ]
	run tr nsim -M t.net ow.tr
	[ "$(runtime <<<"$output")" -eq 3100 ]
}

@test "tr-nsim: a bad node-bandwidth is an error at its line" {
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 8 0 0; ev 1 0 MPI_Recv 0 1 0 - 0 8 0 0; } > i.tr
	printf 'ranks-per-node 2\nnode-bandwidth fast\n' > b1.net
	run stderr_of tr nsim -M b1.net i.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: b1.net:2: bad bandwidth 'fast'" ]
	printf 'ranks-per-node 2\n\nnode-bandwidth 0.5B/s\n' > b2.net
	run stderr_of tr nsim -M b2.net i.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: b2.net:3: bandwidth '0.5B/s' out of range: 1 B/s at least" ]
	printf 'node-bandwidth 1GB/s 2GB/s\n' > b3.net
	run stderr_of tr nsim -M b3.net i.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: b3.net:1: unknown or malformed line 'node-bandwidth'" ]
	# a good one next to them
	printf 'ranks-per-node 2\nnode-bandwidth 1GB/s\n' > ok.net
	run tr nsim -M ok.net i.tr
	[ "$status" -eq 0 ]
}

@test "tr-nsim: LogGP's gap g separates a rank's messages; its first owes none" {
	printf 'model loggp\nloggp 10ns 1000ns 1ns 100ns\n' > g.net
	# three sends of 8 bytes at once: they leave at 10, 1010 and 2010
	# (o, then g apart) and arrive o + L + 8 G + o later; the first
	# left at 1000 when the rank was taken to have sent at time 0
	{ hdr 2; for i in 0 1 2; do ev 0 $i MPI_Send 0 0 0 - 1 8 5 0; done
	  for i in 0 1 2; do ev 1 $i MPI_Recv 0 0 0 - 0 8 5 0; done; } > g.tr
	run tr nsim -M g.net g.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Recv\t0\t128\t')"* ]]
	[[ "$output" == *"$(printf 'ev\t0\t2\tMPI_Send\t1010\t2010\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 2128 ]
}

@test "tr-nsim: intra-eager-threshold: a message within a node above it waits for its receiver, one between nodes does not" {
	# rank 0 sends 8000 B at 0; rank 1 computes 1 ms, then receives
	msg() { ev 0 0 MPI_Send 0 1 0 - 1 8000 5 0
		ev 1 0 MPI_Recv 1000000 1000001 1000000 - 0 8000 5 0; }
	{ hdr 2; msg; } > m.tr
	{ printf '#tr 1\n#meta np=2\n#meta eager.shm=4040\n'
	  printf '#meta eager.net=65480\n%s\n' "$EVFIELDS"; msg; } > mm.tr
	{ printf '#tr 1\n#meta np=2\n#meta eager.net=65480\n%s\n' \
	    "$EVFIELDS"; msg; } > mn.tr
	node() { cat x.net; printf 'intra-latency 500ns\nintra-bandwidth 1GB/s\n'
		printf 'ranks-per-node %s\n' "$1"; shift; printf '%s\n' "$@"; }
	# within a node: rendezvous, the copy (500 + 8000 ns) in MPI_Recv
	node 2 'intra-eager-threshold 4041' > in.net
	run tr nsim -M in.net m.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Send\t0\t1008500\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 1008500 ]
	# between nodes: eager (65536), sent at once, received at 1 ms
	node 1 'intra-eager-threshold 4041' > out.net
	run tr nsim -M out.net m.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Send\t0\t0\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 1000000 ]
	# without the line, as eager-threshold: eager within a node too
	node 2 > old.net
	run tr nsim -M old.net m.tr
	[ "$(runtime <<<"$output")" -eq 1000000 ]
	# the trace's limits: 4040 B the largest eager within a host, 65480
	# between hosts; intra-eager-threshold defaults to eager-threshold's
	node 2 'eager-threshold trace' > tr.net
	run tr nsim -M tr.net mm.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 1008500 ]
	node 1 'eager-threshold trace' > tr1.net
	run tr nsim -M tr1.net mm.tr
	[ "$(runtime <<<"$output")" -eq 1000000 ]
	# 8000 B is the largest eager: 8001 B is not
	sed 's/65480/7999/' mm.tr > m7.tr
	run tr nsim -M tr1.net m7.tr
	[ "$(runtime <<<"$output")" -eq 1010500 ]
	sed 's/65480/8000/' mm.tr > m8.tr
	run tr nsim -M tr1.net m8.tr
	[ "$(runtime <<<"$output")" -eq 1000000 ]
	# a run without shared memory sent within a host over its network
	run tr nsim -M tr.net mn.tr
	[ "$(runtime <<<"$output")" -eq 1000000 ]
	node 2 'eager-threshold 65536' 'intra-eager-threshold trace' > ti.net
	run tr nsim -M ti.net mm.tr
	[ "$(runtime <<<"$output")" -eq 1008500 ]
	# a trace without them: an error at the line, or the fallback
	run tr nsim -M tr.net m.tr
	fails_with 3 "tr-nsim: tr.net:9: eager-threshold trace: the trace has no #meta eager.net"
	run tr nsim -M tr1.net m.tr
	fails_with 3 "tr-nsim: tr1.net:9: eager-threshold trace: the trace has no #meta eager.net"
	run tr nsim -M ti.net m.tr
	fails_with 3 "tr-nsim: ti.net:10: intra-eager-threshold trace: the trace has no #meta eager.shm or eager.net"
	node 2 'eager-threshold trace 4041' > fb.net
	run tr nsim -M fb.net m.tr
	[ "$status" -eq 0 ]
	[ "$(runtime <<<"$output")" -eq 1008500 ]
	run tr nsim -M fb.net mm.tr
	[ "$(runtime <<<"$output")" -eq 1008500 ]
	# bad values, at their line
	node 2 'intra-eager-threshold -1' > b1.net
	run tr nsim -M b1.net m.tr
	fails_with 3 "tr-nsim: b1.net:9: bad size '-1'"
	node 2 'intra-eager-threshold trace 4kb' > b2.net
	run tr nsim -M b2.net m.tr
	fails_with 3 "tr-nsim: b2.net:9: bad unit in size '4kb'"
	# units as options take them: 8k is 8192, above the 8000 B message
	# (eager), 7.5K 7680 below it (rendezvous)
	for t in '8k 1000000' '7.5K 1008500'; do
		set -- $t
		node 2 "intra-eager-threshold $1" > k.net
		[ "$(tr nsim -M k.net m.tr | runtime)" -eq "$2" ]
	done
	node 2 'eager-threshold' > b3.net
	run tr nsim -M b3.net m.tr
	fails_with 3 "tr-nsim: b3.net:9: eager-threshold takes a size, trace or trace SIZE"
	node 2 'intra-eager-threshold trace 1 2' > b4.net
	run tr nsim -M b4.net m.tr
	fails_with 3 "tr-nsim: b4.net:9: intra-eager-threshold takes a size, trace or trace SIZE"
}

@test "tr-nsim: intra-time gives a node's message times by size, between measured points" {
	# one eager message of BYTES within a node; prints the runtime
	one() {
		{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 "$2" 0 0
		  ev 1 0 MPI_Recv 0 1 0 - 0 "$2" 0 0; } > i.tr
		tr nsim -M "$1" i.tr | runtime
	}
	# given in any order; past the last point at the last segment's rate
	printf 'ranks-per-node 2\nintra-time 1000 600ns\nintra-time 0 100ns\nintra-time 2KB 0.8us\n' > t.net
	[ "$(one t.net 0)" -eq 100 ]
	[ "$(one t.net 500)" -eq 350 ]
	[ "$(one t.net 1000)" -eq 600 ]
	[ "$(one t.net 1500)" -eq 700 ]
	[ "$(one t.net 3000)" -eq 1000 ]
	# without a point at 0 bytes, the first segment goes back to it
	printf 'ranks-per-node 2\nintra-time 1000 600ns\nintra-time 2000 800ns\n' > b.net
	[ "$(one b.net 500)" -eq 500 ]
	# one point: intra-bandwidth gives the rate
	printf 'ranks-per-node 2\nintra-bandwidth 10GB/s\nintra-time 1000 600ns\n' > o.net
	[ "$(one o.net 0)" -eq 500 ]
	[ "$(one o.net 2000)" -eq 700 ]
	# measured points need not grow with size, but past the last one
	printf 'ranks-per-node 2\nintra-time 0 100\nintra-time 1000 900\nintra-time 2000 800\nintra-time 3000 1000\n' > m.net
	[ "$(one m.net 1500)" -eq 850 ]
	printf 'ranks-per-node 2\nintra-time 1000 600ns\nintra-time 2000 500ns\n' > bad.net
	run tr nsim -M bad.net i.tr
	fails_with 3 "bad.net: intra-time: 500 ns at 2000 bytes, the largest size, is less than at 1000 bytes"
	printf 'ranks-per-node 2\nintra-time 1KB\n' > bad.net
	run tr nsim -M bad.net i.tr
	fails_with 3 "bad.net:2: unknown or malformed line 'intra-time'"
	printf 'intra-time 1KB 2parsecs\n' > bad.net
	run tr nsim -M bad.net i.tr
	fails_with 3 "bad.net:1: bad unit in time '2parsecs'"
	# SimGrid's loopback has one latency and bandwidth: tr-to-ti says so
	run tr to-ti -M t.net -o ti i.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"intra-time is not exported"* ]]
}

@test "tr-nsim: intra-time points are not joined across the eager threshold" {
	# tr-bench's sizes grow by 4: 2,048 bytes eager, 8,192 rendezvous
	# (Open MPI's shared memory switches after 4,040). A size between
	# them takes the time of its own protocol, its side's nearest
	# segment extended; before, 6,880 bytes took 2,445 ns, a line from
	# an eager time to a rendezvous one, where a ping-pong measured
	# 2.6 us at a table's 2.6 us at 8,192 bytes.
	one() {
		{ hdr 2; [ -z "$3" ] || echo "#meta eager.shm=$3"
		  ev 0 0 MPI_Send 0 1 0 - 1 "$2" 0 0
		  ev 1 0 MPI_Recv 0 1 0 - 0 "$2" 0 0; } > i.tr
		tr nsim -M "$1" i.tr | runtime
	}
	pts='intra-time 8 200ns\nintra-time 2048 400ns\nintra-time 8192 3000ns\nintra-time 32768 5000ns\n'
	printf "ranks-per-node 2\nintra-eager-threshold 4041\n$pts" > s.net
	[ "$(one s.net 2048)" -eq 400 ]
	# eager: 400 + (4000 - 2048) * 200 / 2040
	[ "$(one s.net 4000)" -eq 591 ]
	[ "$(one s.net 4040)" -eq 595 ]
	# rendezvous: 3000 - (8192 - 6880) * 2000 / 24576
	[ "$(one s.net 4041)" -eq 2662 ]
	[ "$(one s.net 6880)" -eq 2893 ]
	[ "$(one s.net 8192)" -eq 3000 ]
	[ "$(one s.net 20000)" -eq 3961 ]
	# the run's own limit (#meta eager.shm) splits the table alike
	printf "ranks-per-node 2\nintra-eager-threshold trace\n$pts" > t.net
	[ "$(one t.net 6880 4040)" -eq 2893 ]
	[ "$(one t.net 4000 4040)" -eq 591 ]
	# with every point on one side (the default threshold, 65536) the
	# table is one line as before
	printf "ranks-per-node 2\n$pts" > d.net
	[ "$(one d.net 6880)" -eq 2445 ]
	# a side of one point cannot say its rate: the whole table then
	printf "ranks-per-node 2\nintra-eager-threshold 4041\nintra-time 8 200ns\nintra-time 2048 400ns\nintra-time 8192 3000ns\n" > o.net
	[ "$(one o.net 6880)" -eq 2445 ]
}

@test "tr-nsim: tr-gen traces of every pattern simulate" {
	for p in ring stencil1d stencil2d stencil3d alltoall master; do
		tr gen -P $p -n 12 -i 3 -R 7 > g.tr
		run tr nsim -M x.net g.tr
		[ "$status" -eq 0 ]
		[ "$(grep -c '^ev' <<<"$output")" -eq "$(grep -c '^ev' g.tr)" ]
	done
	# the run's compute, comm and wait add up its ranks', to the ns, at
	# a bandwidth of fractional ns per byte
	printf 'topology crossbar\nlink-bandwidth 1.93GB/s\nlink-latency 140ns\n' > f.net
	for p in ring stencil2d alltoall master; do
		tr gen -P $p -n 12 -i 3 -R 7 | tr nsim -M f.net | awk -F'\t' '
		    $1 == "simrank" { c += $4; m += $5; w += $6 }
		    $1 == "simrun" { r = ($5 == c && $6 == m && $7 == w) }
		    END { exit !r }'
	done
}

@test "tr-nsim: flows share a link by their routes' latencies, or fairly" {
	# a 4-ary 2-tree: node 1 is 2 links from node 0, node 4 is 4 links
	printf '%s\n' 'topology fattree 4 2' 'link-bandwidth 1GB/s' \
		'link-latency 1us' 'switch-latency 0' 'eager-threshold 16MB' > ft.net
	{ hdr 5
	  ev 1 0 MPI_Send 0 1 0 - 0 1000000 1 0; ev 4 0 MPI_Send 0 1 0 - 0 1000000 4 0
	  ev 2 0 MPI_Init 0 1; ev 3 0 MPI_Init 0 1
	  ev 0 0 MPI_Recv 0 1 0 - 1 1000000 1 0
	  ev 0 1 MPI_Recv 1 2 1000000 - 4 1000000 4 0; } > two.tr
	# from 4 us on node 0's link gives the 2-us flow twice the 4-us one's
	# rate: 2000 + 998000 * 3 / 2 ns; the other ends 501000 ns later,
	# before rank 0 has computed 1 ms
	run tr nsim -M ft.net two.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Recv\t0\t1501000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 2501000 ]
	# fair: halves; the first ends at 2000 + 2000 + 998000 * 2
	echo 'sharing fair' >> ft.net
	run tr nsim -M ft.net two.tr
	[[ "$output" == *"$(printf 'ev\t0\t0\tMPI_Recv\t0\t2000000\t')"* ]]
	[ "$(runtime <<<"$output")" -eq 3000000 ]
	echo 'sharing equal' >> ft.net
	run tr nsim -M ft.net two.tr
	fails_with 3 "ft.net:7: sharing is latency or fair"
}

@test "tr-nsim: a Sendrecv receives the tag in its req, any tag without one" {
	# rank 0 sends tags 5 then 6; rank 1's Sendrecv takes tag 6, its
	# Recv then tag 5
	sr() {
		{ hdr 2
		  ev 0 0 MPI_Send 0 1 0 - 1 1000 5 0
		  ev 0 1 MPI_Send 1 2 0 - 1 2000 6 0
		  ev 0 2 MPI_Recv 2 3 0 - 1 8 9 0
		  ev 1 0 MPI_Sendrecv 0 1 0 - 0 8 9 0 "$1" 0
		  ev 1 1 MPI_Recv 1 2 0 - 0 1000 5 0; } > sr.tr
	}
	sr 6
	run tr nsim -M x.net sr.tr
	[ "$status" -eq 0 ]
	# the Sendrecv waits for the second message: 2500 + 1000 + 2000
	[[ "$output" == *"$(printf 'ev\t1\t0\tMPI_Sendrecv\t0\t5500\t')"* ]]
	# without the tag received it takes the first message, and the
	# Recv of tag 5 waits for a message that never comes
	sr -1
	run tr nsim -M x.net sr.tr
	fails_with 3 "deadlock: 1 rank blocked: rank 1 in MPI_Recv (seq 1, peer 0"
}

@test "tr-nsim: a deadlock names the blocked ranks and exits 3" {
	{ hdr 2; ev 0 0 MPI_Recv 0 1 0 - 1 8 0 0; ev 0 1 MPI_Send 1 2 0 - 1 8 0 0
	  ev 1 0 MPI_Recv 0 1 0 - 0 8 0 0; ev 1 1 MPI_Send 1 2 0 - 0 8 0 0; } > dl.tr
	run tr nsim -M x.net dl.tr
	# the line is the first blocked rank's call
	fails_with 3 "tr-nsim: dl.tr:4: deadlock: 2 ranks blocked: rank 0 in MPI_Recv (seq 0, peer 1"
}

@test "tr-nsim: an error found in the replay names the record's own file and line, with files per rank" {
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 8 0 0; ev 0 1 MPI_Finalize 1 2; } > r0.tr
	{ hdr 2; ev 1 0 MPI_Recv 0 1 0 - 0 8 0 0; ev 1 1 MPI_Wait 1 2 0 - -1 0 -1 0 7; } > r1.tr
	run tr nsim -M x.net r0.tr r1.tr
	fails_with 3 "tr-nsim: r1.tr:5: rank 1 seq 1: completion of request 7, which was never started"
	# the same records from stdin: lines counted over the stream
	cat r0.tr r1.tr | { run tr nsim -M x.net; fails_with 3 "tr-nsim: stdin:10: rank 1 seq 1"; }
	# gzip input counts its lines alike
	gzip -k r1.tr
	run tr nsim -M x.net r0.tr r1.tr.gz
	fails_with 3 "tr-nsim: r1.tr.gz:5: rank 1 seq 1"
}

@test "tr-nsim: -m merges the files per rank: tr-cat -m's replay, in a fraction of the memory of reading them one after the other" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time"
	mkdir p
	for r in 0 1 2 3 4 5 6 7; do
		tr gen -P stencil3d -n 8 -i 1000 -b 65536 -j 0.1 -r $r > p/rank.$r.tr
	done
	a=ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
	env "$a" /usr/bin/time -f %M -o rss.m "$TR_BIN/tr-nsim" -m -M x.net \
	    p/rank.*.tr > m.out
	tr cat -m p/rank.*.tr | tr nsim -M x.net > c.out
	cmp m.out c.out
	[ "$(grep -c '^ev' m.out)" -gt 100000 ]
	# the same replay as the files read one after the other, which
	# holds each in memory until the replay reaches its rank: 18 MB
	# against 5.3 MB (8 files of 1.3 MB), 24 against 15 under ASan
	env "$a" /usr/bin/time -f %M -o rss.s "$TR_BIN/tr-nsim" -M x.net \
	    p/rank.*.tr > s.out
	diff <(grep '^sim' s.out) <(grep '^sim' m.out)
	m=$(tail -n 1 rss.m) q=$(tail -n 1 rss.s)
	t=$(cat p/rank.*.tr | wc -c)
	echo "peak RSS $m KB merged, $q KB one after the other, files $t B"
	# more than half the files' bytes saved
	[ $(((q - m) * 1024)) -gt $((t / 2)) ]
	# and no more than the merged stream read from a file (7.2 MB, 17
	# under ASan): each file's reader holds a few KiB, not a buffer the
	# size of a big read
	tr cat -m p/rank.*.tr > merged.tr
	env "$a" /usr/bin/time -f %M -o rss.c "$TR_BIN/tr-nsim" -M x.net \
	    merged.tr > f.out
	cmp m.out f.out
	c=$(tail -n 1 rss.c)
	echo "peak RSS $c KB of the merged stream"
	[ "$m" -le "$c" ]
	# a line longer than those buffers grows them
	awk -F '\t' -v OFS='\t' '/^ev/ && $4 == "MPI_Isend" && !d {
		for ($8 = "x"; length($8) < 30000; $8 = $8 $8); d = 1 } 1' \
	    p/rank.5.tr > long.tr
	mv long.tr p/rank.5.tr
	tr nsim -m -M x.net p/rank.*.tr > m.out
	tr cat -m p/rank.*.tr | tr nsim -M x.net > c.out
	cmp m.out c.out
	grep -q 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' m.out
	# the reader's errors name the rank's file and line
	sed '20s/\t[0-9]*\t/\tx\t/' p/rank.3.tr > p/bad.tr
	run tr nsim -m -M x.net p/rank.[0-2].tr p/bad.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"p/bad.tr:20: "* ]]
}

@test "tr-nsim: eager sends never received are said; mismatched collectives exit 3" {
	# the senders go on, as in the recorded run
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 8 0 0; ev 0 1 MPI_Send 1 2 0 - 1 8 3 0
	  ev 1 0 MPI_Init 0 1; } > u.tr
	run stderr_of tr nsim -M x.net u.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-nsim: u.tr: 2 sends never received, the first: rank 0 seq 0 sent 8 bytes to rank 1 (tag 0)" ]
	[ "$(tr nsim -M x.net u.tr 2>/dev/null | grep -c '^sim\(rank\|run\)')" -eq 3 ]
	# a rendezvous send waits for its receive: a deadlock
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 100000 0 0; ev 1 0 MPI_Init 0 1; } > ur.tr
	run tr nsim -M x.net ur.tr
	fails_with 3 "tr-nsim: ur.tr:4: deadlock: 1 rank blocked: rank 0 in MPI_Send"
	{ hdr 2; ev 0 0 MPI_Barrier 0 1 0 - -1 0 -1 0; ev 1 0 MPI_Bcast 0 1 0 - -1 8 -1 0 -1 0; } > m.tr
	run tr nsim -M x.net m.tr
	fails_with 3 "tr-nsim: m.tr:5: mismatched collective: rank 1 seq 0 calls bcast"
	{ hdr 1; ev 0 0 MPI_Wait 0 1 0 - -1 0 -1 0 9; } > q.tr
	run tr nsim -M x.net q.tr
	fails_with 3 "tr-nsim: q.tr:4: rank 0 seq 0: completion of request 9, which was never started"
	# a time window's selection says why
	{ hdr 2; ev 0 0 MPI_Isend 0 1 0 - 1 8 0 0 9; ev 0 1 MPI_Wait 5 6 0 - -1 0 -1 0 9; ev 1 0 MPI_Recv 0 6 0 - 0 8 0 0; } > w.tr
	run sh -c "tr-filter -w 2:10 w.tr | tr-nsim -M x.net"
	fails_with 3 "completion of request 9, which was never started (a selection, #meta subset: a time window or an expression cuts requests from their completions)"
	# times past what an integer holds: an error, not wrapped times
	printf 'link-bandwidth 1B/s\n' > slow.net
	{ hdr 2; ev 0 0 MPI_Send 0 10 0 - 1 1000000000000000 5 0
	  ev 1 0 MPI_Recv 0 10 0 - 0 1000000000000000 5 0; } > big.tr
	run stderr_of tr nsim -M slow.net big.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: big.tr:4: simulated time 1e+24 ns out of range (at most 4e18 ns)" ]
	# bytes past what an integer holds, over a link
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - 1 9223372036854775807 1 0
	  ev 1 0 MPI_Recv 0 1 0 - 0 9223372036854775807 1 0; } > huge.tr
	run stderr_of tr nsim huge.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: huge.tr: link n0.up carried 2^63 bytes or more" ]
}

@test "tr-nsim: bad network lines give FILE:LINE and exit 3; bad options exit 2" {
	printf 'topology crossbar\nlink-bandwidth fast\n' > bad.net
	run tr nsim -M bad.net /dev/null
	fails_with 3 "tr-nsim: bad.net:2: bad bandwidth 'fast'"
	printf 'coll bcast ring\n' > bad2.net
	run tr nsim -M bad2.net /dev/null
	fails_with 3 "bad2.net:1: no algorithm 'ring' for bcast"
	run tr nsim -x
	fails_with 2 "usage: tr-nsim"
}

@test "tr-nsim: a mapping file is read to its end, and its errors name their line" {
	tr gen -P ring -n 4 -i 1 > g.tr
	printf 'topology crossbar 4\nmapping file m.map\n' > m.net
	printf '0\n1\n2\n3\n' > m.map
	tr nsim -M m.net g.tr > plain.out
	# gzip cut before its trailer, after the ranks' lines: it was taken
	printf '0\n1\n2\n3\n' | gzip -c | head -c 20 > m.map
	run stderr_of tr nsim -M m.net g.tr
	fails_with 3 "tr-nsim: m.map:4: truncated gzip stream after this line"
	[ "${#lines[@]}" -eq 1 ]
	# lines past the trace's ranks are checked too (a mapping may serve
	# larger runs), and kept out of the replay
	printf '0\n1\n2\n3\nx\n' > m.map
	run stderr_of tr nsim -M m.net g.tr
	fails_with 3 "tr-nsim: m.map:5: bad node number 'x'"
	printf '0\n1\n2\n3\n1\n' > m.map
	tr nsim -M m.net g.tr | cmp - plain.out
	printf '0\n1\n2\n4\n' > m.map
	run stderr_of tr nsim -M m.net g.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: m.map:4: rank 3 on node 4, the network has 4 nodes" ]
	printf '0\n\n1\n' > m.map
	run stderr_of tr nsim -M m.net g.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: m.map:3: maps 2 ranks, the trace has 4" ]
}

@test "tr-nsim: local max-min solving equals re-solving whole components" {
	# contended traces where regions must grow past their first links
	printf 'topology dragonfly 5 4 2 1\nlink-bandwidth 1GB/s\n' > d.net
	printf 'topology fattree 4 3\nranks-per-node 2\nmapping round-robin\n' > f.net
	tr gen -P alltoall -b 150000 -j 0.4 -n 40 -i 2 -R 3 > a.tr
	tr gen -P stencil3d -b 300000 -j 0.3 -n 64 -i 3 -R 7 > s.tr
	for c in "d.net a.tr" "f.net s.tr"; do
		set -- $c
		tr nsim -v -M $1 $2 2> v.err | grep -v '^simlink' | sort > local.out
		grep -Eq 'solves of .* \([1-9][0-9]* grown, 0 whole\)' v.err
		TR_NSIM_FULLSHARE=1 tr nsim -M $1 $2 | grep -v '^simlink' | sort > full.out
		[ -s local.out ]
		cmp local.out full.out
	done
}

@test "tr-nsim: -v prints statistics on stderr and leaves stdout alone" {
	tr gen -P stencil2d -n 16 -i 2 -R 1 > g.tr
	tr nsim -M x.net g.tr > plain.out
	tr nsim -v -M x.net g.tr > v.out 2> v.err
	cmp plain.out v.out
	grep -q "^tr-nsim: stats: $(grep -c '^ev' g.tr) records, 16 ranks, " v.err
	grep -q 'records/s, .* messages/s, .* events/s' v.err
}

@test "tr-nsim: spooling to the file past TR_SPOOL_MEM changes nothing" {
	tr gen -P stencil2d -n 64 -i 20 -R 5 > g.tr
	tr nsim -M x.net g.tr > mem.out
	# 0 bytes kept: every chunk goes through the temporary file
	TR_SPOOL_MEM=0 tr nsim -M x.net g.tr > file.out
	TR_SPOOL_MEM=20000 tr nsim -M x.net g.tr > mixed.out
	[ "$(grep -c '^ev' mem.out)" -eq "$(grep -c '^ev' g.tr)" ]
	cmp mem.out file.out
	cmp mem.out mixed.out
	TR_SPOOL_MEM=lots run tr nsim -M x.net g.tr
	fails_with 2 "TR_SPOOL_MEM: not a number of bytes: 'lots'"
	TMPDIR=/nonexistent TR_SPOOL_MEM=0 run tr nsim -M x.net g.tr
	fails_with 4 "/nonexistent/tr-spool."
}

@test "tr-nsim: tr-record's buffer flushes (region tr.flush) replay as no computation" {
	{ hdr 2; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	  ev 0 0 MPI_Init 0 100 0
	  printf 'reg\t0\t1\tenter\ttr.flush\t150\t40\t0\nreg\t0\t2\tleave\ttr.flush\t5150\t4900\t0\n'
	  ev 0 3 MPI_Send 5200 5300 60 - 1 8 0 0
	  ev 1 0 MPI_Init 0 100 0; ev 1 1 MPI_Recv 100 5400 0 - 0 8 0 0; } > f.tr
	# CPU: 40 + 60 ns before the send, not the flush's 4900
	run tr nsim -M x.net f.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t3\tMPI_Send\t100\t')"* ]]
	[[ "$output" == *"$(printf 'simrank\t0\t100\t100\t')"* ]]
	# wall: 50 + 50 ns of gaps, not the flush's 5000
	run tr nsim -w -M x.net f.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'ev\t0\t3\tMPI_Send\t100\t')"* ]]
	# the flush region is passed through, at its replayed times
	[[ "$output" == *"$(printf 'reg\t0\t2\tleave\ttr.flush\t50\t')"* ]]
}

@test "tr-nsim: a selection of ranks: a deadlock names the ranks without records that it waits for" {
	tr gen -P stencil2d -n 4 -i 2 -R 1 > all.tr
	tr filter -r 0-1 all.tr > sel.tr
	run stderr_of tr nsim -M x.net sel.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-nsim: sel.tr:"*": deadlock: 2 ranks blocked: rank 0 in MPI_Waitall"*"; rank 0 waits for rank 2, which has no records in this section" ]]
	# a blocking collective: its communicator's ranks without records
	{ hdr 4; echo '#meta subset=test'
	  for r in 0 1; do ev $r 0 MPI_Barrier 0 10 0 - -1 0 -1 0; done; } > bar.tr
	run stderr_of tr nsim -M x.net bar.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"deadlock: 2 ranks blocked: rank 0 in MPI_Barrier"*"; rank 0 waits for ranks 2-3, which have no records in this section" ]]
}

@test "tr-nsim: a rank whose recording ended early is named where the replay cannot go on" {
	# rank 1 died after rank 0's Sendrecv with it completed (eager)
	{ hdr 3
	  for r in 0 1 2; do ev $r 0 MPI_Init 0 10 0 - -1 0 -1 0; done
	  ev 0 1 MPI_Sendrecv 20 30 0 - 1 4 0 0 0 2
	  ev 2 1 MPI_Sendrecv 20 30 0 - 0 4 0 0 0 1
	  printf '#tr 1\n#meta end.0=SIGTERM\n#meta end.1=SIGSEGV\n#meta end.2=SIGTERM\n'
	  ev 0 2 MPI_Sendrecv 40 50 0 - 1 4 1 0 1 2; } > died.tr
	run stderr_of tr nsim -M x.net died.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-nsim: died.tr:11: rank 1's recording ended early (SIGSEGV), as did those of ranks 0,2 (SIGTERM): the replay cannot go on past their records (deadlock: 2 ranks blocked, the first rank 0 in MPI_Sendrecv seq 2)" ]
	# without the marks, the same trace is a deadlock
	grep -v '^#meta end' died.tr > dl.tr
	run tr nsim -M x.net dl.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"dl.tr:"*": deadlock: 2 ranks blocked: rank 0 in MPI_Sendrecv"* ]]
	# a replay that goes through says so, and ends well
	{ hdr 2; for r in 0 1; do ev $r 0 MPI_Barrier 0 10 0 - -1 0 -1 0; done
	  printf '#tr 1\n#meta end.1=MPI_Abort\n'; } > ab.tr
	run stderr_of tr nsim -M x.net ab.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-nsim: ab.tr:7: rank 1's recording ended early (MPI_Abort): the replay ends where their records do" ]
	tr nsim -M x.net ab.tr 2>/dev/null | grep -q '^simrun'
}

# The example runs as written, from the top directory; the README's
# pipelines/net/fattree.net sizes itself (nodes auto): its 16 nodes of
# one rank refused 17 ranks and more.
@test "tr-nsim(1)'s example runs as written" {
	cmd=$(man_examples tr-nsim.1)
	[ -n "$cmd" ]
	run sh -c "cd '$TOP' && $cmd"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^simrun$'\t'64$'\t'[1-9][0-9]*$'\t' ]]
	run sh -c "tr-gen -P stencil2d -n 125 -i 1 | tr-nsim -M '$TOP/pipelines/net/fattree.net' | grep '^simrun'"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^simrun$'\t'125$'\t'[1-9] ]]
}

@test "tr-nsim: nodes auto grows a fat tree by levels, a torus by its smallest extent" {
	cd "$BATS_TEST_TMPDIR"
	net() { printf '%s\n' "$@" 'link-latency 1us' 'switch-latency 100ns'; }
	net 'topology fattree 4 2' 'nodes auto' > fa.net
	net 'topology fattree 4 2' > f2.net
	net 'topology fattree 4 3' > f3.net
	net 'topology torus 2 2 2' 'nodes auto' > ta.net
	net 'topology torus 2 2 2' > t8.net
	net 'topology torus 3 2 2' > t12.net
	net 'topology torus 3 3 2' > t18.net
	sim() { tr nsim -M "$1" "$2" | grep '^simrun'; }
	for n in 8 16 17 64 65; do tr gen -P stencil2d -n $n -i 2 > g$n.tr; done
	# as the file says while the ranks fit, one level more past 16
	[ "$(sim fa.net g16.tr)" = "$(sim f2.net g16.tr)" ]
	[ "$(sim fa.net g17.tr)" = "$(sim f3.net g17.tr)" ]
	[ "$(sim fa.net g64.tr)" = "$(sim f3.net g64.tr)" ]
	sim fa.net g65.tr | grep -q "^simrun	65	"
	# 2x2x2, then x grows first, then y: 3x2x2 holds 9 to 12, 3x3x2 17
	[ "$(sim ta.net g8.tr)" = "$(sim t8.net g8.tr)" ]
	tr gen -P ring -n 9 -i 2 > r9.tr
	[ "$(sim ta.net r9.tr)" = "$(sim t12.net r9.tr)" ]
	[ "$(sim ta.net g17.tr)" = "$(sim t18.net g17.tr)" ]
	# each run of an input is sized for itself
	run tr nsim -M fa.net g17.tr g8.tr
	[ "$(grep '^simrun' <<<"$output" | tail -n 1)" = "$(sim f2.net g8.tr)" ]
	# what SimGrid gets is the grown tree
	run tr to-ti -M fa.net -o ti g17.tr
	[ "$status" -eq 0 ]
	grep -q 'topo_parameters="3;' ti/platform.xml
	# a dragonfly has four sizes to choose among: refused
	printf 'topology dragonfly 2 2 2 1\nnodes auto\n' > d.net
	run tr nsim -M d.net g8.tr
	fails_with 3 "d.net:2: nodes auto sizes a crossbar, a fat tree or a torus, not a dragonfly"
	# a fixed size still refuses what does not fit
	run tr nsim -M f2.net g17.tr
	fails_with 3 "f2.net:1: 17 ranks at 1 per node need 17 nodes, the network has 16"
}

@test "tr-nsim: progress on stderr when it is a terminal; none with -Q; stdout the same" {
	cd "$BATS_TEST_TMPDIR"
	tr gen -P stencil2d -n 16 -i 100 > g.tr
	tr nsim g.tr > want
	# The input arrives in two parts, 1.5 s apart: the reader shows
	# how far it is once a second has passed.
	feed="{ head -n 2000 g.tr; sleep 1.5; tail -n +2001 g.tr; }"
	run timeout 30 script -qec "sh -c '$feed | $TR_BIN/tr-nsim > got'" /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-nsim: "*" records read, "*" records/s"* ]]
	cmp want got
	run timeout 30 script -qec "sh -c '$feed | $TR_BIN/tr-nsim -Q > got'" /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" != *"records/s"* ]]
	cmp want got
	# Not a terminal: nothing.
	run sh -c "$feed | tr-nsim 2>&1 > got"
	[ -z "$output" ]
}
