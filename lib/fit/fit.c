/* fit.c - models of a quantity as a function of the process count n and
 * the problem size N: least squares, the four ScalaExtrap models, and a
 * search over Performance Model Normal Form hypotheses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

#define MAXP 4			/* coefficients of a hypothesis */
#define MAXPT 256		/* distinct points: 16 scales x 16 sizes */

/* PMNF exponents of n (as fractions, for exact printing) and of log2 n. */
static const int inum[] = {-1, -1, 0, 1, 1, 1, 2, 3, 1, 5, 4, 3, 5, 7, 2,
	9, 7, 5, 8, 11, 3};
static const int iden[] = {1, 2, 1, 4, 3, 2, 3, 4, 1, 4, 3, 2, 3, 4, 1,
	4, 3, 2, 3, 4, 1};
#define NI ((int)(sizeof inum / sizeof inum[0]))
#define NJ 3

static void
seterr(char *err, size_t errsz, const char *msg)
{
	if (errsz > 0) {
		strncpy(err, msg, errsz - 1);
		err[errsz - 1] = '\0';
	}
}

static int
cmppt(const void *a, const void *b)
{
	const struct tr_fitpt *p = a, *q = b;

	if (p->N != q->N)
		return p->N < q->N ? -1 : 1;
	if (p->n != q->n)
		return p->n < q->n ? -1 : 1;
	return tr_cmp_f64(&p->t, &q->t);
}

int
tr_fit_reduce(struct tr_fitpt *p, int m, int red, int *reps, double *noise,
    char *err, size_t errsz)
{
	int i, j, k, out = 0, minrep = 0, nn = 0;
	double nsum = 0;

	for (i = 0; i < m; i++) {
		if (!isfinite(p[i].n) || !isfinite(p[i].N) ||
		    !isfinite(p[i].t)) {
			seterr(err, errsz, "value is not a finite number");
			return -1;
		}
		if (p[i].n <= 0) {
			seterr(err, errsz, "process count n must be positive");
			return -1;
		}
		if (p[i].N < 0) {
			seterr(err, errsz, "problem size N must be positive");
			return -1;
		}
	}
	tr_sort(p, (size_t)m, sizeof *p, cmppt);
	for (i = 0; i < m; i = j) {
		double v = 0;

		for (j = i; j < m && p[j].n == p[i].n && p[j].N == p[i].N; j++)
			;
		switch (red) {
		case TR_RED_MEAN:
			for (k = i; k < j; k++)
				v += p[k].t;
			v /= j - i;
			break;
		case TR_RED_MIN: v = p[i].t; break;
		case TR_RED_MAX: v = p[j - 1].t; break;
		default:
			v = (j - i) % 2 ? p[i + (j - i) / 2].t :
			    (p[i + (j - i) / 2 - 1].t + p[i + (j - i) / 2].t) / 2;
		}
		if (j - i >= 2) {
			double mu = 0, ss = 0;

			for (k = i; k < j; k++)
				mu += p[k].t;
			mu /= j - i;
			for (k = i; k < j; k++)
				ss += (p[k].t - mu) * (p[k].t - mu);
			if (mu != 0) {
				nsum += sqrt(ss / (j - i - 1)) / fabs(mu);
				nn++;
			}
		}
		if (minrep == 0 || j - i < minrep)
			minrep = j - i;
		p[out] = p[i];
		p[out++].t = v;
	}
	if (reps)
		*reps = minrep;
	if (noise)
		*noise = nn ? 100 * nsum / nn : 0;
	return out;
}

/* Least squares by modified Gram-Schmidt on unit-scaled columns. A is
 * column-major m x p and is destroyed. -1 if the columns are dependent. */
static int
lsq(double *A, int m, int p, const double *y, double *x)
{
	double R[MAXP][MAXP], qty[MAXP], sc[MAXP];
	int i, j, k, pass;

	for (j = 0; j < p; j++) {
		double *a = A + (size_t)j * m, s = 0;

		for (i = 0; i < m; i++)
			s += a[i] * a[i];
		if (!(s > 0) || !isfinite(s))
			return -1;
		sc[j] = sqrt(s);
		for (i = 0; i < m; i++)
			a[i] /= sc[j];
	}
	for (j = 0; j < p; j++) {
		double *a = A + (size_t)j * m, s = 0;

		for (k = 0; k < j; k++)
			R[k][j] = 0;
		/* Twice, so nearly parallel columns stay orthogonal. */
		for (pass = 0; pass < 2; pass++) {
			for (k = 0; k < j; k++) {
				double *q = A + (size_t)k * m, r = 0;

				for (i = 0; i < m; i++)
					r += q[i] * a[i];
				R[k][j] += r;
				for (i = 0; i < m; i++)
					a[i] -= r * q[i];
			}
		}
		for (i = 0; i < m; i++)
			s += a[i] * a[i];
		s = sqrt(s);
		if (s < 1e-10)
			return -1;
		R[j][j] = s;
		for (i = 0; i < m; i++)
			a[i] /= s;
		qty[j] = 0;
		for (i = 0; i < m; i++)
			qty[j] += a[i] * y[i];
	}
	for (j = p - 1; j >= 0; j--) {
		double s = qty[j];

		for (k = j + 1; k < p; k++)
			s -= R[j][k] * x[k];
		x[j] = s / R[j][j];
	}
	for (j = 0; j < p; j++)
		x[j] /= sc[j];
	return 0;
}

static double
termval(const struct tr_fitterm *t, double n, double N)
{
	double v = 1;

	if (t->i != 0)
		v *= pow(n, t->i);
	if (t->j != 0)
		v *= pow(log2(n), t->j);
	if (t->k != 0)
		v *= pow(N, t->k);
	if (t->l != 0)
		v *= pow(log2(N), t->l);
	return v;
}

double
tr_fit_eval(const struct tr_fit *f, double n, double N)
{
	double v = f->c0;
	int k;

	for (k = 0; k < f->nterm; k++)
		v += f->t[k].c * termval(&f->t[k], n, N);
	return v;
}

static double
smape1(double pred, double meas)
{
	double d = fabs(pred) + fabs(meas);

	return d > 0 ? 2 * fabs(pred - meas) / d : 0;
}

/* Fits c0 + sum c_k term_k to the points other than skip (-1: none);
 * fills f's coefficients. */
static int
fit_terms(const struct tr_fitpt *p, int m, int skip, struct tr_fit *f)
{
	double A[MAXP * MAXPT], y[MAXPT], x[MAXP];
	int i, k, r = 0, c = f->noconst ? 0 : 1, np = f->nterm + c;

	if (m > MAXPT)
		return -1;
	for (i = 0; i < m; i++) {
		if (i == skip)
			continue;
		if (c)
			A[r] = 1;
		for (k = 0; k < f->nterm; k++)
			A[(size_t)(k + c) * (m - (skip >= 0)) + r] =
			    termval(&f->t[k], p[i].n, p[i].N);
		y[r++] = p[i].t;
	}
	if (r < np || lsq(A, r, np, y, x) < 0)
		return -1;
	f->c0 = c ? x[0] : 0;
	for (k = 0; k < f->nterm; k++)
		f->t[k].c = x[k + c];
	for (k = 0; k < np; k++)
		if (!isfinite(x[k]))
			return -1;
	return 0;
}

static void
stats(const struct tr_fitpt *p, int m, int np, struct tr_fit *f)
{
	double mu = 0, sst = 0, rss = 0, sm = 0, r2;
	int i;

	for (i = 0; i < m; i++)
		mu += p[i].t;
	mu /= m;
	for (i = 0; i < m; i++) {
		double e = tr_fit_eval(f, p[i].n, p[i].N);

		rss += (p[i].t - e) * (p[i].t - e);
		sst += (p[i].t - mu) * (p[i].t - mu);
		sm += smape1(e, p[i].t);
	}
	/* Rounding noise on exact data must not read as a poor fit. */
	if (rss <= 1e-24 * (sst + mu * mu * m))
		rss = 0;
	if (sst > 0)
		r2 = 1 - rss / sst;
	else
		r2 = rss > 0 ? 0 : 1;
	f->rss = rss;
	f->adjr2 = m > np ? 1 - (1 - r2) * (m - 1) / (m - np) : r2;
	f->smape = 100 * sm / m;
}

/* Rounding residue of exact data (99.99999999999999, 1.7e-15) made
 * plain, so that exact counts print as exact models. */
double
tr_fit_snap(double c, double scale)
{
	double mag, r;

	if (fabs(c) <= 1e-12 * scale)
		return 0;
	if (c == 0)
		return 0;
	mag = floor(log10(fabs(c))) - 8;
	/* Powers of ten up to 1e22 are exact: divide by them, never
	 * multiply by their inexact inverses. */
	if (mag < 0 && mag >= -22)
		r = round(c * pow(10, -mag)) / pow(10, -mag);
	else
		r = round(c / pow(10, mag)) * pow(10, mag);
	return fabs(r - c) <= 1e-11 * fabs(c) ? r : c;
}

static void
tidy(const struct tr_fitpt *p, int m, struct tr_fit *f)
{
	double scale = 0;
	int i, k;

	for (i = 0; i < m; i++)
		if (fabs(p[i].t) > scale)
			scale = fabs(p[i].t);
	f->c0 = tr_fit_snap(f->c0, scale);
	for (k = 0; k < f->nterm; k++)
		f->t[k].c = tr_fit_snap(f->t[k].c, 0);
}

/* Leave-one-out SMAPE of a hypothesis (its terms' exponents set). */
static double
loo_terms(const struct tr_fitpt *p, int m, struct tr_fit *h)
{
	struct tr_fit g = *h;
	double s = 0;
	int i;

	for (i = 0; i < m; i++) {
		if (fit_terms(p, m, i, &g) < 0)
			return INFINITY;
		s += smape1(tr_fit_eval(&g, p[i].n, p[i].N), p[i].t);
	}
	return 100 * s / m;
}

static void
fmt_exp(char **pp, char *end, const char *var, int num, int den, int lg)
{
	char *p = *pp;

	if (lg) {
		p += snprintf(p, (size_t)(end - p), "*log2(%s)", var);
		if (num != 1)
			p += snprintf(p, (size_t)(end - p), "^%d", num);
	} else if (num == 0) {
		return;
	} else if (den == 1 && num == 1) {
		p += snprintf(p, (size_t)(end - p), "*%s", var);
	} else if (den == 1 && num > 0) {
		p += snprintf(p, (size_t)(end - p), "*%s^%d", var, num);
	} else if (den == 1) {
		p += snprintf(p, (size_t)(end - p), "*%s^(%d)", var, num);
	} else {
		p += snprintf(p, (size_t)(end - p), "*%s^(%d/%d)", var, num,
		    den);
	}
	*pp = p < end ? p : end - 1;
}

/* Exponents are kept as doubles; printing finds their fraction again. */
static void
frac(double x, int *num, int *den)
{
	int d, k;

	for (d = 1; d <= 12; d++) {
		k = (int)lround(x * d);
		if (fabs(x * d - k) < 1e-9) {
			*num = k;
			*den = d;
			return;
		}
	}
	*num = (int)lround(x * 1000);
	*den = 1000;
}

void
tr_fit_format(struct tr_fit *f)
{
	char *p = f->expr, *end = f->expr + sizeof f->expr, buf[32];
	int k, num, den;

	p += snprintf(p, (size_t)(end - p), "%s", tr_f64str(buf, f->c0));
	for (k = 0; k < f->nterm && p < end - 1; k++) {
		const struct tr_fitterm *t = &f->t[k];
		double c = t->c;

		if (signbit(c)) {
			c = -c;
			p += snprintf(p, (size_t)(end - p), " - ");
		} else {
			p += snprintf(p, (size_t)(end - p), " + ");
		}
		if (p >= end - 1)
			break;
		p += snprintf(p, (size_t)(end - p), "%s", tr_f64str(buf, c));
		if (p >= end - 1)
			break;
		frac(t->i, &num, &den);
		fmt_exp(&p, end, "n", num, den, 0);
		frac(t->j, &num, &den);
		if (num)
			fmt_exp(&p, end, "n", num, den, 1);
		frac(t->k, &num, &den);
		fmt_exp(&p, end, "N", num, den, 0);
		frac(t->l, &num, &den);
		if (num)
			fmt_exp(&p, end, "N", num, den, 1);
	}
}

/* The way the measured values go as n grows, for one problem size: 1
 * up, -1 down, 0 both ways, flat, or over several sizes. */
static int
trend(const struct tr_fitpt *p, int m)
{
	int i, up = 0, down = 0;

	for (i = 1; i < m; i++) {
		if (p[i].N != p[0].N)
			return 0;
		up |= p[i].t > p[i - 1].t;
		down |= p[i].t < p[i - 1].t;
	}
	return up == down ? 0 : up ? 1 : -1;
}

/* What three to five points cannot tell apart, the model must not
 * invent: from the smallest scale measured to 2^12 times the largest,
 * values all of one sign keep it (a count, time or size never goes
 * below zero, nor a positive one to zero), and values that only rise
 * (or only fall) with n do not turn back. Three points rising and
 * levelling off are fitted as well by c0 + c*log2(n)^2/sqrt(n), which
 * peaks at n = 55 and falls for ever after. */
static int
plausible(const struct tr_fitpt *p, int m, const struct tr_fit *h)
{
	double lo = INFINITY, hi = 0, mN = 0, big = 0, v, prev = 0, x;
	int i, k, pos = 1, neg = 1, nneg = 1, npos = 1, dir = trend(p, m);

	for (i = 0; i < m; i++) {
		pos &= p[i].t > 0;
		neg &= p[i].t < 0;
		nneg &= p[i].t >= 0;
		npos &= p[i].t <= 0;
		lo = p[i].n < lo ? p[i].n : lo;
		hi = p[i].n > hi ? p[i].n : hi;
		mN = p[i].N > mN ? p[i].N : mN;
		big = fabs(p[i].t) > big ? fabs(p[i].t) : big;
	}
	if (!nneg && !npos)
		return 1;
	/* Four points an octave; rounding is no turn. */
	for (k = 0; (x = lo * pow(2, k / 4.0)) <= hi * 4096; k++) {
		v = tr_fit_eval(h, x, mN);
		if (!isfinite(v) || (pos && v <= 0) || (neg && v >= 0) ||
		    (nneg && v < -1e-9 * big) || (npos && v > 1e-9 * big))
			return 0;
		if (k > 0 && dir * (v - prev) < -1e-9 * (fabs(v) + big))
			return 0;
		prev = v;
	}
	for (k = 1; mN > 0 && k <= 12; k++) {
		v = tr_fit_eval(h, hi * pow(2, k), mN * pow(2, k));
		if (!isfinite(v) || (pos && v <= 0) || (neg && v >= 0) ||
		    (nneg && v < -1e-9 * big) || (npos && v > 1e-9 * big))
			return 0;
	}
	return 1;
}

/* Replaces *best by h (fitted on all points) when h cross-validates
 * better by more than margin percentage points and is plausible. */
static void
consider(const struct tr_fitpt *p, int m, struct tr_fit *h,
    struct tr_fit *best, double margin)
{
	h->cvsmape = loo_terms(p, m, h);
	if (!isfinite(h->cvsmape) || (best->nterm >= 0 &&
	    !(h->cvsmape < best->cvsmape - margin - 1e-9)))
		return;
	if (fit_terms(p, m, -1, h) < 0 || !plausible(p, m, h))
		return;
	*best = *h;
}

static double
rss_of(const struct tr_fitpt *p, int m, const struct tr_fit *f)
{
	double s = 0, e;
	int i;

	for (i = 0; i < m; i++) {
		e = p[i].t - tr_fit_eval(f, p[i].n, p[i].N);
		s += e * e;
	}
	return s;
}

/* Among some two thousand sums of two terms, one fits the noise of five
 * points well enough to cross-validate better than the true single
 * term (3 + 2*n*log2(n) with 1 % noise: chosen 0 times in 30, and 30 %
 * off at 16 times the largest n). The extra term must also pay for
 * its coefficients: the F-test of the residuals against the simpler
 * model at the 1 % level (approximate, as the two need not be nested;
 * exact data passes it whatever the level). */
static int
needed(const struct tr_fitpt *p, int m, const struct tr_fit *simple,
    const struct tr_fit *h)
{
	double r0 = rss_of(p, m, simple), r1 = rss_of(p, m, h), d1, d2, F;

	d1 = (h->nterm + !h->noconst) - (simple->nterm + !simple->noconst);
	d2 = m - (h->nterm + !h->noconst);
	if (d1 <= 0 || d2 <= 0 || !(r1 < r0))
		return 0;
	if (r1 <= 1e-24 * r0)
		return 1;
	F = (r0 - r1) / d1 / (r1 / d2);
	return tr_incbeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * F)) < 0.01;
}

static void
setterm(struct tr_fitterm *t, double i, double j, double k, double l)
{
	t->c = 0;
	t->i = i;
	t->j = j;
	t->k = k;
	t->l = l;
}

/* A sum of two terms replaces the best single term only when it
 * cross-validates better by the margin and its extra coefficient pays
 * for itself. */
static void
take_two(const struct tr_fitpt *p, int m, struct tr_fit *best,
    const struct tr_fit *two, double margin)
{
	if (two->nterm == 2 && two->cvsmape < best->cvsmape -
	    (best->nterm == 0 ? margin : margin / 2) - 1e-9 &&
	    needed(p, m, best, two))
		*best = *two;
}

/* c0 + c*term gives way to c*term when that cross-validates as well
 * within the noise: with three points the noise alone buys the constant
 * (1e9/n with 3 % noise at 2, 4 and 8 ranks was fitted by 1980508 +
 * 998971063/n, 200 % high at 1024 ranks, where c0 was 1.6 % of the
 * smallest value). Only at three points: with more, the margin let a
 * real serial part go (3000 + 1e6/n at 4..64 ranks, 3 % noise: 1021496/n,
 * 75 % low at 1024), and a constant the F-test wants stays (exact
 * 1000 + 1e6/n at 2, 4, 8). */
static void
drop_const(const struct tr_fitpt *p, int m, struct tr_fit *best,
    double margin)
{
	struct tr_fit g = *best;

	if (best->nterm != 1 || best->noconst || m > 3)
		return;
	g.noconst = 1;
	g.cvsmape = loo_terms(p, m, &g);
	if (!(g.cvsmape <= best->cvsmape + margin) ||
	    fit_terms(p, m, -1, &g) < 0 || !plausible(p, m, &g) ||
	    needed(p, m, &g, best))
		return;
	*best = g;
}

/* The best single factor in one parameter (0: n, 1: N), judged by
 * leave-one-out over the slices in which the other parameter is fixed. */
static int
best_factor(const struct tr_fitpt *p, int m, int which,
    struct tr_fitterm *out)
{
	struct tr_fitpt s[MAXPT];
	double best = INFINITY;
	int a, b, k, i, j, ok = 0;

	/* Without a constant first, as for one parameter: n*N with 3 %
	 * noise took c0 + c*n^(3/4)*log2(n) on its slices, where each
	 * slice alone is fitted by c*n. */
	for (k = 0; k < 2 * NI; k++) {
		for (b = 0, a = k % NI; b < NJ; b++) {
			struct tr_fit h;
			double tot = 0;
			int slices = 0;

			if (inum[a] == 0 && b == 0)
				continue;
			memset(&h, 0, sizeof h);
			h.nterm = 1;
			h.noconst = k < NI;
			if (which == 0)
				setterm(&h.t[0], (double)inum[a] / iden[a], b,
				    0, 0);
			else
				setterm(&h.t[0], 0, 0,
				    (double)inum[a] / iden[a], b);
			for (i = 0; i < m; i++) {
				int ns = 0;
				double other = which ? p[i].n : p[i].N;
				int first = 1;

				for (j = 0; j < i; j++)
					if ((which ? p[j].n : p[j].N) == other)
						first = 0;
				if (!first)
					continue;
				for (j = 0; j < m; j++)
					if ((which ? p[j].n : p[j].N) == other)
						s[ns++] = p[j];
				if (ns < 3)
					continue;
				tot += loo_terms(s, ns, &h);
				slices++;
			}
			if (slices && tot / slices < best) {
				best = tot / slices;
				*out = h.t[0];
				ok = 1;
			}
		}
	}
	return ok ? 0 : -1;
}

int
tr_fit_pmnf(struct tr_fitpt *p, int m, int red, struct tr_fit *f, char *err,
    size_t errsz)
{
	struct tr_fit h, best, two;
	double noise, margin;
	int reps, a, b, c, d, twoN = 0, i;

	m = tr_fit_reduce(p, m, red, &reps, &noise, err, errsz);
	if (m < 0)
		return -1;
	if (m > MAXPT) {
		seterr(err, errsz, "more than 256 distinct points");
		return -1;
	}
	for (i = 1; i < m; i++)
		if (p[i].N != p[0].N)
			twoN = 1;
	if (m < 3) {
		seterr(err, errsz, "too few points: pmnf needs values at 3 "
		    "or more scales");
		return -1;
	}
	margin = noise * 2 > 0.5 ? noise * 2 : 0.5;
	memset(&best, 0, sizeof best);
	best.nterm = -1;
	memset(&h, 0, sizeof h);
	consider(p, m, &h, &best, 0);
	/* Only a clearly better fit displaces the constant; a single term
	 * without a constant goes before the two-coefficient forms, which
	 * must then do better to be chosen. */
	if (!twoN) {
		struct tr_fit cst = best;

		for (a = 0; a < NI; a++) {
			for (b = 0; b < NJ; b++) {
				if (inum[a] == 0 && b == 0)
					continue;
				h.nterm = 1;
				h.noconst = 1;
				setterm(&h.t[0], (double)inum[a] / iden[a], b,
				    0, 0);
				consider(p, m, &h, &best,
				    best.nterm == 0 ? margin : 0);
			}
		}
		h.noconst = 0;
		for (a = 0; a < NI; a++) {
			for (b = 0; b < NJ; b++) {
				if (inum[a] == 0 && b == 0)
					continue;
				h.nterm = 1;
				setterm(&h.t[0], (double)inum[a] / iden[a], b,
				    0, 0);
				consider(p, m, &h, &best,
				    best.nterm == 0 ? margin : 0);
			}
		}
		drop_const(p, m, &best, margin);
		/* Two terms need two spare points to be judged at all. */
		memset(&two, 0, sizeof two);
		two.nterm = -1;
		for (a = 0; m >= 5 && a < NI; a++) {
			for (b = 0; b < NJ; b++) {
				for (c = a; c < NI; c++) {
					for (d = 0; d < NJ; d++) {
						if ((inum[a] == 0 && b == 0) ||
						    (inum[c] == 0 && d == 0) ||
						    (c == a && d <= b))
							continue;
						h.nterm = 2;
						setterm(&h.t[0],
						    (double)inum[a] / iden[a],
						    b, 0, 0);
						setterm(&h.t[1],
						    (double)inum[c] / iden[c],
						    d, 0, 0);
						consider(p, m, &h, &two, 0);
					}
				}
			}
		}
		take_two(p, m, &best, &two, margin);
		(void)cst;
	} else {
		struct tr_fitterm fn, gN, cand[3];
		int hn = best_factor(p, m, 0, &fn) == 0;
		int hN = best_factor(p, m, 1, &gN) == 0;
		int nc = 0;

		if (hn)
			cand[nc++] = fn;
		if (hN)
			cand[nc++] = gN;
		if (hn && hN) {
			cand[nc] = fn;
			cand[nc].k = gN.k;
			cand[nc++].l = gN.l;
		}
		/* As with one parameter: a term without a constant first.
		 * Strong scaling, c*N/n, falls towards 0 at large n, where
		 * c0 + c*N/n with a c0 fitted slightly below 0 by the noise
		 * turns negative and is rightly refused; without the
		 * c*N/n alone the search was left with c0 + c*N. */
		for (c = 1; c >= 0; c--) {
			for (a = 0; a < nc; a++) {
				h.nterm = 1;
				h.noconst = c;
				h.t[0] = cand[a];
				consider(p, m, &h, &best,
				    best.nterm == 0 ? margin : 0);
			}
		}
		drop_const(p, m, &best, margin);
		h.noconst = 0;
		memset(&two, 0, sizeof two);
		two.nterm = -1;
		for (a = 0; nc == 3 && a < 3; a++) {
			h.nterm = 2;
			h.t[0] = cand[a == 2 ? 0 : 2];
			h.t[1] = cand[a == 2 ? 1 : a];
			consider(p, m, &h, &two, 0);
		}
		take_two(p, m, &best, &two, margin);
	}
	if (best.nterm < 0) {
		seterr(err, errsz, "no hypothesis could be fitted");
		return -1;
	}
	*f = best;
	f->family = "pmnf";
	f->points = m;
	f->reps = reps;
	tidy(p, m, f);
	stats(p, m, f->nterm + !f->noconst, f);
	tr_fit_format(f);
	return 0;
}

/* ---- ScalaExtrap ---- */

enum { SX_CONST, SX_LINEAR, SX_INV, SX_INVCONST };
static const char *sxname[] = {"scalaextrap-constant", "scalaextrap-linear",
	"scalaextrap-inverse", "scalaextrap-invconst"};

static double
ratio(double num, double den)
{
	if (num == 0)
		return 0;
	if (den == 0 || !isfinite(num / den))
		return INFINITY;
	return fabs(num / den);
}

/* Mean and sample sd of x[] after dropping the one furthest from the
 * mean. */
static void
drop_mean_sd(const double *x, int m, double *mean, double *sd)
{
	double mu = 0, s = 0, worst = -1;
	int i, w = -1, r = 0;

	for (i = 0; i < m; i++)
		mu += x[i];
	mu /= m;
	for (i = 0; i < m; i++)
		if (fabs(x[i] - mu) > worst) {
			worst = fabs(x[i] - mu);
			w = i;
		}
	mu = 0;
	for (i = 0; i < m; i++)
		if (i != w) {
			mu += x[i];
			r++;
		}
	mu /= r;
	for (i = 0; i < m; i++)
		if (i != w)
			s += (x[i] - mu) * (x[i] - mu);
	*mean = mu;
	*sd = r > 1 ? sqrt(s / (r - 1)) : 0;
}

/* Fits model kind to points other than skip; returns its score. */
static double
sx_fit(const struct tr_fitpt *p, int m, int skip, int kind, struct tr_fit *f)
{
	double x[MAXPT], A[2 * MAXPT], y[MAXPT] = {0}, c[2], mu, sd, rss = 0,
	    mm = 0;
	int i, r = 0;

	memset(f, 0, sizeof *f);
	for (i = 0; i < m; i++) {
		if (i == skip)
			continue;
		if (kind == SX_CONST)
			x[r] = p[i].t;
		else if (kind == SX_INV)
			x[r] = p[i].t * p[i].n;
		else {
			A[r] = p[i].n;
			y[r] = kind == SX_LINEAR ? p[i].t : p[i].t * p[i].n;
		}
		r++;
	}
	if (kind == SX_CONST || kind == SX_INV) {
		drop_mean_sd(x, r, &mu, &sd);
		if (kind == SX_CONST) {
			f->c0 = mu;
		} else {
			f->nterm = 1;
			f->noconst = 1;
			setterm(&f->t[0], -1, 0, 0, 0);
			f->t[0].c = mu;
		}
		return ratio(sd, mu);
	}
	for (i = 0; i < r; i++)
		A[r + i] = 1;
	if (lsq(A, r, 2, y, c) < 0)
		return INFINITY;
	for (i = 0, r = 0; i < m; i++) {
		double e;

		if (i == skip)
			continue;
		e = c[0] * p[i].n + c[1];
		rss += ((kind == SX_LINEAR ? p[i].t : p[i].t * p[i].n) - e) *
		    ((kind == SX_LINEAR ? p[i].t : p[i].t * p[i].n) - e);
		mm += e;
		r++;
	}
	mm /= r;
	f->nterm = 1;
	if (kind == SX_LINEAR) {
		f->c0 = c[1];
		setterm(&f->t[0], 1, 0, 0, 0);
		f->t[0].c = c[0];
	} else {
		f->c0 = c[0];
		setterm(&f->t[0], -1, 0, 0, 0);
		f->t[0].c = c[1];
	}
	return ratio(sqrt(rss), mm);
}

int
tr_fit_scalaextrap(struct tr_fitpt *p, int m, int red, struct tr_fit *f,
    char *err, size_t errsz)
{
	struct tr_fit g;
	double score, best = INFINITY, s = 0;
	int k, i, reps, win = -1;

	m = tr_fit_reduce(p, m, red, &reps, NULL, err, errsz);
	if (m < 0)
		return -1;
	if (m < 3 || m > MAXPT) {
		seterr(err, errsz, m < 3 ? "too few points: scalaextrap needs "
		    "values at 3 or more scales" : "more than 256 points");
		return -1;
	}
	/* Its models know n alone: runs of two sizes would be taken as
	 * one series, and the model would fit neither. */
	for (i = 1; i < m; i++)
		if (p[i].N != p[0].N) {
			seterr(err, errsz, "several problem sizes N: "
			    "scalaextrap models n alone (pmnf fits n and N)");
			return -1;
		}
	for (k = SX_CONST; k <= SX_INVCONST; k++) {
		score = sx_fit(p, m, -1, k, &g);
		if (score < best) {
			best = score;
			win = k;
			*f = g;
		}
	}
	if (win < 0) {
		win = SX_CONST;
		sx_fit(p, m, -1, win, f);
	}
	for (i = 0; i < m; i++) {
		sx_fit(p, m, i, win, &g);
		s += smape1(tr_fit_eval(&g, p[i].n, p[i].N), p[i].t);
	}
	f->cvsmape = 100 * s / m;
	f->family = sxname[win];
	f->points = m;
	f->reps = reps;
	tidy(p, m, f);
	stats(p, m, f->nterm + 1, f);
	tr_fit_format(f);
	return 0;
}
