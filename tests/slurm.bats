load helper

# A localhost Slurm cluster, started for these tests from Debian's
# slurm-wlm and munge (configured here, in a scratch directory, as real
# daemons on free ports) and stopped afterwards: pipelines/shard.mk's
# shards run as its job steps, a recording under srun, and the merged
# results are compared with one process's of the whole run.

SHARD_MK=$BATS_TEST_DIRNAME/../pipelines/shard.mk

# A TCP port no socket holds, and the one after it, below Linux's
# ephemeral range (32768 up): a port there can be taken by an outgoing
# connection between this choice and the daemons' bind.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 12000))
		ss -tan | awk '{print $4}' | grep -Eq ":($p|$((p + 1)))\$" || break
	done
	echo $p
}

stop_cluster() {
	local f
	if [ -z "${SL:-}" ]; then
		return 0
	fi
	for f in slurmd slurmctld; do
		if [ -s "$SL/$f.pid" ]; then
			kill "$(cat "$SL/$f.pid")" 2>/dev/null || true
		fi
	done
	for f in slurmd slurmctld; do
		for _ in $(seq 50); do
			if ! [ -s "$SL/$f.pid" ] ||
			    ! kill -0 "$(cat "$SL/$f.pid")" 2>/dev/null; then
				break
			fi
			sleep 0.1
		done
	done
	if [ -S "$SL/munge.sock" ]; then
		munged -s --socket="$SL/munge.sock" >/dev/null 2>&1 || true
	fi
	rm -rf "$SL"
}

start_cluster() {
	local p
	SL=$(mktemp -d /tmp/trslurm.XXXXXX)	# short: the socket's path
	export SL
	chmod 755 "$SL"
	mkdir "$SL/state" "$SL/spool"
	head -c 1024 /dev/urandom > "$SL/munge.key"
	chmod 600 "$SL/munge.key"
	munged -f --socket="$SL/munge.sock" --key-file="$SL/munge.key" \
	    --log-file="$SL/munged.log" --pid-file="$SL/munged.pid" \
	    --seed-file="$SL/munged.seed" || return 1
	p=$(free_port)
	cat > "$SL/slurm.conf" <<-CONF
	ClusterName=trtest
	SlurmctldHost=localhost
	SlurmctldPort=$p
	SlurmdPort=$((p + 1))
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	AuthInfo=socket=$SL/munge.sock
	CredType=cred/munge
	StateSaveLocation=$SL/state
	SlurmdSpoolDir=$SL/spool
	SlurmctldPidFile=$SL/slurmctld.pid
	SlurmdPidFile=$SL/slurmd.pid
	SlurmctldLogFile=$SL/slurmctld.log
	SlurmdLogFile=$SL/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	MpiDefault=none
	SchedulerType=sched/builtin
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	ReturnToService=2
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	NodeName=localhost CPUs=2 State=UNKNOWN
	PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
	CONF
	export SLURM_CONF=$SL/slurm.conf
	slurmctld -i || { tail -n 5 "$SL/slurmctld.log" >&2; return 1; }
	slurmd -N localhost || { tail -n 5 "$SL/slurmd.log" >&2; return 1; }
	# up to a minute: a loaded machine registers the node slowly
	for _ in $(seq 300); do
		[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.2
	done
	echo "the node did not come up:" >&2
	tail -n 5 "$SL/slurmctld.log" "$SL/slurmd.log" >&2
	return 1
}

# Why the cluster cannot start here, for each test to skip with (bats
# 1.8 takes no skip in setup_file).
setup_file() {
	local c
	export SLURM_SKIP=
	if [ "$(id -u)" != 0 ]; then
		SLURM_SKIP="a localhost Slurm needs root (SlurmUser=root, munged)"
		return 0
	fi
	for c in munged slurmctld slurmd srun salloc sbatch sinfo; do
		if ! command -v $c >/dev/null; then
			SLURM_SKIP="$c missing: Debian's slurm-wlm and munge (make checkdeps)"
			return 0
		fi
	done
	start_cluster || { stop_cluster; return 1; }
}

teardown_file() {
	stop_cluster
}

setup() {
	[ -z "$SLURM_SKIP" ] || skip "$SLURM_SKIP"
	T=$BATS_TEST_TMPDIR
}

shard_make() {
	make -s --no-print-directory -f "$SHARD_MK" TR_BIN="$TR_BIN" "$@"
}

same_as_whole() {
	local k
	shard_make RUN="$1" OUT="$2" whole 2>/dev/null
	for k in dsum stat profile hist waits; do
		grep -qv '^#' "$2/$k.tr" || { echo "$2/$k.tr has no records"; return 1; }
		cmp "$2/$k.tr" "$2/whole/$k.tr" || return 1
	done
}

@test "the shards as job steps of an allocation are the whole run" {
	for r in $(seq 0 7); do
		tr gen -n 8 -i 5 -j 0.3 -r $r > "$T/rank.$r.tr"
	done
	# -O: the shell traces a command word by word, so two jobs' traces
	# interleave unless make holds each recipe's output until it ends
	salloc -Q -n2 make -s -O -j2 -f "$SHARD_MK" TR_BIN="$TR_BIN" RUN="$T" K=4 \
	    OUT="$T/out" RUNNER='srun -n1 -c1 --exact' 2>"$T/log" ||
		{ cat "$T/log"; return 1; }
	# every shard's command ran under srun
	[ "$(grep -c '^+ srun -n1 -c1 --exact .*tr-delta -s -G' "$T/log")" -eq 4 ]
	same_as_whole "$T" "$T/out"
}

@test "recorded under srun, analysed by an sbatch job: the whole run" {
	shard_make record RUN="$T/rec" NP=2 APP="$TR_MPIBIN/stencil 64 10" \
	    MPIRUN='srun --mpi=pmix -n'
	[ -e "$T/rec/rank.1.tr.gz" ]
	sbatch -Q --wait -n2 -o "$T/job.log" --wrap "make -s -j2 -f $SHARD_MK \
	    TR_BIN=$TR_BIN RUN=$T/rec K=2 OUT=$T/out RUNNER='srun -n1 -c1 --exact'" ||
		{ cat "$T/job.log"; return 1; }
	same_as_whole "$T/rec" "$T/out"
	grep -q '^wait	' "$T/out/waits.tr"
}
