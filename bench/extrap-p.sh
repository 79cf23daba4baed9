#!/bin/sh
# tr-fit against the models Extra-P's own tests state for its example
# inputs: each input through tr-from-extrap and tr-fit -r mean (Extra-P
# takes the mean of the repetitions by default), the model selected,
# and both models' predictions at two and four times the largest
# process count measured. The last line says how many of all its text
# inputs convert, and come back unchanged from tr-to-extrap.
#
#   sh bench/extrap-p.sh EXTRAP [TR_BIN]
# EXTRAP is a clone of Extra-P's repository, or its git directory.
set -eu
X=${1:?usage: sh bench/extrap-p.sh EXTRAP [TR_BIN]}
B=${2:-bin}
TOP=$(cd "$(dirname "$0")/.." && pwd)
case $B in /*) ;; *) B=$TOP/$B ;; esac
W=${TMPDIR:-/tmp}/tr-bench-extrap-p.$$
trap 'rm -rf "$W"' EXIT
mkdir -p "$W"

get() {	# get PATH: the file of Extra-P's tree
	if [ -f "$X/$1" ]; then cat "$X/$1"; else git -C "$X" show "HEAD:$1"; fi
}

# row FILE REGION OPTS EXTRAP-MODEL AWK-OF-IT NP1 NP2 [N]
# AWK-OF-IT evaluates Extra-P's model at x (the process count) and y.
row() {
	f=$1 reg=$2 opts=$3 xm=$4 xf=$5 n1=$6 n2=$7 N=${8:-}
	get "$f" > "$W/in.txt"
	"$B/tr-from-extrap" $opts "$W/in.txt" | "$B/tr-fit" -r mean > "$W/m.tr"
	tm=$(awk -F'\t' -v k="region=$reg;" '$1 == "model" && index($3, k) == 1 { print $6 }' "$W/m.tr" |
	    sed 's/\([0-9]\.[0-9]\{4\}\)[0-9]*/\1/g')
	p1=$("$B/tr-extrap" -n "$n1" ${N:+-N "$N"} "$W/m.tr" |
	    awk -F'\t' -v r="$reg" '$1 == "metric" && $2 == r { print $4 }')
	p2=$("$B/tr-extrap" -n "$n2" ${N:+-N "$N"} "$W/m.tr" |
	    awk -F'\t' -v r="$reg" '$1 == "metric" && $2 == r { print $4 }')
	awk -v f="$(basename "$f")" -v reg="$reg" -v xm="$xm" -v tm="$tm" \
	    -v n1="$n1" -v n2="$n2" -v N="${N:-0}" -v p1="$p1" -v p2="$p2" \
	    'function l2(v) { return log(v) / log(2) }
	    function xp(x, y) { return '"$xf"' }
	    function cell(n, p) {
		if (xm ~ /^c/) return sprintf("%.4g | -", p)
		e = xp(n, N)
		return sprintf("%.4g | %.4g (%+.1f %%)", p, e, 100 * (p - e) / e)
	    }
	    BEGIN { printf "| %s %s | %s | %s | %s | %s |\n", f, reg, xm, tm,
		cell(n1, p1), cell(n2, p2) }'
}

echo "| input, region | Extra-P's model (its tests) | tr-fit's model | tr-fit at 2x p | Extra-P at 2x p | tr-fit at 4x p | Extra-P at 4x p |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
T=tests/data/text
row $T/one_parameter_1.txt compute "-n x" \
    "-0.8898 + 0.20168*x^2" "-0.88979340 + 0.20168243 * x^2" 120 240
row $T/two_parameter_1.txt reg "-n x" \
    "1.3742 + 6.6981*log2(y) + 0.043842*x^(3/2)*log2(x)^2*log2(y) (y=5)" \
    "1.37420831 + 6.69808039 * l2(y) + 0.04384165 * x^1.5 * l2(x)^2 * l2(y)" \
    120 240 5
row $T/one_parameter_6.txt met1 "" "4.068" "4.068" 32000 64000
for r in met2 met3 met4; do
	row $T/one_parameter_6.txt $r "" "c0 + c1*p^2 (c0, c1 not stated)" "0" 32000 64000
done

# Every text input of Extra-P's tree: converted, or refused at a line;
# the converted ones through tr-to-extrap and back.
n=0 ok=0 same=0
if [ -d "$X/tests" ]; then
	files=$(cd "$X" && find tests docs -name '*.txt' | sort)
else
	files=$(git -C "$X" ls-tree -r --name-only HEAD)
fi
for f in $files; do
	case $f in tests/data/text/*.txt|tests/data/input/*.txt|docs/examples/*.txt) ;; *) continue ;; esac
	get "$f" > "$W/in.txt"
	n=$((n + 1))
	opt=
	grep -q '^PARAMETER x' "$W/in.txt" && opt="-n x"
	"$B/tr-from-extrap" $opt "$W/in.txt" > "$W/a.tr" 2>/dev/null || continue
	ok=$((ok + 1))
	"$B/tr-to-extrap" "$W/a.tr" | "$B/tr-from-extrap" | cmp -s - "$W/a.tr" &&
	    same=$((same + 1))
done
echo
echo "$n text inputs: $ok converted, $same of them unchanged by tr-to-extrap | tr-from-extrap, $((n - ok)) refused"
