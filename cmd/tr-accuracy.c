/* tr-accuracy - compare predicted with measured records key by key. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

struct val {
	double v[2];		/* predicted, measured */
	int have[2];
};

static struct tr_map *vmap;
static struct val *vals;
static size_t nval, valcap;
static int side;
static double minpct = -INFINITY;
static int pflag, mflag;
static char **qsel, **ksel;
static int nqsel, nksel;

static const struct tr_opts opts = {
	"tr-accuracy [-T] [-m pct] [-k columns] [-K keys] [-q quantities] "
	"[-t types] [-P predicted] ... [predicted] measured ...",
	"-K keys\tonly these keys, comma-separated, as model records write "
	"them (key=*)\n"
	"-k columns\tbuild keys from these columns only, comma-separated\n"
	"-m pct\texit 1 if an accuracy compared is below pct\n"
	"-P file\ta predicted file; may be repeated\n"
	"-q quantities\tonly these quantities, comma-separated\n"
	"-T\twrite a text table instead of records\n"
	"-t types\tonly these record types, comma-separated\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static char **
split(const char *s, int *n, char sep)
{
	char **v = NULL, *d = tr_strdup(s), *p, *q;
	size_t cap = 0;

	*n = 0;
	for (p = d; p; p = q) {
		q = strchr(p, sep);
		if (q)
			*q++ = '\0';
		tr_grow(&v, &cap, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = tr_strdup(p);
	}
	free(d);
	return v;
}

static int
selected(char **v, int n, const char *s)
{
	int i;

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

static void
add(void *ctx, const struct tr_flatval *fv)
{
	char *name;
	size_t len;
	long i;

	(void)ctx;
	if (!selected(qsel, nqsel, fv->quantity) ||
	    !selected(ksel, nksel, fv->key))
		return;
	len = strlen(fv->type) + strlen(fv->key) + strlen(fv->quantity) + 3;
	name = tr_malloc(len);
	snprintf(name, len, "%s\t%s\t%s", fv->type, fv->key, fv->quantity);
	i = tr_map_get(vmap, name, len - 1, 1);
	free(name);
	if ((size_t)i >= nval) {
		tr_grow(&vals, &valcap, (size_t)i + 1, sizeof *vals);
		memset(vals + nval, 0, ((size_t)i + 1 - nval) * sizeof *vals);
		nval = (size_t)i + 1;
	}
	vals[i].v[side] = fv->v;
	vals[i].have[side] = 1;
}

static void
readside(int nf, char **files, struct tr_flat *fl)
{
	struct tr_in *in = tr_open(nf, files);
	struct tr_rec r;
	int c, st;

	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_REC)
			tr_flat_add(fl, in, &r, add, NULL);
		else if (c == TR_END)
			tr_flat_end(fl, add, NULL);
	}
	st = tr_in_status(in);
	tr_close(in);
	if (st)
		exit(st);
}

/* A quantity of NAME's key, both sides, or -1. */
static long
sibling(const char *name, size_t len, const char *q, double v[2])
{
	const char *t = name + len;
	char *k;
	size_t kl;
	long i;

	while (t > name && t[-1] != '\t')
		t--;
	kl = (size_t)(t - name) + strlen(q);
	k = tr_malloc(kl + 1);
	snprintf(k, kl + 1, "%.*s%s", (int)(t - name), name, q);
	i = tr_map_get(vmap, k, kl, 0);
	free(k);
	if (i < 0 || !vals[i].have[0] || !vals[i].have[1])
		return -1;
	v[0] = vals[i].v[0];
	v[1] = vals[i].v[1];
	return i;
}

static int
same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Whether a quantity says something when compared value by value. A
 * bin is keyed by its ordinal, and tr-hist places bins by each run's
 * range, tr-extrap between predicted quantiles: bin K of one side is
 * compared with bin K of the other only when both cover the same
 * range; histograms are otherwise compared as distributions (their
 * quantiles, hdist). A hist's width and bins describe its binning, not
 * the values. */
static int
comparable(const char *name, size_t len)
{
	const char *q = name + len;
	double lo[2], hi[2];

	while (q > name && q[-1] != '\t')
		q--;
	if (strncmp(name, "hist\t", 5) == 0)
		return strcmp(q, "width") != 0 && strcmp(q, "bins") != 0;
	if (strncmp(name, "bin\t", 4) != 0)
		return 1;
	return sibling(name, len, "lo", lo) >= 0 &&
	    sibling(name, len, "hi", hi) >= 0 && same(lo[0], lo[1]) &&
	    same(hi[0], hi[1]);
}

static double
accuracy(double pred, double meas)
{
	if (meas == 0)
		return pred == 0 ? 100 : 0;
	return (1 - fabs(pred - meas) / fabs(meas)) * 100;
}

/* The histograms of one (field, key) as piecewise-uniform densities: the
 * earth mover's distance between them (in the value's unit) and the
 * Kolmogorov-Smirnov distance of their CDFs. */
struct hbin {
	double lo, hi, cnt, mean;
	int hasmean;
};

/* The bins compared per histogram, at most: each breakpoint is priced
 * against every bin, and tr-hist makes 20 unless told more. */
#define HMAXBINS 4096

/* The count of values below X (LEFT) or up to X. */
static double
cdfat(const struct hbin *h, int n, double x, int left)
{
	double f = 0;
	int j;

	for (j = 0; j < n; j++) {
		if (h[j].hi < x || (h[j].hi == x && (!left ||
		    h[j].hi > h[j].lo)))
			f += h[j].cnt;
		else if (h[j].lo < x && h[j].hi > x)
			f += h[j].cnt * (x - h[j].lo) / (h[j].hi - h[j].lo);
	}
	return f;
}

static void
hdist(const struct hbin *a, int na, const struct hbin *b, int nb, double *emd,
    double *ks)
{
	double *xs = tr_malloc(2 * (size_t)(na + nb + 1) * sizeof *xs);
	double ta = 0, tb = 0, prev = 0, fa0 = 0, fb0 = 0;
	int nx = 0, i;

	for (i = 0; i < na; i++) {
		xs[nx++] = a[i].lo;
		xs[nx++] = a[i].hi;
		ta += a[i].cnt;
	}
	for (i = 0; i < nb; i++) {
		xs[nx++] = b[i].lo;
		xs[nx++] = b[i].hi;
		tb += b[i].cnt;
	}
	qsort(xs, (size_t)nx, sizeof *xs, tr_cmp_f64);
	*emd = 0;
	*ks = 0;
	if (ta <= 0 || tb <= 0 || nx == 0) {
		free(xs);
		return;
	}
	for (i = 0; i < nx; i++) {
		double x = xs[i], fa, fb, la, lb, d;

		/* A bin of one value (lo = hi) is a step: the CDFs are
		 * linear from each breakpoint up to the next one's left
		 * limit, then jump. */
		la = cdfat(a, na, x, 1) / ta;
		lb = cdfat(b, nb, x, 1) / tb;
		fa = cdfat(a, na, x, 0) / ta;
		fb = cdfat(b, nb, x, 0) / tb;
		d = fabs(fa - fb) > fabs(la - lb) ? fabs(fa - fb) :
		    fabs(la - lb);
		if (d > *ks)
			*ks = d;
		if (i > 0) {
			double d0 = fa0 - fb0, d1 = la - lb, w = x - prev;

			if ((d0 >= 0) == (d1 >= 0))
				*emd += w * (fabs(d0) + fabs(d1)) / 2;
			else
				*emd += w * (d0 * d0 + d1 * d1) /
				    (2 * (fabs(d0) + fabs(d1)));
		}
		prev = x;
		fa0 = fa;
		fb0 = fb;
	}
	free(xs);
}

/* A bin's values as tr-fit reads the quantiles, spread evenly around
 * the bin's mean: read as filling the bin, 1,248 stencil bursts of mean
 * 213 in a bin from 0 to 2048 (a few outliers set the width) put
 * three quarters of them above 298, where the prediction had q90, and
 * gave KS 0.76 where the quantiles were 77 to 86 % accurate. NAME is
 * the hist's "hist TAB key TAB mean". */
static void
binspans(const char *name, size_t len, int s, struct hbin *b, int nb)
{
	double mm[2] = {-INFINITY, INFINITY};
	char *k = tr_malloc(len + 1);
	long i;
	int j;

	for (j = 0; j < 2; j++) {
		snprintf(k, len + 1, "%.*s%s", (int)(len - 4), name,
		    j ? "max" : "min");
		i = tr_map_get(vmap, k, strlen(k), 0);
		if (i >= 0 && vals[i].have[s])
			mm[j] = vals[i].v[s];
	}
	free(k);
	/* A mean outside its bin or range (an ordinal bin's models
	 * extrapolated apart) says nothing of where the values are. */
	for (j = 0; j < nb; j++)
		if (b[j].cnt > 0 && b[j].hasmean && b[j].hi > b[j].lo &&
		    b[j].mean >= b[j].lo && b[j].mean <= b[j].hi &&
		    b[j].mean >= mm[0] && b[j].mean <= mm[1])
			tr_hist_binspan(b[j].lo, b[j].hi, b[j].mean, mm[0],
			    mm[1], &b[j].lo, &b[j].hi);
}

/* Histograms: bin keys "...;bin=K" with lo, hi, count on both sides. */
static void
histograms(struct tr_out *o, int *nh)
{
	size_t i, j, len;

	for (i = 0; i < nval; i++) {
		const char *name = tr_map_key(vmap, (long)i, &len);
		char *prefix, *part, *fld, *key;
		struct hbin *a = NULL, *b = NULL;
		size_t hl, pl, acap = 0, bcap = 0;
		int na = 0, nb = 0, seen = 0;
		double emd, ks;

		if (len < 9 || memcmp(name, "hist\t", 5) != 0 ||
		    strcmp(name + len - 5, "\tmean") != 0)
			continue;
		hl = len;
		prefix = tr_malloc(len + 1);
		pl = (size_t)snprintf(prefix, len + 1, "bin\t%.*s;bin=",
		    (int)(len - 10), name + 5);
		for (j = 0; j < nval; j++) {
			const char *bn = tr_map_key(vmap, (long)j, &len);
			char *end;
			long k;
			const char *q;

			if (strncmp(bn, prefix, pl) != 0)
				continue;
			k = strtol(bn + pl, &end, 10);
			if (*end != '\t' || k < 0)
				continue;
			if (k >= HMAXBINS)
				tr_die(TR_EXIT_DATA, "histogram %.*s: bin %ld: "
				    "more than %d bins to compare", (int)(hl - 10),
				    name + 5, k, HMAXBINS);
			q = end + 1;
			seen = 1;
			/* tr_growz: bins not given stay empty */
			if (k >= na) {
				tr_growz(&a, &acap, (size_t)k + 1, sizeof *a);
				na = (int)k + 1;
			}
			if (k >= nb) {
				tr_growz(&b, &bcap, (size_t)k + 1, sizeof *b);
				nb = (int)k + 1;
			}
			if (strcmp(q, "lo") == 0) {
				a[k].lo = vals[j].v[0];
				b[k].lo = vals[j].v[1];
			} else if (strcmp(q, "hi") == 0) {
				a[k].hi = vals[j].v[0];
				b[k].hi = vals[j].v[1];
			} else if (strcmp(q, "mean") == 0) {
				a[k].mean = vals[j].v[0];
				a[k].hasmean = vals[j].have[0];
				b[k].mean = vals[j].v[1];
				b[k].hasmean = vals[j].have[1];
			} else if (strcmp(q, "count") == 0) {
				a[k].cnt = vals[j].have[0] && vals[j].v[0] > 0 ?
				    vals[j].v[0] : 0;
				b[k].cnt = vals[j].have[1] ? vals[j].v[1] : 0;
			}
		}
		free(prefix);
		if (seen) {
			binspans(name, hl, 0, a, na);
			binspans(name, hl, 1, b, nb);
			hdist(a, na, b, nb, &emd, &ks);
		}
		free(a);
		free(b);
		if (!seen)
			continue;
		/* The key part of "hist TAB key TAB mean". */
		part = tr_strndup(name + 5, hl - 10);
		fld = tr_flat_keyval(part, "field");
		key = tr_flat_keyval(part, "key");
		if (pflag) {
			tr_out_printf(o, "%-8s %-40s emd %-14.6g ks %.4f\n",
			    fld ? fld : "-", key ? key : "-", emd, ks);
		} else {
			tr_out_printf(o, "hdist\t%s\t%s\t", fld ? fld : "-",
			    key ? key : "-");
			tr_out_f64(o, emd);
			tr_out_c(o, '\t');
			tr_out_f64(o, ks);
			tr_out_c(o, '\n');
		}
		free(part);
		free(fld);
		free(key);
		(*nh)++;
	}
}

int
main(int argc, char **argv)
{
	struct tr_flat *fl;
	struct tr_out *o;
	const char *types = NULL, *keycols = NULL;
	char **pred = NULL;
	size_t i, len, predcap = 0;
	int npred = 0;
	int c, below = 0, compared = 0, missing = 0, nh = 0, unpaired = 0;
	double sum = 0, lo = INFINITY;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "K:k:m:P:q:Tt:", &opts)) != -1) {
		switch (c) {
		case 'P':
			tr_grow(&pred, &predcap, (size_t)npred + 1, sizeof *pred);
			pred[npred++] = optarg;
			break;
		case 'K': ksel = split(optarg, &nksel, ','); break;
		case 'k': keycols = optarg; break;
		case 'm':
			minpct = tr_opt_num('m', optarg, -INFINITY, INFINITY);
			mflag = 1;
			break;
		case 'T': pflag = 1; break;
		case 'q': qsel = split(optarg, &nqsel, ','); break;
		case 't': types = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (npred == 0) {
		if (argc < 2)
			usage();
		tr_grow(&pred, &predcap, 1, sizeof *pred);
		pred[npred++] = argv[0];
		argc--;
		argv++;
	}
	if (argc < 1)
		usage();
	vmap = tr_map_new();
	fl = tr_flat_new(types, keycols, NULL);
	/* Read off the bins on both sides as tr-fit reads them, so that
	 * predicted and measured histograms meet at the same quantiles. */
	tr_flat_quantiles(fl, 1);
	side = 0;
	readside(npred, pred, fl);
	side = 1;
	readside(argc, argv, fl);
	o = tr_out_open(1, 0);
	if (pflag) {
		tr_out_printf(o, "%-6s %-44s %-12s %14s %14s %9s\n", "type",
		    "key", "quantity", "predicted", "measured", "accuracy");
	} else {
		tr_out_begin(o);
		tr_out_printf(o, "#meta tool=tr-accuracy %s\n", TR_VERSION);
		tr_out_fields(o, TR_ACC);
		tr_out_fields(o, TR_HDIST);
		tr_out_fields(o, TR_ACCSUM);
	}
	for (i = 0; i < nval; i++) {
		const char *name = tr_map_key(vmap, (long)i, &len);
		double a;

		/* A histogram's bins are as many as its range and spread
		 * call for: one bin more on one side is no missing key. */
		if (!vals[i].have[0] || !vals[i].have[1]) {
			if (strncmp(name, "bin\t", 4) == 0)
				unpaired++;
			else
				missing++;
			continue;
		}
		if (!comparable(name, len)) {
			unpaired++;
			continue;
		}
		a = accuracy(vals[i].v[0], vals[i].v[1]);
		compared++;
		sum += a;
		if (a < lo)
			lo = a;
		if (mflag && a < minpct)
			below++;
		if (pflag) {
			const char *t1 = memchr(name, '\t', len);
			const char *t2 = memchr(t1 + 1, '\t',
			    len - (size_t)(t1 + 1 - name));
			char p[32], m[32];

			tr_out_printf(o, "%-6.*s %-44.*s %-12s %14s %14s %8.2f%%\n",
			    (int)(t1 - name), name, (int)(t2 - t1 - 1), t1 + 1,
			    t2 + 1, tr_f64str(p, vals[i].v[0]),
			    tr_f64str(m, vals[i].v[1]), a);
		} else {
			tr_out_str(o, "acc\t");
			tr_out_write(o, name, len);
			tr_out_c(o, '\t');
			tr_out_f64(o, vals[i].v[0]);
			tr_out_c(o, '\t');
			tr_out_f64(o, vals[i].v[1]);
			tr_out_c(o, '\t');
			tr_out_f64(o, a);
			tr_out_c(o, '\n');
		}
	}
	histograms(o, &nh);
	if (pflag) {
		tr_out_printf(o, "compared %d, missing on one side %d, mean "
		    "accuracy %.2f%%, min %.2f%%", compared, missing,
		    compared ? sum / compared : 0, compared ? lo : 0);
		if (mflag)
			tr_out_printf(o, ", below %g%%: %d", minpct, below);
		if (unpaired)
			tr_out_printf(o, ", not compared value by value %d "
			    "(bins of other ranges, binnings)", unpaired);
		tr_out_c(o, '\n');
	} else {
		tr_out_printf(o, "accsum\t%d\t%d\t", compared, missing);
		tr_out_f64(o, compared ? sum / compared : 0);
		tr_out_c(o, '\t');
		tr_out_f64(o, compared ? lo : 0);
		tr_out_printf(o, "\t%d\n", below);
	}
	tr_out_close(o);
	tr_flat_free(fl);
	tr_map_free(vmap);
	free(vals);
	free(pred);
	for (c = 0; c < nqsel; c++)
		free(qsel[c]);
	for (c = 0; c < nksel; c++)
		free(ksel[c]);
	free(qsel);
	free(ksel);
	if (compared == 0)
		tr_die(TR_EXIT_DATA, "no key is both predicted and measured");
	return mflag && below ? TR_EXIT_CHECK : 0;
}
