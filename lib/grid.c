/* grid.c - Cartesian process grids: MPI_Dims_create's choice, the grid
 * that explains a set of neighbour pairs, and rank classes by position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

void
tr_grid_coords(const struct tr_grid *g, long rank, int *c)
{
	int i;

	for (i = g->nd - 1; i >= 0; i--) {
		c[i] = (int)(rank % g->dims[i]);
		rank /= g->dims[i];
	}
}

long
tr_grid_rank(const struct tr_grid *g, const int *c)
{
	long r = 0;
	int i, x;

	for (i = 0; i < g->nd; i++) {
		x = c[i];
		if (g->periodic[i])
			x = ((x % g->dims[i]) + g->dims[i]) % g->dims[i];
		else if (x < 0 || x >= g->dims[i])
			return -1;
		r = r * g->dims[i] + x;
	}
	return r;
}

int
tr_cart_read(const struct tr_rec *r, int max, int *nd, int *dims,
    int *periods, char *err, size_t errsz)
{
	const struct tr_field *df = &r->f[3], *pf = &r->f[4];
	const char *d = df->p, *p = pf->p, *de = d + df->n, *pe = p + pf->n;
	const char *c;
	int64_t x, y;

	*nd = 0;
	while (d < de && p < pe) {
		for (c = d; c < de && *c != ','; c++)
			;
		if (tr_parse_i64(d, (size_t)(c - d), &x) || x < 1 ||
		    x > INT32_MAX) {
			snprintf(err, errsz, "bad dims '%.*s'", (int)df->n,
			    df->p);
			return -1;
		}
		d = c + (c < de);
		for (c = p; c < pe && *c != ','; c++)
			;
		if (tr_parse_i64(p, (size_t)(c - p), &y) || (y != 0 && y != 1)) {
			snprintf(err, errsz, "bad periods '%.*s'", (int)pf->n,
			    pf->p);
			return -1;
		}
		p = c + (c < pe);
		if (*nd == max) {
			snprintf(err, errsz, "more than %d dimensions", max);
			return -1;
		}
		dims[*nd] = (int)x;
		periods[(*nd)++] = (int)y;
	}
	if (d < de || p < pe) {
		snprintf(err, errsz, "dims and periods differ in length");
		return -1;
	}
	return 0;
}

/* Balanced factors in non-increasing order, as MPI_Dims_create. */
void
tr_grid_dims(long np, int nd, int *dims)
{
	long best[TR_GRID_MAXD], cur[TR_GRID_MAXD];
	long bspread = -1;
	int i;

	for (i = 0; i < nd; i++)
		best[i] = 1;
	best[0] = np;
	/* Exhaustive over non-increasing factorisations: np is small. */
	if (nd == 1) {
		dims[0] = (int)np;
		return;
	}
	for (cur[0] = np; cur[0] >= 1; cur[0]--) {
		if (np % cur[0])
			continue;
		if (nd == 2) {
			cur[1] = np / cur[0];
			if (cur[1] > cur[0])
				continue;
			if (bspread < 0 || cur[0] - cur[1] < bspread) {
				bspread = cur[0] - cur[1];
				memcpy(best, cur, sizeof cur);
			}
			continue;
		}
		for (cur[1] = cur[0]; cur[1] >= 1; cur[1]--) {
			if ((np / cur[0]) % cur[1])
				continue;
			cur[2] = np / cur[0] / cur[1];
			if (cur[2] > cur[1])
				continue;
			if (bspread < 0 || cur[0] - cur[2] < bspread) {
				bspread = cur[0] - cur[2];
				memcpy(best, cur, sizeof cur);
			}
		}
	}
	for (i = 0; i < nd; i++)
		dims[i] = (int)best[i];
}

int
tr_grid_explains(const struct tr_grid *g, const long (*pr)[2], size_t n)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], i, diff;
	size_t k;

	for (k = 0; k < n; k++) {
		if (pr[k][0] < 0 || pr[k][0] >= g->np || pr[k][1] < 0 ||
		    pr[k][1] >= g->np)
			return 0;
		tr_grid_coords(g, pr[k][0], a);
		tr_grid_coords(g, pr[k][1], b);
		diff = 0;
		for (i = 0; i < g->nd; i++) {
			int d = abs(a[i] - b[i]);

			if (d == 0)
				continue;
			if (d == 1 || (g->periodic[i] && d == g->dims[i] - 1))
				diff++;
			else
				return 0;
		}
		if (diff != 1)
			return 0;
	}
	return 1;
}

static int
tryall(struct tr_grid *g, int d, long left, const long (*pr)[2], size_t n,
    struct tr_grid *best, long *bscore, int *found)
{
	long f;
	int p, np2;

	if (d == g->nd - 1) {
		g->dims[d] = (int)left;
		np2 = 1 << g->nd;
		/* Fewest periodic dimensions first, then the most balanced. */
		for (p = 0; p < np2; p++) {
			long score;
			int i, lo = g->dims[0], hi = g->dims[0], bits = 0;

			for (i = 0; i < g->nd; i++) {
				g->periodic[i] = (p >> i) & 1;
				bits += g->periodic[i];
				lo = g->dims[i] < lo ? g->dims[i] : lo;
				hi = g->dims[i] > hi ? g->dims[i] : hi;
			}
			score = (long)bits * 1000000 + (hi - lo);
			if ((!*found || score < *bscore) && tr_grid_explains(g, pr, n)) {
				*best = *g;
				*bscore = score;
				*found = 1;
			}
		}
		return 0;
	}
	for (f = 2; f <= left / 2; f++) {
		if (left % f)
			continue;
		g->dims[d] = (int)f;
		tryall(g, d + 1, left / f, pr, n, best, bscore, found);
	}
	return 0;
}

int
tr_grid_infer(long np, const long (*pairs)[2], size_t n, struct tr_grid *g)
{
	struct tr_grid c, best;
	long bscore = 0;
	int nd, found = 0;

	memset(&best, 0, sizeof best);
	for (nd = 1; nd <= TR_GRID_MAXD && !found; nd++) {
		memset(&c, 0, sizeof c);
		c.nd = nd;
		c.np = np;
		tryall(&c, 0, np, pairs, n, &best, &bscore, &found);
	}
	if (!found)
		return -1;
	*g = best;
	return 0;
}

int
tr_grid_class(const struct tr_grid *g, long rank)
{
	int c[TR_GRID_MAXD], i, k = 0;

	tr_grid_coords(g, rank, c);
	for (i = 0; i < g->nd; i++) {
		int pos;

		if (g->dims[i] == 1)
			pos = 3;
		else if (g->periodic[i] || (c[i] > 0 && c[i] < g->dims[i] - 1))
			pos = 1;
		else
			pos = c[i] == 0 ? 0 : 2;
		k = k * 4 + pos;
	}
	return k;
}
