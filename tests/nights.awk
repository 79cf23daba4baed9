# nights.awk -v seed=S -v slow=X -v out=P: five runs P.1 ... P.5, as
# tr-profile writes them, of 40 unchanged keys k01 ... k40 of 1000 ns with
# 15 % normal noise, and a key "slow" of 2000 * X ns with 2 % noise.
# Park-Miller's generator is exact in doubles, so every awk draws the
# same numbers. Used by tests/tr-diff.bats and bench/alarms.sh.
function u() { st = (st * 16807) % 2147483647; return st / 2147483647 }
function z(   i, s) { s = 0; for (i = 0; i < 12; i++) s += u(); return s - 6 }
BEGIN {
	st = seed
	for (r = 1; r <= 5; r++) {
		f = out "." r
		printf "#tr 1\n#fields\tprof\trank\tname\tcalls\tsubrs\texcl\tincl\tbytes\n" > f
		for (k = 1; k <= 40; k++) {
			v = int(1000 * (1 + 0.15 * z()))
			printf "prof\t0\tk%02d\t1\t0\t%d\t%d\t0\n", k, v, v > f
		}
		v = int(2000 * slow * (1 + 0.02 * z()))
		printf "prof\t0\tslow\t1\t0\t%d\t%d\t0\n", v, v > f
		close(f)
	}
}
