load helper

# Sites recorded by tr-record in the project's stencil, resolved with the
# real addr2line against the real binary.

setup() {
	D=$BATS_TEST_TMPDIR
}

@test "call sites of a recorded run become function@file:line" {
	mpirun --oversubscribe --allow-run-as-root -np 2 "$TR_BIN/tr-record" \
		-o "$D/s" "$TR_MPIBIN/stencil" 16 2 >/dev/null
	run tr symbolize "$D/s/rank.0.tr.gz"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$D/out.tr"
	tr cat "$D/out.tr" >/dev/null
	src=$TOP/examples/stencil.c
	l=$(grep -n 'MPI_Irecv(&U(0, 1)' "$src" | cut -d: -f1)
	[ "$(awk -F '\t' '$4=="MPI_Irecv" {print $8}' "$D/out.tr" | sort | uniq -c | head -1 | awk '{print $1, $2}')" = "2 main@stencil.c:$l" ]
	l=$(grep -n 'MPI_Allreduce(' "$src" | cut -d: -f1)
	[ "$(awk -F '\t' '$4=="MPI_Allreduce" {print $8}' "$D/out.tr" | sort -u)" = "main@stencil.c:$l" ]
	# everything else is unchanged: same lines but the site column
	[ "$(tr cat "$D/s/rank.0.tr.gz" | cut -f1-7,9-)" = "$(cut -f1-7,9- "$D/out.tr")" ]
	# -f keeps the full path
	tr symbolize -f "$D/s/rank.0.tr.gz" | grep -q "main@/.*/examples/stencil.c:$l"
}

@test "unresolvable sites keep their address" {
	{
		printf '#tr 1\n#meta module.gone=%s/nope\n#meta module.stencil=%s\n' \
			"$D" "$(realpath "$TR_MPIBIN/stencil")"
		printf '%s\n' "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 gone+0x1234
		ev 0 1 MPI_Send 3 4 0 stencil+0xfffffff
		ev 0 2 MPI_Send 5 6 0 other+0x10
		ev 0 3 MPI_Send 7 8 0 junk
	} >"$D/in.tr"
	run tr symbolize "$D/in.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -v '^#' | grep -v '^tr-symbolize' | cut -f8 | tr '\n' ' ')" = "gone+0x1234 stencil+0xfffffff other+0x10 junk " ]
	[[ "$output" == *"tr-symbolize: $D/nope: No such file"* ]]
}

@test "a module whose name has a '+' in it" {
	cp "$TR_MPIBIN/stencil" "$D/st+x"
	off=$(nm "$D/st+x" | awk '$3 == "main" { print $1 }')
	{
		printf '#tr 1\n#meta module.st+x=%s\n%s\n' "$D/st+x" "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 "st+x+0x$(printf %x $((0x$off + 2)))"
	} >"$D/in.tr"
	run tr symbolize "$D/in.tr"
	[ "$status" -eq 0 ]
	[[ "$(printf '%s\n' "$output" | grep '^ev' | cut -f8)" == main@stencil.c:* ]]
}

# Two modules, two addr2line processes: the second must not hold the
# first one's input open, or waiting for the first at the end hangs.
@test "sites in two modules; a module without line information" {
	a=$(realpath "$TR_MPIBIN/stencil")
	b=$(realpath "$TR_BIN/tr-cat")
	objcopy --strip-debug "$b" "$D/nodebug"
	offa=$(nm "$a" | awk '$3 == "main" { print $1 }')
	offb=$(nm "$b" | awk '$3 == "main" { print $1 }')
	{
		printf '#tr 1\n#meta module.stencil=%s\n#meta module.trcat=%s\n' "$a" "$b"
		printf '#meta module.nodebug=%s\n' "$D/nodebug"
		printf '%s\n' "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 "stencil+0x$(printf %x $((0x$offa + 2)))"
		ev 0 1 MPI_Send 3 4 0 "trcat+0x$(printf %x $((0x$offb + 2)))"
		ev 0 2 MPI_Send 5 6 0 "nodebug+0x$(printf %x $((0x$offb + 2)))"
		ev 0 3 MPI_Send 7 8 0 "nodebug+0x$(printf %x $((0x$offb + 3)))"
	} >"$D/in.tr"
	run timeout 60 "$TR_BIN/tr-symbolize" "$D/in.tr"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -v '^#' | cut -f8 >"$D/sites"
	[[ "$(sed -n 1p "$D/sites")" == main@stencil.c:* ]]
	[[ "$(sed -n 2p "$D/sites")" == main@tr-cat.c:* ]]
	# no lines: the function, and the site to keep call sites apart
	[ "$(sed -n 3p "$D/sites")" = "main@nodebug+0x$(printf %x $((0x$offb + 2)))" ]
	[ "$(sed -n 4p "$D/sites")" = "main@nodebug+0x$(printf %x $((0x$offb + 3)))" ]
}

# Debian ships its programs stripped (mpb-mpi): addr2line knows no
# function at all, and the sites were kept as offsets without a word,
# where a stripped library's were counted on stderr.
@test "a stripped program: its sites keep their offsets, and that is said" {
	printf 'int f(int x) { return x + 1; }\nint main(void) { return f(2); }\n' > "$D/p.c"
	gcc -O0 -o "$D/prog" "$D/p.c"
	strip --strip-all "$D/prog"
	{
		printf '#tr 1\n#meta module.prog=%s\n%s\n' "$D/prog" "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 prog+0x1130
		ev 0 1 MPI_Send 3 4 0 prog+0x1140
	} >"$D/in.tr"
	run tr symbolize "$D/in.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^ev' | cut -f8 | tr '\n' ' ')" = "prog+0x1130 prog+0x1140 " ]
	[[ "$output" == *"tr-symbolize: $D/prog: 2 call sites in no function that addr2line knows (no symbols: stripped?): kept as offsets"* ]]
}

# A stripped library has only its exported functions: addr2line names
# the nearest one before an address, even when the address is in a
# static function after it. Such sites keep their offsets, and are
# counted on stderr.
@test "a stripped library: sites in no exported function keep their offsets" {
	cat > "$D/lib.c" <<-'E'
	static int hidden(int x);
	int exported(int x) { return hidden(x) + 2; }
	__attribute__((noinline)) static int hidden(int x) { return x * 3 + 1; }
	E
	gcc -O1 -fno-toplevel-reorder -shared -fPIC -o "$D/libx.so" "$D/lib.c"
	strip --strip-all "$D/libx.so"
	# the call in exported: its return address, and its target, hidden
	hid=$(objdump -d "$D/libx.so" | awk '/<exported>:/ { f = 1; next }
	    f && /call/ { for (i = 1; i <= NF; i++) if ($i == "call") print $(i + 1); exit }')
	ret=$(objdump -d "$D/libx.so" | awk '/<exported>:/ { f = 1; next }
	    f && /call/ { c = 1; next } c { sub(/:.*/, ""); gsub(/ /, ""); print; exit }')
	[ -n "$hid" ]
	[ -n "$ret" ]
	# addr2line names the nearest exported function before each
	[ "$(printf '0x%x\n' $((0x$hid + 2)) | addr2line -f -e "$D/libx.so" | head -1)" = exported ]
	{
		printf '#tr 1\n#meta module.libx=%s\n%s\n' "$D/libx.so" "$EVFIELDS"
		ev 0 0 MPI_Send 1 2 0 "libx+0x$ret"
		ev 0 1 MPI_Send 3 4 0 "libx+0x$(printf %x $((0x$hid + 3)))"
	} >"$D/in.tr"
	run tr symbolize "$D/in.tr"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^ev' | cut -f8 | tr '\n' ' ')" = \
	    "exported@libx+0x$ret libx+0x$(printf %x $((0x$hid + 3))) " ]
	[[ "$output" == *"tr-symbolize: $D/libx.so has no line information, and 1 call sites in no function of its symbol table: kept as offsets"* ]]
}

# A real C++ application: the program and its library are two modules,
# the library has symbols but no line information.
@test "a recorded LAMMPS run: demangled functions of liblammps" {
	command -v lmp > /dev/null || skip "lammps not installed"
	d=/usr/share/lammps/examples/melt
	[ -f $d/in.melt ] || skip "no LAMMPS melt example"
	sed 's/^run.*/run 20/' $d/in.melt > "$D/in.melt"
	(cd "$D" && OMP_NUM_THREADS=1 mpirun --oversubscribe --allow-run-as-root \
		-np 2 "$TR_BIN/tr-record" -o l lmp -in in.melt -log none \
		-screen none > /dev/null 2>&1)
	run timeout 120 "$TR_BIN/tr-symbolize" "$D/l/rank.0.tr.gz"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | awk -F'\t' '$4 == "MPI_Send" { print $8 }' |
		sort -u > "$D/sites"
	[ -s "$D/sites" ]
	grep -q '^LAMMPS_NS::Comm[A-Za-z]*::[a-z_]*(.*)@' "$D/sites"
	# no line information: each call site keeps its address
	! grep -qv '@liblammps\.so[.0-9]*+0x[0-9a-f]*$' "$D/sites" || false
}

@test "bad usage and bad input" {
	run tr symbolize -x
	fails_with 2 "usage: tr-symbolize"
	printf '#tr 1\nbogus\n' >"$D/bad.tr"
	run tr symbolize "$D/bad.tr"
	[ "$status" -eq 3 ]
	[[ "$output" == *"bad.tr:2"* ]]
}
