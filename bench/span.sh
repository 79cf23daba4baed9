# Sourced by bench scripts.
# span FILE FIRST: the span of a run in FILE, from the end of the latest
# call matching FIRST to the first start of MPI_Finalize, in ns
span() {
	awk -F'\t' -v f="$2" '$1 == "ev" && $4 ~ f && $6 > a { a = $6 }
	    $1 == "ev" && $4 == "MPI_Finalize" && (b == "" || $5 < b) { b = $5 }
	    END { printf "%.0f", b - a }' "$1"
}
