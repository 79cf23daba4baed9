/* nsim-int.h - tr-nsim's engine internals shared by the files of lib/sim. */
#ifndef TR_NSIM_INT_H
#define TR_NSIM_INT_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* A record as the engine sees it: its numbers, then its line without
 * the times the simulation replaces (npre bytes before them, nsuf
 * after). The spool holds it packed (nsim_item_next), a rank the one it
 * replays, decoded, its line still in the spool. */
struct item {
	int64_t seq, dt, dur, peer, bytes, tag, comm, req, root;
	const char *txt;	/* the line's npre + nsuf bytes */
	uint32_t npre, nsuf;
	uint8_t type, cls;	/* enum tr_type, TR_MPI_* */
	int16_t coll;		/* tr_mpi_class's second result */
	uint32_t line;		/* in its file, for errors; 0 past 2^32 */
};

#define ITEM_PRE(it) ((it)->txt)
#define ITEM_SUF(it) (ITEM_PRE(it) + (it)->npre)

/* A record of a completion group, kept until the group ends: only what
 * its output needs, since every rank may hold one at once. */
struct gline {
	uint32_t npre, nsuf;
	uint32_t lineno;	/* item_line's */
	char line[];		/* before, then after the times */
};

/* Ranks fit 30 bits (struct hent's id). With many ranks every touch of
 * a request is a cache miss: what matching (matches()), completing and
 * waiting read fills its first 64 bytes, the rest its second line, and
 * requests are carved 64-byte aligned from slabs (nsim_req_slab), so
 * that most touches cost one miss, not two or three. */
struct sreq {
	struct sreq *next;
	long gid;
	int64_t tag;
	double tmatch, tdone;
	int32_t src, owner;
	int refs;
	int bg;			/* 1 + the background collective it is of */
	/* flags in bytes: a rank may have many requests in flight, and a
	 * smaller request misses the cache less */
	unsigned char send, rdv, coll, done, arrived, waited, started;
	unsigned char sync;	/* a synchronous send: done once received */
	/* the second line */
	struct sreq *match;
	int32_t dst;
	uint32_t cutid;		/* CUT_FOUND: 1 + its message in s->cuts */
	int64_t bytes, seq;
	double tsent;		/* a send: when it left */
	int64_t back;		/* one-sided: the bytes of the reply */
	unsigned char rma;	/* one-sided: 1 going to the target, 2 back */
	unsigned char cut;	/* a receive smaller than its message: CUT_* */
};

#define REQ_LINE 64
#define REQ_STRIDE \
	((sizeof(struct sreq) + REQ_LINE - 1) & ~(size_t)(REQ_LINE - 1))
#define REQ_SLAB 512		/* requests a slab */
_Static_assert(offsetof(struct sreq, match) == REQ_LINE,
    "the first line of a request is what matching and waiting read");

/* A receive may be smaller than the message it matches (MPI_ERR_TRUNCATE
 * in the run) only if its call failed: a blocking one's is known when it
 * is posted, a request's when the call that completes it is replayed,
 * which may come after the match. */
enum {
	CUT_NO,			/* an error: its call did not fail */
	CUT_FAILED,		/* its call failed: it takes the message */
	CUT_LATER,		/* a request not completed yet */
	CUT_FOUND		/* one that matched a larger message */
};

/* The larger message a request matched, for the error if its
 * completion did not fail. */
struct cut {
	long src;
	int64_t seq, bytes, tag;
};

/* What events and solves read comes first, in one cache line. Every
 * rank may have several flows at once: the links of a route of up to
 * FLOW_NL (a 3-level fat tree's longest) are kept in the flow, 32 bits
 * each, a longer route's in arrays of its own. */
#define FLOW_NL 6
struct flow {
	/* what sharing reads of every flow on a link, together */
	long mark, bl;		/* region epoch, bottleneck */
	double rate;
	double lv;		/* its level, rate / iw */
	int32_t *xl;		/* links, if allocated (else lbuf) */
	float iw;		/* sharing weight: 1, or 1 / route latency */
	int nl;
	uint8_t fixed;
	uint8_t own;		/* its last link is its own (a copy's rate) */
	uint32_t ver;
	int32_t lbuf[FLOW_NL];
	int *xp, pbuf[FLOW_NL];	/* index in each link's flow list */
	struct sreq *s;
	long chk;		/* check epoch */
	double rem, old, tlast;
};

#define FL(f) ((f)->xl ? (f)->xl : (f)->lbuf)
#define FP(f) ((f)->xp ? (f)->xp : (f)->pbuf)

struct link {
	double cap, bytes, busy, since;
	double sum, max;	/* its flows' rates summed, highest level */
	long *fl, mark, chk;	/* ... as of check epoch chk */
	int nfl, flcap;
	int ci;			/* while filling: its index in s->cl */
	int nob;		/* of its flows outside R, those whose
				 * bottleneck is in R (as of the last fill) */
	double omax;		/* their highest level */
};

/* A link of R while filling, kept apart from the links and in R's
 * order so that each pass scans a small dense array. */
struct fillink {
	double rs;		/* capacity the fixed flows leave */
	double wun;		/* the unfixed flows' weights, summed */
	double sh;		/* what rs gives each unit weight */
	int nun;		/* its unfixed flows */
	int pos;		/* its index in s->fka this pass */
	long pass;		/* the pass that listed it in s->fkc */
};

struct hent {
	uint64_t k;		/* the time, as an integer of the same order */
	unsigned id : 30;	/* a rank, flow or collective */
	unsigned kind : 2;
	uint32_t ver;
};

struct bucket {
	struct hent *e;
	size_t n, cap;
	uint64_t min;		/* the least time in it, but in bucket 0 */
};
#define NBUCKET 65		/* 0, and one per bit of a time */

enum { EV_WAKE, EV_LAT, EV_DONE, EV_BG };
enum { PH_FETCH, PH_START, PH_COLL, PH_FENCE, PH_FINISH };

struct comm {
	long n, *mem;
	long gid, idx;		/* idx: in cids */
	long live;		/* its members yet to free it, and its
				 * collectives going on in the background */
};

/* A rank's communicator id. One the rank freed names the next made
 * with it, read before the replay is done with the first: each is
 * kept, in order (next), until its free is replayed. */
struct rcomm {
	long gid;
	int64_t cseq;
	int *grid;		/* dims, then periods */
	struct rcomm *next;
	int32_t me;
	int16_t nd;		/* a Cartesian grid, from its cart record */
	int16_t freed;		/* its MPI_Comm_free is read */
	/* Windows made on it and not yet freed in the replay: a window
	 * keeps its group (MPI 4.1, 12.2.1), so that a communicator freed
	 * before them (OpenCoarrays frees its own before its windows) is
	 * kept for their fences and frees, out of its id's list. */
	int32_t wins;
	int16_t zombie;		/* freed in the replay, kept for them */
	/* The persistent requests made with its id and not yet freed,
	 * the last made on it (it is in rpers): MPI_Start may use it
	 * after MPI_Comm_free (MPI 4.1, 6.4.3), so that it is kept until
	 * their MPI_Request_free (traces of earlier recorders have none:
	 * the end of the section), or another is made with the id. */
	int32_t pers;
};

/* An item's coll for an MPI_Comm_free whose communicator is known, for
 * a call that makes a persistent request (tr_is_pers_init), and for
 * one that frees it */
#define COLL_FREE (-1)
#define COLL_PERS (-2)
#define COLL_UNPERS (-3)

/* A nonblocking collective, progressing on its own: its rank goes on,
 * and waits for REQ only where it waits for the request. */
struct bgcoll {
	struct tr_coll coll;
	struct sreq *req;	/* done when the schedule is */
	struct sreq **q;	/* the step in flight */
	int nq, qcap, npend;
	long owner, gid;
	long next;		/* 1 + the next in the free or deferred list */
	int64_t ctag, seq;
	double tready, tmatch;
	double red;		/* reducing what the step in flight receives */
};

/* A collective instance while its ranks arrive. One that makes a window
 * or communicator (or frees a window) is kept until each rank has added
 * its cost, the least duration any of its ranks recorded. */
struct collchk {
	int op, make;
	long root, count, rank, took;
	int64_t seq, min;
};

struct rank {
	const struct item *it;	/* cur, once the rank has begun */
	struct item cur;
	struct rcomm *lastc;	/* the communicator of the last call */
	int64_t lastcid;
	struct sreq *pend[2];	/* what the rank waits for; more in xpend */
	struct sreq *rma;	/* its one-sided transfers not yet awaited */
	long bgdef;		/* 1 + its first collective awaiting a call */
	struct sreq *rdvdef;	/* rendezvous sends to it awaiting a call */
	struct sreq *ackdef;	/* synchronous sends it received, unmatched */
	int held;		/* in a call, copying what it fetched */
	int late;		/* its call started first: it ends at t */
	double thold;		/* when that call began */
	long nrma, rmasweep;	/* their number; when to drop complete ones */
	struct sreq **xpend;
	int xpendcap;
	struct tr_coll coll;
	long gid, node;
	int phase, npend, npr, incoll, done, ingroup;
	double red;		/* reducing what its collective's step receives */
	struct sreq *probe;	/* what a blocking probe waits for: made at
				 * the rank's first, as few ranks probe */
	int inprobe;		/* 1: for a send, 2: for its envelope */
	double t, tstart, tblock, tready, tmatch;
	double compute, comm, wait, inject;
	int64_t events, gseq, ctag;
	int64_t lastseq;	/* of its last ev record, if hasseq */
	int hasseq;
	double gstart;
	char *gbuf;		/* lines of a completion group, struct gline
				 * after struct gline, each 4-byte aligned */
	size_t glen, gcap;
};

struct tr_nsim {
	struct tr_net *net;
	double scale;
	int wall, built;
	int pollwork;		/* tests that find nothing keep their time */
	struct tr_spool *sp;
	struct tr_wild *wild;	/* sources of MPI_ANY_SOURCE receives */
	int64_t *prev_end;	/* recorded, per rank, for wall gaps */
	size_t prevcap;
	long np;

	struct tr_comms *cids;
	struct tr_itab gcomm;	/* (gid, 0) -> struct comm */
	struct comm **byidx;	/* per index in cids */
	size_t nbyidx;
	long ngid;		/* communicators made in the section */
	struct tr_itab rc;		/* (rank, id) -> struct rcomm */
	struct tr_itab rwin;	/* (rank, window) -> struct rcomm */
	struct tr_itab rpers;	/* (rank, id) -> struct rcomm, pers */
	struct tr_itab reqs;	/* (rank, req) -> struct sreq */
	struct tr_itab colls;	/* (gid, cseq) -> struct collchk */

	struct rank *r;
	struct sreq **posted, **unexp;	/* per destination rank */
	struct sreq *freereq;
	void *reqslab;		/* the slabs, each linked by its first line */
	size_t reqleft;		/* requests the newest one has not given */
	struct cut *cuts;
	size_t ncut, cutcap;
	struct flow *fl;
	long nfl, flcap, *flfree, nflfree, flfreecap;
	struct link *ln;
	/* ln: the network's links, then with node-bandwidth a memory link
	 * per node, then links each bounding one copy within a node to its
	 * own rate (free ones listed in lnfree) */
	long nln, lncap, nodeln, *lnfree;
	size_t nlnfree, lnfreecap;
	long *route;
	struct bucket bk[NBUCKET];	/* the event queue */
	size_t head0;		/* bucket 0's next event */
	uint64_t bmask;		/* bit b - 1: bucket b > 0 holds events */
	uint64_t last;		/* the time of the last event popped */
	size_t nev;		/* events queued */
	double now;
	long epoch, cepoch;
	long *cl, *cf, *dl, *vf;
	size_t clcap, cfcap, dlcap, ndl, ncl, ncf, vfcap;
	struct fillink *fk;	/* fill()'s, by index in cl */
	int *fka;		/* ... those with unfixed flows */
	int *fkc;		/* ... those a pass may saturate */
	size_t fkcap, fkacap, fkccap;
	int fullshare;		/* re-solve whole components (checking) */
	int stats;
	int64_t nsolve, nsolved, ngrow, nfull, nmsg, npop, nstale;
	double tread;		/* cpu seconds at the first record */
	double tin;		/* cpu seconds reading while simulating */
	struct tr_in *in;	/* the section, while it is read */
	struct tr_out *out;
	int64_t got;		/* rank of the ev or reg record last taken */
	int64_t nseen;		/* ranks with an ev or reg record read */
	long calling;		/* the rank whose MPI call is replayed */
	int64_t gotwild;	/* rank whose wildcard receive it resolved */
	struct sreq done_req;	/* stands for requests of collectives */
	struct sreq io_req;	/* and for those of nonblocking file I/O */
	struct tr_p2p *cops;	/* a collective's step */
	size_t copscap;
	struct bgcoll *bg;	/* nonblocking collectives */
	long nbg, bgcap, bgfree, bglive;
	int64_t nevents;
	int64_t maxbytes;	/* of any ev: bounds what a receive may get */
	int64_t nrma;		/* one-sided transfers tr-to-ti left out */
	int64_t nicoll;		/* nonblocking collectives it made blocking */
	int64_t ncancel;	/* and receives it could not cancel */
	int64_t nfail;		/* and fail records */
	struct tr_itab tiopen;	/* (rank, req) -> 1 + seq of its Irecv */
	struct tr_itab ticut;	/* (rank, seq): an Irecv whose completion failed */
	int for_ti;		/* counting channels for tr_ti_export */
	struct tr_itab chans;	/* (src, dst << 32 | tag) -> struct chan */
	struct tr_itab makes;	/* (rank, comm) -> struct tmake */
	struct tr_itab makemin;	/* (gid, k) -> the k-th one's cost */
	int64_t tieager;	/* the export's one eager threshold */
	const char *file;	/* of the section's first record */
	const struct tr_in *src;	/* its input, for its metadata */
	/* Items hold a line counted over all the input's files, which
	 * are read one after the other: the files, each with the count
	 * before its first line. */
	struct lfile { const char *name; int64_t base; } *lf;
	size_t nlf, lfcap;
	const char *lfname;	/* the last one's */
	int64_t lmax;
};

/* ---- nsim-read.c: the section, spooled as the replay needs it ---- */

/* What the replay finds wrong, at record IT's file and line (IT NULL:
 * the section's file), or at LINE as items keep it. */
_Noreturn void __attribute__((format(printf, 3, 4)))
nsim_item_die(const struct tr_nsim *s, const struct item *it,
    const char *fmt, ...);
_Noreturn void __attribute__((format(printf, 3, 4)))
nsim_line_die(const struct tr_nsim *s, int64_t line, const char *fmt, ...);
double nsim_cpu_seconds(void);
void nsim_begin(struct tr_nsim *s, const struct tr_in *in);
void nsim_take(void *ctx, const struct tr_rec *rec);
int nsim_pull(struct tr_nsim *s, long r, int wild);
int nsim_pull_wild(void *ctx, long r);
int nsim_item_op(const struct item *it, const char *name, int prefix);
/* Rank R's next item out of the spool, into *IT; 0 if there is none
 * spooled. Its line stays valid until the next call for R. */
int nsim_item_next(struct tr_nsim *s, long r, struct item *it);

/* ---- ti-read.c: what the export notes of the records as they are read ---- */

void ti_chan_send(struct tr_nsim *s, int64_t r, const struct item *it);
int ti_chan_recv(struct tr_nsim *s, long src, long dst, int64_t tag);
void ti_note(struct tr_nsim *s, int64_t r, const struct item *it);
void ti_make_add(struct tr_nsim *s, int64_t r, const struct item *it);
void ti_make_mins(struct tr_nsim *s);
double ti_make_cost(struct tr_nsim *s, long r, const struct item *it,
    long gid);
void ti_read_free(struct tr_nsim *s);

/* ---- the event queue, inline: every event passes through it ---- */

/* Simulated time never goes back: no event is pushed before the last
 * one popped. A radix heap (Ahuja et al.) uses that. Bucket b > 0 holds
 * the events whose time differs from the last popped one first in bit
 * b - 1, bucket 0 those at that time. Popping takes bucket 0's first
 * event or, when it is empty, moves the lowest bucket's events down
 * around its least time; an event moves down at most 64 times, and a
 * push is an append. Events of one time always share a bucket and keep
 * their order in every move, so they pop in push order and a run is
 * reproducible. Times are compared as integers: the bits of a double,
 * sign-folded, order as the double does. */
static inline uint64_t
tkey(double t)
{
	uint64_t u;

	t += 0.0;		/* -0 is 0 */
	memcpy(&u, &t, sizeof u);
	return u & (uint64_t)1 << 63 ? ~u : u | (uint64_t)1 << 63;
}

static inline double
ktime(uint64_t k)
{
	double t;

	k = k & (uint64_t)1 << 63 ? k & ~((uint64_t)1 << 63) : ~k;
	memcpy(&t, &k, sizeof t);
	return t;
}

static inline int
kbucket(uint64_t k, uint64_t last)
{
	return k == last ? 0 : 64 - __builtin_clzll(k ^ last);
}

static inline void
bucket_add(struct tr_nsim *s, int b, struct hent e)
{
	struct bucket *q = &s->bk[b];

	tr_grow(&q->e, &q->cap, q->n + 1, sizeof *q->e);
	q->e[q->n++] = e;
	if (b > 0) {
		s->bmask |= (uint64_t)1 << (b - 1);
		if (e.k < q->min)
			q->min = e.k;
	}
}

static inline void
push(struct tr_nsim *s, double t, unsigned kind, long id, uint32_t ver)
{
	struct hent e = {tkey(t), (unsigned)id, kind, ver};

	/* an event in the past is due now: time must not go back */
	if (e.k < s->last)
		e.k = s->last;
	bucket_add(s, kbucket(e.k, s->last), e);
	s->nev++;
}

/* The time of the next event; 0 if there is none. */
static inline int
next_time(const struct tr_nsim *s, double *t)
{
	if (s->bk[0].n > s->head0)
		*t = ktime(s->last);
	else if (s->bmask)
		*t = ktime(s->bk[__builtin_ctzll(s->bmask) + 1].min);
	else
		return 0;
	return 1;
}

/* The next event, in *e; 0 if there is none. */
static inline int
pop(struct tr_nsim *s, struct hent *e)
{
	struct bucket *z = &s->bk[0], *q;
	size_t i;
	int b;

	if (z->n == s->head0) {
		if (!s->bmask)
			return 0;
		z->n = s->head0 = 0;
		b = __builtin_ctzll(s->bmask) + 1;
		q = &s->bk[b];
		s->last = q->min;
		s->bmask &= ~((uint64_t)1 << (b - 1));
		q->min = UINT64_MAX;
		for (i = 0; i < q->n; i++)
			bucket_add(s, kbucket(q->e[i].k, s->last), q->e[i]);
		q->n = 0;
	}
	*e = z->e[s->head0++];
	s->nev--;
	return 1;
}

static inline void
evq_clear(struct tr_nsim *s)
{
	int b;

	for (b = 0; b < NBUCKET; b++) {
		s->bk[b].n = 0;
		s->bk[b].min = UINT64_MAX;
	}
	s->head0 = 0;
	s->bmask = 0;
	s->last = tkey(0);
	s->nev = 0;
}

/* ---- nsim-flow.c: flows and their share of the links ---- */

void nsim_reshare(struct tr_nsim *s, const long *seed, size_t nseed);
void nsim_flow_start(struct tr_nsim *s, struct sreq *q, double t);
void nsim_flow_enter(struct tr_nsim *s, long id);
/* Flow ID has moved its bytes: it leaves its links; its request. */
struct sreq *nsim_flow_done(struct tr_nsim *s, long id);

static inline void
settle(struct tr_nsim *s)
{
	size_t n = s->ndl;

	if (!n)
		return;
	s->ndl = 0;
	nsim_reshare(s, s->dl, n);
}

/* ---- nsim-req.c: requests and message matching ---- */

void nsim_req_complete(struct tr_nsim *s, struct sreq *q, double t);
void nsim_sync_ack(struct tr_nsim *s, struct sreq *q, double t);
void nsim_deliver(struct tr_nsim *s, struct sreq *q);
double nsim_held_copy(const struct tr_nsim *s, long r, const struct sreq *q);
double nsim_inject(struct tr_nsim *s, long r);
void nsim_probe_found(struct tr_nsim *s, const struct sreq *q);
void nsim_cancel(struct tr_nsim *s, struct sreq *q);
struct sreq *nsim_mk_req(struct tr_nsim *s, long r, int send, long peer,
    int64_t bytes, int64_t tag, long gid, int coll, int sync, int64_t seq,
    int cut);
int nsim_user_req(struct tr_nsim *s, long r, const struct item *it,
    struct sreq *q);
struct sreq *nsim_req_slab(struct tr_nsim *s);
void nsim_req_slabs_free(struct tr_nsim *s);

static inline struct sreq *
req_new(struct tr_nsim *s)
{
	struct sreq *q = s->freereq;

	if (q)
		s->freereq = q->next;
	else
		q = nsim_req_slab(s);
	memset(q, 0, sizeof *q);
	q->refs = 1;
	return q;
}

static inline void
req_unref(struct tr_nsim *s, struct sreq *q)
{
	if (q == &s->done_req || q == &s->io_req)
		return;
	if (--q->refs == 0) {
		q->next = s->freereq;
		s->freereq = q;
	}
}

/* Whether rank R's MPI library runs now: always with `progress
 * background`; else only inside a call (the one replayed, one it is
 * blocked in, or the end: MPI_Finalize). Without a progress thread, Open
 * MPI and MPICH match messages and move nonblocking collectives to their
 * next round only when the program calls MPI. */
static inline int
in_mpi(const struct tr_nsim *s, long r)
{
	return s->net->progress == TR_PROGRESS_BACKGROUND || s->calling == r ||
	    s->r[r].npr > 0 || s->r[r].inprobe || s->r[r].done ||
	    s->r[r].held;
}

static inline int
matches(const struct sreq *recv, const struct sreq *send)
{
	return recv->gid == send->gid && recv->coll == send->coll &&
	    (recv->src < 0 || recv->src == send->src) &&
	    (recv->tag < 0 || recv->tag == send->tag);
}

/* Q is awaited by whoever keeps TREADY (the time all it awaits is done)
 * and NPEND (how many are not): a rank, or a nonblocking collective. */
static inline void
expect(struct sreq *q, double *tready, int *npend)
{
	if (q->done) {
		if (q->tdone > *tready)
			*tready = q->tdone;
	} else {
		q->waited = 1;
		++*npend;
	}
}

static inline void
await(struct tr_nsim *s, struct rank *rk, struct sreq *q)
{
	(void)s;
	if (rk->npr < 2)
		rk->pend[rk->npr] = q;
	else {
		size_t cap = (size_t)rk->xpendcap;

		tr_grow(&rk->xpend, &cap, (size_t)rk->npr - 1,
		    sizeof *rk->xpend);
		rk->xpendcap = (int)cap;
		rk->xpend[rk->npr - 2] = q;
	}
	rk->npr++;
	expect(q, &rk->tready, &rk->npend);
}

/* ---- nsim-comm.c: what the ranks' communicator ids name ---- */

void nsim_comm_unref(struct tr_nsim *s, long gid);
int nsim_win_coll(const struct item *it);
struct rcomm *nsim_rank_comm(struct tr_nsim *s, long r, int64_t id,
    const struct item *it);
long nsim_coll_root(struct tr_nsim *s, long gid, int64_t root);
void nsim_rank_freed(struct tr_nsim *s, long r, const struct item *it);
void nsim_rank_pers(struct tr_nsim *s, long r, const struct item *it);
void nsim_rank_unpers(struct tr_nsim *s, long r, const struct item *it);
void nsim_rank_win(struct tr_nsim *s, long r, const struct item *it,
    int made);

static inline struct comm *
comm_get(struct tr_nsim *s, long gid)
{
	return *tr_itab_get(&s->gcomm, gid, 0, 0);
}

static inline long
comm_size(struct tr_nsim *s, long gid)
{
	return gid == 0 ? s->np : gid == 1 ? 1 : comm_get(s, gid)->n;
}

static inline long
coll_peer(struct tr_nsim *s, long gid, long r, long p)
{
	if (gid == 0)
		return p;
	if (gid == 1)
		return r;
	return comm_get(s, gid)->mem[p];
}

/* ---- nsim-coll.c: collectives, blocking and in the background ---- */

double nsim_make_cost(struct tr_nsim *s, long gid, int64_t cseq);
double nsim_red_time(const struct tr_nsim *s, const struct tr_p2p *o, int n);
int nsim_coll_step(struct tr_nsim *s, long r);
int64_t nsim_coll_block(const struct item *it, long n, long me, long root);
void nsim_coll_setup(struct tr_nsim *s, struct tr_coll *co, long r,
    const struct item *it, const struct rcomm *c);
int nsim_gridless(struct tr_nsim *s, long r, const struct item *it);
void nsim_coll_start(struct tr_nsim *s, long r, const struct item *it);
void nsim_bg_step(struct tr_nsim *s, long id);
void nsim_bg_start(struct tr_nsim *s, long r, const struct item *it);

/* ---- nsim-rma.c: one-sided transfers ---- */

double nsim_rma_start(struct tr_nsim *s, long r, const struct item *it);
void nsim_rma_await(struct tr_nsim *s, long r, const struct item *it,
    int64_t target);

/* ---- nsim-rank.c: the ranks' replay of their calls ---- */

void nsim_wake_rank(struct tr_nsim *s, long r);

/* The time a buffered send takes to copy BYTES into the buffer the
 * program attached: a copy within a node. */
static inline double
buf_copy(const struct tr_net *n, int64_t bytes)
{
	return n->intra_bw > 0 && bytes > 0 ? (double)bytes / n->intra_bw : 0;
}

/* llround() for the times of a replay, which are not negative (and
 * below 4e18 ns: out_line). */
static inline int64_t
nsround(double t)
{
	int64_t i = (int64_t)t;

	return t >= 0 ? i + (t - (double)i >= 0.5) : (int64_t)llround(t);
}

/* A test or probe that found nothing: waiting, or a polling loop's
 * overhead (tr-record merges those loops into one record). By default it
 * takes no time, so that a loop that only polls ends when its message
 * comes, whatever it waited for in the recording; the work between its
 * polls stays, as the computation before the record. Where the loop
 * does work at each turn and its polls are part of the cost (hpcc's
 * RandomAccess: 40 % of a loop's time is in MPI_Testany), -P keeps
 * their recorded time. */
static inline int
found_nothing(const struct item *it)
{
	return (it->cls == TR_MPI_TEST && it->req < 0) ||
	    (it->cls == TR_MPI_LOCAL && it->coll == TR_LOCAL_PROGRESS &&
	    it->peer < 0);
}

/* Its time in the replay. */
static inline double
poll_time(const struct tr_nsim *s, const struct item *it)
{
	return s->pollwork ? (double)it->dur : 0;
}

/* ---- nsim-deadlock.c: the report of a replay that cannot go on ---- */

void nsim_deadlock(struct tr_nsim *s);

/* ---- nsim.c: the engine ---- */

/* Frees what the section held, for the next. */
void nsim_reset(struct tr_nsim *s);

/* ---- ti-platform.c: the platform of a SimGrid export ---- */

FILE *ti_fopen(const char *dir, const char *name);
void ti_fclose(FILE *f, const char *what);
int64_t ti_eager(const struct tr_nsim *s, int *lost);
void ti_platform(struct tr_nsim *s, const char *dir);

#endif
