#!/usr/bin/env bats
# tr-json: records as JSON Lines named by #fields.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "tr-json: ev records become objects with typed values" {
	{ hdr 2; ev 0 0 MPI_Send 10 20 5 'a"b\c' 1 8 3; } > t
	run tr json t
	[ "$status" -eq 0 ]
	[ "$output" = '{"type":"ev","rank":0,"seq":0,"op":"MPI_Send","start":10,"end":20,"cpu":5,"site":"a\"b\\c","peer":1,"bytes":8,"tag":3,"comm":0,"req":-1,"root":-1}' ]
}

@test "tr-json: unknown types use their #fields names; numbers by JSON syntax" {
	{ printf '#tr 1\n#fields\tx\tname\tval\tcode\n'; printf 'x\tfoo\t1.5e+3\t007\n'; } > t
	run tr json t
	[ "$status" -eq 0 ]
	[ "$output" = '{"type":"x","name":"foo","val":1.5e+3,"code":"007"}' ]
}

@test "tr-json: jq can sum bytes of a generated trace" {
	tr gen -P ring -n 4 -i 5 -b 100 > t
	run sh -c "$TR_BIN/tr-json t | jq -s 'map(select(.op==\"MPI_Sendrecv\") | .bytes) | add'"
	[ "$status" -eq 0 ]
	[ "$output" = 2000 ]
}

@test "tr-json: the README's jq line gives the bytes tr-stat counts sent" {
	# it summed every record's bytes: the stencil's Isends, Irecvs and
	# Waitalls, three times the bytes sent
	tr cat -m "$SAMPLES"/stencil/np4/*.tr* > run16.tr
	cmd=$(sed -n 's/^\(tr-json run16.tr | jq .*\)$/\1/p' "$TOP/README.md")
	[ -n "$cmd" ]
	run sh -c "PATH=\"$TR_BIN:\$PATH\"; $cmd"
	[ "$status" -eq 0 ]
	[ "$output" = "$(tr stat run16.tr | awk -F'\t' '$1 == "opstat" && $2 == "MPI_Isend" { print $4 }')" ]
}

# Its first object was {"op":null,"bytes":null}: the comm, cart and reg
# records, which have no op, grouped with the calls.
@test "tr-json(1)'s example: bytes per operation, of calls only" {
	tr cat -m "$SAMPLES"/stencil/np4/*.tr* > run.tr
	cmd=$(man_examples tr-json.1)
	[ -n "$cmd" ]
	run sh -c "$cmd | jq -c '.[]'"
	[ "$status" -eq 0 ]
	[[ "$output" != *null* ]]
	want=$(tr stat run.tr | awk -F'\t' '$1 == "opstat" { printf "{\"op\":\"%s\",\"bytes\":%s}\n", $2, $4 }' | sort)
	[ "$(echo "$output" | sort)" = "$want" ]
}

@test "tr-json -m: metadata as objects, once per new key" {
	{ hdr 2; printf '#meta host.0=a\n'; ev 0 0 MPI_Init 1 2; } > a
	{ hdr 2; printf '#meta host.1=b\n'; ev 1 0 MPI_Init 1 2; } > b
	run tr json -m a b
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p <<<"$output")" = '{"type":"#meta","section":1,"np":2,"host.0":"a"}' ]
	[ "$(grep -c '#meta' <<<"$output")" -eq 2 ]
	[[ "$(sed -n 3p <<<"$output")" == *'"host.1":"b"'* ]]
}

@test "tr-json: control characters are escaped" {
	{ hdr 1; printf 'ev\t0\t0\tM\x01X\t1\t2\t0\ts\t-1\t0\t-1\t0\t-1\t-1\n'; } > t
	run tr json t
	[ "$status" -eq 0 ]
	[[ "$output" == *'"op":"M\u0001X"'* ]]
	tr json t | jq -e '.op == "M\u0001X"'
}

@test "tr-json: UTF-8 is kept; other bytes, which JSON cannot carry, are an error at their line" {
	{ printf '#tr 1\n#meta app=caf\xc3\xa9 \xf0\x9f\x98\x80\n'
	  printf '#fields\tnote\ttext\nnote\tna\xc3\xafve\n'; } > u.tr
	tr json -m u.tr | python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin.buffer.read().decode("utf-8").splitlines()]'
	tr json u.tr | jq -e '.text == "na\u00efve"'
	# a Latin-1 byte was copied as it was: the line was not JSON text
	{ hdr 1; printf 'ev\t0\t0\tMPI_Init\t1\t2\t0\tcaf\xe9\t-1\t0\t-1\t0\t-1\t-1\n'; } > l1.tr
	run stderr_of tr json l1.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-json: l1.tr:4: site: not UTF-8 text, which JSON cannot carry" ]
	printf '#tr 1\n#meta app=caf\xe9\n#fields\tnote\ttext\nnote\tx\n' > m.tr
	run tr json -m m.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-json: m.tr:2: #meta app: not UTF-8 text, which JSON cannot carry" ]
}

@test "tr-json: bad input gets file and line" {
	{ hdr 2; printf 'ev\t0\n'; } > bad
	run tr json bad
	fails_with 3 "tr-json: bad:4: expected 14 fields"
	run tr json -z
	fails_with 2 "usage: tr-json"
}

@test "tr-json: names of any length, escaped (once refused past 256 bytes)" {
	t=$(printf 't%.0s' $(seq 2000))
	c=$(printf 'c%.0s' $(seq 3000))
	printf '#tr 1\n#fields\t%s\t\001%s\n%s\t7\n' "$t" "$c" "$t" > long
	run tr json long
	[ "$status" -eq 0 ]
	tr json long | jq -e --arg t "$t" --arg c "$(printf '\001')$c" \
	    '.type == $t and .[$c] == 7'
}
