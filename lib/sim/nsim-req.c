/* nsim-req.c - point-to-point requests: posted, matched as MPI matches
 * them, and completed. */
#include "nsim-int.h"

void
nsim_req_complete(struct tr_nsim *s, struct sreq *q, double t)
{
	struct rank *rk = &s->r[q->owner];

	q->done = 1;
	q->tdone = t;
	if (q->waited && q->bg) {
		struct bgcoll *b = &s->bg[q->bg - 1];

		q->waited = 0;
		if (t > b->tready)
			b->tready = t;
		if (--b->npend == 0)
			push(s, b->tready, EV_BG, q->bg - 1, 0);
	} else if (q->waited) {
		q->waited = 0;
		if (t > rk->tready)
			rk->tready = t;
		if (--rk->npend == 0)
			push(s, rk->tready, EV_WAKE, q->owner, 0);
	}
}

/* A request out of the newest slab, a new slab when it is used up. The
 * slabs go back only at the section's end, as requests freed go to
 * s->freereq and are used again. */
struct sreq *
nsim_req_slab(struct tr_nsim *s)
{
	char *slab;

	if (s->reqleft == 0) {
		slab = aligned_alloc(REQ_LINE, REQ_LINE + REQ_SLAB * REQ_STRIDE);
		if (!slab)
			tr_die(TR_EXIT_SYS, "out of memory");
		memcpy(slab, &s->reqslab, sizeof s->reqslab);
		s->reqslab = slab;
		s->reqleft = REQ_SLAB;
	}
	slab = s->reqslab;
	return (struct sreq *)(void *)(slab + REQ_LINE +
	    (REQ_SLAB - s->reqleft--) * REQ_STRIDE);
}

void
nsim_req_slabs_free(struct tr_nsim *s)
{
	void *slab, *prev;

	for (slab = s->reqslab; slab; slab = prev) {
		memcpy(&prev, slab, sizeof prev);
		free(slab);
	}
	s->reqslab = NULL;
	s->reqleft = 0;
	s->freereq = NULL;
}

/* The latency of the route from rank A to rank B: what a message
 * without payload takes. */
static double
route_lat(struct tr_nsim *s, long a, long b)
{
	struct tr_net *n = s->net;
	double lat;

	a = s->r[a].node;
	b = s->r[b].node;
	if (n->model == TR_MODEL_LOGGP)
		lat = n->L;
	else if (a == b)
		lat = n->intra_lat;
	else
		tr_net_route(n, a, b, s->route, &lat);
	return lat;
}

/* The receiver of synchronous send Q acknowledges it at T. */
void
nsim_sync_ack(struct tr_nsim *s, struct sreq *q, double t)
{
	nsim_req_complete(s, q, t + route_lat(s, q->dst, q->src) + s->net->o);
}

/* Receive RCV of send SND is complete at T. A synchronous send below the
 * eager limit goes with its data, as in Open MPI's ob1 and MPICH: the
 * receiver acknowledges the message once it has matched it, and the send
 * is done when that comes back. */
static void
received(struct tr_nsim *s, struct sreq *snd, struct sreq *rcv, double t)
{
	struct rank *rk = &s->r[snd->dst];

	nsim_req_complete(s, rcv, t);
	if (!snd->sync || snd->done)
		return;
	if (in_mpi(s, snd->dst))
		nsim_sync_ack(s, snd, t);
	else {
		snd->refs++;
		snd->next = rk->ackdef;
		rk->ackdef = snd;
	}
}

void
nsim_deliver(struct tr_nsim *s, struct sreq *q)
{
	struct sreq *r = q->match;

	if (q->rma == 1) {	/* at the target: the reply comes back */
		long a = q->src;

		q->rma = 2;
		q->src = q->dst;
		q->dst = a;
		q->bytes = q->back;
		nsim_flow_start(s, q, s->now);
		req_unref(s, q);
		return;
	}
	q->arrived = 1;
	if (q->rdv && !q->done)
		nsim_req_complete(s, q, s->now);
	if (r) {
		r->match = NULL;
		q->match = NULL;
		received(s, q, r, s->now + s->net->o);
	}
	req_unref(s, q);	/* the transfer's reference */
}

/* The time rank R's CPU copies rendezvous send Q in its call, or 0:
 * within a node, a library without a progress thread fetches the
 * message itself (Open MPI's single copy through CMA or XPMEM, MPICH's
 * LMT), so a call that is not blocked lasts until the copy ends. */
double
nsim_held_copy(const struct tr_nsim *s, long r, const struct sreq *q)
{
	const struct tr_net *n = s->net;
	const struct rank *rk = &s->r[r];

	if (n->progress == TR_PROGRESS_BACKGROUND || n->model ==
	    TR_MODEL_LOGGP || q->dst != r || rk->node != s->r[q->src].node ||
	    rk->npr > 0 || rk->inprobe || rk->done)
		return 0;
	return tr_net_intra(n, q->bytes);
}

/* Pairs a send and a receive posted now. */
static void
pair(struct tr_nsim *s, struct sreq *snd, struct sreq *rcv)
{
	/* A receive of known size (not a Sendrecv's, whose trace has the
	 * bytes sent) smaller than its message: MPI_ERR_TRUNCATE in the
	 * run, an inconsistent trace here unless its call failed. */
	int larger = rcv->bytes >= 0 && snd->bytes > rcv->bytes &&
	    !rcv->coll && !snd->rma;

	if (larger && rcv->cut == CUT_LATER) {
		tr_grow(&s->cuts, &s->cutcap, s->ncut + 1, sizeof *s->cuts);
		s->cuts[s->ncut++] = (struct cut){snd->owner, snd->seq,
		    snd->bytes, snd->tag};
		rcv->cut = CUT_FOUND;
		rcv->cutid = (uint32_t)s->ncut;
	} else if (larger && rcv->cut == CUT_NO) {
		const struct item *it = s->r[rcv->owner].it;

		if (!it || it->seq != rcv->seq)
			it = s->r[snd->owner].it;
		if (it && it->seq != rcv->seq && it->seq != snd->seq)
			it = NULL;
		nsim_item_die(s, it, "rank %ld seq %lld: a receive of %lld "
		    "bytes matches a message of %lld bytes from rank %ld seq "
		    "%lld (tag %lld): it would be truncated", (long)rcv->owner,
		    (long long)rcv->seq, (long long)rcv->bytes,
		    (long long)snd->bytes, (long)snd->owner, (long long)snd->seq,
		    (long long)snd->tag);
	}
	snd->tmatch = rcv->tmatch = s->now;
	if (snd->arrived) {
		received(s, snd, rcv, s->now + s->net->o);
		return;
	}
	snd->match = rcv;
	rcv->match = snd;
	if (snd->started)
		return;
	/* The receiver fetches a rendezvous message (RDMA get, single
	 * copy) once it has matched it, and it matches only inside an MPI
	 * call unless progress is in the background. One it copies itself
	 * waits for its next call that progresses (or blocks): the call
	 * that posted the receive does not. */
	if (snd->rdv && (!in_mpi(s, snd->dst) ||
	    nsim_held_copy(s, snd->dst, snd) > 0)) {
		snd->refs++;
		snd->next = s->r[snd->dst].rdvdef;
		s->r[snd->dst].rdvdef = snd;
		return;
	}
	nsim_flow_start(s, snd, s->now);
}

/* When rank R's next message leaves: after the overhead o, and the gap
 * g after its last one. */
double
nsim_inject(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	double t = s->now + s->net->o;

	if (s->net->g > 0 && rk->inject + s->net->g > t)
		t = rk->inject + s->net->g;
	rk->inject = t;
	return t;
}

/* A blocking probe of rank q->dst found send Q: the rank goes on once
 * its envelope has come (the route's latency after it left). */
void
nsim_probe_found(struct tr_nsim *s, const struct sreq *q)
{
	double lat = route_lat(s, q->src, q->dst);

	s->r[q->dst].inprobe = 2;
	push(s, q->tsent + lat > s->now ? q->tsent + lat : s->now, EV_WAKE,
	    q->dst, 0);
}

static void
post_send(struct tr_nsim *s, struct sreq *q)
{
	struct sreq **pp, *r;
	double t = nsim_inject(s, q->src);

	q->tsent = t;
	q->rdv = q->rdv || q->bytes >= (s->r[q->src].node ==
	    s->r[q->dst].node ? s->net->intra_eager : s->net->eager);
	if (!q->rdv) {
		q->done = !q->sync;
		q->tdone = t;
		nsim_flow_start(s, q, t);
	}
	for (pp = &s->posted[q->dst]; (r = *pp); pp = &r->next)
		if (matches(r, q)) {
			*pp = r->next;
			r->next = NULL;
			pair(s, q, r);
			return;
		}
	q->refs++;
	q->next = NULL;
	for (pp = &s->unexp[q->dst]; *pp; pp = &(*pp)->next)
		;
	*pp = q;
	if (s->r[q->dst].inprobe == 1 && matches(s->r[q->dst].probe, q))
		nsim_probe_found(s, q);
}

static void
post_recv(struct tr_nsim *s, struct sreq *q)
{
	struct sreq **pp, *m;

	for (pp = &s->unexp[q->dst]; (m = *pp); pp = &m->next)
		if (matches(q, m)) {
			*pp = m->next;
			m->next = NULL;
			pair(s, m, q);
			req_unref(s, m);	/* the queue's reference */
			return;
		}
	q->next = NULL;
	for (pp = &s->posted[q->dst]; *pp; pp = &(*pp)->next)
		;
	*pp = q;
}

/* MPI_Cancel of request Q: a receive still unmatched here is taken off
 * its queue and completes now; anything else completes as it would
 * (Open MPI cannot cancel a send either). */
void
nsim_cancel(struct tr_nsim *s, struct sreq *q)
{
	struct sreq **pp;

	if (q == &s->done_req || q == &s->io_req || q->send || q->coll ||
	    q->done || q->match)
		return;
	for (pp = &s->posted[q->dst]; *pp; pp = &(*pp)->next)
		if (*pp == q) {
			*pp = q->next;
			q->next = NULL;
			q->tmatch = s->now;
			nsim_req_complete(s, q, s->now);
			return;
		}
}

struct sreq *
nsim_mk_req(struct tr_nsim *s, long r, int send, long peer, int64_t bytes,
    int64_t tag, long gid, int coll, int sync, int64_t seq, int cut)
{
	struct sreq *q;

	if (peer < 0)		/* MPI_PROC_NULL: done at once */
		return &s->done_req;
	q = req_new(s);
	q->sync = (unsigned char)sync;
	q->owner = r;
	q->send = send;
	q->src = send ? r : peer;
	q->dst = send ? peer : r;
	q->bytes = bytes;
	q->tag = tag;
	q->gid = gid;
	q->coll = coll;
	q->seq = seq;
	q->cut = (unsigned char)cut;
	if (peer >= s->np)
		nsim_item_die(s, s->r[r].it && s->r[r].it->seq == seq ?
		    s->r[r].it : NULL, "rank %ld seq %lld: peer %ld out of "
		    "range (np=%ld)", r, (long long)seq, peer, s->np);
	if (send)
		post_send(s, q);
	else
		post_recv(s, q);
	return q;
}

int
nsim_user_req(struct tr_nsim *s, long r, const struct item *it, struct sreq *q)
{
	void **v;

	if (it->req < 0)
		return 0;
	v = tr_itab_get(&s->reqs, r, it->req, 1);
	if (*v)
		nsim_item_die(s, it, "rank %ld seq %lld: request %lld started "
		    "again before it completed", r, (long long)it->seq,
		    (long long)it->req);
	*v = q;
	return 1;
}
