#!/usr/bin/env bats
# The format's documentation and the man pages agree with the code.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

types() {
	sed -n 's/^	{TR_[A-Z]*, "\([a-z]*\)",.*/\1/p' "$TOP/lib/core/schema.c"
}

@test "format: every record type of lib/core/schema.c is specified in formats/tr.md" {
	n=0
	for t in $(types); do
		grep -q "^ *#fields	$t	" "$TOP/formats/tr.md" || { echo "no #fields $t in formats/tr.md"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 20 ]
}

@test "format: every record type is in tr-format(5)" {
	for t in $(types); do
		grep -q "^\.It Li $t$" "$TOP/man/tr-format.5" ||
			grep -q "^#fields	$t	" "$TOP/man/tr-format.5" ||
			{ echo "$t missing in tr-format.5"; return 1; }
	done
}

@test "format: the #fields of each known type match formats/tr.md exactly" {
	# tr-cat refuses a #fields line of a known type with other columns, so
	# feeding it every spec line checks them against lib/core/schema.c.
	grep -h "^ *#fields	" "$TOP/formats/tr.md" | sed 's/^ *//' | sort -u > fields
	{ echo '#tr 1'; cat fields; } > spec.tr
	run tr cat spec.tr
	[ "$status" -eq 0 ]
}

@test "format: formats/*.md are the section-5 pages as make formats makes them" {
	command -v mandoc >/dev/null || skip "no mandoc"
	mkdir f
	make -s -B -C "$TOP" FORMATDIR="$BATS_TEST_TMPDIR/f" formats
	for m in "$TOP"/formats/*.md; do
		diff -u "$m" "f/${m##*/}" || { echo "formats/${m##*/} is stale: make formats"; return 1; }
	done
	[ "$(ls f | wc -l)" -eq "$(ls "$TOP"/formats/*.md | wc -l)" ]
}

@test "man: every program has a page, is in tr(7) and in the README" {
	for c in "$TOP"/cmd/tr-*.c; do
		t=$(basename "$c" .c)
		[ -f "$TOP/man/$t.1" ] || { echo "no man/$t.1"; return 1; }
		grep -q "^\.It Xr $t 1" "$TOP/man/tr.7" || { echo "$t not in tr.7"; return 1; }
		grep -q "^| $t |" "$TOP/README.md" || { echo "$t not in README"; return 1; }
	done
}

@test "man: every page is clean under mandoc -Tlint -Wwarning" {
	command -v mandoc >/dev/null || skip "no mandoc"
	run sh -c "mandoc -Tlint -Wwarning $TOP/man/*.[1357] 2>&1"
	[ -z "$output" ] || { echo "$output"; return 1; }
}

# Every filter of a stream, on a full disk: exit 4 and one line saying
# so (the flush before dying used to fail again and say it twice).
@test "io: a write error on stdout is reported once by every filter" {
	[ -w /dev/full ] || skip "no /dev/full"
	tr gen -P stencil2d -n 16 -i 20 >"$BATS_TEST_TMPDIR/s.tr"
	for t in cat delta hist stat profile waits json mean symbolize \
	    "filter rank==0" "nsim -M $TOP/pipelines/net/crossbar.net" plot; do
		run sh -c "$TR_BIN/tr-$t $BATS_TEST_TMPDIR/s.tr >/dev/full"
		[ "$status" -eq 4 ] || { echo "tr-$t: status $status"; false; }
		[ "$output" = "tr-${t%% *}: write error: No space left on device" ] ||
			{ echo "tr-$t: $output"; false; }
	done
}

# A rank's file left out of a glob (tr-format(5), "Ranks").
MISSING="no records: a rank's file missing? (a selection of ranks says #meta subset)"

@test "ranks: a rank without records stops the tools that need the whole run, and names it" {
	tr gen -P stencil2d -n 4 -i 3 -R 1 > all.tr
	grep -v "^ev	3	" all.tr > lost.tr
	for t in delta stat nsim waits barrier-correct "to-ti -o ti"; do
		run stderr_of tr $t lost.tr
		[ "$status" -eq 3 ] || { echo "tr-$t: status $status"; false; }
		[ "$output" = "tr-${t%% *}: lost.tr:2: np=4, but rank 3 has $MISSING" ] ||
			{ echo "tr-$t: $output"; false; }
	done
	# each rank's output is right without the others': a warning
	for t in profile "filter rank>=0"; do
		run stderr_of tr $t lost.tr
		[ "$status" -eq 0 ]
		[ "$output" = "tr-${t%% *}: lost.tr:2: np=4, but rank 3 has $MISSING" ]
	done
	# per-rank files read one after the other, as a glob gives them
	for r in 0 1 2 3; do
		{ grep '^#' all.tr; grep "^ev	$r	" all.tr; } > rank.$r.tr
	done
	cat rank.0.tr rank.1.tr rank.3.tr | tr delta -s > /dev/null 2> err || st=$?
	[ "$st" -eq 3 ]
	[ "$(cat err)" = "tr-delta: stdin:2: np=4, but rank 2 has $MISSING" ]
	tr delta -s rank.0.tr rank.1.tr rank.2.tr rank.3.tr | grep -q '^dmax'
	# one that cannot be read: said, then the rank it held
	run stderr_of tr stat rank.0.tr rank.1.tr rank.2.gz rank.3.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-stat: rank.2.gz: No such file or directory
tr-stat: rank.0.tr:2: np=4, but rank 2 has $MISSING" ]
}

@test "ranks: several missing are listed as ranges; without np, a gap below the highest" {
	tr gen -P ring -n 16 -i 2 -R 1 > r16.tr
	grep -v "^ev	\(3\|5\|6\|7\|15\)	" r16.tr > gaps.tr
	run stderr_of tr stat gaps.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-stat: gaps.tr:2: np=16, but ranks 3,5-7,15 have $MISSING" ] || { echo "$output"; false; }
	# no np: ranks below the highest one seen
	grep -v '^#meta np=' gaps.tr > nonp.tr
	run stderr_of tr stat nonp.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-stat: nonp.tr:"*": ranks 3,5-7 of ranks up to 14 have no records: a rank's file missing?"* ]]
	# a long list is cut short, on one line
	tr gen -P ring -n 4096 -i 1 -R 1 | awk -F '\t' '$1 != "ev" || $2 % 2 == 0' > odd.tr
	run stderr_of tr stat odd.tr
	[ "$status" -eq 3 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"but ranks 1,3,5,"*",... have $MISSING" ]]
}

@test "ranks: selections, generated traces and other records pass" {
	tr gen -P stencil2d -n 4 -i 3 -R 1 > all.tr
	# tr-filter says its output is a selection of a trace's records
	tr filter -r 0-2 all.tr > sel.tr
	grep -qx '#meta subset=tr-filter' sel.tr
	run stderr_of tr stat sel.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run stderr_of tr delta sel.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# ... but not of records of other types
	tr delta all.tr | tr filter 'wall > 0' | grep -c '^#meta subset' | grep -qx 0
	# every pattern of tr-gen has records of every rank
	for p in ring stencil1d stencil2d stencil3d alltoall master; do
		run stderr_of tr stat <(tr gen -P $p -n 8 -i 2 -R 1)
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$p: $output"; false; }
	done
	# sections of several runs are checked one by one
	tr gen -P ring -n 2 -i 2 -R 1 > r2.tr
	run stderr_of tr stat r2.tr all.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	{ cat r2.tr; grep -v "^ev	2	" all.tr; } > two.tr
	run stderr_of tr stat two.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-stat: two.tr:$(( $(wc -l < r2.tr) + 2 )): np=4, but rank 2 has $MISSING" ]
}

@test "ranks: a recording that ended early (#meta end.R) is said, once, at its mark" {
	tr gen -P stencil2d -n 4 -i 3 -R 1 > all.tr
	n=$(wc -l < all.tr)
	# as tr-record leaves them: each mark after its rank's records
	{ cat all.tr; printf '#tr 1\n#meta end.0=SIGTERM\n#tr 1\n#meta end.1=SIGSEGV\n#tr 1\n#meta end.3=SIGTERM\n'; } > end.tr
	for t in delta stat profile waits; do
		run stderr_of tr $t end.tr
		[ "$status" -eq 0 ]
		[ "$output" = "tr-$t: end.tr:$((n + 4)): rank 1's recording ended early (SIGSEGV), as did those of ranks 0,3 (SIGTERM): what followed is not in the trace" ] ||
			{ echo "tr-$t: $output"; false; }
	done
	# only signals from outside: the first mark read is named
	{ cat all.tr; printf '#tr 1\n#meta end.2=SIGTERM\n#meta end.0=exit\n'; } > ext.tr
	run stderr_of tr stat ext.tr
	[ "$output" = "tr-stat: ext.tr:$((n + 3)): rank 0's recording ended early (exit), as did those of rank 2 (SIGTERM): what followed is not in the trace" ]
	# a rank that died before its first call is not a file left out
	{ grep -v "^ev	3	" all.tr; printf '#tr 1\n#meta end.3=SIGSEGV\n'; } > early.tr
	run stderr_of tr stat early.tr
	[ "$status" -eq 0 ]
	[[ "$output" == "tr-stat: early.tr:"*": rank 3's recording ended early (SIGSEGV): what followed is not in the trace" ]]
	# tools that copy records say nothing; the mark passes through
	run stderr_of tr filter 'rank >= 0' end.tr
	[ -z "$output" ]
	[ "$(tr cat end.tr | grep -c '^#meta end\.')" -eq 3 ]
}

# The programs: every main of cmd/, and tr-bench (an MPI singleton here).
programs() {
	for f in "$TOP"/cmd/*.c; do basename "$f" .c; done
	echo tr-bench
}

# The option letters of a usage text: each letter of -abc and -x arg.
usage_letters() {
	grep -o -E '(^|[][ |])-[A-Za-z]+' | sed 's/^[][ |]*-//' | fold -w1 | sort -u
}

@test "options: every program answers -h and --help on stdout with exit 0, a line per option of its usage" {
	for p in $(programs); do
		run stderr_of "$TR_BIN/$p" -h
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$p -h: status $status: $output"; return 1; }
		"$TR_BIN/$p" -h > h
		"$TR_BIN/$p" --help > help
		cmp h help || { echo "$p: -h and --help differ"; return 1; }
		[[ "$(head -n 1 h)" == "usage: $p "* ]] || { echo "$p: $(head -n 1 h)"; return 1; }
		n=0
		for c in $(sed -n '/^usage:/,/^  -/p' h | grep -v '^  -' | usage_letters); do
			grep -q -E "^  -$c( |,|\$)" h || { echo "$p: no line for -$c"; cat h; return 1; }
			n=$((n + 1))
		done
		[ "$p" = tr-from-strace ] || [ "$n" -gt 0 ] || { echo "$p: no options read"; return 1; }
	done
}

@test "options: an unknown option is the usage line on stderr, exit 2" {
	for p in $(programs); do
		[ "$p" = tr-jobsh ] && continue	# its options are /bin/sh's
		run "$TR_BIN/$p" -@ </dev/null
		[ "$status" -eq 2 ] || { echo "$p: status $status"; return 1; }
		[[ "$output" == *"usage: $p "* ]] || { echo "$p: $output"; return 1; }
		[ -z "$("$TR_BIN/$p" -@ 2>/dev/null </dev/null)" ] || { echo "$p wrote to stdout"; return 1; }
	done
}

# bad TOOL ARG... MESSAGE: the whole of stderr is "TOOL: MESSAGE", exit 2.
bad() {
	local p=$1 msg
	shift
	msg=${!#}
	set -- "${@:1:$#-1}"
	run stderr_of "$TR_BIN/$p" "$@" </dev/null
	[ "$status" -eq 2 ] && [ "$output" = "$p: $msg" ] ||
		{ echo "$p $*: status $status: $output"; return 1; }
}

@test "options: a bad value is one line naming the option and the value, exit 2" {
	bad tr-accuracy -m x a b "-m: 'x': not a number"
	bad tr-barrier-correct -N 0 "-N: '0': not a positive number"
	bad tr-barrier-correct -T 3h "-T: '3h': unknown unit (units: ns us ms s)"
	bad tr-barrier-correct -m x "-m: 'x': not [phase:]timers:barriers, counts per rank from 0 to 1e12"
	bad tr-bench -T 0 "-T: '0': not an integer from 1 to 100"
	bad tr-diff -c x a b "-c: 'x': not an integer of 0 or more"
	bad tr-diff -C x a b "-C: 'x': not one of none, holm, bh"
	bad tr-diff -s x a b "-s: 'x': not one of m, a, b, delta, ratio, p, key"
	bad tr-extrap -n 0 "-n: '0': not an integer from 1 to 10000000"
	bad tr-extrap -R x "-R: 'x': not an integer"
	bad tr-filter -r x "-r: 'x': not a rank list such as 0-7,12"
	bad tr-filter -w 1ms "-w: '1ms': not a window T0:T1"
	bad tr-fit -r x "-r: 'x': not one of median, mean, min, max"
	bad tr-gen -n 0 "-n: '0': not an integer from 1 to 4194304"
	bad tr-gen -P x "-P: 'x': not one of ring, stencil1d, stencil2d, stencil3d, alltoall, master, stencil27, butterfly, transpose, tree, grid2d, pairwise, reduce"
	bad tr-gen -b 2TiB "-b: '2TiB': not a size from 0 to 1024GiB"
	bad tr-gen -R -1 "-R: '-1': not an integer of 0 or more"
	bad tr-hist -b x "-b: 'x': not an integer from 1 to 1048576"
	bad tr-hist -w x "-w: 'x': not a positive number or duration"
	bad tr-model -f m -W x "-W: 'x': not measured or corrected"
	bad tr-nsim -s x "-s: 'x': not a number of 0 or more"
	bad tr-plot -w 10 "-w: '10': not an integer from 300 to 20000"
	bad tr-plot -g x "-g: 'x': not one of auto, timeline, hist, scaling, diff, jobs, bar, matrix"
	bad tr-profile -s x "-s: 'x': not a list of mean, min and max"
	bad tr-record -b 0 true "-b: '0': not a positive size"
	bad tr-record -g x true "-g: 'x': not a duration of 0 or more"
	bad tr-report -c 0 "-c: '0': not an integer from 1 to 1000"
	bad tr-runs add -l x p "-l: 'x': not label=value"
	bad tr-to-ti -s x -o d "-s: 'x': not a number of 0 or more"
	bad tr-waits -e x "-e: 'x': not a size of 0 or more"
}
