#!/usr/bin/env bats
# tr-plot: standalone SVG charts, checked with xmllint and by content.

load helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

valid() {
	xmllint --noout "$1"
}

# Counts the elements of class CLASS group's children of a kind: in a
# chart, every call is one rect with a <title>.
count() {
	grep -c "$1" "$2" || true
}

@test "tr-plot: a timeline has a lane per rank, a rect per call, an arrow per message" {
	tr gen -P stencil1d -n 4 -i 3 -R 1 > t
	tr plot t > t.svg
	valid t.svg
	for r in 0 1 2 3; do grep -q ">rank $r</text>" t.svg; done
	# one rect per call; the completion of two requests is one call
	calls=$(awk -F'\t' '$1=="ev" {print $2, $3}' t | sort -u | wc -l)
	[ "$(count '<title>MPI_' t.svg)" -eq "$calls" ]
	# every Isend is matched with its receive: one arrow each
	sends=$(grep -c $'\tMPI_Isend\t' t)
	[ "$(count 'marker-end=' t.svg)" -eq "$sends" ]
	grep -q '>time (us)</text>' t.svg
	grep -q 'data-series="msg"' t.svg
}

@test "tr-plot: a timeline draws tr-record's buffer flushes as such, not as compute" {
	# NWChem at 2 ranks flushed for 55 ms between two calls: a grey gap
	# that read as the program's work
	{ hdr 2; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	ev 0 0 MPI_Barrier 0 100
	printf 'reg\t0\t1\tenter\ttr.flush\t150\t0\t35\n'
	printf 'reg\t0\t2\tleave\ttr.flush\t650\t400\t35\n'
	ev 0 3 MPI_Barrier 700 800
	ev 1 0 MPI_Barrier 0 100
	ev 1 1 MPI_Barrier 300 800
	} > t
	tr plot t > t.svg
	valid t.svg
	grep -q '<title>tr.flush rank 0, 500 ns</title>' t.svg
	grep -q '>tr.flush</text>' t.svg
	# binned, its time is in a category of its own, whenever it came:
	# after 12 ops, not "other MPI"
	{ hdr 2; printf '#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n'
	for i in $(seq 1 14); do
		ev 0 $i MPI_Op$i $((i * 100)) $((i * 100 + 50))
		ev 1 $i MPI_Op$i $((i * 100)) $((i * 100 + 50))
	done
	printf 'reg\t0\t20\tenter\ttr.flush\t2000\t0\t35\n'
	printf 'reg\t0\t21\tleave\ttr.flush\t9000\t400\t35\n'
	ev 0 22 MPI_Barrier 9000 9100
	ev 1 22 MPI_Barrier 2000 9100
	} > many
	tr plot -m 2 many > b.svg
	valid b.svg
	grep -q '>tr.flush</text>' b.svg
	grep -q '>other MPI</text>' b.svg
	# rank 0's lane from 2000 to 9000 ns: the flush's colour, class s13
	grep -q '<rect class="s13" [^>]*fill="#ffa600"' b.svg
	grep -q 'data-series="s13"' b.svg
	# nor in tr-nsim's replay, where it takes no time
	tr nsim t | tr plot > n.svg
	valid n.svg
	! grep -q 'tr.flush' n.svg || false
	# other regions are not drawn
	sed 's/tr\.flush/solve/' t > u
	tr plot u > u.svg
	! grep -q 'solve' u.svg || false
}

@test "tr-plot: a message goes from the send's start to the receive's end; a barrier's wait is hatched" {
	{ hdr 2
	ev 0 0 MPI_Send 100 200 0 a.out+0x1 1 8 5 0
	ev 1 0 MPI_Recv 50 300 0 a.out+0x2 0 8 5 0
	ev 0 1 MPI_Barrier 400 900 0 a.out+0x3 -1 0 -1 0
	ev 1 1 MPI_Barrier 700 900 0 a.out+0x3 -1 0 -1 0
	} > t
	tr plot -w 1090 t > t.svg
	valid t.svg
	# plot x from 70 to 1070 maps 50..900 ns: 100 -> 128.82, 300 -> 364.12
	grep -q '<line x1="128.82" y1="74.0" x2="364.12" y2="102.0" marker-end' t.svg
	# rank 0 waits from its entry (400) to rank 1's (700), rank 1 not at all
	[ "$(sed -n '/<g class="wait"/,/<\/g>/p' t.svg | grep -c '<rect')" -eq 1 ]
	sed -n '/<g class="wait"/,/<\/g>/p' t.svg | grep -q 'x="481.76" y="61.0" width="352.94"'
}

@test "tr-plot: the waits of MPI_Comm_create_group and MPI_Intercomm_create are among the members of what they make" {
	# ranks 0 and 1 make communicator 2 from world, rank 2 not; then
	# all three make intercommunicator 3: rank 0 waits in both, rank 1
	# in the second (before, neither call was drawn as a wait)
	{ hdr 3; printf '#fields\tcomm\trank\tid\tsize\tmembers\n'
	  for r in 0 1; do printf 'comm\t%s\t2\t2\t0-1\n' $r; done
	  for r in 0 1 2; do printf 'comm\t%s\t3\t3\t0-2\n' $r; done
	  ev 0 0 MPI_Comm_create_group 0 500 0 a.out+0x1 -1 0 -1 0 2
	  ev 1 0 MPI_Comm_create_group 400 500 0 a.out+0x1 -1 0 -1 0 2
	  ev 0 1 MPI_Intercomm_create 500 1000 0 a.out+0x2 -1 0 -1 2 3
	  ev 1 1 MPI_Intercomm_create 600 1000 0 a.out+0x2 -1 0 -1 2 3
	  ev 2 0 MPI_Intercomm_create 900 1000 0 a.out+0x2 -1 0 -1 1 3
	} > t
	tr plot -w 1070 t > t.svg
	valid t.svg
	# 0.98 pixel a ns from x 70: rank 0 (y 61) 0-400 and 500-900,
	# rank 1 (y 89) 600-900
	sed -n '/<g class="wait"/,/<\/g>/p' t.svg | grep '<rect' | cut -d'"' -f2,4,6 > w
	[ "$(cat w)" = "$(printf '70.00"61.0"392.00\n560.00"61.0"392.00\n658.00"89.0"294.00')" ]
}

@test "tr-plot: Sendrecv that receive another tag than they send have their arrows" {
	# each sends with 10 + its rank and receives with 10 + the other's
	{ hdr 2
	ev 0 0 MPI_Sendrecv 100 300 0 a.out+0x1 1 8 10 0 11 1
	ev 1 0 MPI_Sendrecv 100 300 0 a.out+0x1 0 8 11 0 10 0
	} > t
	tr plot t > t.svg
	valid t.svg
	[ "$(count 'marker-end=' t.svg)" -eq 2 ]
}

@test "tr-plot: a large trace is drawn as time bins of bounded size" {
	tr gen -P stencil2d -n 64 -i 30 -R 2 > t
	tr plot -m 1000 t > t.svg
	valid t.svg
	grep -q 'time bins' t.svg
	n=$(grep -c '<rect' t.svg)
	[ "$n" -lt $((64 * 400 + 100)) ]
	# no per-call tooltips, no arrows in the binned form
	! grep -q '<title>MPI_' t.svg || false
	! grep -q 'marker-end=' t.svg || false
	# the same trace under the limit is drawn call by call
	tr plot -m 100000 t > u.svg
	grep -q '<title>MPI_' u.svg
}

@test "tr-plot: histograms overlay the series of several inputs" {
	{ printf '#tr 1\n#meta np=64\n'
	printf '#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\ta>b\t0\t100\t5\t50\t250\n'
	printf 'bin\twall\ta>b\t100\t200\t3\t150\t450\n'
	} > meas
	{ printf '#tr 1\n#meta np=64\n'
	printf '#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\ta>b\t0\t100\t4\t50\t200\n'
	printf 'bin\twall\ta>b\t100\t200\t4\t150\t600\n'
	} > pred
	tr plot -s measured,predicted meas pred > h.svg
	valid h.svg
	grep -q '>wall a&gt;b</text>' h.svg
	grep -q '>measured</text>' h.svg
	grep -q '>predicted</text>' h.svg
	[ "$(sed -n '/<g class="s0"/,/<\/g>/p' h.svg | grep -c '<rect')" -eq 2 ]
	[ "$(sed -n '/<g class="s1"/,/<\/g>/p' h.svg | grep -c '<rect')" -eq 2 ]
	grep -q '<title>\[0, 100): 5</title>' h.svg
	grep -q '<title>\[100, 200): 4</title>' h.svg
}

# tr-delta | tr-hist -f wall | tr-hist -f cpu gives both fields; a
# histogram of bytes is another unit. Every panel was labelled with the
# first bin's field, "wall (ms)" under MPB's CPU-time histograms.
@test "tr-plot: each histogram panel's axis names its own field and unit" {
	{ printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\ta>b\t0\t2000000\t5\t50\t250\n'
	printf 'bin\tcpu\ta>b\t0\t1000000\t5\t50\t250\n'
	printf 'bin\tbytes\tMPI_Send\t0\t4096\t3\t50\t150\n'
	} > f
	tr plot f > f.svg
	valid f.svg
	[ "$(grep -c 'class="label">wall (' f.svg)" -eq 1 ]
	[ "$(grep -c 'class="label">cpu (' f.svg)" -eq 1 ]
	[ "$(grep -c 'class="label">bytes' f.svg)" -eq 1 ]
}

@test "tr-plot: histograms whose keys differ only after 300 bytes get a panel each" {
	long=$(mawk 'BEGIN { for (i = 0; i < 40; i++) printf "ns::f(int)" }')
	{ printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\t%s>%s+0x10\t0\t100\t5\t50\t250\n' "$long" "$long"
	printf 'bin\twall\t%s>%s+0x20\t0\t100\t3\t50\t150\n' "$long" "$long"
	} > long
	tr plot long > l.svg
	valid l.svg
	# each title cut to its panel, its end kept, the whole key its tooltip
	[ "$(grep -c '+0x10<title>wall ns::f(int).*+0x10</title></text>' l.svg)" -eq 1 ]
	[ "$(grep -c '+0x20<title>wall ns::f(int).*+0x20</title></text>' l.svg)" -eq 1 ]
	grep -q '<title>\[0, 100): 5</title>' l.svg
	grep -q '<title>\[0, 100): 3</title>' l.svg
}

@test "tr-plot: raw values of per-rank totals are binned with -t and -y" {
	{ printf '#tr 1\n#meta np=4\n'
	printf '#fields\tdsum\trank\tkey\tn\twall\tcpu\n'
	for r in 0 1 2 3; do printf 'dsum\t%d\t*\t10\t%d\t-1\n' $r $((1000 + r * 100)); done
	} > s
	tr plot -t dsum -y wall s > h.svg
	valid h.svg
	[ "$(grep -c '<title>\[' h.svg)" -eq 4 ]
}

@test "tr-plot: a bin with hi below lo, or a range beyond a double's, draws no NaN" {
	# Fuzzed tr-hist output: the backwards range gave NaN ticks, and
	# tr_svg_num took (int)NaN (UBSan: signed integer overflow).
	{ printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\ta>b\t2\t1\t2\t0\t0\n'
	printf 'bin\twall\tc>d\t-1e308\t1e308\t2\t0\t0\n'
	} > back
	tr plot -g hist back > b.svg
	valid b.svg
	! grep -qi 'nan' b.svg || false
	grep -q '>wall a&gt;b</text>' b.svg
}

@test "tr-plot: a scaling plot shows points, the model and the accuracy at the target" {
	for n in 4 8 16 32; do
		v=$((1000 + 10 * n))
		[ $n -eq 32 ] && v=1200
		printf '#tr 1\n#meta np=%d\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t%d\t1\t%d\t-1\t%d\t0\n' $n $n $v $v > d$n
	done
	{ printf '#tr 1\n'
	printf '#fields\tmodel\ttype\tkey\tquantity\tfamily\texpr\trss\tadjr2\tsmape\tcvsmape\tpoints\treps\n'
	printf 'model\tdmax\tkey=*\twall\tpmnf\t1000 + 10*n\t0\t1\t0\t0\t3\t1\n'
	} > m
	# tr-extrap's prediction at 32 is not a measurement
	printf '#tr 1\n#meta np=32\n#meta extrap=predicted\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t32\t1\t5000\t-1\t5000\t0\n' > p32
	tr plot m d4 d8 d16 d32 p32 > s.svg
	valid s.svg
	# three fitted points, the target np=32 beyond them: pred 1320, meas
	# 1200, accuracy 1 - 120/1320
	[ "$(grep -c '<circle' s.svg)" -eq 3 ]
	grep -q 'n=32: accuracy 90.9 %' s.svg
	grep -q '<title>predicted at n=32: 1320</title>' s.svg
	grep -q '<title>measured at n=32: 1200</title>' s.svg
	grep -q '>1000 + 10\*n</text>\|pmnf: 1000 + 10\*n' s.svg
	for n in 4 8 16 32; do grep -q ">$n</text>" s.svg; done
	# -n names the target
	tr plot -n 64 m d4 d8 d16 > t.svg
	grep -q 'n=64: predicted 1640' t.svg
	# without the run at the target, tr-accuracy's acc record says it
	{ printf '#tr 1\n#meta np=32\n'
	printf '#fields\tacc\ttype\tkey\tquantity\tpred\tmeas\tacc\n'
	printf 'acc\tdmax\tkey=*\twall\t1320\t1250\t94.69696969696969\n'
	} > a
	tr plot m d4 d8 d16 a > u.svg
	valid u.svg
	grep -q 'n=32: accuracy 94.7 %' u.svg
	grep -q '<title>measured at n=32: 1250</title>' u.svg
}

@test "tr-plot: a model's constants are labelled with six significant digits" {
	for n in 4 8 16; do
		printf '#tr 1\n#meta np=%d\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t*\t%d\t1\t100\t-1\t100\t0\n' $n $n > d$n
	done
	{ printf '#tr 1\n'
	printf '#fields\tmodel\ttype\tkey\tquantity\tfamily\texpr\trss\tadjr2\tsmape\tcvsmape\tpoints\treps\n'
	printf 'model\tdmax\tkey=*\twall\tpmnf\t0.12345678 + 391674874.3529412*n^(-1)*log2(n)^2 + 1.5e-07*n\t0\t1\t0\t0\t3\t1\n'
	} > m
	tr plot m d4 d8 d16 > s.svg
	valid s.svg
	grep -q '>pmnf: 0.123457 + 391674874\*n^(-1)\*log2(n)^2 + 0.00000015\*n</text>' s.svg
}

@test "tr-plot: a scaling panel's title fits its panel; a long key is cut in the middle, whole in its tooltip" {
	# GROMACS's intervals, symbolized: keys of 200 and more bytes. The
	# titles ran 90 characters, into the next panel and off the left.
	k='void ddSendrecv<gmx::BasicVector<float> >(gmx_domdec_t const*, int, int, gmx::ArrayRef<gmx::BasicVector<float> >)@libgromacs_mpi.so.7.0.0+0x537c25>dd_pmeredist_f(gmx_pme_t*, PmeAtomComm*, bool)@libgromacs_mpi.so.7.0.0+0xc217b2'
	for n in 4 8 16; do
		printf '#tr 1\n#meta np=%d\n#fields\tdmax\tkey\tranks\tn\twall\tcpu\tmean\trank\ndmax\t%s\t%d\t1\t%d\t-1\t%d\t0\n' $n "$k" $n $((1000 + n)) $((1000 + n)) > d$n
	done
	{ printf '#tr 1\n'
	printf '#fields\tmodel\ttype\tkey\tquantity\tfamily\texpr\trss\tadjr2\tsmape\tcvsmape\tpoints\treps\n'
	printf 'model\tdmax\tkey=%s\twall\tpmnf\t1000 + n\t0\t1\t0\t0\t3\t1\n' "$k"
	printf 'model\tdmax\tkey=*\twall\tpmnf\t1000 + n\t0\t1\t0\t0\t3\t1\n'
	} > m
	tr plot -w 1000 m d4 d8 d16 > s.svg
	valid s.svg
	# two panels of 500 px: a bold title of at most 58 characters
	# (7.5 px each, centred 25 px right of the panel's middle, 5 px
	# from its edges), its start and end kept
	t=$(grep 'font-weight="bold"' s.svg | grep 'ddSendrecv' |
	    sed 's/<title>.*//; s/<\/text>$//; s/^<text[^>]*>//' |
	    sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g')
	[ -n "$t" ]
	[ "${#t}" -le 58 ]
	[[ "$t" == "dmax key=void ddSendrecv"*"..."*"+0xc217b2: wall" ]]
	# the whole key in the title's tooltip
	grep 'font-weight="bold"' s.svg | grep -q "<title>dmax key=void ddSendrecv&lt;gmx::BasicVector&lt;float&gt; &gt;(gmx_domdec_t.*0xc217b2: wall</title>"
	# a short one is whole
	grep -q '>dmax key=\*: wall<' s.svg
	# so are the histograms' panels
	printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\nbin\twall\t%s\t0\t100\t5\t50\t250\nbin\twall\tshort\t0\t100\t5\t50\t250\n' "$k" > h
	tr plot -w 1000 h > h.svg
	valid h.svg
	t=$(grep 'font-weight="bold"' h.svg | grep 'ddSendrecv' |
	    sed 's/<title>.*//; s/<\/text>$//; s/^<text[^>]*>//' |
	    sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g')
	[ "${#t}" -le 58 ]
	[[ "$t" == "wall void ddSendrecv"*"..."*"+0xc217b2" ]]
	grep -q '>wall short<' h.svg
	# a key of two-byte characters is cut between them, not into a
	# replacement character
	u=x$(printf 'é%.0s' $(seq 100))
	printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\nbin\twall\t%s\t0\t100\t5\t50\t250\nbin\twall\tshort\t0\t100\t5\t50\t250\n' "$u" > hu
	tr plot -w 1000 hu > hu.svg
	valid hu.svg
	t=$(grep 'font-weight="bold"' hu.svg | grep 'éé' |
	    sed 's/<title>.*//; s/<\/text>$//; s/^<text[^>]*>//')
	[[ "$t" == "wall xéé"*"..."*"éé" ]]
	! grep -q $'\xef\xbf\xbd' hu.svg || false
}

@test "tr-plot: diff bars have a and b per key and the ratio as a point" {
	{ printf '#tr 1\n'
	printf '#fields\tdiff\tkey\ta\tb\tdelta\tratio\tm\tp\tna\tnb\tonly\n'
	printf 'diff\tMPI_Send\t52000000\t9000000000\t8948000000\t173.1\t0.7\t0.001\t3\t3\t-\n'
	printf 'diff\tcompute\t9100000000\t9200000000\t100000000\t1.011\t0.01\t0.4\t3\t3\t-\n'
	printf 'diff\tMPI_Barrier\t0\t50000000\t50000000\t-1\t0\t-1\t0\t3\tb\n'
	} > d
	tr plot d > d.svg
	valid d.svg
	[ "$(grep -c '<rect class="s0"' d.svg)" -eq 2 ]
	[ "$(grep -c '<rect class="s1"' d.svg)" -eq 3 ]
	[ "$(grep -c '<circle class="s2"' d.svg)" -eq 2 ]
	grep -q '<title>ratio 173.1</title>' d.svg
	grep -q '>MPI_Barrier (only b)</text>' d.svg
	grep -q '>time (s)</text>' d.svg
	tr plot -c 1 d > e.svg
	[ "$(grep -c '<circle class="s2"' e.svg)" -eq 1 ]
}

@test "tr-plot: jobs that overlap on a host get their own worker lane, coloured by command" {
	{ printf '#tr 1\n'
	printf '#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd\n'
	printf 'job\tn1\t1\ta\t0\t2000000000\t0\t0\t0\t0\t0\t0\tcc -c a.c\n'
	printf 'job\tn1\t2\tb\t500000000\t1000000000\t0\t0\t0\t0\t0\t0\t/usr/bin/cc -c b.c\n'
	printf 'job\tn1\t3\tc\t2000000000\t1000000000\t0\t0\t0\t0\t0\t0\tld -o c a.o b.o\n'
	} > j
	tr plot j > j.svg
	valid j.svg
	grep -q '>n1/0</text>' j.svg
	grep -q '>n1/1</text>' j.svg
	! grep -q '>n1/2</text>' j.svg || false
	[ "$(grep -c '<rect class="s0"' j.svg)" -eq 2 ]
	[ "$(grep -c '<rect class="s1"' j.svg)" -eq 1 ]
	grep -q 'data-series="s0"><rect.*>cc</text>' j.svg
	grep -q '>ld</text>' j.svg
}

@test "tr-plot: a job that ran a sub-make's jobs is drawn light in a lane of its own, not a worker's" {
	{ printf '#tr 1\n'
	printf '#fields\tjob\thost\tpid\ttarget\tstart\telapsed\tuser\tsys\tmaxrss\tminflt\tmajflt\tstatus\tcmd\tparent\n'
	printf 'job\tn1\t10\ta\t0\t3000000000\t0\t0\t0\t0\t0\t0\tmake -C a\t-1\n'
	printf 'job\tn1\t11\tx\t100000000\t1000000000\t0\t0\t0\t0\t0\t0\tcc -c x.c\t10\n'
	printf 'job\tn1\t12\ty\t1200000000\t1000000000\t0\t0\t0\t0\t0\t0\tcc -c y.c\t10\n'
	printf 'job\tn1\t13\tz\t0\t1000000000\t0\t0\t0\t0\t0\t0\tcc -c z.c\t-1\n'
	} > j
	tr plot j > j.svg
	valid j.svg
	# x and z overlap: two workers; the make runs beside them.
	grep -q '>n1/0</text>' j.svg
	grep -q '>n1/1</text>' j.svg
	[ "$(grep -c '>n1/2</text>' j.svg)" -eq 0 ]
	grep -q '>n1/make0</text>' j.svg
	[ "$(grep -c 'fill-opacity' j.svg)" -eq 1 ]
	grep -q 'fill-opacity.*<title>a: make -C a (3.000 s, 2 jobs in it)</title>' j.svg
	[ "$(grep -c '<rect class="s1"' j.svg)" -eq 3 ]
}

@test "tr-plot: stacked bars of simulated compute, comm and wait per rank" {
	{ printf '#tr 1\n'
	printf '#fields\tsimrank\trank\tfinish\tcompute\tcomm\twait\tevents\n'
	printf 'simrank\t0\t1000\t600\t300\t100\t10\n'
	printf 'simrank\t1\t1000\t500\t300\t200\t10\n'
	} > s
	tr plot s > s.svg
	valid s.svg
	[ "$(grep -c '<rect class="s[012]"' s.svg)" -eq 6 ]
	grep -q '<title>wait: 200</title>' s.svg
	tr plot -g bar -y compute s > c.svg
	[ "$(grep -c '<rect class="s[012]"' c.svg)" -eq 2 ]
}

@test "tr-plot: names are XML-escaped, unknown record types ignored, gzip read" {
	{ hdr 2
	printf '#fields\tnote\ttext\n'
	printf 'note\thello\n'
	ev 0 0 'MPI_<&>"x' 100 200
	ev 1 0 MPI_Barrier 100 200
	} > t
	gzip -c t > t.gz
	tr plot t.gz > t.svg
	valid t.svg
	grep -q 'MPI_&lt;&amp;&gt;&quot;x' t.svg
	# a byte that is not UTF-8 (Latin-1) made the SVG unreadable; it
	# becomes U+FFFD, and UTF-8 stays as it is
	{ hdr 1; ev 0 0 $'MPI_caf\xe9' 100 200; ev 0 1 $'MPI_\xc3\xa9t\xc3\xa9' 300 400; } > l1
	tr plot l1 > l1.svg
	valid l1.svg
	grep -q $'MPI_caf\xef\xbf\xbd<' l1.svg
	grep -q $'MPI_\xc3\xa9t\xc3\xa9<' l1.svg
	# U+FFFE and U+FFFF are UTF-8 but no XML character: the SVG did not
	# open (xmllint: Char 0xFFFF out of allowed range), status 0
	{ hdr 1; ev 0 0 $'MPI_\xef\xbf\xbfa' 100 200; ev 0 1 $'MPI_\xef\xbf\xbeb' 300 400; } > l2
	tr plot l2 > l2.svg
	valid l2.svg
	grep -q $'MPI_\xef\xbf\xbda<' l2.svg
	grep -q $'MPI_\xef\xbf\xbdb<' l2.svg
}

@test "tr-plot: errors: usage, nothing to plot, bad data, missing file" {
	run tr plot -g pie
	fails_with 2 "tr-plot: -g: 'pie': not one of auto, timeline, hist, scaling, diff, jobs, bar, matrix"
	run tr plot -w 10
	fails_with 2 "tr-plot: -w: '10': not an integer from 300 to 20000"
	printf '#tr 1\n#fields\tnote\ttext\nnote\thi\n' > n
	run stderr_of tr plot n
	[ "$status" -eq 3 ]
	[ "$output" = "tr-plot: n: nothing to plot: no ev, model, bin, diff, job, simrank or opstat records" ]
	run stderr_of tr plot < n
	fails_with 3 "tr-plot: stdin: nothing to plot"
	run stderr_of tr plot -g diff n n
	[ "$status" -eq 3 ]
	[ "$output" = "tr-plot: n, n: no records for a diff chart" ]
	{ hdr 1; printf 'ev\t0\t0\tMPI_Send\t5\n'; } > bad
	run tr plot bad
	fails_with 3 "bad:4:"
	run tr plot nosuch
	fails_with 4 "tr-plot: nosuch:"
	# with a kind asked for: the missing file alone, not "no records"
	run stderr_of tr plot -g hist nosuch
	[ "$status" -eq 4 ]
	[ "$output" = "tr-plot: nosuch: No such file or directory" ]
	run tr plot -t dsum -y nosuch -g hist n
	[ "$status" -ne 0 ]
}

@test "tr-plot: no file and a terminal for stdin is a usage error, not a wait for input" {
	on_tty plot
	[ "$status" -eq 2 ]
	[[ "$output" == *"tr-plot: no file given, and stdin is a terminal"* ]]
}

@test "tr-plot: a timeline opens on the span from the last MPI_Init's end to the first MPI_Finalize's start" {
	solve_trace > t
	tr plot t > t.svg
	valid t.svg
	grep -q '>MPI_Init to MPI_Finalize: 2 us from t=3 us of a 7 us run;' t.svg
	grep -q '<g class="xaxis" data-t0="3000" data-t1="5000"' t.svg
	# the whole run lies outside the clip, for the report to show
	grep -q 'data-r0="70.0" data-r1="980.0" data-a0="-1295.00" data-a1="1890.00">' t.svg
	# without MPI_Init and MPI_Finalize, the whole run
	grep -v 'MPI_Init\|MPI_Finalize' t | tr plot > w.svg
	grep -q '<g class="xaxis" data-t0="0" data-t1="500"' w.svg
	! grep -q 'data-a0=' w.svg || false
}

@test "tr-plot: bins of unequal width are drawn as densities, equal ones as counts" {
	{ printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\tk\t10\t100\t90\t50\t4500\n'
	printf 'bin\twall\tk\t100\t1000\t900\t500\t450000\n'
	printf 'bin\twall\tk\t1000\t10000\t90\t5000\t450000\n'
	} > h
	tr plot -g hist h > h.svg
	valid h.svg
	grep -q '>density (count per ns)</text>' h.svg
	grep -q '<title>\[100, 1000): 900, density 1</title>' h.svg
	# densities 1, 1 and 0.01: the first two bins are as tall
	hs=$(grep -o 'height="[0-9.]*"><title>\[' h.svg | cut -d'"' -f2 | tr '\n' ' ')
	set -- $hs
	[ "$1" = "$2" ] && [ "$(echo "$3 < $1 / 50" | bc)" -eq 1 ]
	{ printf '#tr 1\n#fields\tbin\tfield\tkey\tlo\thi\tcount\tmean\tsum\n'
	printf 'bin\twall\tk\t0\t10\t3\t5\t15\n'
	printf 'bin\twall\tk\t10\t20\t1\t15\t15\n'
	} | tr plot -g hist > e.svg
	grep -q '>count</text>' e.svg
	! grep -q 'density' e.svg || false
}

@test "tr-plot: the communication matrix of cmat records, or of a trace's messages" {
	{ printf '#tr 1\n#fields\tcmat\tsrc\tdst\tmsgs\tbytes\n'
	printf 'cmat\t0\t1\t3\t300\ncmat\t1\t0\t1\t100\ncmat\t2\t3\t2\t0\n'
	} > c
	tr plot c > c.svg
	valid c.svg
	grep -q 'class="trplot" id="mat0"' c.svg
	[ "$(grep -o '<title>[^<]*' c.svg | tr '\n' '|')" = '<title>0 to 1: 3 messages, 300 B|<title>1 to 0: 1 messages, 100 B|<title>2 to 3: 2 messages, 0 B|' ]
	# 180-pixel cells of 4 ranks; the most bytes darkest, the least
	# lightest, no bytes grey
	grep -q 'x="270.00" y="60.00" width="180.00" height="180.00" fill="#440154"><title>0 to 1' c.svg
	grep -q 'fill="#fde725"><title>1 to 0' c.svg
	grep -q 'fill="#cccccc"><title>2 to 3' c.svg
	grep -q '>bytes sent, sender by row, receiver by column; 4 ranks</text>' c.svg
	# a trace's matrix is tr-stat's
	tr gen -P ring -n 4 -i 2 -R 1 > t
	tr plot -g matrix t | grep -o '<title>[^<]*' > a
	tr stat t | tr plot -g matrix | grep -o '<title>[^<]*' > b
	[ "$(wc -l < a)" -eq 4 ]
	cmp a b
}

@test "tr-plot: a matrix of 1,024 ranks is binned into 128 rows and columns" {
	tr gen -P stencil2d -n 1024 -i 1 | tr stat > s
	tr plot s > m.svg
	valid m.svg
	grep -q '>bytes sent, sender by row, receiver by column; 1024 ranks in 8-rank bins</text>' m.svg
	grep -q '<title>0-7 to 0-7: ' m.svg
	grep -q '<title>1016-1023 to 1016-1023: ' m.svg
	n=$(grep -c '<title>' m.svg)
	[ "$n" -gt 128 ] && [ "$n" -le 16384 ]
	grep -q 'width="5.62" height="5.62"' m.svg
}
