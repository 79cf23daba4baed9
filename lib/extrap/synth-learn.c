/* synth-learn.c - pass 1 of tr_syn over the template: who sends to
 * whom and how much, its communicators and Cartesian grids, and what
 * pairing receives with their messages needs. */
#include "synth-int.h"

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
long
syn_put_max(struct tr_map *m, double **arr, size_t *cap, const int64_t k[3],
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
		long i = syn_put_max(s->smap, &s->smax, &s->smcap, k,
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
		/* the models' values at the template's own size, to scale
		 * from: growing N at a fixed P changes what P alone does not */
		if (tr_meta_f64(in, "N", &s->tN) < 0 || !(s->tN > 0))
			s->tN = -1;
	}
	s->P = (long)np;
	if (e->rank >= s->P || e->peer >= s->P)
		tr_in_die(in, "rank beyond np=%ld", s->P);
	learn_match(s, in, e);
	syn_vcoll_learn(s, e);
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
	} else if (!syn_same_grid(&g, &s->cart))
		return;
	v = tr_itab_get(&s->carts, p->rank, p->id, 1);
	if (!*v)
		*v = tr_malloc(sizeof *c);
	memcpy(*v, c, sizeof *c);
}

/* The comm and cart records of the sections that hold ev records. */
void
syn_learn_structure(struct tr_syn *s)
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
	if (r->type == TR_EV || r->type == TR_COMM)
		(void)tr_pat_add(s->pat, in, r);
	if (r->type == TR_EV) {
		learn_ev(s, in, &r->u.ev);
		syn_comm_ev(s, &r->u.ev);
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
	if (tr_meta_i64(in, "np", &p->np) < 0)
		p->np = -1;
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
	if (!p->world || p->size != p->np)
		p->mem = tr_strndup(r->f[4].p, r->f[4].n);
}
