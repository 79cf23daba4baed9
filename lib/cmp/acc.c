/* acc.c - predicted and measured values paired by type, key and quantity. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

struct val {
	double v[2];		/* predicted, measured */
	int have[2];
};

/* Where a bin beyond HMAXBINS was read: the error names its line. */
struct far {
	long i;			/* the map's index */
	const char *file;
	long line;
};

struct tr_acc {
	struct tr_map *map;	/* "type TAB key TAB quantity" */
	struct val *vals;	/* by the map's index */
	size_t cap;
	struct far *far;
	size_t nfar, farcap;
	char **sel[2];		/* quantities, keys taken; NULL: all */
	int nsel[2];
};

/* The bins compared per histogram, at most: each breakpoint is priced
 * against every bin, and tr-hist makes 20 unless told more. */
#define HMAXBINS 4096

struct tr_acc *
tr_acc_new(void)
{
	struct tr_acc *a = tr_calloc(1, sizeof *a);

	a->map = tr_map_new();
	return a;
}

static char **
split(const char *s, int *n)
{
	char **v = NULL, *d = tr_strdup(s), *p, *q;
	size_t cap = 0;

	*n = 0;
	for (p = d; p; p = q) {
		if ((q = strchr(p, ',')))
			*q++ = '\0';
		tr_grow(&v, &cap, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = tr_strdup(p);
	}
	free(d);
	return v;
}

void
tr_acc_only(struct tr_acc *a, const char *quantities, const char *keys)
{
	if (quantities)
		a->sel[0] = split(quantities, &a->nsel[0]);
	if (keys)
		a->sel[1] = split(keys, &a->nsel[1]);
}

static int
taken(const struct tr_acc *a, int which, const char *s)
{
	int i;

	if (!a->sel[which])
		return 1;
	for (i = 0; i < a->nsel[which]; i++)
		if (strcmp(a->sel[which][i], s) == 0)
			return 1;
	return 0;
}

void
tr_acc_free(struct tr_acc *a)
{
	int i, j;

	if (!a)
		return;
	for (j = 0; j < 2; j++) {
		for (i = 0; i < a->nsel[j]; i++)
			free(a->sel[j][i]);
		free(a->sel[j]);
	}
	tr_map_free(a->map);
	free(a->vals);
	free(a->far);
	free(a);
}

/* The ordinal K of a bin's key ("...;bin=K", the part flat.c puts
 * last), or -1. */
static long
ordinal(const struct tr_flatval *fv)
{
	const char *p = strrchr(fv->key, ';');

	p = p ? p + 1 : fv->key;
	if (strcmp(fv->type, "bin") != 0 || strncmp(p, "bin=", 4) != 0)
		return -1;
	return strtol(p + 4, NULL, 10);
}

void
tr_acc_set(struct tr_acc *a, int side, const struct tr_in *in,
    const struct tr_flatval *fv)
{
	size_t len, old = tr_map_len(a->map);
	char *name;
	long i;

	if (!taken(a, 0, fv->quantity) || !taken(a, 1, fv->key))
		return;
	name = tr_flat_name(fv, &len);
	i = tr_map_get(a->map, name, len, 1);
	free(name);
	if (in && (size_t)i >= old && ordinal(fv) >= HMAXBINS) {
		tr_grow(&a->far, &a->farcap, a->nfar + 1, sizeof *a->far);
		a->far[a->nfar].i = i;
		a->far[a->nfar].file = tr_in_file(in);
		a->far[a->nfar++].line = tr_in_line(in);
	}
	tr_growz(&a->vals, &a->cap, (size_t)i + 1, sizeof *a->vals);
	a->vals[i].v[side] = fv->v;
	a->vals[i].have[side] = 1;
}

size_t
tr_acc_len(const struct tr_acc *a)
{
	return tr_map_len(a->map);
}

const char *
tr_acc_key(const struct tr_acc *a, long i, size_t *n)
{
	return tr_map_key(a->map, i, n);
}

int
tr_acc_get(const struct tr_acc *a, long i, double v[2])
{
	v[0] = a->vals[i].v[0];
	v[1] = a->vals[i].v[1];
	return a->vals[i].have[0] | a->vals[i].have[1] << 1;
}


/* A quantity of NAME's key, both sides, or -1. */
static long
sibling(const struct tr_acc *a, const char *name, size_t len, const char *q,
    double v[2])
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
	i = tr_map_get(a->map, k, kl, 0);
	free(k);
	if (i < 0 || !a->vals[i].have[0] || !a->vals[i].have[1])
		return -1;
	v[0] = a->vals[i].v[0];
	v[1] = a->vals[i].v[1];
	return i;
}

static int
same(double x, double y)
{
	return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

int
tr_acc_comparable(const struct tr_acc *a, long i)
{
	size_t len;
	const char *name = tr_map_key(a->map, i, &len), *q = name + len;
	double lo[2], hi[2];

	while (q > name && q[-1] != '\t')
		q--;
	if (strncmp(name, "hist\t", 5) == 0)
		return strcmp(q, "width") != 0 && strcmp(q, "bins") != 0;
	if (strncmp(name, "bin\t", 4) != 0)
		return 1;
	return sibling(a, name, len, "lo", lo) >= 0 &&
	    sibling(a, name, len, "hi", hi) >= 0 && same(lo[0], lo[1]) &&
	    same(hi[0], hi[1]);
}

/* A bin's values as tr-fit reads the quantiles, spread evenly around
 * the bin's mean: read as filling the bin, 1,248 stencil bursts of mean
 * 213 in a bin from 0 to 2048 (a few outliers set the width) put
 * three quarters of them above 298, where the prediction had q90, and
 * gave KS 0.76 where the quantiles were 77 to 86 % accurate. NAME is
 * the hist's "hist TAB key TAB mean". */
static void
binspans(const struct tr_acc *a, const char *name, size_t len, int s,
    struct tr_hbin *b, int nb)
{
	double mm[2] = {-INFINITY, INFINITY};
	char *k = tr_malloc(len + 1);
	long i;
	int j;

	for (j = 0; j < 2; j++) {
		snprintf(k, len + 1, "%.*s%s", (int)(len - 4), name,
		    j ? "max" : "min");
		i = tr_map_get(a->map, k, strlen(k), 0);
		if (i >= 0 && a->vals[i].have[s])
			mm[j] = a->vals[i].v[s];
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

static _Noreturn void
toomany(const struct tr_acc *acc, long i, int kn, const char *key, long k)
{
	char msg[600];
	size_t j;

	snprintf(msg, sizeof msg, "histogram %.*s: bin %ld: more than %d "
	    "bins to compare", kn, key, k, HMAXBINS);
	for (j = 0; j < acc->nfar; j++)
		if (acc->far[j].i == i)
			tr_die_at(acc->far[j].file, acc->far[j].line, "%s",
			    msg);
	/* a bin of a section's summary (tr_flat_end), read by no reader */
	tr_die(TR_EXIT_DATA, "%s", msg);
}

/* The bins of the hist "hist TAB key TAB mean" NAME (HL bytes) on both
 * sides, keyed "bin TAB key;bin=K TAB quantity"; 0 if it has none. */
static int
hbins(const struct tr_acc *acc, const char *name, size_t hl,
    struct tr_hbin **pa, int *pna, struct tr_hbin **pb, int *pnb)
{
	const struct val *vals = acc->vals;
	struct tr_hbin *a = NULL, *b = NULL;
	size_t j, len, pl, acap = 0, bcap = 0;
	int na = 0, nb = 0, seen = 0;
	char *prefix = tr_malloc(hl + 1);

	pl = (size_t)snprintf(prefix, hl + 1, "bin\t%.*s;bin=",
	    (int)(hl - 10), name + 5);
	for (j = 0; j < tr_map_len(acc->map); j++) {
		const char *bn = tr_map_key(acc->map, (long)j, &len);
		char *end;
		long k;
		const char *q;

		if (strncmp(bn, prefix, pl) != 0)
			continue;
		k = strtol(bn + pl, &end, 10);
		if (*end != '\t' || k < 0)
			continue;
		if (k >= HMAXBINS)
			toomany(acc, (long)j, (int)(hl - 10), name + 5, k);
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
	*pa = a;
	*pna = na;
	*pb = b;
	*pnb = nb;
	return seen;
}

void
tr_acc_hists(const struct tr_acc *acc, tr_acc_hcb cb, void *ctx)
{
	size_t i, len;

	for (i = 0; i < tr_map_len(acc->map); i++) {
		const char *name = tr_map_key(acc->map, (long)i, &len);
		char *part, *fld, *key;
		struct tr_hbin *a, *b;
		int na, nb, seen;
		double emd, ks;

		if (len < 9 || memcmp(name, "hist\t", 5) != 0 ||
		    strcmp(name + len - 5, "\tmean") != 0)
			continue;
		seen = hbins(acc, name, len, &a, &na, &b, &nb);
		if (seen) {
			binspans(acc, name, len, 0, a, na);
			binspans(acc, name, len, 1, b, nb);
			tr_hdist(a, na, b, nb, &emd, &ks);
		}
		free(a);
		free(b);
		if (!seen)
			continue;
		/* The key part of "hist TAB key TAB mean". */
		part = tr_strndup(name + 5, len - 10);
		fld = tr_flat_keyval(part, "field");
		key = tr_flat_keyval(part, "key");
		cb(ctx, fld ? fld : "-", key ? key : "-", emd, ks);
		free(part);
		free(fld);
		free(key);
	}
}

void
tr_acc_row(struct tr_out *o, const char *type, const char *name,
    size_t len, const double v[2], double a)
{
	const char *t1, *t2;
	char p[32], m[32];

	if (type) {
		tr_out_str(o, type);
		tr_out_c(o, '\t');
		tr_out_write(o, name, len);
		tr_out_tf64(o, v[0]);
		tr_out_tf64(o, v[1]);
		tr_out_tf64(o, a);
		tr_out_c(o, '\n');
		return;
	}
	t1 = memchr(name, '\t', len);
	t2 = memchr(t1 + 1, '\t', len - (size_t)(t1 + 1 - name));
	tr_out_printf(o, "%-6.*s %-44.*s %-12s %14s %14s %8.2f%%\n",
	    (int)(t1 - name), name, (int)(t2 - t1 - 1), t1 + 1, t2 + 1,
	    tr_f64text(p, v[0]), tr_f64text(m, v[1]), a);
}
