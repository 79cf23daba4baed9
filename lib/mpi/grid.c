/* grid.c - Cartesian process grids: MPI_Dims_create's choice, the grid
 * that explains a set of neighbour pairs, and rank classes by position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

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

long
tr_grid_stray(const struct tr_grid *g, const long (*pr)[2], size_t n)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], i, diff;
	size_t k;

	for (k = 0; k < n; k++) {
		if (pr[k][0] < 0 || pr[k][0] >= g->np || pr[k][1] < 0 ||
		    pr[k][1] >= g->np)
			return (long)k;
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
				diff = g->nd + 1;
		}
		if (diff != 1)
			return (long)k;
	}
	return -1;
}

int
tr_grid_explains(const struct tr_grid *g, const long (*pr)[2], size_t n)
{
	return tr_grid_stray(g, pr, n) < 0;
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

/* Whether the extents of GRID outside mask KEEP, largest first, are
 * MPI_Dims_create's for their product. */
static int
balanced_on(const int *grid, int nd, unsigned keep)
{
	int e[TR_GRID_MAXD], x[TR_GRID_MAXD], m = 0, i, j, t;
	long q = 1;

	for (i = 0; i < nd; i++)
		if (!(keep >> i & 1)) {
			x[m++] = grid[i];
			q *= grid[i];
		}
	if (m == 0)
		return 1;
	for (i = 1; i < m; i++)		/* insertion sort, largest first */
		for (j = i; j > 0 && x[j] > x[j - 1]; j--) {
			t = x[j];
			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	tr_grid_dims(q, m, e);
	return memcmp(e, x, (size_t)m * sizeof *e) == 0;
}

int
tr_grid_learn(long np, int nd, const int (*rec)[TR_GRID_MAXD], size_t n,
    int *dims, int *order, unsigned *kept)
{
	unsigned keep, before[TR_GRID_MAXD];
	int nkeep, maxkeep, i, j, k, m, placed, e[TR_GRID_MAXD];
	long rnp, q;
	size_t r;

	if (n == 0 || nd < 1 || nd > TR_GRID_MAXD)
		return -1;
	/* Rank counts: a kept dimension needs grids at two at least. */
	rnp = 1;
	for (i = 0; i < nd; i++)
		rnp *= rec[0][i];
	for (r = 1; r < n; r++) {
		for (q = 1, i = 0; i < nd; i++)
			q *= rec[r][i];
		if (q != rnp)
			break;
	}
	maxkeep = r < n ? nd - 1 : 0;
	/* Fewest kept dimensions first, then the lowest ones. */
	for (nkeep = 0; nkeep <= maxkeep; nkeep++)
		for (keep = 0; keep < 1u << nd; keep++) {
			for (k = 0, i = 0; i < nd; i++)
				k += keep >> i & 1;
			if (k != nkeep)
				continue;
			/* A kept dimension has one extent in every grid. */
			for (r = 0; r < n; r++) {
				for (i = 0; i < nd; i++)
					if ((keep >> i & 1) &&
					    rec[r][i] != rec[0][i])
						break;
				if (i < nd || !balanced_on(rec[r], nd, keep))
					break;
			}
			if (r < n)
				continue;
			/* i before j where a grid gives i more ranks. */
			memset(before, 0, sizeof before);
			for (r = 0; r < n; r++)
				for (i = 0; i < nd; i++)
					for (j = 0; j < nd; j++)
						if (rec[r][i] > rec[r][j])
							before[j] |= 1u << i;
			/* The order they show, the lowest dimension first
			 * where they show none; none on a cycle. */
			placed = keep;
			for (m = 0; m < nd - nkeep; m++) {
				for (i = 0; i < nd; i++)
					if (!(placed >> i & 1) &&
					    (before[i] & ~placed & ~keep) == 0)
						break;
				if (i == nd)
					break;
				order[m] = i;
				placed |= 1u << i;
			}
			if (m < nd - nkeep)
				continue;
			for (q = np, i = 0; i < nd; i++)
				if (keep >> i & 1) {
					if (q % rec[0][i])
						return -2;
					q /= rec[0][i];
					dims[i] = rec[0][i];
				}
			tr_grid_dims(q, m, e);
			for (i = 0; i < m; i++)
				dims[order[i]] = e[i];
			for (i = m; i < nd; i++)
				order[i] = -1;
			*kept = keep;
			return 0;
		}
	return -1;
}
