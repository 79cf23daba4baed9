load helper

# pipelines/shard.mk: a run's rank files as K shards under make -j,
# merged, against what one process writes of the whole run.

SHARD_MK=$BATS_TEST_DIRNAME/../pipelines/shard.mk

setup() {
	T=$BATS_TEST_TMPDIR
}

shard_make() {
	make -s --no-print-directory -f "$SHARD_MK" TR_BIN="$TR_BIN" "$@"
}

# The products of OUT, merged, against OUT/whole: byte for byte.
same_as_whole() {
	local k
	for k in dsum stat profile hist waits; do
		[ -s "$1/$k.tr" ] || { echo "no $1/$k.tr"; return 1; }
		grep -qv '^#' "$1/$k.tr" || { echo "$1/$k.tr has no records"; return 1; }
		cmp "$1/$k.tr" "$1/whole/$k.tr" || return 1
	done
}

@test "tr-gen runs: K shards under make -j are the whole run" {
	for p in stencil2d alltoall; do
		mkdir -p "$T/$p"
		for r in $(seq 0 11); do
			tr gen -n 12 -i 5 -j 0.3 -P $p -r $r > "$T/$p/rank.$r.tr"
		done
		for k in 1 3 5; do
			shard_make -j4 RUN="$T/$p" K=$k OUT="$T/out.$p.$k" all whole \
			    2>"$T/log" || { cat "$T/log"; return 1; }
			same_as_whole "$T/out.$p.$k"
		done
	done
	# 5 of 12 ranks: shards of 2 and 3
	grep -q -- '-G 0-1 ' "$T/log"
	grep -q -- '-G 9-11 ' "$T/log"
}

@test "a recorded run: shards merged are the whole run" {
	mpirun --oversubscribe --allow-run-as-root -np 4 "$TR_BIN/tr-record" \
	    -o "$T/rec" "$TR_MPIBIN/stencil" 96 20 > /dev/null
	shard_make -j2 RUN="$T/rec" K=3 OUT="$T/out" all whole 2>/dev/null
	same_as_whole "$T/out"
	grep -q '^wait	wait_nxn	3	' "$T/out/waits.tr"
}

@test "make record, then the shards: tr-record under MPIRUN" {
	shard_make record RUN="$T/rec" NP=3 APP="$TR_MPIBIN/ring"
	[ -e "$T/rec/rank.2.tr.gz" ]
	shard_make -j2 RUN="$T/rec" K=2 OUT="$T/out" all whole 2>/dev/null
	same_as_whole "$T/out"
}

@test "a rank's file missing is still an error, K above np a usage one" {
	for r in 0 1 2 4 5; do
		tr gen -n 6 -i 3 -r $r > "$T/rank.$r.tr"
	done
	run shard_make RUN="$T" K=2 OUT="$T/out"
	[ "$status" -ne 0 ]
	[[ "$output" == *"rank 3 of the shard (-G 3-5) has no records: a rank's file missing?"* ]]
	tr gen -n 6 -i 3 -r 3 > "$T/rank.3.tr"
	run shard_make RUN="$T" K=7 OUT="$T/out2"
	[ "$status" -ne 0 ]
	[[ "$output" == *"K=7 above it"* ]]
}
