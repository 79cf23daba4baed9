/* waits.c - wait states: late senders and receivers, waits at barriers
 * and N x N collectives, late broadcasts and early reduces (tr-waits).
 *
 * A section's ev records are spooled per rank (inputs may be per-rank
 * files concatenated) and replayed in start-time order across ranks,
 * so that only messages and collectives in flight are held. When the
 * section names its ranks (#meta np) the input is read as the replay
 * needs it: a rank whose spooled records are used up has the input read
 * on to its next one, so a trace ordered by time keeps a few records per
 * rank, not the trace. */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

enum { LATE_SENDER, LATE_RECEIVER, WAIT_BARRIER, WAIT_NXN, LATE_BCAST,
	EARLY_REDUCE, NKINDS };
static const char *kindname[NKINDS] = {"late_sender", "late_receiver",
	"wait_barrier", "wait_nxn", "late_bcast", "early_reduce"};

/* One ev record as spooled. */
struct item {
	int64_t seq, start, end, peer, bytes, tag, req, root;
	int32_t cls, coll, comm, site, op;	/* op: of collectives, in ops */
	int32_t unhold;		/* an MPI_Win_free: its window lets go */
};

/* One side of a point-to-point message. A send's bytes decide whether
 * it waits for its receive when both are known, by then the hosts of
 * both ranks too. */
struct pop {
	int64_t rank, post, ws, we, partner, ppost, tag, bytes;
	int64_t seq;		/* of the call that completed it */
	int32_t site;
	int send, matched, done, inuse, cancelled;
	int32_t comm;
};

/* The bytes of a synchronous send: at least any rendezvous size. */
#define SYNC INT64_MAX
/* Sends this large wait for their receive when neither -e nor the trace
 * says: Open MPI's TCP eager limit. */
#define DEFAULT_RDV 65536

struct chan {
	int64_t *sends, *recvs;	/* pop indexes, in order */
	size_t ns, nr, caps, capr;
};

struct centry {
	int64_t rank, start, end;
	int32_t site;
};

struct cinst {
	int64_t index, root;
	int coll, n, got;
	int32_t op;
	struct centry *e;
	struct cinst *next;
};

struct comm {
	int64_t size;
	int64_t live;		/* members yet to free it; 0: kept */
	int64_t made;		/* its place in the order of creation */
	int64_t *count;		/* collectives entered, per world rank */
	size_t ncount;
	struct cinst *open;
};

struct acc {
	int64_t n, time;
};

struct tr_waits {
	int64_t eager;		/* sends this large wait; -1: the trace says */
	int64_t shm, net;	/* the section's #meta eager.*, -1 if none */
	const struct tr_in *meta;	/* the section's header */
	struct tr_map *hosts;
	int32_t *hostv;		/* per rank: its host in hosts + 1, 0 unknown */
	size_t nhostv;
	struct callwait {
		int64_t seq, charged;
	} *callw;		/* per rank: its last call that waited */
	size_t ncallw;
	int warned;
	int64_t nranks;
	struct tr_spool *spool;
	struct tr_map *sites, *chans, *accs, *blames, *ops;
	struct tr_comms *cids;	/* comm records across ranks: commv - 1 */
	struct tr_itab rcomm;	/* (rank, id) -> 1 + its commv index */
	struct tr_itab rwin;	/* (rank, window) -> 1 + its commv index */
	struct tr_itab rpers;	/* (rank, id) -> 1 + commv index, held */
	struct tr_itab npers;	/* (rank, id) -> its persistent requests */
	struct tr_itab reqs;	/* (rank, req) -> pop + 1 */
	struct tr_wild *wild;	/* sources of MPI_ANY_SOURCE receives */
	struct comm *commv;
	size_t ncommv, capcommv;
	int64_t nmade;		/* communicators made so far */
	struct chan *chanv;
	size_t nchanv, capchanv;
	struct pop *pops;
	size_t npops, cappops;
	int64_t *freepops;
	size_t nfree, capfree;
	struct acc *accv, *blamev;
	size_t naccv, capaccv, nblamev, capblamev;
	struct tr_in *in;	/* the section, while it is read */
	struct tr_out *out;
	int passev;
	int64_t got, gotwild;	/* ranks of the record last taken */
};

/* ---- reading: spool the calls, learn the communicators ---- */

static int64_t
members_count(const struct tr_in *in, const struct tr_field *f)
{
	long n;

	if (tr_members(f->p, f->n, NULL, &n) < 0)
		tr_in_die(in, "bad members list '%.*s'", (int)(f->n > 40 ? 40 :
		    f->n), f->p);
	return n;
}

/* Communicator I (0 the world), made with SIZE members. */
static void
newcomm(struct tr_waits *w, size_t i, int64_t size)
{
	if (i >= w->ncommv) {
		tr_grow(&w->commv, &w->capcommv, i + 1, sizeof *w->commv);
		w->ncommv = i + 1;
	}
	memset(&w->commv[i], 0, sizeof *w->commv);
	w->commv[i].size = w->commv[i].live = size;
	w->commv[i].made = w->nmade++;
}

static void
comm_rec(struct tr_waits *w, const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank = tr_get_i64(in, r, 1), id = tr_get_i64(in, r, 2);
	int64_t size = members_count(in, &r->f[4]);
	int made;
	long i = tr_comms_get(w->cids, rank, &r->f[4], &made) + 1;

	if (made)
		newcomm(w, (size_t)i, size);
	*tr_itab_get(&w->rcomm, rank, id, 1) = (void *)(intptr_t)(i + 1);
}

#define SELF (-2)		/* MPI_COMM_SELF: nobody to wait for */
#define FREE (-1)		/* cls: MPI_Comm_free, or a hold let go */

/* The communicator a rank's comm id stands for: -1 unknown. */
static int32_t
comm_of(struct tr_waits *w, int64_t rank, int64_t id)
{
	void **v;

	if (id == 0)
		return 0;
	if (id == 1)
		return SELF;
	if (id < 0)
		return -1;
	v = tr_itab_get(&w->rcomm, rank, id, 0);
	return v ? (int32_t)((intptr_t)*v - 1) : -1;
}

static int
op_is(const struct tr_ev *e, const char *name, int prefix)
{
	size_t n = strlen(name);

	return (prefix ? e->op.n >= n : e->op.n == n) &&
	    memcmp(e->op.p, name, n) == 0;
}

/* A window keeps the group of its communicator (MPI 4.1, 12.2.1): its
 * fences and its free are collectives over it even after the
 * communicator is freed (OpenCoarrays frees its own before its
 * windows), which each window holds until freed. */
static void
win_comm(struct tr_waits *w, const struct tr_ev *e, struct item *it)
{
	void **v;

	if (e->tag < 0)
		return;
	if (op_is(e, "MPI_Win_create", 1) || op_is(e, "MPI_Win_allocate", 1)) {
		if (it->comm <= 0)
			return;
		v = tr_itab_get(&w->rwin, e->rank, e->tag, 1);
		if (!*v) {
			*v = (void *)(intptr_t)(it->comm + 1);
			w->commv[it->comm].live++;
		}
	} else if ((it->cls == TR_MPI_FENCE || op_is(e, "MPI_Win_free", 0)) &&
	    (v = tr_itab_get(&w->rwin, e->rank, e->tag, 0))) {
		it->comm = (int32_t)((intptr_t)*v - 1);
		if (it->cls == TR_MPI_COMMNEW) {
			it->unhold = 1;
			tr_itab_del(&w->rwin, e->rank, e->tag);
		}
	}
}

/* A persistent request may be started after MPI_Comm_free (MPI 4.1,
 * 6.4.3): a communicator on which one is made is held until the
 * MPI_Request_free of the last made with its id (traces of earlier
 * recorders have none: the end of the section), and the starts of its
 * id take the last one made with it, even freed. */
static void
pers_comm(struct tr_waits *w, const struct tr_ev *e, struct item *it,
    int64_t comm)
{
	void **v, **n;

	if (it->cls == TR_MPI_ISEND || it->cls == TR_MPI_IRECV) {
		if (op_is(e, "MPI_Start", 1) &&
		    (v = tr_itab_get(&w->rpers, e->rank, comm, 0)))
			it->comm = (int32_t)((intptr_t)*v - 1);
		return;
	}
	if (tr_is_req_free(e)) {
		if (!(n = tr_itab_get(&w->npers, e->rank, comm, 0)))
			return;
		if ((intptr_t)*n > 1) {
			*n = (void *)((intptr_t)*n - 1);
			return;
		}
		tr_itab_del(&w->npers, e->rank, comm);
		v = tr_itab_get(&w->rpers, e->rank, comm, 0);
		/* let go of it where the replay gets here */
		it->comm = (int32_t)((intptr_t)*v - 1);
		it->cls = FREE;
		tr_itab_del(&w->rpers, e->rank, comm);
		return;
	}
	if (!tr_is_pers_init(e) || it->comm <= 0)
		return;
	n = tr_itab_get(&w->npers, e->rank, comm, 1);
	*n = (void *)((intptr_t)*n + 1);
	/* (an id made again holds the one before too, to the end) */
	v = tr_itab_get(&w->rpers, e->rank, comm, 1);
	if (*v == (void *)(intptr_t)(it->comm + 1))
		return;
	*v = (void *)(intptr_t)(it->comm + 1);
	w->commv[it->comm].live++;
}

static void
spool_ev(struct tr_waits *w, const struct tr_ev *e)
{
	struct item it;
	int64_t comm;

	it.seq = e->seq;
	it.start = e->start;
	it.end = e->end;
	it.peer = e->peer;
	it.bytes = e->bytes;
	it.tag = e->tag;
	it.req = e->req;
	it.root = e->root;
	it.cls = tr_ev_class(e, &it.coll, &comm);
	if (tr_wild_read(w->wild, e, it.cls))
		w->gotwild = e->rank;
	it.comm = comm_of(w, e->rank, comm);
	it.unhold = 0;
	if (it.cls == TR_MPI_COMMNEW || it.cls == TR_MPI_FENCE)
		win_comm(w, e, &it);
	if (it.cls == TR_MPI_LOCAL || it.cls == TR_MPI_ISEND ||
	    it.cls == TR_MPI_IRECV)
		pers_comm(w, e, &it, comm);
	if (it.cls == TR_MPI_LOCAL && tr_is_comm_free(e)) {
		if (comm == 0 || comm == 1)
			tr_in_die(w->in, "rank %lld seq %lld: %.*s of %s",
			    (long long)e->rank, (long long)e->seq,
			    (int)e->op.n, e->op.p,
			    comm ? "MPI_COMM_SELF" : "MPI_COMM_WORLD");
		/* Its id may name another communicator after this. */
		tr_itab_del(&w->rcomm, e->rank, comm);
		if (it.comm > 0)
			it.cls = FREE;
	}
	it.site = (int32_t)tr_map_get(w->sites, e->site.p, e->site.n, 1);
	it.op = it.cls == TR_MPI_COLL || it.cls == TR_MPI_COMMNEW ||
	    it.cls == TR_MPI_FENCE ? (int32_t)tr_map_get(w->ops, e->op.p,
	    e->op.n, 1) : -1;
	if (it.cls == TR_MPI_LOCAL || it.cls == TR_MPI_PROBE)
		return;
	tr_spool_add(w->spool, (long)e->rank, &it, sizeof it);
	if (e->rank + 1 > w->nranks)
		w->nranks = e->rank + 1;
	w->got = e->rank;
}

static void
take(void *ctx, const struct tr_rec *r)
{
	struct tr_waits *w = ctx;

	int coll;
	int64_t comm;

	/* A truncated receive took its message, as the replay has it. */
	if (r->type == TR_EV || (r->type == TR_FAIL && tr_fail_replayed(r,
	    tr_ev_class(&r->u.ev, &coll, &comm))))
		spool_ev(w, &r->u.ev);
	else if (r->type == TR_COMM)
		comm_rec(w, w->in, r);
	if (r->type != TR_EV || w->passev)
		tr_out_rec(w->out, r);
}

/* The section is read to its end. */
static void
end_reading(struct tr_waits *w)
{
	w->in = NULL;
	tr_spool_seal(w->spool);
	tr_wild_seal(w->wild);
}

/* Reads on in the section until a record of RANK (WILD: the source of
 * one of its wildcard receives) is spooled, or to the end (RANK < 0).
 * 0 if the section was read already. */
static int
more(struct tr_waits *w, int64_t rank, int wild)
{
	if (!w->in)
		return 0;
	w->got = w->gotwild = -1;
	if (!tr_feed(w->in, w->out, take, w, wild ? &w->gotwild : &w->got,
	    rank))
		end_reading(w);
	return 1;
}

/* more() for tr_wild_resolve: on to the completion of a wildcard. */
static int
more_wild(void *ctx, long rank)
{
	return more(ctx, rank, 1);
}

/* ---- results ---- */

static struct acc *
acc_get(struct tr_map *m, const int64_t key[3], struct acc **v, size_t *n,
    size_t *cap)
{
	long i = tr_map_get(m, (const char *)key, 3 * sizeof *key, 1);

	if ((size_t)i == *n) {
		tr_grow(v, cap, *n + 1, sizeof **v);
		memset(&(*v)[(*n)++], 0, sizeof **v);
	}
	return &(*v)[i];
}

static void
charge(struct tr_waits *w, int kind, int64_t rank, int32_t site, int64_t t,
    int64_t culprit)
{
	int64_t key[3] = {kind, rank, site};
	struct acc *a;

	if (t <= 0)
		return;
	a = acc_get(w->accs, key, &w->accv, &w->naccv, &w->capaccv);
	a->n++;
	a->time += t;
	key[1] = culprit;
	key[2] = -1;
	a = acc_get(w->blames, key, &w->blamev, &w->nblamev, &w->capblamev);
	a->n++;
	a->time += t;
}

static int64_t
clamp(int64_t t, int64_t max)
{
	return t < 0 ? 0 : t > max ? max : t;
}

/* ---- point-to-point ---- */

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
		charge(w, LATE_SENDER, p->rank, p->site, uncovered(w, p,
		    clamp(p->ppost - p->ws, p->we - p->ws)), p->partner);
	else if (p->bytes >= rdv_size(w, p->rank, p->partner))
		charge(w, LATE_RECEIVER, p->rank, p->site, uncovered(w, p,
		    clamp(p->ppost - p->ws, p->we - p->ws)), p->partner);
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
static int64_t
post(struct tr_waits *w, int64_t rank, int64_t peer, int32_t comm,
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
static void
cancel(struct tr_waits *w, int64_t i)
{
	struct pop *p = &w->pops[i];

	if (p->send || p->matched || p->cancelled)
		return;
	unqueue(w, i);
	p->cancelled = 1;
}

static void
complete(struct tr_waits *w, int64_t i, const struct item *it)
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
static void
setreq(struct tr_waits *w, int64_t rank, int64_t req, int64_t pop)
{
	*tr_itab_get(&w->reqs, rank, req, 1) = (void *)(uintptr_t)(pop + 1);
}

static int64_t
takereq(struct tr_waits *w, int64_t rank, int64_t req)
{
	void **v = tr_itab_get(&w->reqs, rank, req, 0);
	int64_t p;

	if (!v)
		return -1;
	p = (int64_t)(uintptr_t)*v - 1;
	tr_itab_del(&w->reqs, rank, req);
	return p;
}

/* ---- collectives ---- */

static void
coll_done(struct tr_waits *w, struct cinst *c)
{
	int64_t last = -1, lastrank = 0, rootstart = -1, d;
	int i, kind;

	for (i = 0; i < c->n; i++) {
		if (c->e[i].start > last) {
			last = c->e[i].start;
			lastrank = c->e[i].rank;
		}
		if (c->e[i].rank == c->root)
			rootstart = c->e[i].start;
	}
	switch (c->coll & ~TR_COLL_V) {
	case TR_COLL_BCAST:
	case TR_COLL_SCATTER:
		if (rootstart < 0)
			break;
		for (i = 0; i < c->n; i++) {
			d = c->e[i].end - c->e[i].start;
			if (c->e[i].rank != c->root)
				charge(w, LATE_BCAST, c->e[i].rank,
				    c->e[i].site, clamp(rootstart -
				    c->e[i].start, d), c->root);
		}
		break;
	case TR_COLL_REDUCE:
	case TR_COLL_GATHER:
		if (rootstart < 0)
			break;
		last = -1;
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank != c->root && c->e[i].start > last) {
				last = c->e[i].start;
				lastrank = c->e[i].rank;
			}
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank == c->root)
				charge(w, EARLY_REDUCE, c->root, c->e[i].site,
				    clamp(last - rootstart, c->e[i].end -
				    c->e[i].start), lastrank);
		break;
	case TR_COLL_NEIGHBOR:
		/* A rank waits for its neighbours only, not for all. */
		break;
	default:
		kind = c->coll == TR_COLL_BARRIER ? WAIT_BARRIER : WAIT_NXN;
		for (i = 0; i < c->n; i++)
			charge(w, kind, c->e[i].rank, c->e[i].site,
			    clamp(last - c->e[i].start, c->e[i].end -
			    c->e[i].start), lastrank);
	}
}

static void
cinst_free(struct cinst *c)
{
	free(c->e);
	free(c);
}

static void
coll(struct tr_waits *w, int64_t rank, const struct item *it)
{
	struct comm *cm;
	struct cinst *c, **pp;
	int64_t idx;
	size_t n;

	if (it->comm == SELF)
		return;
	if (it->comm < 0) {
		if (!w->warned++)
			tr_warn("collectives on communicators without a comm "
			    "record are left out");
		return;
	}
	cm = &w->commv[it->comm];
	if (it->comm == 0)
		cm->size = w->nranks;
	if (cm->size < 2)
		return;
	if ((size_t)rank >= cm->ncount) {
		n = cm->ncount;
		tr_grow(&cm->count, &n, (size_t)rank + 1, sizeof *cm->count);
		memset(cm->count + cm->ncount, 0, (n - cm->ncount) *
		    sizeof *cm->count);
		cm->ncount = n;
	}
	idx = cm->count[rank]++;
	for (pp = &cm->open; *pp && (*pp)->index != idx; pp = &(*pp)->next)
		;
	if (!(c = *pp)) {
		c = tr_calloc(1, sizeof *c);
		c->index = idx;
		c->n = (int)cm->size;
		c->coll = it->coll;
		c->op = it->op;
		c->root = it->root;
		c->e = tr_calloc((size_t)c->n, sizeof *c->e);
		*pp = c;
	}
	if (c->got < c->n) {
		c->e[c->got].rank = rank;
		c->e[c->got].start = it->start;
		c->e[c->got].end = it->end;
		c->e[c->got].site = it->site;
		c->got++;
	}
	if (c->got == c->n) {
		coll_done(w, c);
		*pp = c->next;
		cinst_free(c);
	}
}

/* A member of communicator C freed it: once all have, and its
 * collectives are complete, it is forgotten, so that a communicator
 * made every iteration takes no more memory the longer the run. */
static void
comm_freed(struct tr_waits *w, int32_t c)
{
	struct comm *cm = &w->commv[c];

	if (cm->live <= 0 || --cm->live > 0 || cm->open)
		return;
	free(cm->count);
	memset(cm, 0, sizeof *cm);
	tr_comms_drop(w->cids, c - 1);
}

/* ---- the replay ---- */

/* What post() takes of IT: SYNC for a synchronous send, 0 for a
 * buffered one, which waits for no one whatever its size, else its
 * bytes. */
static int64_t
sent(const struct item *it)
{
	if (it->cls == TR_MPI_SSEND || it->coll == TR_P2P_SYNC)
		return SYNC;
	return it->coll == TR_P2P_BUF ? 0 : it->bytes;
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
		i = post(w, rank, it->peer, it->comm, it->tag, it->start, 1,
		    sent(it));
		complete(w, i, it);
		break;
	case TR_MPI_RECV:
		if (it->peer < 0)
			break;
		i = post(w, rank, it->peer, it->comm, it->tag, it->start, 0, 0);
		complete(w, i, it);
		break;
	case TR_MPI_SENDRECV:
		if (it->peer >= 0) {
			i = post(w, rank, it->peer, it->comm, it->tag,
			    it->start, 1, it->bytes);
			complete(w, i, it);
		}
		if (it->root >= 0) {
			/* req: the tag received, -1 (any) if not recorded */
			i = post(w, rank, it->root, it->comm,
			    it->req >= 0 ? it->req : -1, it->start, 0, 0);
			complete(w, i, it);
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
		i = post(w, rank, peer, it->comm, tag, it->start,
		    it->cls == TR_MPI_ISEND, sent(it));
		setreq(w, rank, it->req, i);
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (it->req >= 0 && (i = takereq(w, rank, it->req)) >= 0)
			complete(w, i, it);
		break;
	case TR_MPI_CANCEL: {
		void **v = it->req >= 0 ? tr_itab_get(&w->reqs, rank,
		    it->req, 0) : NULL;

		if (v)
			cancel(w, (int64_t)(uintptr_t)*v - 1);
		break;
	}
	case TR_MPI_COLL:
	case TR_MPI_COMMNEW:
	case TR_MPI_FENCE:
		coll(w, rank, it);
		if (it->unhold)
			comm_freed(w, it->comm);
		break;
	case FREE:
		comm_freed(w, it->comm);
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
		if (!more(w, rank, 0))
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

/* ---- report ---- */

struct row {
	int64_t kind, rank, site;
	long sorted;		/* the site's place in byte order, or -1 */
	struct acc a;
};

static int
byrow(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->sorted > y->sorted) - (x->sorted < y->sorted);
}

/* Adds row r into the total row of its kind and rank (site -1), and of
 * its kind (rank -1), appended to rows[n..*m) if new. */
static void
total(struct row *rows, size_t n, size_t *m, const struct row *r,
    int64_t rank)
{
	size_t j;

	for (j = n; j < *m; j++)
		if (rows[j].kind == r->kind && rows[j].rank == rank &&
		    rows[j].site == -1)
			break;
	if (j == *m) {
		rows[j] = *r;
		rows[j].rank = rank;
		rows[j].site = rows[j].sorted = -1;
		rows[j].a.n = rows[j].a.time = 0;
		(*m)++;
	}
	rows[j].a.n += r->a.n;
	rows[j].a.time += r->a.time;
}

static void
out_row(struct tr_out *o, const char *what, const struct row *r)
{
	tr_out_str(o, what);
	tr_out_c(o, '\t');
	tr_out_str(o, kindname[r->kind]);
	tr_out_ti64(o, r->rank);
}

/* Rows per rank and site, plus totals per rank (site -1) and per kind
 * (rank -1), sorted. */
static void
report(struct tr_waits *w, struct tr_out *o)
{
	size_t n = tr_map_len(w->accs), m = 0, i, kn;
	size_t ns = tr_map_len(w->sites);
	struct row *rows = tr_calloc(3 * n + 1, sizeof *rows);
	long *ord = tr_map_order(w->sites);
	long *place = tr_calloc(ns + 1, sizeof *place);
	int64_t k[3];
	const char *s;

	for (i = 0; i < ns; i++)
		place[ord[i]] = (long)i;
	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(w->accs, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = k[2];
		rows[m].sorted = place[k[2]];
		rows[m++].a = w->accv[i];
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	n = m;
	for (i = 0; i < n; i++) {
		total(rows, n, &m, &rows[i], rows[i].rank);
		total(rows, n, &m, &rows[i], -1);
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		out_row(o, "wait", &rows[i]);
		tr_out_c(o, '\t');
		if (rows[i].site < 0)
			tr_out_c(o, '*');
		else {
			s = tr_map_key(w->sites, (long)rows[i].site, &kn);
			tr_out_write(o, s, kn);
		}
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	m = 0;
	n = tr_map_len(w->blames);
	for (i = 0; i < n; i++) {
		memcpy(k, tr_map_key(w->blames, (long)i, &kn), sizeof k);
		rows[m].kind = k[0];
		rows[m].rank = k[1];
		rows[m].site = rows[m].sorted = -1;
		rows[m++].a = w->blamev[i];
	}
	tr_sort(rows, m, sizeof *rows, byrow);
	for (i = 0; i < m; i++) {
		out_row(o, "blame", &rows[i]);
		tr_out_ti64(o, rows[i].a.n);
		tr_out_ti64(o, rows[i].a.time);
		tr_out_c(o, '\n');
	}
	free(place);
	free(ord);
	free(rows);
}

/* ---- collectives some rank never entered ---- */

/* Whether the header explains ranks missing from collectives: a rank's
 * recording ended early, or the section is a selection. */
static int
excused(const struct tr_in *in)
{
	return tr_meta(in, "subset") || tr_meta_nended(in);
}

/* The members list of communicator C, but the world's. */
static const char *
members_of(struct tr_waits *w, int32_t c, size_t *n)
{
	return c > 0 ? tr_comms_members(w->cids, c - 1, n) : NULL;
}

/* The members of communicator C that did not enter collective I. */
static void
absent(struct tr_waits *w, int32_t c, const struct cinst *i, char *buf,
    size_t sz)
{
	struct tr_ranklist l;
	const char *k;
	long *m = NULL, n = 0, j;
	int64_t *v;
	size_t kn, nv = 0;
	int e, in;

	if (c == 0)
		n = (long)w->nranks;
	else if ((k = members_of(w, c, &kn)) && tr_members(k, kn, &m, &n) < 0)
		n = 0;
	v = tr_calloc((size_t)n + 1, sizeof *v);
	for (j = 0; j < n; j++) {
		int64_t r = m ? m[j] : j;

		for (e = 0, in = 0; e < i->got && !in; e++)
			in = i->e[e].rank == r;
		if (!in)
			v[nv++] = r;
	}
	tr_sort(v, nv, sizeof *v, tr_cmp_i64);
	tr_ranklist_init(&l, buf, sz);
	for (kn = 0; kn < nv; kn++)
		tr_ranklist_add(&l, v[kn]);
	tr_ranklist_end(&l);
	free(v);
	free(m);
}

/* Collectives that never completed are left out of the waits: said in
 * one line, the first (by its earliest entry) named; an error when
 * nothing in the header says why some rank did not enter them. */
static void
unfinished(struct tr_waits *w, struct tr_in *in)
{
	const struct cinst *c, *first = NULL;
	int64_t count = 0, t0 = 0, t;
	int32_t fc = 0;
	int64_t made = 0;
	size_t i, kn;
	char miss[128], comm[80], msg[512];
	const char *k, *op, *file;
	long line;
	int e, why;

	for (i = 0; i < w->ncommv; i++)
		for (c = w->commv[i].open; c; c = c->next) {
			count++;
			for (e = 0, t = INT64_MAX; e < c->got; e++)
				if (c->e[e].start < t)
					t = c->e[e].start;
			if (!first || t < t0 || (t == t0 &&
			    w->commv[i].made < made)) {
				first = c;
				t0 = t;
				fc = (int32_t)i;
				made = w->commv[i].made;
			}
		}
	if (!first)
		return;
	absent(w, fc, first, miss, sizeof miss);
	if (fc == 0)
		snprintf(comm, sizeof comm, "MPI_COMM_WORLD");
	else if ((k = members_of(w, fc, &kn)) != NULL)
		snprintf(comm, sizeof comm, "the communicator of ranks %.*s",
		    (int)(kn > 40 ? 40 : kn), k);
	else
		snprintf(comm, sizeof comm, "a communicator");
	op = first->op >= 0 ? tr_map_key(w->ops, first->op, NULL) : "?";
	/* At np, as ranks without records are: the ranks are its. */
	line = tr_meta_where(in, "np", &file);
	snprintf(msg, sizeof msg, "%s:%ld: %lld collective%s never completed, "
	    "left out of the waits: the first, %s on %s, lacks rank%s %s",
	    file, line, (long long)count, count > 1 ?
	    "s" : "", op, comm, strchr(miss, ',') || strchr(miss, '-') ?
	    "s" : "", miss);
	/* The ranks that ended early were said as the section ended. */
	why = excused(in);
	if (!why)
		tr_die(TR_EXIT_DATA, "%s, and no rank's recording ended early "
		    "(#meta end.R): a trace cut short?", msg);
	tr_warn("%s", msg);
}

/* Messages whose other side never came (a receive still posted at the
 * end, a send nobody received) wait for nothing the trace holds: said
 * in one line, the first posted named, rather than left out in silence.
 * A warning: programs do end with a receive posted. */
static void
unmatched(struct tr_waits *w, struct tr_in *in)
{
	const struct pop *p, *first = NULL;
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
		}
	}
	if (!first)
		return;
	line = tr_meta_where(in, "np", &file);
	tr_warn("%s:%ld: %lld point-to-point message%s never matched, left "
	    "out of the waits: the first, rank %lld's %s rank %lld (tag "
	    "%lld) posted at %lld ns", file, line, (long long)count,
	    count > 1 ? "s" : "", (long long)first->rank, first->send ?
	    "send to" : "receive from", (long long)first->partner,
	    (long long)first->tag, (long long)first->post);
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
			cinst_free(c);
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
	newcomm(w, 0, 0);
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
		take(w, rec);
	else
		end_reading(w);
	/* The ranks must be known before the first is replayed. */
	if (tr_meta_i64(in, "np", &np) == 0 && np > 0) {
		if (np > w->nranks)
			w->nranks = np;
	} else
		while (more(w, -1, 0))
			;
	replay(w);
	while (more(w, -1, 0))
		;
	unfinished(w, in);
	unmatched(w, in);
	report(w, out);
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
