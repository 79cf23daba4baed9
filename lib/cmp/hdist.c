/* hdist.c - the distance between two histograms: earth mover's and
 * Kolmogorov-Smirnov. */
#include <math.h>
#include <stdlib.h>

#include "cmp.h"

/* The count of values below X (LEFT) or up to X. */
static double
cdfat(const struct tr_hbin *h, int n, double x, int left)
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

void
tr_hdist(const struct tr_hbin *a, int na, const struct tr_hbin *b, int nb,
    double *emd, double *ks)
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
