/* stats.c - running statistics and Welch's t-test, with the t
 * distribution from the regularized incomplete beta function, and
 * p-values adjusted for many tests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

void
tr_stat_add(struct tr_stat *s, double v)
{
	double d;

	if (s->n == 0 || v < s->min)
		s->min = v;
	if (s->n == 0 || v > s->max)
		s->max = v;
	s->n++;
	d = v - s->mean;
	s->mean += d / s->n;
	s->m2 += d * (v - s->mean);
}

/* Chan et al.'s pairwise combination, so that summaries of parts give
 * the summary of the whole. */
void
tr_stat_merge(struct tr_stat *s, const struct tr_stat *t)
{
	double n, d;

	if (t->n == 0)
		return;
	if (s->n == 0) {
		*s = *t;
		return;
	}
	n = s->n + t->n;
	d = t->mean - s->mean;
	s->m2 += t->m2 + d * d * s->n * t->n / n;
	s->mean += d * t->n / n;
	s->n = n;
	if (t->min < s->min)
		s->min = t->min;
	if (t->max > s->max)
		s->max = t->max;
}

double
tr_stat_sd(const struct tr_stat *s)
{
	return s->n > 1 && s->m2 > 0 ? sqrt(s->m2 / (s->n - 1)) : 0;
}

/* Continued fraction of I_x(a,b) by the modified Lentz method; converges
 * fast for x < (a+1)/(a+b+2). */
static double
betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, del, aa;
	int m, m2;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double
tr_incbeta(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double
tr_t_p2(double t, double df)
{
	if (!isfinite(t))
		return 0;
	return tr_incbeta(df / 2, 0.5, df / (df + t * t));
}

double
tr_welch(const struct tr_stat *a, const struct tr_stat *b)
{
	double va, vb, se2, t, df;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = tr_stat_sd(a);
	vb = tr_stat_sd(b);
	va = va * va / a->n;
	vb = vb * vb / b->n;
	se2 = va + vb;
	/* No spread at all: the means differ or they do not. */
	if (!(se2 > 0) || se2 < 1e-24 * (a->mean * a->mean + b->mean * b->mean))
		return a->mean == b->mean ? 1 : 0;
	t = (a->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return tr_t_p2(t, df);
}

struct pidx {
	double p;
	size_t i;
};

static int
bypidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

size_t
tr_padjust(const double *p, double *adj, size_t n, int method)
{
	struct pidx *v = tr_calloc(n ? n : 1, sizeof *v);
	size_t i, m = 0;
	double run;

	for (i = 0; i < n; i++) {
		adj[i] = p[i];
		if (p[i] >= 0) {
			v[m].p = p[i];
			v[m++].i = i;
		}
	}
	tr_sort(v, m, sizeof *v, bypidx);
	/* Holm steps down from the smallest p, BH up from the largest;
	 * each keeps adjusted values in the order of the p-values. */
	if (method == TR_PADJ_HOLM) {
		for (run = 0, i = 0; i < m; i++) {
			run = fmax(run, fmin(1, (double)(m - i) * v[i].p));
			adj[v[i].i] = run;
		}
	} else if (method == TR_PADJ_BH) {
		for (run = 1, i = m; i-- > 0;) {
			run = fmin(run, (double)m / (double)(i + 1) * v[i].p);
			adj[v[i].i] = run;
		}
	}
	free(v);
	return m;
}

double
tr_accuracy(double pred, double meas)
{
	double m = fmax(fabs(pred), fabs(meas));

	if (m == 0)
		return 100;
	return (1 - fabs(pred - meas) / m) * 100;
}

void
tr_acc_summary(const double *score, int n, struct tr_accsum *s)
{
	double *v;
	int i, j, k;

	memset(s, 0, sizeof *s);
	s->n = n;
	if (n == 0)
		return;
	v = tr_malloc((size_t)n * sizeof *v);
	memcpy(v, score, (size_t)n * sizeof *v);
	tr_sort(v, (size_t)n, sizeof *v, tr_cmp_f64);
	s->median = (v[(n - 1) / 2] + v[n / 2]) / 2;
	s->min = v[0];
	for (i = 0; i < n; i++) {
		s->in5 += v[i] >= 95;
		s->in10 += v[i] >= 90;
		s->in25 += v[i] >= 75;
	}
	s->in5 *= 100.0 / n;
	s->in10 *= 100.0 / n;
	s->in25 *= 100.0 / n;
	free(v);
	/* The lowest, first seen first among equals: a stable insertion
	 * into TR_ACC_WORST places. */
	for (i = 0; i < n; i++) {
		for (j = s->nworst; j > 0 && score[s->worst[j - 1]] > score[i];
		    j--)
			;
		if (j >= TR_ACC_WORST)
			continue;
		if (s->nworst < TR_ACC_WORST)
			s->nworst++;
		for (k = s->nworst - 1; k > j; k--)
			s->worst[k] = s->worst[k - 1];
		s->worst[j] = i;
	}
}
