#!/usr/bin/env bats
# The parsers' harnesses (tests/fuzz/, mk/fuzz.mk), built with clang for
# libFuzzer and with afl-clang-fast for AFL++, and run over their
# regression inputs only: the reproducers of
# defects found by fuzzing, each a second or less. `make fuzz` and
# bench/fuzz.sh fuzz for real.
load helper

setup() {
	command -v clang >/dev/null || skip "no clang: the harnesses need libFuzzer"
	command -v make >/dev/null || skip "no make"
}

@test "fuzz: every harness builds and runs its regression inputs clean" {
	run make -s -C "$TOP" fuzz-build
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	for t in "$TOP"/tests/fuzz/regress/*/; do
		t=$(basename "$t")
		# Leaks are the tools' own tests' (make check V=asan): a harness
		# leaves by longjmp what a tool frees or exits with.
		ASAN_OPTIONS=detect_leaks=0 run "$TOP/build/fuzz/fuzz-$t" \
			-rss_limit_mb=1024 -timeout=20 \
			"$TOP"/tests/fuzz/regress/$t/*
		echo "$t: status $status"
		[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
		# the same harness under AFL++'s driver, when afl++ is there
		[ -x "$TOP/build/fuzz-afl/fuzz-$t" ] || continue
		ASAN_OPTIONS=detect_leaks=0 run "$TOP/build/fuzz-afl/fuzz-$t" \
			"$TOP"/tests/fuzz/regress/$t/*
		echo "$t afl: status $status"
		[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
	done
	# each harness has inputs
	for f in "$TOP"/tests/fuzz/fuzz-*.c; do
		t=${f##*/fuzz-}
		[ -n "$(ls "$TOP/tests/fuzz/regress/${t%.c}")" ]
	done
}

@test "fuzz: an error exit of the index, network, model, OTF2 and strace parsers leaves nothing allocated" {
	run make -s -C "$TOP" fuzz-build
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# a harness returns from each error: what a parser left allocated
	# then added up, over a fuzzing run, to an out-of-memory
	for f in runs/bad-line net/no-newline net/too-few-nodes otf2/no-events \
	    otf2/cut-events otf2/bad-region otf2/member-no-rank \
	    otf2/group-id-too-large model/bad-expr model/no-phase \
	    runs/meta-no-newline strace/no-result; do
		ASAN_OPTIONS=detect_leaks=1 run "$TOP/build/fuzz/fuzz-${f%/*}" \
			"$TOP/tests/fuzz/regress/$f"
		echo "$f: status $status"
		[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
	done
}

@test "fuzz: the OTF2 harness removes the archives it wrote, after errors too" {
	run make -s -C "$TOP" fuzz-build
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	d=/tmp
	[ -w /dev/shm ] && d=/dev/shm
	# its own, by its process id: a fuzzing run beside it has others
	run bash -c 'echo "pid $$"; exec "$0" "$@"' \
	    "$TOP/build/fuzz/fuzz-otf2" "$TOP"/tests/fuzz/regress/otf2/*
	[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
	# some inputs were errors: the harness returned from them
	echo "$output" | grep -q 'no events'
	pid=$(echo "$output" | sed -n 's/^pid //p')
	[ -n "$pid" ]
	[ "$(ls "$d" | grep -c "^trfuzz\.$pid\..*otf2" || true)" -eq 0 ]
}

@test "fuzz: the OTF2 harness's memory follows the definitions an input has, not their ids" {
	run make -s -C "$TOP" fuzz-build
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# ids from just below 2^24 and 2^32 (tests/otf2gen.py ids): tables
	# indexed by id asked for 400 MB at once, past libFuzzer's malloc
	# limit (the RSS limit's)
	run "$TOP/build/fuzz/fuzz-otf2" -rss_limit_mb=256 \
	    "$TOP"/tests/fuzz/regress/otf2/ids-below-2e24 \
	    "$TOP"/tests/fuzz/regress/otf2/ids-below-2e32
	[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
	# both imported: no error said
	! echo "$output" | grep -q '^tr: '
}

@test "fuzz: a harness removes what harnesses that are gone left, not what live ones use" {
	run make -s -C "$TOP" fuzz-build
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	d=/tmp
	[ -w /dev/shm ] && d=/dev/shm
	# afl-fuzz ends its last run by SIGKILL, libFuzzer a crash by _Exit:
	# no harness of theirs could remove its folders
	gone=$(sh -c 'echo $$')
	mkdir -p "$d/trfuzz.$gone.otf2/traces" "$d/trfuzz.$gone.runs"
	touch "$d/trfuzz.$gone.otf2/traces.otf2" "$d/trfuzz.$gone.otf2/traces/0.evt" \
	    "$d/trfuzz.$gone.runs/index" "$d/trfuzz.$gone.1.tr"
	mkdir -p "$d/trfuzz.$$.runs"
	for t in otf2 runs in; do
		run "$TOP/build/fuzz/fuzz-$t" "$TOP"/tests/fuzz/regress/$t/*
		[ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
	done
	run ls -d "$d/trfuzz.$gone".*
	[ "$status" -ne 0 ]
	# this shell is there: its folder stays
	[ -d "$d/trfuzz.$$.runs" ]
	rmdir "$d/trfuzz.$$.runs"
	# and the harnesses run here, gone, left nothing: what is there is
	# a live process's (a fuzzing run beside this test)
	for f in $(ls "$d" | grep '^trfuzz\.'); do
		p=${f#trfuzz.}
		kill -0 "${p%%.*}" 2>/dev/null || { ls -la "$d"; false; }
	done
}
