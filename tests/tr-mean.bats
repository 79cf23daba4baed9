load helper

PF=$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')
MF=$(printf '#fields\tmean\tkey\tn\tmean\tsd\tmin\tmax')

setup() {
	cd "$BATS_TEST_TMPDIR"
	# Two ranks: the value of a run is the mean over its ranks.
	printf '#tr 1\n#meta app=x\n#meta date=1\n%s\nprof\t0\tsend\t1\t0\t100\t100\t8\nprof\t1\tsend\t1\t0\t300\t300\t8\nprof\t0\tcompute\t1\t0\t1000\t1000\t0\nprof\t1\tcompute\t1\t0\t1000\t1000\t0\n' "$PF" > r1.tr
	printf '#tr 1\n#meta app=x\n#meta date=2\n%s\nprof\t0\tsend\t1\t0\t300\t300\t8\nprof\t1\tsend\t1\t0\t300\t300\t8\nprof\t0\tcompute\t1\t0\t1000\t1000\t0\nprof\t1\tcompute\t1\t0\t1000\t1000\t0\nprof\t0\tbarrier\t1\t0\t40\t40\t0\n' "$PF" > r2.tr
}

@test "tr-mean: mean, sd, n, min, max per key over repeats; metadata they share" {
	run tr mean r1.tr r2.tr
	[ "$status" -eq 0 ]
	# send: 200 and 300; barrier: 20 in r2, none (0) in r1.
	[ "$output" = "$(printf '#tr 1\n#meta app=x\n#meta mean.runs=2\n%s\nmean\t(total)\t2\t1260\t84.8528137423857\t1200\t1320\nmean\tcompute\t2\t1000\t0\t1000\t1000\nmean\tsend\t2\t250\t70.71067811865476\t200\t300\nmean\tbarrier\t2\t10\t14.142135623730951\t0\t20' "$MF")" ]
}

@test "tr-mean: sections of one input are repeats; means of means pool" {
	cat r1.tr r2.tr > both.tr
	run tr mean both.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(printf 'mean\tsend\t2\t250\t')"* ]]
	tr-mean r1.tr r2.tr > m12.tr
	tr-mean r1.tr > m1.tr
	tr-mean r2.tr > m2.tr
	run sh -c "tr-mean m1.tr m2.tr | grep -v '^#'"
	[ "$output" = "$(grep -v '^#' m12.tr)" ]
}

@test "tr-mean: -k and -v choose other columns (calls per name)" {
	run sh -c "tr-mean -v calls r2.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t2.5\ncompute\t1\nsend\t1\nbarrier\t0.5')" ]
	# A column no record has (a misspelt -k) meant means of nothing, a
	# (total) of 0: a bad option argument (tr(7): 2), named.
	run tr mean -k nmae r1.tr r2.tr
	fails_with 2 "tr-mean: r1.tr: -k nmae: no record of it has such a column"
	[ "${#lines[@]}" -eq 1 ]
	run tr mean -k name -v icnl r1.tr
	fails_with 2 "tr-mean: r1.tr: -k name -v icnl: no record of it has these columns"
}

@test "tr-mean: sys records per call, per class; job records per target" {
	SF=$(printf '#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr')
	printf '#tr 1\n%s\nsys\t1\t0\topenat\t/a\t30\t3\t-\nsys\t1\t5\tread\t/a\t20\t10\t-\nsys\t1\t9\tnewfstatat\t/a\t5\t0\t-\nsys\t1\t9\texit_group\t-\t-1\t-1\t-\n' "$SF" > s.tr
	run sh -c "tr-mean s.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t55\nopenat\t30\nread\t20\nnewfstatat\t5\nexit_group\t0')" ]
	run sh -c "tr-mean -k class s.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t55\nmetadata\t35\ndata\t20\nother\t0')" ]
}

# The mean of KEY (or of a key that ends in _KEY: clock_nanosleep) in
# tr-mean of FILE.
mean_key() {
	tr-mean "$1" | awk -F'\t' -v k="$2" '$2 == k ||
	    substr($2, length($2) - length(k)) == "_" k { print $4 }'
}

# A shell waits in wait4 for a child that sleeps half a second: with
# strace -f the child's calls are in the log, and the wait is their time
# again; without -f it is the only trace of the child.
@test "tr-mean: a wait4 counts only its time while no child it reaped was in a call, when the log shows them" {
	cat > f.txt <<'TXT'
10 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
11 1.000100 execve("/bin/sleep", ["sleep", "0.5"], 0x1 /* 1 var */) = 0 <0.000100>
10 1.000200 wait4(-1,  <unfinished ...>
11 1.000300 clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=500000000}, NULL) = 0 <0.500000>
11 1.500400 exit_group(0) = ?
11 1.500500 +++ exited with 0 +++
10 1.500600 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.500400>
10 1.500700 write(1, "x", 1) = 1 <0.000010>
TXT
	tr-from-strace f.txt > f.tr
	# 11 slept from 1.0003 to 1.5003: 400 us of the wait are 10's
	run sh -c "tr-mean f.tr | grep -v '^#' | cut -f2,4"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '(total)	500520000' 'clock_nanosleep	500000000' 'wait4	400000' 'execve	100000' 'clone	10000' 'write	10000' 'exit_group	0')" ]
	run sh -c "tr-mean -k class f.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '%s\n' '(total)	500520000' 'other	500510000' 'data	10000')" ]
	# strace without -f: the wait is all there is of the child
	grep '^10 ' f.txt > p.txt
	run sh -c "tr-from-strace p.txt | tr-mean | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '%s\n' '(total)	500420000' 'wait4	500400000' 'clone	10000' 'write	10000')" ]
	# a real one: a shell waits for two sleeps of 0.3 s
	command -v strace >/dev/null || skip "no strace"
	strace -f -tt -T -o s.txt sh -c 'sleep 0.3; sleep 0.3'
	tr-from-strace s.txt > s.tr
	w=$(mean_key s.tr wait4) s=$(mean_key s.tr nanosleep)
	echo "wait4 $w, sleeps $s"
	awk -v w="$w" -v s="$s" 'BEGIN { exit !(s >= 6e8 && w < 3e8) }'
}

# The same child computing for half a second between its calls: that
# time is in no call of its, and the wait is all the log has of it.
@test "tr-mean: a wait4 keeps the time its child ran between calls (computing)" {
	# the wait was cut to the child's life, first call to exit: 300 us,
	# and a child 3 times slower (a compiler) showed in no key
	cat > c.txt <<'TXT'
10 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
11 1.000100 execve("/bin/cc", ["cc"], 0x1 /* 1 var */) = 0 <0.000100>
10 1.000200 wait4(-1,  <unfinished ...>
11 1.000300 brk(NULL) = 0x5000 <0.000010>
11 1.500300 write(1, "y", 1) = 1 <0.000100>
11 1.500500 exit_group(0) = ?
11 1.500600 +++ exited with 0 +++
10 1.500700 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.500500>
TXT
	tr-from-strace c.txt > c.tr
	run sh -c "tr-mean c.tr | grep -v '^#' | cut -f2,4"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '(total)	500610000' 'wait4	500390000' 'execve	100000' 'write	100000' 'brk	10000' 'clone	10000' 'exit_group	0')" ]
	# a real one: the shell's wait for an awk that computes, 0.3 s: its
	# calls, slowed by strace's stops, are out of the wait, and at load
	# 28 on 2 cores those of a 0.08 s awk were 0.3 s (wait4 0.17 of 0.48)
	command -v strace >/dev/null || skip "no strace"
	strace -f -tt -T -o s.txt sh -c "awk 'BEGIN { for (i = 0; i < 1e7; i++) s += i }'; true"
	tr-from-strace s.txt > s.tr
	w=$(mean_key s.tr wait4) t=$(mean_key s.tr '(total)')
	echo "wait4 $w of $t"
	awk -v w="$w" -v t="$t" 'BEGIN { exit !(w > t / 2) }'
}

# A grandparent (9) waits for 10, which waits for 11, which waits for 12:
# each wait loses the calls below it. 11's first read comes before the
# clone that made it returns; 13, left running by 12, is reaped by no
# process in the log, and its write counts in no wait. The calls of a
# process are dropped as soon as no wait can reach them; these are kept
# until the waits above them are counted.
@test "tr-mean: the calls below a wait, to any depth, leave it; those before their clone returns too" {
	cat > g.txt <<'TXT'
9 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 10 <0.000010>
9 1.000020 wait4(-1,  <unfinished ...>
10 1.000030 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
11 1.000080 read(0, "", 1) = 0 <0.000040>
10 1.000100 <... clone resumed>) = 11 <0.000070>
10 1.000200 wait4(-1,  <unfinished ...>
11 1.000300 clone(child_stack=NULL, flags=SIGCHLD) = 12 <0.000010>
11 1.000350 wait4(-1,  <unfinished ...>
12 1.000400 clone(child_stack=NULL, flags=SIGCHLD) = 13 <0.000010>
12 1.000500 write(1, "x", 1) = 1 <0.000100>
12 1.000700 exit_group(0) = ?
12 1.000800 +++ exited with 0 +++
11 1.000850 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 12 <0.000500>
13 1.000900 write(1, "y", 1) = 1 <0.000200>
11 1.001000 exit_group(0) = ?
11 1.001050 +++ exited with 0 +++
10 1.001500 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.001300>
10 1.001600 exit_group(0) = ?
13 1.001700 exit_group(0) = ?
9 1.002000 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 10 <0.001980>
TXT
	tr-from-strace g.txt > g.tr
	# 9: 1980 less 10's clone and 11's read (90) and 10's wait (1300):
	# 590 (610 had 11's read been lost); 10: 1300 less 11's clone (10)
	# and wait (500): 790; 11: 500 less 12's clone (10) and write (100):
	# 390; 13's write (200) stays in all three
	run sh -c "tr-mean g.tr | grep -v '^#' | cut -f2,4"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '(total)	2210000' 'wait4	1770000' 'write	300000' 'clone	100000' 'read	40000' 'exit_group	0')" ]
}

# A wait that reaps one child while its sibling is in a call that
# returns after it: that call's record comes after the wait's, and is
# still taken out of it. A WNOHANG poll that reaped nothing keeps its
# time; a pid used again is another process. The same log twice in one
# run (its pids and times again) counts each wait twice over.
@test "tr-mean: a sibling's call that returns after a wait is taken out of it; a pid used again is another process" {
	cat > b.txt <<'TXT'
10 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
10 1.000020 clone(child_stack=NULL, flags=SIGCHLD) = 12 <0.000010>
10 1.000040 wait4(-1, 0x7ffc, WNOHANG, NULL) = 0 <0.000005>
11 1.000050 write(1, "a", 1) = 1 <0.000100>
10 1.000200 wait4(-1,  <unfinished ...>
12 1.000300 read(0,  <unfinished ...>
11 1.000310 exit_group(0) = ?
11 1.000320 +++ exited with 0 +++
10 1.000400 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.000200>
12 1.000900 <... read resumed>"", 1) = 0 <0.000600>
12 1.001000 exit_group(0) = ?
10 1.001100 wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 12 <0.000050>
10 1.001200 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
10 1.001220 wait4(-1,  <unfinished ...>
11 1.001300 write(1, "b", 1) = 1 <0.000050>
11 1.001400 exit_group(0) = ?
10 1.001500 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.000280>
TXT
	tr-from-strace b.txt > b.tr
	# waits: 200 less the read's 100 in it; 50; 280 less the write's 50;
	# and the poll's 5
	run sh -c "tr-mean b.tr | grep -v '^#' | cut -f2,4"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '(total)	1165000' 'read	600000' 'wait4	385000' 'write	150000' 'clone	30000' 'exit_group	0')" ]
	cat b.tr b.tr > bb.tr
	run sh -c "tr-mean bb.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '%s\n' '(total)	2330000' 'read	1200000' 'wait4	770000' 'write	300000' 'clone	60000' 'exit_group	0')" ]
}

# Pid 11 twice: first 10's child, then 13's. Each wait loses the calls
# of the process it reaped, not those of the other that had its pid:
# the first 11's write was taken as the second's, reaped by 13, and
# 10's wait kept all of its 580 us.
@test "tr-mean: a pid that another process reaps later is another process: each wait loses its own child's calls" {
	cat > r.txt <<'TXT'
9 1.000000 clone(child_stack=NULL, flags=SIGCHLD) = 10 <0.000010>
10 1.000100 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
10 1.000120 wait4(-1,  <unfinished ...>
11 1.000200 write(1, "a", 1) = 1 <0.000300>
11 1.000600 exit_group(0) = ?
10 1.000700 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.000580>
9 1.000800 clone(child_stack=NULL, flags=SIGCHLD) = 13 <0.000010>
13 1.000900 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000010>
13 1.000920 wait4(-1,  <unfinished ...>
11 1.001000 write(1, "b", 1) = 1 <0.000100>
11 1.001100 exit_group(0) = ?
13 1.001200 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11 <0.000280>
TXT
	tr-from-strace r.txt > r.tr
	# 10's wait: 580 less the first 11's write (300); 13's: 280 less
	# the second's (100)
	run sh -c "tr-mean r.tr | grep -v '^#' | cut -f2,4"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '(total)	900000' 'wait4	460000' 'write	400000' 'clone	40000' 'exit_group	0')" ]
}

# Random process trees, with pids used again: the wait4s tr-mean gives
# are those computed from the whole log at once.
@test "tr-mean: the waits of random process trees are those computed from the whole log" {
	command -v python3 >/dev/null || skip "no python3"
	for s in $(seq 1 20); do
		# pids used again in every other log
		python3 "$BATS_TEST_DIRNAME/reaped.py" log "$s" $(((s + 1) % 2)) > f.tr
		want=$(python3 "$BATS_TEST_DIRNAME/reaped.py" waits f.tr)
		got=$(tr-mean f.tr | awk -F'\t' '$2 == "wait4" { print $4 }')
		echo "seed $s: $got, computed $want"
		[ "${got:-0}" = "$want" ]
	done
}

# One child's calls under its parent's one wait, more than a process
# keeps one by one: those between its first and last are kept as their
# sum, which the wait covers whole.
@test "tr-mean: a wait over a child of many calls loses exactly their time" {
	awk 'BEGIN {
		print "#tr 1"
		print "#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr"
		print "sys\t10\t1000\tclone\t-\t50\t11\t-"
		for (i = 0; i < 300000; i++)
			printf "sys\t11\t%d\tread\t/f\t%d\t1\t-\n", 2000 + i * 2000, 1000 + i % 7
		printf "sys\t11\t%d\texit_group\t-\t-1\t-1\t-\n", 2000 + i * 2000
		printf "sys\t10\t1100\twait4\t-\t%d\t11\t-\n", 2000 + i * 2000 + 500 - 1100
	}' > m.tr
	# the wait less the child's reads, summed apart
	w=$(awk -F'\t' '$4 == "wait4" { w += $6 } $4 == "read" { r += $6 }
	    END { printf "%d", w - r }' m.tr)
	run sh -c "tr-mean m.tr | awk -F'\t' '\$2 == \"wait4\" { print \$4 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$w" ]
	# exact, so nothing is said
	[ -z "$(tr-mean m.tr 2>&1 >/dev/null)" ]
}

# Two such children calling at once: their sums' overlap is not known,
# and taken as independent (tr-mean(1) BUGS). The estimate is said.
@test "tr-mean: a wait over two children of many calls at once is said to be estimated" {
	awk 'BEGIN {
		print "#tr 1"
		print "#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr"
		print "sys\t10\t1000\tclone\t-\t50\t11\t-"
		print "sys\t10\t1060\tclone\t-\t50\t12\t-"
		for (i = 0; i < 140000; i++) {
			printf "sys\t11\t%d\tread\t/f\t1000\t1\t-\n", 2000 + i * 2000
			printf "sys\t12\t%d\tread\t/f\t1000\t1\t-\n", 2500 + i * 2000
		}
		printf "sys\t11\t%d\texit_group\t-\t-1\t-1\t-\n", 2000 + i * 2000
		printf "sys\t12\t%d\texit_group\t-\t-1\t-1\t-\n", 2000 + i * 2000
		printf "sys\t10\t1200\twait4\t-\t%d\t11\t-\n", 2000 + i * 2000 + 500 - 1200
		printf "sys\t10\t%d\twait4\t-\t100\t12\t-\n", 2000 + i * 2000 + 600
	}' > m2.tr
	run tr mean m2.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-mean: m2.tr: a wait4 that reaped processes making more than 131072 calls at once is estimated, their calls' overlap taken as independent"* ]]
	[ "$(echo "$output" | grep -c 'is estimated')" -eq 1 ]
}

@test "tr-mean: mean records keep their key and value: -k or -v of others is bad input" {
	SF=$(printf '#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr')
	printf '#tr 1\n%s\nsys\t1\t0\topenat\t/a\t30\t3\t-\nsys\t1\t5\tread\t/a\t20\t10\t-\n' "$SF" > s1.tr
	printf '#tr 1\n%s\nsys\t1\t0\topenat\t/a\t50\t3\t-\nsys\t1\t5\tread\t/a\t20\t10\t-\n' "$SF" > s2.tr
	tr-mean s1.tr s2.tr > m.tr
	tr-mean -k class s1.tr s2.tr > mc.tr
	# Means by call cannot be regrouped by class: they were ignored.
	run tr mean -k class m.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-mean: m.tr:4: -k class: mean records keep their key (here the default key): make them with tr-mean -k class" ]
	run tr mean -v calls m.tr
	fails_with 3 "m.tr:4: -v calls: mean records keep their value (here the default value)"
	run tr mean -k call mc.tr
	fails_with 3 "mc.tr:5: -k call: mean records keep their key (here key class)"
	# Nor do means by class pool with runs by call.
	run tr mean mc.tr m.tr
	fails_with 3 "m.tr:4: runs by the default key after runs by key class"
	run tr mean s1.tr mc.tr
	fails_with 3 "mc.tr:5: runs by key class after runs by the default key"
	# The key they were made with is theirs, and is kept when they pool.
	run sh -c "tr-mean -k class mc.tr s1.tr | grep -e '^#meta mean.key' -e metadata"
	[ "$output" = "$(printf '#meta mean.key=class\nmean\tmetadata\t3\t36.666666666666664\t11.547005383792516\t30\t50')" ]
	run sh -c "tr-mean mc.tr mc.tr | grep '^#meta mean.key'"
	[ "$output" = "#meta mean.key=class" ]
}

@test "tr-mean: ev records: time per rank in each op and in compute" {
	{ hdr 2; ev 0 0 MPI_Send 0 10; ev 0 1 MPI_Recv 30 40; ev 1 0 MPI_Recv 0 40; } > e.tr
	run sh -c "tr-mean e.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t40\nMPI_Recv\t25\ncompute\t10\nMPI_Send\t5')" ]
}

# The type a run is read from decides the mean over ranks; records of
# other types after it (tr-profile -a's profagg, a comm record closing
# a trace) once left a sum over the ranks instead.
@test "tr-mean: per-rank mean whatever records of other types follow" {
	{ hdr 2; ev 0 0 MPI_Send 0 10; ev 0 1 MPI_Recv 30 40; ev 1 0 MPI_Recv 0 40
	  printf '#fields\tcomm\trank\tid\tsize\tmembers\ncomm\t1\t2\t2\t0-1\n'; } > e.tr
	run sh -c "tr-mean e.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t40\nMPI_Recv\t25\ncompute\t10\nMPI_Send\t5')" ]
	{ hdr 2; ev 0 0 MPI_Init 0 100; ev 1 0 MPI_Init 0 300; } > i.tr
	tr-profile i.tr > p.tr
	tr-profile -a i.tr > pa.tr
	run sh -c "tr-mean pa.tr | grep -v '^#' | cut -f2,4"
	[ "$output" = "$(printf '(total)\t200\nMPI_Init\t200')" ]
	run sh -c "tr-diff p.tr pa.tr | grep -v '^#' | cut -f2-5"
	[ "$output" = "$(printf 'MPI_Init\t200\t200\t0\n(total)\t200\t200\t0')" ]
}

@test "tr-mean: a trace without a rank's records is bad input, unless a selection" {
	{ hdr 3; ev 0 0 MPI_Send 0 10; ev 1 0 MPI_Recv 0 40; } > e.tr
	run stderr_of tr mean e.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-mean: e.tr:2: np=3, but rank 2 has no records: a rank's file missing? (a selection of ranks says #meta subset)" ]
	{ hdr 3; printf '#meta subset=ranks 0,1\n'; ev 0 0 MPI_Send 0 10; ev 1 0 MPI_Recv 0 40; } > s.tr
	run stderr_of tr mean s.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# profiles are not checked: each rank's row is its own
	run tr mean r1.tr
	[ "$status" -eq 0 ]
}

@test "tr-mean: bad input, usage" {
	printf '#tr 1\n%s\nmean\tx\tnope\t1\t0\t1\t1\n' "$MF" > bad.tr
	run tr mean r1.tr bad.tr
	fails_with 3 "bad.tr:3:"
	run tr mean -q r1.tr
	fails_with 2 "usage: tr-mean"
	run tr mean nosuch.tr
	fails_with 4 "nosuch.tr"
}

@test "tr-mean: no file and a terminal for stdin is a usage error, not a wait for input" {
	# tr-mean $(tr-runs paths EXPR) selecting no run read the terminal
	# and waited.
	on_tty mean
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-mean: no file given, and stdin is a terminal"* ]]
	# A pipe still reads.
	run sh -c "cat r1.tr | '$TR_BIN/tr-mean' | grep -c '^mean'"
	[ "$status" -eq 0 ]
	[ "$output" -gt 0 ]
}

# A child alive through its parent's 5,000 waits could still bring each
# of them a call (it may be reaped by the last): past 4,096 open waits
# the oldest are counted with what was read, and that is said.
@test "tr-mean: a process with more waits open than it keeps says its oldest were counted early" {
	waits() {
		awk -v n="$1" 'BEGIN {
			print "#tr 1"
			print "#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr"
			print "sys\t10\t1000\tclone\t-\t50\t11\t-"
			print "sys\t11\t1100\tread\t/f\t100\t1\t-"
			t = 2000
			for (i = 0; i < n; i++) {
				c = 100 + i
				printf "sys\t10\t%d\tclone\t-\t50\t%d\t-\n", t, c
				printf "sys\t%d\t%d\tread\t/f\t100\t1\t-\n", c, t + 100
				printf "sys\t%d\t%d\texit_group\t-\t-1\t-1\t-\n", c, t + 300
				printf "sys\t10\t%d\twait4\t-\t400\t%d\t-\n", t + 60, c
				t += 1000
			}
			printf "sys\t11\t%d\tread\t/f\t100\t1\t-\n", t
			printf "sys\t11\t%d\texit_group\t-\t-1\t-1\t-\n", t + 200
			printf "sys\t10\t%d\twait4\t-\t500\t11\t-\n", t - 100
		}'
	}
	waits 5000 > e.tr
	run tr mean e.tr
	[ "$status" -eq 0 ]
	# 5,000 waits of 400 less their child's read, the last 500 less 11's
	[[ "$output" == *"mean	wait4	1	1500400	"* ]]
	[[ "$output" == *"tr-mean: e.tr: a process had more than 4096 wait4s open at once: its oldest were counted before all its children's calls were read, and may keep some of their time"* ]]
	# 4,000 waits: none counted early, nothing said
	waits 4000 > f.tr
	run tr mean f.tr
	[[ "$output" == *"mean	wait4	1	1200400	"* ]]
	[[ "$output" != *"counted before"* ]]
}
