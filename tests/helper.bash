# Loaded by every tests/*.bats: where the programs are, and fixtures.
: "${TR_BIN:=$BATS_TEST_DIRNAME/../bin}"
: "${TR_MPIBIN:=$BATS_TEST_DIRNAME/../build/mpi}"
SAMPLES=$BATS_TEST_DIRNAME/../samples
TOP=$BATS_TEST_DIRNAME/..
export TR_BIN TR_MPIBIN SAMPLES TOP
export PATH="$TR_BIN:$PATH"
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 \
	OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# `run tr cat x` runs $TR_BIN/tr-cat x; anything that is not one of our
# programs goes to the system's tr(1).
tr() {
	if [ $# -gt 0 ] && [ -x "$TR_BIN/tr-$1" ]; then
		local t=$1
		shift
		"$TR_BIN/tr-$t" "$@"
	else
		command tr "$@"
	fi
}

# man_examples PAGE: the commands of man/PAGE's EXAMPLES section as a
# reader copies them (literal blocks and .Dl lines, mdoc's escapes
# undone), so that a test runs the example as the page has it.
man_examples() {
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$TOP/man/$1" |
		sed -n '/^\.Bd/,/^\.Ed/p; s/^\.Dl //p' | grep -v '^\.' |
		sed 's/\\-/-/g; s/\\e/\\/g; s/\\(dq/"/g'
}

# The #fields line of ev records, for here-doc fixtures.
EVFIELDS=$(printf '#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot')

# ev RANK SEQ OP START END [CPU SITE PEER BYTES TAG COMM REQ ROOT]
ev() {
	printf 'ev\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$1" "$2" "$3" "$4" "$5" "${6:-0}" "${7:-a.out+0x10}" \
		"${8:--1}" "${9:-0}" "${10:--1}" "${11:-0}" "${12:--1}" "${13:--1}"
}

# The #fields line of fail records and one: the columns of ev, then
# failrec RANK SEQ OP START END CPU SITE PEER BYTES TAG COMM REQ ROOT ERR
FAILFIELDS=$(printf '#fields\tfail\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot\terr')
failrec() {
	printf 'fail\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
}

# A small valid trace header: hdr NP
hdr() {
	printf '#tr 1\n#meta np=%s\n%s\n' "$1" "$EVFIELDS"
}

# Two ranks whose solve, from the last MPI_Init's end to the first
# MPI_Finalize's start, is 3 to 5 us of a 7 us run.
solve_trace() {
	hdr 2
	ev 0 0 MPI_Init 0 1000
	ev 1 0 MPI_Init 0 3000
	ev 0 1 MPI_Barrier 3500 4000
	ev 1 1 MPI_Barrier 3600 4000
	ev 0 2 MPI_Finalize 5000 7000
	ev 1 2 MPI_Finalize 6000 7000
}

# Runs the program of TR_BIN named $1 with arguments $2... and a
# terminal for stdin, script(1)'s; stdout and stderr into $output.
# The timeout ends a program that waits for input from it.
on_tty() {
	local prog=$1
	shift
	run timeout 20 script -qec "$TR_BIN/tr-$prog $*" /dev/null < /dev/null
}

# Asserts that the last `run` failed with status $1 and a one-line
# message on stderr matching the pattern $2 (bats 1.8: stderr mixed into
# $output unless --separate-stderr, so match $output).
fails_with() {
	[ "$status" -eq "$1" ] || { echo "status $status, want $1: $output"; return 1; }
	[[ "$output" == *$2* ]] || { echo "output lacks '$2': $output"; return 1; }
}

# Runs a command with its stdout dropped: `run stderr_of tr cat x` leaves
# in $output only what it said on stderr, to check a message whole.
stderr_of() {
	"$@" 2>&1 >/dev/null
}

# Ranks 0 and 1 of 3 make a group communicator (2) from world, then all
# three an intercommunicator (3) of local groups {0,1} and {2}, then a
# world barrier; rank 0 waited 5 ms in each of the first two, for rank
# 1 and for rank 2, with no computation between (tr-nsim, tr-to-ti).
newcomm_trace() {
	hdr 3
	printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1; do printf 'comm\t%s\t2\t2\t0-1\n' $r; done
	for r in 0 1 2; do printf 'comm\t%s\t3\t3\t0-2\n' $r; done
	ev 0 0 MPI_Comm_create_group 0 5000000 0 - -1 0 -1 0 2
	ev 1 0 MPI_Comm_create_group 4999000 5000000 0 - -1 0 -1 0 2
	ev 0 1 MPI_Intercomm_create 5000000 10000000 0 - -1 0 -1 2 3
	ev 1 1 MPI_Intercomm_create 5000000 10000000 0 - -1 0 -1 2 3
	ev 2 0 MPI_Intercomm_create 9999000 10000000 0 - -1 0 -1 1 3
	for r in 0 1 2; do
		ev $r 2 MPI_Barrier 10000000 10001000 0 - -1 0 -1 0
	done
}

# Ranks 0 and 1 make a window and free it, each after computing 1 us.
# Rank 0 came first to both and recorded its waiting too; rank 1 came
# last and recorded little more than each call's own cost: 200 and 40 ns.
# win_trace K multiplies every time by K (smpirun prints microseconds).
win_trace() {
	local k=${1:-1}
	hdr 2
	ev 0 0 MPI_Win_allocate $((1000 * k)) $((1500 * k)) $((1000 * k)) - -1 4096 0 0
	ev 1 0 MPI_Win_allocate $((1300 * k)) $((1500 * k)) $((1000 * k)) - -1 4096 0 0
	ev 0 1 MPI_Win_free $((1600 * k)) $((1700 * k)) $((100 * k)) - -1 0 0 0
	ev 1 1 MPI_Win_free $((1660 * k)) $((1700 * k)) $((160 * k)) - -1 0 0 0
}

# Three ranks duplicate world twice, with no computation between: the
# least durations are rank 1's 300 ns, then rank 0's 50. Then rank 2
# alone makes a window on a communicator of itself (3), in 7000 ns.
# makes_trace K multiplies every time by K.
makes_trace() {
	local k=${1:-1}
	hdr 3
	printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	printf 'comm\t2\t3\t1\t2\n'
	ev 0 0 MPI_Comm_dup 0 $((900 * k)) 0 - -1 0 -1 0
	ev 1 0 MPI_Comm_dup $((600 * k)) $((900 * k)) 0 - -1 0 -1 0
	ev 2 0 MPI_Comm_dup $((300 * k)) $((900 * k)) 0 - -1 0 -1 0
	ev 0 1 MPI_Comm_dup $((900 * k)) $((950 * k)) 0 - -1 0 -1 0
	ev 1 1 MPI_Comm_dup $((900 * k)) $((980 * k)) 0 - -1 0 -1 0
	ev 2 1 MPI_Comm_dup $((900 * k)) $((970 * k)) 0 - -1 0 -1 0
	ev 2 2 MPI_Win_create $((970 * k)) $((7970 * k)) 0 - -1 4096 0 3
}

# Two ranks make two windows (0 and 1) on a duplicate of the world (2)
# and free the duplicate ($1 = before) before the windows' fences and
# frees, as OpenCoarrays does at its end, or ($1 = after) after them,
# an MPI_Pcontrol (as local) in its other place; rank 1 computes 5 us
# before the first fence, 3 us before the second.
winfree_trace() {
	local r w
	hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1; do
		w=$((r * 5000))
		printf 'comm\t%s\t2\t2\t0-1\n' $r
		ev $r 0 MPI_Comm_dup 0 1000 0 d@c.c:1 -1 0 -1 0 2
		ev $r 1 MPI_Win_create 1000 2000 0 w@c.c:2 -1 8 0 2
		ev $r 2 MPI_Win_allocate 2000 3000 0 w@c.c:3 -1 8 1 2
		if [ "$1" = before ]; then
			ev $r 3 MPI_Comm_free 3000 3100 0 f@c.c:4 -1 0 -1 2
		else
			ev $r 3 MPI_Pcontrol 3000 3100 0 b@c.c:4 -1 0 1
		fi
		ev $r 4 MPI_Win_fence $((3100 + w)) 9000 $w e@c.c:5 -1 0 0 2
		ev $r 5 MPI_Put 9000 9100 0 p@c.c:6 $((1 - r)) 8 0 2
		ev $r 6 MPI_Win_fence 9100 10000 0 e@c.c:7 -1 0 0 2
		ev $r 7 MPI_Win_free 10000 11000 0 x@c.c:8 -1 0 0 2
		ev $r 8 MPI_Win_fence $((11000 + w * 3 / 5)) 14000 $((w * 3 / 5)) e@c.c:9 -1 0 1 2
		ev $r 9 MPI_Win_free 14000 15000 0 x@c.c:10 -1 0 1 2
		if [ "$1" = before ]; then
			ev $r 10 MPI_Pcontrol 15000 15100 0 b@c.c:11 -1 0 1
		else
			ev $r 10 MPI_Comm_free 15000 15100 0 f@c.c:11 -1 0 -1 2
		fi
	done
}

# Two ranks, twice: each makes a duplicate of the world (2, then 3), a
# persistent receive on it from the other (MPI_Recv_init) and a send to
# it, frees the duplicate ($1 = before) before it starts and waits for
# the receive, as MPI allows, or ($1 = after) after, an MPI_Pcontrol
# (as local) in its other place; rank 1 computes 5 us before its send.
# With $2 = same, the second duplicate has the first one's id, 2; with
# $3 = freed, the receive is freed after the waits (MPI_Request_free
# with the duplicate's id, as tr-record writes it).
pers_trace() {
	local r i c t w s
	hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1; do
		w=$((r * 5000)) s=0
		for i in 0 1; do
			c=$((2 + i)) t=$((i * 20000))
			[ "$2" = same ] && c=2
			printf 'comm\t%s\t%s\t2\t0-1\n' $r $c
			ev $r $((s++)) MPI_Comm_dup $t $((t + 1000)) 0 d@p.c:1 -1 0 -1 0 $c
			ev $r $((s++)) MPI_Recv_init $((t + 1000)) $((t + 1100)) 0 i@p.c:2 $((1 - r)) 4 7 $c
			ev $r $((s++)) MPI_Isend $((t + 1100 + w)) $((t + 1200 + w)) $w s@p.c:3 $((1 - r)) 4 7 $c $((10 + 2 * i))
			if [ "$1" = before ]; then
				ev $r $((s++)) MPI_Comm_free $((t + 1200 + w)) $((t + 1300 + w)) 0 f@p.c:4 -1 0 -1 $c
			else
				ev $r $((s++)) MPI_Pcontrol $((t + 1200 + w)) $((t + 1300 + w)) 0 b@p.c:4 -1 0 1
			fi
			ev $r $((s++)) MPI_Start:Recv_init $((t + 1300 + w)) $((t + 1400 + w)) 0 t@p.c:5 -1 4 7 $c $((11 + 2 * i))
			ev $r $((s++)) MPI_Wait $((t + 1400 + w)) $((t + 8000)) 0 w@p.c:6 $((1 - r)) 4 7 $c $((11 + 2 * i))
			ev $r $((s++)) MPI_Wait $((t + 8000)) $((t + 8100)) 0 w@p.c:7 $((1 - r)) 4 7 $c $((10 + 2 * i))
			[ "${3:-}" = freed ] &&
			    ev $r $((s++)) MPI_Request_free $((t + 8100)) $((t + 8100)) 0 r@p.c:9 -1 0 -1 $c
			if [ "$1" = before ]; then
				ev $r $((s++)) MPI_Pcontrol $((t + 8100)) $((t + 8200)) 0 b@p.c:8 -1 0 1
			else
				ev $r $((s++)) MPI_Comm_free $((t + 8100)) $((t + 8200)) 0 f@p.c:8 -1 0 -1 $c
			fi
		done
	done
}

# A trace of NP ranks that make a communicator of all (MPI_Comm_dup),
# reduce on it (rank r enters 10r ns late) and free it (FREEOP, default
# MPI_Comm_free), ITERS times: commloop_trace NP ITERS [FREEOP]
commloop_trace() {
	awk -v np="$1" -v iters="$2" -v freeop="${3:-MPI_Comm_free}" -v fields="$EVFIELDS" '
	function ev(r, s, op, t0, t1, bytes, comm, req) {
		printf "ev\t%d\t%d\t%s\t%d\t%d\t100\tgen+0x10\t-1\t%d\t-1\t%d\t%d\t-1\n",
		    r, s, op, t0, t1, bytes, comm, req
	}
	BEGIN {
		printf "#tr 1\n#meta np=%d\n%s\n", np, fields
		printf "#fields\tcomm\trank\tid\tsize\tmembers\n"
		for (i = 0; i < iters; i++)
			for (r = 0; r < np; r++) {
				t = i * 10000
				printf "comm\t%d\t%d\t%d\t0-%d\n", r, 2 + i, np, np - 1
				ev(r, 3 * i, "MPI_Comm_dup", t, t + 1000, 0, 0, 2 + i)
				ev(r, 3 * i + 1, "MPI_Allreduce", t + 2000 + 10 * r, t + 3000, 8, 2 + i, -1)
				ev(r, 3 * i + 2, freeop, t + 4000, t + 5000, 0, 2 + i, -1)
			}
	}'
}

# Two ranks, each with two persistent receives (tags 7 and 8) on a
# duplicate of the world, id 2, freed before they are started: the first
# is started, waited for and freed (MPI_Request_free naming id 2), then
# the second, which still needs the communicator. Rank 0 computes 1 us
# before its first send.
pers2_trace() {
	local r p w
	hdr 2; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	for r in 0 1; do
		p=$((1 - r)) w=$((1000 * p))
		printf 'comm\t%s\t2\t2\t0-1\n' $r
		ev $r 0 MPI_Comm_dup 0 10 0 d@q.c:1 -1 0 -1 0 2
		ev $r 1 MPI_Recv_init 10 20 0 i@q.c:2 $p 4 7 2
		ev $r 2 MPI_Recv_init 20 30 0 i@q.c:3 $p 4 8 2
		ev $r 3 MPI_Isend $((w + 30)) $((w + 40)) $w s@q.c:4 $p 4 7 2 10
		ev $r 4 MPI_Isend $((w + 40)) $((w + 50)) 0 s@q.c:5 $p 4 8 2 11
		ev $r 5 MPI_Comm_free $((w + 50)) $((w + 60)) 0 f@q.c:6 -1 0 -1 2
		ev $r 6 MPI_Start:Recv_init $((w + 60)) $((w + 70)) 0 t@q.c:7 $p 4 7 2 12
		ev $r 7 MPI_Wait $((w + 70)) $((w + 80)) 0 w@q.c:8 $p 4 7 2 12
		ev $r 8 MPI_Request_free $((w + 80)) $((w + 90)) 0 r@q.c:9 -1 0 -1 2
		ev $r 9 MPI_Start:Recv_init $((w + 90)) $((w + 100)) 0 t@q.c:10 $p 4 8 2 13
		ev $r 10 MPI_Wait $((w + 100)) $((w + 110)) 0 w@q.c:11 $p 4 8 2 13
		ev $r 11 MPI_Request_free $((w + 110)) $((w + 120)) 0 r@q.c:12 -1 0 -1 2
		ev $r 12 MPI_Wait $((w + 120)) $((w + 130)) 0 w@q.c:13 $p 4 7 2 10
		ev $r 13 MPI_Wait $((w + 130)) $((w + 140)) 0 w@q.c:14 $p 4 8 2 11
	done
}

# A trace of NP ranks in pairs, ITERS times: a communicator of all made
# (MPI_Comm_dup), a persistent receive from the partner made on it
# (MPI_Recv_init), a message sent to the partner on it, the communicator
# freed, then the receive started, both waited for, and the receive
# freed (MPI_Request_free, with the id, as tr-record writes it):
# persloop_trace NP ITERS
persloop_trace() {
	awk -v np="$1" -v iters="$2" -v fields="$EVFIELDS" '
	function ev(r, s, op, t0, t1, peer, bytes, tag, comm, req) {
		printf "ev\t%d\t%d\t%s\t%d\t%d\t100\tgen+0x10\t%d\t%d\t%d\t%d\t%d\t-1\n",
		    r, s, op, t0, t1, peer, bytes, tag, comm, req
	}
	BEGIN {
		printf "#tr 1\n#meta np=%d\n%s\n", np, fields
		printf "#fields\tcomm\trank\tid\tsize\tmembers\n"
		for (i = 0; i < iters; i++)
			for (r = 0; r < np; r++) {
				t = i * 10000; s = 8 * i; c = 2 + i
				p = r % 2 ? r - 1 : r + 1
				printf "comm\t%d\t%d\t%d\t0-%d\n", r, c, np, np - 1
				ev(r, s, "MPI_Comm_dup", t, t + 1000, -1, 0, -1, 0, c)
				ev(r, s + 1, "MPI_Recv_init", t + 1000, t + 1100, p, 4, 7, c, -1)
				ev(r, s + 2, "MPI_Isend", t + 1100 + 10 * r, t + 1200 + 10 * r, p, 4, 7, c, 2 * i)
				ev(r, s + 3, "MPI_Comm_free", t + 1400, t + 1500, -1, 0, -1, c, -1)
				ev(r, s + 4, "MPI_Start:Recv_init", t + 1500, t + 1600, p, 4, 7, c, 2 * i + 1)
				ev(r, s + 5, "MPI_Wait", t + 1600, t + 3000, p, 4, 7, c, 2 * i + 1)
				ev(r, s + 6, "MPI_Wait", t + 3000, t + 3100, p, 4, 7, c, 2 * i)
				ev(r, s + 7, "MPI_Request_free", t + 3100, t + 3200, -1, 0, -1, c, -1)
			}
	}'
}

# Peak RSS in KB of tr-NAME reading commloop_trace NP ITERS [FREEOP]
# (persloop_trace NP ITERS when the fourth argument is pers) from a pipe
# (a file is read ahead into a ring that takes up to ~5 MB as the file
# grows), with ASan's quarantine of freed memory off; fails if it does.
commloop_rss() {
	local gen=commloop_trace
	[ "${4:-}" = pers ] && gen=persloop_trace
	"$gen" "$2" "$3" ${4:+"$4"} | ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
	    /usr/bin/time -f %M -o "rss.$1.$3" "$TR_BIN/tr-$1" > "out.$1.$3" || return 1
	tail -n 1 "rss.$1.$3"
}

# colbcast NP [ODD]: NP ranks on MPI_Dims_create's 2-D grid, each
# column a communicator (id 2, made by an MPI_Comm_split) in which rank
# 0 broadcasts 1 KiB four times down a binomial tree of blocking sends,
# children in descending order. With ODD the root of each column also
# sends to its last rank before the first broadcast.
colbcast() {
	awk -v np="$1" -v odd="${2:-0}" 'BEGIN {
		OFS = "\t"
		for (f = 1; f * f <= np; f++) if (np % f == 0) q = f
		rows = np / q
		print "#tr 1"; print "#meta np=" np; print "#meta clock=synthetic"
		print "#fields", "ev", "rank", "seq", "op", "start", "end", "cpu", "site", "peer", "bytes", "tag", "comm", "req", "root"
		print "#fields", "comm", "rank", "id", "size", "members"
		for (r = 0; r < np; r++) {
			j = r % q; c = int(r / q); t = 1000 + r; s = 0
			print "ev", r, s++, "MPI_Init", t, t + 1000000, 0, "cb+0x10", -1, 0, -1, 0, -1, -1; t += 1000000
			print "ev", r, s++, "MPI_Comm_split", t, t + 5000, 0, "cb+0x20", -1, 0, -1, 0, 2, -1; t += 5000
			print "comm", r, 2, rows, j "-" j + (rows - 1) * q ":" q
			for (it = 0; it < 4; it++) {
				t += 100000
				low = rows
				if (c > 0) {
					for (low = 1; c % (2 * low) == 0; low *= 2) ;
					print "ev", r, s++, "MPI_Recv", t, t + 2000, 0, "cb+0x30", (c - low) * q + j, 1024, 7, 2, -1, -1; t += 2000
				}
				n = 0
				if (odd && it == 0 && c == 0) ch[n++] = rows - 1
				for (b = low / 2; b >= 1; b /= 2) if (c + b < rows && b < low) ch[n++] = c + b
				for (k = 0; k < n; k++) {
					print "ev", r, s++, "MPI_Send", t, t + 1000, 0, "cb+0x40", ch[k] * q + j, 1024, 7, 2, -1, -1; t += 1000
				}
			}
			print "ev", r, s++, "MPI_Finalize", t, t + 1000, 0, "cb+0x50", -1, 0, -1, 0, -1, -1
		}
	}'
}

# objreduce P: each rank exchanges with rank - 1 and rank + 1 by Irecv,
# Isend and Waitall (one record a request; the tag the side the message
# goes to, 0 left and 1 right), then sends its part up
# mpi4py's reduce of objects, which does not stop after its send: at
# each level k, rank XOR 2^k gets it from a rank with bit k set, and a
# rank with bit k clear receives from rank | 2^k where there is one.
objreduce() {
	local P=$1 r s t k q n
	hdr "$P"
	for r in $(seq 0 $((P - 1))); do
		ev $r 0 MPI_Init 0 1000
		s=1; t=2000; n=0
		for k in Irecv:1 Isend:2; do
			for q in $((r - 1)) $((r + 1)); do
				[ $q -ge 0 ] && [ $q -lt "$P" ] || continue
				n=$((n + 1))
				ev $r $s MPI_${k%:*} $t $((t + 10)) 0 h@o.py:${k#*:} $q 64 \
				    $(((q > r) == ${k#*:} - 1)) 0 $n
				s=$((s + 1)); t=$((t + 100))
			done
		done
		for k in $(seq 1 $n); do
			ev $r $s MPI_Waitall $t $((t + 50)) 0 h@o.py:3 -1 0 -1 0 $k
		done
		s=$((s + 1)); t=$((t + 1000))
		for k in 1 2 4 8 16 32; do
			[ $k -lt "$P" ] || break
			if [ $((r & k)) -ne 0 ]; then
				ev $r $s MPI_Send $t $((t + 10)) 0 s@o.py:4 $((r ^ k)) 8 1 0
			elif [ $((r | k)) -lt "$P" ]; then
				ev $r $s MPI_Recv $t $((t + 10)) 0 r@o.py:5 $((r | k)) 8 1 0
			else
				continue
			fi
			s=$((s + 1)); t=$((t + 100))
		done
		ev $r $s MPI_Finalize $t $((t + 10))
	done
}
