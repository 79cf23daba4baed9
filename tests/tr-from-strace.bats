load helper

# calls FILE: pid, call and path of each sys record of an strace log.
calls() {
	tr-from-strace "$1" | grep '^sys' | cut -f2,4,5
}

SF=$(printf '#fields\tsys\tpid\ttime\tcall\tpath\telapsed\tresult\terr')

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# A Python script that writes a byte to a socketpair and one over TCP,
# and reads each.
sockets_py() {
	cat <<'PY'
import os, socket
a, b = socket.socketpair()
os.write(a.fileno(), b"x"); os.read(b.fileno(), 1)
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.socket(); c.connect(s.getsockname()); t, _ = s.accept()
os.write(c.fileno(), b"y"); os.read(t.fileno(), 1)
PY
}

# The pid and path of the records of the calls matching $2 (a regular
# expression) in strace log $1.
pid_paths() {
	tr-from-strace "$1" | awk -F'\t' -v c="^($2)\$" '$1 == "sys" && $4 ~ c { print $2, $5 }'
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

@test "tr-from-strace: a process with a table of its own (execve) or a thread superseded by execve is forgotten too: its pid handed out again is a new process" {
	# 5's execve gave it a table of its own; with 5 gone, the new 5
	# copies 4's.
	cat > e.txt <<'TXT'
4 1.0 openat(AT_FDCWD, "/x", O_RDONLY) = 3 <0.000001>
4 1.1 clone(child_stack=NULL, flags=SIGCHLD) = 5 <0.000001>
5 1.2 execve("/bin/a", ["a"], 0x1 /* 1 var */) = 0 <0.000001>
5 1.3 close(3) = 0 <0.000001>
5 1.4 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
5 1.5 +++ exited with 0 +++
4 1.6 clone(child_stack=NULL, flags=SIGCHLD) = 5 <0.000001>
5 1.7 read(3, "x", 1) = 1 <0.000001>
TXT
	run pid_paths e.txt read
	[ "$status" -eq 0 ]
	[ "$output" = "5 /x" ]
	# Thread 11's execve goes on as its leader 10, and 11 is no more:
	# the new 11 copies 10's table after the execve, /p closed in it.
	cat > s.txt <<'TXT'
10 2.0 openat(AT_FDCWD, "/p", O_RDONLY|O_CLOEXEC) = 4 <0.000001>
10 2.1 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD) = 11 <0.000001>
11 2.2 openat(AT_FDCWD, "/t", O_RDONLY) = 5 <0.000001>
11 2.3 execve("/bin/b", ["b"], 0x1 /* 1 var */ <unfinished ...>
10 2.4 +++ superseded by execve in pid 11 +++
10 2.5 <... execve resumed>) = 0 <0.000001>
10 2.6 read(5, "x", 1) = 1 <0.000001>
10 2.7 read(4, "x", 1) = -1 EBADF (Bad file descriptor) <0.000001>
10 2.8 clone(child_stack=NULL, flags=SIGCHLD) = 11 <0.000001>
11 2.9 read(4, "x", 1) = -1 EBADF (Bad file descriptor) <0.000001>
11 3.0 read(5, "x", 1) = 1 <0.000001>
TXT
	run pid_paths s.txt read
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '10 /t' '10 -' '11 -' '11 /t')" ]
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
	# (strace may split the call around another process's line)
	grep -Eq 'dup2\(8, 0(\) *= -1 EBADF| <unfinished)' s.txt
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
	sockets_py > so.py
	strace -f -tt -T -o so.txt "$py" so.py
	run sh -c "tr-from-strace so.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ && \$7 == 1 { print \$4, \$5 }' | sort | uniq -c | sed 's/^ *//'"
	[ "$output" = "$(printf '%s\n' '2 read socket:[]' '2 write socket:[]')" ]
}

@test "tr-from-strace: close_range closes the descriptors in its range, or marks them close-on-exec" {
	# As strace -f printed Python's subprocess child (close_fds) and a
	# C program's close_range(4, ~0U, CLOSE_RANGE_CLOEXEC) before its
	# execve: 9 and 20 are closed, 14 (pass_fds) is left; 4 is closed
	# by the execve, 3 is not.
	cat > c.txt <<'TXT'
655   1795805086.815000 openat(AT_FDCWD, "/a", O_RDONLY) = 9 <0.000009>
655   1795805086.815100 openat(AT_FDCWD, "/b", O_RDONLY) = 14 <0.000009>
655   1795805086.815200 openat(AT_FDCWD, "/c", O_RDONLY) = 20 <0.000009>
655   1795805086.817444 close_range(3, 13, 0) = 0 <0.000009>
655   1795805086.817471 close_range(15, 2147483647, 0) = 0 <0.000010>
655   1795805086.817500 read(9, "x", 1) = -1 EBADF (Bad file descriptor) <0.000009>
655   1795805086.817600 read(14, "x", 1) = 1 <0.000009>
655   1795805086.817700 read(20, "x", 1) = -1 EBADF (Bad file descriptor) <0.000009>
23068 1795805316.599023 openat(AT_FDCWD, "cr.c", O_RDONLY) = 3 <0.000012>
23068 1795805316.599058 openat(AT_FDCWD, "fds.c", O_RDONLY) = 4 <0.000010>
23068 1795805316.599088 close_range(4, 4294967295, CLOSE_RANGE_CLOEXEC) = 0 <0.000008>
23068 1795805316.599100 read(4, "x", 1) = 1 <0.000009>
23068 1795805316.599143 execve("/bin/sh", ["sh", "-c", "cat <&4; cat <&3 | wc -c"], 0x7ffd64603288 /* 37 vars */) = 0 <0.000163>
23068 1795805316.601498 dup2(4, 0)      = -1 EBADF (Bad file descriptor) <0.000008>
23068 1795805316.601500 read(3, "x", 1) = 1 <0.000009>
TXT
	run pid_paths c.txt 'read|dup2'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '655 -' '655 /b' '655 -' '23068 fds.c' '23068 -' '23068 cr.c')" ]
	# With CLOSE_RANGE_UNSHARE the process closes in a table of its
	# own: a process sharing its table (clone CLONE_FILES) keeps 3.
	cat > u.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
5 1.1 clone(child_stack=0x7f, flags=CLONE_FILES|SIGCHLD) = 6 <0.000001>
6 1.2 close_range(3, 3, CLOSE_RANGE_UNSHARE) = 0 <0.000001>
6 1.3 read(3, "x", 1) = -1 EBADF (Bad file descriptor) <0.000001>
5 1.4 read(3, "x", 1) = 1 <0.000001>
TXT
	run pid_paths u.txt read
	[ "$output" = "$(printf '%s\n' '6 -' '5 /a')" ]
	# A real one: the shell's descriptor 7 is closed by Python's
	# subprocess in the child, whose shell then fails to copy it.
	command -v strace >/dev/null || skip "no strace"
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	echo aaa > a
	strace -f -tt -T -o s.txt sh -c "exec 7<a; $py -c 'import subprocess; subprocess.run([\"sh\", \"-c\", \"cat <&7\"])'" 2>/dev/null
	grep -q 'close_range(' s.txt || skip "this Python closes without close_range"
	# (strace may split the call around another process's line)
	grep -Eq 'dup2\(7, 0(\) *= -1 EBADF| <unfinished)' s.txt
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 == \"dup2\" && \$7 == -1 { print \$5, \$8 }'"
	[ "$output" = "- EBADF" ]
}

@test "tr-from-strace: eventfd, epoll, signalfd, timerfd, inotify, pidfd and memfd descriptors are named as strace -y names them, no file data" {
	# As strace -f printed Python's os.eventfd, selectors, memfd_create
	# and pidfd_open, and a C program's signalfd, timerfd and inotify.
	cat > a.txt <<'TXT'
654   1795805086.813856 eventfd2(0, EFD_CLOEXEC) = 3 <0.000015>
654   1795805086.813900 write(3, "\1\0\0\0\0\0\0\0", 8) = 8 <0.000008>
654   1795805086.813932 read(3, "\1\0\0\0\0\0\0\0", 8) = 8 <0.000010>
654   1795805086.813986 epoll_create1(EPOLL_CLOEXEC) = 4 <0.000012>
654   1795805086.814187 epoll_ctl(4, EPOLL_CTL_ADD, 6, {events=EPOLLIN, data={u32=6, u64=6}}) = 0 <0.000015>
654   1795805086.814391 epoll_wait(4, [{events=EPOLLIN, data={u32=6, u64=6}}], 1, 1000) = 1 <0.000012>
654   1795805086.814494 memfd_create("buf", MFD_CLOEXEC) = 7 <0.000020>
654   1795805086.814545 write(7, "hello", 5) = 5 <0.000019>
654   1795805086.814593 lseek(7, 0, SEEK_SET) = 0 <0.000010>
654   1795805086.814628 read(7, "hello", 5) = 5 <0.000011>
654   1795805086.814745 pidfd_open(654, 0) = 8 <0.000015>
654   1795805086.814780 close(8)        = 0 <0.000013>
2651  1795805109.082008 signalfd4(-1, [USR1], 8, SFD_CLOEXEC) = 3 <0.000031>
2651  1795805109.082267 read(3, "\n\0\0\0\0\0\0\0\372\377\377\377[\n\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"..., 128) = 128 <0.000030>
2651  1795805109.082332 timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC) = 4 <0.000030>
2651  1795805109.082471 read(4, "\1\0\0\0\0\0\0\0", 8) = 8 <0.001028>
2651  1795805109.083563 inotify_init1(IN_CLOEXEC) = 5 <0.000041>
2651  1795805109.083644 inotify_add_watch(5, "/tmp", IN_CREATE) = 1 <0.000041>
2651  1795805109.083730 close(5)        = 0 <0.013094>
2651  1795805109.096884 eventfd2(0, 0)  = 5 <0.000015>
2651  1795805109.097014 dup(5)          = 6 <0.000008>
2651  1795805109.097039 read(6, 0x7ffc55d8f7c8, 0) = -1 EINVAL (Invalid argument) <0.000008>
2651  1795805109.097050 execve("/bin/x", ["x"], 0x7f /* 1 var */) = 0 <0.000001>
2651  1795805109.097060 read(3, "x", 1) = -1 EBADF (Bad file descriptor) <0.000001>
2651  1795805109.097070 read(5, "x", 1) = 1 <0.000001>
TXT
	run sh -c "tr-from-strace a.txt | awk -F'\t' '\$4 ~ /^(read|write|lseek|epoll_ctl|epoll_wait|close|inotify_add_watch)\$/ { print \$5 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'anon_inode:[eventfd]' 'anon_inode:[eventfd]' \
		'anon_inode:[eventpoll]' 'anon_inode:[eventpoll]' /memfd:buf /memfd:buf /memfd:buf pid:654 \
		'anon_inode:[signalfd]' 'anon_inode:[timerfd]' anon_inode:inotify anon_inode:inotify \
		'anon_inode:[eventfd]' - 'anon_inode:[eventfd]')" ]
	# None of it is file data or metadata: the 13 ms close of the
	# inotify descriptor is no file system's.
	run sh -c "sed '/execve/,\$d' a.txt | tr-from-strace | tr-mean -k class -v calls | awk -F'\t' '\$1 == \"mean\" && \$2 != \"(total)\" { print \$2, \$4 }'"
	[ "$output" = "$(printf '%s\n' 'other 22')" ]
	# A real one: Python's eventfd, selectors (epoll) and memfd.
	command -v strace >/dev/null || skip "no strace"
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	cat > ev.py <<'PY'
import os, selectors
e = os.eventfd(0)
sel = selectors.DefaultSelector()
sel.register(e, selectors.EVENT_READ)
os.eventfd_write(e, 1); sel.select(1); os.eventfd_read(e)
m = os.memfd_create("buf")
os.write(m, b"hello"); os.lseek(m, 0, 0); os.read(m, 5)
PY
	strace -f -tt -T -o s.txt "$py" ev.py 2>/dev/null || skip "this Python lacks os.eventfd"
	grep -q 'epoll_wait(' s.txt || skip "no epoll selector"
	# (the reads and writes of 5 and 8 bytes but those of files)
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 ~ /^(read|write|epoll_wait)\$/ && (\$7 == 8 || \$7 == 5 || \$4 == \"epoll_wait\") && \$5 !~ /^\/[^m]/ { print \$4, \$5 }' | sort -u"
	[ "$output" = "$(printf '%s\n' 'epoll_wait anon_inode:[eventpoll]' 'read /memfd:buf' 'read anon_inode:[eventfd]' 'write /memfd:buf' 'write anon_inode:[eventfd]')" ]
}

@test "tr-from-strace: with strace -yy sockets are named whole and are no file data; a device is named by its path" {
	# As strace -f -yy printed Python's TCP, TCPv6 and UNIX sockets,
	# and a shell's standard input from /dev/null.
	cat > yy.txt <<'TXT'
2616  1795805108.957912 write(4<TCP:[127.0.0.1:36706->127.0.0.1:51937]>, "y", 1) = 1 <0.000030>
2616  1795805108.958220 read(5<TCP:[127.0.0.1:51937->127.0.0.1:36706]>, "y", 1) = 1 <0.000010>
2616  1795805108.961877 accept4(7<TCPv6:[[::1]:56449]>, {sa_family=AF_INET6, sin6_port=htons(42768), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, [28], SOCK_CLOEXEC) = 9<TCPv6:[[::1]:56449->[::1]:42768]> <0.000046>
2616  1795805108.962627 read(9, "q", 1) = 1 <0.000010>
1628  1795805094.124516 socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [5<UNIX-STREAM:[14160573->14160574]>, 6<UNIX-STREAM:[14160574->14160573]>]) = 0 <0.000022>
1628  1795805094.124600 write(5, "x", 1) = 1 <0.000011>
1628  1795805094.125070 write(7</memfd:buf>(deleted), "hello", 5) = 5 <0.000016>
3259  1795805115.113352 dup2(3</dev/null<char 1:3>>, 0) = 0</dev/null<char 1:3>> <0.000033>
3259  1795805115.113400 read(0</dev/null<char 1:3>>, "", 4096) = 0 <0.000010>
3259  1795805115.113500 openat(AT_FDCWD</tmp/x>, "a>b", O_RDONLY) = 3</tmp/x/a\76b> <0.000036>
TXT
	run sh -c "tr-from-strace yy.txt | awk -F'\t' '\$1 == \"sys\" { print \$4, \$5 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'write TCP:[127.0.0.1:36706->127.0.0.1:51937]' 'read TCP:[127.0.0.1:51937->127.0.0.1:36706]' \
		'accept4 TCPv6:[[::1]:56449]' 'read TCPv6:[[::1]:56449->[::1]:42768]' 'socketpair -' \
		'write UNIX-STREAM:[14160573->14160574]' 'write /memfd:buf' 'dup2 /dev/null' 'read /dev/null' 'openat /tmp/x/a\76b')" ]
	# Only the read of /dev/null is data.
	run sh -c "tr-from-strace yy.txt | tr-mean -k class -v calls | awk -F'\t' '\$1 == \"mean\" && \$2 != \"(total)\" { print \$2, \$4 }'"
	[ "$output" = "$(printf '%s\n' 'other 8' 'data 1' 'metadata 1')" ]
	# A real one.
	command -v strace >/dev/null || skip "no strace"
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	sockets_py > so.py
	strace -f -yy -tt -T -o so.txt "$py" so.py
	grep -q 'write([0-9]*<TCP:\[127.0.0.1:[0-9]*->127' so.txt || skip "this strace -yy shows no TCP ends"
	run sh -c "tr-from-strace so.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ && \$7 == 1 { sub(/:\\[.*/, \"\", \$5); print \$4, \$5 }' | sort | uniq -c | sed 's/^ *//'"
	[ "$output" = "$(printf '%s\n' '1 read TCP' '1 read UNIX-STREAM' '1 write TCP' '1 write UNIX-STREAM')" ]
	run sh -c "tr-from-strace so.txt | awk -F'\t' '\$4 ~ /^(read|write)\$/ && \$7 == 1 && \$5 !~ /\\]\$/'"
	[ -z "$output" ]
	run sh -c "tr-from-strace so.txt | awk -F'\t' '/^#/ || \$4 ~ /^(read|write)\$/ && \$7 == 1' | tr-mean -k class -v calls | awk -F'\t' '\$1 == \"mean\" && \$2 != \"(total)\" { print \$2, \$4 }'"
	[ "$output" = "other 4" ]
}

@test "tr-from-strace: execve gives the process a table of its own; a thread's execve is its process's" {
	# As strace -f printed a C program that opens cf.c close-on-exec,
	# then clone(CLONE_FILES|SIGCHLD)s a child that execs /bin/true:
	# the kernel copies the table for the child before closing its
	# close-on-exec descriptors, and the parent still reads cf.c.
	cat > cf.txt <<'TXT'
4460  1795805135.146251 openat(AT_FDCWD, "cf.c", O_RDONLY|O_CLOEXEC) = 3 <0.000038>
4460  1795805135.146346 clone(child_stack=0x5574e623e050, flags=CLONE_FILES|SIGCHLD) = 4461 <0.000119>
4460  1795805135.146522 wait4(4461,  <unfinished ...>
4461  1795805135.148808 execve("/bin/true", ["true"], 0x7ffece3a1a58 /* 37 vars */) = 0 <0.000266>
4461  1795805135.148900 read(3, "x", 1) = -1 EBADF (Bad file descriptor) <0.000007>
4461  1795805135.150406 exit_group(0)   = ?
4461  1795805135.150552 +++ exited with 0 +++
4460  1795805135.150596 <... wait4 resumed>NULL, 0, NULL) = 4461 <0.004054>
4460  1795805135.150699 read(3, "#def", 4) = 4 <0.000036>
TXT
	run pid_paths cf.txt read
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '4461 -' '4460 cf.c')" ]
	# A thread (4475) execs: strace says its leader (4468) was
	# superseded, and the leader's pid completes the execve, which
	# closes the process's close-on-exec descriptors.
	cat > te.txt <<'TXT'
4468  1795805135.443282 openat(AT_FDCWD, "/tmp/te.py", O_RDONLY|O_CLOEXEC) = 3 <0.000037>
4468  1795805135.454475 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f84e5ade990, parent_tid=0x7f84e5ade990, exit_signal=0, stack=0x7f84e52de000, stack_size=0x7fff80, tls=0x7f84e5ade6c0} => {parent_tid=[4475]}, 88) = 4475 <0.000130>
4475  1795805135.455099 futex(0x563ffea582c0, FUTEX_WAKE_PRIVATE, 1) = 1 <0.000021>
4475  1795805135.455214 execve("/bin/true", ["true"], 0x7ffc2e7bb400 /* 37 vars */ <unfinished ...>
4468  1795805135.455271 futex(0x7f84e674e6f0, FUTEX_WAIT_BITSET_PRIVATE, 0, {tv_sec=61717, tv_nsec=443586805}, FUTEX_BITSET_MATCH_ANY) = ?
4468  1795805135.456814 +++ superseded by execve in pid 4475 +++
4468  1795805135.456849 <... execve resumed>) = 0 <0.001602>
4468  1795805135.456886 read(3, "x", 1) = -1 EBADF (Bad file descriptor) <0.000008>
4468  1795805135.458168 +++ exited with 0 +++
TXT
	run tr from-strace te.txt
	[ "$status" -eq 0 ]
	run sh -c "tr-from-strace te.txt | awk -F'\t' '\$4 ~ /^(execve|read)\$/ { print \$2, \$3, \$4, \$5, \$6 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '4468 1795805135455214000 execve /bin/true 1602000' '4468 1795805135456886000 read - 8000')" ]
	# With no other line between, strace ends the thread's line with
	# the leader's pid instead (1 run in 30 on a loaded machine).
	cat > pc.txt <<'TXT'
31831 19:31:16.279877 futex(0x55d8e61f4100, FUTEX_WAKE_PRIVATE, 1) = 1 <0.000027>
31831 19:31:16.280009 execve("/bin/true", ["true"], 0x7fffc4e58c10 /* 37 vars */ <pid changed to 31815 ...>
31815 19:31:16.281761 +++ superseded by execve in pid 31831 +++
31815 19:31:16.281792 <... execve resumed>) = 0 <0.001754>
TXT
	run sh -c "tr-from-strace pc.txt | awk -F'\t' '\$4 == \"execve\" { print \$2, \$3, \$5, \$6 }'"
	[ "$output" = "31815 70276280009000 /bin/true 1754000" ]
	# The leader may enter a call strace cannot name before it goes
	# ("???", 1 run in 30): no call, no record.
	cat > qq.txt <<'TXT'
6636  21:24:34.311195 execve("/bin/true", ["true"], 0x7ffc0ff070c0 /* 40 vars */ <unfinished ...>
6595  21:24:34.311307 ???()             = ?
6595  21:24:34.313167 +++ superseded by execve in pid 6636 +++
6595  21:24:34.313213 <... execve resumed>) = 0 <0.001997>
6595  21:24:34.313269 brk(NULL)         = 0x55da0aca9000 <0.000011>
6596  21:24:34.313300 ???( <unfinished ...>
6596  21:24:34.313400 <... ??? resumed>) = ?
TXT
	run sh -c "tr-from-strace qq.txt | awk -F'\t' '\$1 == \"sys\" { print \$2, \$4, \$6 }'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '6595 execve 1997000' '6595 brk 11000')" ]
	# Real ones.
	command -v strace >/dev/null || skip "no strace"
	py=$(python3 -c 'import sys; print(sys.executable)') || skip "no python3"
	cat > te.py <<'PY'
import os, threading, time
threading.Thread(target=lambda: os.execv("/bin/true", ["true"])).start()
time.sleep(10)
PY
	strace -f -tt -T -o s.txt "$py" te.py
	grep -q 'superseded by execve' s.txt
	run tr from-strace s.txt
	[ "$status" -eq 0 ]
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 == \"execve\" && \$7 == 0 { print \$5 }'"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = /bin/true ]
	command -v cc >/dev/null || skip "no cc"
	cat > cf.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
static char stack[65536];
static int child(void *a) { (void)a; execl("/bin/true", "true", (char *)0); return 1; }
int main(void) {
	char b[4];
	int fd = open("cf.c", O_RDONLY | O_CLOEXEC);
	waitpid(clone(child, stack + sizeof stack, CLONE_FILES | SIGCHLD, 0), 0, 0);
	return read(fd, b, 4) != 4;
}
C
	cc -o cf cf.c || skip "cannot build"
	strace -f -tt -T -o s.txt ./cf
	run sh -c "tr-from-strace s.txt | awk -F'\t' '\$4 == \"read\" && \$7 == 4 { print \$5 }' | tail -n 1"
	[ "$output" = cf.c ]
}

@test "tr-from-strace: a process first seen while forks are unfinished: its parent is the one left unfinished; an execve before its fork returns closes what it inherits close-on-exec" {
	# As strace -f printed a Python script's children (8 subprocess
	# Popens whose shells fork and exec at once): 5 and 6 are in
	# forks, 6's returns, and then 9 appears: 5's child. It had
	# crashed tr-from-strace.
	cat > f.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY) = 3 <0.000001>
6 1.0 openat(AT_FDCWD, "/b", O_RDONLY) = 3 <0.000001>
5 1.1 vfork( <unfinished ...>
6 1.2 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
6 1.3 <... clone resumed>, child_tidptr=0x7f) = 8 <0.000001>
9 1.4 dup2(3, 1) = 1 <0.000001>
5 1.5 <... vfork resumed>) = 9 <0.000001>
9 1.6 write(1, "x", 1) = 1 <0.000001>
TXT
	run tr from-strace f.txt
	[ "$status" -eq 0 ]
	run pid_paths f.txt write
	[ "$output" = "9 /a" ]
	# With both forks unfinished, 9 is known to be 5's (a posix_spawn)
	# only after it made its execve: 5's close-on-exec /a is closed,
	# its /b open.
	cat > v.txt <<'TXT'
5 1.0 openat(AT_FDCWD, "/a", O_RDONLY|O_CLOEXEC) = 3 <0.000001>
5 1.0 openat(AT_FDCWD, "/b", O_RDONLY) = 4 <0.000001>
5 1.1 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x7f75eef64000, stack_size=0x9000}, 88 <unfinished ...>
6 1.2 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
9 1.3 execve("/bin/x", ["x"], 0x7f /* 1 var */) = 0 <0.000001>
5 1.4 <... clone3 resumed>) = 9 <0.000001>
9 1.5 read(3, "x", 1) = -1 EBADF (Bad file descriptor) <0.000001>
9 1.6 read(4, "x", 1) = 1 <0.000001>
TXT
	run pid_paths v.txt read
	[ "$output" = "$(printf '%s\n' '9 -' '9 /b')" ]
}
