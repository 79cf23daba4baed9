load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
	# A real workflow: slow is the step deliberately slowed.
	cat > Makefile <<'MK'
export TR_JOB_TARGET = $@
all: fast1 fast2 slow link
fast1:
	echo one > $@
fast2:
	echo two > $@
slow:
	sleep $(DELAY); echo slow > $@
link: fast1 fast2 slow
	cat fast1 fast2 slow > $@
MK
}

@test "tr-jobsh: one job record per recipe of make -j2, target from TR_JOB_TARGET" {
	TR_JOBS=$PWD/jobs.tr run make -s -j2 SHELL="$TR_BIN/tr-jobsh" DELAY=0.3
	[ "$status" -eq 0 ]
	[ "$(cat link)" = "$(printf 'one\ntwo\nslow')" ]
	run sh -c "tr-cat jobs.tr | grep -v '^#' | cut -f4 | sort | tr '\n' ' '"
	[ "$output" = "fast1 fast2 link slow " ]
	run sh -c "tr-cat jobs.tr | awk -F'\t' '\$4 == \"slow\" { print (\$6 >= 3e8), \$12, \$13 }'"
	[ "$output" = "1 0 sleep 0.3; echo slow > slow" ]
	# Host, CPU times and max RSS are filled in.
	run sh -c "tr-cat jobs.tr | awk -F'\t' '\$1 == \"job\" && (\$2 != \"$(hostname)\" || \$9 <= 0) { print }'"
	[ "$output" = "" ]
}

@test "tr-jobsh: two runs of the workflow, tr-diff ranks the slowed step first" {
	TR_JOBS=$PWD/a.tr make -s -j2 SHELL="$TR_BIN/tr-jobsh" DELAY=0.05
	rm -f fast1 fast2 slow link
	TR_JOBS=$PWD/b.tr make -s -j2 SHELL="$TR_BIN/tr-jobsh" DELAY=0.4
	run sh -c "tr-diff a.tr b.tr | grep -v '^#' | head -n 1 | cut -f2"
	[ "$output" = "slow" ]
	# Sleeping is neither user nor system time: PARP's I/O estimate.
	run sh -c "tr-diff -v io a.tr b.tr | grep -v '^#' | head -n 1 | cut -f2"
	[ "$output" = "slow" ]
}

@test "tr-jobsh: runs appended to one file are runs of their own; a recursive make is one" {
	for d in 0.01 0.1 0.2; do
		rm -f fast1 fast2 slow link
		TR_JOBS=$PWD/j.tr make -s -j2 SHELL="$TR_BIN/tr-jobsh" DELAY=$d
	done
	# One header per run, naming the make that ran it.
	[ "$(grep -c '^#tr 1' j.tr)" -eq 3 ]
	[ "$(grep '^#meta run=' j.tr | sort -u | wc -l)" -eq 3 ]
	run sh -c "tr-mean j.tr | awk -F'\t' '\$2 == \"slow\" { print \$3, (\$6 >= 1e7 && \$7 >= 2e8) }'"
	[ "$output" = "3 1" ]
	[ "$(tr-mean j.tr | grep -c '^#meta mean.runs=3$')" -eq 1 ]
	# A sub-make's jobs are the run of the make above it.
	mkdir sub && printf 'x:\n\ttrue\n' > sub/Makefile
	printf 'all: a sub\na:\n\ttrue\nsub:\n\t$(MAKE) -s -C sub\n.PHONY: sub\n' > R.mk
	for i in 1 2; do TR_JOBS=$PWD/r.tr make -s -f R.mk SHELL="$TR_BIN/tr-jobsh"; done
	[ "$(grep -c '^job' r.tr)" -eq 6 ]
	[ "$(tr-mean r.tr | grep -c '^#meta mean.runs=2$')" -eq 1 ]
	# TR_JOB_RUN makes jobs of several invocations one run.
	for i in 1 2; do TR_JOB_RUN=night1 TR_JOBS=$PWD/n.tr "$TR_BIN/tr-jobsh" -c true; done
	[ "$(grep -c '^#meta run=night1$' n.tr)" -eq 1 ]
	[ "$(tr-mean n.tr | grep -c '^#meta mean.runs=1$')" -eq 1 ]
}

@test "tr-jobsh: exit status and signals of the recipe pass through" {
	TR_JOBS=$PWD/j.tr run "$TR_BIN/tr-jobsh" -c 'exit 3'
	[ "$status" -eq 3 ]
	TR_JOBS=$PWD/j.tr run "$TR_BIN/tr-jobsh" -c 'kill -TERM $$'
	[ "$status" -eq 143 ]
	run sh -c "tr-cat j.tr | grep -v '^#' | cut -f12"
	[ "$output" = "$(printf '3\n-15')" ]
	# Without TR_JOBS it is just sh.
	run env -u TR_JOBS "$TR_BIN/tr-jobsh" -c 'echo hi; exit 5'
	[ "$status" -eq 5 ]
	[ "$output" = "hi" ]
}

@test "tr-jobsh: tabs and newlines of commands do not break records; no target is -" {
	TR_JOBS=$PWD/j.tr "$TR_BIN/tr-jobsh" -c "$(printf 'true\ttrue\n:')"
	run sh -c "tr-cat j.tr | grep -v '^#' | cut -f4,13"
	[ "$output" = "$(printf -- '-\ttrue true :')" ]
	TR_JOBS=/nonexistent/dir/j.tr run "$TR_BIN/tr-jobsh" -c 'exit 0'
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-jobsh: /nonexistent/dir/j.tr"* ]]
}

@test "tr-jobsh: concurrent records are whole lines" {
	for i in 1 2 3 4 5 6 7 8 9 10; do TR_JOBS=$PWD/c.tr "$TR_BIN/tr-jobsh" -c true & done
	wait
	run sh -c "tr-cat c.tr | grep -c '^job'"
	[ "$output" -eq 10 ]
	[ "$(grep -c '^#tr 1' c.tr)" -eq 1 ]
}
