/* nsim-rma.c - one-sided transfers (MPI_Put, MPI_Get, ...) and the calls
 * that await them. */
#include "nsim-int.h"

/*
 * One-sided communication. A transfer goes to its target and a reply
 * comes back: a put or accumulate carries its bytes there and an
 * acknowledgement of no bytes back, a get a request of no bytes there
 * and its bytes back, a fetching atomic bytes both ways. It is complete
 * when the reply arrives: the origin goes on at once, and waits for it
 * only in a call that completes it (MPI_Win_flush, _unlock, _fence,
 * ..., or MPI_Wait for MPI_Rput and the like). The target takes no part,
 * as with RDMA; lock waits and the target's side of post/start/
 * complete/wait keep their recorded time.
 *
 * With intra-rma-bandwidth, a transfer within a node is the origin's own
 * copy instead: on a window in shared memory Open MPI's osc/rdma and
 * osc/sm move the bytes with the origin's loads and stores (an
 * accumulate applies its op under the target's lock, or as an atomic),
 * so the call lasts for the copy and leaves a flush nothing to wait for.
 * Returns the time the call spends copying.
 */
double
nsim_rma_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rank *rk = &s->r[r];
	struct sreq *q;
	int64_t there, back;

	if (it->peer >= s->np)
		nsim_item_die(s, it, "rank %ld seq %lld: target %lld out of "
		    "range (np=%ld)", r, (long long)it->seq,
		    (long long)it->peer, s->np);
	there = it->coll == TR_RMA_GET ? 0 : it->coll == TR_RMA_FETCH &&
	    it->root >= 0 ? it->root : it->bytes;
	back = it->coll == TR_RMA_PUT ? 0 : it->bytes;
	if (s->net->rma_bw > 0 && rk->node == s->r[it->peer].node) {
		nsim_user_req(s, r, it, &s->done_req);
		return (double)(there + back) / s->net->rma_bw;
	}
	q = req_new(s);
	q->owner = q->src = r;
	q->dst = (long)it->peer;
	q->gid = (long)it->comm;	/* with tag, the window on this rank */
	q->tag = it->tag;
	q->seq = it->seq;
	q->rdv = 1;		/* complete when the reply is delivered */
	q->rma = 1;
	q->bytes = there;
	q->back = back;
	q->refs++;		/* the rank's list */
	q->next = rk->rma;
	rk->rma = q;
	/* Transfers completed by MPI_Wait alone stay listed until a flush
	 * or fence: drop the complete ones once the list has doubled, so
	 * that it holds about those in flight. */
	if (++rk->nrma > rk->rmasweep) {
		struct sreq **pp = &rk->rma, *x;

		while ((x = *pp)) {
			if (!x->done) {
				pp = &x->next;
				continue;
			}
			*pp = x->next;
			req_unref(s, x);
			rk->nrma--;
		}
		rk->rmasweep = 2 * rk->nrma > 64 ? 2 * rk->nrma : 64;
	}
	/* it leaves once the call has posted it */
	nsim_flow_start(s, q, nsim_inject(s, r) + s->net->rma_o);
	if (!nsim_user_req(s, r, it, q))
		req_unref(s, q);
	return 0;
}

/* Awaits rank R's transfers on the window of IT (to TARGET, or all if
 * -1), and forgets those complete. */
void
nsim_rma_await(struct tr_nsim *s, long r, const struct item *it, int64_t target)
{
	struct rank *rk = &s->r[r];
	struct sreq **pp = &rk->rma, *q;

	while ((q = *pp)) {
		int mine = q->gid == it->comm && q->tag == it->tag &&
		    (target < 0 || (q->src == r ? q->dst : q->src) == target);

		if (!q->done && !mine) {
			pp = &q->next;
			continue;
		}
		*pp = q->next;
		rk->nrma--;
		if (q->done)
			req_unref(s, q);
		else
			await(s, rk, q);	/* which takes the reference */
	}
}
