/* peer-learn.c - the peers of each point-to-point call site, recorded
 * at several scales, explained by one peer function of (rank, P) per
 * class of ranks, or refused with what was seen and what was tried. */
#include <stdio.h>

#include "peer-int.h"

struct pseq {			/* one rank's peers at one site and scale */
	int32_t *v;
	int n, cap;
	long total;
};

struct fitted {
	int cl;
	struct pat_cand c;
	int any;
	long ncyc[PAT_MAXSCALES];
	/* The next function that explains the recorded scales as well,
	 * if any: where the two part at the target, the scales cannot
	 * tell which is the program's. */
	struct pat_cand alt;
	int hasalt;
};

/* The members of one sub-communicator, in its rank order. */
struct cmem {
	long *m, n;
};

enum { SITE_WORLD = 1, SITE_SUB };

struct psite {
	struct pseq *r[PAT_MAXSCALES];	/* np of the scale entries */
	/* A site on sub-communicators has its peers in their ranks: per
	 * scale, their size and each world rank's place (-1: no call). */
	int kind, mixed;
	int64_t comm;			/* the first call's communicator */
	long csize[PAT_MAXSCALES];
	int32_t *place[PAT_MAXSCALES];
	struct fitted f[2];	/* the function of each class, once fitted */
	int nf;			/* their number; 0 not fitted, -1 none fits */
	/* Sendrecv: whether one received from other than its destination */
	int sendrecv, notpair;
	/* The tags seen: the first, whether another differs, and the tag
	 * functions (bit per PAT_TAG_*) some message disproves. */
	int64_t tag0;
	int ntag, tagvar;
	unsigned tagbad;
	/* The first call's bytes and tag, for a reduction's level written
	 * where the template rank's call is at another site. */
	int64_t bytes0, tags0;
	int sampled;
	int group;		/* its reduction's (tr_pat_group), -1 none */
};

struct tr_pat {
	long np[PAT_MAXSCALES];
	int nscales;
	struct tr_map *smap;	/* op NUL site -> struct psite */
	struct psite *site;
	size_t sitecap;
	long othercomm;		/* calls on other communicators than the world */
	/* (scale << 32 | rank, comm id) of communicators whose members are
	 * the world's ranks in order (a Cartesian one not reordered), on
	 * which a peer is a world rank */
	struct tr_itab worldlike;
	/* With subs: (scale << 32 | rank, comm id) -> struct cmem of the
	 * other communicators, on which a site's peers are learnt in the
	 * communicator's ranks. */
	int subs;
	tr_pat_place_fn place;
	void *pctx;
	struct tr_itab cmem;
	struct tr_map *cmap;	/* member list -> p->cm, one per communicator */
	struct cmem **cm;
	size_t ncm, cmcap;
	long *cyc, *tmp;	/* a cycle, and a block of peers */
	size_t cyccap, tmpcap;
	int grouped;		/* the sites' groups made */
};

/* A split of the ranks into classes, each explained by its own
 * function: all alike, rank 0 apart (a master, a root), rank P-1
 * apart. */
enum { CL_ALL, CL_0, CL_LAST, CL_NOT0, CL_NOTLAST };
static const char *clname[] = {"all", "0", "P-1", "rest", "rest"};
static const int splits[3][2] = {{CL_ALL, -1}, {CL_0, CL_NOT0},
    {CL_LAST, CL_NOTLAST}};

struct tr_pat *
tr_pat_new(void)
{
	struct tr_pat *p = tr_calloc(1, sizeof *p);

	p->smap = tr_map_new();
	return p;
}

static int
scale_of(struct tr_pat *p, const struct tr_in *in)
{
	int64_t np;
	int i;

	if (tr_meta_i64(in, "np", &np) < 0 || np < 1)
		tr_in_die(in, "no np in the header: each scale's trace "
		    "needs its #meta np");
	for (i = 0; i < p->nscales; i++)
		if (p->np[i] == (long)np)
			return i;
	if (p->nscales == PAT_MAXSCALES)
		tr_in_die(in, "more than %d scales", PAT_MAXSCALES);
	p->np[p->nscales] = (long)np;
	return p->nscales++;
}

void
tr_pat_subcomms(struct tr_pat *p)
{
	p->subs = 1;
}

void
tr_pat_places(struct tr_pat *p, tr_pat_place_fn fn, void *ctx)
{
	p->place = fn;
	p->pctx = ctx;
}

/* Keeps comm record R's members, at scale S, for the messages of its
 * rank on it: one copy per list, which all members' records share, so
 * that memory grows with the ranks, not their square; a list that does
 * not parse leaves them unknown. */
static void
add_members(struct tr_pat *p, const struct tr_in *in, const struct tr_rec *r,
    int s)
{
	struct cmem *cm;
	long i;

	if (!p->cmap)
		p->cmap = tr_map_new();
	i = tr_map_get(p->cmap, r->f[4].p, r->f[4].n, 1);
	if ((size_t)i == p->ncm) {
		cm = tr_calloc(1, sizeof *cm);
		if (tr_members(r->f[4].p, r->f[4].n, &cm->m, &cm->n) < 0) {
			free(cm->m);
			cm->m = NULL;
			cm->n = -1;
		}
		tr_grow(&p->cm, &p->cmcap, p->ncm + 1, sizeof *p->cm);
		p->cm[p->ncm++] = cm;
	}
	cm = p->cm[i];
	if (cm->n < 0 || cm->n != tr_get_i64(in, r, 3))
		return;
	*tr_itab_get(&p->cmem, (int64_t)s << 32 | tr_get_i64(in, r, 1),
	    tr_get_i64(in, r, 2), 1) = cm;
}

#define SITE_KEY 512

/* A site's key in KEY (SITE_KEY bytes): op, NUL, call site, and with
 * COMM a NUL and E's communicator; its length, 0 if it does not fit. */
static size_t
site_key(char *key, const struct tr_ev *e, int comm)
{
	size_t n = e->op.n + 1 + e->site.n;
	int k;

	if (n > SITE_KEY)
		return 0;
	memcpy(key, e->op.p, e->op.n);
	key[e->op.n] = '\0';
	memcpy(key + e->op.n + 1, e->site.p, e->site.n);
	if (!comm)
		return n;
	k = snprintf(key + n, SITE_KEY - n, "%c%lld", '\0',
	    (long long)e->comm);
	return k < 0 || (size_t)k >= SITE_KEY - n ? 0 : n + (size_t)k;
}

/* A message of site ST from S to R of P (places in its communicator)
 * sent or received with TAG (< 0: MPI_ANY_TAG, which tells nothing). */
static void
tag_seen(struct psite *st, long snd, long rcv, long P, int64_t tag)
{
	int k;

	if (tag < 0)
		return;
	if (!st->ntag) {
		st->ntag = 1;
		st->tag0 = tag;
	} else if (tag != st->tag0)
		st->tagvar = 1;
	for (k = PAT_TAG_KEPT + 1; k < PAT_NTAG; k++)
		if (pat_tag(k, snd, rcv, P) != tag)
			st->tagbad |= 1u << k;
}

/* The tag function of site ST: the template's tags kept where they are
 * one, or where no function gives them. */
static int
tag_fn(const struct psite *st)
{
	int k;

	for (k = PAT_TAG_KEPT + 1; st->tagvar && k < PAT_NTAG; k++)
		if (!(st->tagbad & 1u << k))
			return k;
	return PAT_TAG_KEPT;
}

/* The place of world rank R in CM, -1 if none. */
static long
member(const struct cmem *cm, long r)
{
	long i;

	for (i = 0; i < cm->n; i++)
		if (cm->m[i] == r)
			return i;
	return -1;
}

int
tr_pat_add(struct tr_pat *p, const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_ev *e = &r->u.ev;
	const struct cmem *cm = NULL;
	struct psite *st;
	struct pseq *q;
	char key[SITE_KEY];
	size_t n;
	long i, cr, cp, P;
	int s, c, coll;

	if (r->type == TR_COMM) {
		char buf[48];
		int64_t sz = tr_get_i64(in, r, 3);

		s = scale_of(p, in);
		n = (size_t)snprintf(buf, sizeof buf, sz > 1 ? "0-%lld" : "0",
		    (long long)sz - 1);
		if (sz == p->np[s] && r->f[4].n == n &&
		    memcmp(r->f[4].p, buf, n) == 0)
			*tr_itab_get(&p->worldlike, (int64_t)s << 32 |
			    tr_get_i64(in, r, 1), tr_get_i64(in, r, 2), 1) = p;
		else if (p->subs)
			add_members(p, in, r, s);
		return 0;
	}
	if (r->type != TR_EV)
		return 0;
	c = tr_mpi_class(e->op.p, e->op.n, &coll);
	if (c != TR_MPI_SEND && c != TR_MPI_SSEND && c != TR_MPI_ISEND &&
	    c != TR_MPI_RECV && c != TR_MPI_IRECV && c != TR_MPI_SENDRECV)
		return 1;
	if (e->peer < 0)
		return 1;
	s = scale_of(p, in);
	if (e->rank >= p->np[s] || e->peer >= p->np[s])
		tr_in_die(in, "rank beyond np=%ld", p->np[s]);
	cr = cp = -1;
	if (e->comm != 0 && !tr_itab_get(&p->worldlike, (int64_t)s << 32 |
	    e->rank, e->comm, 0)) {
		void **v = p->subs ? tr_itab_get(&p->cmem, (int64_t)s << 32 |
		    e->rank, e->comm, 0) : NULL;

		if ((cm = v ? *v : NULL) != NULL) {
			cr = member(cm, (long)e->rank);
			cp = member(cm, (long)e->peer);
		}
		if (cr < 0 || cp < 0) {
			p->othercomm++;
			return 1;
		}
	}
	/* A site called on several communicators (a library's tree on the
	 * grid, its rows and its columns) is one site per communicator,
	 * each in its own ranks; the world's keeps the key of op and site,
	 * which tr_pat_peers looks up. */
	if (!(n = site_key(key, e, cm != NULL)))
		tr_in_die(in, "call site of %zu bytes", e->site.n);
	i = tr_map_get(p->smap, key, n, 1);
	tr_growz(&p->site, &p->sitecap, (size_t)i + 1, sizeof *p->site);
	st = &p->site[i];
	if (!st->r[s])
		st->r[s] = tr_calloc((size_t)p->np[s], sizeof *st->r[s]);
	if (!st->kind) {
		st->kind = cm ? SITE_SUB : SITE_WORLD;
		st->comm = e->comm;
	}
	if (st->kind != (cm ? SITE_SUB : SITE_WORLD))
		st->mixed = 1;
	if (cm) {
		if (!st->place[s]) {
			st->place[s] = tr_calloc((size_t)p->np[s],
			    sizeof *st->place[s]);
			for (i = 0; i < p->np[s]; i++)
				st->place[s][i] = -1;
			st->csize[s] = cm->n;
		}
		if (st->csize[s] != cm->n || (st->place[s][e->rank] >= 0 &&
		    st->place[s][e->rank] != cr))
			st->mixed = 1;
		st->place[s][e->rank] = (int32_t)cr;
	}
	q = &st->r[s][e->rank];
	if (q->n < PAT_MAXSEQ) {
		size_t cap = (size_t)q->cap;

		tr_grow(&q->v, &cap, (size_t)q->n + 1, sizeof *q->v);
		q->cap = (int)cap;
		q->v[q->n++] = (int32_t)(cm ? cp : e->peer);
	}
	q->total++;
	if (!st->sampled) {
		st->sampled = 1;
		st->bytes0 = e->bytes;
		st->tags0 = e->tag;
	}
	if (!cm)
		cr = (long)e->rank, cp = (long)e->peer;
	P = cm ? cm->n : p->np[s];
	if (c == TR_MPI_RECV || c == TR_MPI_IRECV)
		tag_seen(st, cp, cr, P, e->tag);
	else
		tag_seen(st, cr, cp, P, e->tag);
	if (c == TR_MPI_SENDRECV) {
		long src = e->root < 0 || e->root >= p->np[s] ? -1 :
		    cm ? member(cm, (long)e->root) : (long)e->root;

		st->sendrecv = 1;
		if (src != cp)
			st->notpair = 1;
		if (src >= 0)
			tag_seen(st, src, cr, P, e->req);
	}
	return 1;
}

static int
inclass(int cl, long r, long P)
{
	switch (cl) {
	case CL_0: return r == 0;
	case CL_LAST: return r == P - 1;
	case CL_NOT0: return r != 0;
	case CL_NOTLAST: return r != P - 1;
	default: return 1;
	}
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* 1 if the peers of every rank of class CL at every scale are C's
 * cycles repeated, as many times for each rank of the class: in C's
 * order, or (ANY) in any order within a cycle, as receives of any
 * source get them. The cycles per scale into N. */
static int
explains(struct tr_pat *p, const struct psite *st, int cl,
    const struct pat_cand *c, int any, long *ncyc)
{
	int s, j;
	long r, len, m, i, b;

	for (s = 0; s < p->nscales; s++) {
		long P = p->np[s];

		ncyc[s] = -1;
		if (!st->r[s])
			continue;
		tr_grow(&p->cyc, &p->cyccap, (size_t)P + PAT_MAXOFF,
		    sizeof *p->cyc);
		tr_grow(&p->tmp, &p->tmpcap, (size_t)P + PAT_MAXOFF,
		    sizeof *p->tmp);
		for (r = 0; r < P; r++) {
			const struct pseq *q = &st->r[s][r];
			long R = r, Pc = P;

			if (st->kind == SITE_SUB) {
				if ((R = st->place[s][r]) < 0)
					continue;
				Pc = st->csize[s];
			}
			if (!inclass(cl, R, Pc))
				continue;
			if ((len = pat_cycle(c, R, Pc, p->cyc)) < 0)
				return 0;
			if (len == 0) {
				if (q->total)
					return 0;
				continue;
			}
			if (q->total % len)
				return 0;
			if (ncyc[s] >= 0 && ncyc[s] != q->total / len)
				return 0;
			ncyc[s] = q->total / len;
			if (any)
				qsort(p->cyc, (size_t)len, sizeof *p->cyc,
				    cmp_long);
			for (b = 0; b < q->n; b += len) {
				m = q->n - b < len ? q->n - b : len;
				for (i = 0; i < m; i++)
					p->tmp[i] = q->v[b + i];
				if (!any) {
					for (i = 0; i < m; i++)
						if (p->tmp[i] != p->cyc[i])
							return 0;
					continue;
				}
				qsort(p->tmp, (size_t)m, sizeof *p->tmp,
				    cmp_long);
				for (i = 0, j = 0; i < m; i++) {
					while (j < len && p->cyc[j] < p->tmp[i])
						j++;
					if (j == len || p->cyc[j] != p->tmp[i])
						return 0;
					j++;
				}
			}
		}
	}
	return 1;
}

/* The rank of class CL at the largest scale with calls whose peers
 * differ most: the one whose first cycle shows every offset (an
 * interior rank of a grid). Its distinct peers in order into OUT. */
static int
learner(struct tr_pat *p, const struct psite *st, int cl, long *P0, long *r0,
    long *out)
{
	int s, best = -1, nbest = 0, i, k, n;
	long r;

	for (s = 0; s < p->nscales; s++)
		if (st->r[s] && (best < 0 || p->np[s] > p->np[best]))
			best = s;
	if (best < 0)
		return 0;
	*P0 = st->kind == SITE_SUB ? st->csize[best] : p->np[best];
	for (r = 0; r < p->np[best]; r++) {
		const struct pseq *q = &st->r[best][r];
		long tmp[PAT_MAXOFF], R = r;

		if (st->kind == SITE_SUB && (R = st->place[best][r]) < 0)
			continue;
		if (!inclass(cl, R, *P0))
			continue;
		for (n = 0, i = 0; i < q->n && n < PAT_MAXOFF; i++) {
			for (k = 0; k < n && tmp[k] != q->v[i]; k++)
				;
			if (k == n)
				tmp[n++] = q->v[i];
		}
		if (n > nbest) {
			nbest = n;
			*r0 = R;
			memcpy(out, tmp, (size_t)n * sizeof *out);
		}
	}
	return nbest;
}

/* The grid offsets from R0 of P0 ranks to its peers L on an ND-D grid;
 * 0 if a peer is not a neighbour (more than one step in a dimension of
 * a grid of two or more). */
static int
grid_offsets(struct pat_cand *c, long P0, long r0, const long *L, int nl)
{
	struct tr_grid g;
	int i, d, a[TR_GRID_MAXD], b[TR_GRID_MAXD];

	memset(&g, 0, sizeof g);
	g.nd = c->nd;
	g.np = P0;
	tr_grid_dims(P0, c->nd, g.dims);
	for (d = 0; d < c->nd; d++)
		if (g.dims[d] < 2)
			return 0;
	tr_grid_coords(&g, r0, a);
	c->noff = nl;
	for (i = 0; i < nl; i++) {
		tr_grid_coords(&g, L[i], b);
		for (d = 0; d < c->nd; d++) {
			int o = b[d] - a[d];

			if (c->periodic && o > g.dims[d] / 2)
				o -= g.dims[d];
			if (c->periodic && o < -(g.dims[d] - 1) / 2)
				o += g.dims[d];
			if (c->nd > 1 && (o < -1 || o > 1))
				return 0;
			c->off[i][d] = o;
			c->kind[i] = PAT_CONST;
		}
	}
	return 1;
}

/* The functions of every other rank after CS[N]; the new N. */
static int
pat_dense(struct pat_cand *cs, int n)
{
	cs[n++].fn = PAT_OTHERS;
	cs[n].fn = PAT_PAIRS, cs[n++].desc = 0;
	cs[n].fn = PAT_PAIRS, cs[n++].desc = 1;
	cs[n++].fn = PAT_XORPAIRS;
	return n;
}

/* The candidates of class CL, in the order tried: the first to explain
 * every scale is taken. Their number. */
static int
candidates(struct tr_pat *p, const struct psite *st, int cl,
    struct pat_cand *cs)
{
	long L[PAT_MAXOFF], P0 = 0, r0 = 0, s0;
	int nl, n = 0, nd, per, i, sym;

	memset(cs, 0, 32 * sizeof *cs);
	cs[n++].fn = PAT_NONE;
	nl = learner(p, st, cl, &P0, &r0, L);
	/* A rank that talks to every other is an all-pairs loop or a
	 * master before it is a stencil of that many offsets (the centre
	 * of 27 ranks): those are tried first. */
	if (P0 > 3 && nl >= P0 - 1)
		n = pat_dense(cs, n);
	for (nd = 1; nl > 0 && nd <= TR_GRID_MAXD; nd++)
		for (per = 0; per < 2; per++) {
			cs[n].fn = nd == 1 ? PAT_SHIFT : PAT_GRID;
			cs[n].nd = nd;
			cs[n].periodic = per;
			if (grid_offsets(&cs[n], P0, r0, L, nl))
				n++;
			else
				memset(&cs[n], 0, sizeof cs[n]);
		}
	/* The shifts again with the offsets of sqrt(P) or P/2 ranks as
	 * such, at the scale they were learnt at. */
	for (s0 = 0; s0 * s0 < P0; s0++)
		;
	for (per = 0; nl > 0 && per < 2; per++) {
		cs[n].fn = PAT_SHIFT;
		cs[n].nd = 1;
		cs[n].periodic = per;
		if (!grid_offsets(&cs[n], P0, r0, L, nl))
			continue;
		for (sym = 0, i = 0; i < nl; i++) {
			int o = cs[n].off[i][0], a = o < 0 ? -o : o;

			if (s0 * s0 == P0 && a == s0 && a > 1) {
				cs[n].off[i][0] = o < 0 ? -1 : 1;
				cs[n].kind[i] = PAT_SQRT;
				sym = 1;
			} else if (P0 % 2 == 0 && a == P0 / 2 && a > 1) {
				cs[n].off[i][0] = o < 0 ? -1 : 1;
				cs[n].kind[i] = PAT_HALF;
				sym = 1;
			}
		}
		if (sym)
			n++;
		else
			memset(&cs[n], 0, sizeof cs[n]);
	}
	cs[n].fn = PAT_XOR, cs[n++].desc = 0;
	cs[n].fn = PAT_XOR, cs[n++].desc = 1;
	for (i = 0; i < 4; i++) {
		cs[n].fn = PAT_XORBIT;
		cs[n].set = i / 2;
		cs[n++].desc = i % 2;
	}
	if (!(P0 > 3 && nl >= P0 - 1))
		n = pat_dense(cs, n);
	cs[n].fn = PAT_ROOT, cs[n++].desc = 0;
	cs[n].fn = PAT_ROOT, cs[n++].desc = 1;
	cs[n++].fn = PAT_PARENT;
	cs[n].fn = PAT_CHILDREN, cs[n++].desc = 0;
	cs[n].fn = PAT_CHILDREN, cs[n++].desc = 1;
	return n;
}

/* The record of one class: which function, in what order, over which
 * scales, with how many cycles at each. */
static void
write_peer(struct tr_pat *p, struct tr_out *o, const char *key, size_t kn,
    const struct psite *st, const struct fitted *f)
{
	/* room for PAT_MAXSCALES counts of up to 20 digits each */
	char arg[2048], trips[32], nps[1024], cyc[1024], cs[1024], comm[24];
	size_t a = 0, b = 0, c = 0;
	int s, k, j, used = 0, order[PAT_MAXSCALES];

	nps[0] = cyc[0] = cs[0] = '\0';
	for (k = 0; k < p->nscales; k++) {
		/* the scales in order of np, whatever the order of files */
		for (s = 0, j = 0; j < p->nscales; j++)
			if (p->np[j] < p->np[k])
				s++;
		order[s] = k;
	}
	for (k = 0; k < p->nscales; k++) {
		s = order[k];
		if (f->ncyc[s] < 0)
			continue;
		a += (size_t)snprintf(nps + a, sizeof nps - a, "%s%ld",
		    used ? "," : "", p->np[s]);
		b += (size_t)snprintf(cyc + b, sizeof cyc - b, "%s%ld",
		    used ? "," : "", f->ncyc[s]);
		if (st->kind == SITE_SUB)
			c += (size_t)snprintf(cs + c, sizeof cs - c, "%s%ld",
			    used ? "," : "", st->csize[s]);
		used++;
	}
	if (st->kind == SITE_SUB)
		snprintf(comm, sizeof comm, "%lld", (long long)st->comm);
	else
		snprintf(comm, sizeof comm, "world");
	pat_arg_str(&f->c, arg, sizeof arg);
	/* (a sub-communicator's key ends in a NUL and its id, which %.*s
	 * stops before) */
	tr_out_printf(o, "peer\t%s\t%.*s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s"
	    "\t%s\t%s\t%s\t%s\n", key, (int)(kn - strlen(key) - 1),
	    key + strlen(key) + 1, clname[f->cl], pat_fn_name(&f->c), arg,
	    f->any ? "any" : "fixed", pat_trips(&f->c, trips, sizeof trips),
	    used, used ? nps : "-", used ? cyc : "-", comm,
	    c ? cs : "-", !st->sendrecv ? "-" : st->notpair ? "inverse" :
	    "peer", pat_tag_name(tag_fn(st)));
}

/* What the site's ranks were seen to talk to at each scale: the first
 * few pairs, then "...". */
static void
refusal(struct tr_pat *p, const struct psite *st, const char *key, size_t kn,
    char *why, size_t wn)
{
	char seen[1024];
	size_t m = 0;
	int s, k;
	long r, i;

	seen[0] = '\0';
	if (st->mixed) {
		snprintf(why, wn, "%s at %.*s: its calls are on the world and "
		    "on sub-communicators, on sub-communicators of several "
		    "sizes at one scale, or at several places of them on one "
		    "rank: no one peer function can give them", key,
		    (int)(kn - strlen(key) - 1), key + strlen(key) + 1);
		return;
	}
	for (s = 0; s < p->nscales; s++) {
		if (!st->r[s])
			continue;
		m += (size_t)snprintf(seen + m, sizeof seen - m, "%snp=%ld:",
		    m ? "; " : "", p->np[s]);
		if (st->kind == SITE_SUB)
			m += (size_t)snprintf(seen + m, sizeof seen - m,
			    " on communicator %lld of %ld, its ranks",
			    (long long)st->comm, st->csize[s]);
		for (k = 0, r = 0; r < p->np[s] && m < sizeof seen; r++)
			for (i = 0; i < st->r[s][r].n && m < sizeof seen;
			    i++) {
				if (k++ == 4) {
					m += (size_t)snprintf(seen + m,
					    sizeof seen - m, " ...");
					r = p->np[s];
					break;
				}
				m += (size_t)snprintf(seen + m, sizeof seen - m,
				    " %ld>%d", st->kind == SITE_SUB ?
				    (long)st->place[s][r] : r,
				    st->r[s][r].v[i]);
			}
		if (m >= sizeof seen)
			break;
	}
	snprintf(why, wn, "%s at %.*s: no peer function of (rank, P) "
	    "explains its peers (%s); tried for all ranks, rank 0 apart and "
	    "rank P-1 apart: grid offsets in 1 to 3 dimensions, diagonals "
	    "included, open or periodic (rank+-c), rank+-sqrt(P), "
	    "rank+-P/2, butterfly rank^2^k, its levels by the rank's bit, "
	    "all-pairs (rank+-i) mod P, "
	    "rank^i, every other rank, roots 0 and P-1, binomial parent "
	    "and children", key, (int)(kn - strlen(key) - 1),
	    key + strlen(key) + 1, seen);
}

static int
dense(const struct pat_cand *c)
{
	return c->fn == PAT_PAIRS || c->fn == PAT_XORPAIRS ||
	    c->fn == PAT_OTHERS;
}

/* The first of CS[J + 1 .. NC) that explains ST's class CL as CS[J]
 * does, with NCYC cycles at each scale, into *ALT: 1, or 0 if none. A
 * class that never calls the site has none, nor a rank that talks to
 * every other (tried as such before it is a stencil of that many
 * offsets). */
static int
rival(struct tr_pat *p, const struct psite *st, int cl,
    const struct pat_cand *cs, int nc, int j, int any, const long *ncyc,
    struct pat_cand *alt)
{
	long n[PAT_MAXSCALES];
	int s, calls = 0, j0 = j;

	for (s = 0; s < p->nscales; s++)
		calls |= ncyc[s] > 0;
	if (!calls)
		return 0;
	while (++j < nc)
		if (cs[j].fn != PAT_NONE && !(dense(&cs[j0]) &&
		    (cs[j].fn == PAT_GRID || cs[j].fn == PAT_SHIFT)) &&
		    explains(p, st, cl, &cs[j], any, n)) {
			*alt = cs[j];
			return 1;
		}
	return 0;
}

/* Fits site ST: its classes' functions into ST->f; their number, 0 if
 * none explains it. */
static int
fit_site(struct tr_pat *p, struct psite *st)
{
	struct pat_cand cs[32];
	struct fitted *f = st->f;
	int sp, k = 0, nc, j, any, ok;

	if (st->nf)
		return st->nf > 0 ? st->nf : 0;
	if (st->mixed) {
		st->nf = -1;
		return 0;
	}
	for (ok = 0, sp = 0; !ok && sp < 3; sp++) {
		for (k = 0; k < 2 && splits[sp][k] >= 0; k++) {
			int cl = splits[sp][k];

			nc = candidates(p, st, cl, cs);
			/* any order only once no function explains the
			 * order seen */
			for (ok = 0, any = 0; !ok && any < 2; any++)
				for (j = 0; !ok && j < nc; j++)
					if (explains(p, st, cl, &cs[j], any,
					    f[k].ncyc)) {
						ok = 1;
						f[k].cl = cl;
						f[k].c = cs[j];
						f[k].any = any;
						f[k].hasalt = rival(p, st, cl,
						    cs, nc, j, any, f[k].ncyc,
						    &f[k].alt);
					}
			if (!ok)
				break;
		}
	}
	st->nf = ok ? k : -1;
	return ok ? k : 0;
}

int
tr_pat_fit(struct tr_pat *p, char *why, size_t wn)
{
	size_t i, kn;

	for (i = 0; i < tr_map_len(p->smap); i++) {
		const char *key = tr_map_key(p->smap, (long)i, &kn);

		if (!fit_site(p, &p->site[i])) {
			refusal(p, &p->site[i], key, kn, why, wn);
			return -1;
		}
	}
	return 0;
}

/* The site of E's (op, site), on its communicator if that has a site
 * of its own; NULL if none. */
static struct psite *
find_site(struct tr_pat *p, const struct tr_ev *e)
{
	char key[SITE_KEY];
	size_t n;
	long i = -1;

	if (e->comm != 0 && (n = site_key(key, e, 1)))
		i = tr_map_get(p->smap, key, n, 0);
	if (i < 0 && (n = site_key(key, e, 0)))
		i = tr_map_get(p->smap, key, n, 0);
	return i < 0 ? NULL : &p->site[i];
}

/* Rank R of P's place *RR in site ST's communicator and its size *PP,
 * the first member and the step between them in *F, *STEP; 0 if R has
 * no place (the world's site: R of P, 0 and 1). */
static int
site_place(struct tr_pat *p, const struct psite *st, long r, long P,
    long *rr, long *pp, long *f, long *step)
{
	*rr = r, *pp = P, *f = 0, *step = 1;
	if (st->kind != SITE_SUB)
		return 1;
	if (!p->place)
		return 0;
	*pp = p->place(p->pctx, st->comm, r, P, rr, f, step);
	return *pp > 0;
}

/* The function of rank R of P's class at site ST, and R's place *RR
 * of *PP in the site's communicator with its first member and step;
 * NULL if none fits or R has no place. */
static const struct fitted *
site_fn(struct tr_pat *p, struct psite *st, long r, long P, long *rr,
    long *pp, long *f, long *step)
{
	int k, nf;

	if (!st || !(nf = fit_site(p, st)) ||
	    !site_place(p, st, r, P, rr, pp, f, step))
		return NULL;
	for (k = 0; k < nf; k++)
		if (inclass(st->f[k].cl, *rr, *pp))
			return &st->f[k];
	return NULL;
}

static const struct fitted *
rank_fn(struct tr_pat *p, const struct tr_ev *e, long r, long P, long *rr,
    long *pp, long *f, long *step)
{
	return site_fn(p, find_site(p, e), r, P, rr, pp, f, step);
}

long
tr_pat_shape(struct tr_pat *p, const struct tr_ev *e, long r, long P)
{
	long R, Pc, f, step;
	const struct fitted *fn = rank_fn(p, e, r, P, &R, &Pc, &f, &step);

	if (!fn)
		return -1;
	tr_grow(&p->cyc, &p->cyccap, (size_t)Pc + PAT_MAXOFF, sizeof *p->cyc);
	return pat_shape(&fn->c, R, Pc, p->cyc);
}

/* 1 if site ST's Sendrecvs receive from the rank they send to, each
 * call an exchange of one pair. */
static int
pairwise(const struct psite *st)
{
	return st->sendrecv && !st->notpair;
}

long
tr_pat_peers(struct tr_pat *p, const struct tr_ev *e, long r, long P,
    long *out, int inverse)
{
	struct pat_cand c;
	long i, n, R, Pc, f, step;
	struct psite *st = find_site(p, e);
	const struct fitted *fn = site_fn(p, st, r, P, &R, &Pc, &f, &step);

	if (!fn)
		return -1;
	c = fn->c;
	/* Exchanges with every other rank in an order of the program's
	 * own (FFTW's schedule): each its pair's, in rounds, as the order
	 * of the function's cycle would leave ranks waiting on each other
	 * in a ring. */
	if (pairwise(st) && fn->any && (c.fn == PAT_OTHERS ||
	    c.fn == PAT_PAIRS || c.fn == PAT_XORPAIRS))
		n = pat_rounds(R, Pc, out);
	else if (pairwise(st) && inverse)
		n = pat_cycle(&c, R, Pc, out);
	else if (inverse && pat_inverse(&c) < 0)
		return -1;
	else
		n = pat_cycle(&c, R, Pc, out);
	for (i = 0; i < n; i++)
		out[i] = f + out[i] * step;
	return n;
}

int
tr_pat_pairwise(struct tr_pat *p, const struct tr_ev *e)
{
	const struct psite *st = find_site(p, e);

	return st && pairwise(st);
}

int64_t
tr_pat_tag(struct tr_pat *p, const struct tr_ev *e, long snd, long rcv,
    long P)
{
	const struct psite *st = find_site(p, e);
	long S, R, Pc, f, step;
	int fn;

	if (!st || (fn = tag_fn(st)) == PAT_TAG_KEPT ||
	    !site_place(p, st, snd, P, &S, &Pc, &f, &step) || step <= 0 ||
	    rcv < f || (rcv - f) % step || (R = (rcv - f) / step) >= Pc)
		return -1;
	return pat_tag(fn, S, R, Pc);
}

/* Sites of one reduction by levels (PAT_XORBIT of every rank, in the
 * order seen, on one communicator, k the same way): those of its
 * sending levels and those of its receiving ones are one loop, whose
 * calls follow the levels k across the sites. */
enum { GROUP_MAXSITES = 4 };

static int
group_site(struct tr_pat *p, struct psite *st, size_t i)
{
	const char *op = tr_pat_site_op(p, i);
	int coll, c = tr_mpi_class(op, strlen(op), &coll);

	return fit_site(p, st) == 1 && st->f[0].cl == CL_ALL &&
	    st->f[0].c.fn == PAT_XORBIT && !st->f[0].any &&
	    (c == TR_MPI_SEND || c == TR_MPI_SSEND || c == TR_MPI_RECV);
}

static int
same_loop(const struct psite *a, const struct psite *b)
{
	return a->kind == b->kind && (a->kind != SITE_SUB ||
	    a->comm == b->comm) && a->f[0].c.desc == b->f[0].c.desc;
}

static void
make_groups(struct tr_pat *p)
{
	size_t i, j, n = tr_map_len(p->smap);
	int g = 0, nset, nclr;

	if (p->grouped)
		return;
	p->grouped = 1;
	for (i = 0; i < n; i++)
		p->site[i].group = group_site(p, &p->site[i], i) ? -2 : -1;
	for (i = 0; i < n; i++) {
		struct psite *a = &p->site[i];

		if (a->group != -2)
			continue;
		for (nset = nclr = 0, j = i; j < n; j++)
			if (p->site[j].group == -2 &&
			    same_loop(a, &p->site[j])) {
				p->site[j].group = g;
				nset += p->site[j].f[0].c.set;
				nclr += !p->site[j].f[0].c.set;
			}
		/* one kind of level alone is a cycle of its own */
		if (!nset || !nclr || nset > GROUP_MAXSITES ||
		    nclr > GROUP_MAXSITES)
			for (j = i; j < n; j++)
				if (p->site[j].group == g)
					p->site[j].group = -1;
		g += nset && nclr;
	}
}

int
tr_pat_group(struct tr_pat *p, const struct tr_ev *e)
{
	struct psite *st = find_site(p, e);

	make_groups(p);
	return st ? st->group : -1;
}

int
tr_pat_site_grouped(struct tr_pat *p, size_t i)
{
	make_groups(p);
	return p->site[i].group >= 0;
}

long
tr_pat_site_index(struct tr_pat *p, const struct tr_ev *e)
{
	struct psite *st = find_site(p, e);

	return st ? (long)(st - p->site) : -1;
}

long
tr_pat_gseq(struct tr_pat *p, const struct tr_ev *e, long r, long P,
    long *peers, long *sites)
{
	struct psite *st = find_site(p, e);
	long R, Pc, f, step, n = 0, k, q;
	size_t j, ns = tr_map_len(p->smap);
	int lv, i, desc;

	make_groups(p);
	if (!st || st->group < 0 || !site_place(p, st, r, P, &R, &Pc, &f,
	    &step))
		return -1;
	desc = st->f[0].c.desc;
	for (lv = 0; (1L << lv) < Pc; lv++)
		;
	for (i = 0; i < lv; i++) {
		k = desc ? lv - 1 - i : i;
		if ((q = R ^ (1L << k)) >= Pc)
			continue;
		for (j = 0; j < ns; j++)
			if (p->site[j].group == st->group &&
			    p->site[j].f[0].c.set == ((R >> k) & 1)) {
				peers[n] = f + q * step;
				sites[n++] = (long)j;
			}
	}
	return n;
}

void
tr_pat_site_call(const struct tr_pat *p, long i, struct tr_field *op,
    struct tr_field *site, int64_t *bytes, int64_t *tag)
{
	size_t kn, ol;
	const char *key = tr_map_key(p->smap, i, &kn);

	ol = strlen(key);
	op->p = key;
	op->n = ol;
	site->p = key + ol + 1;
	site->n = strnlen(site->p, kn - ol - 1);
	*bytes = p->site[i].bytes0;
	*tag = p->site[i].tags0;
}

void
tr_pat_class(struct tr_pat *p, long r, long P, int *cls, long *len,
    long *shape)
{
	size_t i;

	tr_grow(&p->cyc, &p->cyccap, (size_t)P + PAT_MAXOFF, sizeof *p->cyc);
	for (i = 0; i < tr_map_len(p->smap); i++) {
		struct psite *st = &p->site[i];
		long R, Pc, f, step;
		const struct fitted *fn = site_fn(p, st, r, P, &R, &Pc, &f,
		    &step);

		/* no class of the fitted ones: past their number */
		cls[i] = fn ? (int)(fn - st->f) : fit_site(p, st);
		len[i] = fn ? pat_cycle(&fn->c, R, Pc, p->cyc) : -1;
		if (shape)
			shape[i] = fn ? pat_shape(&fn->c, R, Pc, p->cyc) : -1;
	}
}

size_t
tr_pat_nsub(const struct tr_pat *p)
{
	size_t i, n = 0;

	for (i = 0; i < tr_map_len(p->smap); i++)
		n += p->site[i].kind == SITE_SUB;
	return n;
}

size_t
tr_pat_nsites(const struct tr_pat *p)
{
	return tr_map_len(p->smap);
}

/* 1 if F's function and its rival give rank R of P other peers, their
 * numbers in *NX and *NY: in order, or as sets where F's order is any.
 * The peers into *X and *Y. */
static int
parts(const struct fitted *F, long r, long P, long **x, size_t *xc, long **y,
    size_t *yc, long *nx, long *ny)
{
	tr_grow(x, xc, (size_t)P + PAT_MAXOFF, sizeof **x);
	tr_grow(y, yc, (size_t)P + PAT_MAXOFF, sizeof **y);
	*nx = pat_cycle(&F->c, r, P, *x);
	*ny = pat_cycle(&F->alt, r, P, *y);
	if (*nx != *ny)
		return 1;
	if (*nx <= 0)
		return 0;
	if (F->any) {
		tr_sort(*x, (size_t)*nx, sizeof **x, cmp_long);
		tr_sort(*y, (size_t)*ny, sizeof **y, cmp_long);
	}
	return memcmp(*x, *y, (size_t)*nx * sizeof **x) != 0;
}

int
tr_pat_parted(struct tr_pat *p, long P, char *why, size_t wn)
{
	long *a = NULL, *b = NULL, na = 0, nb = 0, r, R = 0, Pc = 0, f, step;
	long stepr;
	size_t s, kn, acap = 0, bcap = 0;
	const struct fitted *F = NULL;
	char fa[1024], fb[1024];
	const char *key;

	for (s = 0; s < tr_map_len(p->smap); s++) {
		/* every rank up to 4096, then as many spread over P; 64 of
		 * a dense site, whose cycles are P long */
		stepr = P > 4096 ? P / 4096 : 1;
		for (r = 0; r < P; r += stepr) {
			F = site_fn(p, &p->site[s], r, P, &R, &Pc, &f, &step);
			if (!F || !F->hasalt)
				continue;
			if (dense(&F->c) && stepr < P / 64)
				stepr = P / 64;
			if (parts(F, R, Pc, &a, &acap, &b, &bcap, &na, &nb))
				break;
		}
		if (r < P)
			break;
	}
	free(a);
	free(b);
	if (s == tr_map_len(p->smap))
		return 0;
	pat_arg_str(&F->c, fa, sizeof fa);
	pat_arg_str(&F->alt, fb, sizeof fb);
	key = tr_map_key(p->smap, (long)s, &kn);
	snprintf(why, wn, "%s at %.*s: %s %s and %s %s both explain its peers "
	    "at the recorded scales, but give rank %ld of %ld %ld and %ld "
	    "peers%s: no scale recorded tells which is the program's; record "
	    "one where they part", key, (int)(kn - strlen(key) - 1),
	    key + strlen(key) + 1, pat_fn_name(&F->c), fa,
	    pat_fn_name(&F->alt), fb, R, Pc, na, nb,
	    na == nb ? ", not the same" : "");
	return -1;
}

const char *
tr_pat_site_op(const struct tr_pat *p, size_t i)
{
	size_t kn;

	/* a key begins with the op and its NUL */
	return tr_map_key(p->smap, (long)i, &kn);
}

long
tr_pat_othercomm(const struct tr_pat *p)
{
	return p->othercomm;
}

void
tr_pat_write(struct tr_pat *p, const struct tr_in *in,
    struct tr_out *o)
{
	char why[2048];
	size_t i, kn;
	int j, nf;

	tr_out_fields(o, TR_PEER);
	if (p->othercomm)
		tr_warn("%ld point-to-point calls on communicators other "
		    "than MPI_COMM_WORLD and its copies in rank order, whose "
		    "peers are not modelled",
		    p->othercomm);
	for (i = 0; i < tr_map_len(p->smap); i++) {
		const char *key = tr_map_key(p->smap, (long)i, &kn);
		struct psite *st = &p->site[i];

		if (!(nf = fit_site(p, st))) {
			refusal(p, st, key, kn, why, sizeof why);
			tr_in_die_all(in, "%s", why);
		}
		for (j = 0; j < nf; j++)
			write_peer(p, o, key, kn, st, &st->f[j]);
	}
}

void
tr_pat_free(struct tr_pat *p)
{
	size_t i;
	int s;
	long r;

	if (!p)
		return;
	for (i = 0; i < tr_map_len(p->smap); i++)
		for (s = 0; s < p->nscales; s++)
			for (r = 0; p->site[i].r[s] && r < p->np[s]; r++)
				free(p->site[i].r[s][r].v);
	for (i = 0; i < tr_map_len(p->smap); i++)
		for (s = 0; s < p->nscales; s++) {
			free(p->site[i].r[s]);
			free(p->site[i].place[s]);
		}
	for (i = 0; i < p->ncm; i++) {
		free(p->cm[i]->m);
		free(p->cm[i]);
	}
	free(p->cm);
	tr_itab_free(&p->cmem);
	if (p->cmap)
		tr_map_free(p->cmap);
	free(p->site);
	free(p->cyc);
	free(p->tmp);
	tr_map_free(p->smap);
	tr_itab_free(&p->worldlike);
	free(p);
}
