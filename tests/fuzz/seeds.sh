#!/bin/sh
# seeds.sh DIR BIN - seed corpora for the harnesses of tests/fuzz/, in
# DIR/NAME/seeds: tr-gen traces and the samples, the networks and
# models of the tests' here-docs and the man pages, strace logs and run
# indexes of the tests' fixtures, OTF2 archives that tr-to-otf2 wrote
# of tr-gen traces and the samples and the tests' Score-P-like ones
# (otf2gen.py), each as one input (fuzz-otf2.c). Made again each time,
# never committed.
set -e
dir=$1
bin=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
for t in in expr net model runs strace otf2; do
	rm -rf "$dir/$t/seeds"
	mkdir -p "$dir/$t/seeds"
done
# the files of archive DIR but its anchor, each after "@otf2:NAME"
pack() {
	printf '@otf2:defs\n'
	cat "$1/traces.def"
	for f in "$1"/traces/*; do
		printf '@otf2:%s\n' "${f##*/}"
		cat "$f"
	done
}
i=0
for p in stencil2d stencil3d ring alltoall master; do
	for s in 1 2; do
		i=$((i + 1))
		"$bin/tr-gen" -P $p -n 4 -i 2 -R $s > "$dir/tmp.tr" 2>/dev/null || continue
		{ printf '\000'; cat "$dir/tmp.tr"; } > "$dir/in/seeds/gen$i"
		{ printf '\001'; cat "$dir/tmp.tr"; } > "$dir/in/seeds/gz$i"
		{ printf '\003'; cat "$dir/tmp.tr"; } > "$dir/in/seeds/big$i"
		# fields read as the tools read them, of a type of its own too
		{ printf '\004'; cat "$dir/tmp.tr"
		  printf '#fields\tmine\tx\tn\nmine\t1.5e3\t-7\nmine\t0x1p4\t42\n'
		} > "$dir/in/seeds/kinds$i"
		# types the reader knows but parses as fields: fail (as ev),
		# comm, simrun, param
		{ printf '\004'; cat "$dir/tmp.tr"
		  printf '#fields\tfail\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes\ttag\tcomm\treq\troot\terr\n'
		  printf 'fail\t0\t999\tMPI_Send\t99999990\t99999999\t-1\tx\t1\t8\t0\t0\t-1\t-1\tMPI_ERR_RANK\n'
		  printf '#fields\tsimrun\tnp\truntime\tevents\tcompute\tcomm\twait\n'
		  printf 'simrun\t4\t1000\t20\t500\t300\t200\n'
		  printf '#fields\tparam\top\tcomm\tsize\talpha\tbeta\tlo\thi\tpoints\terr\n'
		  printf 'param\tMPI_Send\tworld\t2\t1000\t0.5\t8\t65536\t5\t0.1\n'
		} > "$dir/in/seeds/types$i"
		{ printf '\002'; head -c 2000 "$dir/tmp.tr"; printf '\f'
		  cat "$dir/tmp.tr"; } > "$dir/in/seeds/merge$i"
		# rank 0's file and the others', as tr-cat -m merges them,
		# the second whole or cut (\022)
		for m in 002 022; do
			{ printf "\\$m"; awk -F'\t' '/^#/ || $2 == 0' "$dir/tmp.tr"
			  printf '\f'; awk -F'\t' '/^#/ || $2 != 0' "$dir/tmp.tr"
			} > "$dir/in/seeds/ranks$m.$i"
		done
		# a subset of the ev columns and the checks (\030), a cut gzip
		# file (\021), the header's numbers and sums (\040), lines
		# as text (\100, \102: two files), as a file of a tool's
		# (\140), a last line without its LF (\300)
		for m in 030 021 040 100 102 140 300; do
			{ printf "\\$m"; cat "$dir/tmp.tr"; } > "$dir/in/seeds/f$m.$i"
		done
		for e in 'op ~ "^MPI_(I?send|Recv)$"' 'bytes >= 1KiB && rank != 0' \
		    'end - start > 2us || op in {MPI_Wait, MPI_Barrier}' \
		    'site ~ "\\+0x[0-9a-f]+$" && !(peer == -1)'; do
			i=$((i + 1))
			{ printf '%s\n' "$e"; grep '^ev' "$dir/tmp.tr" | head -40; } \
				> "$dir/expr/seeds/e$i"
		done
		rm -rf "$dir/tmp.otf2"
		"$bin/tr-to-otf2" -Q -o "$dir/tmp.otf2" "$dir/tmp.tr" 2>/dev/null &&
			pack "$dir/tmp.otf2" > "$dir/otf2/seeds/a$i"
	done
done
# the expressions of the tests and the man pages, and each function,
# a pattern from a field, sets of fields, over the last trace
{ grep -ho "tr[- ]filter \(-[a-zA-Z] \)*'[^']*'" "$top"/tests/*.bats \
	"$top"/man/*.[1-7] | sed "s/^tr[- ]filter \(-[a-zA-Z] \)*'//; s/'\$//"
  cat <<'EXPR'
abs(peer) + min(bytes, tag, 3) + max(comm, req) > log2(bytes + 1) * log(2)
log10(bytes + 1) + exp(-1) + sqrt(end - start) + pow(2, rank) >= floor(1.5) + ceil(0.5)
op ~ site || site !~ op
bytes ^ 2 ^ 0.5 > -bytes && !(tag in {1, 2, 3}) && rank in {0, peer, root}
op in {MPI_Send, MPI_Recv, "MPI_Isend"} && site !~ "^main\+0x[0-9a-f]{1,4}$"
(end - start) / (bytes + 1) > 2us / 1KiB && bytes % 7 != 0
op ~ "^MPI_(A(ll)?(reduce|gather|toall)v?|Bcast){1,2}$" || op ~ "[^a-z]+" || op ~ "x?y*z+"
EXPR
} | sort -u | while IFS= read -r e; do
	i=$((i + 1))
	{ printf '%s\n' "$e"; grep '^ev' "$dir/tmp.tr" | head -40; } \
		> "$dir/expr/seeds/t$(printf '%s' "$e" | cksum | cut -d' ' -f1)"
done
for f in "$top"/samples/*/*/*.tr*; do
	[ -f "$f" ] || continue
	i=$((i + 1))
	{ printf '\000'; zcat -f "$f" | head -c 60000; } > "$dir/in/seeds/s$i"
done
# the network files the tests write with printf, and the page's keywords
grep -ho "printf '[^']*' > [a-z0-9]*\.net" "$top/tests/tr-nsim.bats" |
	sed "s/^printf '//; s/' > .*//" | sort -u | while read -r l; do
	i=$((i + 1))
	printf "$l" > "$dir/net/seeds/t$(printf '%s' "$l" | cksum | cut -d' ' -f1)"
done
sed -n 's/^\.It Ic //p' "$top/man/tr-net.5" | sed 's/ *Op//; s/ Ar / 4 /g; s/ Ar$//' \
	> "$dir/net/seeds/keywords"
cp "$top"/tests/fuzz/regress/net/* "$dir/net/seeds/"
# each keyword's values on a network that builds, one file each: an
# error ends a file at its line
k=0
while read -r l; do
	k=$((k + 1))
	printf 'topology fattree 4 2\nranks-per-node 2\n%s\n' "$l" | sed 's/;/\n/g' \
		> "$dir/net/seeds/k$k"
done <<'NET'
nodes 8
nodes auto
topology torus 2 2 2;nodes auto
topology dragonfly 2 2 2 1;nodes auto
topology crossbar 4;nodes 4
mapping block
mapping round-robin
mapping file nowhere.map
sharing latency
sharing fair
progress calls
progress background
model flow
model loggp;loggp 1us 2us 1ns 3us
intra-time 1KiB 1us;intra-time 64KiB 10us;intra-time 1MiB 90us
intra-bandwidth 10GB/s, intra-latency 1us
eager-threshold 64KiB
eager-threshold trace
eager-threshold trace 16KiB;intra-eager-threshold trace 4KiB
intra-rma-bandwidth 20GB/s;rma-overhead 1us;reduce-bandwidth 1GB/s
node-bandwidth 10Gbps;link-latency 1.5us;switch-latency 2h
coll bcast binomial;coll allreduce ring;coll alltoall linear
coll reduce rdb;coll barrier nope
link-bandwidth 100Gbps;link-latency 300ns;switch-latency 100ns
NET
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE/p' "$top/man/tr-model.5" |
	sed -n '/^\.Bd/,/^\.Ed/p' | grep -v '^\.' | sed 's/\\-/-/g; s/\\e/\\/g' \
	> "$dir/model/seeds/man"
cp "$top"/tests/fuzz/regress/model/* "$dir/model/seeds/"
# a model for each of the loader's rules and the units, one file each
# (';' a new line); "#-D" lines as tr-model's -D options (fuzz-model.c)
k=0
while read -r l; do
	k=$((k + 1))
	printf '%s\n' "$l" | sed 's/;/\n/g' > "$dir/model/seeds/k$k"
done <<'MODEL'
set a = 1;set a = 2
set N = 3
set = 4
phase x y
phase p;compute = 1;phase p;compute = 1
compute = 1
phase p;compute = 1;compute = 2
phase p;compute measured;op MPI_Bcast;calls = 2;bytes = 8
phase p;compute 5
op MPI_Send
phase p;compute = 1;op
phase p;compute = 1;op MPI_Send diag
phase p;compute = 1;calls = 1
phase p;compute = 1;op MPI_Send;calls
phase p;compute = 1;op MPI_Send;calls = 1;calls = 2
phase p;compute = 1;op MPI_Send;calls = 1;bytes = 1;volume = 2
phase p;compute = 1;op MPI_Send;calls = 1
phase p;compute = 1;op MPI_Send;bytes = 1
phase p
phase p;compute = 1;frobnicate = 2
phase p;compute = 1 KiB
phase p;compute = 1;op MPI_Bcast row;calls = 2s;bytes = 8
phase p;compute = 1;op MPI_Bcast col;calls = 2;bytes = 8ns
phase p;compute = "x # y"
phase p;compute = (1 +
phase p;compute = 1;op MPI_Sendrecv world;calls = 1;bytes = 8
phase p;compute = 1;op MPI_Isend;calls = 1;bytes = 8;op MPI_Alltoallv;calls = 1;volume = 8 * P
phase p;compute = 1;op MPI_Frob;calls = 1;bytes = 8
#-D iters=5 c=1ns;set iters = 2;phase p;compute = c * iters;op MPI_Allreduce;calls = iters;bytes = 8
#-D N=3;phase p;compute = 1
#-D x;phase p;compute = 1
#-D x=y;phase p;compute = 1
#-D x=(1;phase p;compute = 1
#-D x=2 x=3;phase p;compute = x
MODEL
grep -h '^[0-9][0-9]* [0-9:.]* ' "$top/tests/tr-from-strace.bats" \
	> "$dir/strace/seeds/tests" || true
printf '#tr-runs 1\n' > "$dir/runs/seeds/empty"
if "$bin/tr-runs" -d "$dir/store" add -l a=1 "$dir/tmp.tr" >/dev/null 2>&1; then
	cp "$dir/store/index" "$dir/runs/seeds/one"
	cp "$dir/store/runs/000001/meta" "$dir/runs/seeds/meta"
fi
# real calls and sites, the first records of 4 and 16 ranks
for n in 4 16; do
	rm -rf "$dir/tmp.otf2"
	"$bin/tr-cat" -m "$top"/samples/stencil/np$n/*.tr* 2>/dev/null |
		head -n 300 > "$dir/tmp.tr" || continue
	"$bin/tr-to-otf2" -Q -o "$dir/tmp.otf2" "$dir/tmp.tr" 2>/dev/null &&
		pack "$dir/tmp.otf2" > "$dir/otf2/seeds/stencil$n"
done
# communicators, windows and one-sided calls, OpenMP threads
if /usr/bin/python3 -c 'import otf2' 2>/dev/null; then
	for c in halo rma omp; do
		rm -rf "$dir/tmp.otf2"
		/usr/bin/python3 "$top/tests/otf2gen.py" "$dir/tmp.otf2" $c \
			>/dev/null 2>&1 && pack "$dir/tmp.otf2" > "$dir/otf2/seeds/$c"
	done
fi
rm -rf "$dir/store" "$dir/tmp.tr" "$dir/tmp.otf2"
