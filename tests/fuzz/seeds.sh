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
		{ printf '\002'; head -c 2000 "$dir/tmp.tr"; printf '\f'
		  cat "$dir/tmp.tr"; } > "$dir/in/seeds/merge$i"
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
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE/p' "$top/man/tr-model.5" |
	sed -n '/^\.Bd/,/^\.Ed/p' | grep -v '^\.' | sed 's/\\-/-/g; s/\\e/\\/g' \
	> "$dir/model/seeds/man"
cp "$top"/tests/fuzz/regress/model/* "$dir/model/seeds/"
grep -h '^[0-9][0-9]* [0-9:.]* ' "$top/tests/tr-from-strace.bats" \
	> "$dir/strace/seeds/tests" || true
printf '#tr-runs 1\n' > "$dir/runs/seeds/empty"
if "$bin/tr-runs" -d "$dir/store" add -l a=1 "$dir/tmp.tr" >/dev/null 2>&1; then
	cp "$dir/store/index" "$dir/runs/seeds/one"
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
