#!/bin/sh
# Peak memory and time of tr-mean on generated strace logs (sys records)
# whose waits reap children that made the calls (lib/analyse/reaped.c), by
# length: the memory should follow the processes alive, not the calls.
#   sh bench/reaped.sh [CALLS ...]     (default 1 M, 2 M, 4 M)
# Shapes: one: a child's reads under its parent's one wait4; loop: a
# shell's children one after another, 20 calls each; pipe: two
# children at once under their parent's two wait4s. With TR_OLD=DIR the
# tr-mean in DIR runs too, and the outputs must be the same.
set -eu
cd "$(dirname "$0")/.."
B=${TR_BIN:-bin}
w=${TMPDIR:-/tmp}/tr-bench-reaped.$$
mkdir -p "$w"
trap 'rm -rf "$w"' EXIT INT TERM
[ $# -gt 0 ] || set -- 1000000 2000000 4000000

# gen SHAPE CALLS: the sys records, times in ns; a call of 1 us every
# 2 us (a second child's half a microsecond later).
gen() {
	awk -v shape="$1" -v n="$2" 'BEGIN {
		print "#tr 1"
		print "#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr"
		t = 1000000
		if (shape == "one" || shape == "pipe") {
			k = shape == "one" ? 1 : 2
			for (c = 1; c <= k; c++)
				rec(100, t + c * 100, "clone", "-", 50, 100 + c)
			ws = t + 1000
			for (i = 0; i < n / k; i++)
				for (c = 1; c <= k; c++)
					rec(100 + c, t + 2000 + i * 2000 + (c - 1) * 500, "read", "pipe:[1]", 1000, 1)
			e = t + 2000 + n / k * 2000 + 1000
			for (c = 1; c <= k; c++)
				rec(100 + c, e - 500 + c, "exit_group", "-", -1, -1)
			for (c = 1; c <= k; c++) {
				rec(100, ws, "wait4", "-", e + c * 100 - ws, 100 + c)
				ws = e + c * 100 + 10
			}
		} else {
			for (j = 0; j < n / 20; j++) {
				p = 1000 + j % 30000
				rec(100, t, "clone", "-", 50, p)
				for (i = 0; i < 18; i++)
					rec(p, t + 100 + i * 2000, "read", "/f", 1000, 1)
				rec(p, t + 40000, "exit_group", "-", -1, -1)
				rec(100, t + 60, "wait4", "-", 40000, p)
				t += 50000
			}
		}
	}
	function rec(pid, t, call, path, el, res) {
		printf "sys\t%d\t%.0f\t%s\t%s\t%.0f\t%d\t-\n", pid, t, call, path, el, res
	}'
}

rss() {
	/usr/bin/time -f '%M %e' "$@" 2>&1 >/dev/null | tail -n 1
}

printf '%-6s %9s %12s %8s' shape calls "peak KB" "s"
[ -n "${TR_OLD:-}" ] && printf ' %12s %8s' "old peak KB" "old s"
echo
for n in "$@"; do
	for shape in one loop pipe; do
		gen "$shape" "$n" > "$w/s.tr"
		set -- $(rss "$B/tr-mean" "$w/s.tr")
		printf '%-6s %9d %12d %8s' "$shape" "$n" "$1" "$2"
		if [ -n "${TR_OLD:-}" ]; then
			set -- $(rss "$TR_OLD/tr-mean" "$w/s.tr")
			printf ' %12d %8s' "$1" "$2"
			"$B/tr-mean" "$w/s.tr" > "$w/new"
			"$TR_OLD/tr-mean" "$w/s.tr" > "$w/old"
			cmp -s "$w/new" "$w/old" || printf '  outputs differ'
		fi
		echo
	done
done
