/* waits.c - wait states of MPI calls (tr-waits): a section's ev
 * records, spooled per rank (inputs may be per-rank files
 * concatenated), are replayed in start-time order across ranks, so that
 * only messages and collectives in flight are held. */
#include "waits-int.h"

/* ---- the replay ---- */

/* What waits_post() takes of IT: SYNC for a synchronous send, 0 for a
 * buffered one, which waits for no one whatever its size, else its
 * bytes. */
static int64_t
sent(const struct item *it)
{
	if (it->cls == TR_MPI_SSEND || it->coll == TR_P2P_SYNC)
		return SYNC;
	return it->coll == TR_P2P_BUF ? 0 : it->bytes;
}

/* waits_more() for tr_wild_resolve: on to the completion of a
 * wildcard. */
static int
more_wild(void *ctx, long rank)
{
	return waits_more(ctx, rank, 1);
}

static void
step(struct tr_waits *w, int64_t rank, const struct item *it)
{
	int64_t i, peer, tag;

	switch (it->cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
		if (it->peer < 0)
			break;
		i = waits_post(w, rank, it->peer, it->comm, it->tag,
		    it->start, 1, sent(it));
		waits_complete(w, i, it);
		break;
	case TR_MPI_RECV:
		if (it->peer < 0)
			break;
		i = waits_post(w, rank, it->peer, it->comm, it->tag,
		    it->start, 0, 0);
		waits_complete(w, i, it);
		break;
	case TR_MPI_SENDRECV:
		if (it->peer >= 0) {
			i = waits_post(w, rank, it->peer, it->comm, it->tag,
			    it->start, 1, it->bytes);
			waits_complete(w, i, it);
		}
		if (it->root >= 0) {
			/* req: the tag received, -1 (any) if not recorded */
			i = waits_post(w, rank, it->root, it->comm,
			    it->req >= 0 ? it->req : -1, it->start, 0, 0);
			waits_complete(w, i, it);
		}
		break;
	case TR_MPI_ISEND:
	case TR_MPI_IRECV:
		if (it->req < 0)
			break;
		peer = it->peer;
		tag = it->tag;
		if (it->cls == TR_MPI_IRECV) {
			struct tr_wildq wq = {it->seq, it->peer, it->tag,
			    it->req};

			tr_wild_resolve(w->wild, (long)rank, &wq, &peer, &tag,
			    more_wild, w);
		}
		if (peer < 0)
			break;
		i = waits_post(w, rank, peer, it->comm, tag, it->start,
		    it->cls == TR_MPI_ISEND, sent(it));
		waits_setreq(w, rank, it->req, i);
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (it->req >= 0 && (i = waits_takereq(w, rank, it->req)) >= 0)
			waits_complete(w, i, it);
		break;
	case TR_MPI_CANCEL: {
		void **v = it->req >= 0 ? tr_itab_get(&w->reqs, rank,
		    it->req, 0) : NULL;

		if (v)
			waits_cancel(w, (int64_t)(uintptr_t)*v - 1);
		break;
	}
	case TR_MPI_COLL:
	case TR_MPI_COMMNEW:
	case TR_MPI_FENCE:
		waits_coll(w, rank, it);
		if (it->unhold)
			waits_comm_freed(w, it->comm);
		break;
	case FREE:
		waits_comm_freed(w, it->comm);
		break;
	}
}

struct head {
	int64_t rank;
	struct item it;
};

static int
before(const struct head *a, const struct head *b)
{
	if (a->it.start != b->it.start)
		return a->it.start < b->it.start;
	return a->rank < b->rank;
}

static void
sift(struct head *h, size_t n, size_t i)
{
	struct head t;
	size_t l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int
pull(struct tr_waits *w, int64_t rank, struct head *h)
{
	const void *p;
	size_t n;

	while (!tr_spool_next(w->spool, (long)rank, &p, &n))
		if (!waits_more(w, rank, 0))
			return 0;
	h->rank = rank;
	memcpy(&h->it, p, sizeof h->it);
	return 1;
}

static void
replay(struct tr_waits *w)
{
	struct head *h;
	size_t n = 0, i;
	int64_t r;

	h = tr_calloc((size_t)w->nranks + 1, sizeof *h);
	for (r = 0; r < w->nranks; r++)
		if (pull(w, r, &h[n]))
			n++;
	for (i = n / 2 + 1; i-- > 0;)
		sift(h, n, i);
	while (n > 0) {
		step(w, h[0].rank, &h[0].it);
		if (!pull(w, h[0].rank, &h[0]))
			h[0] = h[--n];
		sift(h, n, 0);
	}
	free(h);
}

/* ---- the section's state ---- */

static void
clear(struct tr_waits *w)
{
	size_t i;
	struct cinst *c, *nx;

	for (i = 0; i < w->ncommv; i++) {
		free(w->commv[i].count);
		for (c = w->commv[i].open; c; c = nx) {
			nx = c->next;
			waits_cinst_free(c);
		}
	}
	for (i = 0; i < w->nchanv; i++) {
		free(w->chanv[i].sends);
		free(w->chanv[i].recvs);
	}
	w->ncommv = w->nchanv = w->npops = w->nfree = w->naccv = 0;
	w->nblamev = w->nmade = 0;
	w->nranks = 0;
	w->nhostv = 0;
	free(w->hostv);
	w->hostv = NULL;
	w->ncallw = 0;
	free(w->callw);
	w->callw = NULL;
	tr_map_clear(w->hosts);
	tr_map_clear(w->sites);
	tr_itab_free(&w->rcomm);
	tr_itab_free(&w->rwin);
	tr_itab_free(&w->rpers);
	tr_itab_free(&w->npers);
	memset(&w->rcomm, 0, sizeof w->rcomm);
	tr_comms_free(w->cids);
	w->cids = NULL;
	tr_map_clear(w->chans);
	tr_itab_free(&w->reqs);
	tr_wild_free(w->wild);
	w->wild = NULL;
	tr_map_clear(w->accs);
	tr_map_clear(w->blames);
	if (w->spool)
		tr_spool_free(w->spool);
	w->spool = NULL;
}

static void
begin(struct tr_waits *w)
{
	w->spool = tr_spool_new(64 << 20);
	w->wild = tr_wild_new();
	w->cids = tr_comms_new();
	waits_newcomm(w, 0, 0);
}

struct tr_waits *
tr_waits_new(int64_t eager)
{
	struct tr_waits *w = tr_calloc(1, sizeof *w);

	w->eager = eager == 0 ? SYNC : eager;
	w->hosts = tr_map_new();
	w->sites = tr_map_new();
	w->chans = tr_map_new();
	w->accs = tr_map_new();
	w->blames = tr_map_new();
	w->ops = tr_map_new();
	begin(w);
	return w;
}

void
tr_waits_section(struct tr_waits *w, struct tr_in *in,
    const struct tr_rec *rec, struct tr_out *out, int passev)
{
	int64_t np;

	w->in = in;
	w->meta = in;
	w->out = out;
	w->passev = passev;
	if (tr_meta_i64(in, "eager.shm", &w->shm) < 0)
		w->shm = -1;
	if (tr_meta_i64(in, "eager.net", &w->net) < 0)
		w->net = -1;
	if (rec)
		waits_take(w, rec);
	else
		waits_end_reading(w);
	/* The ranks must be known before the first is replayed. */
	if (tr_meta_i64(in, "np", &np) == 0 && np > 0) {
		if (np > w->nranks)
			w->nranks = np;
	} else
		while (waits_more(w, -1, 0))
			;
	replay(w);
	while (waits_more(w, -1, 0))
		;
	waits_unfinished(w, in);
	waits_unmatched(w, in);
	waits_report(w, out);
	clear(w);
	begin(w);
}

void
tr_waits_free(struct tr_waits *w)
{
	if (!w)
		return;
	clear(w);
	free(w->commv);
	free(w->chanv);
	free(w->pops);
	free(w->freepops);
	free(w->accv);
	free(w->blamev);
	tr_map_free(w->hosts);
	tr_map_free(w->sites);
	tr_map_free(w->chans);
	tr_map_free(w->accs);
	tr_map_free(w->blames);
	tr_map_free(w->ops);
	free(w);
}
