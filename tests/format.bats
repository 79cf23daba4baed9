#!/usr/bin/env bats
# The format's documentation and the man pages agree with the code.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

types() {
	sed -n 's/^	{TR_[A-Z]*, "\([a-z]*\)",.*/\1/p' "$TOP/lib/schema.c"
}

@test "format: every record type of lib/schema.c is specified in formats/tr.md" {
	n=0
	for t in $(types); do
		grep -q "^ *#fields	$t	" "$TOP/formats/tr.md" || { echo "no #fields $t in formats/tr.md"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -gt 20 ]
}

@test "format: every record type is in tr-format(5)" {
	for t in $(types); do
		grep -q "^\.It Li $t$" "$TOP/man/tr-format.5" ||
			grep -q "^#fields	$t	" "$TOP/man/tr-format.5" ||
			{ echo "$t missing in tr-format.5"; return 1; }
	done
}

@test "format: the #fields of each known type match formats/tr.md exactly" {
	# tr-cat refuses a #fields line of a known type with other columns, so
	# feeding it every spec line checks them against lib/schema.c.
	grep -h "^ *#fields	" "$TOP/formats/tr.md" | sed 's/^ *//' | sort -u > fields
	{ echo '#tr 1'; cat fields; } > spec.tr
	run tr cat spec.tr
	[ "$status" -eq 0 ]
}

@test "man: every program has a page, is in tr(7) and in the README" {
	for c in "$TOP"/cmd/tr-*.c; do
		t=$(basename "$c" .c)
		[ -f "$TOP/man/$t.1" ] || { echo "no man/$t.1"; return 1; }
		grep -q "^\.It Xr $t 1" "$TOP/man/tr.7" || { echo "$t not in tr.7"; return 1; }
		grep -q "^| $t |" "$TOP/README.md" || { echo "$t not in README"; return 1; }
	done
}

@test "man: every page is clean under mandoc -Tlint -Wwarning" {
	command -v mandoc >/dev/null || skip "no mandoc"
	run sh -c "mandoc -Tlint -Wwarning $TOP/man/*.[1357] 2>&1"
	[ -z "$output" ] || { echo "$output"; return 1; }
}

# Every filter of a stream, on a full disk: exit 4 and one line saying
# so (the flush before dying used to fail again and say it twice).
@test "io: a write error on stdout is reported once by every filter" {
	[ -w /dev/full ] || skip "no /dev/full"
	tr gen -p stencil2d -n 16 -i 20 >"$BATS_TEST_TMPDIR/s.tr"
	for t in cat delta hist stat profile waits json mean symbolize \
	    "filter rank==0" "nsim -n $TOP/pipelines/net/crossbar.net" plot; do
		run sh -c "$TR_BIN/tr-$t $BATS_TEST_TMPDIR/s.tr >/dev/full"
		[ "$status" -eq 4 ] || { echo "tr-$t: status $status"; false; }
		[ "$output" = "tr-${t%% *}: write error: No space left on device" ] ||
			{ echo "tr-$t: $output"; false; }
	done
}
