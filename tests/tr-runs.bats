load helper

PF=$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')

# prof FILE TIME: a one-rank profile of TIME ns, with labels in #meta
prof() {
	printf '#tr 1\n#meta app=demo\n#meta np=1\n#meta mpi=ompi\n#meta host.0=n1\n#meta cond.fs=%s\n%s\nprof\t0\tmain\t1\t0\t%s\t%s\t0\n' \
		"$3" "$PF" "$2" "$2" > "$1"
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	prof p1.tr 100 nfs
	prof p2.tr 300 nfs
	prof p3.tr 50 ext4
}

@test "tr-runs add: labels from the data and -l; folder, meta, index" {
	run tr runs -d S add -l night=20240101 p1.tr
	[ "$status" -eq 0 ]
	[ "$output" = "000001" ]
	[ -f S/runs/000001/data.tr.gz ]
	[ -f S/runs/000001/meta ]
	run sh -c "sed 's/date=[^\t]*/date=D/' S/index"
	[ "$output" = "$(printf '#tr-runs 1\nid=000001\tenabled=1\tapp=demo\tnp=1\tnodes=1\tplace=n1\tlib=ompi\tfs=nfs\tdate=D\ttime=100\tnight=20240101')" ]
	grep -qx 'fs=nfs' S/runs/000001/meta
	# The data is kept whole.
	run sh -c "gzip -dc S/runs/000001/data.tr.gz | diff - p1.tr"
	[ "$status" -eq 0 ]
}

@test "tr-runs: a trace directory of per-rank files is one run; exec time from the events" {
	mkdir t
	{ hdr 2; ev 0 0 MPI_Init 100 200; ev 0 1 MPI_Finalize 900 1000; } > t/rank.0.tr
	{ hdr 2; ev 1 0 MPI_Init 110 220; ev 1 1 MPI_Finalize 950 1300; } > t/rank.1.tr
	run tr runs -d S add t
	[ "$output" = "000001" ]
	run sh -c "tr-runs -d S list | tr '\t' '\n' | grep '^time='"
	[ "$output" = "time=1200" ]
	run sh -c "gzip -dc S/runs/000001/data.tr.gz | grep -c '^ev'"
	[ "$output" = "4" ]
}

# A script keeps the ids add prints (nightly.mk disables them when a
# later add fails): an id lost to a full disk is a failure.
@test "tr-runs add: an id that cannot be written is an error" {
	tr-runs -d S add p1.tr >/dev/null
	run sh -c 'tr-runs -d S add p2.tr >/dev/full'
	fails_with 4 "tr-runs: stdout: No space left on device"
	# the run itself is stored
	[ "$(tr-runs -d S list 'time == 300' | cut -f1)" = "id=000002" ]
}

@test "tr-runs add: a trace directory without a rank's file is not stored" {
	mkdir t
	{ hdr 3; ev 0 0 MPI_Init 100 200; } > t/rank.0.tr
	{ hdr 3; ev 2 0 MPI_Init 110 220; } > t/rank.2.tr
	run stderr_of tr runs -d S add t
	[ "$status" -eq 3 ]
	[ "$output" = "tr-runs: t/rank.0.tr:2: np=3, but rank 1 has no records: a rank's file missing? (a selection of ranks says #meta subset)" ]
	[ ! -e S/index ]
	[ -z "$(ls -A S/runs)" ]
	{ hdr 3; ev 1 0 MPI_Init 100 300; } > t/rank.1.tr
	run tr runs -d S add t
	[ "$status" -eq 0 ]
	[ "$output" = 000001 ]
}

@test "tr-runs list, paths, values: selection with the expression language" {
	tr-runs -d S add p1.tr p2.tr p3.tr >/dev/null
	run sh -c "tr-runs -d S list 'fs == \"nfs\" && time > 150' | cut -f1"
	[ "$output" = "id=000002" ]
	run tr runs -d S paths 'fs == "nfs"'
	[ "$output" = "$(printf 'S/runs/000001/data.tr.gz\nS/runs/000002/data.tr.gz')" ]
	run tr runs -d S values fs
	[ "$output" = "$(printf 'ext4\nnfs')" ]
	run tr runs -d S values time 'fs ~ "^n"'
	[ "$output" = "$(printf '100\n300')" ]
	# numbers in numeric order (night 10 after night 9), then the rest
	for n in 9 10 x 11; do
		tr-runs -d N add -l night=$n p1.tr > /dev/null
	done
	run tr runs -d N values night
	[ "$output" = "$(printf '9\n10\n11\nx')" ]
}

@test "tr-runs enable/disable: disabled runs are left out unless -a" {
	tr-runs -d S add p1.tr p2.tr >/dev/null
	run tr runs -d S disable 000001
	[ "$status" -eq 0 ]
	run sh -c "tr-runs -d S list | cut -f1"
	[ "$output" = "id=000002" ]
	run sh -c "tr-runs -d S list -a 'enabled == 0' | cut -f1"
	[ "$output" = "id=000001" ]
	tr-runs -d S enable 000001
	run sh -c "tr-runs -d S list | cut -f1"
	[ "$output" = "$(printf 'id=000001\nid=000002')" ]
	# An id of no run is a bad operand (tr(7): 2), said; the others
	# given are still set.
	run tr runs -d S disable 000009
	fails_with 2 "000009: no such run"
	run tr runs -d S disable 000002 000009 ../S
	fails_with 2 "000009: no such run"
	[[ "$output" == *"../S: no such run"* ]]
	run sh -c "tr-runs -d S list -a 'enabled == 0' | cut -f1"
	[ "$output" = "id=000002" ]
	run tr runs -d S enable 000002
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "tr-runs summary: n, mean, sd of exec time per condition" {
	tr-runs -d S add p1.tr p2.tr p3.tr >/dev/null
	run tr runs -d S summary -g fs
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '#tr 1\n#meta runs.group=fs\n#meta runs.value=time\n#fields\tmean\tkey\tn\tmean\tsd\tmin\tmax\nmean\tfs=nfs\t2\t200\t141.4213562373095\t100\t300\nmean\tfs=ext4\t1\t50\t0\t50\t50')" ]
	# The output is a tr stream.
	tr-runs -d S summary | tr-cat >/dev/null
}

@test "tr-runs: concurrent adds lose no entry" {
	for i in 1 2 3 4 5 6 7 8; do tr-runs -d S add -l i=$i p1.tr >/dev/null & done
	wait
	run sh -c "tr-runs -d S list | wc -l"
	[ "$output" -eq 8 ]
	run sh -c "tr-runs -d S values i | tr '\n' ' '"
	[ "$output" = "1 2 3 4 5 6 7 8 " ]
	run sh -c "ls S/runs | sort -u | wc -l"
	[ "$output" -eq 8 ]
}

# tr-runs(5): every file is synced before it is renamed into place;
# the data was synced before its buffer and gzip trailer were written,
# so a crash after the add could leave an indexed run with no data.
@test "tr-runs add: the data is synced after its last write" {
	command -v strace >/dev/null || skip "no strace"
	# musl opens with open(2); LeakSanitizer cannot run under a tracer
	ASAN_OPTIONS=detect_leaks=0 strace -e trace=open,openat,write,fsync \
		-o st.txt tr-runs -d S add p1.tr >/dev/null
	run awk '/data\.tr\.gz"/ && /O_CREAT/ { fd = $NF; next }
		fd != "" && index($0, "write(" fd ",") == 1 { w = NR }
		fd != "" && index($0, "fsync(" fd ")") == 1 { f = NR }
		END { print (w > 0 && f > w) ? "synced" : "write " w ", fsync " f }' st.txt
	[ "$output" = "synced" ]
}

# A rename is durable only once its directory is synced.
@test "tr-runs add: the runs directory is synced after the run's folder is renamed into it" {
	command -v strace >/dev/null || skip "no strace"
	ASAN_OPTIONS=detect_leaks=0 strace -e trace=open,openat,rename,fsync \
		-o st.txt tr-runs -d S add p1.tr >/dev/null
	run awk '/^rename\(.*runs\/000001"\)/ { r = NR }
		/O_DIRECTORY/ && /S\/runs"/ && r { fd = $NF }
		fd != "" && index($0, "fsync(" fd ")") == 1 { f = NR }
		END { print (r > 0 && f > r) ? "synced" : "rename " r ", fsync " f }' st.txt
	[ "$output" = "synced" ]
}

@test "tr-runs add: a profile of means (tr-profile -A -s mean) gets the mean rank's time" {
	# rank 0's 1000 ns of I/O and both ranks' 100 ns of MPI_Init: 600 a rank
	{ printf '#tr 1\n#meta np=2\n#fields\tprofagg\tstat\tname\tranks\tcalls\tsubrs\texcl\tincl\tbytes\n'
	  printf 'profagg\tmean\tMPI_Init\t2\t1\t0\t100\t100\t0\n'
	  printf 'profagg\tmax\tMPI_Init\t2\t1\t0\t100\t100\t0\n'
	  printf 'profagg\tmean\tio\t1\t1\t0\t1000\t1000\t0\n'; } > m.prof
	tr-runs -d S add m.prof > /dev/null
	grep -q "	time=600$" S/index
	# and the summary has it, where it was silently left out
	tr-runs -d S summary | awk -F'\t' '$1 == "mean" && $3 == 1 && $4 == 600 { ok = 1 } END { exit !ok }'
	# a run with nothing to time it by is said to be left out
	printf '#tr 1\n#fields\tmine\ta\nmine\t1\n' > u.tr
	tr-runs -d S add u.tr > /dev/null
	run tr-runs -d S summary
	[ "$status" -eq 0 ]
	[[ "$output" == *"tr-runs: 1 selected run without a time label left out"* ]]
}

@test "tr-runs add -: a run from stdin" {
	tr-runs -d S add -l cond=x - < p1.tr > id
	[ "$(cat id)" = 000001 ]
	grep -q "	cond=x" S/index
	[ "$(tr-runs -d S paths)" = "S/runs/000001/data.tr.gz" ]
	cmp <(tr cat p1.tr | grep -v '^#') <(tr cat S/runs/000001/data.tr.gz | grep -v '^#')
}

@test "tr-runs: a failed add leaves the store as it was" {
	tr-runs -d S add p1.tr >/dev/null
	cp S/index index.before
	{ printf '#tr 1\n%s\n' "$PF"; printf 'prof\t0\tmain\t1\t0\tbad\t1\t0\n'; } > bad.tr
	run tr runs -d S add bad.tr
	fails_with 3 "bad.tr:3:"
	cmp S/index index.before
	run sh -c "ls -a S/runs | grep -v '^\\.\\.\\?\$'"
	[ "$output" = "000001" ]
	# An index lost or stale is rebuilt from the meta files.
	rm S/index
	tr-runs -d S reindex
	cmp S/index index.before
}

@test "tr-runs: a killed add's folder is removed by the next add, a live one's is kept" {
	# Each add blocks on its FIFO after the header, its folder made.
	mkfifo f1 f2
	tr-runs -d S add - < f1 > /dev/null &
	live=$!
	tr-runs -d S add - < f2 > /dev/null &
	dead=$!
	exec 5> f1 6> f2
	head -n 2 p1.tr >&5
	head -n 2 p1.tr >&6
	for i in $(seq 100); do
		[ "$(ls -a S/runs 2>/dev/null | grep -c '^\.tmp\.')" -eq 2 ] && break
		sleep 0.1
	done
	[ "$(ls -a S/runs | grep -c '^\.tmp\.')" -eq 2 ]
	kill -9 "$dead"
	wait "$dead" || true
	exec 6>&-
	tr-runs -d S add p2.tr > /dev/null
	[ "$(ls -a S/runs | grep -c '^\.tmp\.')" -eq 1 ]
	kill -9 "$live"
	wait "$live" || true
	exec 5>&-
	tr-runs -d S reindex
	run sh -c "ls -a S/runs | grep -v '^\\.\\.\\?\$'"
	[ "$output" = "000001" ]
	# A folder left by a writer without a .writer file is gone too.
	mkdir S/runs/.tmp.old && touch S/runs/.tmp.old/data.tr.gz
	tr-runs -d S add p3.tr > /dev/null
	[ ! -e S/runs/.tmp.old ]
}

@test "tr-runs add: nodes from the host keys there are, not a loop to np" {
	{ printf '#tr 1\n#meta np=16777216\n#meta host.0=a\n#meta host.7=b\n#meta host.9=a\n%s\n' "$PF"
	  printf 'prof\t0\tmain\t1\t0\t5\t5\t0\n'; } > wide.tr
	run timeout 10 tr-runs -d S add wide.tr
	[ "$status" -eq 0 ]
	grep -q "	np=16777216	nodes=2	" S/index
	printf '#tr 1\n#meta np=2000000000\n%s\n' "$PF" > huge.tr
	run stderr_of timeout 10 tr-runs -d S add huge.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-runs: huge.tr:2: #meta np=2000000000: not a number of ranks (an integer from 1 to 16777216)" ]
}

@test "tr-runs: usage and bad expressions" {
	run tr runs
	fails_with 2 "usage: tr-runs"
	run tr runs -d S frob
	fails_with 2 "usage: tr-runs"
	run tr runs -d S add -l 'bad key=1' p1.tr
	fails_with 2 "tr-runs: -l: 'bad key=1': not label=value"
	tr-runs -d S add p1.tr >/dev/null
	run tr runs -d S list 'fs =='
	fails_with 2 "bad expression"
	run tr runs -d S add nosuch.tr
	fails_with 4 "nosuch.tr"
}

@test "tr-runs: a damaged meta or index file is an error at its line" {
	tr-runs -d S add p1.tr >/dev/null
	tr-runs -d S add p2.tr >/dev/null
	# A meta file cut short (a disk filled during a hand edit): the run's
	# labels would be read without those after the cut.
	n=$(wc -l < S/runs/000001/meta)
	head -c -1 S/runs/000001/meta > m && mv m S/runs/000001/meta
	run stderr_of tr runs -d S reindex
	fails_with 3 "S/runs/000001/meta:$n: missing newline"
	[ "${#lines[@]}" -eq 1 ]
	echo >> S/runs/000001/meta
	printf 'fs=nfs\r\n' >> S/runs/000001/meta
	run stderr_of tr runs -d S reindex
	fails_with 3 "S/runs/000001/meta:$((n + 1)): malformed label line"
	[ "${#lines[@]}" -eq 1 ]
	# A NUL in the index cut the value short, silently: app=de selected.
	sed -i '1!s/app=demo/app=de\x00mo/' S/index
	run stderr_of tr runs -d S list
	fails_with 3 "S/index:2: malformed run line"
	[ "${#lines[@]}" -eq 1 ]
}

# pipelines/nightly.mk end to end: two nights of the MPI stencil, the
# second with MPI_Allreduce slowed by a preload library: 20 ms a call,
# 600 ms a run, 5 runs a night of one rank. With 5 ms a call, 3 runs
# and 4 ranks it failed 4 times in 4 at load 12 on 2 cores: ranks that
# poll wait for each other, and a night's MPI_Allreduce moved by 4-210
# ms between runs, so Welch's p on 3 against 3 was 0.02-0.15, which
# Holm's correction over 10 keys took above 0.05. With 2 ranks and 5
# runs of 20 ms calls it still failed 4 in 5 at load 25: one waited for
# the other for up to 2 s of a run. One rank waits for no peer: its
# MPI_Allreduce is 5 us a night, and only the slowed night varies.
@test "nightly.mk: runs, store, report; a slowed night fails naming MPI_Allreduce" {
	[ -x "$TR_MPIBIN/stencil" ] && [ -f "$TR_MPIBIN/libslowop.so" ] || skip "no MPI build"
	nm() { sh "$TOP/pipelines/nightly.sh" TR_BIN="$TR_BIN" \
		MPIDIR="$TR_MPIBIN" STORE="$PWD/S" APP="$TR_MPIBIN/stencil 64 30" \
		NP=1 REPS=5 "$@"; }
	run nm NIGHT=20240101
	[ "$status" -eq 0 ]
	[[ "$output" == *"default: no baseline yet"* ]]
	run nm NIGHT=20240102 MPIRUN="mpirun -np 1 -x LD_PRELOAD=$TR_MPIBIN/libslowop.so -x TR_SLOW_US=20000 -x ASAN_OPTIONS=verify_asan_link_order=0"
	echo "$output"	# shown on failure
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: MPI_Allreduce: "*"% slower"* ]]
	grep -q '^== default: night 20240101 vs 20240102' S/report.20240102.txt
	first=$(awk '$1 == "key" { getline; print $1; exit }' S/report.20240102.txt)
	[ "$first" = "MPI_Allreduce" ]
	run sh -c "tr-runs -d S values night | tr '\n' ' '"
	[ "$output" = "20240101 20240102 " ]
	[ "$(tr-runs -d S list 'cond == "default"' | wc -l)" -eq 10 ]
}

@test "nightly.mk: run from another directory (cron's), takes the programs beside its checkout" {
	mkdir -p co/pipelines job
	cp "$TOP/pipelines/nightly.mk" "$TOP/pipelines/nightly.sh" co/pipelines/
	ln -s "$TR_BIN" co/bin
	printf '%s\n' '#tr 1' "$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')" > job/h.tr
	printf '%s\n' '{ cat h.tr; printf "prof\t0\tf\t1\t0\t1000\t1000\t0\n"; } > "$1"' > job/prof.sh
	cd job
	run env -u TR_BIN sh ../co/pipelines/nightly.sh STORE="$PWD/S" NIGHT=20240101 RUN='sh prof.sh $$out'
	[ "$status" -eq 0 ]
	[ "${lines[${#lines[@]} - 1]}" = "== night 20240101: no regression" ]
	[ "$(tr-runs -d S list | wc -l)" -eq 3 ]
}

# The same without MPI: each run writes a profile; g takes G ns.
@test "nightly.mk: a regression exits 1, a failed run 4 (bad data 3), and the report says which" {
	printf '%s\n' '#tr 1' "$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')" > h.tr
	cat > prof.sh <<'SH'
{ cat h.tr; printf 'prof\t0\tf\t1\t0\t1000\t1000\t0\nprof\t0\tg\t1\t0\t%s\t%s\t0\n' "$2" "$2"; } > "$1"
SH
	ns() { sh "$TOP/pipelines/nightly.sh" TR_BIN="$TR_BIN" STORE="$PWD/S" "$@"; }
	run ns NIGHT=20240101 RUN='sh prof.sh $$out 300'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '== default: no baseline yet\n== night 20240101: no regression')" ]
	run ns NIGHT=20240102 RUN='sh prof.sh $$out 310'
	[ "$status" -eq 0 ]
	[ "${lines[${#lines[@]} - 1]}" = "== night 20240102: no regression" ]
	# Three times slower: 1, as tr-diff --fail-above; make itself says 2.
	run ns NIGHT=20240103 RUN='sh prof.sh $$out 900'
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: g: 190.3% slower (310 -> 900, p=0, Holm-adjusted 0)"* ]]
	[ "$(tail -n 1 S/report.20240103.txt)" = "== night 20240103: regression (status 1)" ]
	run make -s -f "$TOP/pipelines/nightly.mk" TR_BIN="$TR_BIN" STORE="$PWD/S" NIGHT=20240104 RUN='sh prof.sh $$out 2700'
	[ "$status" -eq 2 ]
	[ "$(tail -n 1 S/report.20240104.txt)" = "== night 20240104: regression (status 1)" ]
	# A run that fails: 4, and the report names it and shows its output.
	run ns NIGHT=20240105 RUN='sh -c "echo out of memory; exit 7"'
	[ "$status" -eq 4 ]
	# its log is kept in the night's own directory of WORK
	d=$(ls -d S/work/20240105.*)
	[ "$(ls $d)" = default.1.log ]
	[ "$(cat S/report.20240105.txt)" = "$(printf '%s\n' '== FAILED: run 1 of 3 of condition default exited with status 7; no run of the condition stored' \
		"== the end of $PWD/$d/default.1.log:" 'out of memory' '== night 20240105: failed (status 4)')" ]
	[[ "$output" == "$(cat S/report.20240105.txt)"* ]]
	# One that writes bad data: tr-runs add's 3, its message in the report.
	run ns NIGHT=20240106 RUN='sh prof.sh $$out x'
	[ "$status" -eq 3 ]
	grep -q '^== FAILED: tr-runs add of run 1 of condition default$' S/report.20240106.txt
	grep -q "^tr-runs: .*20240106.*/default.1:4: " S/report.20240106.txt
	[ "$(tail -n 1 S/report.20240106.txt)" = "== night 20240106: failed (status 3)" ]
	# A wrong variable: tr-diff's usage, 2.
	run ns NIGHT=20240107 RUN='sh prof.sh $$out 300' FAIL=ten
	[ "$status" -eq 2 ]
	[ "$(tail -n 1 S/report.20240107.txt)" = "== night 20240107: failed (status 2)" ]
}

# Two nights run at once on one store, each with its CONDS and REPORT:
# their tr-diffs wait for each other (a tr-diff that waits until both
# are there), when both have written the means they compare. In one
# WORK file the last written was compared by both: b's 3x slower night
# was reported by neither or by both.
@test "nightly.mk: nights run at once on one store keep their files apart, and leave none" {
	printf '%s\n' '#tr 1' "$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')" > h.tr
	cat > prof.sh <<'SH'
{ cat h.tr; printf 'prof\t0\tf\t1\t0\t1000\t1000\t0\nprof\t0\tg\t1\t0\t%s\t%s\t0\n' "$2" "$2"; } > "$1"
SH
	mkdir wb bar
	for f in "$TR_BIN"/tr-*; do ln -s "$f" wb/; done
	rm wb/tr-diff
	cat > wb/tr-diff <<SH
#!/bin/sh
touch "$PWD/bar/\$\$"
i=0
while [ "\$(ls "$PWD/bar" | wc -l)" -lt 2 ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done
exec "$TR_BIN/tr-diff" "\$@"
SH
	chmod +x wb/tr-diff
	ns() { sh "$TOP/pipelines/nightly.sh" TR_BIN="$PWD/wb" STORE="$PWD/S" NIGHT=20240101 "$@"; }
	ns CONDS='a0 a1' BASE=a0 REPORT=$PWD/a.txt RUN='sh prof.sh $$out 300' > a.out 2>&1 & a=$!
	ns CONDS='b0 b1' BASE=b0 REPORT=$PWD/b.txt RUN='sh prof.sh $$out 300' RUN_b1='sh prof.sh $$out 900' > b.out 2>&1 & b=$!
	sa=0; wait $a || sa=$?
	sb=0; wait $b || sb=$?
	[ "$(ls bar | wc -l)" -eq 2 ]
	[ "$sa" -eq 0 ] || { cat a.txt; false; }
	[ "$sb" -eq 1 ] || { cat b.txt; false; }
	grep -q '^g  *300  *300 ' a.txt
	grep -q '^g  *300  *900 ' b.txt
	# nothing left behind
	[ -z "$(ls S/work)" ]
}

# A BASE among no CONDS (a typo, a case) said "no baseline yet" every
# night and exited 0, with b three times slower: no alarm, ever.
@test "nightly.mk: a BASE that is not one of CONDS, or the only one, is a wrong variable" {
	printf '%s\n' '#tr 1' "$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')" > h.tr
	cat > prof.sh <<'SH'
{ cat h.tr; printf 'prof\t0\tf\t1\t0\t1000\t1000\t0\nprof\t0\tg\t1\t0\t%s\t%s\t0\n' "$2" "$2"; } > "$1"
SH
	ns() { sh "$TOP/pipelines/nightly.sh" TR_BIN="$TR_BIN" STORE="$PWD/S" NIGHT=20240101 \
		RUN='sh prof.sh $$out 300' RUN_b='sh prof.sh $$out 900' "$@"; }
	run ns CONDS='a b' BASE=A
	[ "$status" -eq 2 ]
	[ "$(cat S/report.20240101.txt)" = "$(printf '== FAILED: BASE=A is not one of CONDS=a b: nothing would be compared with it\n== night 20240101: failed (status 2)')" ]
	[ ! -e S/index ]
	run ns BASE=default
	[ "$status" -eq 2 ]
	grep -qx '== FAILED: BASE=default and no other condition in CONDS=default to compare with it' S/report.20240101.txt
	run ns CONDS='a b' BASE=a
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-diff: g: 200.0% slower (300 -> 900, p=0, Holm-adjusted 0)"* ]]
}

# A night that fails halfway is no baseline: the MPI stencil twice a
# night, the second run of night 2 a real crash (a segfaulting rank).
@test "nightly.mk: a night whose run fails halfway stores none of its runs; the next compares with the last whole night" {
	[ -x "$TR_MPIBIN/stencil" ] && [ -x "$TR_MPIBIN/crash" ] || skip "no MPI build"
	cat > run.sh <<'SH'
# run.sh OUT [CRASHAT]: the CRASHAT-th run of the night crashes
n=$(cat cnt 2>/dev/null || echo 0); n=$((n + 1)); echo $n > cnt
app="$TR_MPIBIN/stencil 64 10"
[ "$n" = "$2" ] && app="$TR_MPIBIN/crash segv 5"
exec mpirun --oversubscribe -np 3 "$TR_BIN/tr-record" -o "$1" $app
SH
	nm() { rm -f cnt; sh "$TOP/pipelines/nightly.sh" TR_BIN="$TR_BIN" \
		STORE="$PWD/S" REPS=2 "$@"; }
	run nm NIGHT=20240101 RUN='sh run.sh $$out'
	[ "$status" -eq 0 ]
	run nm NIGHT=20240102 RUN='sh run.sh $$out 2'
	[ "$status" -eq 4 ]
	grep -qx '== FAILED: run 2 of 2 of condition default exited with status [0-9]*; no run of the condition stored' S/report.20240102.txt
	# run 1 of the night succeeded, and is neither stored nor left
	[ "$(tr-runs -d S values -a night)" = 20240101 ]
	[ -z "$(ls S/work/20240102.* | grep -v '\.log$')" ]
	run nm NIGHT=20240103 RUN='sh run.sh $$out'
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	grep -qx '== default: night 20240101 vs 20240103' S/report.20240103.txt
	awk '$1 == "(total)" { n = $NF } END { exit n != 2 }' S/report.20240103.txt
}

@test "nightly.mk: a failed add disables the night's runs it added; a night run again replaces its runs" {
	printf '%s\n' '#tr 1' "$(printf '#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes')" > h.tr
	cat > prof.sh <<'SH'
# prof.sh OUT G [BADAT]: the BADAT-th run of the night writes bad data
n=$(cat cnt 2>/dev/null || echo 0); n=$((n + 1)); echo $n > cnt
g=$2; [ "$n" = "$3" ] && g=x
{ cat h.tr; printf 'prof\t0\tf\t1\t0\t1000\t1000\t0\nprof\t0\tg\t1\t0\t%s\t%s\t0\n' "$g" "$g"; } > "$1"
SH
	ns() { rm -f cnt; sh "$TOP/pipelines/nightly.sh" TR_BIN="$TR_BIN" STORE="$PWD/S" "$@"; }
	run ns NIGHT=20240101 RUN='sh prof.sh $$out 300'
	[ "$status" -eq 0 ]
	run ns NIGHT=20240102 RUN='sh prof.sh $$out 900 3'
	[ "$status" -eq 3 ]
	grep -qx '== FAILED: tr-runs add of run 3 of condition default; its runs 000004 000005 disabled' S/report.20240102.txt
	[ "$(tr-runs -d S values night)" = 20240101 ]
	[ "$(tr-runs -d S list -a 'night == 20240102 && enabled == 0' | wc -l)" -eq 2 ]
	# the night again: its three runs replace those of the first attempt
	run ns NIGHT=20240101 RUN='sh prof.sh $$out 310'
	[ "$status" -eq 0 ]
	[ "$(tr-runs -d S list 'night == 20240101' | cut -f1 | tr '\n' ' ')" = "id=000006 id=000007 id=000008 " ]
	run ns NIGHT=20240103 RUN='sh prof.sh $$out 310'
	[ "$status" -eq 0 ]
	grep -qx '== default: night 20240101 vs 20240103' S/report.20240103.txt
	grep -q '^g  *310  *310 ' S/report.20240103.txt
}
