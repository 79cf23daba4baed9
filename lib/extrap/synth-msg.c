/* synth-msg.c - the bytes and sides of the target's messages: sends
 * scaled, receives given the size of the message they match, read by
 * cursors over the template sender's files. */
#include "synth-int.h"

/* Folds the largest sends per pair into those per direction: under the
 * side each was sent to and under side 0 (either). */
void
syn_fold_sends(struct tr_syn *s)
{
	size_t i, n = tr_map_len(s->smap);

	for (i = 0; i < n; i++) {
		int dim, side = syn_side_of(&s->g, (long)s->skey[i][0],
		    (long)s->skey[i][1], &dim), d;

		for (d = -1; d <= 1; d++)
			if (d == 0 || side == 0 || d == side)
				syn_put_max(s->dmap, &s->dmax, &s->dmcap,
				    (int64_t[3]){s->skey[i][2], dim, d},
				    s->smax[i]);
	}
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
 * *N: syn_sides() for sends, which a cursor repeats. */
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
int
syn_sides(struct tr_syn *s, const struct tr_ev *e, long peer, int cls)
{
	struct tmpl *p = &s->tm[e->rank];
	const struct stags *st;
	void **v;
	int i, side = 0;

	if ((i = syn_pdim(s, e->rank, peer)) < 0)
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
	int i = syn_direction(g, a, b), k;
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
		v = s->smax[j] * s->nratio;
		if (s->strong)
			v *= surface(&s->g, &s->tg, a, b);
		return rnd64(v);
	}
	k[0] = tag;
	k[2] = syn_side_of(&s->g, (long)e->peer, (long)e->rank, &dim);
	k[1] = dim;
	j = tr_map_get(s->dmap, (const char *)k, sizeof k, 0);
	if (j < 0)
		return 0;
	v = s->dmax[j] * s->nratio;
	if (s->strong)
		v *= surface(&s->g, &s->tg, e->rank, e->peer);
	return rnd64(v);
}

/* The bytes at the target of template message E (to E->peer): what
 * tr_syn_ev writes for the send. */
int64_t
syn_send_bytes(struct tr_syn *s, const struct tr_ev *e)
{
	double f = s->nratio;

	if (e->bytes <= 0 || (!s->strong && f == 1) || syn_site_kept(s, e))
		return e->bytes;
	if (s->strong)
		f *= surface(&s->g, &s->tg, (long)e->rank, (long)e->peer);
	return rnd64((double)e->bytes * f);
}

void
syn_cursor_close(struct tr_syn *s, struct cursor *c)
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
		i = syn_pdim(s, e->rank, (long)e->peer);
		side = i < 0 ? 0 : send_side(s, e->rank, (long)e->peer,
		    e->tag, cls, &c->nsend[i]);
		if (e->tag != c->tag || e->comm != c->comm ||
		    syn_mapped(&s->tg, &s->g, c->a, (long)e->peer, c->u0,
		    side) != c->t0)
			continue;
		return syn_send_bytes(s, e);
	}
	syn_cursor_close(s, c);
	return -1;
}

/* The bytes at the target of the message that target rank T's receive
 * of TAG from U matches, T following template rank E->rank at record
 * E; -1 if unknown. Each call at a receive of the template moves the
 * cursor on once, for every follower that shares it. */
int64_t
syn_matched(struct tr_syn *s, const struct tr_ev *e, long t, long u,
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
void
syn_cursors_done(struct tr_syn *s, int64_t rank)
{
	long ci;

	for (ci = s->curhead[rank]; ci >= 0; ci = s->cur[ci].next)
		syn_cursor_close(s, &s->cur[ci]);
}

/* The bytes of target rank T's receive X (class CLS, for template rank
 * E->rank's E): the message it matches, unless the template's Irecvs
 * at its call site posted larger buffers than their messages (a blocking
 * receive's record has the size received): then that buffer as scaled,
 * or the message if larger. Failing a match, as much as the sender's
 * template rank sent along the direction. An Irecv's message size is
 * kept for its completion's record, which has it. */
void
syn_recv_bytes(struct tr_syn *s, const struct tr_ev *e, long t, int cls,
    struct tr_ev *x)
{
	int64_t m = syn_matched(s, e, t, (long)x->peer, e->tag), *p;
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
