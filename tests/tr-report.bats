#!/usr/bin/env bats
# tr-report: one self-contained HTML page, loaded in headless Chromium.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# A pipeline's outputs: a trace, runs at 4..32 with a model fitted on
# 4..16, a diff, jobs, and a file that is not a stream.
outputs() {
	mkdir -p out/runs
	tr gen -P stencil1d -n 4 -i 3 -R 1 > out/trace.tr
	for n in 4 8 16 32; do
		v=$((1000 + 10 * n))
		printf '#tr 1\n#meta np=%d\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t%d\t1\t%d\t-1\t%d\t0\n' $n $n $v $v > out/runs/d$n.tr
	done
	{ printf '#tr 1\n'
	printf '#fields\tmodel\ttype\tkey\tquantity\tfamily\texpr\trss\tadjr2\tsmape\tcvsmape\tpoints\treps\n'
	printf 'model\tdmax\tkey=*\twall\tpmnf\t1000 + 10*n\t0\t1\t0\t0\t3\t1\n'
	} > out/model.tr
	{ printf '#tr 1\n'
	printf '#fields\tphasecmp\tname\tnp\tN\tpart\tmeas\tpred\terr\n'
	printf 'phasecmp\tsolve\t64\t-1\ttotal\t2000\t1800\t-10\n'
	printf '#fields\tdiff\tkey\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly\n'
	printf 'diff\tMPI_Send\t52000000\t9000000000\t8948000000\t173.1\t0.7\t0.001\t3\t3\t-\n'
	printf 'diff\tcompute\t9100000000\t9200000000\t100000000\t1.011\t0.01\t0.4\t3\t3\t-\n'
	printf 'diff\tMPI_Allreduce\t20492.5\t20330\t-162.5\t0.9920702696108332\t0.00010631379659209811\t-1\t1\t1\t-\n'
	} > out/cmp.tr
	gzip out/cmp.tr
	{ printf '#tr 1\n'
	printf '#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd\n'
	printf 'job\tn1\t1\ta\t0\t2000000000\t0\t0\t0\t0\t0\t0\tcc -c a.c\n'
	printf 'job\tn1\t2\tb\t500000000\t1000000000\t0\t0\t0\t0\t0\t0\tld -o b\n'
	} > out/jobs.tr
	echo 'all: ; true' > out/Makefile
}

@test "tr-report: a directory of outputs becomes one self-contained page" {
	outputs
	tr report -H 'nightly <run>' out > r.html
	grep -q '<title>nightly &lt;run&gt;</title>' r.html
	# every stream, none of the rest; directories in name order
	[ "$(grep -c '<section class="input" id="in' r.html)" -eq 8 ]
	! grep -q 'Makefile' r.html || false
	grep -q '<h2>out/cmp.tr.gz</h2>' r.html
	# models are drawn with the measurements of the other inputs
	sed -n '/id="across"/,/<\/section>/p' r.html > across
	grep -q 'data-kind="scaling"' across
	grep -q 'n=32: accuracy 100.0 %' across
	# charts of each input, tables of comparisons with the accuracy
	for k in timeline diff jobs; do grep -q "data-kind=\"$k\"" r.html; done
	grep -q 'predicted vs measured: phasecmp' r.html
	grep -q '<td class="n">90.0</td>' r.html
	grep -q 'top 15 differences: diff' r.html
	# fractions to 6 digits, as written in the title; integers whole
	grep -q '<td class="n" title="0.9920702696108332">0.99207</td>' r.html
	grep -q '<td class="n" title="0.00010631379659209811">0.000106314</td>' r.html
	grep -q '<td class="n" title="20492.5">20492.5</td>' r.html
	grep -q '<td class="n">9200000000</td>' r.html
	# nothing is fetched: no src, no link, no URL but the SVG namespace
	! grep -qi '<link\|src=\|url(http\|@import' r.html || false
	[ "$(grep -o "https\?://[^\"']*" r.html | sort -u)" = "http://www.w3.org/2000/svg" ]
}

@test "tr-report: every inline chart is well-formed SVG" {
	outputs
	tr report out > r.html
	awk '/^<svg /{n++; f=sprintf("c%02d.svg", n)} f{print > f} /^<\/svg>/{f=""}' r.html
	n=$(ls c*.svg | wc -l)
	# scaling (across inputs), diff, jobs, timeline, the trace's matrix
	[ "$n" -eq 5 ]
	for f in c*.svg; do xmllint --noout "$f"; done
}

@test "tr-report: in headless Chromium: no console errors, elements present, toggles, zoom, screenshot" {
	outputs
	tr report out > r.html
	run sh "$TOP/tests/browser-check.sh" r.html shot.png
	echo "$output" > dom.html
	[ "$status" -eq 0 ]
	grep -q 'data-selftest="pass"' dom.html
	grep -q '^ok zoom r7-tl0 x4.000' dom.html
	grep -q '^ok pan r7-tl0' dom.html
	grep -q '^ok no script errors' dom.html
	[ "$(grep -o 'ok legend toggle' dom.html | wc -l)" -eq 4 ]
	for k in timeline scaling diff jobs matrix; do
		grep -q "<figure class=\"chart\" data-kind=\"$k\">" dom.html
	done
	! grep -q '^FAIL' dom.html || false
	grep -q 'data-ready="1"' dom.html
	# a PNG, not an empty file
	[ "$(head -c 8 shot.png | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ]
	[ "$(wc -c < shot.png)" -gt 20000 ]
}

@test "tr-report: the browser check fails on a page with a script error" {
	printf '<html><body><script>nosuchfunction();</script></body></html>\n' > bad.html
	run sh "$TOP/tests/browser-check.sh" bad.html shot.png
	[ "$status" -eq 1 ]
	[[ "$output" == *nosuchfunction* ]]
}

@test "tr-report: stdin and a single file; a large trace stays small" {
	tr gen -P stencil2d -n 64 -i 40 -R 3 > big
	tr report -m 2000 < big > r.html
	grep -q 'time bins' r.html
	[ "$(wc -c < r.html)" -lt 3000000 ]
	[ "$(wc -c < big)" -gt "$(wc -c < r.html)" ]
}

@test "tr-report: errors: usage, no streams, missing input" {
	run tr report -x
	fails_with 2 "usage: tr-report"
	mkdir empty
	run stderr_of tr report empty
	[ "$status" -eq 3 ]
	[ "$output" = "tr-report: empty: no tr streams to report on" ]
	run stderr_of tr report nosuch
	[ "$status" -eq 4 ]
	# one line: the missing file, not also "no tr streams"
	[ "$output" = "tr-report: nosuch: No such file or directory" ]
	{ hdr 1; printf 'ev\t0\t0\tMPI_Send\t5\n'; } > bad.tr
	run tr report bad.tr
	fails_with 3 "bad.tr:4:"
}

@test "tr-report: the per-rank files of a run are one input with one timeline" {
	mkdir -p run/np4
	for r in 0 1 2 3; do tr gen -P ring -n 4 -i 2 -r $r > run/np4/rank.$r.tr; done
	gzip run/np4/rank.3.tr
	tr gen -P ring -n 2 -i 2 > run/other.tr
	tr report run > r.html
	[ "$(grep -c '<section class="input"' r.html)" -eq 2 ]
	grep -q '<h2>run/np4 <small>(4 rank files)</small></h2>' r.html
	n=$(cat run/np4/rank.[012].tr | grep -c '^ev')
	n=$((n + $(gzip -dc run/np4/rank.3.tr.gz | grep -c '^ev')))
	grep -q "timeline ($n events, 4 ranks)" r.html
	# inputs in name order
	[ "$(grep -o 'href="#in[0-9]">[^<]*' r.html | sed 's/.*>//' | paste -sd' ')" = "run/np4 run/other.tr" ]
}

@test "tr-report: a directory named with a trailing slash (out/, as a shell completes it) names its files once-slashed" {
	mkdir -p run/np4
	for r in 0 1; do tr gen -P ring -n 2 -i 2 -r $r > run/np4/rank.$r.tr; done
	tr gen -P ring -n 2 -i 2 > run/other.tr
	tr report run/ > r.html
	[ "$(grep -o 'href="#in[0-9]">[^<]*' r.html | sed 's/.*>//' | paste -sd' ')" = "run/np4 run/other.tr" ]
	! grep -q 'run//' r.html || false
	# the same report as without the slash
	tr report run > r2.html
	cmp r.html r2.html
}

@test "tr-report: sections of one np name their problem size, not np=2 each" {
	for n in 100 200; do
		printf '#tr 1\n#meta np=2\n#meta N=%d\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t2\t1\t%d\t-1\t%d\t0\n' $n $n $n
	done > sizes.tr
	tr report sizes.tr > r.html
	sed -n '/<p class="meta">/p' r.html > meta
	grep -q 'sizes.tr N=100 (np=2), sizes.tr N=200 (np=2)' meta
	# sections alike in np and N (two apps) are numbered
	for a in x y; do
		printf '#tr 1\n#meta np=2\n#meta app=%s\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t2\t1\t5\t-1\t5\t0\n' $a
	done > twice.tr
	tr report twice.tr > r2.html
	grep -q 'twice.tr #1 (np=2), twice.tr #2 (np=2)' r2.html
}

# a.tr and b.tr: the means of five nights each of 41 noisy unchanged
# keys (tests/nights.awk), as tests/tr-diff.bats compares them.
quiet_nights() {
	local r
	for r in a b; do
		awk -v seed=$([ $r = a ] && echo 1 || echo 7920) -v slow=1 \
		    -v out=$r -f "$TOP/tests/nights.awk"
		tr-mean $r.[1-5] > $r.tr
	done
}

# The p of a diff record is its key's own test: with 42 keys tested, two
# unchanged ones pass p < 0.05 by chance (tests/tr-diff.bats). The table
# shows them adjusted beside, as tr-diff -T does, under the run's
# diff.correction.
@test "tr-report: a diff's p-values are shown adjusted for the keys tested, as tr-diff adjusted them" {
	quiet_nights
	for c in holm bh none; do
		tr-diff -C $c a.tr b.tr > d.tr
		tr report d.tr > r.html
		grep -q '<th>p</th><th title="p adjusted[^"]*">p.adj</th>' r.html
		got=$(sed -n '/<table data-type="diff">/,/<\/table>/p' r.html |
		    grep '^<tr><td' | sed 's/<\/td>/\t/g; s/<[^>]*>//g' |
		    awk -F'\t' '{ printf "%s %.2g\n", $1, $8 }' | sort)
		[ "$(echo "$got" | wc -l)" -eq 15 ]
		want=$(tr-diff -T -C $c a.tr b.tr | awk 'NR > 1 { print $1, $8 }' |
		    sort | join - <(echo "$got" | cut -d' ' -f1))
		[ "$got" = "$want" ]
	done
	# k38's own p is 0.021, the smallest of 42: Holm's is 42 x 0.021.
	tr-diff a.tr b.tr > d.tr
	tr report d.tr > r.html
	sed -n '/<table data-type="diff">/,/<\/table>/p' r.html |
	    grep '^<tr><td>k38<' |
	    grep -q 'title="0.02086208830335169">0.0208621</td><td class="n">0.876208</td>'
}

# tr-diff -c keeps the top keys only; their p.adj is still over all the
# keys tested, which only tr-diff saw: the report shows the one each
# record carries, not one made over the keys kept.
@test "tr-report: the p.adj of tr-diff -C's records is tr-diff -T's, over all the keys tested" {
	quiet_nights
	for c in holm bh; do
		tr-diff -C $c -c 5 -s p a.tr b.tr > d.tr
		tr report d.tr > r.html
		got=$(sed -n '/<table data-type="diff">/,/<\/table>/p' r.html |
		    grep '^<tr><td' | sed 's/<\/td>/\t/g; s/<[^>]*>//g' |
		    awk -F'\t' '{ printf "%s %.2g\n", $1, $8 }')
		[ "$(echo "$got" | wc -l)" -eq 6 ]
		want=$(tr-diff -T -C $c -c 5 -s p a.tr b.tr |
		    awk 'NR > 1 { print $1, $8 }')
		[ "$got" = "$want" ]
		# the column is shown once, beside p
		[ "$(grep -c '>p.adj</th>' r.html)" -eq 1 ]
		! grep -q '<th>padj</th>' r.html
	done
	# k38: 42 x 0.021 under Holm, not 6 x 0.021 over the records kept
	tr-diff -c 5 -s p a.tr b.tr > d.tr
	tr report d.tr | grep '^<tr><td>k38<' | grep -q '<td class="n">0.876208</td>'
}

# A diff written before the records carried padj is adjusted here, as
# tr-diff would have, over its records.
@test "tr-report: a diff without a padj column gets p.adj over its records" {
	{ printf '#tr 1\n#meta diff.correction=holm\n'
	printf '#fields\tdiff\tkey\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly\n'
	printf 'diff\tx\t1\t2\t1\t2\t0.5\t0.01\t3\t3\t-\n'
	printf 'diff\ty\t1\t1\t0\t1\t0\t0.04\t3\t3\t-\n'
	printf 'diff\t(total)\t2\t3\t1\t1.5\t0.3\t-1\t1\t1\t-\n'
	} > old.tr
	tr report old.tr > r.html
	grep '^<tr><td>x<' r.html | grep -q '<td class="n">0.02</td>'
	grep '^<tr><td>y<' r.html | grep -q '<td class="n">0.04</td>'
	grep '^<tr><td>(total)<' r.html | grep -q '<td>-</td>'
}

@test "tr-report: no file and a terminal for stdin is a usage error, not a wait for input" {
	# tr-report $(tr-runs paths EXPR) selecting no run waited (tr(7))
	on_tty report
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-report: no file given, and stdin is a terminal"* ]]
}

@test "tr-report: a timeline opens on the solve, the whole run one click away" {
	solve_trace > t.tr
	tr report t.tr > r.html
	grep -q '<button data-act="all">whole run</button>' r.html
	grep -q 'data-a0="-1295.00" data-a1="1890.00"' r.html
	run sh "$TOP/tests/browser-check.sh" r.html shot.png
	echo "$output" > dom.html
	[ "$status" -eq 0 ]
	grep -q 'data-selftest="pass"' dom.html
	grep -q '^ok reset r0-tl0' dom.html
	grep -q '^ok whole run r0-tl0 x0.286' dom.html
}

@test "tr-report: a communication matrix of cmat records and of raw traces" {
	tr gen -P ring -n 4 -i 2 -R 1 > t.tr
	tr stat t.tr > s.tr
	tr report t.tr s.tr > r.html
	[ "$(grep -c '<figure class="chart" data-kind="matrix">' r.html)" -eq 2 ]
	[ "$(grep -c '<title>0 to 1: 2 messages, 2.048 KB</title>' r.html)" -eq 2 ]
	# a timeline first, then the matrix
	sed -n '/id="in0"/,/<\/section>/p' r.html | grep -o 'data-kind="[a-z]*"' |
		tr '\n' ' ' | grep -q '^data-kind="timeline" data-kind="matrix" $'
}

@test "tr-report: call sites are symbolized where the binary exists, kept where it does not" {
	off=$(nm "$TR_MPIBIN/stencil" | awk '$3 == "main" { print $1 }')
	{
		printf '#tr 1\n#meta np=2\n#meta module.gone=%s/nope\n#meta module.stencil=%s\n' \
			"$PWD" "$(realpath "$TR_MPIBIN/stencil")"
		printf '%s\n' "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 "stencil+0x$(printf %x $((0x$off + 2)))" 1 8
		ev 1 0 MPI_Recv 1 3 0 gone+0x1234 0 8
	} > t.tr
	run tr report t.tr
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > r.html
	grep -q '<title>MPI_Send rank 0, 1 ns, peer 1, 8 bytes, at main@stencil.c:[0-9]*</title>' r.html
	grep -q '<title>MPI_Recv rank 1, 2 ns, peer 0, 8 bytes, at gone+0x1234</title>' r.html
	# tr-plot draws no sites
	! tr plot t.tr 2>/dev/null | grep -q ', at ' || false
}
