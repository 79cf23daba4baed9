/*
 * match.c - messages: each send matched to its receive as a stream is
 * read.
 *
 * As MPI does, messages match per channel (source, destination,
 * communicator) in the order they were sent and the receives posted, a
 * receive taking the first message whose tag it accepts (-1, any tag,
 * accepts all). Communicators are the same one on every member however
 * each numbers it (tr_comms). A receive is drawn at the call that
 * completed it: a Recv or Sendrecv itself, an Irecv's Wait or Test.
 *
 * An Irecv from MPI_ANY_SOURCE learns its source at its completion, as
 * in wild.c; receives its rank posts after it wait behind it, so that
 * each rank's receives still match in the order posted. Memory is held
 * by the sends and receives not matched yet, and such wildcards.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

enum { POSTED = 1, MATCHED = 2, DONE = 4, HELD = 8, DEAD = 16 };

struct rcv {
	int64_t src, comm, tag;
	struct tr_msgend end, send;
	int state;
};

struct snd {
	int64_t tag;
	struct tr_msgend end;
};

struct chan {
	struct snd *s;
	struct rcv **r;
	size_t ns, caps, nr, capr;
};

struct held {			/* a rank's receives behind a wildcard */
	struct rcv **q;
	size_t h, n, cap;
};

struct tr_match {
	tr_match_fn fn;
	void *ctx;
	struct tr_itab chans;	/* (src * TR_MAXNP + dst, comm) */
	struct tr_itab reqs;	/* (rank, req) -> struct rcv, an Irecv */
	struct held *held;
	size_t nheld;
	struct tr_itab rcomm;	/* (rank, id) -> communicator + 1 */
	struct tr_itab npers;	/* (rank, id) -> its persistent requests */
	struct tr_itab freed;	/* (rank, id) freed, kept for those */
	struct tr_comms *cids;
	int64_t *live;		/* per communicator: members yet to free it */
	size_t nlive;
};

struct tr_match *
tr_match_new(tr_match_fn fn, void *ctx)
{
	struct tr_match *m = tr_calloc(1, sizeof *m);

	m->fn = fn;
	m->ctx = ctx;
	m->cids = tr_comms_new();
	return m;
}

void
tr_match_comm(struct tr_match *m, const struct tr_in *in,
    const struct tr_rec *r)
{
	int64_t rank = tr_get_i64(in, r, 1), id = tr_get_i64(in, r, 2);
	long i, n;
	int made;

	if (tr_members(r->f[4].p, r->f[4].n, NULL, &n) < 0)
		tr_in_die(in, "bad members list '%.*s'", (int)(r->f[4].n > 40 ?
		    40 : r->f[4].n), r->f[4].p);
	i = tr_comms_get(m->cids, rank, &r->f[4], &made);
	tr_growz(&m->live, &m->nlive, (size_t)i + 1, sizeof *m->live);
	if (made)
		m->live[i] = n;
	*tr_itab_get(&m->rcomm, rank, id, 1) = (void *)(intptr_t)(i + 1);
	tr_itab_del(&m->freed, rank, id);
}

/* The key of rank RANK's communicator ID: 0 the world, then those of
 * comm records; an id without one stands for itself, as it would if
 * every rank made the same ones. */
static int64_t
comm_key(struct tr_match *m, int64_t rank, int64_t id)
{
	void **v;

	if (id <= 1)
		return id;
	v = tr_itab_get(&m->rcomm, rank, id, 0);
	return v ? (intptr_t)*v + 1 : ((int64_t)1 << 40) + id;
}

/* A persistent request may be started after its communicator is freed
 * (MPI 4.1, 6.4.3): a freed id is kept while requests made on it are,
 * up to their MPI_Request_free (traces of earlier recorders have none:
 * to the section's end). */
static void
comm_free(struct tr_match *m, int64_t rank, int64_t id)
{
	void **v = id > 1 ? tr_itab_get(&m->rcomm, rank, id, 0) : NULL;
	long i;

	if (!v)
		return;
	i = (long)((intptr_t)*v - 1);
	if (tr_itab_get(&m->npers, rank, id, 0))
		*tr_itab_get(&m->freed, rank, id, 1) = (void *)1;
	else
		tr_itab_del(&m->rcomm, rank, id);
	if ((size_t)i < m->nlive && m->live[i] > 0 && --m->live[i] == 0)
		tr_comms_drop(m->cids, i);
}

static void
pers(struct tr_match *m, const struct tr_ev *e)
{
	void **v = tr_itab_get(&m->npers, e->rank, e->comm, 0);

	if (tr_is_pers_init(e)) {
		v = tr_itab_get(&m->npers, e->rank, e->comm, 1);
		*v = (void *)((intptr_t)*v + 1);
		return;
	}
	if (!v || (intptr_t)*v > 1) {
		if (v)
			*v = (void *)((intptr_t)*v - 1);
		return;
	}
	tr_itab_del(&m->npers, e->rank, e->comm);
	if (tr_itab_get(&m->freed, e->rank, e->comm, 0)) {
		tr_itab_del(&m->freed, e->rank, e->comm);
		tr_itab_del(&m->rcomm, e->rank, e->comm);
	}
}

static int
tagmatch(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || a == b;
}

static struct chan *
chan_get(struct tr_match *m, int64_t src, int64_t dst, int64_t comm)
{
	void **v = tr_itab_get(&m->chans, src * TR_MAXNP + dst, comm, 1);

	if (!*v)
		*v = tr_calloc(1, sizeof(struct chan));
	return *v;
}

/* A channel with nothing in flight is forgotten: communicators made
 * every iteration would otherwise leave one each. */
static void
chan_tidy(struct tr_match *m, struct chan *c, int64_t src, int64_t dst,
    int64_t comm)
{
	if (c->ns || c->nr)
		return;
	free(c->s);
	free(c->r);
	free(c);
	tr_itab_del(&m->chans, src * TR_MAXNP + dst, comm);
}

/* Drawn once both ends are known, and forgotten. */
static void
settle(struct tr_match *m, struct rcv *r)
{
	if ((r->state & (MATCHED | DONE)) != (MATCHED | DONE))
		return;
	m->fn(m->ctx, &r->send, &r->end);
	free(r);
}

static void
post_send(struct tr_match *m, int64_t comm, int64_t dst,
    const struct tr_msgend *e)
{
	struct chan *c = chan_get(m, e->rank, dst, comm);
	struct rcv *r;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (tagmatch(c->r[i]->tag, e->tag))
			break;
	if (i == c->nr) {
		tr_grow(&c->s, &c->caps, c->ns + 1, sizeof *c->s);
		c->s[c->ns].tag = e->tag;
		c->s[c->ns++].end = *e;
		return;
	}
	r = c->r[i];
	memmove(c->r + i, c->r + i + 1, (c->nr - i - 1) * sizeof *c->r);
	c->nr--;
	chan_tidy(m, c, e->rank, dst, comm);
	r->send = *e;
	r->state = (r->state & ~POSTED) | MATCHED;
	settle(m, r);
}

static void
post_recv(struct tr_match *m, struct rcv *r)
{
	struct chan *c = chan_get(m, r->src, r->end.rank, r->comm);
	size_t i;

	for (i = 0; i < c->ns; i++)
		if (tagmatch(r->tag, c->s[i].tag))
			break;
	if (i == c->ns) {
		tr_grow(&c->r, &c->capr, c->nr + 1, sizeof *c->r);
		c->r[c->nr++] = r;
		r->state |= POSTED;
		return;
	}
	r->send = c->s[i].end;
	memmove(c->s + i, c->s + i + 1, (c->ns - i - 1) * sizeof *c->s);
	c->ns--;
	chan_tidy(m, c, r->src, r->end.rank, r->comm);
	r->state |= MATCHED;
	settle(m, r);
}

static struct held *
held_of(struct tr_match *m, int64_t rank)
{
	tr_growz(&m->held, &m->nheld, (size_t)rank + 1, sizeof *m->held);
	return &m->held[rank];
}

/* Posts the rank's held receives up to its first unresolved wildcard. */
static void
drain(struct tr_match *m, int64_t rank)
{
	struct held *h = held_of(m, rank);
	struct rcv *r;

	while (h->h < h->n && h->q[h->h]->src >= 0) {
		r = h->q[h->h++];
		r->state &= ~HELD;
		if (r->state & DEAD)
			free(r);
		else
			post_recv(m, r);
	}
	if (h->h == h->n)
		h->h = h->n = 0;
}

static void
recv(struct tr_match *m, struct rcv *r)
{
	struct held *h = held_of(m, r->end.rank);

	if (r->src >= 0 && h->h == h->n) {
		post_recv(m, r);
		return;
	}
	tr_grow(&h->q, &h->cap, h->n + 1, sizeof *h->q);
	h->q[h->n++] = r;
	r->state |= HELD;
}

/* A receive that will not complete in the trace: cancelled, or its
 * request started again. */
static void
drop(struct tr_match *m, struct rcv *r)
{
	struct chan *c;
	size_t i;

	if (r->state & HELD) {
		r->state |= DEAD;
		if (r->src < 0)
			r->src = 0;
		drain(m, r->end.rank);
		return;
	}
	if (r->state & POSTED) {
		c = chan_get(m, r->src, r->end.rank, r->comm);
		for (i = 0; i < c->nr && c->r[i] != r; i++)
			;
		if (i < c->nr) {
			memmove(c->r + i, c->r + i + 1,
			    (c->nr - i - 1) * sizeof *c->r);
			c->nr--;
		}
		chan_tidy(m, c, r->src, r->end.rank, r->comm);
	}
	free(r);
}

static struct rcv *
new_rcv(int64_t src, int64_t comm, int64_t tag, const struct tr_msgend *e)
{
	struct rcv *r = tr_calloc(1, sizeof *r);

	r->src = src;
	r->comm = comm;
	r->tag = tag;
	r->end = *e;
	return r;
}

void
tr_match_ev(struct tr_match *m, const struct tr_ev *e, int cls, int64_t at,
    int flag)
{
	struct tr_msgend end = {e->rank, at, e->bytes, e->tag, flag};
	int64_t comm = comm_key(m, e->rank, e->comm);
	struct rcv *r;
	void **v;

	switch (cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
		if (e->peer >= 0)
			post_send(m, comm, e->peer, &end);
		break;
	case TR_MPI_SENDRECV:
		if (e->peer >= 0)
			post_send(m, comm, e->peer, &end);
		end.tag = e->req;	/* the tag received */
		if (e->root >= 0) {
			r = new_rcv(e->root, comm, e->req, &end);
			r->state = DONE;
			recv(m, r);
		}
		break;
	case TR_MPI_RECV:
		if (e->peer >= 0) {
			r = new_rcv(e->peer, comm, e->tag, &end);
			r->state = DONE;
			recv(m, r);
		}
		break;
	case TR_MPI_IRECV:
		if (e->req < 0)
			break;
		v = tr_itab_get(&m->reqs, e->rank, e->req, 1);
		if (*v)
			drop(m, *v);
		*v = r = new_rcv(e->peer, comm, e->tag, &end);
		recv(m, r);
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
	case TR_MPI_CANCEL:
		if (e->req < 0 || !(v = tr_itab_get(&m->reqs, e->rank, e->req,
		    0)))
			break;
		r = *v;
		tr_itab_del(&m->reqs, e->rank, e->req);
		if (cls == TR_MPI_CANCEL) {
			drop(m, r);
			break;
		}
		r->end.at = at;
		r->end.flag = flag;
		r->state |= DONE;
		if (r->src < 0) {
			/* the wildcard's source, or none (MPI_PROC_NULL) */
			if (e->peer < 0) {
				drop(m, r);
				break;
			}
			r->src = e->peer;
			if (e->tag >= 0)
				r->tag = e->tag;
			drain(m, e->rank);
		} else
			settle(m, r);
		break;
	case TR_MPI_LOCAL:
		if (tr_is_comm_free(e))
			comm_free(m, e->rank, e->comm);
		else if (e->comm > 1 && (tr_is_pers_init(e) ||
		    tr_is_req_free(e)))
			pers(m, e);
		break;
	}
}

void
tr_match_reset(struct tr_match *m, int64_t *sends, int64_t *recvs)
{
	struct chan *c;
	size_t i, j;

	*sends = *recvs = 0;
	for (i = 0; i < m->chans.cap; i++) {
		if (!(c = m->chans.s[i].v))
			continue;
		*sends += (int64_t)c->ns;
		for (j = 0; j < c->nr; j++)
			if (!(c->r[j]->state & MATCHED)) {
				++*recvs;
				free(c->r[j]);
			}
		free(c->s);
		free(c->r);
		free(c);
	}
	tr_itab_free(&m->chans);
	for (i = 0; i < m->nheld; i++) {
		for (j = m->held[i].h; j < m->held[i].n; j++) {
			*recvs += !(m->held[i].q[j]->state & DEAD);
			free(m->held[i].q[j]);
		}
		free(m->held[i].q);
	}
	free(m->held);
	m->held = NULL;
	m->nheld = 0;
	/* Irecvs matched, never completed: in no queue */
	for (i = 0; i < m->reqs.cap; i++)
		if ((m->reqs.s[i].v) && (((struct rcv *)m->reqs.s[i].v)->state &
		    MATCHED))
			free(m->reqs.s[i].v);
	tr_itab_free(&m->reqs);
	tr_itab_free(&m->rcomm);
	tr_itab_free(&m->npers);
	tr_itab_free(&m->freed);
	tr_comms_free(m->cids);
	m->cids = tr_comms_new();
	free(m->live);
	m->live = NULL;
	m->nlive = 0;
}

void
tr_match_free(struct tr_match *m)
{
	int64_t s, r;

	if (!m)
		return;
	tr_match_reset(m, &s, &r);
	tr_comms_free(m->cids);
	free(m);
}
