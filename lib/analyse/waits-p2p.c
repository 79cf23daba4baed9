/* waits-p2p.c - point-to-point messages matched as MPI does, charged
 * as late senders and late receivers. */
#include "waits-int.h"

/* Sends this large wait for their receive when neither -e nor the trace
 * says: Open MPI's TCP eager limit. */
#define DEFAULT_RDV 65536

static int64_t
newpop(struct tr_waits *w)
{
	int64_t i;

	if (w->nfree)
		i = w->freepops[--w->nfree];
	else {
		tr_grow(&w->pops, &w->cappops, w->npops + 1, sizeof *w->pops);
		i = (int64_t)w->npops++;
	}
	memset(&w->pops[i], 0, sizeof w->pops[i]);
	w->pops[i].inuse = 1;
	w->pops[i].ws = w->pops[i].we = -1;
	return i;
}

/* The host of RANK from #meta host.RANK, -1 if the header has none.
 * Looked up when a message of the rank settles: its records, hence the
 * header of its file, have been read. */
static int32_t
host_of(struct tr_waits *w, int64_t rank)
{
	char k[32];
	const char *h;

	if ((size_t)rank < w->nhostv && w->hostv[rank] > 0)
		return w->hostv[rank] - 1;
	snprintf(k, sizeof k, "host.%lld", (long long)rank);
	if (!(h = tr_meta(w->meta, k)))
		return -1;
	tr_growz(&w->hostv, &w->nhostv, (size_t)rank + 1, sizeof *w->hostv);
	w->hostv[rank] = (int32_t)tr_map_get(w->hosts, h, strlen(h), 1) + 1;
	return w->hostv[rank] - 1;
}

/* The smallest send from rank A to rank B that waits for its receive.
 * Ranks of one host use the shared-memory limit; a run without one sent
 * their messages over its network. */
static int64_t
rdv_size(struct tr_waits *w, int64_t a, int64_t b)
{
	int32_t ha, hb;
	int64_t v;

	if (w->eager >= 0)
		return w->eager;
	if (w->shm < 0 && w->net < 0)
		return DEFAULT_RDV;
	if ((ha = host_of(w, a)) < 0 || (hb = host_of(w, b)) < 0)
		return DEFAULT_RDV;
	v = ha == hb && w->shm >= 0 ? w->shm : w->net;
	return v < 0 ? DEFAULT_RDV : v < SYNC ? v + 1 : SYNC;
}

/* The requests that one call completes (a Waitall's, the two halves
 * of a Sendrecv) are waited for at once, from the call's start: the
 * rank waits the longest of their waits, not their sum, which could
 * exceed the call. Each request is charged what it adds to the waits
 * settled before it in the call, so that its partners' blames add up
 * to the rank's wait. */
static int64_t
uncovered(struct tr_waits *w, const struct pop *p, int64_t t)
{
	struct callwait *c;
	int64_t add;

	tr_growz(&w->callw, &w->ncallw, (size_t)p->rank + 1,
	    sizeof *w->callw);
	c = &w->callw[p->rank];
	/* settled after a later call: skewed clocks */
	if (p->seq < c->seq)
		return t;
	if (p->seq > c->seq) {
		c->seq = p->seq;
		c->charged = 0;
	}
	add = t > c->charged ? t - c->charged : 0;
	if (t > c->charged)
		c->charged = t;
	return add;
}

static void
settle(struct tr_waits *w, int64_t i)
{
	struct pop *p = &w->pops[i];

	if (!p->matched || !p->done)
		return;
	if (!p->send)
		waits_charge(w, LATE_SENDER, p->rank, p->site, uncovered(w,
		    p, clamp(p->ppost - p->ws, p->we - p->ws)), p->partner);
	else if (p->bytes >= rdv_size(w, p->rank, p->partner))
		waits_charge(w, LATE_RECEIVER, p->rank, p->site, uncovered(w,
		    p, clamp(p->ppost - p->ws, p->we - p->ws)), p->partner);
	p->inuse = 0;
	tr_grow(&w->freepops, &w->capfree, w->nfree + 1, sizeof *w->freepops);
	w->freepops[w->nfree++] = i;
}

static struct chan *
getchan(struct tr_waits *w, int64_t src, int64_t dst, int32_t comm)
{
	int64_t key[3] = {src, dst, comm};
	long i = tr_map_get(w->chans, (const char *)key, sizeof key, 1);

	if ((size_t)i == w->nchanv) {
		tr_grow(&w->chanv, &w->capchanv, w->nchanv + 1,
		    sizeof *w->chanv);
		memset(&w->chanv[w->nchanv++], 0, sizeof *w->chanv);
	}
	return &w->chanv[i];
}

static int
tagmatch(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || a == b;
}

/* Posts one side, a send of BYTES (SYNC: synchronous) or a receive;
 * matches it with the first pending other side whose tag fits (MPI's
 * non-overtaking order per channel). */
int64_t
waits_post(struct tr_waits *w, int64_t rank, int64_t peer, int32_t comm,
    int64_t tag, int64_t start, int send, int64_t bytes)
{
	struct chan *c = send ? getchan(w, rank, peer, comm) :
	    getchan(w, peer, rank, comm);
	int64_t *q = send ? c->recvs : c->sends;
	size_t *nq = send ? &c->nr : &c->ns, j;
	int64_t i = newpop(w), o;
	struct pop *p = &w->pops[i];

	p->rank = rank;
	p->post = start;
	p->partner = peer;
	p->tag = tag;
	p->send = send;
	p->bytes = bytes;
	p->comm = comm;
	for (j = 0; j < *nq; j++) {
		o = q[j];
		if (!tagmatch(w->pops[o].tag, tag))
			continue;
		memmove(q + j, q + j + 1, (*nq - j - 1) * sizeof *q);
		(*nq)--;
		w->pops[o].matched = p->matched = 1;
		w->pops[o].ppost = start;
		p->ppost = w->pops[o].post;
		settle(w, o);
		return i;
	}
	if (send) {
		tr_grow(&c->sends, &c->caps, c->ns + 1, sizeof *c->sends);
		c->sends[c->ns++] = i;
	} else {
		tr_grow(&c->recvs, &c->capr, c->nr + 1, sizeof *c->recvs);
		c->recvs[c->nr++] = i;
	}
	return i;
}

/* Takes pop I out of its channel's queue of the unmatched. */
static void
unqueue(struct tr_waits *w, int64_t i)
{
	struct pop *p = &w->pops[i];
	struct chan *c = p->send ? getchan(w, p->rank, p->partner, p->comm) :
	    getchan(w, p->partner, p->rank, p->comm);
	int64_t *q = p->send ? c->sends : c->recvs;
	size_t *nq = p->send ? &c->ns : &c->nr, j;

	for (j = 0; j < *nq && q[j] != i; j++)
		;
	if (j < *nq) {
		memmove(q + j, q + j + 1, (*nq - j - 1) * sizeof *q);
		(*nq)--;
	}
}

/* A receive cancelled before a message matched it is taken out of
 * matching (the cancel succeeded); one matched already is not (it
 * failed, and the request completes as usual). A send's cancel is left
 * alone: it fails once the message is on its way, and whether it was is
 * in the trace as the receive that got it. */
void
waits_cancel(struct tr_waits *w, int64_t i)
{
	struct pop *p = &w->pops[i];

	if (p->send || p->matched || p->cancelled)
		return;
	unqueue(w, i);
	p->cancelled = 1;
}

void
waits_complete(struct tr_waits *w, int64_t i, const struct item *it)
{
	if (w->pops[i].cancelled) {	/* nothing to wait for: freed */
		w->pops[i].inuse = 0;
		tr_grow(&w->freepops, &w->capfree, w->nfree + 1,
		    sizeof *w->freepops);
		w->freepops[w->nfree++] = i;
		return;
	}
	w->pops[i].ws = it->start;
	w->pops[i].we = it->end;
	w->pops[i].site = it->site;
	w->pops[i].seq = it->seq;
	w->pops[i].done = 1;
	settle(w, i);
}

/* Requests in flight only: a table with deletion, since request ids
 * need not be reused and a map would grow with the trace. Values are
 * pop indexes plus one (a stored value may not be NULL). */
void
waits_setreq(struct tr_waits *w, int64_t rank, int64_t req, int64_t pop)
{
	*tr_itab_get(&w->reqs, rank, req, 1) = (void *)(uintptr_t)(pop + 1);
}

int64_t
waits_takereq(struct tr_waits *w, int64_t rank, int64_t req)
{
	void **v = tr_itab_get(&w->reqs, rank, req, 0);
	int64_t p;

	if (!v)
		return -1;
	p = (int64_t)(uintptr_t)*v - 1;
	tr_itab_del(&w->reqs, rank, req);
	return p;
}

/* Messages whose other side never came (a receive still posted at the
 * end, a send nobody received) wait for nothing the trace holds: said
 * in one line, the first posted named, rather than left out in silence.
 * A warning: programs do end with a receive posted. */
void
waits_unmatched(struct tr_waits *w, struct tr_in *in)
{
	const struct pop *p, *first = NULL, *own = NULL;
	int64_t count = 0;
	size_t i, j;
	const char *file;
	long line;

	for (i = 0; i < w->nchanv; i++) {
		const struct chan *c = &w->chanv[i];

		for (j = 0; j < c->ns + c->nr; j++) {
			p = &w->pops[j < c->ns ? c->sends[j] :
			    c->recvs[j - c->ns]];
			count++;
			if (!first || p->post < first->post)
				first = p;
			if (tr_sharded() && tr_in_shard(p->rank) &&
			    (!own || p->post < own->post))
				own = p;
		}
	}
	if (!first)
		return;
	line = tr_meta_where(in, "np", &file);
	/* A partner's file left out of a shard's input looks the same. */
	if (own)
		tr_die(TR_EXIT_DATA, "%s:%ld: rank %lld's %s rank %lld (tag "
		    "%lld) posted at %lld ns never matched: a shard's waits "
		    "need the records of its ranks' partners", file, line,
		    (long long)own->rank, own->send ? "send to" :
		    "receive from", (long long)own->partner,
		    (long long)own->tag, (long long)own->post);
	tr_warn("%s:%ld: %lld point-to-point message%s never matched, left "
	    "out of the waits: the first, rank %lld's %s rank %lld (tag "
	    "%lld) posted at %lld ns", file, line, (long long)count,
	    count > 1 ? "s" : "", (long long)first->rank, first->send ?
	    "send to" : "receive from", (long long)first->partner,
	    (long long)first->tag, (long long)first->post);
}

