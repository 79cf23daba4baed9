#!/usr/bin/env bats
# tr-to-chrome: trace-event JSON for Perfetto, chrome://tracing and speedscope.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

REGFIELDS=$(printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime')

# Rank 0 (on nodeA) in region solve posts a receive from any source, sends
# 16 bytes to rank 1 and waits for the receive, which rank 1's send of 8
# bytes completes; rank 1 then receives rank 0's message.
two() {
	hdr 2
	printf '#meta host.0=nodeA\n%s\n' "$REGFIELDS"
	printf 'reg\t0\t0\tenter\tsolve\t500\t-1\t0\n'
	ev 0 1 MPI_Irecv 1000 1100 400 s@a.c:1 -1 8 7 0 5
	ev 0 2 MPI_Send 1200 1500 0 s@a.c:2 1 16 3 0
	ev 0 3 MPI_Wait 1600 3000 50 s@a.c:3 1 8 7 0 5
	printf 'reg\t0\t4\tleave\tsolve\t3500\t-1\t0\n'
	ev 1 0 MPI_Send 2000 2200 0 s@b.c:1 0 8 7 0
	ev 1 1 MPI_Recv 2300 2600 0 s@b.c:2 0 16 3 0
}

# Per tid, B and E nest (each E closes the last open B of its name), in
# time order; prints the tids that fail.
NEST='[.traceEvents[] | select(.ph == "B" or .ph == "E")] | group_by(.tid)[] |
	reduce .[] as $e ({tid: .[0].tid, st: [], ok: true, t: -1};
	    .ok = (.ok and $e.ts >= .t) | .t = $e.ts |
	    if $e.ph == "B" then .st += [$e.name]
	    else .ok = (.ok and (.st | length) > 0 and .st[-1] == $e.name) |
	        .st = .st[:-1] end) |
	select(.ok | not or (.st | length) > 0) | .tid'

@test "tr-to-chrome: ranks as named threads, calls, computation and regions as slices" {
	two > t.tr
	run tr to-chrome t.tr
	[ "$status" -eq 0 ]
	echo "$output" | jq -e . > /dev/null
	echo "$output" > t.json
	jq -e '[.traceEvents[] | select(.name == "thread_name") | .args.name] == ["rank 0 (nodeA)", "rank 1"]' t.json
	jq -e '[.traceEvents[] | select(.name == "process_name") | .args.name] == ["tr np=2"]' t.json
	# times exact, in us with three decimals
	grep -q '"ph":"B","cat":"mpi","name":"MPI_Wait","pid":1,"tid":0,"ts":1.600,' t.json
	grep -q '"ph":"E","cat":"mpi","name":"MPI_Wait","pid":1,"tid":0,"ts":3.000,' t.json
	jq -e '[.traceEvents[] | select(.cat == "compute" and .tid == 0 and .ph == "B") | [.ts, .args.cpu]] ==
	    [[0.5, 400], [1.1, 0], [1.5, 50], [3, null]]' t.json
	jq -e '[.traceEvents[] | select(.name == "MPI_Send" and .tid == 0 and .ph == "B") | .args] ==
	    [{"seq":2,"site":"s@a.c:2","peer":1,"bytes":16,"tag":3,"comm":0}]' t.json
	[ -z "$(jq "$NEST" t.json)" ]
	jq -e '[.traceEvents[] | select(.cat == "region") | [.ph, .ts]] == [["B", 0.5], ["E", 3.5]]' t.json
}

@test "tr-to-chrome: a message is an arrow from its send to the call that completed its receive" {
	two > t.tr
	tr to-chrome t.tr > t.json
	# the wildcard's source from its Wait: rank 1's send, at the middle of each
	jq -e '[.traceEvents[] | select(.ph == "s" or .ph == "f") | [.id, .ph, .tid, .ts]] | sort ==
	    [[1, "f", 0, 2.3], [1, "s", 1, 2.1], [2, "f", 1, 2.45], [2, "s", 0, 1.35]]' t.json
	jq -e '[.traceEvents[] | select(.ph == "f") | .bp] == ["e", "e"]' t.json
}

@test "tr-to-chrome: a stencil's slices per rank, nesting and an arrow per message" {
	tr gen -P stencil2d -n 16 -i 5 > s.tr
	tr to-chrome s.tr > s.json
	for r in 0 5 15; do
		calls=$(awk -F'\t' -v r=$r '$1 == "ev" && $2 == r { print $3 }' s.tr | sort -u | wc -l)
		[ "$(jq "[.traceEvents[] | select(.tid == $r and .cat == \"mpi\" and .ph == \"B\")] | length" s.json)" -eq "$calls" ]
	done
	[ -z "$(jq "$NEST" s.json)" ]
	sends=$(awk -F'\t' '$1 == "ev" && $4 == "MPI_Isend"' s.tr | wc -l)
	[ "$(jq '[.traceEvents[] | select(.ph == "s")] | length' s.json)" -eq "$sends" ]
	[ "$(jq '[.traceEvents[] | select(.ph == "f")] | length' s.json)" -eq "$sends" ]
	# each id once at each end, the arrow's head on the rank sent to
	[ -z "$(jq -c '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | group_by(.id)[] |
	    select(length != 2 or .[0].ph == .[1].ph or
	        ((map(select(.ph == "s"))[0].args.to) != (map(select(.ph == "f"))[0].tid)))' s.json)" ]
	# durations as recorded
	jq -r '.traceEvents[] | select(.cat == "mpi") | "\(.tid) \(.ph) \(.ts)"' s.json | head -2 > got
	awk -F'\t' '$1 == "ev" && $2 == 0 && $3 == 0 { printf "0 B %.3f\n0 E %.3f\n", $5 / 1000, $6 / 1000 }' s.tr |
	    sed 's/\.\?0*$//' > want
	sed 's/\.\?0*$//' got | diff - want
}

@test "tr-to-chrome: the same trace gzipped, and across sections" {
	two > t.tr
	gzip -c t.tr > t.tr.gz
	tr to-chrome t.tr > a.json
	tr to-chrome t.tr.gz > b.json
	cmp a.json b.json
	{ two; tr gen -P ring -n 3 -i 1; } > two.tr
	tr to-chrome two.tr > c.json
	jq -e '[.traceEvents[] | select(.name == "process_name") | [.pid, .args.name]] ==
	    [[1, "tr np=2"], [2, "tr-gen-ring np=3"]]' c.json
}

@test "tr-to-chrome: persistent receives started after their communicator's free, communicators made every iteration" {
	persloop_trace 4 3 > p.tr
	run stderr_of tr to-chrome p.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(tr to-chrome p.tr | jq '[.traceEvents[] | select(.ph == "s")] | length')" -eq 12 ]
	a=$(commloop_rss to-chrome 16 200)
	b=$(commloop_rss to-chrome 16 1600)
	[ "$b" -lt $((a * 3 / 2)) ]
	a=$(commloop_rss to-chrome 16 200 pers)
	b=$(commloop_rss to-chrome 16 1600 pers)
	[ "$b" -lt $((a * 3 / 2)) ]
}

@test "tr-to-chrome -w: what overlaps the window, regions whole" {
	two > t.tr
	run tr to-chrome -w 1.6us:2.1us t.tr
	[ "$status" -eq 0 ]
	echo "$output" > w.json
	jq -e '[.traceEvents[] | select(.ph == "B") | [.tid, .name]] ==
	    [[0, "solve"], [0, "MPI_Wait"], [1, "MPI_Send"]]' w.json
	# the arrow whose ends are both in the window
	jq -e '[.traceEvents[] | select(.ph == "s" or .ph == "f") | .tid] | sort == [0, 1]' w.json
	[ -z "$(jq "$NEST" w.json)" ]
	run tr to-chrome -w 1ms: t.tr
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.traceEvents[] | select(.ph != "M")] == []'
}

@test "tr-to-chrome -r: the ranks listed, as tr-filter -r takes them" {
	tr gen -P stencil2d -n 16 -i 2 > s.tr
	run tr to-chrome -r 0-3,8 s.tr
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c '[.traceEvents[] | .tid] | unique')" = '[0,1,2,3,8]' ]
	echo "$output" | jq -e '[.traceEvents[] | select(.ph == "s" or .ph == "f")] | length > 0'
}

@test "tr-to-chrome: bad values, bad input" {
	run stderr_of tr to-chrome -w 5ms:1ms /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "tr-to-chrome: -w: '5ms:1ms': not a window T0:T1 of durations, such as 1ms:2.5ms" ]
	run stderr_of tr to-chrome -w 5x /dev/null
	[ "$status" -eq 2 ]
	run stderr_of tr to-chrome -r 3-1 /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "tr-to-chrome: -r: '3-1': not a rank list such as 0-3,8" ]
	run stderr_of tr to-chrome -x
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: tr-to-chrome [-Q] [-r ranks] [-w t0:t1] [file ...]"* ]]
	{ hdr 1; ev 0 0 MPI_Init 5 1; } > bad.tr
	run stderr_of tr to-chrome bad.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-to-chrome: bad.tr:4: "* ]]
	{ hdr 1; printf 'ev\t0\t0\tMPI_Init\t1\t2\t0\tcaf\xe9\t-1\t0\t-1\t0\t-1\t-1\n'; } > l1.tr
	run stderr_of tr to-chrome l1.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-to-chrome: l1.tr:4: site: not UTF-8 text, which JSON cannot carry" ]
}

@test "tr-to-chrome: messages without their other end are said, unless -Q" {
	{ hdr 2; ev 0 0 MPI_Send 10 20 0 a 1 8 3 0; } > t.tr
	run stderr_of tr to-chrome t.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 sends and 0 receives unmatched"* ]]
	run stderr_of tr to-chrome -Q t.tr
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "tr-to-chrome(1)'s examples run" {
	tr gen -P stencil2d -n 16 -i 5 > run16.tr
	cmd=$(man_examples tr-to-chrome.1)
	[ -n "$cmd" ]
	run sh -c "PATH=\"$TR_BIN:\$PATH\"; $cmd"
	[ "$status" -eq 0 ]
	for f in run16.json part.json; do jq -e .traceEvents "$f" > /dev/null; done
}

# speedscope pairs each E with its B by name and args and says on the
# console of a frame left open; its flame chart of rank 0 is screenshot.
@test "tr-to-chrome: speedscope opens a 16-rank stencil" {
	ss=$TOP/build/npm/node_modules/speedscope/dist/release
	[ -f "$ss/index.html" ] || skip "speedscope not installed (make checkdeps)"
	browser=$(command -v chromium || command -v chromium-browser) || skip "no chromium"
	command -v python3 > /dev/null || skip "no python3"
	mkdir www
	cp -r "$ss" www/ss
	tr gen -P stencil2d -n 16 -i 20 | tr to-chrome > www/t.json
	port=$((20000 + $$ % 20000))
	python3 -m http.server "$port" --bind 127.0.0.1 --directory www > /dev/null 2>&1 &
	srv=$!
	sleep 1
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run --user-data-dir="$PWD/prof" \
	    --enable-logging=stderr --v=0 --window-size=1400,900 --virtual-time-budget=10000 \
	    --screenshot="$PWD/shot.png" "http://127.0.0.1:$port/ss/index.html#profileURL=http://127.0.0.1:$port/t.json" \
	    > /dev/null 2> log || true
	kill "$srv"
	[ -s shot.png ]
	! grep -i 'still open\|CONSOLE.*error' log
}
