/* flat.c - records of derived types seen as (type, key, quantity, value)
 * for the modeling tools: string columns make the key, numeric columns
 * are quantities; per-rank types are summarised over ranks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

#define MAXCACHE 32

struct colinfo {
	const struct tr_decl *decl;
	char **names;
	int nf;
	char role[TR_MAXF];	/* 'k' key, 'q' quantity, 'u' unit, 0 none */
	int perrank, ordinal;
	int calls, bytes;	/* columns, for bytes per call; 0 if none */
};

struct series {
	double *v;
	size_t n, cap;
	int isint;
};

struct tr_flat {
	char **keycols, **qcols;
	int nkey, nq;
	char **types;
	int ntypes;
	struct colinfo cache[MAXCACHE];
	int ncache;
	struct tr_map *rmap;	/* per-rank series */
	struct series *rs;
	size_t nrs, rscap;
	struct tr_map *omap;	/* ordinal counters of bins */
	long *ord;
	size_t ordcap;
	char *buf;
	size_t bufcap;
	/* tr_flat_quantiles: the hist waiting for its bins. */
	int quant;
	char *qkey, *qunit;
	double qn, qmin, qmax;
	struct qbin { double lo, hi, cnt, mean; } *qb;
	size_t nqb, qbcap;
};

static const char *deftypes[] = {"dsum", "dmax", "hist", "bin", "opstat",
	"msite", "msize", "imbal", "prof", "profagg", "metric", NULL};

static char **
splitlist(const char *s, int *n)
{
	char **v = NULL, *d, *p, *q;
	size_t cap = 0;

	*n = 0;
	if (!s)
		return NULL;
	d = tr_strdup(s);
	for (p = d; p; p = q) {
		q = strchr(p, ',');
		if (q)
			*q++ = '\0';
		tr_grow(&v, &cap, (size_t)*n + 2, sizeof *v);
		v[(*n)++] = tr_strdup(p);
	}
	free(d);
	return v;
}

static int
inlist(char **v, int n, const char *s, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && memcmp(v[i], s, len) == 0)
			return 1;
	return 0;
}

struct tr_flat *
tr_flat_new(const char *types, const char *keycols, const char *qcols)
{
	struct tr_flat *f = tr_calloc(1, sizeof *f);
	int i;

	f->keycols = splitlist(keycols, &f->nkey);
	f->qcols = splitlist(qcols, &f->nq);
	if (types) {
		f->types = splitlist(types, &f->ntypes);
	} else {
		for (i = 0; deftypes[i]; i++)
			;
		f->types = tr_calloc((size_t)i, sizeof *f->types);
		for (i = 0; deftypes[i]; i++)
			f->types[i] = tr_strdup(deftypes[i]);
		f->ntypes = i;
	}
	f->rmap = tr_map_new();
	f->omap = tr_map_new();
	return f;
}

void
tr_flat_free(struct tr_flat *f)
{
	int i;
	size_t k;

	if (!f)
		return;
	for (i = 0; i < f->nkey; i++)
		free(f->keycols[i]);
	for (i = 0; i < f->nq; i++)
		free(f->qcols[i]);
	for (i = 0; i < f->ntypes; i++)
		free(f->types[i]);
	free(f->keycols);
	free(f->qcols);
	free(f->types);
	for (k = 0; k < f->nrs; k++)
		free(f->rs[k].v);
	free(f->rs);
	free(f->ord);
	free(f->buf);
	free(f->qkey);
	free(f->qunit);
	free(f->qb);
	tr_map_free(f->rmap);
	tr_map_free(f->omap);
	free(f);
}

int
tr_flat_wants(const struct tr_flat *f, const char *type, size_t n)
{
	return inlist(f->types, f->ntypes, type, n);
}

static int
isnum(const struct tr_decl *d, const struct tr_rec *r, int c)
{
	double v;

	if (d->schema)
		return d->schema->kinds[c - 1] != TR_STR;
	return tr_parse_f64(r->f[c].p, r->f[c].n, &v) == 0;
}

static struct colinfo *
classify(struct tr_flat *f, const struct tr_rec *r)
{
	const struct tr_decl *d = r->decl;
	struct colinfo *ci;
	int c;

	/* Declarations live as long as their section: tr_flat_end empties
	 * the cache, and the names guard against a reused address. */
	for (c = 0; c < f->ncache; c++)
		if (f->cache[c].decl == d && f->cache[c].names == d->names &&
		    f->cache[c].nf == d->nf)
			return &f->cache[c];
	if (f->ncache == MAXCACHE)
		f->ncache = 0;
	ci = &f->cache[f->ncache++];
	memset(ci, 0, sizeof *ci);
	ci->decl = d;
	ci->names = d->names;
	ci->nf = d->nf;
	ci->ordinal = strcmp(d->name, "bin") == 0 && !f->nkey;
	for (c = 1; c < d->nf; c++) {
		const char *nm = d->names[c];
		size_t len = strlen(nm);
		int num = isnum(d, r, c);

		if (f->nkey) {
			if (inlist(f->keycols, f->nkey, nm, len))
				ci->role[c] = 'k';
			else if (num && (!f->nq ||
			    inlist(f->qcols, f->nq, nm, len)))
				ci->role[c] = 'q';
			continue;
		}
		if (strcmp(nm, "rank") == 0) {
			if (c == 1)
				ci->perrank = 1;
		} else if (strcmp(nm, "seq") == 0 || strcmp(nm, "start") == 0) {
			;
		} else if (strcmp(nm, "scale") == 0) {
			ci->role[c] = 'u';
		} else if (!num || (strcmp(d->name, "msize") == 0 &&
		    (strcmp(nm, "lo") == 0 || strcmp(nm, "hi") == 0))) {
			ci->role[c] = 'k';
		} else if (!f->nq || inlist(f->qcols, f->nq, nm, len)) {
			ci->role[c] = 'q';
		}
		if (ci->role[c] == 'q' && strcmp(nm, "calls") == 0)
			ci->calls = c;
		if (ci->role[c] == 'q' && strcmp(nm, "bytes") == 0)
			ci->bytes = c;
	}
	return ci;
}

/* Appends FIELD's text to the key, with ';' '%' and TAB escaped so that
 * the key splits back into its parts. */
static void
putc_b(struct tr_flat *f, size_t *len, int ch)
{
	tr_grow(&f->buf, &f->bufcap, *len + 2, 1);
	f->buf[(*len)++] = (char)ch;
	f->buf[*len] = '\0';
}

static void
puts_b(struct tr_flat *f, size_t *len, const char *s, size_t n, int esc)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (esc && (ch == ';' || ch == '%' || ch == '=')) {
			putc_b(f, len, '%');
			putc_b(f, len, "0123456789ABCDEF"[ch >> 4]);
			putc_b(f, len, "0123456789ABCDEF"[ch & 15]);
		} else {
			putc_b(f, len, ch);
		}
	}
}

static const char *rstat[] = {"min", "q25", "med", "mean", "q75", "max"};

const char *const *
tr_flat_rankstats(int *n)
{
	*n = 6;
	return rstat;
}


static const char *qname[] = {"q10", "q25", "q50", "q75", "q90"};
static const double qat[] = {0.10, 0.25, 0.50, 0.75, 0.90};

void
tr_flat_quantiles(struct tr_flat *f, int on)
{
	f->quant = on;
}

static int
colof(const struct tr_decl *d, const char *name)
{
	int c;

	for (c = 1; c < d->nf; c++)
		if (strcmp(d->names[c], name) == 0)
			return c;
	return -1;
}

/* The K-th smallest of the histogram's values (0-based), as its bin
 * can tell (tr_hist_binspan). */
static double
qitem(const struct tr_flat *f, double k)
{
	double cum = 0;
	size_t i;

	for (i = 0; i < f->nqb; i++) {
		const struct qbin *b = &f->qb[i];
		double a, z;

		if (b->cnt <= 0)
			continue;
		if (k < cum + b->cnt || i + 1 == f->nqb) {
			tr_hist_binspan(b->lo, b->hi, b->mean, f->qmin,
			    f->qmax, &a, &z);
			if (k > cum + b->cnt - 1)
				k = cum + b->cnt - 1;
			return a + (k - cum + 0.5) / b->cnt * (z - a);
		}
		cum += b->cnt;
	}
	return f->qmax;
}

/* Quantiles of a histogram, from its bins: unlike the bins, which
 * tr-hist places by each run's own range, a quantile means the same at
 * every scale, and its model over np follows the distribution as it
 * moves (tr-extrap -T maps bursts through them). */
static void
qflush(struct tr_flat *f, tr_flat_cb cb, void *ctx)
{
	struct tr_flatval fv;
	double tot = 0, prev = -INFINITY;
	size_t i;
	int j;

	if (!f->qkey)
		return;
	for (i = 0; i < f->nqb; i++)
		tot += f->qb[i].cnt > 0 ? f->qb[i].cnt : 0;
	/* Bins that do not add up to n (cut, or merged wrongly) would give
	 * quantiles of something else. */
	if (tot > 0 && fabs(tot - f->qn) <= 0.5) {
		memset(&fv, 0, sizeof fv);
		fv.type = "hist";
		fv.key = f->qkey;
		fv.unit = f->qunit;
		fv.unitn = f->qunit ? strlen(f->qunit) : 0;
		for (j = 0; j < 5; j++) {
			double p = qat[j] * (tot - 1), lo = floor(p);
			double v = qitem(f, lo);

			if (p > lo)
				v += (p - lo) * (qitem(f, lo + 1) - v);
			if (v < prev)
				v = prev;
			prev = v;
			fv.quantity = qname[j];
			fv.v = v;
			cb(ctx, &fv);
		}
	}
	free(f->qkey);
	free(f->qunit);
	f->qkey = f->qunit = NULL;
	f->nqb = 0;
}

/* Follows a hist record and the bins after it with the same key. */
static void
qtrack(struct tr_flat *f, const struct tr_in *in, const struct tr_rec *r,
    size_t klen, const char *unit, size_t unitn, tr_flat_cb cb, void *ctx)
{
	const struct tr_decl *d = r->decl;
	int isbin = strcmp(d->name, "bin") == 0;
	int c1, c2, c3, c4;

	if (isbin && f->qkey && strlen(f->qkey) == klen &&
	    memcmp(f->qkey, f->buf, klen) == 0) {
		c1 = colof(d, "lo");
		c2 = colof(d, "hi");
		c3 = colof(d, "count");
		c4 = colof(d, "mean");
		if (c1 < 0 || c2 < 0 || c3 < 0 || c4 < 0) {
			f->nqb = 0;
			f->qn = -1;
			return;
		}
		tr_grow(&f->qb, &f->qbcap, f->nqb + 1, sizeof *f->qb);
		f->qb[f->nqb].lo = tr_get_f64(in, r, c1);
		f->qb[f->nqb].hi = tr_get_f64(in, r, c2);
		f->qb[f->nqb].cnt = tr_get_f64(in, r, c3);
		f->qb[f->nqb].mean = tr_get_f64(in, r, c4);
		f->nqb++;
		return;
	}
	qflush(f, cb, ctx);
	if (strcmp(d->name, "hist") != 0)
		return;
	c1 = colof(d, "n");
	c2 = colof(d, "min");
	c3 = colof(d, "max");
	if (c1 < 0 || c2 < 0 || c3 < 0)
		return;
	f->qkey = tr_strndup(f->buf, klen);
	f->qunit = unit ? tr_strndup(unit, unitn) : NULL;
	f->qn = tr_get_f64(in, r, c1);
	f->qmin = tr_get_f64(in, r, c2);
	f->qmax = tr_get_f64(in, r, c3);
}

int
tr_flat_add(struct tr_flat *f, const struct tr_in *in, const struct tr_rec *r,
    tr_flat_cb cb, void *ctx)
{
	struct colinfo *ci;
	size_t klen = 0, base;
	const char *unit = NULL;
	size_t unitn = 0;
	int c, first = 1;

	if (!r->decl || !tr_flat_wants(f, r->f[0].p, r->f[0].n)) {
		qflush(f, cb, ctx);
		return 0;
	}
	ci = classify(f, r);
	putc_b(f, &klen, 0);
	klen = 0;
	for (c = 1; c < r->nf; c++) {
		if (ci->role[c] == 'u') {
			unit = r->f[c].p;
			unitn = r->f[c].n;
		}
		if (ci->role[c] != 'k')
			continue;
		if (!first)
			putc_b(f, &klen, ';');
		first = 0;
		puts_b(f, &klen, r->decl->names[c], strlen(r->decl->names[c]),
		    0);
		putc_b(f, &klen, '=');
		puts_b(f, &klen, r->f[c].p, r->f[c].n, 1);
	}
	if (f->quant && !f->nkey)
		qtrack(f, in, r, klen, unit, unitn, cb, ctx);
	if (ci->ordinal) {
		long i = tr_map_get(f->omap, f->buf, klen, 1);
		char num[24];

		if ((size_t)i >= f->ordcap) {
			size_t old = f->ordcap;

			tr_grow(&f->ord, &f->ordcap, (size_t)i + 1,
			    sizeof *f->ord);
			memset(f->ord + old, 0,
			    (f->ordcap - old) * sizeof *f->ord);
		}
		*tr_fmt_i64(num, f->ord[i]++) = '\0';
		puts_b(f, &klen, first ? "bin=" : ";bin=", first ? 4 : 5, 0);
		puts_b(f, &klen, num, strlen(num), 0);
		first = 0;
	}
	if (first)
		puts_b(f, &klen, "-", 1, 0);
	base = klen;
	for (c = 1; c < r->nf; c++) {
		struct tr_flatval fv;
		int isint;

		if (ci->role[c] != 'q')
			continue;
		isint = r->decl->schema ? r->decl->schema->kinds[c - 1] !=
		    TR_FLT : memchr(r->f[c].p, '.', r->f[c].n) == NULL &&
		    memchr(r->f[c].p, 'e', r->f[c].n) == NULL;
		fv.v = tr_get_f64(in, r, c);
		if (isint && fv.v == -1 && strcmp(r->decl->names[c], "cpu") == 0)
			continue;	/* not measured */
		fv.type = r->decl->name;
		fv.key = f->buf;
		fv.quantity = r->decl->names[c];
		fv.isint = isint;
		fv.unit = unit;
		fv.unitn = unitn;
		if (!ci->perrank) {
			f->buf[base] = '\0';
			cb(ctx, &fv);
			/* Bytes per call, a quantity of its own. */
			if (c == ci->bytes && ci->calls) {
				double n = tr_get_f64(in, r, ci->calls);

				fv.quantity = "bytes/call";
				fv.v = n > 0 ? fv.v / n : 0;
				fv.isint = 0;
				cb(ctx, &fv);
			}
			continue;
		}
		/* type TAB key TAB quantity names the per-rank series. */
		{
			size_t l = base;
			long i;
			struct series *s;

			putc_b(f, &l, '\t');
			puts_b(f, &l, r->decl->name, strlen(r->decl->name), 0);
			putc_b(f, &l, '\t');
			puts_b(f, &l, fv.quantity, strlen(fv.quantity), 0);
			i = tr_map_get(f->rmap, f->buf, l, 1);
			if ((size_t)i >= f->nrs) {
				tr_grow(&f->rs, &f->rscap, (size_t)i + 1,
				    sizeof *f->rs);
				memset(f->rs + f->nrs, 0,
				    ((size_t)i + 1 - f->nrs) * sizeof *f->rs);
				f->nrs = (size_t)i + 1;
			}
			s = &f->rs[i];
			s->isint = isint;
			tr_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
			s->v[s->n++] = fv.v;
			f->buf[base] = '\0';
		}
	}
	return 1;
}

static double
quant(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

void
tr_flat_end(struct tr_flat *f, tr_flat_cb cb, void *ctx)
{
	size_t k, len;
	char qn[256];

	for (k = 0; k < f->nrs; k++) {
		struct series *s = &f->rs[k];
		const char *name = tr_map_key(f->rmap, (long)k, &len);
		char *t1, *t2, *key;
		struct tr_flatval fv;
		double st[6], mu = 0;
		size_t i;
		int j;

		if (s->n == 0)
			continue;
		key = tr_strndup(name, len);
		t1 = strchr(key, '\t');
		t2 = strchr(t1 + 1, '\t');
		*t1 = *t2 = '\0';
		tr_sort(s->v, s->n, sizeof *s->v, tr_cmp_f64);
		for (i = 0; i < s->n; i++)
			mu += s->v[i];
		st[0] = s->v[0];
		st[1] = quant(s->v, s->n, 0.25);
		st[2] = quant(s->v, s->n, 0.5);
		st[3] = mu / (double)s->n;
		st[4] = quant(s->v, s->n, 0.75);
		st[5] = s->v[s->n - 1];
		memset(&fv, 0, sizeof fv);
		fv.type = t1 + 1;
		fv.key = key;
		fv.isint = 0;
		for (j = 0; j < 6; j++) {
			snprintf(qn, sizeof qn, "%s:%s", t2 + 1, rstat[j]);
			fv.quantity = qn;
			fv.v = st[j];
			fv.isint = s->isint && (j == 0 || j == 5);
			cb(ctx, &fv);
		}
		free(key);
		s->n = 0;
	}
	qflush(f, cb, ctx);
	f->ncache = 0;
	tr_map_clear(f->omap);
	if (f->ord)
		memset(f->ord, 0, f->ordcap * sizeof *f->ord);
}

/* Values are as long as keys may be (a line): the whole value, never
 * cut, since keys that differ only at the end are different keys. */
char *
tr_flat_keyval(const char *key, const char *name)
{
	size_t nl = strlen(name);
	const char *p = key;

	while (*p) {
		const char *e = strchr(p, ';'), *v;
		size_t o = 0;
		char *buf;

		if (!e)
			e = p + strlen(p);
		if ((size_t)(e - p) > nl && memcmp(p, name, nl) == 0 &&
		    p[nl] == '=') {
			buf = tr_malloc((size_t)(e - p) - nl);
			for (v = p + nl + 1; v < e; v++) {
				if (*v == '%' && e - v >= 3) {
					buf[o++] = (char)strtol((char[]){v[1],
					    v[2], 0}, NULL, 16);
					v += 2;
				} else {
					buf[o++] = *v;
				}
			}
			buf[o] = '\0';
			return buf;
		}
		p = *e ? e + 1 : e;
	}
	return NULL;
}

char *
tr_flat_name(const struct tr_flatval *fv, size_t *n)
{
	size_t len = strlen(fv->type) + strlen(fv->key) +
	    strlen(fv->quantity) + 3;
	char *name = tr_malloc(len);

	snprintf(name, len, "%s\t%s\t%s", fv->type, fv->key, fv->quantity);
	*n = len - 1;
	return name;
}
