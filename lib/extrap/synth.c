/* synth.c - a whole trace at a target scale from the trace of a run at
 * a smaller one (the template): ranks mapped by their position on the
 * process grid the template's messages reveal, peers and bytes scaled
 * strongly or weakly, delta times drawn from extrapolated histograms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

/* Bursts of one key behind its running level: the lower median of
 * the last NLEVEL, which follows a warm-up or a drift as soon as most
 * of them do, and not one burst slowed by the scheduler. */
#define NLEVEL 5
/* Lags that followers of one template rank take: beyond them, lags
 * repeat. Each lag costs a burst per template rank and key, so a
 * 65,536-rank target grown from a small template holds 256 of them, not
 * tens of thousands. */
#define MAXLAG 256
/* Cursors open at once (struct cursor): each holds a reader's buffers,
 * about 400 kB, and a file. The template as one file per rank keeps
 * those of one receiving rank open; a merged one keeps all. */
#define MAXCURSORS 256
/* Sendrecvs per template rank whose directions are compared between
 * ranks at one kind of grid position (same_moves). */
#define NMOVES 64

struct tgt {			/* a target rank while writing */
	int64_t clock, lstart, lend;
	uint64_t rng;
};

struct tmpl {			/* a template rank while streaming */
	int64_t pend, pseq;
	char *psite;
	int seen;
	/* Sends and receives so far along each 2-rank periodic dimension,
	 * whose two neighbours are one rank (see sides()). */
	unsigned nsend[TR_GRID_MAXD], nrecv[TR_GRID_MAXD];
};

struct binset {			/* predicted delta bins of one interval */
	double lo[64], hi[64], cnt[64], mean[64];
	int n;
	double ratio;		/* hist mean at target / at template */
	double hn;		/* hist n predicted */
	int sane;
	/* q10, q25, q50, q75, q90 at the target and at the template's
	 * scale, when the models have them all. */
	double qt[5], qs[5];
	int hasq;
};

struct cartrec {
	int nd, dims[TR_CART_MAXD], per[TR_CART_MAXD];
};

struct tr_syn {
	struct tr_xp *xp;
	long nt, P;		/* ranks at the target and in the template */
	double N;
	uint64_t seed;
	/* Pass 1: who talks to whom, how much, and the communicators. */
	struct tr_map *pmap, *cmap;
	long (*pairs)[2];
	double (*pbytes)[2];	/* bytes and messages of each pair */
	size_t npairs, paircap, pbcap;
	int64_t *csize;
	unsigned char *cworld;	/* members are the world ranks in order */
	size_t ncs, cscap, cwcap;
	unsigned char *rseen;	/* template ranks that have ev records */
	size_t rscap;
	/* The destinations of each template rank's first NMOVES
	 * Sendrecvs, in order (rank * NMOVES + k), and how many. */
	long *moves;
	int *nmoves;
	long nseen;
	char *npfile;		/* where the template's #meta np was read */
	long npline;
	/* The grid of the first Cartesian communicator of the template
	 * whose members are the world ranks in order (dimensions of extent
	 * 1 left out): the world's grid. */
	struct tr_grid cart;
	struct cartrec tcart;	/* its cart record, extents of 1 kept */
	/* Set by tr_syn_begin. */
	struct tr_grid g, tg;
	char gridrule[256];	/* how tg was chosen: #meta extrap.grid.rule */
	int strong;
	long *rep;		/* the template rank each target rank follows */
	struct tgt *tgt;
	struct tmpl *tm;
	struct tr_map *bmap;
	char *bkey;		/* binset_get's key of CPU bins */
	size_t bkeycap;
	struct binset *bins;
	size_t nbins, bincap;
	char *hkey;		/* hist_push's key */
	size_t hkeycap;
	char *key;		/* of the interval at hand, as long as it is */
	size_t keycap;
	struct tr_itab side;	/* (rank, req) -> side of a pending one */
	struct tr_itab stags;	/* (rank, peer) -> struct stags */
	/* (rank, comm id) -> struct cartrec: the template's Cartesian
	 * communicators on the world's grid, as recorded (extents of 1
	 * kept), for the target's cart records. */
	struct tr_itab carts;
	/* Template compute bursts by (template rank, interval key), the
	 * last hcap of them, for the target ranks that follow one template
	 * rank to take its noise at different lags (hist_lagged). */
	long *lag;		/* target rank t takes lag[t] bursts back */
	long *nfol;		/* target ranks per template rank */
	long nlag;		/* their most */
	long hcap;		/* bursts a ring holds */
	struct tr_map *hmap;
	struct hist *hist;
	size_t nhist, histcap;
	/* comm and cart records as read, learnt once pass 1 has shown
	 * which sections are the template's: those with ev records. A
	 * model file carries the comm and cart records of every run it
	 * was fitted on, passed through (a 2-rank grid beside an 8-rank
	 * one, and comm ids that clash). */
	struct pendst *pst;
	size_t npst, pstcap;
	unsigned char *evsect;	/* sections with ev records */
	size_t evcap;
	/* Messages of the output, sent less received, per (source,
	 * destination, tag) and per pair: a trace that does not balance
	 * cannot be replayed. Wildcards, and Sendrecv for the tags, leave
	 * the check undecided. */
	struct tr_map *msgs;
	int64_t *mcount;
	/* The largest message of the template per (sender, receiver,
	 * tag), then per (tag or -1 for any, dimension, side): what a
	 * receive along that direction must hold when it cannot be paired
	 * with its message, since on the target its sender follows another
	 * template rank than its template peer. */
	struct tr_map *smap, *dmap;
	double *smax, *dmax;
	int64_t (*skey)[3];
	size_t smcap, skcap, dmcap;
	size_t mcap;
	int wild, untagged;
	/* A receive holds the message that matches it (MPI's order: the
	 * k-th from a source with a tag on a communicator), read from the
	 * template's files by a cursor over its sender's sends (struct
	 * cursor). The files and, per template rank, the span of them that
	 * holds its ev records (first + 1, last + 1; 0 for none). */
	char **files;
	int nfiles, nofile;
	const char *lastname;
	int lastfi;
	int (*fspan)[2];
	size_t fscap;
	/* Per template rank: ev records (pass 1), left (pass 2). */
	int64_t *nev;
	size_t nevcap;
	/* Template ranks whose receives cannot be paired with messages in
	 * order: wildcards, matched probes, cancels, Sendrecvs that
	 * receive another tag than they send. */
	unsigned char *nomatch;
	size_t nmcap;
	/* (rank, site) of a template Irecv -> 2 if some posted more than
	 * the message it got (a buffer), else 1 if some posted its size. */
	struct tr_map *sitemap;
	unsigned char *siterel;
	size_t srcap;
	char *rkey;
	size_t rkeycap;
	struct tr_itab pirecv;	/* pass 1: (rank, req) -> struct pirecv */
	/* Cursors by (template receiver, template sender, tag, comm,
	 * offset from receiver to sender on the target grid); those of a
	 * receiver chained from curhead, closed after its last record. */
	struct tr_map *curmap;
	struct cursor *cur;
	size_t curcap;
	/* (op, call site) of a send -> site_kept's answer + 1, 0 if not
	 * asked yet: asked per message, answered by a model lookup. */
	struct tr_map *keptmap;
	unsigned char *kept;
	size_t keptcap;
	long *curhead;
	uint64_t stamp;		/* template records seen in pass 2 */
	int nopen;		/* cursors open */
	int capwarn;		/* cursors that MAXCURSORS kept closed */
	/* (target rank, req) -> the bytes of the message its pending
	 * receive holds, for the record that completes it. */
	struct tr_itab rbytes;
};

/* The sends of template rank a, read from its files, that target rank
 * u0, following it, makes to target rank t0 with a tag on a
 * communicator: what t0's receives from u0 match, in order. Every
 * target pair (t, u) whose t follows the same template rank, whose u
 * follows a, and whose u lies at the same offset from t, receives the
 * same messages at the same template records. */
struct cursor {
	struct tr_in *in;	/* NULL once closed */
	long a, u0, t0;
	int64_t tag, comm;
	/* a's sends along each 2-rank periodic dimension so far, as
	 * sides() counts them. */
	unsigned nsend[TR_GRID_MAXD];
	uint64_t stamp;		/* the template record it last advanced at */
	int64_t bytes;		/* that message's bytes at the target, or -1 */
	long next;		/* the receiver's next cursor, or -1 */
};

struct pirecv {
	int64_t bytes;
	long site;
};

struct hist {
	int64_t n;		/* bursts seen */
	int64_t level[2];	/* of wall and cpu, at the last burst */
	int64_t (*v)[4];	/* ring: wall, cpu, their residuals */
};

/* The tags a template rank sends to one peer with, in order of first
 * use, up to two (n 3: more than two). */
struct stags {
	int64_t tag[2];
	int n;
};

static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
is_sendrecv(const struct tr_field *op)
{
	return op->n >= 12 && memcmp(op->p, "MPI_Sendrecv", 12) == 0;
}

static int
is_newcomm(const struct tr_field *op)
{
	static const char *ops[] = {"MPI_Comm_dup", "MPI_Comm_split",
		"MPI_Comm_create", "MPI_Cart_create", "MPI_Cart_sub", NULL};
	int i;

	for (i = 0; ops[i]; i++)
		if (strlen(ops[i]) == op->n && memcmp(ops[i], op->p, op->n) == 0)
			return 1;
	return 0;
}

struct tr_syn *
tr_syn_new(struct tr_xp *xp, long np, double N, uint64_t seed)
{
	struct tr_syn *s = tr_calloc(1, sizeof *s);

	s->xp = xp;
	s->nt = np;
	s->N = N;
	s->seed = seed;
	s->P = -1;
	s->pmap = tr_map_new();
	s->cmap = tr_map_new();
	s->msgs = tr_map_new();
	s->bmap = tr_map_new();
	s->smap = tr_map_new();
	s->dmap = tr_map_new();
	s->hmap = tr_map_new();
	s->sitemap = tr_map_new();
	s->curmap = tr_map_new();
	s->keptmap = tr_map_new();
	return s;
}

void
tr_syn_files(struct tr_syn *s, int nfiles, char **files)
{
	s->files = files;
	s->nfiles = nfiles;
}

/* The index of the file IN reads among the template's files, or -1. */
static int
file_index(struct tr_syn *s, const struct tr_in *in)
{
	const char *nm = tr_in_file(in);

	if (nm != s->lastname) {
		s->lastname = nm;
		for (s->lastfi = 0; s->lastfi < s->nfiles &&
		    s->files[s->lastfi] != nm; s->lastfi++)
			;
	}
	return s->lastfi < s->nfiles ? s->lastfi : -1;
}

/* The (rank, site) of E in s->rkey; its length. */
static size_t
site_key(struct tr_syn *s, const struct tr_ev *e)
{
	tr_grow(&s->rkey, &s->rkeycap, sizeof e->rank + e->site.n, 1);
	memcpy(s->rkey, &e->rank, sizeof e->rank);
	memcpy(s->rkey + sizeof e->rank, e->site.p, e->site.n);
	return sizeof e->rank + e->site.n;
}

/* What pass 1 learns for pairing receives with their messages: where
 * each rank's records are, which ranks' receives can be paired, and
 * whether an Irecv posts its message's size or a larger buffer (its
 * completion has the size received). */
static void
learn_match(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);
	size_t r = (size_t)e->rank, n;
	struct pirecv *q;
	int fi = file_index(s, in);
	void **v;

	tr_growz(&s->fspan, &s->fscap, r + 1, sizeof *s->fspan);
	tr_growz(&s->nev, &s->nevcap, r + 1, sizeof *s->nev);
	tr_growz(&s->nomatch, &s->nmcap, r + 1, 1);
	if (fi < 0)
		s->nofile = 1;
	else {
		if (!s->fspan[r][0])
			s->fspan[r][0] = fi + 1;
		s->fspan[r][1] = fi + 1;
	}
	s->nev[r]++;
	switch (c) {
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		if (e->peer < 0 || e->tag < 0 || coll == TR_P2P_MATCHED)
			s->nomatch[r] = 1;
		if (c == TR_MPI_IRECV && e->req >= 0 && e->peer >= 0) {
			n = site_key(s, e);
			v = tr_itab_get(&s->pirecv, e->rank, e->req, 1);
			if (!*v)
				*v = tr_malloc(sizeof *q);
			q = *v;
			q->bytes = e->bytes;
			q->site = tr_map_get(s->sitemap, s->rkey, n, 1);
			tr_growz(&s->siterel, &s->srcap, (size_t)q->site + 1, 1);
		}
		break;
	case TR_MPI_SENDRECV:
		if (e->root >= 0 && e->root != e->rank && e->req != e->tag)
			s->nomatch[r] = 1;
		break;
	case TR_MPI_PROBE:
		if (coll == TR_P2P_MATCHED)
			s->nomatch[r] = 1;
		break;
	case TR_MPI_CANCEL:
		s->nomatch[r] = 1;
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (e->req < 0 || !(v = tr_itab_get(&s->pirecv, e->rank,
		    e->req, 0)))
			break;
		q = *v;
		/* tr-gen's completions name no source and no size. */
		if (e->peer >= 0)
			s->siterel[q->site] |= q->bytes == e->bytes ? 1 : 2;
		free(q);
		tr_itab_del(&s->pirecv, e->rank, e->req);
		break;
	}
}

static void
learn_tag(struct tr_syn *s, const struct tr_ev *e)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);
	struct stags *t;
	void **v;

	if (c != TR_MPI_SEND && c != TR_MPI_SSEND && c != TR_MPI_ISEND &&
	    c != TR_MPI_SENDRECV)
		return;
	v = tr_itab_get(&s->stags, e->rank, e->peer, 1);
	if (!*v)
		*v = tr_calloc(1, sizeof *t);
	t = *v;
	if ((t->n > 0 && t->tag[0] == e->tag) || (t->n > 1 && t->tag[1] ==
	    e->tag) || t->n == 3)
		return;
	if (t->n < 2)
		t->tag[t->n] = e->tag;
	t->n++;
}

/* The largest V under key K of map M, its values in *ARR; the index. */
static long
put_max(struct tr_map *m, double **arr, size_t *cap, const int64_t k[3],
    double v)
{
	long i = tr_map_get(m, (const char *)k, 3 * sizeof *k, 1);

	tr_growz(arr, cap, (size_t)i + 1, sizeof **arr);
	if (v > (*arr)[i])
		(*arr)[i] = v;
	return i;
}

/* Under its tag and under -1 (any tag, for a wildcard receive). */
static void
send_max(struct tr_syn *s, const struct tr_ev *e)
{
	int j;

	for (j = 0; j < 2; j++) {
		int64_t k[3] = {e->rank, e->peer, j ? -1 : e->tag};
		long i = put_max(s->smap, &s->smax, &s->smcap, k,
		    (double)e->bytes);

		tr_grow(&s->skey, &s->skcap, (size_t)i + 1, sizeof *s->skey);
		memcpy(s->skey[i], k, sizeof k);
	}
}

static void
learn_ev(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e)
{
	char buf[64];
	int64_t np;
	long pi;
	int k;

	if (tr_meta_i64(in, "np", &np) < 0)
		tr_in_die(in, "no np in the template's header");
	if (s->P >= 0 && np != s->P)
		tr_in_die(in, "the template holds runs at np=%ld "
		    "and np=%ld: give the files of one run", s->P, (long)np);
	if (s->P < 0) {
		const char *f;

		s->npline = tr_meta_where(in, "np", &f);
		s->npfile = tr_strdup(f);
	}
	s->P = (long)np;
	if (e->rank >= s->P || e->peer >= s->P)
		tr_in_die(in, "rank beyond np=%ld", s->P);
	learn_match(s, in, e);
	tr_growz(&s->rseen, &s->rscap, (size_t)e->rank + 1, 1);
	if (!s->rseen[e->rank]) {
		s->rseen[e->rank] = 1;
		s->nseen++;
	}
	if (e->peer >= 0 && e->peer != e->rank && e->bytes > 0) {
		int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);

		if (c == TR_MPI_SEND || c == TR_MPI_SSEND || c == TR_MPI_ISEND)
			send_max(s, e);
	}
	/* Only Sendrecvs: each pairs a send with a receive in one call, so
	 * their order decides whether ranks meet; the order of other sends
	 * may differ harmlessly by rank (Isends before a Waitall). Empty
	 * ones too, which a rank with nothing to send still makes. */
	if (e->peer >= 0 && e->peer != e->rank && is_sendrecv(&e->op)) {
		if (!s->moves) {
			s->moves = tr_calloc((size_t)s->P * NMOVES,
			    sizeof *s->moves);
			s->nmoves = tr_calloc((size_t)s->P, sizeof *s->nmoves);
		}
		if (s->nmoves[e->rank] < NMOVES)
			s->moves[e->rank * NMOVES + s->nmoves[e->rank]++] =
			    (long)e->peer;
	}
	for (k = 0; k < 2; k++) {
		long a = (long)e->rank, b = k ? (long)e->root : (long)e->peer;
		int n;

		if (k && !is_sendrecv(&e->op))
			continue;
		if (!k && e->peer < 0)
			continue;
		if (b < 0 || a == b)
			continue;
		if (!k)
			learn_tag(s, e);
		n = snprintf(buf, sizeof buf, "%ld,%ld", a < b ? a : b,
		    a < b ? b : a);
		pi = tr_map_get(s->pmap, buf, (size_t)n, 1);
		if ((size_t)pi == s->npairs) {
			tr_grow(&s->pairs, &s->paircap, s->npairs + 1,
			    sizeof *s->pairs);
			tr_grow(&s->pbytes, &s->pbcap, s->npairs + 1,
			    sizeof *s->pbytes);
			s->pairs[s->npairs][0] = a;
			s->pairs[s->npairs][1] = b;
			s->pbytes[s->npairs][0] = 0;
			s->pbytes[s->npairs++][1] = 0;
		}
		if (!k && e->bytes > 0) {
			s->pbytes[pi][0] += (double)e->bytes;
			s->pbytes[pi][1]++;
		}
	}
}

/* The index of (RANK, ID) among the comm records: ids are numbered on
 * each rank (tr-format(5)). -1 if absent and not ADD. */
static long
comm_index(struct tr_syn *s, int64_t rank, int64_t id, int add)
{
	int64_t k[2] = {rank, id};

	return tr_map_get(s->cmap, (const char *)k, sizeof k, add);
}

struct pendst {			/* a comm or cart record of pass 1 */
	long sect;
	int cart;		/* else comm */
	int world;		/* comm: members are the world in order */
	int64_t rank, id, size;
	struct cartrec c;
};

static int
same_grid(const struct tr_grid *a, const struct tr_grid *b)
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

static void
learn_comm(struct tr_syn *s, const struct pendst *p)
{
	long ci = comm_index(s, p->rank, p->id, 1);

	if ((size_t)ci >= s->ncs) {
		tr_grow(&s->csize, &s->cscap, (size_t)ci + 1,
		    sizeof *s->csize);
		s->ncs = (size_t)ci + 1;
	}
	s->csize[ci] = p->size;
	tr_grow(&s->cworld, &s->cwcap, (size_t)ci + 1, 1);
	s->cworld[ci] = (unsigned char)p->world;
}

/* A cart record gives the world's grid when its communicator's members,
 * from the comm record before it, are the world ranks in order; every
 * rank's record of a communicator on that grid is kept. */
static void
learn_cart(struct tr_syn *s, const struct pendst *p)
{
	const struct cartrec *c = &p->c;
	struct tr_grid g;
	void **v;
	long ci;
	int i;

	ci = comm_index(s, p->rank, p->id, 0);
	if (ci < 0 || (size_t)ci >= s->ncs || !s->cworld[ci])
		return;
	memset(&g, 0, sizeof g);
	for (i = 0; i < c->nd; i++) {
		if (c->dims[i] == 1)
			continue;
		if (g.nd == TR_GRID_MAXD)
			return;
		g.dims[g.nd] = c->dims[i];
		g.periodic[g.nd++] = c->per[i];
	}
	g.np = (long)s->csize[ci];
	if (s->cart.nd == 0) {
		s->cart = g;
		s->tcart = *c;
	} else if (!same_grid(&g, &s->cart))
		return;
	v = tr_itab_get(&s->carts, p->rank, p->id, 1);
	if (!*v)
		*v = tr_malloc(sizeof *c);
	memcpy(*v, c, sizeof *c);
}

/* The comm and cart records of the sections that hold ev records. */
static void
learn_structure(struct tr_syn *s)
{
	size_t i;

	for (i = 0; i < s->npst; i++) {
		const struct pendst *p = &s->pst[i];

		if ((size_t)p->sect >= s->evcap || !s->evsect[p->sect])
			continue;
		if (p->cart)
			learn_cart(s, p);
		else
			learn_comm(s, p);
	}
}

/* The target's cart record, for target rank T, of the communicator
 * template rank RANK made as ID, when it is on the world's grid: the
 * target grid, with the template's extents of 1 where they were. */
static void
put_cart(struct tr_syn *s, struct tr_out *o, int64_t rank, int64_t id,
    long t)
{
	void **v = tr_itab_get(&s->carts, rank, id, 0);
	const struct cartrec *c;
	char d[16 * TR_CART_MAXD], p[4 * TR_CART_MAXD];
	size_t nd = 0, np = 0;
	int i, k = 0;

	if (!v || !same_grid(&s->g, &s->cart))
		return;
	c = *v;
	for (i = 0; i < c->nd; i++) {
		int one = c->dims[i] == 1;

		nd += (size_t)snprintf(d + nd, sizeof d - nd, "%s%d",
		    i ? "," : "", one ? 1 : s->tg.dims[k]);
		np += (size_t)snprintf(p + np, sizeof p - np, "%s%d",
		    i ? "," : "", one ? c->per[i] : s->tg.periodic[k]);
		k += !one;
	}
	tr_out_printf(o, "cart\t%ld\t%lld\t%s\t%s\n", t, (long long)id, d,
	    p);
}

void
tr_syn_add(struct tr_syn *s, const struct tr_in *in, const struct tr_rec *r)
{
	long sect = tr_in_section(in);
	struct pendst *p;
	char buf[64], err[128];
	int n;

	if (r->type == TR_MODEL) {
		tr_xp_add(s->xp, in, r);
		return;
	}
	if (r->type == TR_EV) {
		learn_ev(s, in, &r->u.ev);
		tr_growz(&s->evsect, &s->evcap, (size_t)sect + 1, 1);
		s->evsect[sect] = 1;
		return;
	}
	if (r->type != TR_COMM && r->type != TR_CART)
		return;
	tr_grow(&s->pst, &s->pstcap, s->npst + 1, sizeof *s->pst);
	p = &s->pst[s->npst++];
	memset(p, 0, sizeof *p);
	p->sect = sect;
	p->rank = tr_get_i64(in, r, 1);
	p->id = tr_get_i64(in, r, 2);
	if (r->type == TR_CART) {
		p->cart = 1;
		if (tr_cart_read(r, TR_CART_MAXD, &p->c.nd, p->c.dims,
		    p->c.per, err, sizeof err))
			tr_in_die(in, "cart: %s", err);
		return;
	}
	p->size = tr_get_i64(in, r, 3);
	n = snprintf(buf, sizeof buf, p->size > 1 ? "0-%lld" : "0",
	    (long long)p->size - 1);
	p->world = r->f[4].n == (size_t)n &&
	    memcmp(r->f[4].p, buf, (size_t)n) == 0;
}

/* The bins of interval KEY's FIELD: wall time, or CPU time (cpu != 0),
 * kept under the key behind "cpu" and a TAB, which no key holds. */
static struct binset *
binset_get(struct tr_syn *s, const char *key, int cpu, int add)
{
	size_t n = strlen(key);
	long i;

	if (cpu) {
		tr_grow(&s->bkey, &s->bkeycap, n + 4, 1);
		memcpy(s->bkey, "cpu\t", 4);
		memcpy(s->bkey + 4, key, n);
		key = s->bkey;
		n += 4;
	}
	i = tr_map_get(s->bmap, key, n, add);

	if (i < 0)
		return NULL;
	if ((size_t)i >= s->nbins) {
		tr_grow(&s->bins, &s->bincap, (size_t)i + 1, sizeof *s->bins);
		memset(s->bins + s->nbins, 0, ((size_t)i + 1 - s->nbins) *
		    sizeof *s->bins);
		s->nbins = (size_t)i + 1;
	}
	return &s->bins[i];
}

/* The predicted quantiles of hist group G at the target (QT) and at the
 * template's scale (QS); 0 unless all five are modelled and usable. */
static int
get_quantiles(const struct tr_xp *x, long g, double *qt, double *qs)
{
	static const char *qn[] = {"q10", "q25", "q50", "q75", "q90"};
	int i;

	for (i = 0; i < 5; i++)
		if (tr_xp_get(x, g, qn[i], &qt[i], &qs[i]) < 0)
			return 0;
	/* Fits of neighbouring quantiles may cross (LAMMPS's main force
	 * interval at 16 ranks: q90 below q10). Sorted, they keep the
	 * spread the fits predict; ordered outwards from the median
	 * instead, that interval collapsed to one value. */
	tr_sort(qt, 5, sizeof *qt, tr_cmp_f64);
	tr_sort(qs, 5, sizeof *qs, tr_cmp_f64);
	/* A noisy fit must not turn into a wild scaling. */
	for (i = 0; i < 5; i++)
		if (!(qs[i] > 0) || !(qt[i] >= 0) || qt[i] / qs[i] > 10 ||
		    qt[i] / qs[i] < 0.1)
			return 0;
	return 1;
}

/* Gathers the predicted wall-time and CPU-time histograms by interval
 * key. */
static void
collect_bins(struct tr_syn *s)
{
	const struct tr_xp *x = s->xp;
	size_t i;

	for (i = 0; i < tr_xp_ngroups(x); i++) {
		const char *type, *key;
		double lo, hi, cnt, mean, lo2, hi2, cnt2, mean2;
		int hasmean, hascnt;
		struct binset *bs;
		long bi, g = (long)i;
		char *f, *k = NULL, *b = NULL;
		int cpu = 0;

		type = tr_xp_group(x, i, &key);
		f = tr_flat_keyval(key, "field");
		if (f && (strcmp(f, "wall") == 0 ||
		    (cpu = strcmp(f, "cpu") == 0)))
			k = tr_flat_keyval(key, "key");
		free(f);
		if (!k)
			continue;
		if (strcmp(type, "hist") == 0) {
			hasmean = tr_xp_get(x, g, "mean", &mean, &mean2) == 0;
			hascnt = tr_xp_get(x, g, "n", &cnt, &cnt2) == 0;
			bs = binset_get(s, k, cpu, 1);
			/* A noisy fit must not turn into a wild scaling. */
			if (hasmean && mean2 > 0 && mean >= 0 &&
			    mean / mean2 <= 10 && mean / mean2 >= 0.1)
				bs->ratio = mean / mean2;
			bs->hn = hascnt ? cnt : -1;
			bs->hasq = get_quantiles(x, g, bs->qt, bs->qs);
			free(k);
			continue;
		}
		if (strcmp(type, "bin") == 0)
			b = tr_flat_keyval(key, "bin");
		bi = b ? strtol(b, NULL, 10) : -1;
		free(b);
		if (bi < 0 || bi >= 64 ||
		    tr_xp_get(x, g, "lo", &lo, &lo2) < 0 ||
		    tr_xp_get(x, g, "hi", &hi, &hi2) < 0 ||
		    tr_xp_get(x, g, "count", &cnt, &cnt2) < 0 ||
		    tr_xp_get(x, g, "mean", &mean, &mean2) < 0) {
			free(k);
			continue;
		}
		bs = binset_get(s, k, cpu, 1);
		free(k);
		bs->lo[bi] = lo;
		bs->hi[bi] = hi;
		bs->cnt[bi] = cnt > 0 ? round(cnt) : 0;
		bs->mean[bi] = mean;
		if (bi + 1 > bs->n)
			bs->n = (int)bi + 1;
	}
}

/* Predicted bins are drawn from only when they form a histogram: bounds
 * in order, means inside, counts adding up to the predicted n. */
static void
check_bins(struct tr_syn *s)
{
	size_t k;
	int i;

	for (k = 0; k < s->nbins; k++) {
		struct binset *bs = &s->bins[k];
		double tot = 0;

		bs->sane = bs->n > 0;
		for (i = 0; i < bs->n; i++) {
			tot += bs->cnt[i];
			if (bs->hi[i] < bs->lo[i] || (i > 0 && bs->lo[i] <
			    bs->hi[i - 1] - 1e-9 * fabs(bs->hi[i - 1])) ||
			    (bs->cnt[i] > 0 && (bs->mean[i] < bs->lo[i] ||
			    bs->mean[i] > bs->hi[i])))
				bs->sane = 0;
		}
		if (bs->hn > 0 && fabs(tot - bs->hn) > 0.1 * bs->hn)
			bs->sane = 0;
	}
}

/* llround beyond int64 is unspecified (INT64_MIN on x86, a time or a
 * size below zero): values past it saturate, which the callers' checks
 * then refuse. */
static int64_t
rnd64(double v)
{
	if (v >= 0x1p63)
		return INT64_MAX;
	if (v <= -0x1p63)
		return INT64_MIN;
	return v == v ? (int64_t)llround(v) : 0;
}

/* The burst TDELTA of the template moved to the same quantile of the
 * predicted distribution at the target, piecewise linear between the
 * predicted quantiles at both scales: the bursts follow the predicted
 * quantiles, and a warm-up or the noise keeps its place. Outside
 * q10..q90 the end quantile's ratio applies: the extremes, one burst
 * each, fit worst (with them as ends the stencil's slow 5 % came out
 * 30 % too slow at 64 ranks). */
static int64_t
qmap(const struct binset *bs, int64_t tdelta)
{
	const double *s = bs->qs, *t = bs->qt;
	double v = (double)tdelta;
	int i;

	if (v <= s[0]) {
		v *= t[0] / s[0];
	} else if (v >= s[4]) {
		v *= t[4] / s[4];
	} else {
		for (i = 0; i < 3 && v > s[i + 1]; i++)
			;
		v = t[i] + (v - s[i]) / (s[i + 1] - s[i]) * (t[i + 1] - t[i]);
	}
	return v > 0 ? rnd64(v) : 0;
}

/* A delta of an interval with predicted bins BS: the template's, TDELTA,
 * mapped through the predicted quantiles, else drawn from the bins when
 * they form a histogram, else scaled by the predicted change of the
 * mean. */
static int64_t
draw(const struct binset *bs, int64_t tdelta, uint64_t *rng)
{
	double tot = 0, u, v;
	int i;

	if (!bs)
		return tdelta;
	if (bs->hasq)
		return qmap(bs, tdelta);
	for (i = 0; i < bs->n; i++)
		tot += bs->cnt[i];
	if (!bs->sane)
		tot = 0;
	if (tot <= 0)
		return bs->ratio > 0 ? rnd64(tdelta * bs->ratio) :
		    tdelta;
	u = (double)(splitmix(rng) >> 11) / 9007199254740992.0 * tot;
	for (i = 0; i < bs->n - 1 && u >= bs->cnt[i]; i++)
		u -= bs->cnt[i];
	v = bs->mean[i];
	if (v < bs->lo[i])
		v = bs->lo[i];
	if (bs->hi[i] > bs->lo[i] && v > bs->hi[i])
		v = bs->hi[i];
	return v > 0 ? rnd64(v) : 0;
}

/* Bytes per call of OP (N bytes) predicted at the target over those at
 * the template's scale, from opstat models: 1 without them, and the
 * template's bytes in *TB. */
static double
byteratio_of(const struct tr_syn *s, const char *op, size_t n, double *tb)
{
	char key[256 - sizeof "opstat"];
	double b, b2, c, c2;
	long gi;

	*tb = 0;
	snprintf(key, sizeof key, "op=%.*s", (int)n, op);
	gi = tr_xp_find(s->xp, "opstat", key);
	if (gi < 0 || tr_xp_get(s->xp, gi, "bytes", &b, &b2) < 0 ||
	    tr_xp_get(s->xp, gi, "calls", &c, &c2) < 0 ||
	    b2 <= 0 || c2 <= 0 || c <= 0 || b < 0)
		return 1;
	*tb = b2;
	return (b / c) / (b2 / c2);
}

static double
byteratio(const struct tr_syn *s, const struct tr_field *op)
{
	double tb;

	return byteratio_of(s, op->p, op->n, &tb);
}

/* A grid whose dimensions are all equal cannot show strong scaling in
 * its halo sizes (strong_scaling()); the models can: bytes per message
 * of the point-to-point op that moves most, predicted at the target,
 * nearer to the strong-scaling surface ratio (P / nt)^((d - 1) / d)
 * than to 1 (weak scaling: the same); -1 when no model tells. */
static int
strong_by_models(const struct tr_syn *s)
{
	static const char *const ops[] = { "MPI_Isend", "MPI_Send",
	    "MPI_Sendrecv", "MPI_Issend", "MPI_Ssend", "MPI_Irsend",
	    "MPI_Rsend", "MPI_Ibsend", "MPI_Bsend", NULL };
	double r = 1, best = 0, tb, x, e;
	size_t i;

	for (i = 0; ops[i]; i++) {
		x = byteratio_of(s, ops[i], strlen(ops[i]), &tb);
		if (tb > best) {
			best = tb;
			r = x;
		}
	}
	if (s->g.nd < 2 || s->nt == s->P)
		return 0;
	if (best <= 0 || !(r > 0))
		return -1;
	e = pow((double)s->P / (double)s->nt,
	    (double)(s->g.nd - 1) / s->g.nd);
	return fabs(log(r) - log(e)) < fabs(log(r));
}

/* The dimension along which neighbours A and B of grid G lie. */
static int
direction(const struct tr_grid *g, long a, long b)
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
static int
side_of(const struct tr_grid *g, long a, long b, int *dim)
{
	int x[TR_GRID_MAXD], y[TR_GRID_MAXD], i = direction(g, a, b), d;

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

/* Folds the largest sends per pair into those per direction: under the
 * side each was sent to and under side 0 (either). */
static void
fold_sends(struct tr_syn *s)
{
	size_t i, n = tr_map_len(s->smap);

	for (i = 0; i < n; i++) {
		int dim, side = side_of(&s->g, (long)s->skey[i][0],
		    (long)s->skey[i][1], &dim), d;

		for (d = -1; d <= 1; d++)
			if (d == 0 || side == 0 || d == side)
				put_max(s->dmap, &s->dmax, &s->dmcap,
				    (int64_t[3]){s->skey[i][2], dim, d},
				    s->smax[i]);
	}
}

/* Target rank t's peer for template rank rep's peer. Along a periodic
 * dimension of 2 ranks the neighbour on either side is the same rank,
 * so the step is side (-1 or 1), which the caller chooses. */
static long
mapped(const struct tr_grid *tg, const struct tr_grid *g, long rep,
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
static int
pdim(const struct tr_syn *s, int64_t rank, long peer)
{
	int i = direction(&s->g, (long)rank, peer);

	if (peer == rank || !s->g.periodic[i] || s->g.dims[i] != 2)
		return -1;
	return i;
}

/* The two tags RANK sends to PEER with, or NULL. */
static const struct stags *
two_tags(struct tr_syn *s, int64_t rank, long peer)
{
	void **v = tr_itab_get(&s->stags, rank, peer, 0);

	return v && (*v) && ((struct stags *)*v)->n == 2 ? *v : NULL;
}

/* The side of a send (class CLS, tag TAG) of RANK to PEER along a
 * periodic dimension of 2 ranks, the rank's sends along it so far in
 * *N: sides() for sends, which a cursor repeats. */
static int
send_side(struct tr_syn *s, int64_t rank, long peer, int64_t tag, int cls,
    unsigned *n)
{
	const struct stags *st = two_tags(s, rank, peer);
	int side = (*n)++ % 2 ? 1 : -1;

	if (st && cls != TR_MPI_SENDRECV)
		side = st->tag[0] == tag ? -1 : 1;
	return side;
}

/* The side of a message to or from PEER when it lies along a periodic
 * dimension of 2 ranks, else 0. A halo exchange sends to both sides and
 * receives from both, which the template cannot tell apart. On a larger
 * grid every target rank makes its template rank's calls, so the sides
 * must be such that these calls match each other: when the rank sends
 * to its partner with two tags (one per direction), the first goes to
 * side -1, the second to side 1, and a receive of a tag comes from the
 * side opposite to where that tag is sent; otherwise the k-th send goes
 * to side -1 if k is even and the k-th receive comes from the opposite
 * side. The side of a nonblocking one is kept for its completion. */
static int
sides(struct tr_syn *s, const struct tr_ev *e, long peer, int cls)
{
	struct tmpl *p = &s->tm[e->rank];
	const struct stags *st;
	void **v;
	int i, side = 0;

	if ((i = pdim(s, e->rank, peer)) < 0)
		return 0;
	st = two_tags(s, e->rank, peer);
	switch (cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
	case TR_MPI_SENDRECV:
		side = send_side(s, e->rank, peer, e->tag, cls, &p->nsend[i]);
		break;
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		side = p->nrecv[i]++ % 2 ? -1 : 1;
		if (st && (st->tag[0] == e->tag || st->tag[1] == e->tag))
			side = st->tag[0] == e->tag ? 1 : -1;
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (e->req >= 0 && (v = tr_itab_get(&s->side, e->rank, e->req,
		    0)) != NULL) {
			side = (int)(intptr_t)*v;
			tr_itab_del(&s->side, e->rank, e->req);
			return side;
		}
		/* FALLTHROUGH */
	default:	/* a probe: the side of the receive to come */
		return p->nrecv[i] % 2 ? -1 : 1;
	}
	if ((cls == TR_MPI_ISEND || cls == TR_MPI_IRECV) && e->req >= 0)
		*tr_itab_get(&s->side, e->rank, e->req, 1) =
		    (void *)(intptr_t)side;
	return side;
}

/* Under strong scaling a halo message along dimension i carries the
 * local extent of the other dimensions, N / dims[k]: its size changes by
 * the product of dims[k] at the template over dims[k] at the target. */
static double
surface(const struct tr_grid *g, const struct tr_grid *tg, long a, long b)
{
	int i = direction(g, a, b), k;
	double f = 1;

	for (k = 0; k < g->nd; k++)
		if (k != i)
			f *= (double)g->dims[k] / tg->dims[k];
	return f;
}

/* The bytes target rank T's receive from U (for template rank E->rank's
 * from E->peer) must hold: U makes the sends of template rank rep[U],
 * so the largest that rank sent with the tag (any, with a wildcard) to
 * the rank at T's offset from U; failing that rank, the largest sent
 * along the direction by any. Scaled as the sends are. */
static int64_t
recv_bound(const struct tr_syn *s, const struct tr_ev *e, long t, long u)
{
	int ct[TR_GRID_MAXD], cu[TR_GRID_MAXD], c[TR_GRID_MAXD], i, dim;
	int64_t tag = e->tag >= 0 ? e->tag : -1, k[3];
	long a = s->rep[u], b, j = -1;
	double v;

	tr_grid_coords(&s->tg, t, ct);
	tr_grid_coords(&s->tg, u, cu);
	tr_grid_coords(&s->g, a, c);
	for (i = 0; i < s->g.nd; i++) {
		int d = ct[i] - cu[i];

		if (s->tg.periodic[i] && d > s->tg.dims[i] / 2)
			d -= s->tg.dims[i];
		else if (s->tg.periodic[i] && d < -s->tg.dims[i] / 2)
			d += s->tg.dims[i];
		c[i] += d;
		if (s->g.periodic[i])
			c[i] = ((c[i] % s->g.dims[i]) + s->g.dims[i]) %
			    s->g.dims[i];
		else if (c[i] < 0 || c[i] >= s->g.dims[i])
			break;
	}
	if (i == s->g.nd && (b = tr_grid_rank(&s->g, c)) >= 0 && b != a) {
		k[0] = a;
		k[1] = b;
		k[2] = tag;
		j = tr_map_get(s->smap, (const char *)k, sizeof k, 0);
	}
	if (j >= 0) {
		v = s->smax[j];
		if (s->strong)
			v *= surface(&s->g, &s->tg, a, b);
		return rnd64(v);
	}
	k[0] = tag;
	k[2] = side_of(&s->g, (long)e->peer, (long)e->rank, &dim);
	k[1] = dim;
	j = tr_map_get(s->dmap, (const char *)k, sizeof k, 0);
	if (j < 0)
		return 0;
	v = s->dmax[j];
	if (s->strong)
		v *= surface(&s->g, &s->tg, e->rank, e->peer);
	return rnd64(v);
}

/* Whether the messages E's op sends from E's call site keep their size
 * at every scale: the msite models (tr-stat -s) of the runs fitted
 * predict the same bytes per message at the target as at the
 * template. LAMMPS sends the count of atoms to come, 4 bytes, before
 * each halo: scaled as the halo, it came out 2. */
static int
site_kept(struct tr_syn *s, const struct tr_ev *e)
{
	char key[512];
	double v, v2;
	size_t i, n;
	long g, k;

	n = e->op.n + 1 + e->site.n;
	tr_grow(&s->rkey, &s->rkeycap, n, 1);
	memcpy(s->rkey, e->op.p, e->op.n);
	s->rkey[e->op.n] = '\t';
	memcpy(s->rkey + e->op.n + 1, e->site.p, e->site.n);
	k = tr_map_get(s->keptmap, s->rkey, n, 1);
	tr_growz(&s->kept, &s->keptcap, (size_t)k + 1, 1);
	if (s->kept[k])
		return s->kept[k] - 1;
	s->kept[k] = 1;
	n = (size_t)snprintf(key, sizeof key, "op=%.*s;site=",
	    (int)e->op.n, e->op.p);
	for (i = 0; i < e->site.n && n + 4 < sizeof key; i++) {
		unsigned char ch = (unsigned char)e->site.p[i];

		/* escaped as tr-fit writes its keys */
		if (ch == ';' || ch == '%' || ch == '=')
			n += (size_t)snprintf(key + n, sizeof key - n, "%%%02X",
			    ch);
		else
			key[n++] = (char)ch;
	}
	if (i < e->site.n)
		return 0;
	key[n] = '\0';
	g = tr_xp_find(s->xp, "msite", key);
	if (g < 0 || tr_xp_get(s->xp, g, "bytes/call", &v, &v2) < 0)
		return 0;
	s->kept[k] = 1 + (v2 > 0 && fabs(v - v2) <= 1e-9 * v2);
	return s->kept[k] - 1;
}

/* The bytes at the target of template message E (to E->peer): what
 * tr_syn_ev writes for the send. */
static int64_t
send_bytes(struct tr_syn *s, const struct tr_ev *e)
{
	if (e->bytes <= 0 || !s->strong || site_kept(s, e))
		return e->bytes;
	return rnd64((double)e->bytes * surface(&s->g, &s->tg, (long)e->rank,
	    (long)e->peer));
}

static void
cursor_close(struct tr_syn *s, struct cursor *c)
{
	if (!c->in)
		return;
	tr_close(c->in);
	c->in = NULL;
	s->nopen--;
}

/* The bytes at the target of cursor C's next message, or -1 when its
 * sender sends no more. */
static int64_t
cursor_next(struct tr_syn *s, struct cursor *c)
{
	struct tr_rec r;
	int k, cls, coll, i, side;

	while (c->in && (k = tr_next(c->in, &r)) != TR_EOF) {
		const struct tr_ev *e = &r.u.ev;

		if (k != TR_REC || r.type != TR_EV || e->rank != c->a ||
		    e->peer < 0 || e->peer == e->rank)
			continue;
		cls = tr_mpi_class(e->op.p, e->op.n, &coll);
		if (cls != TR_MPI_SEND && cls != TR_MPI_SSEND &&
		    cls != TR_MPI_ISEND && cls != TR_MPI_SENDRECV)
			continue;
		/* Every send along the dimension counts for the sides of
		 * those to come, whatever its tag. */
		i = pdim(s, e->rank, (long)e->peer);
		side = i < 0 ? 0 : send_side(s, e->rank, (long)e->peer,
		    e->tag, cls, &c->nsend[i]);
		if (e->tag != c->tag || e->comm != c->comm ||
		    mapped(&s->tg, &s->g, c->a, (long)e->peer, c->u0, side) !=
		    c->t0)
			continue;
		return send_bytes(s, e);
	}
	cursor_close(s, c);
	return -1;
}

/* The bytes at the target of the message that target rank T's receive
 * of TAG from U matches, T following template rank E->rank at record
 * E; -1 if unknown. Each call at a receive of the template moves the
 * cursor on once, for every follower that shares it. */
static int64_t
matched(struct tr_syn *s, const struct tr_ev *e, long t, long u,
    int64_t tag)
{
	int64_t k[4 + TR_GRID_MAXD];
	int ct[TR_GRID_MAXD], cu[TR_GRID_MAXD], i;
	size_t r = (size_t)e->rank, n;
	struct cursor *c;
	long ci, a = s->rep[u];

	if (s->nofile || s->nomatch[r] || tag < 0 || !s->fspan[a][0])
		return -1;
	tr_grid_coords(&s->tg, t, ct);
	tr_grid_coords(&s->tg, u, cu);
	k[0] = e->rank;
	k[1] = a;
	k[2] = tag;
	k[3] = e->comm;
	for (i = 0; i < TR_GRID_MAXD; i++) {
		int d = i < s->tg.nd ? cu[i] - ct[i] : 0;

		if (i < s->tg.nd && s->tg.periodic[i])
			d = (d % s->tg.dims[i] + s->tg.dims[i]) % s->tg.dims[i];
		k[4 + i] = d;
	}
	n = tr_map_len(s->curmap);
	ci = tr_map_get(s->curmap, (const char *)k, sizeof k, 1);
	if ((size_t)ci == n) {
		int f0 = s->fspan[a][0] - 1, f1 = s->fspan[a][1] - 1;

		tr_growz(&s->cur, &s->curcap, (size_t)ci + 1, sizeof *s->cur);
		c = &s->cur[ci];
		if (s->nopen < MAXCURSORS) {
			c->in = tr_open(f1 - f0 + 1, s->files + f0);
			tr_in_want(c->in, 1u << TR_EV_OP | 1u << TR_EV_PEER |
			    1u << TR_EV_BYTES | 1u << TR_EV_TAG |
			    1u << TR_EV_COMM);
			s->nopen++;
		} else if (!s->capwarn++) {
			tr_warn("-T: more than %d kinds of message stream "
			    "are read at once: the receives of the others "
			    "hold the largest message sent along their "
			    "direction; give the template as one file per "
			    "rank", MAXCURSORS);
		}
		c->a = a;
		c->u0 = u;
		c->t0 = t;
		c->tag = tag;
		c->comm = e->comm;
		c->next = s->curhead[r];
		s->curhead[r] = ci;
	}
	c = &s->cur[ci];
	if (c->stamp != s->stamp) {
		c->stamp = s->stamp;
		c->bytes = cursor_next(s, c);
	}
	return c->bytes;
}

/* Closes template rank RANK's cursors after its last record. */
static void
cursors_done(struct tr_syn *s, int64_t rank)
{
	long ci;

	for (ci = s->curhead[rank]; ci >= 0; ci = s->cur[ci].next)
		cursor_close(s, &s->cur[ci]);
}

/* Strong scaling (a global domain cut into the grid) shows in the
 * template as halo sizes in inverse proportion to the other dimensions'
 * extents; the same sizes in every direction mean a fixed local domain
 * (weak scaling). Only a grid with unequal dimensions tells them apart:
 * 1 strong, 0 weak, -1 for a grid whose dimensions are all equal. */
static int
strong_scaling(const struct tr_grid *g, long (*pairs)[2],
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
		i = direction(g, pairs[p][0], pairs[p][1]);
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
			sq = side_of(&s->g, q, s->moves[q * NMOVES + k], &dq);
			sr = side_of(&s->g, r, s->moves[r * NMOVES + k], &dr);
			if (dq != dr || sq != sr)
				tr_die(TR_EXIT_DATA, "-T: template ranks %ld and "
				    "%ld hold the same kind of position on the "
				    "grid, but their Sendrecv %d sends to different "
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
static void
target_grid(struct tr_syn *s, int known)
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
static void
warn_flat(const struct tr_syn *s)
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
static void
grid_str(const struct tr_grid *g, char *buf, size_t n)
{
	int k;

	buf[0] = '\0';
	for (k = 0; k < g->nd; k++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%d%s",
		    k ? "x" : "", g->dims[k], g->periodic[k] ? "p" : "");
}

/* Frees an itab and the values it holds. */
static void
free_itab(struct tr_itab *h)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		free(h->s[i].v);
	tr_itab_free(h);
}

void
tr_syn_begin(struct tr_syn *s, struct tr_out *o)
{
	long t, q, nt = s->nt, P = s->P;
	char buf[32], dims[64];
	int known;

	if (P < 0)
		tr_die(TR_EXIT_DATA, "-T: no ev records: give the trace of a "
		    "run as the template");
	learn_structure(s);
	/* Target ranks follow template ranks: each must have its records. */
	if (s->nseen != P)
		tr_die(TR_EXIT_DATA, "%s:%ld: -T: the template has #meta "
		    "np=%ld, but ev records of only %ld rank%s: give the files "
		    "of every rank", s->npfile, s->npline, P, s->nseen,
		    s->nseen == 1 ? "" : "s");
	/* A recorded Cartesian grid says which dimensions wrap, which the
	 * messages alone cannot always show. */
	known = s->cart.nd > 0 && s->cart.np == P &&
	    tr_grid_explains(&s->cart, (const long (*)[2])s->pairs, s->npairs);
	if (known)
		s->g = s->cart;
	else if (tr_grid_infer(P, (const long (*)[2])s->pairs, s->npairs,
	    &s->g) < 0) {
		char why[160] = "", g[64];
		long k;

		/* A grid the program made names the pair off it (mpi4py's
		 * pickled reduce sends along a tree on a duplicate of it). */
		if (s->cart.nd > 0 && s->cart.np == P && (k = tr_grid_stray(
		    &s->cart, (const long (*)[2])s->pairs, s->npairs)) >= 0) {
			grid_str(&s->cart, g, sizeof g);
			snprintf(why, sizeof why, ": ranks %ld and %ld exchange "
			    "messages, not neighbours on its recorded grid, %s",
			    s->pairs[k][0], s->pairs[k][1], g);
		}
		tr_die(TR_EXIT_DATA, "-T: the template's point-to-point "
		    "messages are not nearest-neighbour on a 1-D, 2-D or 3-D "
		    "grid of %ld ranks%s", P, why);
	}
	s->tg = s->g;
	s->tg.np = nt;
	target_grid(s, known);
	tr_xp_eval2(s->xp, (double)P);
	if (known)
		warn_flat(s);
	s->strong = strong_scaling(&s->g, s->pairs, s->pbytes, s->npairs);
	if (s->strong < 0)
		s->strong = strong_by_models(s);
	if (s->strong < 0) {
		grid_str(&s->g, dims, sizeof dims);
		tr_warn("-T: the template's grid, %s, has equal extents, "
		    "which do not show whether messages shrink with more "
		    "ranks, and no opstat model of a point-to-point send "
		    "tells: sizes kept as recorded (weak scaling)", dims);
		s->strong = 0;
	}
	fold_sends(s);
	collect_bins(s);
	check_bins(s);
	/* Every target rank follows the template rank at the same kind of
	 * grid position. */
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
			tr_die(TR_EXIT_DATA, "-T: no rank of the template grid "
			    "has the position of target rank %ld: the template "
			    "run is too small", t);
	}
	s->lag = tr_calloc((size_t)nt, sizeof *s->lag);
	s->nfol = tr_calloc((size_t)P, sizeof *s->nfol);
	for (t = 0; t < nt; t++) {
		s->lag[t] = s->nfol[s->rep[t]]++ % MAXLAG;
		if (s->lag[t] + 1 > s->nlag)
			s->nlag = s->lag[t] + 1;
	}
	s->hcap = s->nlag > NLEVEL ? s->nlag : NLEVEL;
	s->tgt = tr_calloc((size_t)nt, sizeof *s->tgt);
	for (t = 0; t < nt; t++)
		s->tgt[t].rng = s->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t;
	s->tm = tr_calloc((size_t)P, sizeof *s->tm);
	s->curhead = tr_malloc((size_t)P * sizeof *s->curhead);
	for (q = 0; q < P; q++)
		s->curhead[q] = -1;
	free_itab(&s->pirecv);

	tr_out_begin(o);
	grid_str(&s->tg, dims, sizeof dims);
	tr_out_printf(o, "#meta np=%ld\n", nt);
	if (s->N >= 0)
		tr_out_printf(o, "#meta N=%s\n", tr_f64str(buf, s->N));
	tr_out_printf(o, "#meta tool=tr-extrap %s\n#meta extrap=synthetic\n"
	    "#meta extrap.template.np=%ld\n#meta extrap.grid=%s\n"
	    "#meta extrap.grid.rule=%s\n"
	    "#meta extrap.seed=%llu\n#meta extrap.bytes=%s\n", TR_VERSION, P,
	    dims, s->gridrule, (unsigned long long)s->seed,
	    s->strong ? "strong" : "weak");
	tr_out_fields(o, TR_EV);
	tr_out_fields(o, TR_COMM);
	if (s->carts.n)
		tr_out_fields(o, TR_CART);
}

static void
count(struct tr_syn *s, int64_t src, int64_t dst, int64_t tag, int d)
{
	int64_t k[3] = {src, dst, tag};
	long i;
	int j;

	for (j = 0; j < 2; j++) {
		if (j)
			k[2] = INT64_MIN;	/* the pair, any tag */
		i = tr_map_get(s->msgs, (const char *)k, sizeof k, 1);
		tr_growz(&s->mcount, &s->mcap, (size_t)i + 1, sizeof *s->mcount);
		s->mcount[i] += d;
	}
}

static void
count_ev(struct tr_syn *s, const struct tr_ev *x, int cls)
{
	switch (cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
		if (x->peer >= 0)
			count(s, x->rank, x->peer, x->tag, 1);
		break;
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		if (x->peer < 0 || x->tag < 0)
			s->wild = 1;
		else
			count(s, x->peer, x->rank, x->tag, -1);
		break;
	case TR_MPI_SENDRECV:
		s->untagged = 1;
		if (x->peer >= 0)
			count(s, x->rank, x->peer, x->tag, 1);
		if (x->root >= 0)
			count(s, x->root, x->rank, x->tag, -1);
		break;
	}
}

/* The lower median of field F of the last K of the N entries of ring V,
 * which holds CAP. */
static int64_t
ring_median(int64_t (*v)[4], long cap, int64_t n, int k, int f)
{
	int64_t w[NLEVEL], x;
	int i, j;

	for (i = 0; i < k; i++) {
		x = v[(n - 1 - i) % cap][f];
		for (j = i; j > 0 && w[j - 1] > x; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
	return w[(k - 1) / 2];
}

/* Keeps template rank RANK's burst (WALL, CPU) of interval KEY, and its
 * residuals from the running level; the ring. */
static struct hist *
hist_push(struct tr_syn *s, int64_t rank, const char *key, int64_t wall,
    int64_t cpu)
{
	size_t n = strlen(key);
	struct hist *h;
	int64_t *c;
	long i;
	int k;

	tr_grow(&s->hkey, &s->hkeycap, n + sizeof rank, 1);
	memcpy(s->hkey, &rank, sizeof rank);
	memcpy(s->hkey + sizeof rank, key, n);
	i = tr_map_get(s->hmap, s->hkey, n + sizeof rank, 1);
	if ((size_t)i >= s->nhist) {
		tr_growz(&s->hist, &s->histcap, (size_t)i + 1, sizeof *s->hist);
		s->nhist = (size_t)i + 1;
	}
	h = &s->hist[i];
	if (!h->v)
		h->v = tr_calloc((size_t)s->hcap, sizeof *h->v);
	c = h->v[h->n % s->hcap];
	c[0] = wall;
	c[1] = cpu;
	h->n++;
	k = h->n < NLEVEL ? (int)h->n : NLEVEL;
	h->level[0] = ring_median(h->v, s->hcap, h->n, k, 0);
	h->level[1] = ring_median(h->v, s->hcap, h->n, k, 1);
	c[2] = wall - h->level[0];
	c[3] = cpu - h->level[1];
	return h;
}

/* The last burst kept in H with the residual of the one LAG before it
 * in place of its own. Before the template rank has made that many,
 * the lag wraps around those it has made. */
static void
hist_lagged(const struct tr_syn *s, const struct hist *h, long lag,
    int64_t *wall, int64_t *cpu)
{
	int64_t m = h->n - 1 - lag;
	const int64_t *c;

	if (m < 0)
		m = (m % h->n + h->n) % h->n;
	c = h->v[m % s->hcap];
	*wall = h->level[0] + c[2];
	if (*wall < 0)
		*wall = 0;
	if (*cpu < 0)
		return;
	*cpu = h->level[1] + c[3];
	if (*cpu < 0)
		*cpu = 0;
	if (*cpu > *wall)
		*cpu = *wall;
}

/* The bytes of target rank T's receive X (class CLS, for template rank
 * E->rank's E): the message it matches, unless the template's Irecvs
 * at its call site posted larger buffers than their messages (a blocking
 * receive's record has the size received): then that buffer as scaled,
 * or the message if larger. Failing a match, as much as the sender's
 * template rank sent along the direction. An Irecv's message size is
 * kept for its completion's record, which has it. */
static void
recv_bytes(struct tr_syn *s, const struct tr_ev *e, long t, int cls,
    struct tr_ev *x)
{
	int64_t m = matched(s, e, t, (long)x->peer, e->tag), *p;
	long si = -1;
	void **v;
	size_t n;

	if (m < 0) {
		m = recv_bound(s, e, t, (long)x->peer);
		if (m > x->bytes)
			x->bytes = m;
		return;
	}
	if (cls == TR_MPI_IRECV) {
		n = site_key(s, e);
		si = tr_map_get(s->sitemap, s->rkey, n, 0);
	}
	if (si < 0 || s->siterel[si] != 2 || m > x->bytes)
		x->bytes = m;
	if (cls != TR_MPI_IRECV || e->req < 0)
		return;
	v = tr_itab_get(&s->rbytes, t, e->req, 1);
	if (!*v)
		*v = tr_malloc(sizeof *p);
	p = *v;
	*p = m;
}

void
tr_syn_ev(struct tr_syn *s, const struct tr_in *in, const struct tr_rec *r,
    struct tr_out *o)
{
	const struct tr_ev *e = &r->u.ev;
	struct tmpl *p = &s->tm[e->rank];
	const char *key;
	size_t pn = p->psite ? strlen(p->psite) : 0;
	int shared = p->seen && e->seq == p->pseq;
	int64_t tdelta = e->start - (p->seen ? p->pend : 0);
	double br;
	long t;
	int cls, coll, pside = 0, rside = 0;
	int newcomm = is_newcomm(&e->op) && e->req >= 0;
	const struct binset *wbs, *cbs;
	struct hist *h = NULL;
	void **v;

	s->stamp++;
	tr_grow(&s->key, &s->keycap, pn + e->site.n + 2, 1);
	memcpy(s->key, p->psite ? p->psite : "", pn);
	s->key[pn] = '>';
	memcpy(s->key + pn + 1, e->site.p, e->site.n);
	s->key[pn + 1 + e->site.n] = '\0';
	key = s->key;
	br = e->bytes > 0 ? byteratio(s, &e->op) : 1;
	cls = tr_mpi_class(e->op.p, e->op.n, &coll);
	if (e->peer >= 0)
		pside = sides(s, e, (long)e->peer, cls);
	/* A Sendrecv's receive comes from the side opposite its send. */
	if (e->root >= 0 && is_sendrecv(&e->op)) {
		rside = sides(s, e, (long)e->root, TR_MPI_RECV);
		if (rside && pside)
			rside = -pside;
	}
	if (newcomm) {
		long ci = comm_index(s, e->rank, e->req, 0);

		if (ci >= 0 && s->csize[ci] != s->P)
			tr_in_die(in, "-T: communicator %lld is not the whole "
			    "world: sub-communicators are not extrapolated",
			    (long long)e->req);
	}
	wbs = binset_get(s, key, 0, 0);
	cbs = binset_get(s, key, 1, 0);
	if (p->seen && !shared && s->nfol[e->rank] > 1)
		h = hist_push(s, e->rank, key, tdelta, e->cpu);
	for (t = 0; t < s->nt; t++) {
		struct tgt *q = &s->tgt[t];
		int64_t tw = tdelta, tc = e->cpu;
		struct tr_ev x;

		if (s->rep[t] != e->rank)
			continue;
		x = *e;
		x.rank = t;
		if (shared) {
			x.start = q->lstart;
			x.end = q->lend;
		} else {
			int64_t d;

			/* Target ranks that follow one template rank each
			 * take its noise at their own lag: copies of one
			 * sequence would run in lockstep, and none would
			 * wait for another, where measured ranks do. The
			 * level stays the burst's own, so a warm-up or a
			 * drift is where the template has it. */
			if (h && s->lag[t] > 0)
				hist_lagged(s, h, s->lag[t], &tw, &tc);
			d = p->seen ? draw(wbs, tw, &q->rng) : tw;
			x.cpu = tc;
			/* CPU time has its own prediction where the models
			 * have one: the wall time of small runs on few cores
			 * holds the scheduler's waits, which grow with the
			 * ranks and are no computation. */
			if (p->seen && tc >= 0 && cbs) {
				x.cpu = draw(cbs, tc, &q->rng);
				if (d < x.cpu)
					d = x.cpu;
			} else if (tc >= 0 && tw > 0 && d != tw) {
				x.cpu = rnd64((double)tc * d / tw);
				if (x.cpu > d && d >= tc)
					x.cpu = d;
			}
			if (__builtin_add_overflow(q->clock, d, &x.start) ||
			    __builtin_add_overflow(x.start, e->end - e->start,
			    &x.end))
				tr_in_die(in, "-T: the target's times pass 2^63 "
				    "ns at template rank %lld seq %lld",
				    (long long)e->rank, (long long)e->seq);
			q->clock = x.end;
			q->lstart = x.start;
			q->lend = x.end;
		}
		if (e->peer >= 0)
			x.peer = mapped(&s->tg, &s->g, e->rank, e->peer, t,
			    pside);
		if (e->root >= 0 && is_sendrecv(&e->op)) {
			x.root = mapped(&s->tg, &s->g, e->rank, e->root, t,
			    rside);
			/* The tag received is the new source's to tell: a
			 * template that receives the tag it sends keeps it
			 * (a code with one tag per call site), others
			 * receive any. */
			if (e->req != e->tag)
				x.req = -1;
		}
		if ((e->peer >= 0 && x.peer < 0) ||
		    (e->root >= 0 && is_sendrecv(&e->op) && x.root < 0))
			tr_in_die(in, "-T: a peer of template rank %lld falls "
			    "outside the target grid", (long long)e->rank);
		if (e->bytes > 0 && e->peer >= 0)
			x.bytes = send_bytes(s, e);
		else if (e->bytes > 0)
			x.bytes = rnd64((double)e->bytes * br);
		if (x.bytes == INT64_MAX && e->bytes != INT64_MAX)
			tr_in_die(in, "-T: template rank %lld seq %lld: its %lld "
			    "bytes at the target pass 2^63", (long long)e->rank,
			    (long long)e->seq, (long long)e->bytes);
		if ((cls == TR_MPI_RECV || cls == TR_MPI_IRECV) &&
		    e->peer >= 0 && e->peer != e->rank && x.bytes >= 0)
			recv_bytes(s, e, t, cls, &x);
		else if (cls == TR_MPI_SENDRECV && e->root >= 0 &&
		    e->root != e->rank)
			(void)matched(s, e, t, (long)x.root, e->req);
		else if ((cls == TR_MPI_WAIT || cls == TR_MPI_TEST) &&
		    e->req >= 0 && s->rbytes.n && (v = tr_itab_get(&s->rbytes,
		    t, e->req, 0)) != NULL) {
			/* tr-record's completion of a receive names the
			 * source and the size received; tr-gen's neither. */
			if (e->peer >= 0)
				x.bytes = *(int64_t *)*v;
			free(*v);
			tr_itab_del(&s->rbytes, t, e->req);
		}
		tr_out_ev(o, &x);
		count_ev(s, &x, cls);
		if (newcomm) {
			tr_out_printf(o, "comm\t%ld\t%lld\t%ld\t0-%ld\n", t,
			    (long long)e->req, s->nt, s->nt - 1);
			put_cart(s, o, e->rank, e->req, t);
		}
	}
	if (!shared) {
		free(p->psite);
		p->psite = tr_strndup(e->site.p, e->site.n);
		p->pend = e->end;
	}
	p->pseq = e->seq;
	p->seen = 1;
	if (--s->nev[e->rank] == 0)
		cursors_done(s, e->rank);
}

int
tr_syn_end(struct tr_syn *s)
{
	int64_t k[3];
	char g[64], tag[40];
	size_t i, n;

	if (s->wild)
		return 0;
	for (i = 0; i < tr_map_len(s->msgs); i++) {
		if (!s->mcount[i])
			continue;
		/* Keys lie in the map's arena at any byte offset. */
		memcpy(k, tr_map_key(s->msgs, (long)i, &n), sizeof k);
		if (k[2] != INT64_MIN && s->untagged)
			continue;
		grid_str(&s->g, g, sizeof g);
		if (k[2] != INT64_MIN)
			snprintf(tag, sizeof tag, " with tag %lld",
			    (long long)k[2]);
		tr_warn("-T: the grown trace does not balance: messages "
		    "from rank %lld to rank %lld%s, %lld more %s; a template "
		    "grid of %s cannot be grown this way: record at least 3 "
		    "ranks along each dimension", (long long)k[0],
		    (long long)k[1], k[2] != INT64_MIN ? tag : "",
		    (long long)llabs(s->mcount[i]), s->mcount[i] > 0 ?
		    "sent than received" : "received than sent", g);
		return TR_EXIT_DATA;
	}
	return 0;
}

void
tr_syn_free(struct tr_syn *s)
{
	long t;

	if (!s)
		return;
	free(s->npfile);
	for (t = 0; s->tm && t < s->P; t++)
		free(s->tm[t].psite);
	free(s->tm);
	for (t = 0; t < (long)s->nhist; t++)
		free(s->hist[t].v);
	free(s->hist);
	free(s->hkey);
	tr_map_free(s->hmap);
	free(s->lag);
	free(s->nfol);
	free(s->tgt);
	free(s->rep);
	free(s->pairs);
	free(s->pbytes);
	free(s->csize);
	free(s->cworld);
	free(s->rseen);
	free(s->moves);
	free(s->nmoves);
	free(s->pst);
	free(s->evsect);
	free(s->bins);
	free(s->key);
	tr_map_free(s->bmap);
	free(s->bkey);
	tr_map_free(s->pmap);
	tr_map_free(s->cmap);
	tr_map_free(s->msgs);
	free(s->mcount);
	tr_map_free(s->smap);
	tr_map_free(s->dmap);
	for (t = 0; t < (long)tr_map_len(s->curmap); t++)
		cursor_close(s, &s->cur[t]);
	free(s->cur);
	tr_map_free(s->curmap);
	free(s->curhead);
	tr_map_free(s->sitemap);
	tr_map_free(s->keptmap);
	free(s->kept);
	free(s->siterel);
	free(s->rkey);
	free(s->fspan);
	free(s->nev);
	free(s->nomatch);
	free_itab(&s->pirecv);
	free_itab(&s->rbytes);
	free(s->smax);
	free(s->dmax);
	free(s->skey);
	tr_itab_free(&s->side);
	free_itab(&s->stags);
	free_itab(&s->carts);
	free(s);
}
