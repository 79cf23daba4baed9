/* tr-diff - relative profiling: compare runs A and B key by key, ranked
 * by PARP's metric m = (t_a/T_a) ln(t_a/t_b). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static char *kname, *vname, *order = "m";
static long topn = -1;
static double failpct = -1, alpha = 0.05, minshare = 0.01;
static int tflag, correction = TR_PADJ_HOLM;
static const char *const corrections[] = {"none", "holm", "bh", NULL};
static const char *const orders[] = {"m", "a", "b", "delta", "ratio", "p",
	"key", NULL};

struct row {
	const char *key;
	size_t kn;
	double a, b, delta, ratio, m, p, na, nb;
	double padj;		/* p adjusted for the keys tested */
	char only;
};

static const struct option longopts[] = {
	{"correction", required_argument, NULL, 'C'},
	{"fail-above", required_argument, NULL, 'f'},
	{"text", no_argument, NULL, 'T'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-diff [-T] [-a alpha] [-C correction] [-c count] [-f pct] "
	"[-k key] [-S pct] [-s order] [-v value] a b",
	"-a alpha\tsignificance level for -f (default 0.05)\n"
	"-C, --correction correction\thow p-values are adjusted for the keys "
	"tested: holm (default), bh or none\n"
	"-c count\twrite the first count keys only (and the total)\n"
	"-f, --fail-above pct\texit 1 when a key got slower in b by more "
	"than pct percent, significantly\n"
	"-k key\tgroup by this column (site, path, class, cmd, host, rank, "
	"...)\n"
	"-S pct\tsmallest share of the total, in percent, of a key that -f "
	"considers (default 1)\n"
	"-s order\tsort by m (default), a, b, delta, ratio, p or key\n"
	"-T, --text\twrite a text table instead of records\n"
	"-v value\tcompare this value column (incl, bytes, user, io, cpu, "
	"...)\n",
	longopts
};

static _Noreturn void
usage(void)
{
	tr_usage(&opts);
}

/* Reads one condition; B's runs must be by A's key and value. */
static struct tr_cmp *
side(char *file, const struct tr_cmp *a, int *status)
{
	struct tr_cmp *c = tr_cmp_new(kname, vname);
	struct tr_in *in = tr_open(1, &file);
	struct tr_rec r;
	int t;

	if (a)
		tr_cmp_like(c, a);
	/* A trace without a rank's file gives smaller times per rank. */
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((t = tr_next(in, &r)) != TR_EOF) {
		if (t == TR_HDR)
			tr_cmp_hdr(c, in);
		else if (t == TR_REC)
			tr_cmp_rec(c, in, &r);
		else if (t == TR_END)
			tr_cmp_end(c);
	}
	tr_cmp_end(c);
	tr_cmp_finish(c);
	tr_cmp_matched(c, file);
	if (tr_in_status(in))
		*status = tr_in_status(in);
	tr_close(in);
	return c;
}

/* The total time of a side: its (total) key, else the sum of its keys. */
static double
total(const struct tr_cmp *c)
{
	long i = tr_cmp_find(c, TR_CMP_TOTAL, strlen(TR_CMP_TOTAL));
	double t = 0;
	size_t j;

	if (i >= 0)
		return tr_cmp_stat(c, i)->mean;
	for (j = 0; j < tr_cmp_len(c); j++)
		t += tr_cmp_stat(c, (long)j)->mean;
	return t;
}

static int
cmpkey(const struct row *x, const struct row *y)
{
	int c = memcmp(x->key, y->key, x->kn < y->kn ? x->kn : y->kn);

	return c ? c : (x->kn > y->kn) - (x->kn < y->kn);
}

/* b / a for sorting: time where there was none is a slowdown without
 * bound, whatever its size, and the larger b the worse. */
static double
sortratio(const struct row *w, double *tie)
{
	*tie = 0;
	if (w->a != 0 || w->b == 0)
		return w->ratio;
	*tie = w->b;
	return w->b > 0 ? INFINITY : -INFINITY;
}

static int
byorder(const void *pa, const void *pb)
{
	const struct row *x = pa, *y = pb;
	double u, v, tu, tv;

	switch (order[0]) {
	case 'k': return cmpkey(x, y);
	case 'a': u = x->a; v = y->a; break;
	case 'b': u = x->b; v = y->b; break;
	case 'd': u = x->delta; v = y->delta; break;
	case 'r':
		u = sortratio(x, &tu);
		v = sortratio(y, &tv);
		if (u == v) {
			u = tu;
			v = tv;
		}
		break;
	case 'p': u = -x->p; v = -y->p; break;	/* smallest p first */
	default: u = x->m; v = y->m; break;
	}
	if (u != v)
		return u < v ? 1 : -1;
	return cmpkey(x, y);
}

static void
fill(struct row *w, const struct tr_stat *sa, const struct tr_stat *sb,
    double ta)
{
	double hi, lo;

	w->a = sa->mean;
	w->b = sb->mean;
	w->na = sa->n;
	w->nb = sb->n;
	w->delta = w->b - w->a;
	/* -1: no finite ratio (the format writes no inf). */
	w->ratio = w->a != 0 ? w->b / w->a : w->b == 0 ? 1 : -1;
	hi = w->a > w->b ? w->a : w->b;
	lo = w->a > w->b ? w->b : w->a;
	/* A key missing on one side is compared with one unit (1 ns). */
	if (lo <= 0)
		lo = 1;
	w->m = hi > lo && ta > 0 ? hi / ta * log(hi / lo) : 0;
	w->p = tr_welch(sa, sb);
	if (!isfinite(w->m))
		w->m = 0;
	if (!isfinite(w->ratio))
		w->ratio = -1;
}

static void
put(struct tr_out *o, const struct row *w)
{
	if (tflag) {
		tr_out_printf(o, "%-32.*s %12.4g %12.4g %+12.4g ", (int)w->kn,
		    w->key, w->a, w->b, w->delta);
		if (w->a == 0 && w->b != 0)
			tr_out_printf(o, "%8s", w->b > 0 ? "inf" : "-inf");
		else
			tr_out_printf(o, "%8.3f", w->ratio);
		tr_out_printf(o, " %8.4f ", w->m);
		if (w->p >= 0)
			tr_out_printf(o, "%8.2g %8.2g", w->p, w->padj);
		else
			tr_out_printf(o, "%8s %8s", "-", "-");
		tr_out_printf(o, " %3.0f %3.0f %s\n", w->na, w->nb,
		    w->only == 'a' ? "only-a" : w->only == 'b' ? "only-b" : "");
		return;
	}
	tr_out_str(o, "diff\t");
	tr_out_write(o, w->key, w->kn);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->a);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->b);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->delta);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->ratio);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->m);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->p);
	tr_out_c(o, '\t');
	tr_out_i64(o, (int64_t)w->na);
	tr_out_c(o, '\t');
	tr_out_i64(o, (int64_t)w->nb);
	tr_out_c(o, '\t');
	tr_out_c(o, w->only);
	tr_out_c(o, '\t');
	tr_out_f64(o, w->padj);
	tr_out_c(o, '\n');
}

/* A regression worth failing for: slower by more than failpct, not
 * noise by Welch's test (or no test possible), and not negligible. */
static int
regressed(const struct row *w, double ta)
{
	if (!(w->b > w->a * (1 + failpct / 100)))
		return 0;
	if (w->p >= 0 && w->padj >= alpha)
		return 0;
	return ta > 0 && w->b / ta >= minshare;
}

static void
warn_row(const struct row *w)
{
	char p[64] = "no test";

	if (w->p >= 0 && correction != TR_PADJ_NONE)
		snprintf(p, sizeof p, "p=%.2g, %s-adjusted %.2g", w->p,
		    correction == TR_PADJ_HOLM ? "Holm" : "BH", w->padj);
	else if (w->p >= 0)
		snprintf(p, sizeof p, "p=%.2g", w->p);
	if (w->a == 0)
		tr_warn("%.*s: new in b (%.4g, %s)", (int)w->kn, w->key, w->b,
		    p);
	else
		tr_warn("%.*s: %.1f%% slower (%.4g -> %.4g, %s)", (int)w->kn,
		    w->key, (w->ratio - 1) * 100, w->a, w->b, p);
}

/* Unadjusted, a few of dozens of unchanged keys tested at once would
 * pass the significance level by chance every night. */
static size_t
adjust(struct row *rows, size_t nr, struct row *tot)
{
	double *p = tr_calloc(nr + 1, sizeof *p), *adj = tr_calloc(nr + 1,
	    sizeof *adj);
	size_t i, m;

	for (i = 0; i < nr; i++)
		p[i] = rows[i].p;
	p[nr] = tot->p;
	m = tr_padjust(p, adj, nr + 1, correction);
	for (i = 0; i < nr; i++)
		rows[i].padj = adj[i];
	tot->padj = adj[nr];
	free(p);
	free(adj);
	return m;
}

int
main(int argc, char **argv)
{
	struct tr_cmp *ca, *cb;
	struct tr_out *o;
	struct row *rows, tot;
	size_t i, n, nr = 0, kn, ntests;
	double ta, tb;
	int c, status = 0, bad = 0;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "a:C:c:f:k:S:s:Tv:", &opts)) != -1) {
		switch (c) {
		case 'a': alpha = tr_opt_num('a', optarg, 0, INFINITY); break;
		case 'C':
			correction = tr_opt_oneof('C', optarg, corrections);
			break;
		case 'c':
			topn = (long)tr_opt_int('c', optarg, 0, LONG_MAX);
			break;
		case 'f': failpct = tr_opt_num('f', optarg, 0, INFINITY); break;
		case 'k': kname = optarg; break;
		case 'S':
			minshare = tr_opt_num('S', optarg, 0, INFINITY) / 100;
			break;
		case 's':
			order = optarg;
			tr_opt_oneof('s', order, orders);
			break;
		case 'T': tflag = 1; break;
		case 'v': vname = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	ca = side(argv[0], NULL, &status);
	cb = side(argv[1], ca, &status);
	if (status) {
		tr_cmp_free(ca);
		tr_cmp_free(cb);
		return status;
	}
	ta = total(ca);
	tb = total(cb);
	n = tr_cmp_len(ca) + tr_cmp_len(cb);
	rows = tr_calloc(n ? n : 1, sizeof *rows);
	for (i = 0; i < n; i++) {
		int ina = i < tr_cmp_len(ca);
		const struct tr_cmp *cs = ina ? ca : cb, *co = ina ? cb : ca;
		long j = ina ? (long)i : (long)(i - tr_cmp_len(ca));
		const char *k = tr_cmp_key(cs, j, &kn);
		long oj = tr_cmp_find(co, k, kn);
		/* A run without the key spent no time in it. */
		struct tr_stat z = {(double)tr_cmp_reps(co), 0, 0, 0, 0};
		const struct tr_stat *s = tr_cmp_stat(cs, j);
		const struct tr_stat *os = oj >= 0 ? tr_cmp_stat(co, oj) : &z;

		if ((kn == strlen(TR_CMP_TOTAL) && !memcmp(k, TR_CMP_TOTAL,
		    kn)) || (!ina && oj >= 0))
			continue;
		rows[nr].key = k;
		rows[nr].kn = kn;
		rows[nr].only = oj >= 0 ? '-' : ina ? 'a' : 'b';
		fill(&rows[nr++], ina ? s : os, ina ? os : s, ta > tb ? ta : tb);
	}
	tr_sort(rows, nr, sizeof *rows, byorder);

	memset(&tot, 0, sizeof tot);
	tot.key = TR_CMP_TOTAL;
	tot.kn = strlen(TR_CMP_TOTAL);
	{
		long ia = tr_cmp_find(ca, TR_CMP_TOTAL, tot.kn);
		long ib = tr_cmp_find(cb, TR_CMP_TOTAL, tot.kn);
		struct tr_stat sa = {1, ta, 0, ta, ta}, sb = {1, tb, 0, tb, tb};

		tot.only = '-';
		fill(&tot, ia >= 0 ? tr_cmp_stat(ca, ia) : &sa,
		    ib >= 0 ? tr_cmp_stat(cb, ib) : &sb, ta > tb ? ta : tb);
	}
	ntests = adjust(rows, nr, &tot);

	o = tr_out_open(1, 0);
	if (tflag) {
		tr_out_printf(o, "%-32s %12s %12s %12s %8s %8s %8s %8s %3s "
		    "%3s\n", "key", "a", "b", "b-a", "b/a", "m", "p", "p.adj",
		    "na", "nb");
	} else {
		tr_out_begin(o);
		tr_out_printf(o, "#meta diff.a=%s\n#meta diff.b=%s\n", argv[0],
		    argv[1]);
		tr_out_printf(o, "#meta diff.correction=%s\n#meta diff.tests="
		    "%zu\n", corrections[correction], ntests);
		tr_out_fields(o, TR_DIFF);
	}
	if (failpct >= 0 && (tr_cmp_reps(ca) < 2 || tr_cmp_reps(cb) < 2))
		tr_warn("no significance test: %s has %ld run%s, %s %ld (Welch's "
		    "test needs 2 a side): keys more than %g%% slower fail on "
		    "size alone", argv[0], tr_cmp_reps(ca), tr_cmp_reps(ca) == 1 ?
		    "" : "s", argv[1], tr_cmp_reps(cb), failpct);
	for (i = 0; i < nr; i++) {
		if (topn < 0 || (long)i < topn)
			put(o, &rows[i]);
		if (failpct >= 0 && regressed(&rows[i], ta > tb ? ta : tb)) {
			warn_row(&rows[i]);
			bad = 1;
		}
	}
	put(o, &tot);
	if (failpct >= 0 && regressed(&tot, ta > tb ? ta : tb)) {
		warn_row(&tot);
		bad = 1;
	}
	tr_out_close(o);
	free(rows);
	tr_cmp_free(ca);
	tr_cmp_free(cb);
	return bad ? TR_EXIT_CHECK : 0;
}
