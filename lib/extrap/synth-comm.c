/* synth-comm.c - the template's sub-communicators (MPI_Comm_split,
 * MPI_Cart_sub, their duplicates) grown to the target: each one's
 * members as a function of (rank, P) on the process grid, checked at
 * every recorded scale whose comm records the inputs carry, and written
 * for every target rank. */
#include "synth-int.h"

enum { BLOCK, STRIDE };		/* members: a range, a strided range */
enum { K_LAST, K_FIRST, K_TWO, K_HALF };
enum { D_CART, D_CREATE };	/* the grid: the world's cart, dims_create */

static const struct cand {
	int shape, k, dims;
	const char *name;
} cands[] = {
	{BLOCK, K_LAST, D_CART, "rows of the cart grid"},
	{STRIDE, K_LAST, D_CART, "columns of the cart grid"},
	{BLOCK, K_FIRST, D_CART, "column-major columns of the cart grid"},
	{STRIDE, K_FIRST, D_CART, "column-major rows of the cart grid"},
	{BLOCK, K_LAST, D_CREATE, "rows of the dims_create grid"},
	{STRIDE, K_LAST, D_CREATE, "columns of the dims_create grid"},
	{BLOCK, K_FIRST, D_CREATE, "column-major columns of the dims_create grid"},
	{STRIDE, K_FIRST, D_CREATE, "column-major rows of the dims_create grid"},
	{STRIDE, K_TWO, D_CREATE, "rank mod 2"},
	{BLOCK, K_TWO, D_CREATE, "rank / 2"},
	{BLOCK, K_HALF, D_CREATE, "rank < P/2"},
};
#define NCAND (int)(sizeof cands / sizeof cands[0])
/* Candidate NCAND + c is candidate c of the dims_create grid in the
 * places of the communicator split (or duplicated): FFTW's planner
 * halves a half. */
#define NREL (2 * NCAND)
#define RELATIVE(c) ((c) >= NCAND)

struct subcomm {		/* a sub-communicator id of the template */
	int64_t id;
	int64_t parent;		/* the communicator it was made from */
	int pknown;		/* 1 if that is one, -1 if calls differ */
	unsigned ok;		/* the candidates that explain it so far */
	int cand;		/* the first of them, once chosen */
	int nscales;
	int64_t scale[8];	/* the rank counts that showed it */
	int inter;		/* made by MPI_Intercomm_* */
	int cart;		/* the template's 1-D cart record of it: 1 */
	int per;		/* its period */
	char *call;		/* "MPI_Comm_split at SITE" */
	const struct pendst *bad;	/* the first record none explains */
};

struct tr_subs {
	struct tr_map *ids;
	struct subcomm *c;
	size_t n, cap;
	/* The grid of each candidate's rule at the template's scale and at
	 * the target's; 0 extents where it has none. */
	int tdims[2][2], gdims[2][2];
	/* Per section: 1 + whether it has a 2-D world cart, and its dims. */
	signed char *sknown;
	int (*sdims)[2];
	size_t scap, sdcap;
	int begun;		/* candidates chosen */
	struct tr_itab recs;	/* (section << 32 | rank, id) -> pendst */
};

/* The calls that make a communicator (windows are no communicator). */
int
syn_newcomm(const struct tr_field *op)
{
	int coll;

	return tr_mpi_class(op->p, op->n, &coll) == TR_MPI_COMMNEW &&
	    !(op->n >= 8 && memcmp(op->p, "MPI_Win_", 8) == 0);
}

/* An intercommunicator's record lists both groups, and a merge orders
 * them by its high flag: neither is a function of (rank, P) here. */
static int
is_inter(const struct tr_field *op)
{
	return op->n >= 13 && memcmp(op->p, "MPI_Intercomm", 13) == 0;
}

static struct tr_subs *
subs(struct tr_syn *s)
{
	if (!s->subs) {
		s->subs = tr_calloc(1, sizeof *s->subs);
		s->subs->ids = tr_map_new();
	}
	return s->subs;
}

static struct subcomm *
sub_get(struct tr_syn *s, int64_t id, int add)
{
	struct tr_subs *u = subs(s);
	long i = tr_map_get(u->ids, (const char *)&id, sizeof id, add);

	if (i < 0)
		return NULL;
	if ((size_t)i >= u->n) {
		tr_growz(&u->c, &u->cap, (size_t)i + 1, sizeof *u->c);
		u->n = (size_t)i + 1;
		u->c[i].id = id;
		u->c[i].ok = (1u << NREL) - 1;
		u->c[i].cand = -1;
	}
	return &u->c[i];
}

/* The call that made each communicator id, for what is said of it. */
void
syn_comm_ev(struct tr_syn *s, const struct tr_ev *e)
{
	struct tr_subs *u = subs(s);
	long i;
	int n;

	if (e->req < 0 || !syn_newcomm(&e->op))
		return;
	i = tr_map_get(u->ids, (const char *)&e->req, sizeof e->req, 0);
	if (i >= 0 && u->c[i].call) {
		if (u->c[i].parent != e->comm)
			u->c[i].pknown = -1;
		return;
	}
	sub_get(s, e->req, 1)->ok = (1u << NREL) - 1;
	i = tr_map_get(u->ids, (const char *)&e->req, sizeof e->req, 0);
	u->c[i].parent = e->comm;
	u->c[i].pknown = 1;
	n = snprintf(NULL, 0, "%.*s at %.*s", (int)e->op.n, e->op.p,
	    (int)e->site.n, e->site.p);
	u->c[i].inter = is_inter(&e->op);
	u->c[i].call = tr_malloc((size_t)n + 1);
	snprintf(u->c[i].call, (size_t)n + 1, "%.*s at %.*s", (int)e->op.n,
	    e->op.p, (int)e->site.n, e->site.p);
}

/* Candidate C's extent k for P ranks on a grid of DIMS; 0 if none. */
static long
cand_k(int c, long P, const int *dims)
{
	switch (cands[c].k) {
	case K_LAST: return dims[1];
	case K_FIRST: return dims[0];
	case K_TWO: return 2;
	default: return P == 1 ? 1 : P % 2 == 0 ? P / 2 : 0;
	}
}

/* The first member of rank R's communicator under candidate C at P
 * ranks, the step between members and their number; 0 if C has none
 * there. */
static long
cand_members(int c, long r, long P, const int *dims, long *first, long *step)
{
	long k = cand_k(c, P, dims);

	if (k <= 0 || r >= P)
		return 0;
	if (cands[c].shape == BLOCK) {
		*first = r / k * k;
		*step = 1;
		return P - *first < k ? P - *first : k;
	}
	*first = r % k;
	*step = k;
	return (P - 1 - *first) / k + 1;
}

/* The 2-D grid of a world cart record of section SECT, in D; 0 if none. */
static int
sect_cart(const struct tr_syn *s, long sect, int *d)
{
	size_t i;
	int j, m;

	for (i = 0; i < s->npst; i++) {
		const struct pendst *p = &s->pst[i], *q;

		if (!p->cart || p->sect != sect || i == 0)
			continue;
		q = &s->pst[i - 1];
		if (q->cart || !q->world || q->rank != p->rank || q->id != p->id)
			continue;
		for (m = 0, j = 0; j < p->c.nd; j++)
			if (p->c.dims[j] != 1) {
				if (m == 2)
					break;
				d[m++] = p->c.dims[j];
			}
		if (m == 2 && j == p->c.nd)
			return 1;
	}
	return 0;
}

/* The grid of rule RULE at section SECT of NP ranks, in D; 0 if none. */
static int
scale_dims(const struct tr_syn *s, int rule, long sect, long np, int *d)
{
	struct tr_subs *u = s->subs;

	if (rule == D_CREATE) {
		tr_grid_dims(np, 2, d);
		return 1;
	}
	/* once per section: a scan of every record per record would be
	 * quadratic in the ranks */
	tr_growz(&u->sknown, &u->scap, (size_t)sect + 1, 1);
	tr_growz(&u->sdims, &u->sdcap, (size_t)sect + 1, sizeof *u->sdims);
	if (!u->sknown[sect])
		u->sknown[sect] = (signed char)(1 + sect_cart(s, sect,
		    u->sdims[sect]));
	memcpy(d, u->sdims[sect], sizeof u->sdims[sect]);
	return u->sknown[sect] == 2;
}

/* 1 if members M (N of them) of rank R of P are candidate C's on grid
 * D. */
static int
explains(int c, long r, long P, const int *d, const long *m, long n)
{
	long first, step, k;

	if (cand_members(c, r, P, d, &first, &step) != n)
		return 0;
	for (k = 0; k < n; k++)
		if (m[k] != first + k * step)
			return 0;
	return 1;
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The place of R among the N ranks PM in world order, -1 if none. */
static long
place_of(const long *pm, long n, long r)
{
	const long *f = bsearch(&r, pm, (size_t)n, sizeof *pm, cmp_long);

	return f ? (long)(f - pm) : -1;
}

/* 1 if record P's members M (N) are base candidate C's in the places
 * of the communicator C was made from, at P's rank and scale. */
static int
explains_rel(struct tr_syn *s, const struct subcomm *sc, int c,
    const struct pendst *p, const long *m, long n)
{
	const struct pendst *q = NULL;
	long *pm = NULL, pn = 0, j, R, *pl;
	void **v;
	int d[2], ok = 0;

	if (sc->pknown != 1)
		return 0;
	if (sc->parent != 0) {
		v = tr_itab_get(&s->subs->recs, (int64_t)p->sect << 32 |
		    p->rank, sc->parent, 0);
		if (!v || !(q = *v))
			return 0;
	}
	if (!q || q->world) {
		/* the world's ranks are their own places */
		pn = q ? (long)q->size : (long)p->np;
		tr_grid_dims(pn, 2, d);
		return explains(c, (long)p->rank, pn, d, m, n);
	}
	if (!q->mem || tr_members(q->mem, strlen(q->mem), &pm, &pn) < 0 ||
	    pn != q->size) {
		free(pm);
		return 0;
	}
	/* a parent out of world order follows no candidate itself */
	for (j = 1; j < pn; j++)
		if (pm[j] <= pm[j - 1]) {
			free(pm);
			return 0;
		}
	pl = tr_calloc((size_t)n + 1, sizeof *pl);
	for (j = 0; j < n; j++)
		if ((pl[j] = place_of(pm, pn, m[j])) < 0)
			goto out;
	R = place_of(pm, pn, (long)p->rank);
	tr_grid_dims(pn, 2, d);
	ok = R >= 0 && explains(c, R, pn, d, pl, n);
out:
	free(pl);
	free(pm);
	return ok;
}

/* Checks each comm record of a sub-communicator id the template makes
 * against every candidate. */
static void
check_record(struct tr_syn *s, const struct pendst *p)
{
	struct subcomm *c = sub_get(s, p->id, 0);
	long *m = NULL, n = 0;
	int d[2], k, j;

	if (!c || p->np <= 0)
		return;
	if (p->world) {
		/* the world's ranks in order: a split that kept them all */
		m = tr_calloc((size_t)p->size + 1, sizeof *m);
		for (n = 0; n < p->size; n++)
			m[n] = n;
	} else if (!p->mem || tr_members(p->mem, strlen(p->mem), &m, &n) < 0 ||
	    n != p->size)
		n = -1;
	for (k = 0; k < NCAND; k++)
		if ((c->ok >> k & 1) && (n < 0 ||
		    !scale_dims(s, cands[k].dims, p->sect, (long)p->np, d) ||
		    !explains(k, (long)p->rank, (long)p->np, d, m, n)))
			c->ok &= ~(1u << k);
	for (k = 0; k < NCAND; k++)
		if ((c->ok >> (NCAND + k) & 1) && (n < 0 ||
		    cands[k].dims != D_CREATE || !explains_rel(s, c, k, p, m,
		    n)))
			c->ok &= ~(1u << (NCAND + k));
	free(m);
	if (!c->ok && !c->bad)
		c->bad = p;
	for (j = 0; j < c->nscales && c->scale[j] != p->np; j++)
		;
	if (j == c->nscales && j < 8)
		c->scale[c->nscales++] = p->np;
}

/* The template's cart records of its sub-communicators: a 1-D one is
 * written at the target with the communicator's size there. */
static void
learn_carts(struct tr_syn *s)
{
	struct tr_subs *u = s->subs;
	size_t i;
	int j, m, per = 0;

	for (i = 0; i < s->npst; i++) {
		const struct pendst *p = &s->pst[i];
		long ci;

		if (!p->cart || (size_t)p->sect >= s->evcap ||
		    !s->evsect[p->sect])
			continue;
		ci = tr_map_get(u->ids, (const char *)&p->id, sizeof p->id, 0);
		if (ci < 0 || u->c[ci].cand != -1)
			continue;
		for (m = 0, j = 0; j < p->c.nd; j++)
			if (p->c.dims[j] != 1)
				m++, per = p->c.per[j];
		if (m > 1)
			tr_die_files(s->nfiles, s->files, "-T: communicator %lld "
			    "(%s): a sub-communicator's Cartesian grid of %d "
			    "dimensions is not extrapolated", (long long)p->id,
			    u->c[ci].call ? u->c[ci].call : "made by an "
			    "unrecorded call", m);
		u->c[ci].cart = 1;
		u->c[ci].per = per;
	}
}

/* The members of rank R's communicator SC under its candidate C, at
 * the template's scale or the TARGET's: their number, the first and the
 * step between them; 0 if C gives R none. */
static long
members(struct tr_syn *s, const struct subcomm *sc, int c, long r,
    int target, long *first, long *step)
{
	long P = target ? s->nt : s->P, pf = 0, ps = 1, pn = P, R = r, n;
	const struct subcomm *pc;
	int d[2];

	if (c < 0)
		return 0;
	if (!RELATIVE(c))
		return cand_members(c, r, P, target ?
		    s->subs->gdims[cands[c].dims] :
		    s->subs->tdims[cands[c].dims], first, step);
	if (sc->pknown != 1)
		return 0;
	if (sc->parent != 0) {
		if (!(pc = sub_get(s, sc->parent, 0)) || pc->cand == -1)
			return 0;
		if (pc->cand >= 0) {
			pn = members(s, pc, pc->cand, r, target, &pf, &ps);
			if (pn <= 0 || r < pf || (r - pf) % ps ||
			    (R = (r - pf) / ps) >= pn)
				return 0;
		}
	}
	tr_grid_dims(pn, 2, d);
	if ((n = cand_members(c - NCAND, R, pn, d, first, step)) <= 0)
		return 0;
	*first = pf + *first * ps;
	*step *= ps;
	return n;
}

/* Candidate C's name, in BUF for one in its parent's places. */
static const char *
cand_name(int c, char *buf, size_t n)
{
	if (!RELATIVE(c))
		return cands[c].name;
	snprintf(buf, n, "%s, in the places of the communicator it was "
	    "made from", cands[c - NCAND].name);
	return buf;
}

/* Chooses the first candidate that explains SC and gives every target
 * rank members: 1, or 0 if none does yet (one in its parent's places
 * waits for the parent's). */
static int
choose(struct tr_syn *s, struct subcomm *sc)
{
	long t, f, st;
	int c;

	for (c = 0; c < NREL; c++) {
		if (!(sc->ok >> c & 1))
			continue;
		if (!RELATIVE(c)) {
			if (cand_k(c, s->nt, s->subs->gdims[cands[c].dims]) > 0)
				break;
			continue;
		}
		for (t = 0; t < s->nt; t++)
			if (members(s, sc, c, t, 1, &f, &st) <= 0)
				break;
		if (t == s->nt)
			break;
	}
	if (c == NREL)
		return 0;
	sc->cand = c;
	return 1;
}

/* The template's comm records of ids that some rank made as other than
 * the world are sub-communicators: each is explained by the first
 * candidate that gives its members at every recorded scale, or -T
 * refuses it naming its call and the candidates tried. */
void
syn_comm_begin(struct tr_syn *s)
{
	struct tr_subs *u = subs(s);
	unsigned char *sub = NULL;
	size_t i, cap = 0, k;
	int j, tcart[2], more;
	long tsect = -1;

	if (u->begun)
		return;
	u->begun = 1;
	for (i = 0; i < s->npst; i++) {
		const struct pendst *p = &s->pst[i];
		long ci;

		if (p->cart || (size_t)p->sect >= s->evcap ||
		    !s->evsect[p->sect])
			continue;
		tsect = p->sect;
		ci = tr_map_get(u->ids, (const char *)&p->id, sizeof p->id, 0);
		if (ci < 0 || (p->world && p->size == s->P))
			continue;
		tr_growz(&sub, &cap, (size_t)ci + 1, 1);
		sub[ci] = 1;
	}
	for (k = 0; k < u->n; k++) {
		struct subcomm *sc = &u->c[k];

		if (sc->inter)
			tr_die_files(s->nfiles, s->files, "-T: communicator %lld "
			    "(%s): intercommunicators and their merges are not "
			    "extrapolated", (long long)sc->id, sc->call);
		if (k >= cap || !sub[k])
			sc->ok = 0, sc->cand = -2;	/* the world's */
	}
	free(sub);
	learn_carts(s);
	for (i = 0; i < s->npst; i++)
		if (!s->pst[i].cart)
			*tr_itab_get(&u->recs, (int64_t)s->pst[i].sect << 32 |
			    s->pst[i].rank, s->pst[i].id, 1) = &s->pst[i];
	for (i = 0; i < s->npst; i++)
		if (!s->pst[i].cart) {
			const struct pendst *p = &s->pst[i];
			long ci = tr_map_get(u->ids, (const char *)&p->id,
			    sizeof p->id, 0);

			if (ci >= 0 && u->c[ci].cand == -1)
				check_record(s, p);
		}
	memset(u->tdims, 0, sizeof u->tdims);
	memset(u->gdims, 0, sizeof u->gdims);
	if (tsect >= 0 && sect_cart(s, tsect, tcart) && !s->peermode &&
	    s->tg.nd == 2 && syn_same_grid(&s->g, &s->cart)) {
		memcpy(u->tdims[D_CART], tcart, sizeof tcart);
		memcpy(u->gdims[D_CART], s->tg.dims, sizeof tcart);
	}
	tr_grid_dims(s->P, 2, u->tdims[D_CREATE]);
	tr_grid_dims(s->nt, 2, u->gdims[D_CREATE]);
	/* a communicator's candidate in its parent's places waits for the
	 * parent's */
	do {
		for (more = 0, k = 0; k < u->n; k++)
			if (u->c[k].cand == -1 && choose(s, &u->c[k]))
				more = 1;
	} while (more);
	for (k = 0; k < u->n; k++) {
		struct subcomm *sc = &u->c[k];
		char tried[1024];
		size_t l = 0;

		if (sc->cand != -1)
			continue;
		for (j = 0; j < NCAND && l < sizeof tried; j++)
			l += (size_t)snprintf(tried + l, sizeof tried - l, "%s%s",
			    j ? "; " : "", cands[j].name);
		if (l < sizeof tried)
			snprintf(tried + l, sizeof tried - l, "; those of the "
			    "dims_create grid in the places of the communicator "
			    "it was made from");
		if (sc->bad)
			tr_die_files(s->nfiles, s->files, "-T: communicator %lld "
			    "(%s): rank %lld's members at np=%lld, %s, follow "
			    "none of the candidates tried (%s): "
			    "sub-communicators of other members are not "
			    "extrapolated", (long long)sc->id, sc->call ?
			    sc->call : "made by an unrecorded call",
			    (long long)sc->bad->rank, (long long)sc->bad->np,
			    sc->bad->mem ? sc->bad->mem : sc->bad->world ?
			    "the world's" : "?", tried);
		tr_die_files(s->nfiles, s->files, "-T: communicator %lld (%s): "
		    "the candidates that give its members at the recorded "
		    "scales have none at %ld ranks", (long long)sc->id,
		    sc->call ? sc->call : "made by an unrecorded call", s->nt);
	}
}

void
syn_comm_undo(struct tr_syn *s)
{
	struct tr_subs *u = subs(s);
	size_t k;

	for (k = 0; k < u->n; k++)
		if (u->c[k].cand >= 0)
			u->c[k].cand = -1;
	u->begun = 0;
}

static const struct subcomm *
sub_of(struct tr_syn *s, int64_t id)
{
	const struct subcomm *c;

	if (!s->subs)
		return NULL;
	c = sub_get(s, id, 0);
	return c && c->cand >= 0 ? c : NULL;
}

/* 1 if some sub-communicator has cart records to write. */
int
syn_comm_carts(const struct tr_syn *s)
{
	size_t k;

	for (k = 0; s->subs && k < s->subs->n; k++)
		if (s->subs->c[k].cand >= 0 && s->subs->c[k].cart)
			return 1;
	return 0;
}

/* #meta lines of the sub-communicators: the candidate and its scales. */
void
syn_comm_meta(struct tr_syn *s, struct tr_out *o)
{
	size_t k;
	int j;
	char nb[160];

	for (k = 0; s->subs && k < s->subs->n; k++) {
		const struct subcomm *c = &s->subs->c[k];

		if (c->cand < 0)
			continue;
		tr_out_printf(o, "#meta extrap.comm.%lld=%s; np", (long long)c->id,
		    cand_name(c->cand, nb, sizeof nb));
		for (j = 0; j < c->nscales; j++)
			tr_out_printf(o, "%s%lld", j ? "," : " ",
			    (long long)c->scale[j]);
		tr_out_printf(o, "\n");
	}
}

/* The comm record of communicator ID for target rank T. */
void
syn_comm_put(struct tr_syn *s, struct tr_out *o, int64_t id, long t)
{
	const struct subcomm *c = sub_of(s, id);
	long first, step, n;

	if (!c) {
		tr_out_printf(o, "comm\t%ld\t%lld\t%ld\t0-%ld\n", t, (long long)id,
		    s->nt, s->nt - 1);
		return;
	}
	n = members(s, c, c->cand, t, 1, &first, &step);
	if (n == 1)
		tr_out_printf(o, "comm\t%ld\t%lld\t1\t%ld\n", t, (long long)id,
		    first);
	else if (step == 1)
		tr_out_printf(o, "comm\t%ld\t%lld\t%ld\t%ld-%ld\n", t,
		    (long long)id, n, first, first + n - 1);
	else
		tr_out_printf(o, "comm\t%ld\t%lld\t%ld\t%ld-%ld:%ld\n", t,
		    (long long)id, n, first, first + (n - 1) * step, step);
	if (c->cart)
		tr_out_printf(o, "cart\t%ld\t%lld\t%ld\t%d\n", t, (long long)id,
		    n, c->per);
}

/* The target's world rank for template rank E->rank's world rank W on
 * its sub-communicator E->comm, for target rank T: the member at the
 * same place. W itself if E->comm is none. */
long
syn_comm_rank(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    long t, long w)
{
	const struct subcomm *c = sub_of(s, e->comm);
	long f, st, n, tf, tst, tn, i;
	char nb[160];

	if (!c || w < 0)
		return w;
	n = members(s, c, c->cand, (long)e->rank, 0, &f, &st);
	tn = members(s, c, c->cand, t, 1, &tf, &tst);
	i = (w - f) / st;
	if (w < f || (w - f) % st || i >= n)
		tr_in_die(in, "-T: template rank %lld seq %lld names rank %ld, "
		    "not a member of its communicator %lld (%s)",
		    (long long)e->rank, (long long)e->seq, w, (long long)e->comm,
		    cand_name(c->cand, nb, sizeof nb));
	if (i >= tn)
		tr_in_die(in, "-T: template rank %lld seq %lld names the "
		    "member %ld of its communicator %lld (%s), which target "
		    "rank %ld's has not: its %ld members", (long long)e->rank,
		    (long long)e->seq, i, (long long)e->comm,
		    cand_name(c->cand, nb, sizeof nb), t, tn);
	return tf + i * tst;
}

/* Rank R's place in communicator ID and its members (the first, the
 * step between them), at the template's scale or at the TARGET's; the
 * number of members. ID is the world's when template rank A recorded
 * it with the world's ranks in order; 0 for a communicator that is
 * neither that nor explained by a candidate. */
long
syn_comm_place(struct tr_syn *s, int64_t id, long a, long r, int target,
    long *place, long *first, long *step)
{
	const struct subcomm *c = sub_of(s, id);
	long n, ci;

	if (!c) {
		ci = comm_index(s, a, id, 0);
		if (id != 0 && (ci < 0 || (size_t)ci >= s->ncs ||
		    !s->cworld[ci] || s->csize[ci] != s->P))
			return 0;
		*first = 0;
		*step = 1;
		*place = r;
		return target ? s->nt : s->P;
	}
	n = members(s, c, c->cand, r, target, first, step);
	if (n <= 0 || r < *first || (r - *first) % *step)
		return 0;
	*place = (r - *first) / *step;
	return *place < n ? n : 0;
}

/* Dies unless target rank T's peer X, grown from template rank E's
 * message on its sub-communicator, is a member of T's. */
void
syn_comm_peer(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    long t, long x)
{
	const struct subcomm *c = sub_of(s, e->comm);
	long f, st, n;
	char nb[160];

	if (!c || x < 0)
		return;
	n = members(s, c, c->cand, t, 1, &f, &st);
	if (x >= f && (x - f) % st == 0 && (x - f) / st < n)
		return;
	tr_in_die(in, "-T: template rank %lld seq %lld: its %.*s on "
	    "communicator %lld (%s) has peer rank %ld at the target, not a "
	    "member of target rank %ld's: the peer functions of the world do "
	    "not hold within it", (long long)e->rank, (long long)e->seq,
	    (int)e->op.n, e->op.p, (long long)e->comm,
	    cand_name(c->cand, nb, sizeof nb), x, t);
}

void
syn_comm_free(struct tr_syn *s)
{
	size_t k;

	if (!s->subs)
		return;
	for (k = 0; k < s->subs->n; k++)
		free(s->subs->c[k].call);
	free(s->subs->c);
	free(s->subs->sknown);
	free(s->subs->sdims);
	tr_itab_free(&s->subs->recs);
	tr_map_free(s->subs->ids);
	free(s->subs);
}
