#!/bin/sh
# bench/fuzz.sh [SECONDS [TARGET ...]] - fuzzes each parser's harness
# (tests/fuzz/) for SECONDS (default 1800) from fresh seeds, then prints
# per target: executions and executions per second, line and branch
# coverage of the parser's own sources (llvm-cov, from a build with
# coverage counters),
# and the findings (crashes, leaks, timeouts, out-of-memory) of this
# run, saved in build/fuzz/run/TARGET/findings beside earlier runs'. Not part of `make bench`: it takes
# SECONDS times the targets, on one core.
cd "$(dirname "$0")/.." || exit 4
secs=${1:-1800}
[ $# -gt 0 ] && shift
targets=${*:-in expr net model runs strace otf2}
run=build/fuzz/run
make -s all >/dev/null && make -s fuzz-build FUZZCOV=1 >/dev/null &&
	make -s fuzz-seeds FUZZDIR=$run >/dev/null || exit 4
# the sources whose lines count, per target
srcs() {
	case $1 in
	in) echo lib/core/in.c lib/core/in-file.c lib/core/in-header.c lib/core/in-field.c ;;
	expr) echo lib/expr/*.c ;;
	net) echo lib/sim/net.c ;;
	model) echo lib/fit/model.c ;;
	runs) echo lib/cmp/run.c ;;
	strace) echo lib/analyse/strace.c lib/analyse/fdtab.c ;;
	otf2) echo lib/conv/otf2in.c lib/conv/otf2def.c lib/conv/otf2rma.c ;;
	esac
}
printf '%-8s %12s %9s %8s %8s %s\n' target execs exec/s lines branches \
	findings
for t in $targets; do
	d=$run/$t
	mkdir -p "$d/corpus" "$d/findings"
	: > "$d/start"
	LLVM_PROFILE_FILE=/dev/null build/fuzz-cov/fuzz-$t -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$d/findings/" \
		"$d/corpus" "$d/seeds" "tests/fuzz/regress/$t" > "$d/log" 2>&1
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$d/log" | tail -1)
	# a fuzzing run that ends at its time writes no profile: the
	# corpus it made is run once more for the coverage
	LLVM_PROFILE_FILE=$d/fuzz.%p.profraw build/fuzz-cov/fuzz-$t -runs=0 \
		"$d/corpus" "$d/seeds" "tests/fuzz/regress/$t" >/dev/null 2>&1
	llvm-profdata merge -sparse -o "$d/fuzz.profdata" "$d"/fuzz.*.profraw 2>/dev/null
	rm -f "$d"/fuzz.*.profraw
	cov=$(llvm-cov report build/fuzz-cov/fuzz-$t -instr-profile="$d/fuzz.profdata" \
		$(srcs $t) 2>/dev/null | awk '$1 == "TOTAL" {print $(NF-3), $NF}')
	printf '%-8s %12s %9s %8s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" \
		"${cov% *}" "${cov#* }" \
		"$(find "$d/findings" -type f -newer "$d/start" | wc -l)"
done
