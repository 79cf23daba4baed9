#!/usr/bin/env bats
# The README runs as written: its ```sh blocks, in order, in a copy of
# the checkout's top (the programs, build/mpi, the samples, pipelines
# and examples linked into a scratch directory, so that what the tour
# writes stays out of the tree). A block whose first line is a comment
# beginning "# takes minutes" is not run, and the test says so and why.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# blocks: one line per ```sh block of the README: its line, then
# "run" or "skip: REASON"; block N's text into block.N.
blocks() {
	awk '
	/^```sh$/ { n++; inb = 1; first = 1; start = NR; next }
	/^```/ && inb { inb = 0; printf "%d\t%s\n", start, why; next }
	inb {
		if (first) why = $0 ~ /^# takes minutes/ ? "skip: " substr($0, 3) : "run"
		first = 0
		print > ("block." n)
	}' "$TOP/README.md"
}

# A checkout's top in the scratch directory, the programs tested.
checkout() {
	local f
	mkdir -p top/build
	for f in Makefile mk pipelines samples examples man; do
		ln -s "$TOP/$f" "top/$f"
	done
	ln -s "$TR_BIN" top/bin
	ln -s "$TR_MPIBIN" top/build/mpi
}

@test "README: every sh block runs as written, from the checkout's top" {
	[ -x "$TR_MPIBIN/stencil" ] || skip "MPI examples not built"
	blocks > list
	[ "$(grep -c . list)" -ge 10 ]
	checkout
	cd top
	n=0 last=
	: > ../env
	# the list on fd 4: mpirun reads its standard input
	while IFS=$'\t' read -r -u 4 line what; do
		n=$((n + 1))
		if [ "$what" != run ]; then
			echo "# README line $line not run: ${what#skip: }" >&3
			continue
		fi
		# make env's PATH carries to the later blocks, as in a shell;
		# pipefail: a failed first stage is a failed block
		run bash -o pipefail -ec "$(cat ../env)
$(cat "../block.$n")" < /dev/null
		[ "$status" -eq 0 ] || {
			echo "README line $line failed (status $status):"
			cat "../block.$n"; echo "--"; echo "$output"; return 1; }
		case $(cat "../block.$n") in
		*"make -s env"*) make -s env > ../env ;;
		esac
		printf '%s\n' "$output" > "../out.$line"
		last=$line
	done 4< ../list
	# what the tour says it makes, it made
	[ "$(ls run16/rank.*.tr.gz | wc -l)" -eq 16 ]
	grep -q '^#meta np=16$' run16.tr
	grep -q '^late_sender\|^wait' "$(grep -l '^#fields	wait' ../out.* | head -n 1)"
	ls -d extrap-out/stencil-* > /dev/null
	grep -q '^compared [0-9]*, missing on one side [0-9]*, median accuracy' extrap-out/stencil-*/table.txt
	[ "$(ls heat4/rank.*.tr.gz | wc -l)" -eq 4 ]
	grep -q '^simrun	16	[1-9]' sim16.tr
	grep -q '^prof	' a.prof
	grep -q '^prof	' b.prof
	# jq's sum of the bytes sent is the bytes tr-stat counts
	[ "$(tail -n 1 "../out.$last")" = \
	    "$(tr stat run16.tr | awk -F'\t' '$1 == "opstat" && $2 == "MPI_Isend" { print $4 }')" ]
}

@test "README: the blocks not run name files that exist, and why they are not run" {
	blocks > list
	skipped=$(grep -c $'\tskip: ' list)
	[ "$skipped" -ge 1 ]
	# a reason, not just the marker
	! grep -P '\tskip: takes minutes$' list || false
	# every repository path a block names is in the repository
	cat block.* | grep -oE '(^|[ =])(build/mpi|samples|pipelines|examples)/[^ ]*' |
	    sed 's/^[ =]//' | sort -u > paths
	[ -s paths ]
	while read -r p; do
		case $p in
		build/mpi/*) [ -e "$TR_MPIBIN/${p#build/mpi/}" ] ;;
		*) [ -e "$TOP/$p" ] ;;
		esac || { echo "README names $p, which does not exist"; return 1; }
	done < paths
	# the programs the blocks call are ours
	for t in $(cat block.* | grep -oE '\btr-[a-z-]+\b' | sort -u); do
		[ -x "$TR_BIN/$t" ] ||
		    { echo "README calls $t, which is not a program"; return 1; }
	done
}

@test "README: make env prints the line that puts the programs on PATH" {
	[ -x "$TR_BIN/tr-cat" ] || skip "the programs are not built"
	run make -s -C "$TOP" env
	[ "$status" -eq 0 ]
	# the variant's bin/ (make check V=asan passes V down in MAKEFLAGS)
	bin=$(cd "$TR_BIN" && pwd -P)
	[ "$output" = "export PATH='$bin':\"\$PATH\"" ]
	PATH=/usr/bin:/bin
	eval "$output"
	[ "$(command -v tr-cat)" = "$bin/tr-cat" ]
}
