/* verify-class.c - each rank of a grown trace against the others of its
 * rank class: ranks at one kind of grid position follow one template
 * rank, so they make the same calls, send about the same bytes and
 * compute about as long. A rank that lost a neighbour, or took another
 * class's part, stands out from its class, whatever the totals. */
#include <stdio.h>

#include "verify-int.h"

static const struct tr_grid *cmpgrid;

static int
byclass(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	int cx = tr_grid_class(cmpgrid, x), cy = tr_grid_class(cmpgrid, y);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x > y) - (x < y);
}

static int
bydouble(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The position of class CLS, per dimension: "low/interior" */
static void
clsname(const struct tr_grid *g, int cls, char *buf, size_t n)
{
	static const char *pos[] = {"low", "interior", "high", "alone"};
	int k, p[TR_GRID_MAXD];

	for (k = g->nd - 1; k >= 0; k--) {
		p[k] = cls % 4;
		cls /= 4;
	}
	buf[0] = '\0';
	for (k = 0; k < g->nd; k++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s",
		    k ? "/" : "", pos[p[k]]);
}

/* Quantity Q of rank R: op Q's calls, Q + nops its bytes, 2 nops its
 * wall time, 2 nops + 1 its CPU time; -1 for none. */
static double
value(const struct vrank *k, size_t q, size_t nops)
{
	if (q < nops)
		return q < k->nops ? (double)k->calls[q] : 0;
	if (q < 2 * nops)
		return q - nops < k->nops ? (double)k->bytes[q - nops] : 0;
	if (!k->hasdsum)
		return -1;
	return q == 2 * nops ? k->wall : k->cpu;
}

static void
group(struct tr_vf *v, const long *rk, size_t n, double *tmp)
{
	size_t nops = tr_map_len(v->ops), q, i, m, kn;
	double med, tol, floor, ctol = v->tol;
	char key[256], who[160], cname[96];
	const char *op, *qn;
	long g;

	if ((g = tr_xp_find(v->xp, "dsum", "key=*")) >= 0)
		ctol = vf_tol(v, g, "wall:mean");
	clsname(&v->g, tr_grid_class(&v->g, rk[0]), cname, sizeof cname);
	for (q = 0; q < 2 * nops + 2; q++) {
		for (i = m = 0; i < n; i++)
			if ((tmp[m] = value(&v->rk[rk[i]], q, nops)) >= 0)
				m++;
		if (m < 2)
			continue;
		qsort(tmp, m, sizeof *tmp, bydouble);
		med = m % 2 ? tmp[m / 2] : (tmp[m / 2 - 1] + tmp[m / 2]) / 2;
		if (q < 2 * nops && med == 0 && tmp[m - 1] == 0)
			continue;
		/* Compute is drawn at each rank's own lag: it varies as the
		 * models' fits of its spread over ranks do. */
		tol = q < 2 * nops ? v->tol : ctol;
		floor = q < 2 * nops ? 0.5 : v->tfloor;
		for (i = 0; i < n; i++) {
			double x = value(&v->rk[rk[i]], q, nops);

			if (x < 0)
				continue;
			if (q < 2 * nops) {
				op = tr_map_key(v->ops, (long)(q % nops), &kn);
				snprintf(key, sizeof key, "rank=%ld;op=%.*s",
				    rk[i], (int)(kn > 200 ? 200 : kn), op);
				qn = q < nops ? "calls" : "bytes";
			} else {
				snprintf(key, sizeof key, "rank=%ld;key=*",
				    rk[i]);
				qn = q == 2 * nops ? "wall" : "cpu";
			}
			snprintf(who, sizeof who, "rank %ld, class %s of %zu "
			    "ranks", rk[i], cname, n);
			vf_compare(v, "class", key, qn, med, x, tol, floor,
			    who);
		}
	}
}

void
vf_classes(struct tr_vf *v)
{
	long *rk;
	double *tmp;
	size_t n = 0, i, j;

	if (!v->hasgrid)
		return;
	rk = tr_malloc((v->nrk + 1) * sizeof *rk);
	tmp = tr_malloc((v->nrk + 1) * sizeof *tmp);
	for (i = 0; i < v->nrk; i++)
		if (v->rk[i].seen && (long)i < v->g.np)
			rk[n++] = (long)i;
	cmpgrid = &v->g;
	qsort(rk, n, sizeof *rk, byclass);
	for (i = 0; i < n; i = j) {
		int c = tr_grid_class(&v->g, rk[i]);

		for (j = i + 1; j < n && tr_grid_class(&v->g, rk[j]) == c; j++)
			;
		group(v, rk + i, j - i, tmp);
	}
	free(rk);
	free(tmp);
}
