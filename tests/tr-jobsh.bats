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

# A recursive build: top.mk runs a sub-make in a and in b, whose leaves
# sleep and compute; SLOW is the step a second run slows.
recursive() {
	for d in a b; do
		mkdir -p $d
		printf '%s\n' 'export TR_JOB_TARGET = $@' 'all: s1 s2 c slow' \
		    's1 s2:' '	sleep 0.2' \
		    'c:' '	i=0; while [ $$i -lt 100000 ]; do i=$$((i+1)); done' \
		    'slow:' '	sleep $(SLOW)' '.PHONY: all s1 s2 c slow' \
		    > $d/Makefile
	done
	printf '%s\n' 'export TR_JOB_TARGET = $@' 'all: a b' 'a b:' \
	    '	$(MAKE) -s -C $@' '.PHONY: all a b' > top.mk
}

# The sum of the leaves' VALUE (elapsed, cpu) per run of FILE, one a line.
leafsum() {
	tr-cat "$1" | awk -F'\t' -v v="$2" '
	    /^#meta run=/ { n++ }
	    $1 == "job" && $4 != "a" && $4 != "b" {
		s[n] += v == "cpu" ? $7 + $8 : $6 }
	    END { for (i = 1; i <= n; i++) printf "%.0f\n", s[i] }'
}

@test "tr-jobsh: a recursive make's jobs name the job they ran in; totals count each job once" {
	recursive
	for j in 1 2; do
		TR_JOBS=$PWD/r$j.tr make -s -j$j -f top.mk SHELL="$TR_BIN/tr-jobsh" SLOW=0.1
		# Each leaf's parent is the pid of its sub-make's job.
		run sh -c "tr-cat r$j.tr | awk -F'\t' '
		    \$1 == \"#fields\" { for (i = 2; i <= NF; i++) c[\$i] = i - 1 }
		    \$1 == \"job\" && (\$4 == \"a\" || \$4 == \"b\") { pid[\$3] = \$4; top += \$c[\"parent\"] == -1 }
		    \$1 == \"job\" && \$4 != \"a\" && \$4 != \"b\" { par[NR] = \$c[\"parent\"] }
		    END { for (k in par) n[pid[par[k]]]++; print top, n[\"a\"], n[\"b\"] }'"
		[ "$output" = "2 4 4" ]
		# (total) is the leaves' sum and the sub-makes' own time (make
		# and tr-jobsh: a few ms, 100 under ASan), not the leaves
		# twice; the same for CPU time.
		for v in elapsed cpu; do
			leaves=$(leafsum r$j.tr $v)
			total=$(tr-mean -v $v r$j.tr | awk -F'\t' '$2 == "(total)" { print $4 }')
			echo "-j$j $v: total $total, leaves $leaves"
			awk -v t="$total" -v l="$leaves" 'BEGIN { exit !(t >= l && t < l * 1.6) }'
		done
		own=$(tr-mean r$j.tr | awk -F'\t' '$2 == "a" { print $4 }')
		awk -v o="$own" 'BEGIN { exit !(o >= 0 && o < 3e8) }'
	done
}

@test "tr-jobsh: tr-diff of two recursive builds points at the slowed leaf, not at its sub-make" {
	recursive
	TR_JOBS=$PWD/fast.tr make -s -j2 -f top.mk SHELL="$TR_BIN/tr-jobsh" SLOW=0.05
	TR_JOBS=$PWD/slow.tr make -s -j2 -f top.mk SHELL="$TR_BIN/tr-jobsh" SLOW=0.6
	run sh -c "tr-diff fast.tr slow.tr | grep -v '^#' | head -n 1 | cut -f2"
	[ "$output" = "slow" ]
	# The sub-makes' own time hardly changed, and (total) grew by what
	# the leaves did, not twice that.
	grew=$(( $(leafsum slow.tr elapsed) - $(leafsum fast.tr elapsed) ))
	run sh -c "tr-diff fast.tr slow.tr | awk -F'\t' -v g=$grew '
	    \$2 == \"a\" || \$2 == \"(total)\" { d = \$5 - (\$2 == \"a\" ? 0 : g)
		print \$2, (d > -3e8 && d < 3e8) }' | sort"
	[ "$output" = "$(printf '(total) 1\na 1')" ]
}

@test "tr-jobsh: job files without the parent column still read; a bad parent is bad input" {
	OLD=$(printf '#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd')
	printf '#tr 1\n#meta run=1\n%s\njob\th\t5\tx\t0\t100\t0\t0\t0\t0\t0\t0\tcc x\n' "$OLD" > old.tr
	TR_JOB_RUN=2 TR_JOBS=$PWD/new.tr "$TR_BIN/tr-jobsh" -c 'sleep 0.01'
	run sh -c "cat old.tr new.tr | tr-mean | grep -c '^#meta mean.runs=2$'"
	[ "$output" = 1 ]
	run sh -c "cat old.tr new.tr | tr-cat | grep -c '^job'"
	[ "$output" = 2 ]
	# A run that an earlier tr-jobsh began goes on in its columns.
	cp old.tr on.tr
	TR_JOB_RUN=1 TR_JOBS=$PWD/on.tr "$TR_BIN/tr-jobsh" -c 'exit 0'
	[ "$(grep -c '^#' on.tr)" -eq 3 ]
	run sh -c "tr-cat on.tr | grep '^job' | cut -f4,13"
	[ "$output" = "$(printf 'x\tcc x\n-\texit 0')" ]
	sed 's/	-1$/	x/' new.tr > bad.tr
	run tr-mean bad.tr
	fails_with 3 "bad.tr:4:"
	sed 's/parent$/parents/' new.tr > badf.tr
	run tr-mean badf.tr
	fails_with 3 "badf.tr:3: #fields of a type"
}

@test "tr-jobsh: \$(shell) calls are jobs of target \$(shell); recipes keep theirs" {
	printf '%s\n' 'export TR_JOB_TARGET = $@' 'X := $(shell echo x)' \
	    'Y = $(shell echo y)' 'all: t u' 't u:' '	echo $(X)$(Y) > $@' > S.mk
	for o in "" "-j2" "-j2 -O"; do
		rm -f t u s.tr
		TR_JOBS=$PWD/s.tr make -s $o -f S.mk SHELL="$TR_BIN/tr-jobsh" | cat
		[ "$(cat t u)" = "$(printf 'xy\nxy')" ]
		run sh -c "tr-cat s.tr | grep '^job' | cut -f4,13 | sort"
		[ "$output" = "$(printf '%s\n' '$(shell)	echo x' '$(shell)	echo y' '$(shell)	echo y' 't	echo xy > t' 'u	echo xy > u')" ]
	done
	# In a sub-make too, and tr-mean pools them under one key.
	mkdir sub && cp S.mk sub/Makefile
	printf '%s\n' 'export TR_JOB_TARGET = $@' 'all:' '	$(MAKE) -s -C sub' > R.mk
	TR_JOBS=$PWD/r.tr make -s -f R.mk SHELL="$TR_BIN/tr-jobsh"
	run sh -c "tr-mean r.tr | awk -F'\t' '\$1 == \"mean\" { print \$2 }' | sort"
	[ "$output" = "$(printf '%s\n' '$(shell)' '(total)' 'all' 't' 'u')" ]
	# A command whose output a pipe or a shell takes is no $(shell).
	TR_JOBS=$PWD/p.tr "$TR_BIN/tr-jobsh" -c 'echo hi' | cat
	x=$(TR_JOBS=$PWD/p.tr "$TR_BIN/tr-jobsh" -c 'echo hi')
	[ "$x" = hi ]
	[ "$(tr-cat p.tr | grep '^job' | cut -f4 | tr '\n' ' ')" = "- - " ]
}
