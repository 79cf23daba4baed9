/* hist.c - histograms of values by key that merge exactly: bin edges
 * depend only on the binning and the range of the values, and sums of
 * integer values are kept exactly (tr-hist). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

#define MAXBINS TR_HIST_MAXBINS
/* Keys met lately, by tr_hash of their bytes: most records then skip
 * building "field\tkey" and the map's byte-at-a-time hash. Two-way
 * set-associative, so its size is fixed; emptied with the map. */
#define NCACHE 1024

typedef __int128 i128;

struct sum {
	i128 i;
	double f;
};

struct bin {
	int64_t count;
	struct sum sum;
};

struct hist {
	int64_t n;
	double min, max;
	struct sum sum, sumsq;
	int exact;		/* every value was an integer */
	/* Sums of v - k, k the first value, while they fit: the variance
	 * exactly even when the squares pass 2^127 (ns since the epoch). */
	int shifted;
	int64_t k;
	i128 dsum, dsumsq;
	/* Merged: mean and n-1 times the variance of the parts so far, for
	 * sums no longer exact (floats, or squares past 2^127) */
	int merged;
	long double mu, m2;
	int scale, nbins;	/* nbins 0: width fixed */
	double width;
	int64_t base;		/* index of bins[0] */
	struct bin *bins, zero;	/* zero: v <= 0 with log bins */
	size_t len, cap;
};

struct tr_hists {
	int scale, nbins;	/* of new histograms */
	double width;
	struct tr_map *keys;	/* "field\tkey" */
	char *kbuf;		/* one, as long as a line may be */
	size_t kcap;
	struct hist *h;
	size_t n, cap;
	struct {
		uint64_t h;
		long i;		/* index in h, plus 1; 0: empty */
	} cache[NCACHE];
};

struct tr_hists *
tr_hist_new(int scale, double width, int nbins)
{
	struct tr_hists *hs = tr_calloc(1, sizeof *hs);

	hs->scale = scale;
	hs->width = width;
	hs->nbins = scale ? 0 : nbins;
	hs->keys = tr_map_new();
	return hs;
}

static struct hist *
gethist(struct tr_hists *hs, const char *f, size_t fn, const char *k,
    size_t kn)
{
	struct hist *h;
	long i;

	tr_grow(&hs->kbuf, &hs->kcap, fn + kn + 1, 1);
	memcpy(hs->kbuf, f, fn);
	hs->kbuf[fn] = '\t';
	memcpy(hs->kbuf + fn + 1, k, kn);
	i = tr_map_get(hs->keys, hs->kbuf, fn + kn + 1, 1);
	if ((size_t)i < hs->n)
		return &hs->h[i];
	tr_grow(&hs->h, &hs->cap, hs->n + 1, sizeof *hs->h);
	h = &hs->h[hs->n++];
	memset(h, 0, sizeof *h);
	h->exact = 1;
	h->scale = hs->scale;
	h->width = hs->width;
	h->nbins = hs->nbins;
	return h;
}

static struct hist *
findhist(struct tr_hists *hs, const char *f, size_t fn, const char *k,
    size_t kn)
{
	uint64_t h = tr_hash(k, kn);
	size_t c = h & (NCACHE - 1), n;
	const char *key;
	int j;
	struct hist *hp;

	for (j = 0; j < 2; j++, c ^= 1) {
		if (!hs->cache[c].i || hs->cache[c].h != h)
			continue;
		key = tr_map_key(hs->keys, hs->cache[c].i - 1, &n);
		if (n == fn + 1 + kn && memcmp(key + fn + 1, k, kn) == 0)
			return &hs->h[hs->cache[c].i - 1];
	}
	/* Two ways: the entry pushed out of c goes to its pair. */
	hp = gethist(hs, f, fn, k, kn);
	hs->cache[c ^ 1] = hs->cache[c];
	hs->cache[c].h = h;
	hs->cache[c].i = hp - hs->h + 1;
	return hp;
}

/* The bin array, extended to hold index i. */
static struct bin *
slot(const struct tr_in *in, struct hist *h, int64_t i)
{
	size_t need, off;
	uint64_t d;

	if (h->len == 0) {
		h->base = i;
		tr_grow(&h->bins, &h->cap, 1, sizeof *h->bins);
		memset(h->bins, 0, sizeof *h->bins);
		h->len = 1;
	} else if (i < h->base) {
		/* Indexes span all of int64 (values of 2^63 ns at width 1):
		 * distances are taken unsigned, where they cannot overflow. */
		d = (uint64_t)h->base - (uint64_t)i;
		if (d > MAXBINS || d + h->len > MAXBINS)
			goto toomany;
		off = (size_t)d;
		tr_grow(&h->bins, &h->cap, h->len + off, sizeof *h->bins);
		memmove(h->bins + off, h->bins, h->len * sizeof *h->bins);
		memset(h->bins, 0, off * sizeof *h->bins);
		h->len += off;
		h->base = i;
	} else if (i > h->base + ((int64_t)h->len - 1)) {
		d = (uint64_t)i - (uint64_t)h->base;
		if (d >= MAXBINS)
			goto toomany;
		need = (size_t)d + 1;
		tr_grow(&h->bins, &h->cap, need, sizeof *h->bins);
		memset(h->bins + h->len, 0, (need - h->len) * sizeof *h->bins);
		h->len = need;
	}
	return &h->bins[i - h->base];
toomany:
	tr_in_die(in, "more than %d bins: use a larger width (-w)", MAXBINS);
}

static void
sumadd(struct sum *a, const struct sum *b)
{
	a->i += b->i;
	a->f += b->f;
}

/* Squares of integers near 2^63 (ns since the epoch) add up past 2^127
 * in a few dozen values: the sums are then kept as floats only. */
static void
sqadd(struct hist *h, i128 sq)
{
	if (h->exact && __builtin_add_overflow(h->sumsq.i, sq, &h->sumsq.i))
		h->exact = 0;
}

/* Doubles the width of lin bins at powers of two: bin i goes to i/2. */
static void
dbl(struct hist *h)
{
	size_t i, j;
	int64_t nb = h->base >> 1;	/* floor division */

	h->width *= 2;
	if (h->len == 0)
		return;
	for (i = 0; i < h->len; i++) {
		j = (size_t)(((h->base + (int64_t)i) >> 1) - nb);
		if (j == i)
			continue;
		h->bins[j].count += h->bins[i].count;
		sumadd(&h->bins[j].sum, &h->bins[i].sum);
		memset(&h->bins[i], 0, sizeof h->bins[i]);
	}
	h->len = (size_t)(((h->base + ((int64_t)h->len - 1)) >> 1) - nb) + 1;
	h->base = nb;
}

/* Bins start at multiples of their width, so no width makes one bin of
 * values below 0 and at or above it: doubling it would go on forever. */
static void
one_bin(const struct tr_in *in, const struct hist *h, int64_t lo, int64_t hi)
{
	if (h->nbins == 1 && lo < 0 && hi >= 0)
		tr_in_die(in, "values below 0 and at or above it do not fit "
		    "in 1 bin: give 2 or more (-b)");
}

/* Whether bin index X and those in use fit in nbins bins; if not,
 * that doubling the width can make them fit. */
static int
fits(const struct tr_in *in, const struct hist *h, int64_t x)
{
	int64_t lo = x < h->base ? x : h->base,
	    hi = h->base + ((int64_t)h->len - 1);

	if (x > hi)
		hi = x;
	if ((uint64_t)hi - (uint64_t)lo < (uint64_t)h->nbins)
		return 1;
	one_bin(in, h, lo, hi);
	return 0;
}

/* With -b, widens the bins until those in use fit in nbins. */
static void
widen(struct hist *h)
{
	while (h->nbins && h->len > (size_t)h->nbins)
		dbl(h);
}

/* iv: the value as read, when it was an integer (NULL if not): ns since
 * the epoch (job, sys records) are beyond a double's 2^53. */
static int64_t
index_of(const struct tr_in *in, const struct hist *h, double v,
    const int64_t *iv)
{
	double x;

	/* Integers over an integral width: floor(v / width) done exactly
	 * in integers gives the same. */
	if (!h->scale && (iv || (fabs(v) < 9e15 && v == (int64_t)v)) &&
	    h->width < 9007199254740992.0 && h->width == (int64_t)h->width) {
		int64_t a = iv ? *iv : (int64_t)v, w = (int64_t)h->width,
		    q = a / w;

		return q - (a % w < 0);
	}
	x = h->scale ? floor(log10(v) * h->width) : floor(v / h->width);

	if (!(x > -9e15 && x < 9e15))
		tr_in_die(in, "value %g out of range for the bins", v);
	return (int64_t)x;
}

void
tr_hist_add(struct tr_hists *hs, const struct tr_in *in, const char *field,
    size_t fn, const char *key, size_t kn, const struct tr_field *f)
{
	struct hist *h = findhist(hs, field, fn, key, kn);
	struct sum s;
	struct bin *b;
	int64_t i, *iv = &i;
	double v;

	if (tr_parse_i64(f->p, f->n, &i) == 0) {
		v = (double)i;
		s.i = i;
	} else if (tr_parse_f64(f->p, f->n, &v) == 0) {
		h->exact = 0;
		s.i = 0;
		iv = NULL;
	} else
		tr_in_die(in, "field '%.*s' is not a number: '%.*s'", (int)fn,
		    field, (int)(f->n > 40 ? 40 : f->n), f->p);
	s.f = v;
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (h->n == 0 || v > h->max)
		h->max = v;
	if (h->n == 0) {
		h->shifted = iv != NULL;
		h->k = iv ? i : 0;
	}
	if (h->shifted) {
		i128 d = (i128)i - h->k, d2;

		h->shifted = iv && !__builtin_mul_overflow(d, d, &d2) &&
		    !__builtin_add_overflow(h->dsumsq, d2, &h->dsumsq);
		h->dsum += d;
	}
	h->n++;
	sumadd(&h->sum, &s);
	sqadd(h, s.i * s.i);
	h->sumsq.f += v * v;
	/* With -b, widen before a far value grows the array past MAXBINS. */
	while (!h->scale && h->nbins && h->len > 0 &&
	    !fits(in, h, index_of(in, h, v, iv)))
		dbl(h);
	if (h->scale && v <= 0)
		b = &h->zero;
	else
		b = slot(in, h, index_of(in, h, v, iv));
	b->count++;
	sumadd(&b->sum, &s);
	widen(h);
}

static void
out_i128(struct tr_out *o, i128 v)
{
	char buf[48], *p = buf + sizeof buf;
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v :
	    (unsigned __int128)v;

	do {
		*--p = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	tr_out_write(o, p, (size_t)(buf + sizeof buf - p));
}

static void
out_sum(struct tr_out *o, const struct hist *h, const struct sum *s)
{
	if (h->exact)
		out_i128(o, s->i);
	else
		tr_out_f64(o, s->f);
}

static double
sumval(const struct hist *h, const struct sum *s)
{
	return h->exact ? (double)s->i : s->f;
}

static void
out_bin(struct tr_out *o, const struct hist *h, const char *fk, size_t fkn,
    double lo, double hi, const struct bin *b)
{
	tr_out_str(o, "bin\t");
	tr_out_write(o, fk, fkn);
	tr_out_tf64(o, lo);
	tr_out_tf64(o, hi);
	tr_out_ti64(o, b->count);
	tr_out_tf64(o, b->count ? sumval(h, &b->sum) / (double)b->count : 0);
	tr_out_c(o, '\t');
	out_sum(o, h, &b->sum);
	tr_out_c(o, '\n');
}

void
tr_hist_write(struct tr_hists *hs, struct tr_out *o)
{
	size_t k, i, j, fkn;
	const char *fk;
	long double var;
	double mean, sd;
	long *ord = tr_map_order(hs->keys);

	for (i = 0; i < hs->n; i++) {
		struct hist *h = &hs->h[ord[i]];

		k = (size_t)ord[i];

		if (h->n == 0)
			continue;
		fk = tr_map_key(hs->keys, (long)k, &fkn);
		mean = sumval(h, &h->sum) / (double)h->n;
		sd = 0;
		if (h->n > 1) {
			i128 a, b;

			/* n sumsq - sum^2 exactly: in long double it cancels
			 * to nothing when the spread is small next to the
			 * values (sd 0 for 1e14 + 0..3) */
			if (h->exact && !__builtin_mul_overflow(h->sumsq.i,
			    (i128)h->n, &a) && !__builtin_mul_overflow(h->sum.i,
			    h->sum.i, &b))
				var = (long double)(a - b) / (long double)h->n /
				    (long double)(h->n - 1);
			else if (h->shifted && !__builtin_mul_overflow(
			    h->dsumsq, (i128)h->n, &a) &&
			    !__builtin_mul_overflow(h->dsum, h->dsum, &b))
				var = (long double)(a - b) / (long double)h->n /
				    (long double)(h->n - 1);
			else if (h->merged && !h->exact)
				var = h->m2 / (long double)(h->n - 1);
			else if (h->exact)
				var = ((long double)h->sumsq.i -
				    (long double)h->sum.i * (long double)h->sum.i /
				    (long double)h->n) / (long double)(h->n - 1);
			else
				var = ((long double)h->sumsq.f -
				    (long double)h->sum.f * (long double)h->sum.f /
				    (long double)h->n) / (long double)(h->n - 1);
			sd = var > 0 ? (double)sqrtl(var) : 0;
		}
		tr_out_str(o, "hist\t");
		tr_out_write(o, fk, fkn);
		tr_out_ti64(o, h->n);
		tr_out_tf64(o, h->min);
		tr_out_tf64(o, mean);
		tr_out_tf64(o, h->max);
		tr_out_tf64(o, sd);
		tr_out_c(o, '\t');
		out_sum(o, h, &h->sum);
		tr_out_c(o, '\t');
		out_sum(o, h, &h->sumsq);
		tr_out_str(o, h->scale ? "\tlog\t" : "\tlin\t");
		tr_out_f64(o, h->width);
		tr_out_ti64(o, h->nbins);
		tr_out_c(o, '\n');
		if (h->zero.count)
			out_bin(o, h, fk, fkn, 0, 0, &h->zero);
		for (j = 0; j < h->len; j++) {
			double x = (double)(h->base + (int64_t)j), lo, hi;

			if (h->scale) {
				lo = pow(10, x / h->width);
				hi = pow(10, (x + 1) / h->width);
			} else {
				lo = x * h->width;
				hi = (x + 1) * h->width;
			}
			out_bin(o, h, fk, fkn, lo, hi, &h->bins[j]);
		}
	}
	free(ord);
}

void
tr_hist_clear(struct tr_hists *hs)
{
	size_t k;

	for (k = 0; k < hs->n; k++)
		free(hs->h[k].bins);
	hs->n = 0;
	tr_map_clear(hs->keys);
	memset(hs->cache, 0, sizeof hs->cache);
}

void
tr_hist_free(struct tr_hists *hs)
{
	if (!hs)
		return;
	tr_hist_clear(hs);
	free(hs->h);
	free(hs->kbuf);
	tr_map_free(hs->keys);
	free(hs);
}

/* ---- merging the output of tr-hist ---- */

static int
parse_sum(const struct tr_field *f, struct sum *s)
{
	const char *p = f->p, *e = f->p + f->n;
	int neg = 0;

	if (tr_parse_f64(f->p, f->n, &s->f) != 0)
		return -1;
	s->i = 0;
	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	if (p == e)
		return -1;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return 0;	/* not an integer: inexact */
		if (__builtin_mul_overflow(s->i, 10, &s->i) ||
		    __builtin_add_overflow(s->i, *p - '0', &s->i))
			return 0;	/* beyond 2^127: inexact */
	}
	if (neg)
		s->i = -s->i;
	return 1;
}

static void
merge_hist(struct tr_hists *hs, const struct tr_in *in,
    const struct tr_rec *r)
{
	struct hist *h, t;
	struct sum s, sq;
	int ex1, ex2;
	int64_t nb;

	memset(&t, 0, sizeof t);
	t.n = tr_get_i64(in, r, 3);
	t.min = tr_get_f64(in, r, 4);
	t.max = tr_get_f64(in, r, 6);
	ex1 = parse_sum(&r->f[8], &s);
	ex2 = parse_sum(&r->f[9], &sq);
	t.scale = r->f[10].n == 3 && memcmp(r->f[10].p, "log", 3) == 0;
	if (!t.scale && !(r->f[10].n == 3 && memcmp(r->f[10].p, "lin", 3) == 0))
		tr_in_die(in, "scale must be lin or log");
	t.width = tr_get_f64(in, r, 11);
	nb = tr_get_i64(in, r, 12);
	if (t.width <= 0 || ex1 < 0 || ex2 < 0)
		tr_in_die(in, "bad histogram record");
	/* 0 for -w and -l, else -b's count: int-sized, as -b checks it */
	if (nb < 0 || nb > MAXBINS)
		tr_in_die(in, "bins must be 0 to %d: %lld", MAXBINS,
		    (long long)nb);
	h = gethist(hs, r->f[1].p, r->f[1].n, r->f[2].p, r->f[2].n);
	if (h->n == 0) {
		h->scale = t.scale;
		h->nbins = (int)nb;
		h->width = t.width;
	} else if (h->scale != t.scale || h->nbins != nb ||
	    (nb == 0 && h->width != t.width))
		tr_in_die(in, "histograms of '%.*s' have different bins: merge "
		    "the output of one tr-hist command", (int)r->f[2].n,
		    r->f[2].p);
	if (t.n == 0)
		return;
	h->merged = 1;
	{
		long double mt = tr_get_f64(in, r, 5),
		    sd = tr_get_f64(in, r, 7),
		    d = mt - h->mu, n = (long double)(h->n + t.n);

		h->m2 += sd * sd * (long double)(t.n - 1) +
		    d * d * (long double)h->n * (long double)t.n / n;
		h->mu += d * (long double)t.n / n;
	}
	if (h->n == 0 || t.min < h->min)
		h->min = t.min;
	if (h->n == 0 || t.max > h->max)
		h->max = t.max;
	h->n += t.n;
	if (!ex1 || !ex2)
		h->exact = 0;
	sumadd(&h->sum, &s);
	sqadd(h, sq.i);
	h->sumsq.f += sq.f;
	/* A power of two wider than ours: rebin ours to it first. */
	while (nb && h->width < t.width)
		dbl(h);
}

static void
merge_bin(struct tr_hists *hs, const struct tr_in *in,
    const struct tr_rec *r)
{
	struct hist *h = gethist(hs, r->f[1].p, r->f[1].n, r->f[2].p,
	    r->f[2].n);
	struct bin b, *d;
	double lo = tr_get_f64(in, r, 3), w, x;
	int64_t i;

	b.count = tr_get_i64(in, r, 5);
	if (parse_sum(&r->f[7], &b.sum) < 0)
		tr_in_die(in, "bad bin sum");
	if (b.count == 0)
		return;
	if (h->scale && lo == 0 && tr_get_f64(in, r, 4) == 0) {
		h->zero.count += b.count;
		sumadd(&h->zero.sum, &b.sum);
		return;
	}
	/* The bin's index at its own width, then at ours (which is as
	 * wide or wider, merge_hist saw to it). */
	w = tr_get_f64(in, r, 4) - lo;
	x = h->scale ? log10(lo) * h->width : lo / (h->nbins ? w : h->width);
	x = nearbyint(x);
	if (!(x > -9e15 && x < 9e15) || w <= 0)
		tr_in_die(in, "bad bin edges");
	i = (int64_t)x;
	if (h->nbins)
		while (w < h->width) {
			i >>= 1;
			w *= 2;
		}
	/* As tr_hist_add does: parts far apart fit in nbins bins of a width
	 * none of them had, which growing the array first would exceed. */
	while (h->nbins && h->len > 0 && !fits(in, h, i)) {
		dbl(h);
		i >>= 1;
	}
	d = slot(in, h, i);
	d->count += b.count;
	sumadd(&d->sum, &b.sum);
	widen(h);
}

int
tr_hist_merge(struct tr_hists *hs, const struct tr_in *in,
    const struct tr_rec *r)
{
	if (r->type == TR_HIST)
		merge_hist(hs, in, r);
	else if (r->type == TR_BIN)
		merge_bin(hs, in, r);
	else
		return 0;
	return 1;
}

void
tr_hist_binspan(double lo, double hi, double mean, double hmin, double hmax,
    double *a, double *z)
{
	double l = lo > hmin ? lo : hmin, h = hi < hmax ? hi : hmax, w;

	w = mean - l < h - mean ? mean - l : h - mean;
	if (!(w > 0))
		w = 0;
	*a = mean - w;
	*z = mean + w;
}
