load helper

# calls FILE: pid, call and path of each sys record of an strace log.
calls() {
	tr-from-strace "$1" | grep '^sys' | cut -f2,4,5
}

SF=$(printf '#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr')

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "tr-from-strace: calls, paths (also of descriptors), errors, resumed calls" {
	cat > s.txt <<'TXT'
100 10:00:00.000001 openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3 <0.000020>
100 10:00:00.000100 read(3, "root:x:0:0"..., 4096) = 1234 <0.000010>
100 10:00:00.000200 newfstatat(3, "", {st_mode=S_IFREG|0644, ...}, AT_EMPTY_PATH) = 0 <0.000005>
101 10:00:00.000300 read(0,  <unfinished ...>
100 10:00:00.000400 close(3)          = 0 <0.000004>
100 10:00:00.000500 openat(AT_FDCWD, "/nonexist", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000007>
101 10:00:00.001300 <... read resumed>"abc", 3) = 3 <0.001000>
100 10:00:00.001400 brk(NULL)         = 0x55f0e9ea8000 <0.000001>
100 10:00:00.001500 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---
100 10:00:00.001600 exit_group(0)     = ?
100 10:00:00.001700 +++ exited with 0 +++
TXT
	run tr from-strace s.txt
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '#tr 1\n#meta tool=tr-from-strace\n#meta run=100.36000000001000\n%s\n' "$SF"
	printf 'sys\t100\t36000000001000\topenat\t/etc/passwd\t20000\t3\t-\n'
	printf 'sys\t100\t36000000100000\tread\t/etc/passwd\t10000\t1234\t-\n'
	printf 'sys\t100\t36000000200000\tnewfstatat\t/etc/passwd\t5000\t0\t-\n'
	printf 'sys\t100\t36000000400000\tclose\t/etc/passwd\t4000\t0\t-\n'
	printf 'sys\t100\t36000000500000\topenat\t/nonexist\t7000\t-1\tENOENT\n'
	printf 'sys\t101\t36000000300000\tread\t-\t1000000\t3\t-\n'
	printf 'sys\t100\t36000001400000\tbrk\t-\t1000\t94493204971520\t-\n'
	printf 'sys\t100\t36000001600000\texit_group\t-\t-1\t-1\t-')" ]
	tr from-strace s.txt | tr-cat >/dev/null
}

@test "tr-from-strace: strace -y paths, -ttt times, no pid prefix, gzip input" {
	cat > y.txt <<'TXT'
1700000000.500000 read(3</tmp/x y>, "a", 1) = 1 <0.000002>
[pid  7] 1700000000.600000 write(1</dev/pts/0>, "a", 1) = 1 <0.000003>
TXT
	gzip -c y.txt > y.txt.gz
	run tr from-strace y.txt.gz
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "#meta run=-1.1700000000500000000" ]
	[ "${lines[4]}" = "$(printf 'sys\t-1\t1700000000500000000\tread\t/tmp/x y\t2000\t1\t-')" ]
	[ "${lines[5]}" = "$(printf 'sys\t7\t1700000000600000000\twrite\t/dev/pts/0\t3000\t1\t-')" ]
	# a TAB in a path (fuzzed) made a ninth field
	printf '1700000000.5 read(3</tmp/a\tb>, "a", 1) = 1 <0.000002>\n' > t.txt
	run tr from-strace t.txt
	[ "$status" -eq 0 ]
	[ "${lines[4]}" = "$(printf 'sys\t-1\t1700000000500000000\tread\t/tmp/a b\t2000\t1\t-')" ]
	tr from-strace t.txt | tr cat > /dev/null
}

@test "tr-from-strace: runs appended to one file are runs of their own" {
	printf '5 10:00:00.000001 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000020>\n' > r1.txt
	printf '6 10:00:01.000001 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000040>\n' > r2.txt
	printf '7 10:00:02.000001 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000030>\n' > r3.txt
	for i in 1 2 3; do tr-from-strace r$i.txt >> all.tr; done
	run sh -c "tr-mean all.tr | grep -v '^#' | cut -f2-7"
	[ "$output" = "$(printf '(total)\t3\t30000\t10000\t20000\t40000\nopenat\t3\t30000\t10000\t20000\t40000')" ]
	tr-from-strace r1.txt > one.tr
	run sh -c "tr-diff one.tr all.tr | awk -F'\t' '\$2 == \"openat\" { print \$9, \$10 }'"
	[ "$output" = "1 3" ]
	# The same log twice is one run, written the same way.
	tr-from-strace r1.txt > again.tr
	cmp one.tr again.tr
	# No line, no time stamp: a header without a run.
	printf 'strace: Process 5 attached\n' > none.txt
	run tr from-strace none.txt
	[ "$output" = "$(printf '#tr 1\n#meta tool=tr-from-strace\n%s' "$SF")" ]
}

@test "tr-from-strace: malformed lines are reported with file:line" {
	printf '100 10:00:00.000001 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000020>\nhello world\n' > bad.txt
	run tr from-strace bad.txt
	fails_with 3 "tr-from-strace: bad.txt:2: expected a time stamp"
	printf '100 10:00:00.000001 openat(AT_FDCWD, "/a", O_RDONLY) <0.000020>\n' > bad2.txt
	run tr from-strace bad2.txt
	fails_with 3 "bad2.txt:1: no ' = result'"
	printf '100 10:00:00.000001 <... read resumed>"abc", 3) = 3 <0.1>\n' > bad3.txt
	run tr from-strace bad3.txt
	fails_with 3 "bad3.txt:1: resumed call that did not start"
	printf '100 10:00:00.000001 close(3) = 0 <0.000001>' > bad4.txt
	run tr from-strace bad4.txt
	fails_with 3 "bad4.txt:1: incomplete last line"
	printf '100 99999999999999999.000001 close(3) = 0 <0.000004>\n' > big.txt
	run stderr_of tr from-strace big.txt
	[ "$status" -eq 3 ]
	[ "$output" = "tr-from-strace: big.txt:1: time stamp out of range" ]
	printf '100 1.5 close(3) = 0 <0.000004>\n100 1.6 close(3) = 0 <9999999999.1>\n' > big2.txt
	run stderr_of tr from-strace big2.txt
	[ "$status" -eq 3 ]
	[ "$output" = "tr-from-strace: big2.txt:2: elapsed time <...> out of range" ]
	printf '123456789012345678901 1.5 close(3) = 0 <0.1>\n' > big3.txt
	run stderr_of tr from-strace big3.txt
	[ "$status" -eq 3 ]
	[ "$output" = "tr-from-strace: big3.txt:1: number of more than 18 digits" ]
	run tr from-strace nosuch.txt
	fails_with 4 "nosuch.txt"
	run tr from-strace -x
	fails_with 2 "usage: tr-from-strace"
}

@test "tr-from-strace: a real strace -f of a shell pipeline" {
	command -v strace >/dev/null || skip "no strace"
	mkdir d && echo hi > d/f
	strace -f -tt -T -o s.txt sh -c 'cat d/f | wc -c >/dev/null'
	# cat opens d/f, reads it through the descriptor and closes it.
	run sh -c "tr-from-strace s.txt | tr-cat | awk -F'\t' '\$5 == \"d/f\" { print \$4 }' | sort -u | grep -e openat -e read -e close"
	[ "$output" = "$(printf 'close\nopenat\nread')" ]
	# Every completed call of the log is one record.
	n=$(grep -vc -e '+++' -e '---' -e 'unfinished' s.txt)
	[ "$(tr-from-strace s.txt | grep -c '^sys')" -eq "$n" ]
}

@test "tr-from-strace: strace -ff files take their pid from the name; -tt past midnight goes on" {
	# two processes, each opening a descriptor 3 on its own file
	printf '10:00:00.000001 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000010>\n10:00:00.000300 read(3, "x", 1) = 1 <0.000005>\n' > ff.101
	printf '10:00:00.000002 openat(AT_FDCWD, "/b", O_RDONLY) = 3 <0.000010>\n10:00:00.000400 read(3, "x", 1) = 1 <0.000005>\n' > ff.102
	run sh -c "tr-from-strace ff.101 ff.102 | tr-cat | grep '^sys' | cut -f2,4,5"
	[ "$output" = "$(printf '101\topenat\t/a\n101\tread\t/a\n102\topenat\t/b\n102\tread\t/b')" ]
	printf '23:59:59.900000 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000010>\n00:00:00.100000 read(3, "x", 1) = 1 <0.000005>\n' > mid.txt
	run sh -c "tr-from-strace mid.txt | tr-cat | grep '^sys' | cut -f3"
	[ "$output" = "$(printf '86399900000000\n86400100000000')" ]
}

@test "tr-from-strace: threads share their descriptors (CLONE_FILES); fcntl F_DUPFD copies one" {
	command -v strace >/dev/null || skip "no strace"
	command -v python3 >/dev/null || skip "no python3"
	head -c 200 /dev/zero > A
	head -c 200 /dev/zero > B
	# The main thread opens A as 3; a thread closes it and opens B,
	# which gets 3 again; the main thread reads 97 bytes of B from 3,
	# then 53 through a copy made by fcntl(F_DUPFD_CLOEXEC).
	cat > t.py <<'PY'
import os, threading
fd = os.open("A", os.O_RDONLY)
def t():
    global fd
    os.close(fd)
    fd = os.open("B", os.O_RDONLY)
th = threading.Thread(target=t); th.start(); th.join()
os.read(fd, 97)
os.read(os.dup(fd), 53)
PY
	strace -f -ttt -T -o s.txt python3 t.py
	grep -q 'CLONE_FILES' s.txt
	grep -q 'F_DUPFD' s.txt
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 == \"read\" && (\$7 == 97 || \$7 == 53) { print \$5, \$7 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'B 97\nB 53')" ]
	# A close in one thread forgets the descriptor in all of them.
	printf '5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>\n5 1.1 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD) = 6 <0.000001>\n6 1.2 close(3) = 0 <0.000001>\n5 1.3 read(3, "", 1) = -1 EBADF (Bad file descriptor) <0.000001>\n' > c.txt
	run sh -c "tr-from-strace c.txt | grep '^sys' | cut -f4,5"
	[ "$output" = "$(printf 'openat\t/a\nclone\t-\nclose\t/a\nread\t-')" ]
}

@test "tr-from-strace: a first argument that is a number but no descriptor (an address, a status) has no path" {
	# Descriptor 0 is /a; mmap's address, exit_group's status and
	# kill's pid are not descriptors.
	cat > n.txt <<'TXT'
100 1.000000 openat(AT_FDCWD, "/a", O_RDONLY) = 0 <0.000001>
100 1.000001 read(0, "x", 1) = 1 <0.000001>
100 1.000002 mmap(0x7f34c902e000, 4096, PROT_READ, MAP_PRIVATE|MAP_FIXED, 0, 0) = 0x7f34c902e000 <0.000001>
100 1.000003 munmap(0x7f34c902e000, 4096) = 0 <0.000001>
100 1.000004 kill(0, SIGTERM) = 0 <0.000001>
100 1.000005 fstat(0, {st_mode=S_IFREG|0644, st_size=1, ...}) = 0 <0.000001>
100 1.000006 exit_group(0) = ?
TXT
	run sh -c "tr-from-strace n.txt | grep '^sys' | cut -f4,5"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'openat\t/a\nread\t/a\nmmap\t-\nmunmap\t-\nkill\t-\nfstat\t/a\nexit_group\t-')" ]
	# A real one: wc sizes its standard input, redirected from d/f;
	# the loader's mmap(0x...) and the like are not on descriptor 0.
	command -v strace >/dev/null || skip "no strace"
	mkdir d && echo hi > d/f
	strace -f -tt -T -o s.txt sh -c 'exec wc -c < d/f' >/dev/null
	grep -q 'mmap(0x' s.txt
	tr-from-strace s.txt > s.tr
	grep -q '^sys	[0-9]*	[0-9]*	openat	d/f	' s.tr
	run awk -F'\t' '$5 == "d/f" && $4 ~ /^(mmap|munmap|mprotect|brk|futex|prlimit64|rseq|set_robust_list|set_tid_address|exit_group)$/' s.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "tr-from-strace: a child process starts with a copy of its parent's descriptors" {
	# 5 opens /a as 3 and forks 6, whose first call comes before the
	# fork returns in 5; 6 reads 3 and opens /b as 4; 5 then closes 3
	# and opens /c as 4, which does not change 6's.
	cat > f.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
5 1.1 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
6 1.2 openat(AT_FDCWD, "/b", O_RDONLY) = 4 <0.000001>
5 1.3 <... clone resumed>, child_tidptr=0x7f) = 6 <0.000001>
5 1.4 close(3) = 0 <0.000001>
5 1.5 openat(AT_FDCWD, "/c", O_RDONLY) = 4 <0.000001>
6 1.6 read(3, "x", 1) = 1 <0.000001>
6 1.7 read(4, "x", 1) = 1 <0.000001>
5 1.8 read(4, "x", 1) = 1 <0.000001>
TXT
	run calls f.txt
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '5\topenat\t/a\n6\topenat\t/b\n5\tclone\t-\n5\tclose\t/a\n5\topenat\t/c\n6\tread\t/a\n6\tread\t/b\n5\tread\t/c')" ]
	# A real one: the shell opens d/f as its standard input and forks
	# wc, which sizes it.
	command -v strace >/dev/null || skip "no strace"
	mkdir d && echo hi > d/f
	strace -f -tt -T -o s.txt sh -c 'wc -c < d/f; true' >/dev/null
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$5 == \"d/f\" && \$4 ~ /^(lseek|read|newfstatat|fstat)$/ { print \$4 }' | sort -u | head -n 1"
	[ -n "$output" ]
}

@test "tr-from-strace: a process that exited is forgotten: its pid handed out again is a new process" {
	# 6 opens /old as 3 and exits; 5 opens /new as 3 and forks again,
	# and the kernel hands out 6 again: the new 6 reads 5's /new, not
	# the dead process's /old. 7 exits before the fork that made it
	# returns: that return makes no process, and when 5 has opened
	# /newer as 3 and forks 7 again, the new 7 reads /newer.
	cat > r.txt <<'TXT'
5 1.0 clone(child_stack=NULL, flags=SIGCHLD) = 6 <0.000001>
6 1.1 openat(AT_FDCWD, "/old", O_RDONLY) = 3 <0.000001>
6 1.2 +++ exited with 0 +++
5 1.3 openat(AT_FDCWD, "/new", O_RDONLY) = 3 <0.000001>
5 1.4 clone(child_stack=NULL, flags=SIGCHLD) = 6 <0.000001>
6 1.5 read(3, "x", 1) = 1 <0.000001>
6 1.6 +++ killed by SIGKILL +++
5 1.7 clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
7 1.8 read(3, "x", 1) = 1 <0.000001>
7 1.9 +++ exited with 0 +++
5 2.0 <... clone resumed>) = 7 <0.000001>
5 2.1 close(3) = 0 <0.000001>
5 2.2 openat(AT_FDCWD, "/newer", O_RDONLY) = 3 <0.000001>
5 2.3 clone(child_stack=NULL, flags=SIGCHLD) = 7 <0.000001>
7 2.4 read(3, "x", 1) = 1 <0.000001>
TXT
	run calls r.txt
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '5\tclone\t-\n6\topenat\t/old\n5\topenat\t/new\n5\tclone\t-\n6\tread\t/new\n7\tread\t/new\n5\tclone\t-\n5\tclose\t/new\n5\topenat\t/newer\n5\tclone\t-\n7\tread\t/newer')" ]
	# A thread that exits leaves the table it shared to the others, and
	# a process sharing the table of one that exited keeps it.
	cat > t.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
5 1.1 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD) = 8 <0.000001>
5 1.2 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FILES|SIGCHLD) = 9 <0.000001>
8 1.3 +++ exited with 0 +++
5 1.4 read(3, "x", 1) = 1 <0.000001>
5 1.5 +++ exited with 0 +++
9 1.6 read(3, "x", 1) = 1 <0.000001>
TXT
	run calls t.txt
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '5\topenat\t/a\n5\tclone\t-\n5\tclone\t-\n5\tread\t/a\n9\tread\t/a')" ]
}

@test "tr-from-strace: a child's calls before its parent's fork returns use the parent's descriptors" {
	# As strace -f printed a shell's 'cat d/f | cat > out' (1 run in
	# 30): the reader dup2s the pipe's end 3 onto 0 before the shell's
	# second clone returns with its pid.
	cat > f.txt <<'TXT'
5 1.0 pipe2([3, 4], 0) = 0 <0.000001>
5 1.1 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
7 1.2 dup2(3, 0) = 0 <0.000001>
5 1.3 <... clone resumed>, child_tidptr=0x7f) = 7 <0.000001>
7 1.4 read(0, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace f.txt | awk -F'\t' '\$4 == \"read\" { print \$5 }'"
	[ "$status" -eq 0 ]
	[ "$output" = 'pipe:[]' ]
	# A thread (CLONE_FILES) that opens before the clone returns opens
	# in the table it shares.
	cat > t.txt <<'TXT'
5 1.0 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD <unfinished ...>
8 1.1 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
5 1.2 <... clone resumed>, child_tidptr=0x7f) = 8 <0.000001>
5 1.3 read(3, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace t.txt | awk -F'\t' '\$4 == \"read\" { print \$5 }'"
	[ "$output" = /a ]
	# Two forks unfinished at once: the new process's parent is not
	# known until one returns, and nothing is guessed.
	cat > u.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
6 1.0 openat(AT_FDCWD, "/b", O_RDONLY) = 3 <0.000001>
5 1.1 fork( <unfinished ...>
6 1.1 fork( <unfinished ...>
9 1.2 read(3, "x", 1) = 1 <0.000001>
5 1.3 <... fork resumed>) = 9 <0.000001>
6 1.3 <... fork resumed>) = 10 <0.000001>
9 1.4 read(3, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace u.txt | awk -F'\t' '\$4 == \"read\" { print \$5 }'"
	[ "$output" = "$(printf -- '-\n/a')" ]
}

@test "tr-from-strace: with strace -y an open is named by the path it opened, as the calls on its descriptor are" {
	command -v strace >/dev/null || skip "no strace"
	mkdir d && echo hi > d/f
	strace -f -y -tt -T -o s.txt cat d/f >/dev/null
	grep -q 'openat(AT_FDCWD[^,]*, "d/f", O_RDONLY) = [0-9]*</' s.txt
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$5 ~ /d\/f\$/ { print \$5 }' | sort -u"
	[ "$status" -eq 0 ]
	[ "$output" = "$(pwd -P)/d/f" ]
	# A failed open has no descriptor to show: the name it was given.
	printf '7 1.0 openat(AT_FDCWD</x>, "no", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000001>\n' > e.txt
	run sh -c "tr-from-strace e.txt | grep '^sys' | cut -f5"
	[ "$output" = "no" ]
}

@test "tr-from-strace: execve closes the descriptors marked close-on-exec, and only those" {
	# 5 opens /a (close-on-exec, then cleared), /b (set by fcntl), /c
	# (set by ioctl), copies /a to 6 (dup3, marked) and 7 (dup2, not;
	# then 7 onto itself), opens files named like the flag; child 9
	# execs, 5 reads 4 before its own execve, a failed one first.
	cat > x.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY|O_CLOEXEC) = 3 <0.000001>
5 1.1 openat(AT_FDCWD, "/b", O_RDONLY) = 4 <0.000001>
5 1.2 fcntl(4, F_SETFD, FD_CLOEXEC) = 0 <0.000001>
5 1.3 openat(AT_FDCWD, "/c", O_RDONLY) = 5 <0.000001>
5 1.4 ioctl(5, FIOCLEX) = 0 <0.000001>
5 1.5 dup3(3, 6, O_CLOEXEC) = 6 <0.000001>
5 1.6 dup2(3, 7) = 7 <0.000001>
5 1.65 dup2(7, 7) = 7 <0.000001>
5 1.7 openat(AT_FDCWD, "/O_CLOEXEC", O_RDONLY) = 8 <0.000001>
5 1.75 openat(3</d O_CLOEXEC>, "f", O_RDONLY) = 9 <0.000001>
5 1.8 fcntl(3, F_SETFD, 0) = 0 <0.000001>
5 1.9 clone(child_stack=NULL, flags=SIGCHLD) = 9 <0.000001>
9 2.0 execve("/bin/x", ["x"], 0x7f /* 1 var */) = 0 <0.000001>
9 2.1 read(4, "x", 1) = 1 <0.000001>
5 2.2 read(4, "x", 1) = 1 <0.000001>
5 2.3 execve("/nonexist", ["x"], 0x7f /* 1 var */) = -1 ENOENT (No such file or directory) <0.000001>
5 2.4 read(4, "x", 1) = 1 <0.000001>
5 2.5 execve("/bin/x", ["x"], 0x7f /* 1 var */) = 0 <0.000001>
5 2.6 read(3, "x", 1) = 1 <0.000001>
5 2.7 read(4, "x", 1) = 1 <0.000001>
5 2.8 read(5, "x", 1) = 1 <0.000001>
5 2.9 read(6, "x", 1) = 1 <0.000001>
5 3.0 read(7, "x", 1) = 1 <0.000001>
5 3.1 read(8, "x", 1) = 1 <0.000001>
5 3.2 read(9, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace x.txt | awk -F'\t' '\$4 == \"read\" { print \$2, \$5 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '9 -' '5 /b' '5 /b' '5 /a' '5 -' '5 -' '5 -' '5 /a' '5 /O_CLOEXEC' '5 f')" ]
	# A real one: Python opens close-on-exec; /bin/sh reads the copy
	# left open (7) and finds the one marked by fcntl (8) closed.
	command -v strace >/dev/null || skip "no strace"
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	echo aaa > a && echo bbb > b
	cat > ce.py <<'PY'
import os, fcntl
os.dup2(os.open("a", os.O_RDONLY), 7)
os.dup2(os.open("b", os.O_RDONLY), 8)
fcntl.fcntl(8, fcntl.F_SETFD, fcntl.FD_CLOEXEC)
os.execv("/bin/sh", ["sh", "-c", "cat <&7; cat <&8"])
PY
	strace -f -tt -T -o s.txt "$py" ce.py > out 2>/dev/null || true
	[ "$(cat out)" = aaa ]
	grep -q 'dup2(8, 0) *= -1 EBADF' s.txt
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 == \"dup2\" && \$7 == -1 { print \$5, \$8 }'"
	[ "$output" = "- EBADF" ]
	# cat reads a (or copies it: copy_file_range) through its fd 0
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 ~ /^(read|copy_file_range)\$/ && \$5 == \"a\" && \$7 > 0 { n++ } END { print (n > 0) }'"
	[ "$output" = 1 ]
}

@test "tr-from-strace: pipes and sockets without strace -y are pipe:[] and socket:[], no file data" {
	cat > p.txt <<'TXT'
5 1.0 pipe([3, 4]) = 0 <0.000001>
5 1.1 pipe2([5, 6], O_CLOEXEC) = 0 <0.000001>
5 1.2 socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 7 <0.000001>
5 1.3 socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [8, 9]) = 0 <0.000001>
5 1.4 accept4(7, {sa_family=AF_INET}, [16], SOCK_CLOEXEC) = 10 <0.000001>
5 1.5 pipe2([11<pipe:[42]>, 12<pipe:[42]>], 0) = 0 <0.000001>
5 1.6 openat(AT_FDCWD, "/f", O_RDONLY) = 13 <0.000001>
5 2.0 write(4, "x", 1) = 1 <0.000001>
5 2.1 read(3, "x", 1) = 1 <0.000001>
5 2.2 read(5, "x", 1) = 1 <0.000001>
5 2.3 write(7, "x", 1) = 1 <0.000001>
5 2.4 read(9, "x", 1) = 1 <0.000001>
5 2.5 read(10, "x", 1) = 1 <0.000001>
5 2.6 read(11, "x", 1) = 1 <0.000001>
5 2.7 read(13, "x", 1) = 1 <0.000001>
5 3.0 execve("/bin/x", ["x"], 0x7f /* 1 var */) = 0 <0.000001>
5 3.1 read(3, "x", 1) = 1 <0.000001>
5 3.2 read(5, "x", 1) = 1 <0.000001>
5 3.3 read(8, "x", 1) = 1 <0.000001>
5 3.4 read(10, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace p.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ { print \$5 }'"
	[ "$status" -eq 0 ]
	# after the execve, those opened close-on-exec are gone
	[ "$output" = "$(printf '%s\n' 'pipe:[]' 'pipe:[]' 'pipe:[]' 'socket:[]' 'socket:[]' 'socket:[]' 'pipe:[42]' /f \
		'pipe:[]' - - -)" ]
	# Before the execve, only the file's read is data.
	run sh -c "sed '/execve/,\$d' p.txt | tr-from-strace | tr-mean -k class -v calls | awk -F'\t' '\$2 == \"data\" { print \$4 }'"
	[ "$output" = 1 ]
	# A real pipeline and real sockets: no read or write of a
	# descriptor unknown, and the pipe's and sockets' are no data.
	command -v strace >/dev/null || skip "no strace"
	mkdir d && echo hi > d/f
	strace -f -tt -T -o s.txt sh -c 'cat d/f | cat > out' < /dev/null
	[ "$(cat out)" = hi ]
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ && \$7 > 0 { print \$4, \$5 }' | grep -v '^read /' | sort -u"
	[ "$output" = "$(printf '%s\n' 'read d/f' 'read pipe:[]' 'write out' 'write pipe:[]')" ]
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	cat > so.py <<'PY'
import os, socket
a, b = socket.socketpair()
os.write(a.fileno(), b"x"); os.read(b.fileno(), 1)
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.socket(); c.connect(s.getsockname()); t, _ = s.accept()
os.write(c.fileno(), b"y"); os.read(t.fileno(), 1)
PY
	strace -f -tt -T -o so.txt "$py" so.py
	run sh -c "tr-from-strace so.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ && \$7 == 1 { print \$4, \$5 }' | sort | uniq -c | sed 's/^ *//'"
	[ "$output" = "$(printf '%s\n' '2 read socket:[]' '2 write socket:[]')" ]
}
