#!/bin/sh
# Peak RSS of every program against the length of its input:
# each case is run on an input of length L and on one of the same ranks
# and keys at 8L, side by side, and printed as one line
#   program  case  RSS at L (KB)  RSS at 8L (KB)  ratio
# A ratio near 1 is memory bounded by ranks and keys; the key-growth
# cases (marked "keys") grow what the tool legitimately keys by, or what
# it should not, with the length held.
#   sh bench/memory.sh [ITERS]     (default 1000 tr-gen iterations for L)
# MPI=no leaves out the recorded runs (tr-record, real traces).
set -eu
cd "$(dirname "$0")/.."
top=$PWD
B=$(cd "${TR_BIN:-bin}" && pwd)
M=$top/build/mpi
I=${1:-1000}
w=${TMPDIR:-/tmp}/tr-bench-memory.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
cd "$w"
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 \
	OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# A trace of np ranks in pairs: nonblocking exchanges completed by
# MPI_Waitall, MPI_Wait and MPI_Waitany in turn, then an MPI_Allreduce.
# ps call sites and pt tags in turn (1: the same every iteration);
# newcomm=1 creates, uses and frees a communicator every iteration.
gen() { # iters sites tags newcomm
	awk -v np=16 -v iters="$1" -v ps="$2" -v pt="$3" -v newcomm="$4" '
	function ev(r, s, op, t0, t1, site, peer, bytes, tag, comm, req) {
		printf "ev\t%d\t%d\t%s\t%d\t%d\t100\tgen+0x%x\t%d\t%d\t%d\t%d\t%d\t-1\n",
		    r, s, op, t0, t1, site, peer, bytes, tag, comm, req
	}
	BEGIN {
		printf "#tr 1\n#meta np=%d\n#meta app=memgen\n", np
		printf "#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot\n"
		printf "#fields\tcomm\trank\tid\tsize\tmembers\n"
		for (r = 0; r < np; r++) {
			ev(r, 0, "MPI_Init", 0, 1000, 16, -1, 0, -1, 0, -1)
			seq[r] = 1
			if (newcomm)
				continue
			printf "comm\t%d\t2\t%d\t0-%d\n", r, np, np - 1
			ev(r, seq[r]++, "MPI_Comm_dup", 2000, 3000, 32, -1, 0, -1, 0, 2)
		}
		for (i = 0; i < iters; i++) {
			T = 10000 + i * 20000
			b = 4096 * (1 + i % ps)
			tg = i % pt
			cm = newcomm ? 2 + i : 2
			for (r = 0; r < np; r++) {
				p = r % 2 ? r - 1 : r + 1
				ev(r, seq[r]++, "MPI_Irecv", T + 100, T + 200, b + 1, p, 64, tg, 0, 0)
				ev(r, seq[r]++, "MPI_Isend", T + 300, T + 400, b + 2, p, 64, tg, 0, 1)
				if (i % 3 == 0) {
					s = seq[r]++
					ev(r, s, "MPI_Waitall", T + 500, T + 1500, b + 3, -1, 0, -1, 0, 0)
					ev(r, s, "MPI_Waitall", T + 500, T + 1500, b + 3, -1, 0, -1, 0, 1)
				} else if (i % 3 == 1) {
					ev(r, seq[r]++, "MPI_Wait", T + 500, T + 1000, b + 4, -1, 0, -1, 0, 1)
					ev(r, seq[r]++, "MPI_Wait", T + 1100, T + 1500, b + 5, p, 64, tg, 0, 0)
				} else {
					ev(r, seq[r]++, "MPI_Waitany", T + 500, T + 1000, b + 6, p, 64, tg, 0, 0)
					ev(r, seq[r]++, "MPI_Waitany", T + 1100, T + 1500, b + 6, -1, 0, -1, 0, 1)
				}
				if (newcomm) {
					printf "comm\t%d\t%d\t%d\t0-%d\n", r, cm, np, np - 1
					ev(r, seq[r]++, "MPI_Comm_dup", T + 2000, T + 3000, b + 7, -1, 0, -1, 0, cm)
				}
				ev(r, seq[r]++, "MPI_Allreduce", T + 4000, T + 5000, b + 8, -1, 8, -1, cm, -1)
				if (newcomm)
					ev(r, seq[r]++, "MPI_Comm_free", T + 6000, T + 7000, b + 9, -1, 0, -1, cm, -1)
			}
		}
		T = 10000 + iters * 20000
		for (r = 0; r < np; r++)
			ev(r, seq[r]++, "MPI_Finalize", T, T + 1000, 48, -1, 0, -1, 0, -1)
	}'
}

# An strace -f -ttt -T log of n calls: pid-changing (newpid=1: a new
# child every 8 calls, with its clone and exit) and path-changing
# (newpath=1: every open a file never opened before).
strace_log() { # n newpid newpath
	awk -v n="$1" -v np="$2" -v nf="$3" 'BEGIN {
		t = 1700000000; pid = 100
		for (i = 0; i < n; i++) {
			t += 0.000010
			if (np && i % 8 == 0) {
				printf "100 %.6f clone(child_stack=NULL, flags=SIGCHLD) = %d <0.000050>\n", t, 101 + i
				if (pid != 100)
					printf "%d %.6f +++ exited with 0 +++\n", pid, t
				pid = 101 + i
			}
			f = nf ? "/tmp/f." i : "/tmp/f"
			k = i % 4
			if (k == 0)
				printf "%d %.6f openat(AT_FDCWD, \"%s\", O_RDONLY) = 3 <0.000004>\n", pid, t, f
			else if (k == 1)
				printf "%d %.6f read(3, \"abc\", 4096) = 3 <0.000002>\n", pid, t
			else if (k == 2)
				printf "%d %.6f write(1, \"abc\", 3) = 3 <0.000003>\n", pid, t
			else
				printf "%d %.6f close(3) = 0 <0.000001>\n", pid, t
		}
	}'
}

# runs FILE COUNT: COUNT runs of a profile, each a section of its own.
runs() {
	awk -v n="$2" 'BEGIN { while ((getline l < ARGV[1]) > 0) a[m++] = l
	    for (k = 0; k < n; k++) for (j = 0; j < m; j++) {
		print a[j]; if (j == 0) print "#meta run=" k } }' "$1"
}

# ---- inputs, each at L (.1) and 8L (.8) ----
for s in 1 8; do
	i=$((I * s))
	"$B/tr-gen" -P stencil2d -n 16 -i "$i" -j 0.05 -a 5 > s2.$s
	gzip -1 < s2.$s > s2gz.$s
	"$B/tr-gen" -P stencil3d -n 27 -i $((i / 2)) -j 0.1 > s3.$s
	"$B/tr-gen" -P alltoall -n 8 -i $((i * 16)) -j 0.05 > a2a.$s
	"$B/tr-gen" -P master -n 8 -i $((i * 4)) > mst.$s
	"$B/tr-gen" -P ring -n 8 -i $((i * 16)) > ring.$s
	gen $((i * 2)) 1 1 0 > wait.$s
	# keys that grow with the length
	gen $((i * 2)) 1 $((i * 2)) 0 > tags.$s
	gen $((i * 2)) $((i * 2)) 1 0 > sites.$s
	gen $((i * 2)) 1 1 1 > comms.$s
	"$B/tr-delta" s2.$s > delta.$s
	"$B/tr-profile" s2.$s > prof.$s
	strace_log $((i * 200)) 0 0 > strace.$s
	strace_log $((i * 200)) 1 1 > stracenew.$s
	"$B/tr-from-strace" strace.$s > sys.$s
done
# Runs of one profile appended (I and 8I runs) for tr-mean and tr-diff.
runs prof.1 "$I" > pruns.1
runs prof.1 $((8 * I)) > pruns.8
# The ranks grown 8 times, the records held: stencil2d on 16 ranks, 8I
# iterations, against 128 ranks, I iterations.
"$B/tr-gen" -P stencil2d -n 16 -i $((I * 8)) -j 0.05 -a 5 > ranks.1
"$B/tr-gen" -P stencil2d -n 128 -i "$I" -j 0.05 -a 5 > ranks.8

# Models of stencil2d fitted on 4, 9, 16 and 25 ranks, for tr-extrap -T
# with the 25-rank trace at L and 8L, and tr-accuracy.
for n in 4 9 16 25; do
	"$B/tr-gen" -P stencil2d -n $n -i 200 -j 0.05 > g.tr
	"$B/tr-delta" -s g.tr
	"$B/tr-delta" g.tr | "$B/tr-hist" -p -t delta -f wall -k key -b 20 |
	    "$B/tr-hist" -t delta -f cpu -k key -b 20
	"$B/tr-stat" -s g.tr | "$B/tr-filter" 'type != "cmat"'
done > fitin.1 2>/dev/null
cat fitin.1 fitin.1 fitin.1 fitin.1 fitin.1 fitin.1 fitin.1 fitin.1 > fitin.8
"$B/tr-fit" -i fitin.1 > models.tr 2>/dev/null
"$B/tr-extrap" -n 25 models.tr > pred.tr
for s in 1 8; do
	"$B/tr-gen" -P stencil2d -n 25 -i $((I * s)) -j 0.05 > g25.$s
	{ "$B/tr-delta" -s g25.$s; "$B/tr-stat" -s g25.$s; cat delta.$s; } > meas.$s
done

# ---- the sweep ----
# rss CMD...: peak RSS in KB of CMD, its output thrown away; @ in an
# argument stands for the input file.
rss() {
	f=$1
	shift
	for a do
		shift
		case $a in
		*@*) a=$(printf '%s' "$a" | sed "s|@|$f|g") ;;
		esac
		set -- "$@" "$a"
	done
	if ! /usr/bin/time -f %M -o rss.out "$@" > /dev/null 2> err.out; then
		echo "failed: $* ($(head -c 200 err.out))" >&2
	fi
	tail -n 1 rss.out
}
# line PROGRAM CASE RSS-AT-L RSS-AT-8L
line() {
	printf '%-20s %-10s %8s %8s %6.2f\n' "$1" "$2" "$3" "$4" \
	    "$(echo "$4 / $3" | bc -l)"
}
# row PROGRAM CASE CMD...: the line of one case.
row() {
	p=$1 c=$2
	shift 2
	line "$p" "$c" "$(rss "$c.1" "$@")" "$(rss "$c.8" "$@")"
}

printf '%-20s %-10s %8s %8s %6s\n' program case 'L KB' '8L KB' ratio
for c in s2 s2gz s3 a2a mst ring wait tags sites comms ranks; do
	row tr-cat "$c" "$B/tr-cat" @
	row tr-cat-m "$c" "$B/tr-cat" -m @
	row tr-delta "$c" "$B/tr-delta" @
	row tr-delta-s "$c" "$B/tr-delta" -s @
	row tr-stat-s "$c" "$B/tr-stat" -s @
	row tr-profile "$c" "$B/tr-profile" @
	row tr-waits "$c" "$B/tr-waits" @
	row tr-filter "$c" "$B/tr-filter" 'rank == 0 || op ~ "Wait"' @
	row tr-json "$c" "$B/tr-json" @
	row tr-to-chrome "$c" "$B/tr-to-chrome" -q @
	row tr-symbolize "$c" "$B/tr-symbolize" @
	row tr-nsim "$c" "$B/tr-nsim" @
	row tr-to-ti "$c" "$B/tr-to-ti" -o @.ti @
	row tr-to-ti-spool0 "$c" env TR_SPOOL_MEM=0 "$B/tr-to-ti" -o @.ti0 @
	row tr-plot "$c" "$B/tr-plot" @
	row tr-report "$c" "$B/tr-report" @
	row tr-runs-add "$c" "$B/tr-runs" -d @.store add @
done
row tr-hist delta "$B/tr-hist" -p -t delta -f wall -k key @
row tr-hist-m delta "$B/tr-hist" -m -t delta -f wall -k key @
row tr-json delta "$B/tr-json" @
row tr-extrap-T g25 "$B/tr-extrap" -T -n 64 models.tr @
row tr-accuracy meas "$B/tr-accuracy" pred.tr @
row tr-fit fitin "$B/tr-fit" -i @
row tr-mean pruns "$B/tr-mean" @
row tr-diff pruns "$B/tr-diff" @ @
row tr-from-strace strace "$B/tr-from-strace" @
row tr-from-strace stracenew "$B/tr-from-strace" @
row tr-filter sys "$B/tr-filter" 'call == "read"' @
row tr-jobsh strace env TR_JOBS=jobs.tr "$B/tr-jobsh" -c 'cat "$1"' sh @

[ "${MPI:-yes}" = yes ] || exit 0
# ---- recorded runs: the recorder's writer, and real traces ----
# stencil (nonblocking halo, MPI_Waitall, MPI_Allreduce) on 4 ranks and
# the CG solver with its phases on 2, at L and 8L iterations. RSS of
# mpirun is the largest of its processes, a rank with the recorder.
# 2I and 4I iterations make some MB of trace, past the readers' floor.
recrss() { # ARGS...: peak RSS of mpirun ARGS
	/usr/bin/time -f %M -o rss.out mpirun "$@" > /dev/null 2>&1 ||
	    echo "failed: mpirun $*" >&2
	tail -n 1 rss.out
}
st1=$(recrss -np 4 "$B/tr-record" -o st.1.d "$M/stencil" 256 $((2 * I)))
st8=$(recrss -np 4 "$B/tr-record" -o st.8.d "$M/stencil" 256 $((16 * I)))
cg1=$(recrss -np 2 "$B/tr-record" -o cg.1.d "$M/cg" 480 $((4 * I)) phase)
cg8=$(recrss -np 2 "$B/tr-record" -o cg.8.d "$M/cg" 480 $((32 * I)) phase)
# examples/commfree: two communicators made and freed every iteration,
# 4 ranks, 2I and 16I iterations (a recorder that kept them grew).
cf1=$(recrss -np 4 "$B/tr-record" -o cf.1.d "$M/commfree" $((2 * I)))
cf8=$(recrss -np 4 "$B/tr-record" -o cf.8.d "$M/commfree" $((16 * I)))
# pers: each iteration's persistent receive made on the communicator,
# started after its free, then freed: the replays keep each such
# communicator until its MPI_Request_free (a communicator kept to the
# end of the section would be a key that grows).
mpirun -np 4 "$B/tr-record" -o pf.1.d "$M/commfree" $((2 * I)) pers > /dev/null 2>&1
mpirun -np 4 "$B/tr-record" -o pf.8.d "$M/commfree" $((16 * I)) pers > /dev/null 2>&1
line tr-record stencil "$st1" "$st8"
line tr-record cg "$cg1" "$cg8"
line tr-record commfree "$cf1" "$cf8"
for s in 1 8; do
	# the per-rank files one after the other, and merged in time order
	cat st.$s.d/*.tr.gz > realcat.$s
	"$B/tr-cat" -m st.$s.d/*.tr.gz | gzip -1 > real.$s
	"$B/tr-cat" -m cg.$s.d/*.tr.gz > cg.$s
	"$B/tr-cat" -m cf.$s.d/*.tr.gz > cf.$s
	"$B/tr-cat" -m pf.$s.d/*.tr.gz > pf.$s
done
mpirun -np 2 "$B/tr-bench" -s 8:512 -b 100us -T 1 > p2.tr 2> /dev/null
for c in real cg; do
	row tr-cat-m "$c" "$B/tr-cat" -m @
	row tr-delta "$c" "$B/tr-delta" @
	row tr-stat-s "$c" "$B/tr-stat" -s @
	row tr-profile "$c" "$B/tr-profile" @
	row tr-waits "$c" "$B/tr-waits" @
	row tr-symbolize "$c" "$B/tr-symbolize" @
	row tr-nsim "$c" "$B/tr-nsim" @
	row tr-to-ti "$c" "$B/tr-to-ti" -o @.ti @
	row tr-plot "$c" "$B/tr-plot" @
	row tr-report "$c" "$B/tr-report" @
done
for c in cf pf; do
	row tr-waits "$c" "$B/tr-waits" @
	row tr-nsim "$c" "$B/tr-nsim" @
	row tr-to-ti-spool0 "$c" env TR_SPOOL_MEM=0 "$B/tr-to-ti" -o @.ti0 @
done
# Ranks one after the other: the replays spool what precedes a rank's
# turn (tr-waits(1), tr-nsim(1)).
row tr-waits realcat "$B/tr-waits" @
row tr-nsim realcat "$B/tr-nsim" @
for s in 1 8; do
	"$B/tr-barrier-correct" -c phase -N 480 cg.$s > corr.$s
done
row tr-barrier-correct cg "$B/tr-barrier-correct" -c phase -N 480 @
row tr-model corr "$B/tr-model" -i -f "$top/pipelines/cg.model" -P p2.tr @
