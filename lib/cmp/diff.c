/* diff.c - two conditions compared key by key, ranked by PARP's metric. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"

double
tr_diff_total(const struct tr_cmp *c)
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
cmpkey(const struct tr_diff *x, const struct tr_diff *y)
{
	int c = memcmp(x->key, y->key, x->kn < y->kn ? x->kn : y->kn);

	return c ? c : (x->kn > y->kn) - (x->kn < y->kn);
}

/* b / a for sorting: time where there was none is a slowdown without
 * bound, whatever its size, and the larger b the worse. */
static double
sortratio(const struct tr_diff *w, double *tie)
{
	*tie = 0;
	if (w->a != 0 || w->b == 0)
		return w->ratio;
	*tie = w->b;
	return w->b > 0 ? INFINITY : -INFINITY;
}

/* The row's place in ORDER: the value sorted by, and a tie-break. */
static void
sortkey(struct tr_diff *w, int order)
{
	w->sort[1] = 0;
	switch (order) {
	case TR_DIFF_KEY: w->sort[0] = 0; break;
	case TR_DIFF_A: w->sort[0] = w->a; break;
	case TR_DIFF_B: w->sort[0] = w->b; break;
	case TR_DIFF_DELTA: w->sort[0] = w->delta; break;
	case TR_DIFF_RATIO: w->sort[0] = sortratio(w, &w->sort[1]); break;
	case TR_DIFF_P: w->sort[0] = -w->p; break;	/* smallest p first */
	default: w->sort[0] = w->m; break;
	}
}

static int
byorder(const void *pa, const void *pb)
{
	const struct tr_diff *x = pa, *y = pb;
	double u = x->sort[0], v = y->sort[0];

	if (u == v) {
		u = x->sort[1];
		v = y->sort[1];
	}
	if (u != v)
		return u < v ? 1 : -1;
	return cmpkey(x, y);
}

static void
fill(struct tr_diff *w, const struct tr_stat *sa, const struct tr_stat *sb,
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

struct tr_diff *
tr_diff_rows(const struct tr_cmp *ca, const struct tr_cmp *cb, int order,
    size_t *nrows, struct tr_diff *tot)
{
	double ta = tr_diff_total(ca), tb = tr_diff_total(cb);
	double t = ta > tb ? ta : tb;
	size_t i, n = tr_cmp_len(ca) + tr_cmp_len(cb), nr = 0, kn;
	struct tr_diff *rows = tr_calloc(n ? n : 1, sizeof *rows);

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
		fill(&rows[nr], ina ? s : os, ina ? os : s, t);
		sortkey(&rows[nr++], order);
	}
	tr_sort(rows, nr, sizeof *rows, byorder);

	memset(tot, 0, sizeof *tot);
	tot->key = TR_CMP_TOTAL;
	tot->kn = strlen(TR_CMP_TOTAL);
	{
		long ia = tr_cmp_find(ca, TR_CMP_TOTAL, tot->kn);
		long ib = tr_cmp_find(cb, TR_CMP_TOTAL, tot->kn);
		struct tr_stat sa = {1, ta, 0, ta, ta}, sb = {1, tb, 0, tb, tb};

		tot->only = '-';
		fill(tot, ia >= 0 ? tr_cmp_stat(ca, ia) : &sa,
		    ib >= 0 ? tr_cmp_stat(cb, ib) : &sb, t);
	}
	*nrows = nr;
	return rows;
}

/* Unadjusted, a few of dozens of unchanged keys tested at once would
 * pass the significance level by chance every night. */
size_t
tr_diff_adjust(struct tr_diff *rows, size_t nr, struct tr_diff *tot,
    int method)
{
	double *p = tr_calloc(nr + 1, sizeof *p), *adj = tr_calloc(nr + 1,
	    sizeof *adj);
	size_t i, m;

	for (i = 0; i < nr; i++)
		p[i] = rows[i].p;
	p[nr] = tot->p;
	m = tr_padjust(p, adj, nr + 1, method);
	for (i = 0; i < nr; i++)
		rows[i].padj = adj[i];
	tot->padj = adj[nr];
	free(p);
	free(adj);
	return m;
}
