/* synth-grid.c - the template's process grid, the target's, and the
 * template rank each target rank follows; positions and peers on them. */
#include "synth-int.h"

int
syn_same_grid(const struct tr_grid *a, const struct tr_grid *b)
{
	int i;

	if (a->nd != b->nd || a->np != b->np)
		return 0;
	for (i = 0; i < a->nd; i++)
		if (a->dims[i] != b->dims[i] ||
		    a->periodic[i] != b->periodic[i])
			return 0;
	return 1;
}

/* The dimension along which neighbours A and B of grid G lie. */
int
syn_direction(const struct tr_grid *g, long a, long b)
{
	int x[TR_GRID_MAXD], y[TR_GRID_MAXD], i;

	tr_grid_coords(g, a, x);
	tr_grid_coords(g, b, y);
	for (i = 0; i < g->nd; i++)
		if (x[i] != y[i])
			return i;
	return 0;
}

/* The dimension along which B lies from its neighbour A on grid G, and
 * the side: -1 or 1, 0 along a periodic dimension of 2 ranks. */
int
syn_side_of(const struct tr_grid *g, long a, long b, int *dim)
{
	int x[TR_GRID_MAXD], y[TR_GRID_MAXD], i = syn_direction(g, a, b), d;

	tr_grid_coords(g, a, x);
	tr_grid_coords(g, b, y);
	*dim = i;
	d = y[i] - x[i];
	if (g->periodic[i] && g->dims[i] == 2)
		return 0;
	if (g->periodic[i] && d > g->dims[i] / 2)
		d -= g->dims[i];
	else if (g->periodic[i] && d < -g->dims[i] / 2)
		d += g->dims[i];
	return d > 0 ? 1 : -1;
}

/* Target rank t's peer for template rank rep's peer. Along a periodic
 * dimension of 2 ranks the neighbour on either side is the same rank,
 * so the step is side (-1 or 1), which the caller chooses. */
long
syn_mapped(const struct tr_grid *tg, const struct tr_grid *g, long rep,
    long peer, long t, int side)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], c[TR_GRID_MAXD], i;

	tr_grid_coords(g, rep, a);
	tr_grid_coords(g, peer, b);
	tr_grid_coords(tg, t, c);
	for (i = 0; i < g->nd; i++) {
		int d = b[i] - a[i];

		if (g->periodic[i] && g->dims[i] == 2 && d != 0)
			d = side;
		else if (g->periodic[i] && d > g->dims[i] / 2)
			d -= g->dims[i];
		else if (g->periodic[i] && d < -g->dims[i] / 2)
			d += g->dims[i];
		c[i] += d;
	}
	return tr_grid_rank(tg, c);
}

/* The dimension along which template rank RANK's message to or from
 * PEER goes when it is a periodic one of 2 ranks, else -1. */
int
syn_pdim(const struct tr_syn *s, int64_t rank, long peer)
{
	int i = syn_direction(&s->g, (long)rank, peer);

	if (peer == rank || !s->g.periodic[i] || s->g.dims[i] != 2)
		return -1;
	return i;
}

/* Strong scaling (a global domain cut into the grid) shows in the
 * template as halo sizes in inverse proportion to the other dimensions'
 * extents; the same sizes in every direction mean a fixed local domain
 * (weak scaling). Only a grid with unequal dimensions tells them apart:
 * 1 strong, 0 weak, -1 for a grid whose dimensions are all equal. */
int
syn_strong_scaling(const struct tr_grid *g, long (*pairs)[2],
    double (*pb)[2], size_t n)
{
	double sum[TR_GRID_MAXD] = {0}, cnt[TR_GRID_MAXD] = {0}, m[TR_GRID_MAXD];
	int i, j, uneq = 0;
	size_t p;

	for (i = 1; i < g->nd; i++)
		if (g->dims[i] != g->dims[0])
			uneq = 1;
	if (!uneq)
		return -1;
	for (p = 0; p < n; p++) {
		i = syn_direction(g, pairs[p][0], pairs[p][1]);
		sum[i] += pb[p][0];
		cnt[i] += pb[p][1];
	}
	for (i = 0; i < g->nd; i++) {
		if (cnt[i] == 0)
			return 0;
		m[i] = sum[i] / cnt[i];
	}
	/* m[i] / m[j] = prod_{k != i} 1/d_k / prod_{k != j} 1/d_k
	 * = d_i / d_j */
	for (i = 0; i < g->nd; i++)
		for (j = 0; j < g->nd; j++) {
			double want = (double)g->dims[i] / g->dims[j];

			if (fabs(m[i] / m[j] - want) > 0.01 * want)
				return 0;
		}
	return 1;
}

/* Whether every target rank's kind of position occurs in the template. */
static int
classes_found(const struct tr_syn *s)
{
	long t, q;

	for (t = 0; t < s->nt; t++) {
		int cls = tr_grid_class(&s->tg, t);

		for (q = 0; q < s->P; q++)
			if (tr_grid_class(&s->g, q) == cls)
				break;
		if (q == s->P)
			return 0;
	}
	return 1;
}

/* A dimension of 2 ranks explains the same neighbour pairs with or
 * without wrapping, and tr_grid_infer prefers no wrapping. Where that
 * leaves target ranks without a model, take those dimensions as
 * periodic; 1 if that was done and helps. */
static int
assume_periodic(struct tr_syn *s)
{
	struct tr_grid g = s->g, tg = s->tg;
	int k, n = 0;

	for (k = 0; k < s->g.nd; k++)
		if (s->g.dims[k] == 2 && !s->g.periodic[k]) {
			s->g.periodic[k] = s->tg.periodic[k] = 1;
			n++;
		}
	if (n && classes_found(s))
		return 1;
	s->g = g;
	s->tg = tg;
	return 0;
}

/* Every target rank makes the calls of the template rank at its kind
 * of grid position, so the template's ranks of one kind must make their
 * Sendrecvs along the same directions in the same order: else the
 * target ranks' Sendrecvs do not meet (on 3 ranks the pairwise exchanges of an
 * all-to-all, FFTW's transposes in MPB, are neighbours on a ring, but
 * each rank meets its partners in its own order, and the grown trace
 * deadlocks). Dies naming the first two ranks that differ. */
static void
same_moves(const struct tr_syn *s)
{
	long q, r;
	int k, n, dq, dr, sq, sr;

	if (!s->moves)
		return;
	for (q = 1; q < s->P; q++) {
		for (r = 0; r < q; r++)
			if (tr_grid_class(&s->g, r) == tr_grid_class(&s->g, q))
				break;
		if (r == q)
			continue;
		n = s->nmoves[q] < s->nmoves[r] ? s->nmoves[q] : s->nmoves[r];
		for (k = 0; k < n; k++) {
			sq = syn_side_of(&s->g, q, s->moves[q * NMOVES + k],
			    &dq);
			sr = syn_side_of(&s->g, r, s->moves[r * NMOVES + k],
			    &dr);
			if (dq != dr || sq != sr)
				tr_die_files(s->nfiles, s->files, "-T: "
				    "template ranks %ld and %ld hold the same kind "
				    "of position on the grid, but their Sendrecv %d sends to different "
				    "sides (rank %ld to rank %ld, rank %ld to rank "
				    "%ld): their messages follow no grid (on few "
				    "ranks an all-to-all looks like one), and ranks "
				    "that follow one of them would not meet; give a "
				    "template of more ranks, or predict the "
				    "statistics alone", r, q, k + 1, r,
				    s->moves[r * NMOVES + k], q,
				    s->moves[q * NMOVES + k]);
		}
	}
}

/* "2x2x4": the extents of ND dimensions, at the end of BUF (size N). */
static void
dims_str(const int *d, int nd, char *buf, size_t n)
{
	size_t l;
	int k;

	for (k = 0; k < nd; k++) {
		l = strlen(buf);
		snprintf(buf + l, n - l, "%s%d", k ? "x" : "", d[k]);
	}
}

/* The grids of the first Cartesian communicator over all ranks in order
 * of every section (the template's and those of the runs a model file
 * was fitted on), each once and by rank count, as extents on the
 * template's grid s->g (its dimensions of more than 1 rank): *N of them,
 * returned to free. Those of another number of dimensions than the
 * template's say nothing of it and are left out; the first that has more
 * than 1 rank along a dimension where the template has 1 is said in BAD
 * (size BADSZ), empty if none. */
static int (*recorded_grids(struct tr_syn *s, size_t *n, char *bad,
    size_t badsz))[TR_GRID_MAXD]
{
	int (*rec)[TR_GRID_MAXD] = NULL, x[TR_GRID_MAXD];
	const struct cartrec *tc = &s->tcart;
	struct tr_map *cm = tr_map_new(), *done = tr_map_new();
	long *ci = NULL, j, np, tnp;
	size_t i, k, cap = 0, cicap = 0, dn;
	int d, m, u;

	*n = 0;
	*bad = '\0';
	for (i = 0; i < s->npst; i++) {
		const struct pendst *p = &s->pst[i];
		int64_t key[3] = {p->sect, p->rank, p->id};

		j = tr_map_get(cm, (const char *)key, sizeof key, !p->cart);
		if (!p->cart) {		/* the latest comm record of the id */
			tr_grow(&ci, &cicap, (size_t)j + 1, sizeof *ci);
			ci[j] = (long)i;
			continue;
		}
		if (j < 0 || !s->pst[ci[j]].world)
			continue;
		for (np = 1, d = 0; d < p->c.nd; d++)
			np *= p->c.dims[d];
		if (np != s->pst[ci[j]].size)
			continue;
		/* the section's first, as the template's grid is */
		dn = tr_map_len(done);
		if (tr_map_get(done, (const char *)&p->sect, sizeof p->sect,
		    1) < (long)dn || p->c.nd != tc->nd)
			continue;
		memset(x, 0, sizeof x);
		for (m = 0, d = 0; d < tc->nd; d++)
			if (tc->dims[d] != 1)
				x[m++] = p->c.dims[d];
			else if (p->c.dims[d] != 1)
				break;
		if (d < tc->nd) {
			if (!*bad)
				dims_str(p->c.dims, p->c.nd, bad, badsz);
			continue;
		}
		if (m != s->g.nd)
			continue;
		for (k = 0; k < *n; k++)
			if (memcmp(rec[k], x, sizeof x) == 0)
				break;
		if (k < *n)
			continue;
		tr_grow(&rec, &cap, *n + 1, sizeof *rec);
		/* by rank count, then extents */
		for (k = *n; k > 0; k--) {
			for (tnp = 1, u = 0; u < m; u++)
				tnp *= rec[k - 1][u];
			if (tnp < np || (tnp == np &&
			    memcmp(rec[k - 1], x, sizeof x) < 0))
				break;
			memcpy(rec[k], rec[k - 1], sizeof *rec);
		}
		memcpy(rec[k], x, sizeof x);
		(*n)++;
	}
	tr_map_free(cm);
	tr_map_free(done);
	free(ci);
	return rec;
}

/* The target's extents: as the application's grids at the recorded
 * scales show (tr_grid_learn), else as MPI_Dims_create gives them. Only
 * a template whose grid is its recorded one (KNOWN) tells how the
 * recorded grids lie on it. */
void
syn_target_grid(struct tr_syn *s, int known)
{
	int (*rec)[TR_GRID_MAXD], dims[TR_GRID_MAXD], order[TR_GRID_MAXD];
	char *b = s->gridrule, list[160] = "", bad[16 * TR_CART_MAXD];
	size_t n = 0, k, bn = sizeof s->gridrule, l;
	unsigned kept;
	int i, sep, rc = -1;

	tr_grid_dims(s->nt, s->g.nd, s->tg.dims);
	snprintf(b, bn, "dims_create");
	if (!known)
		return;
	rec = recorded_grids(s, &n, bad, sizeof bad);
	if (*bad) {
		tr_warn("-T: a recorded grid, %s, has ranks along a dimension "
		    "where the template's has 1: the target grid is "
		    "MPI_Dims_create's", bad);
		snprintf(b, bn, "dims_create unexplained=%.200s", bad);
		free(rec);
		return;
	}
	for (k = 0; k < n; k++) {
		l = strlen(list);
		if (l + 4 * TR_GRID_MAXD + 8 >= sizeof list) {
			snprintf(list + l, sizeof list - l, ",...");
			break;
		}
		if (k)
			list[l++] = ',', list[l] = '\0';
		dims_str(rec[k], s->g.nd, list, sizeof list);
	}
	if (n)
		rc = tr_grid_learn(s->nt, s->g.nd,
		    (const int (*)[TR_GRID_MAXD])rec, n, dims, order, &kept);
	if (rc == 0) {
		memcpy(s->tg.dims, dims, sizeof dims);
		snprintf(b, bn, "recorded order=");
		for (i = 0, sep = 0; i < s->g.nd && order[i] >= 0; i++) {
			l = strlen(b);
			snprintf(b + l, bn - l, "%s%d", sep++ ? "," : "",
			    order[i]);
		}
		for (i = 0, sep = 0; i < s->g.nd; i++)
			if (kept >> i & 1) {
				l = strlen(b);
				snprintf(b + l, bn - l, "%s%d", sep++ ? "," :
				    " kept=", i);
			}
		l = strlen(b);
		snprintf(b + l, bn - l, " from=%s", list);
	} else if (n) {
		l = strlen(b);
		snprintf(b + l, bn - l, " unexplained=%s", list);
		if (rc == -2)
			tr_warn("-T: the recorded grids (%s) keep extents that "
			    "do not divide %ld ranks: the target grid is "
			    "MPI_Dims_create's", list, s->nt);
		else
			tr_warn("-T: the recorded grids (%s) are not "
			    "MPI_Dims_create's in one order of dimensions, nor "
			    "with some dimensions kept: the target grid is "
			    "MPI_Dims_create's", list);
	}
	free(rec);
}

/* A dimension of 1 rank on the template's Cartesian grid has no
 * messages to grow, so the target grid keeps it at 1; where
 * MPI_Dims_create would give it ranks, so would most applications
 * (LAMMPS: 1x2x2 at 4 ranks, 2x2x2 at 8), and the trace then lacks the
 * exchanges along it: 8 ranks grown from 4 had two thirds of the
 * measured sends, each twice as large. Said, since it is silent in the
 * statistics until compared. */
void
syn_warn_flat(const struct tr_syn *s)
{
	const struct cartrec *tc = &s->tcart;
	int d[TR_GRID_MAXD], full[TR_GRID_MAXD], i, m, k;
	char t[64] = "", tg[64] = "", dc[64] = "";

	if (tc->nd <= s->g.nd || tc->nd > TR_GRID_MAXD)
		return;
	tr_grid_dims(s->nt, tc->nd, d);
	for (m = 0, i = 0; i < tc->nd; i++)
		m += d[i] > 1;
	if (m <= s->g.nd)
		return;
	for (k = 0, i = 0; i < tc->nd; i++)
		full[i] = tc->dims[i] == 1 ? 1 : s->tg.dims[k++];
	dims_str(tc->dims, tc->nd, t, sizeof t);
	dims_str(full, tc->nd, tg, sizeof tg);
	dims_str(d, tc->nd, dc, sizeof dc);
	tr_warn("-T: the template's grid, %s, has 1 rank along a dimension, "
	    "with no messages to grow there: the target grid keeps it, %s, "
	    "where MPI_Dims_create gives %s; a template with ranks along "
	    "every dimension grows along each", t, tg, dc);
}

/* "4px2px2p": extents, p for the dimensions that wrap around. */
void
syn_grid_str(const struct tr_grid *g, char *buf, size_t n)
{
	int k;

	buf[0] = '\0';
	for (k = 0; k < g->nd; k++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%d%s",
		    k ? "x" : "", g->dims[k], g->periodic[k] ? "p" : "");
}

/* The template's grid: its recorded Cartesian grid when that explains
 * its messages (1), since it says which dimensions wrap, which the
 * messages alone cannot always show; else the grid the messages show
 * (0); -1 if they show none, with the pairs that show it in WHY. */
int
syn_template_grid(struct tr_syn *s, char *why, size_t wn)
{
	long P = s->P;
	char g[64];
	long k;

	if (s->cart.nd > 0 && s->cart.np == P &&
	    tr_grid_explains(&s->cart, (const long (*)[2])s->pairs,
	    s->npairs)) {
		s->g = s->cart;
		return 1;
	}
	if (tr_grid_infer(P, (const long (*)[2])s->pairs, s->npairs,
	    &s->g) >= 0)
		return 0;
	if ((k = syn_diag_grid(s)) >= 0)
		return (int)k;
	/* A grid the program made names the pair off it (mpi4py's pickled
	 * reduce sends along a tree on a duplicate of it). */
	if (s->cart.nd > 0 && s->cart.np == P && (k = tr_grid_stray(&s->cart,
	    (const long (*)[2])s->pairs, s->npairs)) >= 0) {
		syn_grid_str(&s->cart, g, sizeof g);
		snprintf(why, wn, ": ranks %ld and %ld exchange "
		    "messages, not neighbours on its recorded grid, %s",
		    s->pairs[k][0], s->pairs[k][1], g);
	} else {
		size_t m = (size_t)snprintf(why, wn, ": pairs");

		/* The first pairs, as tr-pattern(1) shows them by site. */
		for (k = 0; k < (long)s->npairs && k < 6 && m < wn; k++)
			m += (size_t)snprintf(why + m, wn - m,
			    " %ld-%ld", s->pairs[k][0], s->pairs[k][1]);
		if (k < (long)s->npairs && m < wn)
			snprintf(why + m, wn - m, " ...");
	}
	return -1;
}

/* Every target rank follows the template rank at the same kind of grid
 * position (s->rep); dies if the template has none at some target
 * rank's. */
void
syn_map_ranks(struct tr_syn *s, int known)
{
	long t, q, nt = s->nt, P = s->P;

	s->rep = tr_calloc((size_t)nt, sizeof *s->rep);
	if (!known && !classes_found(s) && assume_periodic(s))
		tr_warn("-T: the template's grid has dimensions of 2 ranks, "
		    "which do not show whether they wrap around; taken as "
		    "periodic (as LAMMPS's and most codes' grids are), since "
		    "without wrapping the template has no interior rank to "
		    "follow");
	same_moves(s);
	for (t = 0; t < nt; t++) {
		int cls = tr_grid_class(&s->tg, t);

		s->rep[t] = -1;
		for (q = 0; q < P && s->rep[t] < 0; q++)
			if (tr_grid_class(&s->g, q) == cls)
				s->rep[t] = q;
		if (s->rep[t] < 0)
			tr_die_files(s->nfiles, s->files, "-T: no rank of "
			    "the template grid has the position of target "
			    "rank %ld: the template run is too small", t);
	}
}
