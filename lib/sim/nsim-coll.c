/* nsim-coll.c - collectives as steps of point-to-point messages, blocking
 * or in the background. */
#include "nsim-int.h"

static void
coll_check(struct tr_nsim *s, long r, const struct item *it, long gid,
    int64_t cseq, int op, long root)
{
	void **v = tr_itab_get(&s->colls, gid, cseq, 1);
	struct collchk *c = *v;

	if (!c) {
		c = *v = tr_malloc(sizeof *c);
		c->op = op;
		c->root = root;
		c->count = c->took = 0;
		c->rank = r;
		c->seq = it->seq;
		c->make = 0;
		c->min = it->dur;
	} else if (c->op != op || c->root != root)
		nsim_item_die(s, it, "mismatched collective: rank %ld seq %lld "
		    "calls %s (root %ld) where rank %ld seq %lld calls %s "
		    "(root %ld)", r, (long long)it->seq,
		    tr_coll_name(op & 0xff), root, c->rank, (long long)c->seq,
		    tr_coll_name(c->op & 0xff), c->root);
	if (it->cls == TR_MPI_COMMNEW) {
		c->make = 1;
		if (it->dur < c->min)
			c->min = it->dur;
	}
	if (++c->count == comm_size(s, gid) && !c->make) {
		free(c);
		tr_itab_del(&s->colls, gid, cseq);
	}
}

/* The intrinsic cost of making a window or communicator (or freeing a
 * window), which rank R adds once the barrier of instance CSEQ on GID is
 * over: the least duration its ranks recorded. The last rank to come
 * waited least, so that its duration is the call's own work (allocating
 * and registering memory, agreeing on a context id) and one
 * synchronisation. Every rank has come by then: a barrier ends nowhere
 * before all have entered it. */
double
nsim_make_cost(struct tr_nsim *s, long gid, int64_t cseq)
{
	void **v = tr_itab_get(&s->colls, gid, cseq, 0);
	struct collchk *c;
	double d;

	if (!v)
		return 0;
	c = *v;
	d = c->min > 0 ? (double)c->min : 0;
	if (++c->took >= comm_size(s, gid) && c->count >= comm_size(s, gid)) {
		free(c);
		tr_itab_del(&s->colls, gid, cseq);
	}
	return d;
}

/* The time the rank takes, once the N operations of a collective's step
 * are done, to reduce what they received into its own buffer. */
double
nsim_red_time(const struct tr_nsim *s, const struct tr_p2p *o, int n)
{
	double b = 0;
	int i;

	if (s->net->red_bw <= 0)
		return 0;
	for (i = 0; i < n; i++)
		if (o[i].red)
			b += (double)o[i].bytes;
	return b / s->net->red_bw;
}

/* Posts the next step of the rank's collective; 0 when it is over. */
int
nsim_coll_step(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	struct tr_p2p *ops;
	int n, i;

	tr_grow(&s->cops, &s->copscap, (size_t)tr_coll_cap(&rk->coll),
	    sizeof *s->cops);
	ops = s->cops;
	n = tr_coll_next(&rk->coll, ops, (long)s->copscap);
	rk->red = nsim_red_time(s, ops, n);
	for (i = 0; i < n; i++)
		await(s, rk, nsim_mk_req(s, r, ops[i].send,
		    coll_peer(s, rk->gid, r, ops[i].peer), ops[i].bytes,
		    rk->ctag, rk->gid, 1, 0, rk->it->seq, CUT_NO));
	return n > 0;
}

/* The block of one rank in a collective, from what the rank recorded:
 * for a v-collective its total over the communicator, spread evenly,
 * except on the ranks of a Gatherv or Scatterv other than the root,
 * which record their own block. */
int64_t
nsim_coll_block(const struct item *it, long n, long me, long root)
{
	int op = it->coll & 0xff;

	if (!(it->coll & TR_COLL_V))
		return it->bytes;
	if ((op == TR_COLL_GATHER || op == TR_COLL_SCATTER) && me != root)
		return it->bytes;
	return n > 0 ? it->bytes / n : it->bytes;
}

/* Begins in CO the collective IT of a rank of communicator C. A
 * neighborhood collective records what it sends to all the neighbours of
 * its grid, those outside a grid that does not wrap included. */
void
nsim_coll_setup(struct tr_nsim *s, struct tr_coll *co, long r,
    const struct item *it, const struct rcomm *c)
{
	int op = it->coll & 0xff, d;
	long n = comm_size(s, c->gid);
	long root = nsim_coll_root(s, c->gid, it->root);
	long grid = 1;
	int64_t b = op == TR_COLL_NEIGHBOR ? it->bytes / (2 * c->nd) :
	    nsim_coll_block(it, n, c->me, root);

	tr_coll_begin(co, op, s->net->coll, n, c->me, root, b);
	if (op != TR_COLL_NEIGHBOR)
		return;
	for (d = 0; d < c->nd && grid <= n; d++)
		grid *= c->grid[d];
	if (grid != n)
		nsim_item_die(s, it, "rank %ld seq %lld: the cart grid of "
		    "communicator %lld is not its %ld ranks", r,
		    (long long)it->seq, (long long)it->comm, n);
	tr_coll_grid(co, c->nd, c->grid, c->grid + c->nd);
}

/* A neighborhood collective on a communicator without a grid (a graph
 * topology): its messages are not known, so it is a local call. */
int
nsim_gridless(struct tr_nsim *s, long r, const struct item *it)
{
	return (it->coll & 0xff) == TR_COLL_NEIGHBOR &&
	    nsim_rank_comm(s, r, it->comm, it)->nd == 0;
}

void
nsim_coll_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rank *rk = &s->r[r];
	struct rcomm *c = nsim_rank_comm(s, r, it->comm, it);

	coll_check(s, r, it, c->gid, c->cseq, it->coll,
	    nsim_coll_root(s, c->gid, it->root));
	rk->gid = c->gid;
	nsim_coll_setup(s, &rk->coll, r, it, c);
	rk->ctag = c->cseq++;
	rk->incoll = 1;
}

/* Posts the steps of nonblocking collective ID from now on, as far as
 * they go without waiting; at its end, completes its request. */
void
nsim_bg_step(struct tr_nsim *s, long id)
{
	struct bgcoll *b = &s->bg[id];
	int n, i;

	for (;;) {
		for (i = 0; i < b->nq; i++) {
			struct sreq *q = b->q[i];
			if (q->tmatch > b->tmatch &&
			    !(q->send && !q->rdv && !q->sync))
				b->tmatch = q->tmatch;
			req_unref(s, q);
		}
		b->nq = 0;
		b->tready += b->red;
		b->red = 0;
		if (b->tready > s->now) {
			push(s, b->tready, EV_BG, id, 0);
			return;
		}
		if (!in_mpi(s, b->owner)) {
			b->next = s->r[b->owner].bgdef;
			s->r[b->owner].bgdef = id + 1;
			return;
		}
		tr_grow(&s->cops, &s->copscap, (size_t)tr_coll_cap(&b->coll),
		    sizeof *s->cops);
		if ((n = tr_coll_next(&b->coll, s->cops, (long)s->copscap)) == 0)
			break;
		b->red = nsim_red_time(s, s->cops, n);
		if (n > b->qcap) {
			b->qcap = n;
			b->q = tr_realloc(b->q, (size_t)n * sizeof *b->q);
		}
		for (i = 0; i < n; i++) {
			struct sreq *q = nsim_mk_req(s, b->owner,
			    s->cops[i].send, coll_peer(s, b->gid, b->owner,
			    s->cops[i].peer), s->cops[i].bytes, b->ctag, b->gid,
			    1, 0, b->seq, CUT_NO);

			if (q == &s->done_req)
				continue;
			b->q[b->nq++] = q;
			q->bg = (int)id + 1;
			expect(q, &b->tready, &b->npend);
		}
		if (b->npend > 0)
			return;
	}
	b->req->tmatch = b->tmatch;
	nsim_req_complete(s, b->req, s->now);
	req_unref(s, b->req);
	b->req = NULL;
	b->next = s->bgfree + 1;
	s->bgfree = id;
	s->bglive--;
	nsim_comm_unref(s, b->gid);
}

/* Starts the nonblocking collective IT of rank R in the background. */
void
nsim_bg_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rcomm *c = nsim_rank_comm(s, r, it->comm, it);
	struct bgcoll *b;
	long id = s->bgfree;

	coll_check(s, r, it, c->gid, c->cseq, it->coll,
	    nsim_coll_root(s, c->gid, it->root));
	if (id >= 0)
		s->bgfree = s->bg[id].next - 1;
	else {
		size_t cap = (size_t)s->bgcap;

		id = s->nbg++;
		tr_grow(&s->bg, &cap, (size_t)s->nbg, sizeof *s->bg);
		s->bgcap = (long)cap;
		memset(&s->bg[id], 0, sizeof *s->bg);
	}
	s->bglive++;
	b = &s->bg[id];
	b->owner = r;
	b->gid = c->gid;
	if (b->gid >= 2)
		comm_get(s, b->gid)->live++;
	b->ctag = c->cseq++;
	b->seq = it->seq;
	b->tready = b->tmatch = s->now;
	b->red = 0;
	b->npend = 0;
	nsim_coll_setup(s, &b->coll, r, it, c);
	b->req = req_new(s);
	b->req->owner = r;
	b->req->coll = 1;
	b->req->seq = it->seq;
	b->req->refs = 2;	/* the user's and the schedule's */
	nsim_user_req(s, r, it, b->req);
	nsim_bg_step(s, id);
}
