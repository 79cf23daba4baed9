/* fitexpr.c - a user's model expression in n, N and free coefficients,
 * fitted by least squares (Levenberg-Marquardt on numeric derivatives,
 * which solves a model linear in its coefficients in one step). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

#define MAXC 8

struct names {
	char name[MAXC][32];
	int n, bad;
};

static int
lookup(void *ctx, const char *name, size_t n)
{
	struct names *nm = ctx;
	int i;

	if (n == 1 && name[0] == 'n')
		return 0;
	if (n == 1 && name[0] == 'N')
		return 1;
	for (i = 0; i < nm->n; i++)
		if (strlen(nm->name[i]) == n && memcmp(nm->name[i], name, n) == 0)
			return i + 2;
	if (nm->n == MAXC || n >= sizeof nm->name[0]) {
		nm->bad = 1;
		return -1;
	}
	memcpy(nm->name[nm->n], name, n);
	nm->name[nm->n][n] = '\0';
	return 2 + nm->n++;
}

static void
seterr(char *err, size_t errsz, const char *msg)
{
	if (errsz > 0) {
		strncpy(err, msg, errsz - 1);
		err[errsz - 1] = '\0';
	}
}

static double
model(const struct tr_expr *e, struct tr_val *sl, const double *th, int k,
    double n, double N)
{
	int i;

	sl[0].num = n;
	sl[1].num = N;
	for (i = 0; i < k; i++)
		sl[i + 2].num = th[i];
	return tr_expr_num(e, sl);
}

static double
sse(const struct tr_expr *e, struct tr_val *sl, const double *th, int k,
    const struct tr_fitpt *p, int m)
{
	double s = 0;
	int i;

	for (i = 0; i < m; i++) {
		double r = model(e, sl, th, k, p[i].n, p[i].N) - p[i].t;

		s += r * r;
	}
	return isfinite(s) ? s : INFINITY;
}

/* Solves the k x k system A x = b by Gaussian elimination with partial
 * pivoting; -1 if singular. */
static int
solve(double A[MAXC][MAXC], double *b, int k)
{
	int i, j, c;

	for (c = 0; c < k; c++) {
		int piv = c;

		for (i = c + 1; i < k; i++)
			if (fabs(A[i][c]) > fabs(A[piv][c]))
				piv = i;
		if (!(fabs(A[piv][c]) > 0))
			return -1;
		if (piv != c) {
			double t;

			for (j = 0; j < k; j++) {
				t = A[c][j];
				A[c][j] = A[piv][j];
				A[piv][j] = t;
			}
			t = b[c];
			b[c] = b[piv];
			b[piv] = t;
		}
		for (i = c + 1; i < k; i++) {
			double f = A[i][c] / A[c][c];

			for (j = c; j < k; j++)
				A[i][j] -= f * A[c][j];
			b[i] -= f * b[c];
		}
	}
	for (i = k - 1; i >= 0; i--) {
		for (j = i + 1; j < k; j++)
			b[i] -= A[i][j] * b[j];
		b[i] /= A[i][i];
	}
	return 0;
}

static int
levmar(const struct tr_expr *e, struct tr_val *sl, double *th, int k,
    const struct tr_fitpt *p, int m)
{
	double lam = 1e-3, cur = sse(e, sl, th, k, p, m);
	int it, i, a, b;

	for (it = 0; it < 200 && cur > 0; it++) {
		double J[64][MAXC], r[64], A[MAXC][MAXC], g[MAXC], d[MAXC],
		    tn[MAXC], nw;

		for (i = 0; i < m; i++) {
			r[i] = model(e, sl, th, k, p[i].n, p[i].N) - p[i].t;
			for (a = 0; a < k; a++) {
				double h = 1e-6 * (fabs(th[a]) > 1 ?
				    fabs(th[a]) : 1), s = th[a], up, dn;

				th[a] = s + h;
				up = model(e, sl, th, k, p[i].n, p[i].N);
				th[a] = s - h;
				dn = model(e, sl, th, k, p[i].n, p[i].N);
				th[a] = s;
				J[i][a] = (up - dn) / (2 * h);
			}
		}
		for (;;) {
			for (a = 0; a < k; a++) {
				g[a] = 0;
				for (i = 0; i < m; i++)
					g[a] -= J[i][a] * r[i];
				for (b = 0; b < k; b++) {
					A[a][b] = 0;
					for (i = 0; i < m; i++)
						A[a][b] += J[i][a] * J[i][b];
				}
				A[a][a] *= 1 + lam;
				d[a] = g[a];
			}
			if (solve(A, d, k) == 0) {
				for (a = 0; a < k; a++)
					tn[a] = th[a] + d[a];
				nw = sse(e, sl, tn, k, p, m);
				if (nw <= cur) {
					int small = 1;

					for (a = 0; a < k; a++) {
						if (fabs(d[a]) > 1e-12 *
						    (fabs(th[a]) + 1e-12))
							small = 0;
						th[a] = tn[a];
					}
					lam = lam / 10 > 1e-12 ? lam / 10 : 1e-12;
					if (small || cur - nw <= 1e-15 * cur) {
						return 0;
					}
					cur = nw;
					break;
				}
			}
			lam *= 10;
			if (lam > 1e12)
				return isfinite(cur) ? 0 : -1;
		}
	}
	return isfinite(cur) ? 0 : -1;
}

/* The source with each coefficient replaced by its value. */
static void
substitute(const char *src, const struct names *nm, const double *th,
    char *out, size_t outsz)
{
	const char *s = src;
	size_t o = 0;
	char buf[32];

	while (*s && o + 1 < outsz) {
		if (*s == '"' || *s == '\'') {
			char q = *s;

			out[o++] = *s++;
			while (*s && *s != q && o + 1 < outsz)
				out[o++] = *s++;
			if (*s && o + 1 < outsz)
				out[o++] = *s++;
		} else if (isdigit((unsigned char)*s) || (*s == '.' &&
		    isdigit((unsigned char)s[1]))) {
			while ((isdigit((unsigned char)*s) || *s == '.') &&
			    o + 1 < outsz)
				out[o++] = *s++;
			if ((*s == 'e' || *s == 'E') && (isdigit((unsigned
			    char)s[1]) || ((s[1] == '+' || s[1] == '-') &&
			    isdigit((unsigned char)s[2])))) {
				out[o++] = *s++;
				while ((isdigit((unsigned char)*s) ||
				    *s == '+' || *s == '-') && o + 1 < outsz)
					out[o++] = *s++;
			}
			while (isalpha((unsigned char)*s) && o + 1 < outsz)
				out[o++] = *s++;
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			const char *b = s, *f;
			int i, hit = -1;

			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			for (f = s; *f == ' '; f++)
				;
			for (i = 0; *f != '(' && i < nm->n; i++)
				if (strlen(nm->name[i]) == (size_t)(s - b) &&
				    memcmp(nm->name[i], b, (size_t)(s - b)) == 0)
					hit = i;
			if (hit >= 0)
				o += (size_t)snprintf(out + o, outsz - o, "(%s)",
				    tr_f64str(buf, th[hit]));
			else
				o += (size_t)snprintf(out + o, outsz - o, "%.*s",
				    (int)(s - b), b);
			if (o >= outsz)
				o = outsz - 1;
		} else {
			out[o++] = *s++;
		}
	}
	out[o] = '\0';
}

int
tr_fit_expr(const char *src, struct tr_fitpt *p, int m, int red,
    struct tr_fit *f, char *err, size_t errsz)
{
	struct names nm;
	struct tr_expr *e;
	struct tr_val sl[MAXC + 2];
	double th[MAXC], mu = 0, sst = 0, rss = 0, sm = 0, cv = 0, r2;
	char perr[128];
	int reps, i, j, col, ok = 0;

	memset(&nm, 0, sizeof nm);
	memset(sl, 0, sizeof sl);
	memset(f, 0, sizeof *f);
	e = tr_expr_parse(src, lookup, &nm, perr, sizeof perr, &col);
	if (!e) {
		seterr(err, errsz, nm.bad ? "too many coefficients" : perr);
		return -1;
	}
	m = tr_fit_reduce(p, m, red, &reps, NULL, err, errsz);
	if (m < 0)
		goto out;
	if (m > 64 || m < nm.n + 1) {
		snprintf(err, errsz, "too few points: %d coefficients need "
		    "values at %d or more scales", nm.n, nm.n + 1);
		goto out;
	}
	for (i = 0; i < nm.n; i++)
		th[i] = 1;
	if (levmar(e, sl, th, nm.n, p, m) < 0) {
		seterr(err, errsz, "the expression could not be fitted");
		goto out;
	}
	for (i = 0; i < nm.n; i++) {
		double s0 = sse(e, sl, th, nm.n, p, m), keep = th[i];

		th[i] = tr_fit_snap(th[i], 0);
		if (sse(e, sl, th, nm.n, p, m) > s0 * (1 + 1e-9) + 1e-300)
			th[i] = keep;
	}
	/* Leave-one-out, refitting from the full fit. */
	for (i = 0; i < m; i++) {
		struct tr_fitpt q[64];
		double t2[MAXC];
		int r = 0;

		for (j = 0; j < m; j++)
			if (j != i)
				q[r++] = p[j];
		memcpy(t2, th, sizeof t2);
		if (r < nm.n || levmar(e, sl, t2, nm.n, q, r) < 0)
			break;
		{
			double v = model(e, sl, t2, nm.n, p[i].n, p[i].N);
			double d = fabs(v) + fabs(p[i].t);

			cv += d > 0 ? 2 * fabs(v - p[i].t) / d : 0;
		}
	}
	f->cvsmape = i == m ? 100 * cv / m : INFINITY;
	for (i = 0; i < m; i++)
		mu += p[i].t;
	mu /= m;
	for (i = 0; i < m; i++) {
		double v = model(e, sl, th, nm.n, p[i].n, p[i].N), d;

		if (!isfinite(v)) {
			seterr(err, errsz, "the fitted expression is not "
			    "finite at every point");
			goto out;
		}
		d = fabs(v) + fabs(p[i].t);
		rss += (v - p[i].t) * (v - p[i].t);
		sst += (p[i].t - mu) * (p[i].t - mu);
		sm += d > 0 ? 2 * fabs(v - p[i].t) / d : 0;
	}
	if (rss <= 1e-24 * (sst + mu * mu * m))
		rss = 0;
	r2 = sst > 0 ? 1 - rss / sst : rss > 0 ? 0 : 1;
	f->family = "expr";
	f->rss = rss;
	f->adjr2 = m > nm.n ? 1 - (1 - r2) * (m - 1) / (m - nm.n) : r2;
	f->smape = 100 * sm / m;
	if (!isfinite(f->cvsmape))
		f->cvsmape = f->smape;
	f->points = m;
	f->reps = reps;
	f->nterm = -1;
	substitute(src, &nm, th, f->expr, sizeof f->expr);
	ok = 1;
out:
	tr_expr_free(e);
	return ok ? 0 : -1;
}
