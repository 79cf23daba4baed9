#!/usr/bin/env bats
# tr-check: a trace against the models it should follow, and the same
# check inside tr-extrap -T; traces right and made wrong on purpose.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# grown: stencils of 4 to 32 ranks, models m.tr fitted on them, t.tr
# grown from the 32-rank run to 64 (an 8x8 grid), and the real g64.tr.
grown() {
	for n in 4 8 16 32; do tr gen -P stencil2d -n $n -i 6 -R 3 > g$n.tr; done
	for n in 4 8 16 32; do tr delta -s g$n.tr; tr stat -s g$n.tr; done |
	    tr fit -i > m.tr 2> /dev/null
	tr extrap -T -n 64 -R 5 m.tr g32.tr > t.tr
	tr gen -P stencil2d -n 64 -i 6 -R 3 > g64.tr
}

# samples: models fitted on the bundled recorded runs of 4 to 32 ranks
# as pipelines/extrap.mk fits them, and s.tr grown to 64.
samples() {
	for n in 4 8 16 32; do
		f=$(ls "$SAMPLES"/stencil/np$n/*.tr*)
		tr delta -s $f; tr stat -s $f | tr filter 'type != "cmat"'
		tr delta $f | tr hist -p -t delta -f wall -k key -b 8 |
		    tr hist -t delta -f cpu -k key -b 8
	done | tr fit -i > sm.tr 2> /dev/null
	tr extrap -T -n 64 sm.tr "$SAMPLES"/stencil/np32/*.tr* > s.tr
}

@test "tr-check: a grown stencil and the real run it stands for pass, each value an acc record" {
	grown
	run tr check m.tr t.tr
	[ "$status" -eq 0 ]
	# 224 messages an iteration on an 8x8 grid, as the real run's
	grep -qP '^acc\topstat\top=MPI_Isend\tcalls\t[0-9.]+\t1344\t' <<<"$output"
	[ "$(tr stat g64.tr | grep -P '^opstat\tMPI_Isend' | cut -f3)" = 1344 ]
	grep -qP '^acc\tclass\trank=9;op=MPI_Isend\tcalls\t24\t24\t100$' <<<"$output"
	[ "$(grep '^accsum' <<<"$output" | cut -f9)" = 0 ]
	tr check m.tr t.tr 2> /dev/null | tr cat > /dev/null
	# the measured run, without the grown trace's grid: no classes
	run tr check m.tr g64.tr
	[ "$status" -eq 0 ]
	! grep -q '^acc	class' <<<"$output"
	# -p: the trace passes through, then the check's records
	[ "$(tr check -p m.tr t.tr 2> /dev/null | grep -c '^ev')" = "$(grep -c '^ev' t.tr)" ]
}

@test "tr-check: a neighbour dropped, a message halved, one rank's class swapped: each named, exit 1" {
	grown
	# ranks 9 and 10 exchange nothing
	awk -F'\t' '$1 == "ev" && $4 ~ /^MPI_I(send|recv)$/ && ($2 == 9 && $9 == 10 || $2 == 10 && $9 == 9) { next } { print }' t.tr > drop.tr
	run tr check m.tr drop.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-check: check: class rank=9;op=MPI_Isend calls of rank 9, class interior/interior of 36 ranks: 18 in the trace, 24 its class's median (-25.0%, tolerance 12.1%)"* ]]
	# every message of one call site halved
	awk 'BEGIN { FS = OFS = "\t" } $1 == "ev" && $4 == "MPI_Isend" && $8 == "stencil2d+0x200" { $10 = $10 / 2 } { print }' t.tr > half.tr
	run tr check m.tr half.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"check: msite op=MPI_Isend;site=stencil2d+0x200 bytes/call: 512 in the trace, 1024 predicted (-50.0%, tolerance 10"* ]]
	# corner rank 0 and interior rank 9 trade places
	awk 'BEGIN { FS = OFS = "\t" } function sw(r) { return r == 0 ? 9 : r == 9 ? 0 : r }
	    $1 == "ev" { $2 = sw($2); if ($9 >= 0) $9 = sw($9) } { print }' t.tr > swap.tr
	run tr check m.tr swap.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"class rank=9;op=MPI_Isend calls of rank 9, class interior/interior of 36 ranks: 12 in the trace, 24 its class's median"* ]]
	# -W: said, exit 0; -E: a wider tolerance
	run tr check -W m.tr swap.tr
	[ "$status" -eq 0 ]
	[[ "$output" == *"class rank=9;op=MPI_Isend calls"* ]]
	run tr check -E 200 m.tr swap.tr
	[ "$status" -eq 0 ]
}

@test "tr-extrap -T: a trace that disagrees with its models is kept, said, exit 1; -W warns" {
	grown
	# models that want three times the calls of each op
	awk 'BEGIN { FS = OFS = "\t" } $1 == "model" && $2 == "opstat" && $4 == "calls" { $6 = "3*(" $6 ")" } { print }' m.tr > m2.tr
	run tr extrap -T -n 64 -R 5 m2.tr g32.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-extrap: -T: check: opstat op=MPI_Allreduce calls: 384 in the trace, 1152 predicted (-66.7%, tolerance 10.0%)"* ]]
	[[ "$output" == *"tr-extrap: -T: the trace disagrees with its models in "*" values: it is no prediction (-W: a warning)"* ]]
	# the trace is whole, for a look
	tr extrap -T -n 64 -R 5 m2.tr g32.tr 2> /dev/null > k.tr || true
	cmp k.tr t.tr
	run tr extrap -T -W -n 64 -R 5 m2.tr g32.tr
	[ "$status" -eq 0 ]
	tr extrap -T -E 300 -n 64 -R 5 m2.tr g32.tr > /dev/null
}

@test "tr-check: the bundled samples grown to 64 ranks pass, and so does the measured run; halved messages do not" {
	samples
	run tr check sm.tr s.tr
	[ "$status" -eq 0 ]
	run tr check sm.tr "$SAMPLES"/stencil/np64/*.tr*
	[ "$status" -eq 0 ]
	awk 'BEGIN { FS = OFS = "\t" } $1 == "ev" && $4 ~ /^MPI_I(send|recv)$/ { $10 = int($10 / 2) } { print }' s.tr > half.tr
	run tr check sm.tr half.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"check: opstat op=MPI_Irecv bytes: 4587520 in the trace, "*" predicted (-53."* ]]
}

@test "tr-check: a trace grown off any grid (extrap.grid=none) is checked without rank classes, and passes" {
	for n in 4 8 16; do
		tr gen -P butterfly -n $n -i 4 -j 0.2 -R 11 -c $((51200000 / n)) > b$n.tr
	done
	for n in 4 8 16; do tr delta -s b$n.tr; tr stat -s b$n.tr; done |
	    tr fit -i > m.tr 2> /dev/null
	tr extrap -T -n 32 m.tr b16.tr > t.tr
	grep -q '^#meta extrap.grid=none$' t.tr
	run tr check m.tr t.tr
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | awk -F'\t' '$1 == "accsum" { print $9 }')" -eq 0 ]
	# its times doubled, its compute with them, as the template's kept
	# under strong scaling would be: the delta sums are named
	awk -F'\t' -v OFS='\t' '$1 == "ev" { $5 *= 2; $6 *= 2; $7 *= 2 }
	    { print }' t.tr > slow.tr
	run tr check m.tr slow.tr
	[ "$status" -eq 1 ]
	[[ "$output" == *"tr-check: check: dmax key=* wall: "*" predicted (+"* ]]
}

@test "tr-check: errors and usage" {
	grown
	run tr check
	[ "$status" -eq 2 ]
	run tr check -E x m.tr t.tr
	[ "$status" -eq 2 ]
	run tr check t.tr t.tr
	[ "$status" -eq 3 ]
	[[ "$output" == *"t.tr: no model records"* ]]
	grep -v '^#meta np=' t.tr > nonp.tr
	run stderr_of tr check m.tr nonp.tr
	[ "$status" -eq 3 ]
	[ "$output" = "tr-check: nonp.tr: the trace has no #meta np: give -n" ]
	sed 's/^#meta extrap.grid=8x8$/#meta extrap.grid=8y8/' t.tr > badgrid.tr
	run tr check m.tr badgrid.tr
	[ "$status" -eq 3 ]
	[[ "$output" == "tr-check: badgrid.tr:"[0-9]*": #meta extrap.grid=8y8: not a grid" ]]
	run tr check m.tr missing.tr
	[ "$status" -eq 4 ]
	tr check -h | grep -q '^usage: tr-check'
}

@test "pipelines/extrap.mk: the check's verdict is in the table; a trace that fails it is kept as failed.tr.gz, and no table" {
	run make -s -C "$TOP" -f pipelines/extrap.mk TRACES=samples/stencil \
	    SCALES="4 8 16 32" TARGET=64 OUT="$PWD/o"
	[ "$status" -eq 0 ]
	[[ "$output" == *"checked against its models: "*" values, 0 beyond the tolerance"* ]]
	[ -f o/synthetic/check.tr ]
	# models edited to want three times the calls
	awk 'BEGIN { FS = OFS = "\t" } $1 == "model" && $2 == "opstat" && $4 == "calls" { $6 = "3*(" $6 ")" } { print }' o/models.tr > m3.tr
	mv m3.tr o/models.tr
	run make -s -C "$TOP" -f pipelines/extrap.mk TRACES=samples/stencil \
	    SCALES="4 8 16 32" TARGET=64 OUT="$PWD/o"
	[ "$status" -ne 0 ]
	[[ "$output" == *"tr-extrap: -T: check: opstat op=MPI_Isend calls: 5120 in the trace, 15360 predicted (-66.7%"* ]]
	[[ "$output" == *"extrap.mk: the synthetic trace disagrees with its models (above), no prediction: kept as $PWD/o/failed.tr.gz"* ]]
	[ ! -e o/synthetic.tr.gz ] && [ ! -e o/table.txt ]
	tr cat o/failed.tr.gz > /dev/null
}
