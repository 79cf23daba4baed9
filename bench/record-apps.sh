#!/bin/sh
# bench/record-apps.sh - what recording adds to real programs' wall time
# on NP ranks (default 2, one a core): each run REPEATS times (default
# 5), bare and under tr-record in turn, and the medians compared. The
# programs, skipped when not installed: the project's stencil (1024
# 200), hpcc (1x2 grid, N=1000, as bench/nsim-apps.sh), LAMMPS (in.melt,
# 250 steps). The load average is printed with each row: other jobs on
# the machine's cores change both runs, which the alternation shares.
#   sh bench/record-apps.sh [REPEATS [APP ...]]
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-$PWD/bin}
M=${TR_MPIBIN:-$PWD/build/mpi}
NP=${NP:-2}
reps=${1:-5}
[ $# -gt 0 ] && shift
apps=${*:-stencil hpcc lammps}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT INT TERM
ms() {
	s=$(date +%s%N)
	(cd "$d" && sh -c "$*") >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mpi="mpirun --allow-run-as-root --oversubscribe -np $NP"
printf '| program | ranks | bare | recorded | added | load |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
for app in $apps; do
	d=$w/$app
	mkdir -p "$d"
	case $app in
	stencil)
		[ -x "$M/stencil" ] || continue
		cmd="$M/stencil 1024 200" ;;
	hpcc)
		command -v hpcc >/dev/null || continue
		zcat -f /usr/share/doc/hpcc/examples/_hpccinf.txt* |
		    sed -e '11s/^2 /1 /' >"$d/hpccinf.txt"
		cmd=hpcc ;;
	lammps)
		command -v lmp >/dev/null &&
		    [ -f /usr/share/lammps/examples/melt/in.melt ] || continue
		cp /usr/share/lammps/examples/melt/in.melt "$d/"
		cmd='lmp -in in.melt -log none -screen none' ;;
	*)
		echo "record-apps.sh: $app: unknown program" >&2
		exit 2 ;;
	esac
	: >"$w/bare" && : >"$w/rec"
	i=0
	while [ $i -lt "$reps" ]; do
		ms "$mpi $cmd" >>"$w/bare"
		ms "$mpi $B/tr-record -o $d/t $cmd" >>"$w/rec"
		i=$((i + 1))
	done
	b=$(med <"$w/bare") r=$(med <"$w/rec")
	printf '| %s | %s | %s ms | %s ms | %+.1f %% | %s |\n' "$app" "$NP" \
	    "$b" "$r" "$(awk -v b="$b" -v r="$r" 'BEGIN { print 100 * (r - b) / b }')" \
	    "$(cut -d' ' -f1 /proc/loadavg)"
done
