#!/bin/sh
# bench/nsim-apps.sh - tr-nsim's predictions against measured runs of real
# applications on 2 ranks of this machine (one node, shared memory), and
# SimGrid's replay of the same traces as a cross-check.
#
# The network is calibrated first, by tr-bench -r: a ping-pong between
# the two ranks (8 B to 2 MiB, best of 5) and their reductions:
#   fit.net    intra-latency and intra-bandwidth: the line alpha + beta*m
#              tr-bench fits to the ping-pong;
#   table.net  intra-time points: the ping-pong's measured times (tr-net(5));
# both with eager-threshold 4041 (Open MPI 4.1's shared memory), the
# reduce-bandwidth tr-bench measured and, with a tr-bench that measures
# the exchange both ways (MPI_Sendrecv), node-bandwidth: 2 m / (t - alpha)
# for its largest size m, t its time and alpha the ping-pong's (tr-net(5));
# NODEBW=no leaves it out. One-sided calls within a node: rma-overhead
# and intra-rma-bandwidth from a recorded run of examples/rmaops.c, as
# tr-net(5) says (the origin copies in its call); RMA=no leaves them out.
# Then each program runs REPEATS times, each time twice: unrecorded
# (tr-record -x every call but MPI_Init and MPI_Finalize, for their
# times) and recorded (tr-record -b 64MiB: no flush before MPI_Finalize;
# a flush in the run stops the other rank too, which no replay holds).
# The span: from the end of the last rank's MPI_Init (MPI_Cart_create
# for the stencil) to the first start of MPI_Finalize. Predicted: the
# same span of tr-nsim's replay of the recorded run, with wall-clock
# gaps (-w), with -w -P (tests and probes that found nothing keep their
# time: hpcc's RandomAccess) and with the recorded CPU time; the error
# is against the recorded span (the model), and for table -w -P also
# against the unrecorded one (what recording adds to the run, which
# the replay keeps: the median prediction against the median unrecorded
# span, since the two spans come from two runs). Cross-check: tr-nsim -w on fit.net with `progress
# background` against smpirun on tr-to-ti -w's export (SimGrid's replay
# moves a rendezvous message once both ends are posted), whole runs.
#
# On this 2-core machine other jobs take cores from the ranks: before
# each run the script waits (up to 20 minutes) for other processes to
# use less than MAXOTHER % of a core (default 10) over 2 s, and retakes
# a run (up to TRIES times, default 10) in which they used more, by
# /proc/stat less the runs' own CPU time. Each line says how much they
# took, and the CPU time of the computation between calls over its wall
# time (below 100 %: I/O, or lost cores). KEEP=1 keeps the work
# directory and every trace.
#
# Programs (skipped when not installed): stencil (this project's, 1024
# 200), hpcc (1x2 grid, N=1000), lammps (in.melt, 4,000 atoms, 250
# steps), gromacs (1,728 SPC waters with PME, 200 steps, no PME rank),
# qe (pw.x, the 2-atom silicon SCF of tests/tr-to-ti.bats), cp2k (the
# water energy of tests/tr-to-ti.bats), mpb (rods.ctl, resolution 32),
# nwchem (examples/inputs/h2o-scf.nw: one-sided, ARMCI-MPI), mpi4py
# (examples/heat.py 512 200, Python), meep (examples/inputs/wg.ctl, the
# Scheme front end of meep-openmpi) and caf (examples/inputs/halo-caf.f90
# at 100,000 cells, 400 iterations, built with OpenCoarrays' caf: puts
# under MPI_Win_lock); the last three are not in the default list.
#   sh bench/nsim-apps.sh [REPEATS [APP ...]]
set -eu
cd "$(dirname "$0")/.."
. bench/span.sh
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
w=${TMPDIR:-/tmp}/tr-bench-apps.$$
mkdir -p "$w"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$w"' EXIT INT TERM
reps=${1:-3}
[ $# -gt 0 ] && shift
apps=${*:-stencil hpcc lammps gromacs qe cp2k mpb nwchem}
maxother=${MAXOTHER:-10}
tries=${TRIES:-10}
hz=$(getconf CLK_TCK)
# every call tr-record knows but MPI_Init and MPI_Finalize
skip=$(sed -n 's/^OP(\(.*\))$/\1/p' rec/ops.h |
    grep -v -x -e Init -e Init_thread -e Finalize | paste -sd, -)
load() {
	cut -d' ' -f1 /proc/loadavg
}
now() {
	date +%s%N
}
# CPU time spent by every process, in clock ticks
busy() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}
# idle: waits (up to 20 minutes) until other processes used less than
# MAXOTHER % of a core over 2 seconds
idle() {
	i=0
	while [ $i -lt 600 ]; do
		a=$(busy)
		sleep 2
		[ $(( ($(busy) - a) * 100 / (2 * hz) )) -lt "$maxother" ] && return 0
		i=$((i + 1))
	done
}
# mpi OUT CMD...: runs CMD on 2 ranks in $d, its output in $d/OUT; sets el
# (wall time, us) and other (the CPU time of other processes meanwhile, in
# % of a core: what they took from the ranks)
mpi() {
	out=$1
	shift
	a=$(busy)
	t0=$(now)
	(cd "$d" && OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1 \
	    /usr/bin/time -f '%U %S' -o "$w/time" \
	    mpirun --allow-run-as-root -np 2 "$@" > "$out" 2>&1) || {
		echo "nsim-apps: failed in $d: $*" >&2
		tail "$d/$out" >&2
		exit 4
	}
	t1=$(now)
	b=$(busy)
	el=$(( (t1 - t0) / 1000 ))
	other=$(awk -v t="$(( b - a ))" -v hz="$hz" -v el="$el" '
	    { printf "%.0f", (t / hz - $1 - $2) * 1e8 / el }' "$w/time")
}

d=$w
try=1
while :; do
	idle
	mpi bench.tr "$B/tr-bench" -r -T 5 -s 8:4MiB
	[ "$other" -ge "$maxother" ] && [ "$try" -lt "$tries" ] || break
	echo "calibration: other processes took $other % of a core: retaken"
	try=$((try + 1))
done
echo "calibration: load $(load), other processes $other % of a core"
: > "$w/rma.net"
if [ "${RMA:-}" != no ]; then
	mpi rmaops.out "$B/tr-record" -b 64MiB -o rmaops "$M/rmaops" 200 65536
	"$B/tr-cat" -m "$w"/rmaops/*.gz | awk -F '\t' '$1 != "ev" || $2 != 0 { next }
	    $4 == "MPI_Win_flush_all" { print "f", $6 - $5 }
	    $4 == "MPI_Put" && $10 == 65536 { print "p", $6 - $5 }' |
	    sort -k1,1 -k2,2n | awk '{ v[$1, ++n[$1]] = $2 } END {
		o = v["f", int((n["f"] + 1) / 2)]; p = v["p", int((n["p"] + 1) / 2)]
		printf "rma-overhead %.0fns\nintra-rma-bandwidth %.0fB/s\n",
		    o, 65536e9 / (p - o) }' > "$w/rma.net"
fi
{
	cat "$w/rma.net"
	printf 'topology crossbar\nranks-per-node 2\neager-threshold 4041\n'
	awk -F '\t' '$1 == "param" && $2 == "MPI_Reduce_local" {
		printf "reduce-bandwidth %.0fB/s\n", 1e9 / $6 }' "$w/bench.tr"
	[ "${NODEBW:-}" = no ] ||
	    awk -F '\t' '$1 == "param" && $2 == "MPI_Send" && $3 == "world" { a = $5 }
		$1 == "benchpt" && $2 == "MPI_Sendrecv" && $3 == "world" { m = $5; t = $6 }
		END { if (m && t > a) printf "node-bandwidth %.0fB/s\n", 2 * m * 1e9 / (t - a) }' "$w/bench.tr"
} > "$w/base.net"
{
	cat "$w/base.net"
	awk -F '\t' '$1 == "param" && $2 == "MPI_Send" && $3 == "world" {
		printf "intra-latency %.0fns\nintra-bandwidth %.0fB/s\n", $5, 1e9 / $6 }' "$w/bench.tr"
} > "$w/fit.net"
{
	cat "$w/base.net"
	awk -F '\t' '$1 == "benchpt" && $2 == "MPI_Send" && $3 == "world" {
		printf "intra-time %s %.0fns\n", $5, $6 }' "$w/bench.tr"
} > "$w/table.net"
echo "fit.net: $(sed -n 's/^intra-\(latency\|bandwidth\) //p; s/^reduce-bandwidth /reduce /p' "$w/fit.net" | tr '\n' ' ')"
echo "table.net: $(sed -n 's/^intra-time //p' "$w/table.net" | tr '\n' ';')"
echo "node: $(grep '^node-bandwidth' "$w/base.net" || echo 'no node-bandwidth')"
echo "one-sided: $(sed -n 's/^\(rma-overhead\|intra-rma-bandwidth\) //p' "$w/rma.net" | tr '\n' ' ')"
awk -F '\t' '$1 == "benchpt" && ($2 == "MPI_Send" || $2 == "MPI_Sendrecv") && $3 == "world" {
	t[$5, $2] = $6; if (!($5 in seen)) { seen[$5] = 1; m[++n] = $5 } }
    END { for (i = 1; i <= n; i++) if ((m[i], "MPI_Sendrecv") in t)
	printf "  %s B: one way %s ns, both ways %s ns\n", m[i], t[m[i], "MPI_Send"], t[m[i], "MPI_Sendrecv"] }' "$w/bench.tr"
{ cat "$w/fit.net"; echo 'progress background'; } > "$w/bg.net"

# setup APP: prepares $w/APP, sets cmd (run there) and first (the call
# whose end starts the span); fails when the program is missing
setup() {
	d=$w/$1
	mkdir -p "$d"
	first='^MPI_Init'
	case $1 in
	stencil)
		[ -x "$M/stencil" ] || return 1
		cmd="$M/stencil 1024 200"
		first='^MPI_Cart_create$' ;;
	hpcc)
		command -v hpcc > /dev/null || return 1
		zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
		    sed -e '11s/^2 /1 /' > "$d/hpccinf.txt"
		cmd=hpcc ;;
	lammps)
		command -v lmp > /dev/null &&
		    [ -f /usr/share/lammps/examples/melt/in.melt ] || return 1
		cp /usr/share/lammps/examples/melt/in.melt "$d/"
		cmd='lmp -in in.melt -log none -screen none' ;;
	gromacs)
		command -v gmx_mpi > /dev/null || return 1
		(p=$PWD; cd "$d" && sh "$p/examples/inputs/gmx-water.sh" 200) ||
		    return 1
		cmd='gmx_mpi -quiet mdrun -s topol.tpr -ntomp 1 -nb cpu -npme 0 -g md.log' ;;
	qe)
		command -v pw.x > /dev/null &&
		    [ -f /usr/share/espresso/pseudo/Si.pz-vbc.UPF ] || return 1
		cp examples/inputs/si.in "$d/"
		cmd='pw.x -in si.in' ;;
	cp2k)
		command -v cp2k.psmp > /dev/null || return 1
		cp examples/inputs/h2o.inp "$d/"
		cmd='cp2k.psmp -i h2o.inp' ;;
	nwchem)
		# Debian's nwchem-openmpi installs nwchem.openmpi; here
		# no nwchem name pointed to it
		nw=$(command -v nwchem || command -v nwchem.openmpi) ||
		    return 1
		cp examples/inputs/h2o-scf.nw "$d/"
		cmd="$nw h2o-scf.nw" ;;
	mpb)
		command -v mpb-mpi > /dev/null || return 1
		cat > "$d/rods.ctl" <<-'E'
		(set! geometry-lattice (make lattice (size 1 1 no-size)))
		(set! geometry (list (make cylinder (center 0 0 0) (radius 0.2)
		  (height infinity) (material (make dielectric (epsilon 12))))))
		(set! k-points (interpolate 4 (list (vector3 0 0 0) (vector3 0.5 0 0))))
		(set-param! resolution 32)
		(set-param! num-bands 8)
		(run-tm)
		E
		cmd='mpb-mpi rods.ctl' ;;
	mpi4py)
		/usr/bin/python3 -c 'import mpi4py, numpy' 2> /dev/null ||
		    return 1
		cmd="/usr/bin/python3 $PWD/examples/heat.py 512 200"
		first='^MPI_Cart_create$' ;;
	meep)
		m=$(command -v meep) && ldd "$m" | grep -q libmpi || return 1
		cp examples/inputs/wg.ctl "$d/"
		cmd='meep wg.ctl' ;;
	caf)
		command -v caf > /dev/null || return 1
		sed 's/n = 2000, iters = 20$/n = 100000, iters = 400/' \
		    examples/inputs/halo-caf.f90 > "$d/halo.f90"
		(cd "$d" && caf -O2 -o halo halo.f90) || return 1
		cmd=$d/halo ;;
	*)
		echo "nsim-apps: unknown program $1" >&2
		return 1 ;;
	esac
}

err() {
	awk -v m="$1" -v p="$2" 'BEGIN { printf "%+.1f", (p - m) * 100 / m }'
}

: > "$w/results"
for app in $apps; do
	if ! setup "$app"; then
		echo "$app: not installed, skipped"
		continue
	fi
	for rep in $(seq 1 "$reps"); do
		try=1
		while :; do
			idle
			l=$(load)
			# unrecorded: tr-record records MPI_Init and
			# MPI_Finalize alone, for the span
			rm -rf "$d/bare"
			mpi bare.out "$B/tr-record" -x "$skip" -o bare $cmd
			plain=$el
			obare=$other
			"$B/tr-cat" -m "$d"/bare/*.gz > "$w/bare.tr"
			u=$(span "$w/bare.tr" '^MPI_Init')
			rm -rf "$d/rec"
			# a buffer that holds the whole run: no flush inside
			# the span, where each would stop the other rank too
			mpi rec.out "$B/tr-record" -b 64MiB -o rec $cmd
			[ "$obare" -le "$other" ] || other=$obare
			l=$(printf '%s\n%s\n' "$l" "$(load)" | sort -n | tail -1)
			[ "$other" -ge "$maxother" ] && [ "$try" -lt "$tries" ] || break
			echo "$app run $rep: other processes took $other % of a core (load $l): retaken"
			try=$((try + 1))
		done
		"$B/tr-cat" -m "$d"/rec/*.gz > "$w/m.tr"
		m=$(span "$w/m.tr" "$first")
		# the CPU time of the computation between calls over its
		# wall time (I/O and lost cores make it less than 100 %), and
		# tr-record's flushes within the span
		c=$("$B/tr-delta" "$w/m.tr" | awk -F'\t' '$1 == "delta" && $7 >= 0 {
			wall += $6; cpu += $7 }
		    END { printf "%.0f", wall ? cpu * 100 / wall : 0 }')
		f=$(awk -F'\t' -v f="$first" '$1 == "ev" && $4 ~ f && $6 > a { a = $6 }
		    $1 == "ev" && $4 == "MPI_Finalize" && (b == "" || $5 < b) { b = $5 }
		    $1 == "reg" && $5 == "tr.flush" && $4 == "leave" { e[++n] = $6; d[n] = $7 }
		    END { for (i = 1; i <= n; i++) if (e[i] > a && e[i] - d[i] < b) t += d[i]
			printf "%.0f", t }' "$w/m.tr")
		[ -z "${KEEP:-}" ] || cp "$w/m.tr" "$d/m.$rep.tr"
		printf '%s %s %s %s %s %s\n' \
		    "$app" "$rep" "$l" "$m" cpuwall "$c" \
		    "$app" "$rep" "$l" "$m" other "$other" \
		    "$app" "$rep" "$l" "$m" plain "$plain" \
		    "$app" "$rep" "$l" "$m" bare "$u" \
		    "$app" "$rep" "$l" "$m" recorded "$el" >> "$w/results"
		printf '%-8s run %d: load %s, others %s %% of a core; mpirun %.2f s unrecorded, %.2f s recorded; span %.1f ms unrecorded, %.1f ms recorded, flushes in it %.1f ms; computation cpu/wall %s %%\n' \
		    "$app" "$rep" "$l" "$other" "$(echo "$plain" | awk '{ print $1 / 1e6 }')" \
		    "$(echo "$el" | awk '{ print $1 / 1e6 }')" "$(echo "$u" | awk '{ print $1 / 1e6 }')" \
		    "$(echo "$m" | awk '{ print $1 / 1e6 }')" \
		    "$(echo "$f" | awk '{ print $1 / 1e6 }')" "$c"
		for net in fit table; do
			for mode in -w -wP -cpu; do
				flag=$mode
				[ "$mode" = -cpu ] && flag=
				[ "$mode" = -wP ] && flag="-w -P"
				"$B/tr-nsim" $flag -M "$w/$net.net" "$w/m.tr" > "$w/sim.tr"
				p=$(span "$w/sim.tr" "$first")
				e=$(err "$m" "$p")
				eu=$(err "$u" "$p")
				printf '%s %s %s %s %s %s\n%s %s %s %s %s %s\n' \
				    "$app" "$rep" "$l" "$m" "$net$mode" "$e" \
				    "$app" "$rep" "$l" "$m" "$net$mode-span" "$p" >> "$w/results"
				printf '    %-10s predicted %8.1f ms  error %6s %%, %6s %% against the unrecorded span\n' \
				    "$net$mode" "$(echo "$p" | awk '{ print $1 / 1e6 }')" "$e" "$eu"
			done
		done
		# cross-check: whole runs, tr-nsim and smpirun on one network
		a=$("$B/tr-nsim" -w -M "$w/bg.net" "$w/m.tr" |
		    awk -F'\t' '$1 == "simrun" { print $3 }')
		rm -rf "$w/ti"
		"$B/tr-to-ti" -w -M "$w/fit.net" -o "$w/ti" "$w/m.tr" 2> "$w/ti.err" ||
		    { cat "$w/ti.err" >&2; exit 4; }
		s=$(sh "$w/ti/smpirun.sh" --log=root.fmt:%m%n \
		    --log=xbt_cfg.thres:warning --log=smpi_config.thres:error 2>&1 |
		    awk '/Simulation time/ { printf "%.0f", $3 * 1e9 }')
		if [ -n "$s" ]; then
			e=$(awk -v a="$a" -v s="$s" 'BEGIN { printf "%+.3f", (a - s) * 100 / s }')
			printf '%s %s %s %s smpirun %s\n' "$app" "$rep" "$l" "$m" "$e" >> "$w/results"
			printf '    tr-nsim -w, progress background %.3f ms, smpirun %.3f ms: %s %%\n' \
			    "$(echo "$a" | awk '{ print $1 / 1e6 }')" \
			    "$(echo "$s" | awk '{ print $1 / 1e6 }')" "$e"
		fi
	done
done

# medians per program (and ranges over the runs): the spans, then each
# prediction's error; the most CPU other processes took
echo
echo "| program | runs, others | computation CPU/wall | span unrecorded | span recorded | fit -w | table -w | table -w -P | table CPU | table -w -P, median against unrecorded median | tr-nsim - smpirun |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
sort -k1,1 -k5,5 -k6,6g "$w/results" | awk -v order="$apps" '
function med(k,   n) { n = cnt[k]; return n % 2 ? v[k, (n + 1) / 2] : (v[k, n / 2] + v[k, n / 2 + 1]) / 2 }
function cell(k) { return cnt[k] ? sprintf("%+.1f %% (%+.1f to %+.1f)", med(k), v[k, 1], v[k, cnt[k]]) : "" }
function ms(k) { return sprintf("%.1f ms (%.1f-%.1f)", med(k) / 1e6, v[k, 1] / 1e6, v[k, cnt[k]] / 1e6) }
{
	k = $1 SUBSEP $5; v[k, ++cnt[k]] = $6
	if (!(($1, $2) in seen)) { seen[$1, $2] = 1; k = $1 SUBSEP "span"; sp[k, ++ns[$1]] = $4 }
	if ($5 == "other" && (!($1 in ld) || $6 > ld[$1])) ld[$1] = $6
}
END {
	na = split(order, name, " ")
	for (i = 1; i <= na; i++) {
		a = name[i]; n = ns[a]
		if (!n) continue
		# the recorded spans, sorted, as the others
		k = a SUBSEP "span"
		for (j = 1; j <= n; j++) v[k, j] = sp[k, j]
		for (j = 2; j <= n; j++) for (m = j; m > 1 && v[k, m - 1] > v[k, m]; m--) { t = v[k, m]; v[k, m] = v[k, m - 1]; v[k, m - 1] = t }
		cnt[k] = n
		printf "| %s | %d, %d %% | %.0f %% | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		    a, n, ld[a] < 0 ? 0 : ld[a], med(a SUBSEP "cpuwall"),
		    ms(a SUBSEP "bare"), ms(k),
		    cell(a SUBSEP "fit-w"), cell(a SUBSEP "table-w"),
		    cell(a SUBSEP "table-wP"), cell(a SUBSEP "table-cpu"),
		    sprintf("%+.1f %%", (med(a SUBSEP "table-wP-span") / med(a SUBSEP "bare") - 1) * 100),
		    cnt[a SUBSEP "smpirun"] ? sprintf("%+.3f %%", med(a SUBSEP "smpirun")) : "n/a"
	}
}'
