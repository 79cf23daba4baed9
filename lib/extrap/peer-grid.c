/* peer-grid.c - the template's grid when its ranks exchange with
 * neighbours across edges and corners too (a 27-point stencil), not only
 * across faces. */
#include <stdio.h>

#include "synth-int.h"

/* 1 if every pair of PR lies within one step in every dimension of G,
 * and G has dimensions large enough for that to say something: 3 ranks
 * or more, 4 or more where periodic (a periodic 3 is all neighbours, as
 * is any grid of 2-rank extents, where an all-to-all would pass). */
static int
within_one(const struct tr_grid *g, const long (*pr)[2], size_t n)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], i;
	size_t k;

	for (i = 0; i < g->nd; i++)
		if (g->dims[i] < (g->periodic[i] ? 4 : 3))
			return 0;
	for (k = 0; k < n; k++) {
		if (pr[k][0] < 0 || pr[k][0] >= g->np || pr[k][1] < 0 ||
		    pr[k][1] >= g->np)
			return 0;
		tr_grid_coords(g, pr[k][0], a);
		tr_grid_coords(g, pr[k][1], b);
		for (i = 0; i < g->nd; i++) {
			int d = abs(a[i] - b[i]);

			if (d > 1 && !(g->periodic[i] && d == g->dims[i] - 1))
				return 0;
		}
	}
	return 1;
}

/* 1 if PR, on G, is a stencil: every offset some pair shows joins
 * every rank to its neighbour at that offset wherever there is one. A
 * tree's one pair across a corner (mpi4py's pickled reduce) is no
 * stencil's offset, and a trace grown from it would be wrong. */
int
syn_stencil(const struct tr_syn *s, const struct tr_grid *g)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], c[TR_GRID_MAXD], i;
	char key[48];
	size_t k;
	long r, q, lo, hi;

	for (k = 0; k < s->npairs; k++) {
		tr_grid_coords(g, s->pairs[k][0], a);
		tr_grid_coords(g, s->pairs[k][1], b);
		for (r = 0; r < g->np; r++) {
			tr_grid_coords(g, r, c);
			for (i = 0; i < g->nd; i++) {
				int d = b[i] - a[i];

				if (g->periodic[i] && d > 1)
					d -= g->dims[i];
				if (g->periodic[i] && d < -1)
					d += g->dims[i];
				c[i] += d;
			}
			if ((q = tr_grid_rank(g, c)) < 0 || q == r)
				continue;
			lo = r < q ? r : q;
			hi = r < q ? q : r;
			if (tr_map_get(s->pmap, key, (size_t)snprintf(key,
			    sizeof key, "%ld,%ld", lo, hi), 0) < 0)
				return 0;
		}
	}
	return 1;
}

int
syn_diag_grid(struct tr_syn *s)
{
	const long (*pr)[2] = (const long (*)[2])s->pairs;
	struct tr_grid g;
	int nd, per, i;

	if (s->cart.nd > 0 && s->cart.np == s->P &&
	    within_one(&s->cart, pr, s->npairs) && syn_stencil(s, &s->cart)) {
		s->g = s->cart;
		return 1;
	}
	for (nd = 2; nd <= TR_GRID_MAXD; nd++)
		for (per = 0; per < 2; per++) {
			memset(&g, 0, sizeof g);
			g.nd = nd;
			g.np = s->P;
			tr_grid_dims(s->P, nd, g.dims);
			for (i = 0; i < nd; i++)
				g.periodic[i] = per;
			if (within_one(&g, pr, s->npairs) &&
			    syn_stencil(s, &g)) {
				s->g = g;
				return 0;
			}
		}
	return -1;
}
