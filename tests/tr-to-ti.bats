#!/usr/bin/env bats
# tr-to-ti: SimGrid time-independent traces, and agreement of tr-nsim
# with SimGrid's own replay (smpirun) on the same trace and network.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
	cat > x.net <<-'E'
	topology crossbar
	link-bandwidth 1GB/s
	link-latency 1us
	switch-latency 500ns
	E
}

@test "tr-to-ti: writes one action file per rank, index, platform, hostfile" {
	{ hdr 2
	  ev 0 0 MPI_Init 0 100 0; ev 0 1 MPI_Isend 200 210 50 - 1 64 3 0 7
	  ev 0 2 MPI_Wait 210 300 0 - -1 0 -1 0 7; ev 0 3 MPI_Bcast 300 400 0 - -1 8 -1 0 -1 0
	  ev 1 0 MPI_Init 0 100 0; ev 1 1 MPI_Recv 200 300 100 - 0 64 3 0
	  ev 1 2 MPI_Bcast 300 400 0 - -1 8 -1 0 -1 0; } > t.tr
	run tr to-ti -M x.net -o ti t.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/index.txt)" = "$(printf 'rank0.txt\nrank1.txt')" ]
	# the recorded MPI_Init (100 ns) is not computation on the target
	[ "$(cat ti/rank0.txt)" = "$(printf '0 init\n0 compute 50\n0 isend 1 3 64\n0 wait 0 1 3\n0 bcast 8 0\n0 finalize')" ]
	[ "$(cat ti/rank1.txt)" = "$(printf '1 init\n1 compute 100\n1 recv 0 3 64\n1 bcast 8 0\n1 finalize')" ]
	[ "$(cat ti/hostfile)" = "$(printf 'n0\nn1')" ]
	xmllint --noout ti/platform.xml
	grep -q 'radical="0-1"' ti/platform.xml
}

@test "tr-to-ti: fail records: a truncated receive has room for its message, a failed completion waits, another failed call is its time" {
	# rank 1's MPI_Recv and its MPI_Irecv's MPI_Wait failed with
	# MPI_ERR_TRUNCATE, its MPI_Send to rank 9 with MPI_ERR_RANK: they
	# were left out, and their time with them (the CPU bursts before
	# them, 300 and 400 ns)
	{ hdr 2; echo "$FAILFIELDS"
	  ev 0 0 MPI_Send 0 10 0 - 1 100000 5 0; ev 0 1 MPI_Send 10 20 0 - 1 100000 6 0
	  failrec 1 0 MPI_Recv 0 10 300 a.out+0x10 0 4 5 0 -1 -1 MPI_ERR_TRUNCATE
	  ev 1 1 MPI_Irecv 10 11 0 - 0 4 6 0 3
	  failrec 1 2 MPI_Wait 11 20 400 a.out+0x10 0 100000 6 0 3 -1 MPI_ERR_TRUNCATE
	  failrec 1 3 MPI_Send 20 70 0 a.out+0x10 9 4 0 0 -1 -1 MPI_ERR_RANK
	  ev 1 4 MPI_Comm_rank 70 80 0; } > f.tr
	run stderr_of tr to-ti -M x.net -o ti f.tr
	[ "$status" -eq 0 ]
	# once, beside the trace's own note of its failed calls
	[ "$(grep -c 'fail records' <<<"$output")" = 1 ]
	[[ "$output" == *"tr-to-ti: f.tr: SimGrid's replay has no calls that fail: 3 fail records are exported as the calls that did their work (a truncated receive with room for the whole message, a completion), the others as the time they took"* ]]
	[ "$(cat ti/rank1.txt)" = "$(printf '%s\n' '1 init' '1 compute 300' \
	    '1 recv 0 5 100000' '1 irecv 0 6 100000' '1 compute 400' \
	    '1 wait 0 1 6' '1 compute 60' '1 finalize')" ]
	# which smpirun replays: with the receives' own sizes it aborted
	# (MPI_ERR_TRUNCATE)
	command -v smpirun || skip "smpirun missing"
	(cd ti && sh smpirun.sh --log=root.fmt:%m%n --log=xbt_cfg.thres:warning \
		--log=smpi_config.thres:error) > smpi.out 2>&1 || { cat smpi.out; false; }
	grep -q 'Simulation time' smpi.out
}

@test "tr-to-ti: tr-nsim agrees with smpirun within 2% on a torus" {
	command -v smpirun || skip "smpirun missing"
	printf '%s\n' 'topology torus 4 4 2' 'link-bandwidth 1GB/s' \
		'link-latency 1us' 'switch-latency 0' > t.net
	# half way round a ring of 4, SimGrid goes backward from the middle
	# (8 % apart when tr-nsim always went forward)
	tr gen -P stencil2d -n 8 -i 4 -b 40000 -j 0.3 -R 7 > s.tr
	agree t.net s.tr
	# eager steps overlapping: SimGrid's default lazy re-solving left
	# a link oversubscribed (10 % apart until smpirun.sh asked for Full)
	{ hdr 8
	  for r in 0 1 2 3 4 5 6 7; do
		for i in 1 2 3; do
			ev $r $i MPI_Sendrecv $i $i 0 - $(((r + i) % 8)) 48000 5 0 5 $(((r - i + 8) % 8))
		done
	  done; } > e.tr
	agree t.net e.tr
}


@test "tr-to-ti: a ring (a torus with two dimensions of size 1) replays in smpirun" {
	command -v smpirun || skip "smpirun missing"
	printf '%s\n' 'topology torus 4 1 1' 'link-bandwidth 1GB/s' \
		'link-latency 1us' 'switch-latency 0' 'eager-threshold 16MB' > r.net
	# 0 to 2 and 1 to 3 share n1.x+: 2 us + 2 ms; then 2 to 0 (backward
	# from the middle) and 3 to 1 (forward) share no link: + 2 us + 1 ms
	{ hdr 4
	  ev 0 0 MPI_Send 0 1 0 - 2 1000000 5 0; ev 1 0 MPI_Send 0 1 0 - 3 1000000 5 0
	  ev 2 0 MPI_Recv 0 1 0 - 0 1000000 5 0; ev 3 0 MPI_Recv 0 1 0 - 1 1000000 5 0
	  ev 2 1 MPI_Send 1 2 0 - 0 1000000 5 0; ev 3 1 MPI_Send 1 2 0 - 1 1000000 5 0
	  ev 0 1 MPI_Recv 1 2 0 - 2 1000000 5 0; ev 1 1 MPI_Recv 1 2 0 - 3 1000000 5 0; } > ring.tr
	run tr nsim -M r.net ring.tr
	[[ "$output" == *"$(printf 'simrun\t4\t3004000\t')"* ]]
	# SimGrid's torus gives every node a link to itself in each
	# dimension of size 1, and two of them clashed: smpirun aborted
	run tr to-ti -M r.net -o ti ring.tr
	[ "$status" -eq 0 ]
	grep -q 'topo_parameters="4"' ti/platform.xml
	run agree r.net ring.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"smpirun 3004000 ns"* ]]
}
@test "tr-to-ti: every collective algorithm agrees with smpirun's" {
	command -v smpirun || skip "smpirun missing"
	# times 1000 (latencies, bytes, compute) so that SimGrid's printed
	# microseconds resolve what differs; 6 ranks, root 1, arriving 3 ms
	# apart, sizes not divisible by 6, eager and rendezvous
	for spec in barrier:dissemination:MPI_Barrier:-1 \
	    bcast:binomial:MPI_Bcast:1 bcast:linear:MPI_Bcast:1 \
	    reduce:binomial:MPI_Reduce:1 reduce:linear:MPI_Reduce:1 \
	    allreduce:rdb:MPI_Allreduce:-1 allreduce:ring:MPI_Allreduce:-1 \
	    gather:binomial:MPI_Gather:1 gather:linear:MPI_Gather:1 \
	    scatter:binomial:MPI_Scatter:1 scatter:linear:MPI_Scatter:1 \
	    allgather:ring:MPI_Allgather:-1 alltoall:pairwise:MPI_Alltoall:-1; do
		IFS=: read -r op alg fn root <<-E
		$spec
		E
		printf '%s\n' 'topology crossbar' 'link-bandwidth 1GB/s' \
			'link-latency 1ms' 'switch-latency 500us' \
			'eager-threshold 65536000' "coll $op $alg" > c.net
		for b in 1000003 100000001; do
			{ hdr 6
			  for r in 0 1 2 3 4 5; do
				ev $r 0 $fn 0 1 $((r * 3000000)) - -1 $b -1 0 -1 $root
				ev $r 1 $fn 2 3 $((r * 1000000)) - -1 $b -1 0 -1 $root
			  done; } > c.tr
			echo "$op $alg $b"
			agree c.net c.tr
		done
	done
}

@test "tr-to-ti: reductions priced by reduce-bandwidth agree with smpirun, each step's reduction a computation" {
	command -v smpirun || skip "smpirun missing"
	# 6 ranks (not a power of two), root 1, times 1000 as above
	for spec in reduce:binomial:MPI_Reduce:1 reduce:linear:MPI_Reduce:1 \
	    allreduce:rdb:MPI_Allreduce:-1 allreduce:ring:MPI_Allreduce:-1 \
	    allreduce:rdb:MPI_Reduce_scatter_block:-1 allreduce:rdb:MPI_Scan:-1; do
		IFS=: read -r op alg fn root <<-E
		$spec
		E
		printf '%s\n' 'topology crossbar' 'link-bandwidth 1GB/s' \
			'link-latency 1ms' 'switch-latency 500us' \
			'eager-threshold 65536000' 'reduce-bandwidth 250MB/s' \
			"coll $op $alg" > c.net
		{ hdr 6
		  for r in 0 1 2 3 4 5; do
			ev $r 0 $fn 0 1 $((r * 3000000)) - -1 100000001 -1 0 -1 $root
		  done; } > c.tr
		echo "$fn $alg"
		agree c.net c.tr
		# the computation is there, in SimGrid's trace and in the time
		grep -q ' compute ' ti/rank1.txt
		grep -v reduce-bandwidth c.net > n.net
		[ "$(tr nsim -M c.net c.tr | awk -F'\t' '$1=="simrun"{print $3}')" -gt \
		    "$(tr nsim -M n.net c.tr | awk -F'\t' '$1=="simrun"{print $3}')" ]
	done
}

@test "tr-to-ti: a dragonfly, written route by route, agrees with smpirun" {
	command -v smpirun || skip "smpirun missing"
	# 4 groups of 3 routers, 2 nodes each, one global link per router;
	# SimGrid's routers have no latency: the switches' is a link
	printf 'topology dragonfly 4 3 2 1\nlink-bandwidth 1GB/s\nlink-latency 1us\nswitch-latency 300ns\n' > d.net
	tr gen -P alltoall -n 24 -i 3 -b 100000 -R 3 > a.tr
	agree d.net a.tr
	tr gen -P ring -n 24 -i 5 -b 100000 -R 3 > r.tr
	agree d.net r.tr
	xmllint --noout ti/platform.xml
	# n0 to n23 (router 0 of group 0 to router 11 of group 3): up, to
	# router 2, which holds the link to group 3, the global link to
	# router 9, to router 11, down; 4 switches
	grep -qx '<route src="n0" dst="n23" symmetrical="NO"><link_ctn id="n0.up"/><link_ctn id="r0-r2"/><link_ctn id="r2.g0"/><link_ctn id="r9-r11"/><link_ctn id="n23.down"/><link_ctn id="sw4"/></route>' ti/platform.xml
	# two ranks a node: eager messages, and the node's own loopback
	printf 'ranks-per-node 2\nintra-latency 500ns\nintra-bandwidth 5GB/s\n' >> d.net
	tr gen -P stencil2d -n 36 -i 5 -b 3000 -R 3 > s.tr
	agree d.net s.tr
	grep -qx '<route src="n3" dst="n3" symmetrical="NO"><link_ctn id="n3.lo"/></route>' ti/platform.xml
}

@test "tr-to-ti: several ranks per node each have a core in smpirun" {
	command -v smpirun || skip "smpirun missing"
	printf '%s\n' 'topology crossbar' 'ranks-per-node 4' \
		'link-bandwidth 1GB/s' 'link-latency 1us' 'intra-bandwidth 5GB/s' > p.net
	tr gen -P stencil2d -n 16 -i 4 -b 3000 -j 0.3 -R 7 > s.tr
	# one host shared by its 4 ranks' computations took 3x as long
	agree p.net s.tr
	grep -q 'core="4"' ti/platform.xml
	# round-robin on a fat tree, 2 per node
	printf '%s\n' 'topology fattree 4 2' 'ranks-per-node 2' 'mapping round-robin' \
		'link-bandwidth 1GB/s' 'link-latency 1us' 'switch-latency 0' > f.net
	tr gen -P stencil2d -n 16 -i 4 -b 40000 -j 0.3 -R 7 > f.tr
	agree f.net f.tr
	grep -q 'core="2"' ti/platform.xml
}

@test "tr-to-ti: node-bandwidth, a node's memory shared by its copies, agrees with smpirun" {
	command -v smpirun || skip "smpirun missing"
	printf '%s\n' 'topology crossbar' 'ranks-per-node 8' 'link-bandwidth 1GB/s' \
		'link-latency 1us' 'switch-latency 0' 'intra-latency 300ns' \
		'intra-bandwidth 5GB/s' > p.net
	{ cat p.net; echo 'node-bandwidth 12GB/s'; } > m.net
	tr gen -P stencil2d -n 16 -i 10 -b 200000 -R 3 > s.tr
	tr gen -P alltoall -n 8 -i 3 -b 100000 -R 3 > a.tr
	# the setting matters here: the copies of a node take longer
	a=$(tr nsim -M p.net a.tr | awk -F'\t' '$1=="simrun"{print $3}')
	b=$(tr nsim -M m.net a.tr | awk -F'\t' '$1=="simrun"{print $3}')
	[ "$b" -gt $((a * 2)) ]
	agree m.net s.tr
	# a host per node written out, its route to itself its loopback
	# (a fat pipe: each copy at most intra-bandwidth) and its memory
	grep -qx '<link id="n1.mem" bandwidth="12000000000Bps" latency="0ns" sharing_policy="SHARED"/>' ti/platform.xml
	grep -qx '<route src="n1" dst="n1" symmetrical="NO"><link_ctn id="n1.lo"/><link_ctn id="n1.mem"/></route>' ti/platform.xml
	agree m.net a.tr
	# on a fat tree, 2 ranks per node
	printf '%s\n' 'topology fattree 4 2' 'ranks-per-node 2' 'link-bandwidth 1GB/s' \
		'link-latency 1us' 'switch-latency 0' 'intra-bandwidth 2GB/s' \
		'node-bandwidth 3GB/s' > f.net
	agree f.net s.tr
}

@test "tr-to-ti: long-latency links are not slowed by a TCP window in smpirun" {
	command -v smpirun || skip "smpirun missing"
	# 2.5 ms from node to node: SimGrid's default window (4 MiB per
	# round trip) would cap a flow at 0.84 GB/s of the link's 1 GB/s
	printf '%s\n' 'topology crossbar' 'link-bandwidth 1GB/s' \
		'link-latency 1ms' 'switch-latency 500us' > w.net
	{ hdr 2
	  ev 0 0 MPI_Send 0 1 0 - 1 50000000 5 0; ev 0 1 MPI_Recv 1 2 0 - 1 8 6 0
	  ev 1 0 MPI_Recv 0 1 0 - 0 50000000 5 0; ev 1 1 MPI_Send 1 2 0 - 0 8 6 0; } > w.tr
	agree w.net w.tr
}

@test "tr-to-ti: MPI_ANY_SOURCE receives name the source their completion recorded" {
	{ hdr 3
	  ev 0 0 MPI_Irecv 0 1 0 - -1 8 -1 0 4
	  ev 0 1 MPI_Irecv 1 2 0 - -1 64 -1 0 1; ev 0 2 MPI_Irecv 2 3 0 - -1 64 -1 0 2
	  ev 0 3 MPI_Wait 3 4 0 - 2 64 6 0 1; ev 0 4 MPI_Wait 4 5 0 - 1 32 5 0 2
	  ev 1 0 MPI_Send 0 1 0 - 0 32 5 0; ev 2 0 MPI_Send 0 1 0 - 0 64 6 0; } > w.tr
	run tr to-ti -M x.net -o ti w.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/rank0.txt)" = "$(printf '0 init\n0 irecv 2 6 64\n0 irecv 1 5 64\n0 wait 2 0 6\n0 wait 1 0 5\n0 finalize')" ]
}

@test "tr-to-ti: MPI_ANY_TAG receives from a known source take the tag their completion recorded" {
	# rank 1 receives both of rank 0's messages with MPI_ANY_TAG
	# (sizes in the 100 kB: SimGrid prints whole microseconds)
	{ hdr 2
	  ev 0 0 MPI_Isend 0 1 0 - 1 100000 5 0 1; ev 0 1 MPI_Isend 1 2 0 - 1 200000 6 0 2
	  ev 0 2 MPI_Waitall 2 3 0 - 1 100000 5 0 1; ev 0 2 MPI_Waitall 2 3 0 - 1 200000 6 0 2
	  ev 1 0 MPI_Irecv 0 1 0 - 0 262144 -1 0 1; ev 1 1 MPI_Irecv 1 2 0 - 0 262144 -1 0 2
	  ev 1 2 MPI_Waitall 2 3 0 - 0 100000 5 0 1; ev 1 2 MPI_Waitall 2 3 0 - 0 200000 6 0 2; } > t.tr
	run tr to-ti -M x.net -o ti t.tr
	[ "$status" -eq 0 ]
	[ "$(grep -c ' irecv 0 [56] ' ti/rank1.txt)" -eq 2 ]
	command -v smpirun || skip "smpirun missing"
	agree x.net t.tr
}

@test "tr-to-ti -d: collectives become point-to-point actions" {
	{ hdr 2; for r in 0 1; do ev $r 0 MPI_Allreduce 0 1 0 - -1 8 -1 0; done; } > a.tr
	run tr to-ti -d -M x.net -o ti a.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/rank1.txt)" = "$(printf '1 init\n1 isend 0 1000000 8\n1 irecv 0 1000000 8\n1 wait 1 0 1000000\n1 wait 0 1 1000000\n1 finalize')" ]
}

@test "tr-to-ti: MPI_Mprobe is exported as the receive, so that the computation before MPI_Mrecv follows the message" {
	{ hdr 2
	  ev 0 0 MPI_Send 0 1 0 - 1 24 11 0
	  ev 0 1 MPI_Send 1 2 0 - 1 8 12 0
	  ev 1 0 MPI_Mprobe 0 1 100 - 0 24 11 0
	  ev 1 1 MPI_Mrecv 1 2 5000 - 0 24 11 0
	  ev 1 2 MPI_Mprobe 2 3 0 - 0 8 12 0
	  ev 1 3 MPI_Imrecv 3 4 0 - 0 8 12 0 4
	  ev 1 4 MPI_Wait 4 5 300 - 0 8 12 0 4; } > mp.tr
	run tr to-ti -M x.net -o ti mp.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/rank1.txt)" = "$(printf '1 init\n1 compute 100\n1 recv 0 11 24\n1 compute 5000\n1 recv 0 12 8\n1 compute 300\n1 finalize')" ]
	# as tr-nsim replays it: the first envelope at 2500 ns, 5 us of
	# computation, the second message there by then, 300 ns more
	[ "$(tr nsim -M x.net mp.tr | awk -F'\t' '$1=="simrank" && $2==1 {print $3}')" -eq 7800 ]
}

# Runtime in ns by tr-nsim, and by smpirun on tr-to-ti's export.
# SMPI moves a rendezvous message once both ends are posted: tr-nsim's
# progress background (its default waits for the receiver's next call).
agree() {
	local net=$1 trace=$2 a b
	{ cat "$net"; echo 'progress background'; } > agree.net
	a=$(tr nsim -M agree.net "$trace" | awk -F'\t' '$1=="simrun"{print $3}')
	tr to-ti -M "$net" -o ti "$trace"
	b=$(sh ti/smpirun.sh --log=root.fmt:%m%n --log=xbt_cfg.thres:warning \
		--log=smpi_config.thres:error 2>&1 | awk '/Simulation time/{printf "%.0f", $3 * 1e9}')
	echo "tr-nsim $a ns, smpirun $b ns"
	[ -n "$a" ]
	[ -n "$b" ]
	[ "$b" -gt 0 ]
	awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / b; exit !(d < 0.02 && d > -0.02) }'
}

@test "tr-to-ti: tr-nsim agrees with smpirun within 2% on a crossbar" {
	command -v smpirun || skip "smpirun missing"
	tr gen -P stencil2d -n 16 -i 10 -b 200000 -R 3 > s.tr
	agree x.net s.tr
	tr gen -P alltoall -n 8 -i 3 -b 100000 -R 3 > a.tr
	agree x.net a.tr
}

@test "tr-to-ti: tr-nsim agrees with smpirun within 2% on a fat tree" {
	command -v smpirun || skip "smpirun missing"
	tr gen -P stencil2d -n 16 -i 10 -b 200000 -R 3 > s.tr
	agree "$TOP/pipelines/net/fattree.net" s.tr
	tr gen -P ring -n 16 -i 5 -b 100000 -R 3 > r.tr
	agree "$TOP/pipelines/net/fattree.net" r.tr
	# eager messages on two leaves: routes of 2 and 4 links share links
	# (SimGrid weighs flows by their route latency; 7 % apart when
	# tr-nsim shared them equally)
	tr gen -P alltoall -n 8 -i 5 -b 5376 -R 1 > a8.tr
	agree "$TOP/pipelines/net/fattree.net" a8.tr
}

@test "tr-to-ti: a real hpcc run (wildcard receives, sub-communicators) replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v hpcc >/dev/null || skip "hpcc not installed"
	zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
		sed -e '6s/^1000 /200  /' -e '8s/^80 /20 /' > hpccinf.txt
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
		-o h hpcc > /dev/null 2>&1
	grep -q 'End of HPC Challenge' hpccoutf.txt
	tr cat -m h/rank.*.tr.gz > h.tr
	# hpcc posts MPI_Irecv from MPI_ANY_SOURCE: peer -1 until completed
	awk -F'\t' '$4 == "MPI_Irecv" && $9 == -1 && $10 > 0' h.tr | grep -q .
	agree x.net h.tr
}

@test "tr-to-ti: a real CP2K run (DFT, ScaLAPACK, Cartesian sub-communicators) replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v cp2k.psmp >/dev/null || skip "cp2k not installed"
	cp "$TOP/examples/inputs/h2o.inp" .
	OMP_NUM_THREADS=1 mpirun --oversubscribe --allow-run-as-root -np 2 \
		"$TR_BIN/tr-record" -o cp cp2k.psmp -i h2o.inp > cp.out 2>&1
	grep -q 'PROGRAM ENDED' cp.out
	tr cat -m cp/rank.*.tr.gz > cp.tr
	# ScaLAPACK's grids and their row and column communicators
	grep -q '^cart' cp.tr
	awk -F'\t' '$4 == "MPI_Cart_sub"' cp.tr | grep -q .
	agree x.net cp.tr
}

@test "tr-to-ti: a real GROMACS run (molecular dynamics, domain decomposition, a PME rank) replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v gmx_mpi >/dev/null || skip "gromacs not installed"
	sh "$TOP/examples/inputs/gmx-water.sh" 100
	# three particle-particle ranks and one for PME: halo exchanges by
	# Sendrecv, PME's by Isend, Irecv and Waitall
	OMP_NUM_THREADS=1 mpirun --oversubscribe --allow-run-as-root -np 4 \
		"$TR_BIN/tr-record" -o gx gmx_mpi -quiet mdrun -s topol.tpr \
		-ntomp 1 -nb cpu -npme 1 > gx.out 2>&1 || { cat gx.out; false; }
	tr cat -m gx/rank.*.tr.gz > gx.tr
	for op in MPI_Sendrecv MPI_Isend MPI_Irecv MPI_Waitall MPI_Comm_split; do
		awk -F'\t' -v op=$op '$4 == op' gx.tr | grep -q .
	done
	! grep -q '^#meta unrecorded' gx.tr || false
	agree x.net gx.tr
	agree "$TOP/pipelines/net/fattree.net" gx.tr
}

@test "tr-to-ti: synchronous sends below the eager limit are acknowledged by their receivers, as in tr-nsim" {
	# 0 -> 1 by MPI_Ssend to a receiver 50 us late; 2 -> 3 by MPI_Issend,
	# received by MPI_Irecv and MPI_Waitall with a send of its own;
	# 1 -> 0 by MPI_Ssend of 100 kB, above the limit: a rendezvous
	{ hdr 4
	  ev 0 0 MPI_Ssend 0 1 0 - 1 8 5 0
	  ev 0 1 MPI_Recv 1 2 0 - 1 100000 6 0
	  ev 1 0 MPI_Recv 1 2 50000 - 0 8 5 0
	  ev 1 1 MPI_Ssend 2 3 0 - 0 100000 6 0
	  ev 2 0 MPI_Issend 0 1 0 - 3 8 7 0 1
	  ev 2 1 MPI_Wait 1 2 0 - 3 8 7 0 1
	  ev 3 0 MPI_Irecv 0 1 20000 - 2 8 7 0 1
	  ev 3 1 MPI_Isend 1 2 0 - 2 8 9 0 2
	  ev 3 2 MPI_Waitall 2 3 0 - 2 8 7 0 1
	  ev 3 2 MPI_Waitall 2 3 0 - 2 8 9 0 2
	  ev 2 2 MPI_Recv 2 3 0 - 3 8 9 0; } > ss.tr
	run tr to-ti -M x.net -o ti ss.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/rank0.txt)" = "$(printf '0 init\n0 send 1 5 8\n0 recv 1 2147483642 0\n0 recv 1 6 100000\n0 finalize')" ]
	[ "$(cat ti/rank1.txt)" = "$(printf '1 init\n1 compute 50000\n1 recv 0 5 8\n1 send 0 2147483642 0\n1 send 0 6 100000\n1 finalize')" ]
	# the waits of one call first, then its acknowledgements
	[ "$(cat ti/rank3.txt)" = "$(printf '3 init\n3 compute 20000\n3 irecv 2 7 8\n3 isend 2 9 8\n3 wait 2 3 7\n3 wait 3 2 9\n3 send 2 2147483640 0\n3 finalize')" ]
	grep -qx '2 recv 3 2147483640 0' ti/rank2.txt
	# 0's MPI_Ssend ends when the acknowledgement of 1's receive at 50 us
	# comes back, 2500 ns later
	[ "$(tr nsim -M x.net ss.tr | awk -F'\t' '$1=="ev" && $2==0 && $3==0 {print $6}')" -eq 52500 ]
	command -v smpirun || skip "smpirun missing"
	agree x.net ss.tr
}

@test "tr-to-ti: buffered sends are sends nothing waits for, after which the sender copies" {
	{ hdr 2
	  ev 0 0 MPI_Bsend 0 1 0 - 1 1000000 5 0
	  ev 0 1 MPI_Ibsend 1 2 0 - 1 8 7 0 3
	  ev 0 2 MPI_Wait 2 3 0 - 1 8 7 0 3
	  ev 0 3 MPI_Recv 3 4 0 - 1 1000000 6 0
	  ev 1 0 MPI_Bsend 0 1 0 - 0 1000000 6 0
	  ev 1 1 MPI_Recv 1 2 0 - 0 1000000 5 0
	  ev 1 2 MPI_Recv 2 3 0 - 0 8 7 0; } > b.tr
	run tr to-ti -M x.net -o ti b.tr
	[ "$status" -eq 0 ]
	[ "$(cat ti/rank0.txt)" = "$(printf '0 init\n0 isend 1 5 1000000\n0 compute 100000\n0 isend 1 7 8\n0 compute 1\n0 recv 1 6 1000000\n0 finalize')" ]
	command -v smpirun || skip "smpirun missing"
	agree x.net b.tr
}

@test "tr-to-ti: recorded persistent requests and a nonblocking collective replay alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	# SimGrid's replay has no one-sided transfers: both replay the
	# traces without them (and without the calls that wait for them)
	for p in persist calls; do
		mpirun --oversubscribe --allow-run-as-root -np 4 \
			"$TR_BIN/tr-record" -o $p "$TR_MPIBIN/$p" > /dev/null 2>&1
		tr cat -m $p/rank.*.tr.gz | awk -F'\t' '$1 == "ev" &&
		    $4 ~ /^MPI_(R?(put|get|accumulate)|Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|Win_(flush|unlock|complete).*)$/ {
			if ($13 >= 0) gone[$2 " " $13] = 1; next }
		    $1 == "ev" && $4 ~ /^MPI_Wait/ && gone[$2 " " $13] { next }
		    { print }' > $p.tr
		agree x.net $p.tr
	done
	# calls: a receive from any source started twice by MPI_Startall and
	# once by MPI_Start goes out as an irecv from the source that sent
	[ "$(grep -c '^0 irecv 3 10 32$' ti/rank0.txt)" -eq 3 ]
	[ "$(grep -c '^0 isend 1 10 32$' ti/rank0.txt)" -eq 3 ]
	# MPI_Iallreduce and its MPI_Wait
	grep -qx '0 allreduce 32 0' ti/rank0.txt
	# MPI_Mprobe is the receive, and its MPI_Mrecv is not another
	[ "$(grep -c '^0 recv 3 11 24$' ti/rank0.txt)" -eq 1 ]
}

@test "tr-to-ti: v-collectives with unequal totals and collectives on overlapping communicators replay in smpirun" {
	command -v smpirun || skip "smpirun missing"
	# comm 2 pairs ranks {0,1} and {2,3}; comm 3 holds all four. Each
	# rank knows only its own total of the Alltoallv, so its receives
	# must not be sized by it (SMPI fails with MPI_ERR_TRUNCATE), and
	# the steps of comm 2 and comm 3 must not take each other's messages.
	{ hdr 4; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 1; do printf 'comm\t%s\t2\t2\t0,1\n' $r; done
	  for r in 2 3; do printf 'comm\t%s\t2\t2\t2,3\n' $r; done
	  for r in 0 1 2 3; do printf 'comm\t%s\t3\t4\t0-3\n' $r; done
	  for r in 0 1; do printf 'comm\t%s\t%s\t2\t0,1\n' $r 4 $r 5; done
	  for r in 0 1 2 3; do
		ev $r 0 MPI_Alltoallv 0 1 0 - -1 $((40000 * (r + 1))) -1 3
		ev $r 1 MPI_Bcast 1 2 $((1000 * r)) - -1 30000 -1 2 -1 $((r & 2))
		ev $r 2 MPI_Allreduce 2 3 0 - -1 20000 -1 3
		ev $r 3 MPI_Sendrecv 3 4 0 - $((r ^ 1)) $((1000 * (r + 1))) 7 0 -1 $((r ^ 1))
	  done
	  # eager broadcasts from rank 1 on comms 4 and 5, taken by rank 0
	  # in the other order
	  ev 1 4 MPI_Bcast 4 5 0 - -1 50000 -1 4 -1 1
	  ev 1 5 MPI_Bcast 5 6 0 - -1 30000 -1 5 -1 1
	  ev 0 4 MPI_Bcast 4 5 0 - -1 30000 -1 5 -1 1
	  ev 0 5 MPI_Bcast 5 6 0 - -1 50000 -1 4 -1 1; } > v.tr
	tr cat v.tr > /dev/null
	agree x.net v.tr
}

@test "tr-to-ti: a recorded run whose ranks number one communicator differently replays alike" {
	command -v smpirun || skip "smpirun missing"
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
		-o u "$TR_MPIBIN/uneven" 3 > /dev/null
	tr cat -m u/rank.*.tr.gz > u.tr
	# rank 0 made one more communicator: the world duplicate is 3 there
	[ "$(awk -F'\t' '$1 == "comm" && $5 == "0-3" { print $2 ":" $3 }' u.tr | sort | tr '\n' ' ')" = "0:3 1:2 2:2 3:2 " ]
	agree x.net u.tr
}

@test "tr-to-ti: MPI_Comm_create_group and MPI_Intercomm_create are exported as barriers over what they make" {
	command -v smpirun || skip "smpirun missing"
	# ranks 0 and 1 make a group communicator (2), then all three an
	# intercommunicator (3); each recorded 5 ms of waiting, which
	# was exported as computation
	newcomm_trace > cg.tr
	tr to-ti -M x.net -o ti cg.tr
	! grep -q 'compute 5000000' ti/rank0.txt || false
	# rank 2 is not in the group: its first action is the intercomm's
	[[ "$(sed -n 2p ti/rank2.txt)" == "2 isend 0 "* ]]
	# smpirun prints whole microseconds: millisecond latencies
	sed 's/1us/1ms/; s/500ns/0/' x.net > slow.net
	agree slow.net cg.tr
	# the project's example that makes both, recorded on 4 ranks
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
		-o c "$TR_MPIBIN/comms" > /dev/null
	tr cat -m c/rank.*.tr.gz > c.tr
	grep -q 'MPI_Intercomm_create' c.tr
	agree x.net c.tr
}

@test "tr-to-ti: making or freeing a window or communicator is a barrier, then the least duration its ranks recorded" {
	# the cost of each instance, over the ranks' files: 200 then 40 ns
	win_trace > w.tr
	tr to-ti -M x.net -o ti w.tr
	[ "$(cat ti/rank0.txt)" = "$(printf '0 init\n0 compute 1000\n0 barrier\n0 compute 300\n0 barrier\n0 compute 40\n0 finalize')" ]
	[ "$(cat ti/rank1.txt)" = "$(printf '1 init\n1 compute 1000\n1 barrier\n1 compute 360\n1 barrier\n1 compute 40\n1 finalize')" ]
	# not scaled by -s, as in tr-nsim
	tr to-ti -s 0 -M x.net -o t0 w.tr
	[ "$(cat t0/rank1.txt)" = "$(printf '1 init\n1 barrier\n1 compute 200\n1 barrier\n1 compute 40\n1 finalize')" ]
	# the least of each duplication, whichever rank had it, and a
	# window of one rank (communicator 3) costs its own time
	makes_trace > m.tr
	tr to-ti -M x.net -o tm m.tr
	[ "$(grep -c '^1 compute 300$' tm/rank1.txt)" -eq 1 ]
	[ "$(grep -c '^0 compute 50$' tm/rank0.txt)" -eq 1 ]
	grep -qx '2 compute 7000' tm/rank2.txt
	command -v smpirun || skip "smpirun missing"
	# smpirun prints whole microseconds: the traces' times and the
	# latencies in milliseconds
	sed 's/1us/1ms/; s/500ns/0/' x.net > slow.net
	win_trace 1000 > w1k.tr
	agree slow.net w1k.tr
	makes_trace 1000 > m1k.tr
	agree slow.net m1k.tr
}

@test "tr-to-ti: a real Quantum ESPRESSO run replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v pw.x > /dev/null || skip "quantum-espresso not installed"
	[ -f /usr/share/espresso/pseudo/Si.pz-vbc.UPF ] || skip "no Si pseudopotential"
	cp "$TOP/examples/inputs/si.in" .
	OMP_NUM_THREADS=1 mpirun --oversubscribe --allow-run-as-root -np 2 \
		"$TR_BIN/tr-record" -o q pw.x -in si.in > si.out 2>&1
	grep -q '^!.*total energy' si.out
	tr cat -m q/rank.*.tr.gz > q.tr
	agree x.net q.tr
}

# LAMMPS's peptide example: PPPM's FFTs (MPI_Alltoallv, Waitany),
# communicators duplicated and freed, a Cartesian grid; on a crossbar and
# on a fat tree.
@test "tr-to-ti: a real LAMMPS run replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v lmp > /dev/null || skip "lammps not installed"
	d=/usr/share/lammps/examples/peptide
	[ -f $d/in.peptide ] || skip "no LAMMPS peptide example"
	cp $d/in.peptide $d/data.peptide .
	sed -i 's/^run.*/run 20/' in.peptide
	OMP_NUM_THREADS=1 mpirun --oversubscribe --allow-run-as-root -np 4 \
		"$TR_BIN/tr-record" -o l lmp -in in.peptide -log none \
		-screen none > l.out 2>&1
	tr cat -m l/rank.*.tr.gz > l.tr
	for op in MPI_Waitany MPI_Alltoallv MPI_Comm_dup; do
		grep -q "	$op	" l.tr
	done
	agree x.net l.tr
	agree "$TOP/pipelines/net/fattree.net" l.tr
}

# MIT's MPB computes photonic bands with FFTW's MPI transposes: pairwise
# MPI_Sendrecv that send with one tag and receive with another. SimGrid
# deadlocked on the export until the tag received was recorded.
@test "tr-to-ti: a real MPB (FFTW) run replays alike in tr-nsim and smpirun" {
	command -v smpirun || skip "smpirun missing"
	command -v mpb-mpi > /dev/null || skip "mpb-mpi not installed"
	cp "$TOP/examples/inputs/rods.ctl" .
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
		-o m mpb-mpi rods.ctl > m.out 2>&1
	tr cat -m m/rank.*.tr.gz > m.tr
	# transposes whose tags sent and received differ
	[ "$(awk -F'\t' '$4 == "MPI_Sendrecv" && $11 != $13' m.tr | wc -l)" -gt 100 ]
	agree x.net m.tr
	agree "$TOP/pipelines/net/fattree.net" m.tr
}

@test "tr-to-ti: needs -o; empty traces are refused" {
	run tr to-ti x.tr
	fails_with 2 "usage: tr-to-ti"
	{ hdr 1; ev 0 0 MPI_Init 0 1; } > o.tr
	# SimGrid has no equal sharing: said, and exported all the same
	printf 'topology fattree 2 2\nswitch-latency 0\nsharing fair\n' > f.net
	run tr to-ti -M f.net -o ti o.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-to-ti: SimGrid shares links by route latency, not fairly: its times will differ from tr-nsim's" ]
	[ -f ti/rank0.txt ]
	# nor has it latency in the routers of its clusters (a default
	# 100 ns per switch left out without a word)
	for t in 'fattree 2 2:FAT_TREE' 'torus 2 1 1:TORUS'; do
		printf 'topology %s\n' "${t%:*}" > s.net
		run tr to-ti -M s.net -o ti o.tr
		[ "$status" -eq 0 ]
		[ "$output" = "tr-to-ti: switch-latency is not exported (SimGrid's ${t#*:} routers have none): its times will differ from tr-nsim's" ]
	done
	printf 'topology crossbar\n' > s.net
	run tr to-ti -M s.net -o ti o.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	printf 'loggp 100ns 0 0 0\n' > l.net
	run tr to-ti -M l.net -o ti o.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-to-ti: LogGP is not exported (SimGrid replays the links and no o or g): its times will differ from tr-nsim's" ]
	hdr 1 > e.tr
	run stderr_of tr to-ti -o ti e.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-ti: e.tr: no ev records to export" ]
	# a network too small for the run: said at the line that sized it
	{ hdr 2; ev 0 0 MPI_Init 0 1; ev 1 0 MPI_Init 0 1; } > two.tr
	printf '# two\ntopology torus 1 1 1\n' > t.net
	run stderr_of tr to-ti -M t.net -o ti two.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-ti: t.net:2: 2 ranks at 1 per node need 2 nodes, the network has 1" ]
}

@test "tr-to-ti: network descriptions may be gzip; sizes, bandwidths and latencies out of range give FILE:LINE" {
	{ hdr 2; ev 0 0 MPI_Init 0 1; ev 1 0 MPI_Init 0 1; } > o.tr
	tr to-ti -M x.net -o plain o.tr
	gzip -c x.net > x.net.gz
	run tr to-ti -M x.net.gz -o gz o.tr
	[ "$status" -eq 0 ]
	diff -r plain gz
	# a mapping file too, named relative to the description
	printf 'topology crossbar 4\nmapping file m.map.gz\n' | gzip -c > mf.net.gz
	printf '3\n2\n' | gzip -c > m.map.gz
	tr to-ti -M mf.net.gz -o map o.tr
	[ "$(cat map/hostfile)" = "$(printf 'n3\nn2')" ]
	for bad in 'topology fattree 4 100000:1: network too large: inf nodes' \
	    'topology torus 1000 1000 1000:1: network too large: 1e+09 nodes and 6e+09 links (at most 16777216 and 33554432)' \
	    'topology dragonfly 100000 100000 100000 100000:1: network too large' \
	    'topology dragonfly 5 2 2 1:1: dragonfly needs A*H >= G-1 global links' \
	    'nodes 20000000:1: network too large' \
	    'link-bandwidth 1e-300:1: bandwidth '"'"'1e-300'"'"' out of range: 1 B/s at least' \
	    'intra-bandwidth 0:1: bandwidth '"'"'0'"'"' out of range' \
	    'link-latency 2e12us:1: latency '"'"'2e12us'"'"' out of range: an hour at most' \
	    'loggp 0 0 1e308s 0:1: gap per byte G '"'"'1e308s'"'"' out of range'; do
		printf '%s\n' "${bad%%:*}" > bad.net
		run stderr_of tr to-ti -M bad.net -o ti o.tr
		[ "$status" -eq 3 ]
		[[ "$output" == "tr-to-ti: bad.net:${bad#*:}"* ]]
		[ "${#lines[@]}" -eq 1 ]
	done
	run stderr_of tr to-ti -M nonexistent.net -o ti o.tr
	[ "$status" -eq 4 ]
	[ "$output" = "tr-to-ti: nonexistent.net: No such file or directory" ]
}

@test "tr-to-ti: a peer below -1 is refused at its line, not dropped" {
	{ hdr 2; ev 0 0 MPI_Send 0 1 0 - -7 8 0; ev 1 0 MPI_Recv 0 1 0 - 0 8 0; } > p.tr
	run stderr_of tr to-ti -o ti p.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-ti: p.tr:4: ev 'peer': must be -1 or more: '-7'" ]
}

@test "tr-to-ti: a communicator without its comm record is named at the record that uses it" {
	{ hdr 2; ev 0 0 MPI_Barrier 0 1 0 - -1 0 -1 5; ev 1 0 MPI_Barrier 0 1 0 - -1 0 -1 5; } > c.tr
	run stderr_of tr to-ti -o ti c.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-ti: c.tr:4: rank 0 seq 0: communicator 5 has no comm record" ]
}

@test "tr-to-ti: SimGrid's one eager threshold is the intra-node one on one node, eager-threshold's otherwise" {
	# rank 0 sends 8000 B at 0; rank 1 computes 1 ms, then receives
	{ printf '#tr 1\n#meta np=2\n#meta eager.shm=4040\n#meta eager.net=65480\n%s\n' "$EVFIELDS"
	  ev 0 0 MPI_Send 0 1 0 - 1 8000 5 0
	  ev 1 0 MPI_Recv 1000000 1000001 1000000 - 0 8000 5 0; } > m.tr
	printf '%s\n' 'ranks-per-node 2' 'intra-latency 500ns' \
		'intra-bandwidth 1GB/s' 'eager-threshold trace' >> x.net
	run tr to-ti -M x.net -o ti m.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	grep -q 'send-is-detached-thresh:4041 ' ti/smpirun.sh
	grep -q 'async-small-thresh:4041 ' ti/smpirun.sh
	if command -v smpirun; then
		# rendezvous in both: the sender waits for the receive
		agree x.net m.tr
	fi
	# one rank a node: between nodes only
	echo 'ranks-per-node 1' >> x.net
	run tr to-ti -M x.net -o ti m.tr
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	grep -q 'send-is-detached-thresh:65481 ' ti/smpirun.sh
	# both kinds: the one between nodes, said
	printf '#tr 1\n#meta np=4\n#meta eager.shm=4040\n#meta eager.net=65480\n%s\n' "$EVFIELDS" > m4.tr
	for r in 0 1 2 3; do ev $r 0 MPI_Barrier 0 1 0 - -1 0 -1 0; done >> m4.tr
	echo 'ranks-per-node 2' >> x.net
	run tr to-ti -M x.net -o ti m4.tr
	[ "$status" -eq 0 ]
	[ "$output" = "tr-to-ti: SimGrid has one eager threshold: messages within a node are exported with eager-threshold's 65481 bytes, not intra-eager-threshold's 4041" ]
	grep -q 'send-is-detached-thresh:65481 ' ti/smpirun.sh
	# a trace without the limits: the network file's line
	grep -v '^#meta eager' m.tr > n.tr
	run tr to-ti -M x.net -o ti n.tr
	fails_with 3 "tr-to-ti: x.net:8: eager-threshold trace: the trace has no #meta eager.net"
}

@test "tr-to-ti: MPI_Comm_free or MPI_Comm_disconnect of MPI_COMM_WORLD is bad input, at its line" {
	for op in MPI_Comm_free MPI_Comm_disconnect; do
		{ hdr 2; ev 0 0 MPI_Barrier 0 10 0 - -1 0 -1 0
		  ev 0 1 $op 10 20 0 - -1 0 -1 0
		  ev 1 0 MPI_Barrier 0 10 0 - -1 0 -1 0; } > "$BATS_TEST_TMPDIR/f.tr"
		run stderr_of tr to-ti -o "$BATS_TEST_TMPDIR/ti" "$BATS_TEST_TMPDIR/f.tr"
		[ "$status" -eq 3 ]
		[ "$output" = "tr-to-ti: $BATS_TEST_TMPDIR/f.tr:5: rank 0 seq 1: $op of MPI_COMM_WORLD" ]
	done
}
