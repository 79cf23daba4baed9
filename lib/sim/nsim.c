/* nsim.c - trace-driven simulation of an MPI run on a modelled network.
 *
 * Records are spooled per rank (spool.c) and replayed by a discrete-event
 * engine: ranks compute and call MPI, messages are matched as MPI
 * matches them, and transfers are flows that share link bandwidth
 * max-min fairly (as SimGrid does), after a latency phase in which they
 * use no bandwidth. When the section tells its number of ranks (#meta
 * np) the trace is read as the replay needs it: a rank that has used up
 * its records has the input read until its next one, so the spool holds
 * only the records read ahead of the replay, not the trace. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libtr.h"

/* ---- spooled records ---- */

/* A record as the engine sees it, spooled as it is and read in place:
 * its numbers, then its line without the times the simulation replaces
 * (npre bytes before them, nsuf after). The spool keeps items 8-byte
 * aligned. */
struct item {
	int64_t seq, dt, dur, peer, bytes, tag, comm, req, root;
	uint32_t npre, nsuf;
	uint8_t type, cls;	/* enum tr_type, TR_MPI_* */
	int16_t coll;		/* tr_mpi_class's second result */
	uint32_t line;		/* in its file, for errors; 0 past 2^32 */
};

#define ITEM_PRE(it) ((const char *)((it) + 1))
#define ITEM_SUF(it) (ITEM_PRE(it) + (it)->npre)

/* ---- the engine's objects ---- */

/* A record of a completion group, kept until the group ends: only what
 * its output needs, since every rank may hold one at once. */
struct gline {
	uint32_t npre, nsuf;
	uint32_t lineno;	/* item_line's */
	char line[];		/* before, then after the times */
};

struct sreq {
	struct sreq *next, *match;
	long owner, src, dst, gid;
	int64_t tag, bytes, seq;
	double tmatch, tdone;
	double tsent;		/* a send: when it left */
	int64_t back;		/* one-sided: the bytes of the reply */
	int refs;
	int bg;			/* 1 + the background collective it is of */
	/* flags in bytes: a rank may have many requests in flight, and a
	 * smaller request misses the cache less */
	unsigned char send, rdv, coll, done, arrived, waited, started;
	unsigned char sync;	/* a synchronous send: done once received */
	unsigned char rma;	/* one-sided: 1 going to the target, 2 back */
	unsigned char cut;	/* a receive smaller than its message: CUT_* */
	uint32_t cutid;		/* CUT_FOUND: 1 + its message in s->cuts */
};

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

/* What events and solves read comes first, in one cache line. */
struct flow {
	struct sreq *s;
	uint32_t ver;
	int nl;
	long mark, chk, bl;	/* region epoch, check epoch, bottleneck */
	double rem, rate, old, tlast;
	int fixed;
	int own;		/* its last link is its own (a copy's rate) */
	float iw;		/* sharing weight: 1, or 1 / route latency */
	int *xp, pbuf[8];	/* index in each link's flow list */
	long *xl, lbuf[8];	/* links: xl if allocated, else lbuf */
};

#define FL(f) ((f)->xl ? (f)->xl : (f)->lbuf)
#define FP(f) ((f)->xp ? (f)->xp : (f)->pbuf)

struct link {
	double cap, rs, bytes, busy, since;
	double wun;		/* the unfixed flows' weights, summed */
	long *fl, mark;
	int nfl, flcap, nun;
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
	const struct item *it;	/* in the spool, once the rank has begun */
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
	struct sreq probe;	/* what a blocking probe waits for */
	int inprobe;		/* 1: for a send, 2: for its envelope */
	double t, tstart, tblock, tready, tmatch;
	double compute, comm, wait, inject;
	int64_t events, gseq, ctag;
	int64_t lastseq;	/* of its last ev record, if hasseq */
	int hasseq;
	double gstart;
	char *gbuf;		/* lines of a completion group, NUL-separated */
	size_t glen, gcap;
	uint32_t *goff;
	size_t ngoff, goffcap;
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
	long *cl, *cf, *dl, *vf, *cl2;
	size_t clcap, cfcap, dlcap, ndl, ncl, ncf, vfcap, cl2cap;
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
	int for_ti;		/* counting channels for tr_nsim_ti */
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

/* The line of a record being read, as items keep it. */
static uint32_t
item_line(struct tr_nsim *s, const struct tr_in *in)
{
	const char *f = tr_in_file(in);
	int64_t l;

	if (f != s->lfname) {
		tr_grow(&s->lf, &s->lfcap, s->nlf + 1, sizeof *s->lf);
		s->lf[s->nlf].name = s->lfname = f;
		s->lf[s->nlf++].base = s->lmax;
	}
	l = tr_in_line(in) + s->lf[s->nlf - 1].base;
	if (l > s->lmax)
		s->lmax = l;
	return l <= UINT32_MAX ? (uint32_t)l : 0;
}

/* What the replay finds wrong names the input, as a reader's errors do:
 * record IT's file and line (the line is long read by then), or the
 * section's file when no one record is at fault (IT NULL). A recording
 * that left calls out explains a replay that stops, so that is said
 * first. */
static _Noreturn void
vline_die(const struct tr_nsim *s, int64_t l, const char *fmt, va_list ap)
{
	const char *f = s->file ? s->file : "stdin";
	size_t i = s->nlf;

	while (l > 0 && i > 0 && s->lf[i - 1].base >= l)
		i--;
	if (l > 0 && i > 0) {
		f = s->lf[i - 1].name;
		l -= s->lf[i - 1].base;
	}
	if (s->src)
		tr_meta_unrecorded(s->src);
	tr_vdie_at(f, (long)l, fmt, ap);
}

static _Noreturn void __attribute__((format(printf, 3, 4)))
item_die(const struct tr_nsim *s, const struct item *it, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_die(s, it ? it->line : 0, fmt, ap);
}

/* The same at LINE (item_line's), for what no longer has its item. */
static _Noreturn void __attribute__((format(printf, 3, 4)))
line_die(const struct tr_nsim *s, int64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_die(s, line, fmt, ap);
}

static void evq_clear(struct tr_nsim *s);

struct tr_nsim *
tr_nsim_new(struct tr_net *net, double scale, int wall)
{
	struct tr_nsim *s = tr_calloc(1, sizeof *s);

	s->net = net;
	s->scale = scale;
	s->wall = wall;
	s->cids = tr_comms_new();
	s->done_req.done = 1;
	s->done_req.refs = 1 << 30;
	s->io_req = s->done_req;
	s->bgfree = -1;
	s->calling = -1;
	s->fullshare = getenv("TR_NSIM_FULLSHARE") != NULL;
	evq_clear(s);
	return s;
}

/* ---- reading ---- */

static double
cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
tr_nsim_pollwork(struct tr_nsim *s, int on)
{
	s->pollwork = on;
}

void
tr_nsim_for_ti(struct tr_nsim *s)
{
	s->for_ti = 1;
}

/* The messages from one rank to another with one tag, as SimGrid's
 * replay matches them (it has no communicators): how many were sent and
 * received, and which of the sends were synchronous, by number. */
struct chan {
	int64_t nsend, nrecv;
	struct { int64_t n, bytes; } *sy;
	size_t head, len, cap;
};

static struct chan *
chan(struct tr_nsim *s, int64_t src, int64_t dst, int64_t tag, int add)
{
	void **v = tr_itab_get(&s->chans, src, (int64_t)((uint64_t)dst << 32 |
	    (uint32_t)tag), add);

	if (!v)
		return NULL;
	if (!*v)
		*v = tr_calloc(1, sizeof(struct chan));
	return *v;
}

static void
chans_free(struct tr_nsim *s)
{
	size_t i;

	for (i = 0; i < s->chans.cap; i++)
		if (s->chans.s[i].v) {
			free(((struct chan *)s->chans.s[i].v)->sy);
			free(s->chans.s[i].v);
		}
	tr_itab_free(&s->chans);
	memset(&s->chans, 0, sizeof s->chans);
}

/* Counts send IT of rank R on its channel. */
static void
chan_send(struct tr_nsim *s, int64_t r, const struct item *it)
{
	struct chan *c;

	if (it->cls != TR_MPI_SEND && it->cls != TR_MPI_SSEND &&
	    it->cls != TR_MPI_ISEND && it->cls != TR_MPI_SENDRECV)
		return;
	if (it->peer < 0)
		return;
	c = chan(s, r, it->peer, it->tag, 1);
	if (it->cls == TR_MPI_SSEND || (it->cls == TR_MPI_ISEND &&
	    it->coll == TR_P2P_SYNC)) {
		tr_grow(&c->sy, &c->cap, c->len + 1, sizeof *c->sy);
		c->sy[c->len].n = c->nsend;
		c->sy[c->len++].bytes = it->bytes;
	}
	c->nsend++;
}

/* Whether the next receive from SRC to DST with TAG takes a synchronous
 * send that SimGrid sends eagerly, which the export acknowledges. */
static int
chan_recv(struct tr_nsim *s, long src, long dst, int64_t tag)
{
	struct chan *c = chan(s, src, dst, tag, 0);
	int64_t k;

	if (!c)
		return 0;
	k = c->nrecv++;
	if (c->head == c->len || c->sy[c->head].n != k)
		return 0;
	return c->sy[c->head++].bytes < s->tieager;
}

/* For the export: a request whose completion failed took a message
 * larger than its receive (MPI_ERR_TRUNCATE), which SMPI's replay
 * refuses; the Irecv of each is noted, to be given room for any. */
static void
ti_note(struct tr_nsim *s, int64_t r, const struct item *it)
{
	void **v;

	s->nfail += it->type == TR_FAIL;
	if (it->req < 0 || it->type == TR_REG)
		return;
	if (it->cls == TR_MPI_IRECV)
		*tr_itab_get(&s->tiopen, r, it->req, 1) =
		    (void *)(intptr_t)(it->seq + 1);
	else if (!(v = tr_itab_get(&s->tiopen, r, it->req, 0)))
		return;
	else if (it->cls == TR_MPI_WAIT || it->cls == TR_MPI_TEST) {
		if (it->type == TR_FAIL)
			*tr_itab_get(&s->ticut, r, (intptr_t)*v - 1, 1) = s;
		tr_itab_del(&s->tiopen, r, it->req);
	} else	/* its id taken by another request */
		tr_itab_del(&s->tiopen, r, it->req);
}

/* The calls of one rank that make a window or communicator (or free a
 * window) on one of its communicators, in order: their durations, for
 * the least over the ranks of each (tr-to-ti writes a rank's file
 * before it reads the next), and how many the export has written. */
struct tmake {
	int64_t *dur;
	size_t n, cap, next;
};

static void
make_add(struct tr_nsim *s, int64_t r, const struct item *it)
{
	void **v = tr_itab_get(&s->makes, r, it->comm, 1);
	struct tmake *m;

	if (!*v)
		*v = tr_calloc(1, sizeof(struct tmake));
	m = *v;
	tr_grow(&m->dur, &m->cap, m->n + 1, sizeof *m->dur);
	m->dur[m->n++] = it->dur;
}

static void
makes_free(struct tr_nsim *s)
{
	size_t i;

	for (i = 0; i < s->makes.cap; i++)
		if (s->makes.s[i].v) {
			free(((struct tmake *)s->makes.s[i].v)->dur);
			free(s->makes.s[i].v);
		}
	tr_itab_free(&s->makes);
	memset(&s->makes, 0, sizeof s->makes);
	for (i = 0; i < s->makemin.cap; i++)
		free(s->makemin.s[i].v);
	tr_itab_free(&s->makemin);
	memset(&s->makemin, 0, sizeof s->makemin);
}

void
tr_nsim_stats(struct tr_nsim *s, int on)
{
	s->stats = on;
}

/* The communicator of a comm record of RANK listing F, N members MEM
 * (taken). Gids count the communicators made in the section, from 2
 * (0 world, 1 self), never given out again. */
static long
add_comm(struct tr_nsim *s, int64_t rank, const struct tr_field *f, long n,
    long *mem)
{
	int made;
	long i = tr_comms_get(s->cids, rank, f, &made);
	struct comm *cm;

	if (!made) {
		free(mem);
		return s->byidx[i]->gid;
	}
	cm = tr_malloc(sizeof *cm);
	cm->n = cm->live = n;
	cm->mem = mem;
	cm->idx = i;
	cm->gid = 2 + s->ngid++;
	tr_growz(&s->byidx, &s->nbyidx, (size_t)i + 1, sizeof *s->byidx);
	s->byidx[i] = cm;
	*tr_itab_get(&s->gcomm, cm->gid, 0, 1) = cm;
	return cm->gid;
}

static struct comm *
comm_get(struct tr_nsim *s, long gid)
{
	return *tr_itab_get(&s->gcomm, gid, 0, 0);
}

/* One of GID's members freed it, or one of its collectives ended: once
 * nothing needs it, it is forgotten, so that a communicator made every
 * iteration takes no more memory the longer the run. */
static void
comm_unref(struct tr_nsim *s, long gid)
{
	struct comm *cm;

	if (gid < 2 || --(cm = comm_get(s, gid))->live > 0)
		return;
	tr_itab_del(&s->gcomm, gid, 0);
	tr_comms_drop(s->cids, cm->idx);
	s->byidx[cm->idx] = NULL;
	free(cm->mem);
	free(cm);
}

/* The newest communicator rank R's id ID names as read. */
static struct rcomm *
rcomm_last(struct tr_nsim *s, int64_t r, int64_t id, int add)
{
	void **v = tr_itab_get(&s->rc, r, id, add);
	struct rcomm *c;

	if (!v)
		return NULL;
	if (!*v) {
		*v = tr_calloc(1, sizeof(struct rcomm));
		((struct rcomm *)*v)->gid = -1;	/* until its comm record */
	}
	for (c = *v; c->next; c = c->next)
		;
	if (add && c->freed) {
		c = c->next = tr_calloc(1, sizeof *c);
		c->gid = -1;	/* until its comm record */
	}
	return c;
}

static void
read_comm(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank = tr_get_i64(in, r, 1), id = tr_get_i64(in, r, 2);
	int64_t size = tr_get_i64(in, r, 3);
	struct tr_field f = r->f[4];
	long *mem, n, i, me = -1;
	struct rcomm *rc;

	if (tr_members(f.p, f.n, &mem, &n) < 0 || n != size)
		tr_in_die(in, "comm: bad members '%.*s'", (int)(f.n > 60 ? 60 :
		    f.n), f.p);
	for (i = 0; i < n; i++)
		if (mem[i] == rank)
			me = i;
	if (me < 0)
		tr_in_die(in, "comm: rank %lld is not among the members",
		    (long long)rank);
	rc = rcomm_last(s, rank, id, 1);
	rc->gid = add_comm(s, rank, &f, n, mem);
	rc->me = (int32_t)me;
}

/* A cart record: the grid of a communicator, for its neighborhood
 * collectives. */
static void
read_cart(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int dims[TR_CART_MAXD], per[TR_CART_MAXD], nd;
	struct rcomm *rc;
	char err[128];

	if (tr_cart_read(r, TR_CART_MAXD, &nd, dims, per, err, sizeof err))
		tr_in_die(in, "cart: %s", err);
	rc = rcomm_last(s, tr_get_i64(in, r, 1), tr_get_i64(in, r, 2), 1);
	free(rc->grid);
	rc->grid = tr_malloc(2 * (size_t)nd * sizeof *rc->grid);
	memcpy(rc->grid, dims, (size_t)nd * sizeof *dims);
	memcpy(rc->grid + nd, per, (size_t)nd * sizeof *per);
	rc->nd = (int16_t)nd;
}

int
tr_nsim_takes(int type)
{
	return type == TR_EV || type == TR_REG || type == TR_COMM ||
	    type == TR_CART || type == TR_FAIL;
}

/* An MPI_Comm_free or MPI_Comm_disconnect: its id may name another
 * communicator after it. 1 if the replay is to forget the communicator. */
static int
read_free(struct tr_nsim *s, const struct tr_in *in, const struct tr_ev *e)
{
	struct rcomm *c;

	if (e->comm == 0 || e->comm == 1)
		tr_in_die(in, "rank %lld seq %lld: %.*s of %s",
		    (long long)e->rank, (long long)e->seq, (int)e->op.n,
		    e->op.p, e->comm ? "MPI_COMM_SELF" : "MPI_COMM_WORLD");
	if (s->for_ti)	/* the export reads the section first */
		return 0;
	c = rcomm_last(s, e->rank, e->comm, 0);
	if (!c || c->gid < 0 || c->freed)
		return 0;
	c->freed = 1;
	return 1;
}

static int
is_init_fini(struct tr_field op)
{
	return (op.n == 8 && memcmp(op.p, "MPI_Init", 8) == 0) ||
	    (op.n == 15 && memcmp(op.p, "MPI_Init_thread", 15) == 0) ||
	    (op.n == 12 && memcmp(op.p, "MPI_Finalize", 12) == 0);
}

static void
begin(struct tr_nsim *s, const struct tr_in *in)
{
	s->file = tr_in_file(in);
	s->src = in;
	s->sp = tr_spool_new((size_t)4 << 20);
	s->wild = tr_wild_new();
	s->tread = cpu_seconds();
}

void
tr_nsim_add(struct tr_nsim *s, const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank, t0, t1, cpu, gap;
	int coll = 0, cls = TR_MPI_LOCAL;
	const struct tr_field *fa, *fb;
	size_t i;

	if (r->type == TR_COMM) {
		read_comm(s, in, r);
		return;
	}
	if (r->type == TR_CART) {
		read_cart(s, in, r);
		return;
	}
	if (!s->sp)
		begin(s, in);
	if (r->type == TR_EV || r->type == TR_FAIL) {
		rank = r->u.ev.rank;
		t0 = r->u.ev.start;
		t1 = r->u.ev.end;
		cpu = r->u.ev.cpu;
		fa = &r->f[TR_EV_START];
		fb = &r->f[TR_EV_END];
	} else {
		rank = r->u.reg.rank;
		t0 = t1 = r->u.reg.time;
		cpu = r->u.reg.cpu;
		fa = fb = &r->f[TR_REG_TIME];
	}
	if ((size_t)rank >= s->prevcap) {
		size_t old = s->prevcap;
		tr_grow(&s->prev_end, &s->prevcap, (size_t)rank + 1,
		    sizeof *s->prev_end);
		for (i = old; i < s->prevcap; i++)
			s->prev_end[i] = -1;
	}
	if (s->prev_end[rank] < 0)
		s->nseen++;
	gap = s->prev_end[rank] < 0 ? 0 : t0 - s->prev_end[rank];
	s->prev_end[rank] = t1;
	if (rank >= s->np)
		s->np = rank + 1;
	{
		size_t pre = (size_t)(fa->p - r->line), post = (size_t)(fb->p +
		    fb->n - r->line), suf = r->len - post;
		struct item *it = tr_spool_reserve(s->sp, (long)rank,
		    sizeof *it + pre + suf);
		char *p = (char *)(it + 1);

		memset(it, 0, sizeof *it);
		it->dt = s->wall || cpu < 0 ? (gap > 0 ? gap : 0) : cpu;
		if (r->type == TR_EV || r->type == TR_FAIL) {
			const struct tr_ev *e = &r->u.ev;
			it->seq = e->seq;
			it->dur = e->end - e->start;
			it->peer = e->peer;
			it->bytes = e->bytes;
			if (e->bytes > s->maxbytes)
				s->maxbytes = e->bytes;
			it->tag = e->tag;
			it->req = e->req;
			it->root = e->root;
			cls = tr_ev_class(e, &coll, &it->comm);
			if (r->type == TR_FAIL && !tr_fail_replayed(r, cls)) {
				cls = TR_MPI_LOCAL;
				coll = 0;
			}
			if (tr_wild_read(s->wild, e, cls))
				s->gotwild = rank;
			/* Start-up and shut-down of the recorded run (processes
			 * spawned, oversubscribed, libraries loaded before
			 * MPI_Init: the CPU burst of its record) say nothing of
			 * the target; wall-clock gaps start at the first record
			 * too. */
			if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_comm_free(e))
				coll = read_free(s, in, e) ? COLL_FREE : coll;
			else if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_pers_init(e))
				coll = COLL_PERS;
			else if (r->type == TR_EV && cls == TR_MPI_LOCAL &&
			    tr_is_req_free(e))
				coll = COLL_UNPERS;
			if (cls == TR_MPI_LOCAL && is_init_fini(e->op)) {
				it->dur = 0;
				if (e->op.p[4] == 'I')
					it->dt = 0;
			}
		} else {
			it->seq = r->u.reg.seq;
			/* the recorder's flush: no computation to replay */
			if (r->u.reg.leave && tr_reg_flush(&r->u.reg))
				it->dt = 0;
		}
		it->type = (uint8_t)r->type;
		it->cls = (uint8_t)cls;
		it->coll = (int16_t)coll;
		it->npre = (uint32_t)pre;
		it->nsuf = (uint32_t)suf;
		it->line = item_line(s, in);
		memcpy(p, r->line, pre);
		memcpy(p + pre, r->line + post, suf);
		if (s->for_ti && it->type == TR_EV)
			chan_send(s, rank, it);
		if (s->for_ti)
			ti_note(s, rank, it);
		if (s->for_ti && it->cls == TR_MPI_COMMNEW)
			make_add(s, rank, it);
	}
	s->got = rank;
}

/* The section is read to its end. */
static void
end_reading(struct tr_nsim *s)
{
	s->in = NULL;
	if (!s->sp)
		return;
	tr_spool_seal(s->sp);
	tr_wild_seal(s->wild);
	free(s->prev_end);
	s->prev_end = NULL;
	s->prevcap = 0;
}

/* A record read while simulating: simulated, or passed through. */
static void
take(void *ctx, const struct tr_rec *rec)
{
	struct tr_nsim *s = ctx;

	if (tr_nsim_takes(rec->type))
		tr_nsim_add(s, s->in, rec);
	if (rec->type != TR_EV && rec->type != TR_REG && rec->type != TR_FAIL)
		tr_out_rec(s->out, rec);
}

/* Reads on in the section until a record of rank R (WILD 1: the source
 * of one of its wildcard receives; 2: until R ranks have records) is
 * spooled, or to the end (R < 0); records not simulated are passed
 * through. 0 if the section was read already. */
static int
pull(struct tr_nsim *s, long r, int wild)
{
	double t0;

	if (!s->in)
		return 0;
	t0 = s->stats ? cpu_seconds() : 0;
	s->got = s->gotwild = -1;
	if (!tr_feed(s->in, s->out, take, s, wild == 2 ? &s->nseen : wild ?
	    &s->gotwild : &s->got, r))
		end_reading(s);
	if (s->stats)
		s->tin += cpu_seconds() - t0;
	return 1;
}

/* pull() for tr_wild_resolve: on to the completion of a wildcard. */
static int
pull_wild(void *ctx, long r)
{
	return pull(ctx, r, 1);
}

/* ---- the event queue ---- */

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

static void
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
static int
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

static void
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

/* ---- requests and matching ---- */

static struct sreq *
req_new(struct tr_nsim *s)
{
	struct sreq *q = s->freereq;

	if (q)
		s->freereq = q->next;
	else
		q = tr_malloc(sizeof *q);
	memset(q, 0, sizeof *q);
	q->refs = 1;
	return q;
}

static void
req_unref(struct tr_nsim *s, struct sreq *q)
{
	if (q == &s->done_req || q == &s->io_req)
		return;
	if (--q->refs == 0) {
		q->next = s->freereq;
		s->freereq = q;
	}
}

static void run_rank(struct tr_nsim *s, long r);

static void
req_complete(struct tr_nsim *s, struct sreq *q, double t)
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

static void
link_busy(struct tr_nsim *s, struct link *l, int delta)
{
	if (delta > 0 && l->nfl == 0)
		l->since = s->now;
	if (delta < 0 && l->nfl == 1)
		l->busy += s->now - l->since;
}

/*
 * Max-min fair sharing, solved locally.
 *
 * Each flow f has a weight w(f): 1 with `sharing fair`, and with
 * `sharing latency` (the default) 1 / its route's latency, as SimGrid's
 * CM02 model does (TCP's bias against long round trips; on a crossbar
 * every route has one latency and the two agree). A flow's level is
 * rate / w(f). The allocation is the unique feasible one in which every
 * flow has a bottleneck: a saturated link on which no flow has a higher
 * level. After flows
 * enter or leave, only a region R of flows is re-solved (progressive
 * filling over R's links, with the rates of the other flows on them
 * held fixed). The result is then checked at R's border: every flow of
 * R must be the largest on the link that fixed it, and every outside
 * flow on R's links must still have a bottleneck. Violators join R and
 * R is solved again; when none is left the rates are the exact max-min
 * allocation, the same as re-solving the whole connected component. In
 * a lockstep stencil R stays a few dozen flows where the component
 * holds every flow in flight. Remaining bytes are brought up to date
 * lazily, only for flows whose rate is re-solved.
 */
#define SHARE_EPS 1e-9
#define SHARE_ROUNDS 16	/* then the whole component is solved */

static void
comp_add(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	long e = s->epoch;
	int k;

	if (f->mark == e)
		return;
	f->mark = e;
	f->rem -= f->rate * (s->now - f->tlast);
	if (f->rem < 0)
		f->rem = 0;
	f->tlast = s->now;
	f->old = f->rate;
	tr_grow(&s->cf, &s->cfcap, s->ncf + 1, sizeof *s->cf);
	s->cf[s->ncf++] = id;
	for (k = 0; k < f->nl; k++) {
		struct link *m = &s->ln[FL(f)[k]];
		if (m->mark == e)
			continue;
		m->mark = e;
		tr_grow(&s->cl, &s->clcap, s->ncl + 1, sizeof *s->cl);
		s->cl[s->ncl++] = FL(f)[k];
	}
}

/* Progressive filling of the flows of R over their links; the other
 * flows on those links keep their rates and the capacity they use. */
static void
fill(struct tr_nsim *s)
{
	long e = s->epoch;
	size_t i, ncl = s->ncl;
	int j, k;

	for (i = 0; i < s->ncf; i++)
		s->fl[s->cf[i]].fixed = 0;
	for (i = 0; i < ncl; i++) {
		struct link *l = &s->ln[s->cl[i]];
		l->rs = l->cap;
		l->nun = 0;
		l->wun = 0;
		for (j = 0; j < l->nfl; j++) {
			struct flow *f = &s->fl[l->fl[j]];
			if (f->mark == e) {
				l->nun++;
				l->wun += f->iw;
			} else
				l->rs -= f->rate;
		}
	}
	for (;;) {
		struct link *best = NULL;
		double bs = 0, sh, lim;
		size_t w = 0;

		/* Links whose flows are all fixed drop out of the scan. */
		for (i = 0; i < ncl; i++) {
			struct link *l = &s->ln[s->cl[i]];
			if (l->nun <= 0)
				continue;
			s->cl[w++] = s->cl[i];
			sh = (l->rs > 0 ? l->rs : 0) / l->wun;
			if (!best || sh < bs) {
				best = l;
				bs = sh;
			}
		}
		ncl = w;
		if (!best)
			break;
		/* Every link at the lowest level saturates at once: fixing them
		 * in one pass keeps symmetric loads to a few passes. */
		lim = bs * (1 + 1e-12);
		for (i = 0; i < ncl; i++) {
			struct link *l = &s->ln[s->cl[i]];
			if (l->nun <= 0 || (l->rs > 0 ? l->rs : 0) / l->wun > lim)
				continue;
			for (j = 0; j < l->nfl; j++) {
				struct flow *f = &s->fl[l->fl[j]];
				if (f->fixed || f->mark != e)
					continue;
				f->fixed = 1;
				f->rate = bs * f->iw;
				f->bl = s->cl[i];
				for (k = 0; k < f->nl; k++) {
					struct link *m = &s->ln[FL(f)[k]];
					m->rs -= f->rate;
					m->wun -= f->iw;
					m->nun--;
				}
			}
		}
	}
}

/* Whether flow f (outside R) still has a bottleneck. */
static int
has_bottleneck(struct tr_nsim *s, const struct flow *f)
{
	int k, j;

	for (k = 0; k < f->nl; k++) {
		const struct link *l = &s->ln[FL(f)[k]];
		double sum = 0, max = 0;
		for (j = 0; j < l->nfl; j++) {
			const struct flow *g = &s->fl[l->fl[j]];
			sum += g->rate;
			if (g->rate / g->iw > max)
				max = g->rate / g->iw;
		}
		if (sum >= l->cap * (1 - SHARE_EPS) &&
		    f->rate / f->iw >= max * (1 - SHARE_EPS))
			return 1;
	}
	return 0;
}

/* The outside flows that break the optimality of R's solution, added to
 * the list s->vf; their count. */
static size_t
violators(struct tr_nsim *s)
{
	long e = s->epoch, c = ++s->cepoch;
	size_t i, nv = 0;
	int j;

	for (i = 0; i < s->ncf; i++) {
		struct flow *f = &s->fl[s->cf[i]];
		struct link *l = &s->ln[f->bl];
		for (j = 0; j < l->nfl; j++) {
			struct flow *g = &s->fl[l->fl[j]];
			if (g->mark == e || g->chk == c || g->rate / g->iw <=
			    f->rate / f->iw * (1 + SHARE_EPS))
				continue;
			g->chk = c;
			tr_grow(&s->vf, &s->vfcap, nv + 1, sizeof *s->vf);
			s->vf[nv++] = l->fl[j];
		}
	}
	for (i = 0; i < s->ncl; i++) {
		struct link *l = &s->ln[s->cl[i]];
		for (j = 0; j < l->nfl; j++) {
			struct flow *g = &s->fl[l->fl[j]];
			if (g->mark == e || g->chk == c)
				continue;
			g->chk = c;
			if (has_bottleneck(s, g))
				continue;
			tr_grow(&s->vf, &s->vfcap, nv + 1, sizeof *s->vf);
			s->vf[nv++] = l->fl[j];
		}
	}
	return nv;
}

static void
reshare(struct tr_nsim *s, const long *seed, size_t nseed)
{
	size_t i, nv;
	int j, round;

	s->epoch++;
	s->ncf = s->ncl = 0;
	for (i = 0; i < nseed; i++) {
		struct link *l = &s->ln[seed[i]];
		for (j = 0; j < l->nfl; j++)
			comp_add(s, l->fl[j]);
	}
	for (round = 0;; round++) {
		/* fill() compacts s->cl; the violator scan needs all of R's
		 * links, and so does the next round. */
		size_t ncl = s->ncl;
		tr_grow(&s->cl2, &s->cl2cap, ncl, sizeof *s->cl2);
		memcpy(s->cl2, s->cl, ncl * sizeof *s->cl);
		if (s->fullshare || round == SHARE_ROUNDS) {
			s->nfull++;
			/* The whole component: every flow on R's links. */
			for (i = 0; i < s->ncl; i++) {
				struct link *l = &s->ln[s->cl[i]];
				for (j = 0; j < l->nfl; j++)
					comp_add(s, l->fl[j]);
			}
			fill(s);
			break;
		}
		fill(s);
		memcpy(s->cl, s->cl2, ncl * sizeof *s->cl);
		if ((nv = violators(s)) == 0)
			break;
		s->ngrow++;
		for (i = 0; i < nv; i++)
			comp_add(s, s->vf[i]);
	}
	for (i = 0; i < s->ncf; i++) {
		struct flow *f = &s->fl[s->cf[i]];
		if (f->rate == f->old)
			continue;
		f->ver++;
		push(s, f->rate > 0 ? s->now + f->rem / f->rate : INFINITY,
		    EV_DONE, s->cf[i], f->ver);
	}
	s->nsolve++;
	s->nsolved += (int64_t)s->ncf;
}

/* Flows that start or end at one instant are reshared once, together. */
static void
dirty(struct tr_nsim *s, const long *l, int n)
{
	int i;

	tr_grow(&s->dl, &s->dlcap, s->ndl + (size_t)n, sizeof *s->dl);
	for (i = 0; i < n; i++)
		s->dl[s->ndl++] = l[i];
}

static void
settle(struct tr_nsim *s)
{
	size_t n = s->ndl;

	if (!n)
		return;
	s->ndl = 0;
	reshare(s, s->dl, n);
}

static void flow_start(struct tr_nsim *s, struct sreq *q, double t);

/* Whether rank R's MPI library runs now: always with `progress
 * background`; else only inside a call (the one replayed, one it is
 * blocked in, or the end: MPI_Finalize). Without a progress thread, Open
 * MPI and MPICH match messages and move nonblocking collectives to their
 * next round only when the program calls MPI. */
static int
in_mpi(const struct tr_nsim *s, long r)
{
	return s->net->progress == TR_PROGRESS_BACKGROUND || s->calling == r ||
	    s->r[r].npr > 0 || s->r[r].inprobe || s->r[r].done ||
	    s->r[r].held;
}

/* The time a buffered send takes to copy BYTES into the buffer the
 * program attached: a copy within a node. */
static double
buf_copy(const struct tr_net *n, int64_t bytes)
{
	return n->intra_bw > 0 && bytes > 0 ? (double)bytes / n->intra_bw : 0;
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
static void
sync_ack(struct tr_nsim *s, struct sreq *q, double t)
{
	req_complete(s, q, t + route_lat(s, q->dst, q->src) + s->net->o);
}

/* Receive RCV of send SND is complete at T. A synchronous send below the
 * eager limit goes with its data, as in Open MPI's ob1 and MPICH: the
 * receiver acknowledges the message once it has matched it, and the send
 * is done when that comes back. */
static void
received(struct tr_nsim *s, struct sreq *snd, struct sreq *rcv, double t)
{
	struct rank *rk = &s->r[snd->dst];

	req_complete(s, rcv, t);
	if (!snd->sync || snd->done)
		return;
	if (in_mpi(s, snd->dst))
		sync_ack(s, snd, t);
	else {
		snd->refs++;
		snd->next = rk->ackdef;
		rk->ackdef = snd;
	}
}

static void
deliver(struct tr_nsim *s, struct sreq *q)
{
	struct sreq *r = q->match;

	if (q->rma == 1) {	/* at the target: the reply comes back */
		long a = q->src;

		q->rma = 2;
		q->src = q->dst;
		q->dst = a;
		q->bytes = q->back;
		flow_start(s, q, s->now);
		req_unref(s, q);
		return;
	}
	q->arrived = 1;
	if (q->rdv && !q->done)
		req_complete(s, q, s->now);
	if (r) {
		r->match = NULL;
		q->match = NULL;
		received(s, q, r, s->now + s->net->o);
	}
	req_unref(s, q);	/* the transfer's reference */
}

/* A flow for Q, its version kept so that old events of the slot stay
 * stale. */
static long
flow_new(struct tr_nsim *s, struct sreq *q)
{
	int fresh = s->nflfree == 0;
	long id = fresh ? s->nfl++ : s->flfree[--s->nflfree];
	struct flow *f;

	if (id >= s->flcap) {
		size_t c = (size_t)s->flcap;
		if (id >= 1L << 30)	/* an event names it in 30 bits */
			tr_die(TR_EXIT_SYS, "more than 2^30 messages in flight");
		tr_grow(&s->fl, &c, (size_t)id + 1, sizeof *s->fl);
		s->flcap = (long)c;
	}
	f = &s->fl[id];
	if (fresh)
		f->ver = 0;
	/* Field by field, not a memset: the links' arrays are left as they
	 * are, and an 8-slot flow is three cache lines. */
	f->s = q;
	f->nl = 0;
	f->mark = f->chk = f->bl = 0;
	f->rem = f->rate = f->old = f->tlast = 0;
	f->fixed = 0;
	f->own = 0;
	f->iw = 1;
	f->xp = NULL;
	f->xl = NULL;
	return id;
}

/* A link of capacity CAP for one flow alone: a free one, or a new one
 * past the others. */
static long
link_own(struct tr_nsim *s, double cap)
{
	long id;
	struct link *l;

	if (s->nlnfree)
		id = s->lnfree[--s->nlnfree];
	else {
		size_t c = (size_t)s->lncap;

		id = s->nln++;
		tr_grow(&s->ln, &c, (size_t)s->nln, sizeof *s->ln);
		s->lncap = (long)c;
		memset(&s->ln[id], 0, sizeof *s->ln);
	}
	l = &s->ln[id];
	l->cap = cap;
	l->bytes = l->busy = l->since = l->rs = l->wun = 0;
	l->mark = -1;
	l->nfl = l->nun = 0;
	return id;
}

/* With node-bandwidth, flow ID, a message within node A that alone
 * takes D (more than intra-latency) from T, is a flow through the
 * node's memory link, which the node's copies in flight share, and
 * through a link of its own that bounds it to the rate it has alone:
 * after intra-latency it moves its bytes at bytes / (D - intra-latency),
 * less when the node's copies together would pass node-bandwidth. A
 * core copies at a rate one copy cannot raise; the memory behind it is
 * what two cores' copies contend for. */
static void
node_copy(struct tr_nsim *s, long id, long a, double t, double d)
{
	const struct tr_net *n = s->net;
	struct flow *f = &s->fl[id];
	double lat = n->intra_lat;

	f->rem = (double)f->s->bytes;
	FL(f)[0] = s->nodeln + a;
	FL(f)[1] = link_own(s, f->rem / (d - lat));
	f->nl = 2;
	f->own = 1;
	if (n->sharing == TR_SHARE_LATENCY)
		f->iw = (float)(1 / (lat > 1 ? lat : 1));
	push(s, t + lat, EV_LAT, id, f->ver);
}

static void
flow_start(struct tr_nsim *s, struct sreq *q, double t)
{
	struct tr_net *n = s->net;
	long a = s->r[q->src].node, b = s->r[q->dst].node, id;
	double lat;
	struct flow *f;
	int nl, i;

	q->started = 1;
	q->refs++;
	s->nmsg++;
	if (n->model == TR_MODEL_LOGGP || a == b) {
		double d = n->model == TR_MODEL_LOGGP ?
		    n->L + (double)q->bytes * n->G :
		    tr_net_intra(n, q->bytes);
		id = flow_new(s, q);
		if (n->model == TR_MODEL_FLOW && n->node_bw > 0 &&
		    q->bytes > 0 && d > n->intra_lat) {
			node_copy(s, id, a, t, d);
			return;
		}
		push(s, t + d, EV_DONE, id, s->fl[id].ver);
		return;
	}
	nl = tr_net_route(n, a, b, s->route, &lat);
	id = flow_new(s, q);
	f = &s->fl[id];
	if (nl > 8) {
		f->xl = tr_malloc((size_t)nl * sizeof(long));
		f->xp = tr_malloc((size_t)nl * sizeof(int));
	}
	f->nl = nl;
	for (i = 0; i < nl; i++)
		FL(f)[i] = s->route[i];
	/* A route of no latency weighs as one of 1 ns. */
	if (n->sharing == TR_SHARE_LATENCY)
		f->iw = (float)(1 / (lat > 1 ? lat : 1));
	f->rem = (double)q->bytes;
	if (q->bytes == 0)
		f->nl = 0;	/* latency only: it never enters the links */
	push(s, t + lat, q->bytes > 0 ? EV_LAT : EV_DONE, id, f->ver);
}

static void
flow_free(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];

	free(f->xl);
	free(f->xp);
	f->xl = NULL;
	f->xp = NULL;
	f->s = NULL;
	f->nl = 0;
	f->ver++;
	tr_grow(&s->flfree, (size_t *)&s->flfreecap, (size_t)s->nflfree + 1,
	    sizeof *s->flfree);
	s->flfree[s->nflfree++] = id;
}

static void
flow_enter(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	int i;

	f->tlast = s->now;
	f->rate = 0;
	for (i = 0; i < f->nl; i++) {
		struct link *l = &s->ln[FL(f)[i]];
		link_busy(s, l, 1);
		if (l->nfl == l->flcap) {
			l->flcap = l->flcap ? 2 * l->flcap : 4;
			l->fl = tr_realloc(l->fl, (size_t)l->flcap * sizeof *l->fl);
		}
		FP(f)[i] = l->nfl;
		l->fl[l->nfl++] = id;
		l->bytes += f->rem;
	}
	dirty(s, FL(f), f->nl);
}

static void
flow_done(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	struct sreq *q = f->s;
	int i;

	for (i = 0; i < f->nl; i++) {
		struct link *l = &s->ln[FL(f)[i]];
		long last;
		int p = FP(f)[i], k;

		link_busy(s, l, -1);
		last = l->fl[--l->nfl];
		if (last != id) {
			struct flow *g = &s->fl[last];
			l->fl[p] = last;
			for (k = 0; k < g->nl; k++)
				if (FL(g)[k] == FL(f)[i] && FP(g)[k] == l->nfl)
					FP(g)[k] = p;
		}
	}
	if (f->nl)
		dirty(s, FL(f), f->nl);
	if (f->own) {
		tr_grow(&s->lnfree, &s->lnfreecap, s->nlnfree + 1,
		    sizeof *s->lnfree);
		s->lnfree[s->nlnfree++] = FL(f)[f->nl - 1];
	}
	flow_free(s, id);
	deliver(s, q);
}

static int
matches(const struct sreq *recv, const struct sreq *send)
{
	return recv->gid == send->gid && recv->coll == send->coll &&
	    (recv->src < 0 || recv->src == send->src) &&
	    (recv->tag < 0 || recv->tag == send->tag);
}

/* The time rank R's CPU copies rendezvous send Q in its call, or 0:
 * within a node, a library without a progress thread fetches the
 * message itself (Open MPI's single copy through CMA or XPMEM, MPICH's
 * LMT), so a call that is not blocked lasts until the copy ends. */
static double
held_copy(const struct tr_nsim *s, long r, const struct sreq *q)
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
		item_die(s, it, "rank %ld seq %lld: a receive of %lld bytes "
		    "matches a message of %lld bytes from rank %ld seq %lld "
		    "(tag %lld): it would be truncated", rcv->owner,
		    (long long)rcv->seq, (long long)rcv->bytes,
		    (long long)snd->bytes, snd->owner, (long long)snd->seq,
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
	    held_copy(s, snd->dst, snd) > 0)) {
		snd->refs++;
		snd->next = s->r[snd->dst].rdvdef;
		s->r[snd->dst].rdvdef = snd;
		return;
	}
	flow_start(s, snd, s->now);
}

/* Whether call IT, entered with messages to copy, posts its own first:
 * Open MPI's ob1 and MPICH start a blocking send (its envelope, or its
 * data if eager) or receive, then run the progress engine that copies
 * what came for the rank, so that its message leaves before those
 * copies, and a peer blocked in a send of its own copies it meanwhile.
 * Calls that only complete requests post nothing; a collective posts
 * its first round when the copies are done. */
static int
posts_first(const struct item *it)
{
	return it->cls == TR_MPI_SEND || it->cls == TR_MPI_SSEND ||
	    it->cls == TR_MPI_RECV || it->cls == TR_MPI_SENDRECV;
}

/* Whether call IT runs the library's progress engine: one that waits,
 * tests or probes, or a blocking one; not one that only starts
 * something (MPI_Isend, MPI_Irecv, MPI_Start, MPI_Ibcast, ...) or a
 * local one (MPI_Comm_rank). */
static int
progresses(const struct item *it)
{
	switch (it->cls) {
	case TR_MPI_ISEND:
	case TR_MPI_IRECV:
	case TR_MPI_ICOLL:
	case TR_MPI_RMA:
	case TR_MPI_IFILE:
	case TR_MPI_CANCEL:
		return 0;
	case TR_MPI_LOCAL:
		return it->coll == TR_LOCAL_PROGRESS;
	}
	return 1;
}

/* When rank R's next message leaves: after the overhead o, and the gap
 * g after its last one. */
static double
inject(struct tr_nsim *s, long r)
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
static void
probe_found(struct tr_nsim *s, const struct sreq *q)
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
	double t = inject(s, q->src);

	q->tsent = t;
	q->rdv = q->rdv || q->bytes >= (s->r[q->src].node ==
	    s->r[q->dst].node ? s->net->intra_eager : s->net->eager);
	if (!q->rdv) {
		q->done = !q->sync;
		q->tdone = t;
		flow_start(s, q, t);
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
	if (s->r[q->dst].inprobe == 1 && matches(&s->r[q->dst].probe, q))
		probe_found(s, q);
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
static void
cancel(struct tr_nsim *s, struct sreq *q)
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
			req_complete(s, q, s->now);
			return;
		}
}

/* ---- ranks ---- */

/* llround() for the times of a replay, which are not negative (and
 * below 4e18 ns: out_line). */
static inline int64_t
nsround(double t)
{
	int64_t i = (int64_t)t;

	return t >= 0 ? i + (t - (double)i >= 0.5) : (int64_t)llround(t);
}

static void
out_line(const struct tr_nsim *s, struct tr_out *o, int64_t line,
    const char *pre, uint32_t npre, const char *suf, uint32_t nsuf, int two,
    double t0, double t1)
{
	char *p;

	/* A network slow enough (1 B/s), or recorded times near 2^63,
	 * make times no integer holds. */
	if (!(t0 < 4e18 && t1 < 4e18))
		line_die(s, line, "simulated time %.3g ns out of range (at "
		    "most 4e18 ns)", t0 > t1 ? t0 : t1);
	p = tr_out_room(o, (size_t)npre + nsuf + 64);
	memcpy(p, pre, npre);
	p = tr_fmt_i64(p + npre, nsround(t0));
	if (two) {
		*p++ = '\t';
		p = tr_fmt_i64(p, nsround(t1));
	}
	memcpy(p, suf, nsuf);
	p[nsuf] = '\n';
	tr_out_put(o, p + nsuf + 1);
}

static void
group_flush(struct tr_nsim *s, struct rank *rk, struct tr_out *o)
{
	size_t i;

	for (i = 0; i < rk->ngoff; i++) {
		const struct gline *g = (const void *)(rk->gbuf + rk->goff[i]);
		out_line(s, o, g->lineno, g->line, g->npre, g->line + g->npre,
		    g->nsuf, 1, rk->gstart, rk->t);
	}
	rk->ngoff = 0;
	rk->glen = 0;
	rk->ingroup = 0;
}

/* IT's op (the fourth field of its line) is NAME, or starts with it
 * if PREFIX. */
static int
item_op(const struct item *it, const char *name, int prefix)
{
	const char *p = ITEM_PRE(it);
	size_t l = 0, n = strlen(name);
	int f = 0;

	while (f < 3 && l < it->npre)
		if (p[l++] == '\t')
			f++;
	return it->npre - l >= n + !prefix && memcmp(p + l, name, n) == 0 &&
	    (prefix || p[l + n] == '\t');
}

/* A call on a window that needs its communicator: the fences and the
 * free, collective over the window's group. */
static int
win_coll(const struct item *it)
{
	return it->cls == TR_MPI_FENCE || (it->cls == TR_MPI_COMMNEW &&
	    item_op(it, "MPI_Win_free", 0));
}

/* MPI_Startall writes a record per request, all of one seq and one
 * time span: they are replayed as a group, as a completion's records. */
static int
startall(const struct item *it)
{
	return (it->cls == TR_MPI_ISEND || it->cls == TR_MPI_IRECV) &&
	    item_op(it, "MPI_Startall:", 1);
}

/* A persistent request's start (MPI_Start: or MPI_Startall:) */
static int
pers_start(const struct item *it)
{
	return (it->cls == TR_MPI_ISEND || it->cls == TR_MPI_IRECV) &&
	    item_op(it, "MPI_Start", 1);
}

static void
group_add(struct rank *rk, const struct item *it)
{
	struct gline g = {it->npre, it->nsuf, it->line};
	size_t n = (sizeof g + it->npre + it->nsuf + 3) & ~(size_t)3;
	char *d;

	tr_grow(&rk->gbuf, &rk->gcap, rk->glen + n, 1);
	d = rk->gbuf + rk->glen;
	memcpy(d, &g, sizeof g);
	memcpy(d + sizeof g, ITEM_PRE(it), it->npre + it->nsuf);
	tr_grow(&rk->goff, &rk->goffcap, rk->ngoff + 1, sizeof *rk->goff);
	rk->goff[rk->ngoff++] = (uint32_t)rk->glen;
	rk->glen += n;
}

static struct rcomm *
rank_comm(struct tr_nsim *s, long r, int64_t id, const struct item *it)
{
	struct rank *rk = s->r ? &s->r[r] : NULL;	/* NULL in tr-to-ti */
	void **v;
	struct rcomm *c;

	if (rk && it && win_coll(it) &&
	    (v = tr_itab_get(&s->rwin, r, it->tag, 0)))
		return *v;
	/* (before the id's next communicator, read ahead) */
	if (rk && it && pers_start(it) &&
	    (v = tr_itab_get(&s->rpers, r, id, 0)))
		return *v;
	if (rk && rk->lastc && rk->lastcid == id)
		return rk->lastc;
	/* A comm record after the communicator's first use: read on. */
	while ((!(v = tr_itab_get(&s->rc, r, id, 0)) ||
	    ((struct rcomm *)*v)->gid < 0) && id != 0 && id != 1 &&
	    id != -1 && pull(s, -1, 0))
		;
	if (v && ((struct rcomm *)*v)->gid >= 0)
		c = *v;
	else {
		if (id != 0 && id != 1 && id != -1)
			item_die(s, it, "rank %ld seq %lld: communicator "
			    "%lld has no comm record", r, (long long)it->seq,
			    (long long)id);
		v = tr_itab_get(&s->rc, r, id, 1);
		if (!*v)
			*v = tr_calloc(1, sizeof *c);
		c = *v;
		c->gid = id == 1 ? 1 : 0;
		c->me = id == 1 ? 0 : (int32_t)r;
	}
	if (rk) {
		rk->lastcid = id;
		rk->lastc = c;
	}
	return c;
}

static struct sreq *
mk_req(struct tr_nsim *s, long r, int send, long peer, int64_t bytes,
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
		item_die(s, s->r[r].it && s->r[r].it->seq == seq ?
		    s->r[r].it : NULL, "rank %ld seq %lld: peer %ld out of "
		    "range (np=%ld)", r, (long long)seq, peer, s->np);
	if (send)
		post_send(s, q);
	else
		post_recv(s, q);
	return q;
}

/* Q is awaited by whoever keeps TREADY (the time all it awaits is done)
 * and NPEND (how many are not): a rank, or a nonblocking collective. */
static void
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

static void
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

static int
user_req(struct tr_nsim *s, long r, const struct item *it, struct sreq *q)
{
	void **v;

	if (it->req < 0)
		return 0;
	v = tr_itab_get(&s->reqs, r, it->req, 1);
	if (*v)
		item_die(s, it, "rank %ld seq %lld: request %lld started "
		    "again before it completed", r, (long long)it->seq,
		    (long long)it->req);
	*v = q;
	return 1;
}

static long
coll_root(struct tr_nsim *s, long gid, int64_t root)
{
	const struct comm *c;
	long i;

	if (root < 0)
		return 0;
	if (gid == 0)
		return (long)root;
	if (gid == 1)
		return 0;
	c = comm_get(s, gid);
	for (i = 0; i < c->n; i++)
		if (c->mem[i] == root)
			return i;
	return 0;
}

static long
coll_peer(struct tr_nsim *s, long gid, long r, long p)
{
	if (gid == 0)
		return p;
	if (gid == 1)
		return r;
	return comm_get(s, gid)->mem[p];
}

static long
comm_size(struct tr_nsim *s, long gid)
{
	return gid == 0 ? s->np : gid == 1 ? 1 : comm_get(s, gid)->n;
}

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
		item_die(s, it, "mismatched collective: rank %ld seq %lld "
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
static double
make_cost(struct tr_nsim *s, long gid, int64_t cseq)
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
static double
red_time(const struct tr_nsim *s, const struct tr_p2p *o, int n)
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
static int
coll_step(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	struct tr_p2p *ops;
	int n, i;

	tr_grow(&s->cops, &s->copscap, (size_t)tr_coll_cap(&rk->coll),
	    sizeof *s->cops);
	ops = s->cops;
	n = tr_coll_next(&rk->coll, ops, (long)s->copscap);
	rk->red = red_time(s, ops, n);
	for (i = 0; i < n; i++)
		await(s, rk, mk_req(s, r, ops[i].send,
		    coll_peer(s, rk->gid, r, ops[i].peer), ops[i].bytes,
		    rk->ctag, rk->gid, 1, 0, rk->it->seq, CUT_NO));
	return n > 0;
}

/* The block of one rank in a collective, from what the rank recorded:
 * for a v-collective its total over the communicator, spread evenly,
 * except on the ranks of a Gatherv or Scatterv other than the root,
 * which record their own block. */
static int64_t
coll_block(const struct item *it, long n, long me, long root)
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
static void
coll_setup(struct tr_nsim *s, struct tr_coll *co, long r,
    const struct item *it, const struct rcomm *c)
{
	int op = it->coll & 0xff, d;
	long n = comm_size(s, c->gid), root = coll_root(s, c->gid, it->root);
	long grid = 1;
	int64_t b = op == TR_COLL_NEIGHBOR ? it->bytes / (2 * c->nd) :
	    coll_block(it, n, c->me, root);

	tr_coll_begin(co, op, s->net->coll, n, c->me, root, b);
	if (op != TR_COLL_NEIGHBOR)
		return;
	for (d = 0; d < c->nd && grid <= n; d++)
		grid *= c->grid[d];
	if (grid != n)
		item_die(s, it, "rank %ld seq %lld: the cart grid of "
		    "communicator %lld is not its %ld ranks", r,
		    (long long)it->seq, (long long)it->comm, n);
	tr_coll_grid(co, c->nd, c->grid, c->grid + c->nd);
}

/* A neighborhood collective on a communicator without a grid (a graph
 * topology): its messages are not known, so it is a local call. */
static int
gridless(struct tr_nsim *s, long r, const struct item *it)
{
	return (it->coll & 0xff) == TR_COLL_NEIGHBOR &&
	    rank_comm(s, r, it->comm, it)->nd == 0;
}

static void
coll_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rank *rk = &s->r[r];
	struct rcomm *c = rank_comm(s, r, it->comm, it);

	coll_check(s, r, it, c->gid, c->cseq, it->coll,
	    coll_root(s, c->gid, it->root));
	rk->gid = c->gid;
	coll_setup(s, &rk->coll, r, it, c);
	rk->ctag = c->cseq++;
	rk->incoll = 1;
}

/* Posts the steps of nonblocking collective ID from now on, as far as
 * they go without waiting; at its end, completes its request. */
static void
bg_step(struct tr_nsim *s, long id)
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
		b->red = red_time(s, s->cops, n);
		if (n > b->qcap) {
			b->qcap = n;
			b->q = tr_realloc(b->q, (size_t)n * sizeof *b->q);
		}
		for (i = 0; i < n; i++) {
			struct sreq *q = mk_req(s, b->owner, s->cops[i].send,
			    coll_peer(s, b->gid, b->owner, s->cops[i].peer),
			    s->cops[i].bytes, b->ctag, b->gid, 1, 0, b->seq,
			    CUT_NO);

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
	req_complete(s, b->req, s->now);
	req_unref(s, b->req);
	b->req = NULL;
	b->next = s->bgfree + 1;
	s->bgfree = id;
	s->bglive--;
	comm_unref(s, b->gid);
}

/* Rank R is in an MPI call: the rendezvous messages it matched
 * meanwhile start coming, in the order they were matched, and its
 * collectives waiting for a call go on. A message the call copies
 * itself (held_copy) waits for its envelope, to this call if it has
 * come, else to the next; the copies advance the rank's clock. */
static void
progress(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	struct sreq *rdv = rk->rdvdef, *q, *next, *first = NULL;
	long id = rk->bgdef;
	double t = rk->t > s->now ? rk->t : s->now, d;

	rk->rdvdef = NULL;
	while ((q = rk->ackdef)) {
		rk->ackdef = q->next;
		q->next = NULL;
		q->tmatch = t;	/* the sender waited for this call */
		sync_ack(s, q, t);
		req_unref(s, q);	/* the list's reference */
	}
	q = rdv;
	for (; q; q = next) {
		next = q->next;
		q->next = first;
		first = q;
	}
	for (q = first; q; q = next) {
		next = q->next;
		q->next = NULL;
		if ((d = held_copy(s, r, q)) > 0 &&
		    q->tsent + s->net->intra_lat > s->now) {
			q->next = rk->rdvdef;
			rk->rdvdef = q;
			continue;
		}
		/* what the sender waited for until now was the receiver */
		q->tmatch = q->match ? (q->match->tmatch = t) : t;
		flow_start(s, q, d > 0 ? t : s->now);
		t += d;
		req_unref(s, q);	/* the list's reference */
	}
	if (t > rk->t) {
		rk->comm += t - rk->t;
		rk->t = t;
	}
	rk->bgdef = 0;
	while (id) {
		long next = s->bg[id - 1].next;

		bg_step(s, id - 1);
		id = next;
	}
}

/* Starts the nonblocking collective IT of rank R in the background. */
static void
bg_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rcomm *c = rank_comm(s, r, it->comm, it);
	struct bgcoll *b;
	long id = s->bgfree;

	coll_check(s, r, it, c->gid, c->cseq, it->coll,
	    coll_root(s, c->gid, it->root));
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
	coll_setup(s, &b->coll, r, it, c);
	b->req = req_new(s);
	b->req->owner = r;
	b->req->coll = 1;
	b->req->seq = it->seq;
	b->req->refs = 2;	/* the user's and the schedule's */
	user_req(s, r, it, b->req);
	bg_step(s, id);
}

/* Blocks the rank until its awaited requests complete; returns 1 if it
 * may go on at once (rk->t updated). */
static int
block(struct tr_nsim *s, struct rank *rk, long r)
{
	rk->tblock = rk->t;
	if (rk->npend == 0) {
		if (rk->tready > rk->t)
			rk->t = rk->tready;
		return 1;
	}
	/* blocked, it copies what it kept for its next call */
	if (rk->rdvdef || rk->ackdef)
		progress(s, r);
	return 0;
}

static void
finish_wait(struct tr_nsim *s, struct rank *rk)
{
	double tm = rk->tblock;
	int i;

	if (rk->tready > rk->t)
		rk->t = rk->tready;
	for (i = 0; i < rk->npr; i++) {
		struct sreq *q = i < 2 ? rk->pend[i] : rk->xpend[i - 2];
		if (q->tmatch > tm && !(q->send && !q->rdv && !q->sync))
			tm = q->tmatch;
		req_unref(s, q);
	}
	if (tm > rk->t)
		tm = rk->t;
	rk->wait += tm - rk->tblock;
	rk->comm += rk->t - tm;
	rk->npr = 0;
	rk->tready = 0;
}

static void
emit(struct tr_nsim *s, struct rank *rk)
{
	const struct item *it = rk->it;

	rk->events++;
	if (it->type == TR_REG) {
		out_line(s, s->out, it->line, ITEM_PRE(it), it->npre,
		    ITEM_SUF(it), it->nsuf, 0, rk->tstart, 0);
		return;
	}
	if (it->cls == TR_MPI_WAIT || it->cls == TR_MPI_TEST ||
	    (rk->ingroup && it->seq == rk->gseq)) {
		group_add(rk, it);
		return;
	}
	out_line(s, s->out, it->line, ITEM_PRE(it), it->npre, ITEM_SUF(it),
	    it->nsuf, 1, rk->tstart, rk->t);
}

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
static double
rma_start(struct tr_nsim *s, long r, const struct item *it)
{
	struct rank *rk = &s->r[r];
	struct sreq *q;
	int64_t there, back;

	if (it->peer >= s->np)
		item_die(s, it, "rank %ld seq %lld: target %lld out of "
		    "range (np=%ld)", r, (long long)it->seq,
		    (long long)it->peer, s->np);
	there = it->coll == TR_RMA_GET ? 0 : it->coll == TR_RMA_FETCH &&
	    it->root >= 0 ? it->root : it->bytes;
	back = it->coll == TR_RMA_PUT ? 0 : it->bytes;
	if (s->net->rma_bw > 0 && rk->node == s->r[it->peer].node) {
		user_req(s, r, it, &s->done_req);
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
	flow_start(s, q, inject(s, r) + s->net->rma_o);
	if (!user_req(s, r, it, q))
		req_unref(s, q);
	return 0;
}

/* Awaits rank R's transfers on the window of IT (to TARGET, or all if
 * -1), and forgets those complete. */
static void
rma_await(struct tr_nsim *s, long r, const struct item *it, int64_t target)
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

/* A test or probe that found nothing: waiting, or a polling loop's
 * overhead (tr-record merges those loops into one record). By default it
 * takes no time, so that a loop that only polls ends when its message
 * comes, whatever it waited for in the recording; the work between its
 * polls stays, as the computation before the record. Where the loop
 * does work at each turn and its polls are part of the cost (hpcc's
 * RandomAccess: 40 % of a loop's time is in MPI_Testany), -P keeps
 * their recorded time. */
static int
found_nothing(const struct item *it)
{
	return (it->cls == TR_MPI_TEST && it->req < 0) ||
	    (it->cls == TR_MPI_LOCAL && it->coll == TR_LOCAL_PROGRESS &&
	    it->peer < 0);
}

/* Its time in the replay. */
static double
poll_time(const struct tr_nsim *s, const struct item *it)
{
	return s->pollwork ? (double)it->dur : 0;
}

/* A communicator freed by the program goes once no window and no
 * persistent request holds it. */
static void
rcomm_drop(struct tr_nsim *s, struct rcomm *c)
{
	if (!c->zombie || c->wins > 0 || c->pers)
		return;
	comm_unref(s, c->gid);
	free(c->grid);
	free(c);
}

/* Rank R's MPI_Comm_free IT: its id names the next communicator made
 * with it, if any. */
static void
rank_freed(struct tr_nsim *s, long r, const struct item *it)
{
	void **v = tr_itab_get(&s->rc, r, it->comm, 0);
	struct rcomm *c = *v;

	if (s->r[r].lastc == c)
		s->r[r].lastc = NULL;
	if (c->next)
		*v = c->next;
	else
		tr_itab_del(&s->rc, r, it->comm);
	c->zombie = 1;
	rcomm_drop(s, c);
}

/* Rank R's persistent request IT is made: its communicator is the one
 * its id's starts use. */
static void
rank_pers(struct tr_nsim *s, long r, const struct item *it)
{
	struct rcomm *c = rank_comm(s, r, it->comm, it), *o;
	void **v = tr_itab_get(&s->rpers, r, it->comm, 1);

	if (*v == c) {
		c->pers++;
		return;
	}
	o = *v;
	*v = c;
	/* the id's requests not freed, whichever they were made on */
	c->pers = 1 + (o ? o->pers : 0);
	/* the one before with the id goes if freed and no window holds it */
	if (!o)
		return;
	o->pers = 0;
	rcomm_drop(s, o);
}

/* Rank R frees a persistent request made with IT's id: once the id has
 * none, its communicator goes if freed and no window holds it. */
static void
rank_unpers(struct tr_nsim *s, long r, const struct item *it)
{
	void **v = tr_itab_get(&s->rpers, r, it->comm, 0);
	struct rcomm *c;

	if (!v || --(c = *v)->pers > 0)
		return;
	tr_itab_del(&s->rpers, r, it->comm);
	rcomm_drop(s, c);
}

/* Rank R's window IT is made (on its communicator, once the comm record
 * is read) or, MADE 0, freed: a communicator freed before its windows
 * goes once the last is. */
static void
rank_win(struct tr_nsim *s, long r, const struct item *it, int made)
{
	void **v;
	struct rcomm *c;

	if (made) {
		v = tr_itab_get(&s->rwin, r, it->tag, 1);
		if (!*v) {
			*v = rank_comm(s, r, it->comm, it);
			((struct rcomm *)*v)->wins++;
		}
		return;
	}
	if (!(v = tr_itab_get(&s->rwin, r, it->tag, 0)))
		return;
	c = *v;
	tr_itab_del(&s->rwin, r, it->tag);
	c->wins--;
	rcomm_drop(s, c);
}

/* Starts the operation of the current record at rk->t; returns 1 if it
 * is over (rk->t is its end), 0 if the rank is blocked. */
static int
start_op(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	const struct item *it = rk->it;
	struct rcomm *c;
	struct sreq *q;
	void **v;
	int64_t src, tag;
	double d;

	rk->tstart = rk->held ? rk->thold : rk->t;
	rk->held = 0;
	if (it->type == TR_REG)
		return 1;
	if (rk->ingroup && it->seq == rk->gseq)
		rk->tstart = rk->gstart;
	else if (startall(it)) {
		rk->ingroup = 1;
		rk->gseq = it->seq;
		rk->gstart = rk->tstart;
	}
	switch (it->cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
		c = rank_comm(s, r, it->comm, it);
		q = mk_req(s, r, 1, (long)it->peer, it->bytes, it->tag, c->gid,
		    0, it->cls == TR_MPI_SSEND || it->coll == TR_P2P_SYNC,
		    it->seq, CUT_NO);
		if (it->coll == TR_P2P_BUF) {
			/* the message goes on its own */
			req_unref(s, q);
			if (it->cls == TR_MPI_ISEND)
				user_req(s, r, it, &s->done_req);
			d = s->net->o + buf_copy(s->net, it->bytes);
			rk->t += d;
			rk->comm += d;
			return 1;
		}
		if (it->cls == TR_MPI_ISEND) {
			if (!user_req(s, r, it, q))
				req_unref(s, q);
			rk->t += s->net->o;
			rk->comm += s->net->o;
			return 1;
		}
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		c = rank_comm(s, r, it->comm, it);
		src = it->peer;
		tag = it->tag;
		/* Without a request id (its call failed) no call completes
		 * it: it posts nothing. A receive posted and dropped here
		 * went back to the free list while still queued, and its
		 * reuse made the queue a loop (a fuzzed req of -1: a hang). */
		if (it->cls == TR_MPI_IRECV && it->req < 0)
			return 1;
		if (it->cls == TR_MPI_IRECV) {
			struct tr_wildq wq = {it->seq, it->peer, it->tag,
			    it->req};

			tr_wild_resolve(s->wild, r, &wq, &src, &tag, pull_wild,
			    s);
		}
		q = mk_req(s, r, 0, (long)src, it->bytes, tag, c->gid,
		    0, 0, it->seq, it->type == TR_FAIL ? CUT_FAILED :
		    it->cls == TR_MPI_IRECV ? CUT_LATER : CUT_NO);
		if (it->cls == TR_MPI_IRECV) {
			if (!user_req(s, r, it, q))
				req_unref(s, q);
			return 1;
		}
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_SENDRECV:
		c = rank_comm(s, r, it->comm, it);
		await(s, rk, mk_req(s, r, 1, (long)it->peer, it->bytes, it->tag,
		    c->gid, 0, 0, it->seq, CUT_NO));
		/* The tag received is in req; traces without it match any.
		 * The bytes received are not in the trace. */
		await(s, rk, mk_req(s, r, 0, (long)it->root, -1,
		    it->req >= 0 ? it->req : -1, c->gid, 0, 0, it->seq, CUT_NO));
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (rk->ingroup && it->seq == rk->gseq)
			rk->tstart = rk->gstart;
		else {
			rk->ingroup = 1;
			rk->gseq = it->seq;
			rk->gstart = rk->tstart;
		}
		if (found_nothing(it))
			break;
		if (it->req < 0)
			return 1;
		if (!(v = tr_itab_get(&s->reqs, r, it->req, 0)))
			item_die(s, it, "rank %ld seq %lld: completion of "
			    "request %lld, which was never started%s", r,
			    (long long)it->seq, (long long)it->req,
			    s->src && tr_meta(s->src, "subset") ? " (a selection, "
			    "#meta subset: a time window or an expression "
			    "cuts requests from their completions)" : "");
		q = *v;
		tr_itab_del(&s->reqs, r, it->req);
		if (q->cut == CUT_LATER)
			q->cut = it->type == TR_FAIL ? CUT_FAILED : CUT_NO;
		else if (q->cut == CUT_FOUND && it->type != TR_FAIL) {
			const struct cut *m = &s->cuts[q->cutid - 1];

			item_die(s, it, "rank %ld seq %lld: a receive of %lld "
			    "bytes matches a message of %lld bytes from rank %ld "
			    "seq %lld (tag %lld): it would be truncated", r,
			    (long long)q->seq, (long long)q->bytes,
			    (long long)m->bytes, m->src, (long long)m->seq,
			    (long long)m->tag);
		}
		/* File I/O is not simulated: its completion keeps the time
		 * it took in the recording, as blocking I/O does. */
		if (q == &s->io_req && rk->gstart + (double)it->dur > rk->tready)
			rk->tready = rk->gstart + (double)it->dur;
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_RMA:
		if (it->peer < 0)
			break;
		/* time in MPI that is no wait: communication (tr-nsim(1)) */
		d = s->net->o + s->net->rma_o + rma_start(s, r, it);
		rk->t += d;
		rk->comm += d;
		return 1;
	case TR_MPI_RMASYNC:
		rk->t += s->net->rma_o;
		rk->comm += s->net->rma_o;
		rma_await(s, r, it, it->coll == TR_RMA_TARGET ? it->peer : -1);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_FENCE:
		/* the rank's transfers complete, then all meet */
		rma_await(s, r, it, -1);
		if (!block(s, rk, r)) {
			rk->phase = PH_FENCE;
			return 0;
		}
		finish_wait(s, rk);
		coll_start(s, r, it);
		rk->phase = PH_COLL;
		return 1;
	case TR_MPI_IFILE:
		user_req(s, r, it, &s->io_req);
		break;
	case TR_MPI_CANCEL:
		if (it->req >= 0 && (v = tr_itab_get(&s->reqs, r, it->req, 0)))
			cancel(s, *v);
		break;
	case TR_MPI_PROBE:
		/* The record names the message found (its status): the
		 * rank waits for its envelope, once it is sent. */
		if (it->peer < 0 || it->peer >= s->np)
			break;
		q = &rk->probe;
		q->gid = rank_comm(s, r, it->comm, it)->gid;
		q->src = (long)it->peer;
		q->tag = it->tag;
		rk->inprobe = 1;
		rk->tblock = rk->t;
		if (rk->rdvdef || rk->ackdef)
			progress(s, r);
		for (q = s->unexp[r]; q; q = q->next)
			if (matches(&rk->probe, q)) {
				probe_found(s, q);
				break;
			}
		return 0;
	case TR_MPI_COLL:
	case TR_MPI_ICOLL:
	case TR_MPI_COMMNEW:
		if (it->cls == TR_MPI_ICOLL && it->req >= 0 &&
		    !gridless(s, r, it)) {
			bg_start(s, r, it);
			rk->t += s->net->o;
			rk->comm += s->net->o;
			return 1;
		}
		if (it->cls == TR_MPI_ICOLL && it->req >= 0)
			user_req(s, r, it, &s->done_req);
		if (gridless(s, r, it))
			break;
		if (it->cls == TR_MPI_COMMNEW && it->tag >= 0 &&
		    (item_op(it, "MPI_Win_create", 1) ||
		    item_op(it, "MPI_Win_allocate", 1)))
			rank_win(s, r, it, 1);
		/* without its request, it completes where it starts */
		coll_start(s, r, it);
		rk->phase = PH_COLL;
		return 1;
	}
	if (it->cls == TR_MPI_LOCAL && it->coll == COLL_FREE)
		rank_freed(s, r, it);
	else if (it->cls == TR_MPI_LOCAL && it->coll == COLL_PERS &&
	    it->comm > 1)
		rank_pers(s, r, it);
	else if (it->cls == TR_MPI_LOCAL && it->coll == COLL_UNPERS &&
	    it->comm > 1)
		rank_unpers(s, r, it);
	d = found_nothing(it) ? poll_time(s, it) : (double)it->dur;
	rk->t += d;
	rk->comm += d;
	return 1;
}

/* A rank whose clock ran ahead of the simulation (computing) waits for
 * the events before it; 0 if it must wait. */
static int
catch_up(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	double t;

	if (rk->t <= s->now)
		return 1;
	settle(s);
	if (next_time(s, &t) && t < rk->t) {
		push(s, rk->t, EV_WAKE, r, 0);
		return 0;
	}
	s->now = rk->t;
	return 1;
}

static void
run_rank(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	const void *p;
	size_t n;
	double dt;

	for (;;) {
		switch (rk->phase) {
		case PH_FETCH:
			if (!tr_spool_next(s->sp, r, &p, &n)) {
				if (pull(s, r, 0))
					break;
				if (rk->ingroup)
					group_flush(s, rk, s->out);
				rk->done = 1;
				if (rk->bgdef || rk->rdvdef || rk->ackdef)
					progress(s, r);
				return;
			}
			rk->it = p;
			/* Records of one seq are one call, whatever their
			 * op: they keep one time span. */
			if (rk->ingroup && !(rk->it->seq == rk->gseq &&
			    rk->it->type != TR_REG))
				group_flush(s, rk, s->out);
			/* One that no group takes (a garbled op before a
			 * completion's records) would be replayed as a
			 * second call with times of its own. */
			if (rk->it->type != TR_REG && rk->hasseq &&
			    rk->it->seq == rk->lastseq && !rk->ingroup)
				item_die(s, rk->it, "rank %ld seq %lld: records "
				    "of one seq that are not one call", r,
				    (long long)rk->it->seq);
			if (rk->it->type != TR_REG) {
				rk->lastseq = rk->it->seq;
				rk->hasseq = 1;
			}
			rk->phase = PH_START;
			if (rk->ingroup)
				break;
			dt = (double)rk->it->dt * s->scale;
			if (dt > 0) {
				rk->t += dt;
				rk->compute += dt;
			}
			break;
		case PH_START:
			if (!catch_up(s, r))
				return;
			/* the call first does what waited for one; it goes on
			 * once the copies that hold it are done, but a
			 * blocking send or receive posts its own message
			 * first */
			if (rk->it->type != TR_REG && progresses(rk->it) &&
			    (rk->bgdef || rk->rdvdef || rk->ackdef)) {
				if (!rk->held)
					rk->thold = rk->t;
				progress(s, r);
				if (rk->t > s->now) {
					rk->held = 1;
					if (!posts_first(rk->it)) {
						push(s, rk->t, EV_WAKE, r, 0);
						return;
					}
					rk->late = 1;
				}
			}
			rk->phase = PH_FINISH;
			if (!start_op(s, r))
				return;
			break;
		case PH_FENCE:
			coll_start(s, r, rk->it);
			rk->phase = PH_COLL;
			break;
		case PH_COLL:
			/* the step before is done: its data is reduced */
			rk->t += rk->red;
			rk->comm += rk->red;
			rk->red = 0;
			if (!catch_up(s, r))
				return;
			if (!coll_step(s, r)) {
				rk->incoll = 0;
				rk->phase = PH_FINISH;
				if (rk->it->cls == TR_MPI_COMMNEW) {
					double d = make_cost(s, rk->gid,
					    rk->ctag);
					rk->t += d;
					rk->comm += d;
					if (win_coll(rk->it))
						rank_win(s, r, rk->it, 0);
				}
				break;
			}
			if (!block(s, rk, r))
				return;
			finish_wait(s, rk);
			break;
		case PH_FINISH:
			/* a call that started before its copies ended is
			 * written when it ends, in the order of ends */
			if (rk->late) {
				if (rk->t > s->now) {
					rk->held = 1;
					push(s, rk->t, EV_WAKE, r, 0);
					return;
				}
				rk->late = rk->held = 0;
			}
			emit(s, rk);
			rk->phase = PH_FETCH;
			break;
		}
	}
}

/* The rank was woken: a computation ended or its requests completed. */
static void
wake_rank(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];

	if (rk->t < s->now)
		rk->t = s->now;
	if (rk->npr > 0)
		finish_wait(s, rk);
	else if (rk->inprobe) {
		rk->inprobe = 0;
		rk->wait += rk->t - rk->tblock;	/* for the message */
	}
	s->calling = r;
	run_rank(s, r);
	s->calling = -1;
}

static const char *
cls_name(const struct item *it, char *buf, size_t n)
{
	size_t l = 0;
	int f = 0;
	const char *p = ITEM_PRE(it);

	/* the op field is the fourth, before the times */
	while (f < 3 && l < it->npre)
		if (p[l++] == '\t')
			f++;
	snprintf(buf, n, "%.*s", (int)strcspn(p + l, "\t"), p + l);
	return buf;
}

/* The ranks without records in the section (a selection of ranks) that
 * blocked rank R waits for, into L: its collective's, or the partners
 * of the messages it waits for. */
static void
waits_absent(struct tr_nsim *s, long r, struct tr_ranklist *l)
{
	const struct rank *rk = &s->r[r];
	long i, n = rk->incoll ? comm_size(s, rk->gid) : rk->npr + 1, k = 0;
	int64_t *p = tr_malloc((size_t)n * sizeof *p);

	for (i = 0; i < n; i++) {
		const struct sreq *q;

		if (rk->incoll)
			p[k] = rk->gid == 0 ? i : rk->gid == 1 ? r :
			    comm_get(s, rk->gid)->mem[i];
		else if (i < rk->npr) {
			q = i < 2 ? rk->pend[i] : rk->xpend[i - 2];
			if (q->done)
				continue;
			p[k] = q->send ? q->dst : q->src;
		} else
			p[k] = rk->it->peer;
		if (p[k] >= 0 && p[k] < s->np && s->r[p[k]].done &&
		    !s->r[p[k]].it)
			k++;
	}
	tr_sort(p, (size_t)k, sizeof *p, tr_cmp_i64);
	for (i = 0; i < k; i++)
		if (i == 0 || p[i] != p[i - 1])
			tr_ranklist_add(l, p[i]);
	free(p);
	tr_ranklist_end(l);
}

static void
deadlock(struct tr_nsim *s)
{
	char msg[4096], op[64], absent[256];
	size_t m = 0;
	long r, shown = 0, blocked = 0, first = -1;
	struct tr_ranklist l;

	for (r = 0; r < s->np; r++)
		if (!s->r[r].done && blocked++ == 0)
			first = r;
	if (blocked || s->bglive > 0) {
		/* The marks of ranks that died come after their records,
		 * maybe after those of ranks not yet read. */
		while (pull(s, -1, 0))
			;
		if (blocked == 1)
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: rank %ld blocked in %s seq "
			    "%lld)", first, cls_name(s->r[first].it, op,
			    sizeof op), (long long)s->r[first].it->seq);
		else if (blocked)
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: %ld ranks blocked, the "
			    "first rank %ld in %s seq %lld)", blocked, first,
			    cls_name(s->r[first].it, op, sizeof op),
			    (long long)s->r[first].it->seq);
		else
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: %ld nonblocking "
			    "collectives never completed)", s->bglive);
		if (s->src && tr_meta_nended(s->src)) {
			/* as item_die does */
			tr_meta_unrecorded(s->src);
			tr_meta_ended(s->src, 1, msg);
		}
		first = -1;
		blocked = 0;
	}
	for (r = 0; r < s->np; r++) {
		struct rank *rk = &s->r[r];
		if (rk->done)
			continue;
		if (blocked++ == 0)
			first = r;
		if (shown++ < 8 && m < sizeof msg - 200)
			m += (size_t)snprintf(msg + m, sizeof msg - m,
			    "%s rank %ld in %s (seq %lld, peer %lld, tag %lld) "
			    "since %.0f ns", shown > 1 ? ";" : "", r,
			    cls_name(rk->it, op, sizeof op),
			    (long long)rk->it->seq, (long long)rk->it->peer,
			    (long long)rk->it->tag, rk->tblock);
	}
	/* the line is the first blocked rank's call */
	if (blocked) {
		tr_ranklist_init(&l, absent, sizeof absent);
		waits_absent(s, first, &l);
		if (l.n)
			snprintf(op, sizeof op, "; rank %ld waits for", first);
		item_die(s, s->r[first].it,
		    "deadlock: %ld rank%s blocked:%s%s%s%s%s%s", blocked,
		    blocked > 1 ? "s" : "", msg, blocked > 8 ? "; ..." : "",
		    l.n ? op : "",
		    l.n > 1 ? " ranks " : l.n ? " rank " : "", l.n ? absent : "",
		    l.n > 1 ? ", which have no records in this section" : l.n ?
		    ", which has no records in this section" : "");
	}
	/* Every rank ended, and a collective it started is short of a
	 * rank that never called it. */
	for (r = 0; r < s->nbg && s->bglive > 0; r++)
		if (s->bg[r].req)
			item_die(s, NULL, "deadlock: %ld nonblocking "
			    "collectives never completed, the first of rank "
			    "%ld (seq %lld): a rank of its communicator did not "
			    "call it",
			    s->bglive, s->bg[r].owner,
			    (long long)s->bg[r].seq);
	/* Eager sends that no receive took: the senders went on, as in
	 * the recorded run (OpenCoarrays' last notifications, say). */
	for (r = 0, blocked = 0; r < s->np; r++)
		while (s->unexp[r]) {
			struct sreq *q = s->unexp[r];

			if (blocked++ == 0)
				m = (size_t)snprintf(msg, sizeof msg, "rank %ld "
				    "seq %lld sent %lld bytes to rank %ld (tag "
				    "%lld)", q->src, (long long)q->seq,
				    (long long)q->bytes, q->dst,
				    (long long)q->tag);
			s->unexp[r] = q->next;
			q->next = NULL;
			req_unref(s, q);
		}
	if (blocked)
		tr_warn("%s: %ld sends never received, the first: %s",
		    s->file ? s->file : "stdin", blocked, msg);
}

static void
reset(struct tr_nsim *s)
{
	long r;
	size_t i;

	chans_free(s);
	makes_free(s);
	for (r = 0; r < s->np && s->r; r++) {
		while (s->r[r].rdvdef) {
			struct sreq *q = s->r[r].rdvdef;
			s->r[r].rdvdef = q->next;
			req_unref(s, q);
		}
		while (s->r[r].ackdef) {
			struct sreq *q = s->r[r].ackdef;
			s->r[r].ackdef = q->next;
			req_unref(s, q);
		}
		while (s->r[r].rma) {
			struct sreq *q = s->r[r].rma;
			s->r[r].rma = q->next;
			req_unref(s, q);
		}
		free(s->r[r].gbuf);
		free(s->r[r].goff);
		free(s->r[r].xpend);
	}
	free(s->r);
	s->r = NULL;
	for (r = 0; r < s->nbg; r++)
		free(s->bg[r].q);
	free(s->bg);
	free(s->cuts);
	s->cuts = NULL;
	s->ncut = s->cutcap = 0;
	tr_itab_free(&s->tiopen);
	tr_itab_free(&s->ticut);
	s->bg = NULL;
	s->nbg = s->bgcap = s->bglive = 0;
	s->bgfree = -1;
	for (i = 0; i < s->reqs.cap; i++)
		if (s->reqs.s[i].v)
			req_unref(s, s->reqs.s[i].v);
	tr_itab_free(&s->reqs);
	/* communicators kept for windows never freed (the
	 * others are in rc, freed next) */
	for (i = 0; i < s->rwin.cap; i++) {
		struct rcomm *c = s->rwin.s[i].v;

		if (c && --c->wins == 0 && c->zombie && !c->pers) {
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rwin);
	for (i = 0; i < s->rpers.cap; i++) {
		struct rcomm *c = s->rpers.s[i].v;

		if (c && c->zombie && c->wins == 0) {	/* else in rc */
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rpers);
	for (i = 0; i < s->rc.cap; i++) {
		struct rcomm *c, *nx;

		for (c = s->rc.s[i].v; c; c = nx) {
			nx = c->next;
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rc);
	for (i = 0; i < s->colls.cap; i++)
		free(s->colls.s[i].v);
	tr_itab_free(&s->colls);
	while (s->freereq) {
		struct sreq *q = s->freereq;
		s->freereq = q->next;
		free(q);
	}
	free(s->posted);
	free(s->unexp);
	s->posted = s->unexp = NULL;
	for (r = 0; r < s->nfl; r++)
		if (s->fl[r].xl) {
			free(s->fl[r].xl);
			free(s->fl[r].xp);
		}
	free(s->fl);
	s->fl = NULL;
	s->nfl = s->flcap = 0;
	free(s->flfree);
	s->flfree = NULL;
	s->nflfree = s->flfreecap = 0;
	if (s->ln)
		for (r = 0; r < s->nln; r++)
			free(s->ln[r].fl);
	free(s->ln);
	s->ln = NULL;
	s->nln = s->lncap = 0;
	free(s->lnfree);
	s->lnfree = NULL;
	s->nlnfree = s->lnfreecap = 0;
	free(s->route);
	s->route = NULL;
	evq_clear(s);
	for (i = 0; i < s->gcomm.cap; i++)
		if (s->gcomm.s[i].v) {
			free(((struct comm *)s->gcomm.s[i].v)->mem);
			free(s->gcomm.s[i].v);
		}
	tr_itab_free(&s->gcomm);
	free(s->byidx);
	s->byidx = NULL;
	s->nbyidx = 0;
	s->ngid = 0;
	tr_comms_free(s->cids);
	s->cids = tr_comms_new();
	tr_spool_free(s->sp);
	s->sp = NULL;
	tr_wild_free(s->wild);
	s->wild = NULL;
	free(s->prev_end);
	s->prev_end = NULL;
	s->prevcap = 0;
	s->np = 0;
	s->nseen = 0;
	s->nevents = 0;
	s->now = 0;
}

static void
summary(struct tr_nsim *s, struct tr_out *o)
{
	double run = 0;
	/* the totals add up the ranks' lines, rounded as they are */
	long long comp = 0, comm = 0, wait = 0, c, m, w;
	int64_t ev = 0;
	char name[96];
	long r;

	for (r = 0; r < s->np; r++) {
		struct rank *rk = &s->r[r];
		if (rk->t > run)
			run = rk->t;
		c = nsround(rk->compute);
		m = nsround(rk->comm);
		w = nsround(rk->wait);
		if (__builtin_add_overflow(comp, c, &comp) ||
		    __builtin_add_overflow(comm, m, &comm) ||
		    __builtin_add_overflow(wait, w, &wait))
			item_die(s, NULL, "the ranks' simulated times "
			    "summed pass 2^63 ns");
		ev += rk->events;
		tr_out_printf(o, "simrank\t%ld\t%lld\t%lld\t%lld\t%lld\t%lld\n",
		    r, (long long)nsround(rk->t), c, m, w,
		    (long long)rk->events);
	}
	for (r = 0; r < s->nodeln + (s->net->node_bw > 0 ? s->net->nodes : 0) &&
	    s->net->model == TR_MODEL_FLOW; r++) {
		struct link *l = &s->ln[r];
		if (l->bytes <= 0)
			continue;
		if (r < s->nodeln)
			tr_net_linkname(s->net, r, name, sizeof name);
		else
			snprintf(name, sizeof name, "n%ld.mem", r - s->nodeln);
		if (l->bytes >= 0x1p63)
			item_die(s, NULL, "link %s carried 2^63 bytes or "
			    "more", name);
		tr_out_printf(o, "simlink\t%ld\t%s\t%lld\t%lld\t", r, name,
		    (long long)nsround(l->bytes), (long long)nsround(l->busy));
		tr_out_f64(o, run > 0 ? l->bytes / (l->cap * run) : 0);
		tr_out_c(o, '\n');
	}
	tr_out_printf(o, "simrun\t%ld\t%lld\t%lld\t%lld\t%lld\t%lld\n", s->np,
	    (long long)nsround(run), (long long)ev, comp, comm, wait);
	s->nevents = ev;
}

int64_t
tr_nsim_section(struct tr_nsim *s, struct tr_in *in, const struct tr_rec *rec,
    struct tr_out *o)
{
	struct tr_net *n = s->net;
	long r;
	int64_t ev, np;
	double t0, t;

	s->in = in;
	s->out = o;
	begin(s, in);
	take(s, rec);
	/* The ranks must be known before the first is replayed. Those np
	 * names are not allocated before each has shown a record, or the
	 * section has ended: the reader then says which have none, at the
	 * line of np, unless the section is a selection of ranks (#meta
	 * subset) or they ended early (#meta end.R). A time-ordered trace
	 * has every rank's first record near its start: the replay would
	 * read them as its ranks begin. */
	if (tr_meta_i64(in, "np", &np) == 0 && np > 0) {
		s->np = (long)np;
		while (s->nseen < np && pull(s, s->np, 2))
			;
	} else
		while (pull(s, -1, 0))
			;
	if (s->np == 0) {	/* comm records only */
		reset(s);
		return 0;
	}
	t0 = cpu_seconds();
	s->tin = 0;
	tr_net_eager(n, in);
	tr_net_build(n, s->np);
	s->r = tr_calloc((size_t)s->np, sizeof *s->r);
	s->posted = tr_calloc((size_t)s->np, sizeof *s->posted);
	s->unexp = tr_calloc((size_t)s->np, sizeof *s->unexp);
	s->nodeln = n->nlinks;
	s->nln = s->lncap = n->nlinks + (n->node_bw > 0 ? n->nodes : 0);
	s->ln = tr_calloc((size_t)s->lncap, sizeof *s->ln);
	for (r = 0; r < s->nln; r++)
		s->ln[r].cap = r < n->nlinks ? n->link_bw : n->node_bw;
	s->route = tr_malloc((size_t)tr_net_maxroute(n) * sizeof *s->route);
	for (r = 0; r < s->np; r++) {
		s->r[r].node = tr_net_node(n, r);
		/* no message before the first: it owes no gap g */
		s->r[r].inject = -INFINITY;
		push(s, 0, EV_WAKE, r, 0);
	}
	while (s->nev || s->ndl) {
		struct hent e;

		if (s->ndl && (!next_time(s, &t) || t > s->now)) {
			settle(s);
			continue;
		}
		if (!pop(s, &e))
			break;
		s->npop++;
		s->now = ktime(e.k);
		/* The next event's object is a cache miss with many ranks:
		 * fetch it while this one is handled. */
		if (s->bk[0].n > s->head0) {
			const struct hent *h = &s->bk[0].e[s->head0];

			if (h->kind == EV_WAKE)
				__builtin_prefetch(&s->r[h->id]);
			else if (h->kind != EV_BG)
				__builtin_prefetch(&s->fl[h->id]);
		}
		if (s->now == INFINITY)
			break;
		switch (e.kind) {
		case EV_WAKE:
			wake_rank(s, e.id);
			break;
		case EV_LAT:
			if (s->fl[e.id].ver == e.ver)
				flow_enter(s, e.id);
			else
				s->nstale++;
			break;
		case EV_DONE:
			if (s->fl[e.id].ver == e.ver && s->fl[e.id].s)
				flow_done(s, e.id);
			else
				s->nstale++;
			break;
		case EV_BG:
			bg_step(s, e.id);
			break;
		}
	}
	deadlock(s);
	/* A rank is done only once the section was read to its end. */
	while (pull(s, -1, 0))
		;
	summary(s, o);
	ev = s->nevents;
	if (s->stats) {
		double t1 = cpu_seconds(), dt = t1 - t0 - s->tin;

		if (dt < 1e-9)
			dt = 1e-9;
		fprintf(stderr, "%s: stats: %lld records, %ld ranks, %lld "
		    "messages, %lld engine events (%lld stale), %lld sharing "
		    "solves of %.1f flows on average (%lld grown, %lld whole)\n"
		    "%s: stats: cpu s: %.3f reading and spooling, %.3f "
		    "simulating (%.0f records/s, %.0f messages/s, %.0f "
		    "events/s)\n", tr_argv0, (long long)ev, s->np,
		    (long long)s->nmsg, (long long)s->npop,
		    (long long)s->nstale, (long long)s->nsolve,
		    s->nsolve ? (double)s->nsolved / (double)s->nsolve : 0.0,
		    (long long)s->ngrow, (long long)s->nfull,
		    tr_argv0, t0 - s->tread + s->tin, dt, (double)ev / dt,
		    (double)s->nmsg / dt, (double)(s->npop - s->nstale) / dt);
	}
	s->nsolve = s->nsolved = s->ngrow = s->nfull = s->nmsg = s->npop = s->nstale = 0;
	reset(s);
	return ev;
}

void
tr_nsim_free(struct tr_nsim *s)
{
	int b;

	if (!s)
		return;
	reset(s);
	for (b = 0; b < NBUCKET; b++)
		free(s->bk[b].e);
	free(s->cl);
	free(s->cops);
	free(s->cl2);
	free(s->vf);
	free(s->cf);
	free(s->dl);
	free(s->lf);
	tr_comms_free(s->cids);
	free(s);
}

/* ---- export to SimGrid's time-independent traces (tr-to-ti) ---- */

static const char *sg_alg[TR_ALG_N] = {"binomial", "linear", "rdb", "ring",
	"ompi_bruck", "ring"};

/* SimGrid's name of the algorithm tr-nsim uses for OP. */
static const char *
sg_coll(const struct tr_net *n, int op)
{
	int a = n->coll[op];

	switch (op) {
	case TR_COLL_BCAST:
		return a == TR_ALG_LINEAR ? "flattree" : "binomial_tree";
	case TR_COLL_GATHER:
	case TR_COLL_SCATTER:
		return a == TR_ALG_LINEAR ? "ompi_basic_linear" : "ompi_binomial";
	case TR_COLL_REDUCE:
		return a == TR_ALG_LINEAR ? "ompi_basic_linear" : "binomial";
	case TR_COLL_ALLREDUCE:
		return a == TR_ALG_RING ? "lr" : "rdb";
	case TR_COLL_ALLGATHER:
		return "NTSLR";	/* SimGrid's "ring" sends to r+i at step i */
	default:
		return sg_alg[a];
	}
}

static FILE *
xfopen(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		tr_die(TR_EXIT_SYS, "%s:", path);
	return f;
}

static void
xfclose(FILE *f, const char *what)
{
	if (ferror(f) | fclose(f))
		tr_die(TR_EXIT_SYS, "%s: write:", what);
}

static void
ti_flush(FILE *f, long r, double *acc)
{
	if (*acc >= 0.5)
		fprintf(f, "%ld compute %.0f\n", r, *acc);
	*acc = 0;
}

/* A network SimGrid has no cluster for (the dragonfly, or any with
 * node-bandwidth): the hosts of the nodes that hold ranks, every link,
 * and the route between every two of them as tr-nsim takes it. A
 * route's switches add their latency as a fat pipe of the link's
 * bandwidth, which never limits a flow. A node's route to itself is its
 * loopback, a fat pipe (each flow at most intra-bandwidth, none
 * slowing another), and with node-bandwidth then its memory, a shared
 * link: a cluster's loopback can only be a fat pipe. */
static void
ti_routes(struct tr_nsim *s, FILE *f, long cores)
{
	const struct tr_net *n = s->net;
	int max = tr_net_maxroute(n), nl, i;
	long *l = tr_malloc((size_t)max * sizeof *l), a, b, k, sw;
	char *used = tr_calloc((size_t)n->nodes, 1), name[64];
	double lat;

	for (a = 0; a < s->np; a++)
		used[tr_net_node(n, a)] = 1;
	for (a = 0; a < n->nodes; a++)
		if (used[a])
			fprintf(f, "<host id=\"n%ld\" speed=\"1Gf\" "
			    "core=\"%ld\"/>\n<link id=\"n%ld.lo\" "
			    "bandwidth=\"%.17gBps\" latency=\"%.17gns\" "
			    "sharing_policy=\"FATPIPE\"/>\n", a, cores, a,
			    n->intra_bw * 1e9, n->intra_lat);
	for (a = 0; a < n->nodes && n->node_bw > 0; a++)
		if (used[a])
			fprintf(f, "<link id=\"n%ld.mem\" bandwidth=\"%.17gBps\" "
			    "latency=\"0ns\" sharing_policy=\"SHARED\"/>\n", a,
			    n->node_bw * 1e9);
	for (k = 0; k < n->nlinks; k++)
		fprintf(f, "<link id=\"%s\" bandwidth=\"%.17gBps\" "
		    "latency=\"%.17gns\"/>\n", tr_net_linkname(n, k, name,
		    sizeof name), n->link_bw * 1e9, n->link_lat);
	for (k = 1; n->sw_lat > 0 && k <= max; k++)
		fprintf(f, "<link id=\"sw%ld\" bandwidth=\"%.17gBps\" "
		    "latency=\"%.17gns\" sharing_policy=\"FATPIPE\"/>\n", k,
		    n->link_bw * 1e9, (double)k * n->sw_lat);
	for (a = 0; a < n->nodes; a++)
		for (b = 0; used[a] && b < n->nodes; b++) {
			if (!used[b])
				continue;
			fprintf(f, "<route src=\"n%ld\" dst=\"n%ld\" "
			    "symmetrical=\"NO\">", a, b);
			if (a == b) {
				fprintf(f, "<link_ctn id=\"n%ld.lo\"/>", a);
				if (n->node_bw > 0)
					fprintf(f, "<link_ctn id=\"n%ld.mem\"/>", a);
				fprintf(f, "</route>\n");
				continue;
			}
			nl = tr_net_route(n, a, b, l, &lat);
			for (i = 0; i < nl; i++)
				fprintf(f, "<link_ctn id=\"%s\"/>",
				    tr_net_linkname(n, l[i], name, sizeof name));
			sw = n->sw_lat > 0 ? lround((lat - nl * n->link_lat) /
			    n->sw_lat) : 0;
			if (sw > 0)
				fprintf(f, "<link_ctn id=\"sw%ld\"/>", sw);
			fprintf(f, "</route>\n");
		}
	free(l);
	free(used);
}

/* SMPI has one eager threshold for all messages: a section on one node
 * takes the intra-node one, others the one between nodes. Sets *LOST if
 * messages within a node then change protocol. */
static int64_t
ti_eager(const struct tr_nsim *s, int *lost)
{
	const struct tr_net *n = s->net;
	unsigned char *seen = tr_calloc((size_t)n->nodes, 1);
	long r, nodes = 0;

	for (r = 0; r < s->np; r++)
		if (!seen[tr_net_node(n, r)]++)
			nodes++;
	free(seen);
	*lost = nodes > 1 && nodes < s->np && n->intra_eager != n->eager;
	return nodes == 1 ? n->intra_eager : n->eager;
}

static void
ti_platform(struct tr_nsim *s, const char *dir)
{
	const struct tr_net *n = s->net;
	FILE *f = xfopen(dir, "platform.xml");
	char topo[256] = "";
	int i, lost;
	long r, cores = 1, *per = tr_calloc((size_t)n->nodes, sizeof *per);
	int64_t eager = ti_eager(s, &lost);

	/* A core for each rank of the fullest node: SimGrid's hosts share
	 * one core among their ranks' computations, and tr-nsim's ranks do
	 * not wait for each other's. */
	for (r = 0; r < s->np; r++)
		if (++per[tr_net_node(n, r)] > cores)
			cores = per[tr_net_node(n, r)];
	free(per);
	if (n->topo == TR_TOPO_FATTREE) {
		size_t m = (size_t)snprintf(topo, sizeof topo,
		    " topology=\"FAT_TREE\" topo_parameters=\"%d;", n->dim[1]);
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s%d",
			    i ? "," : "", n->dim[0]);
		m += (size_t)snprintf(topo + m, sizeof topo - m, ";");
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s%d",
			    i ? "," : "", i ? n->dim[0] : 1);
		m += (size_t)snprintf(topo + m, sizeof topo - m, ";");
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s1",
			    i ? "," : "");
		snprintf(topo + m, sizeof topo - m, "\"");
	} else if (n->topo == TR_TOPO_TORUS) {
		/* Dimensions of size 1 left out: SimGrid gives each node a
		 * link to itself in every one of them, and two such names
		 * clash (a ring, torus N 1 1, aborted smpirun). Routes and
		 * node numbers stay the same without them. */
		size_t m = (size_t)snprintf(topo, sizeof topo,
		    " topology=\"TORUS\" topo_parameters=\"");
		const char *sep = "";

		for (i = 0; i < 3; i++)
			if (n->dim[i] > 1 || (i == 2 && !*sep)) {
				m += (size_t)snprintf(topo + m, sizeof topo - m,
				    "%s%d", sep, n->dim[i]);
				sep = ",";
			}
		snprintf(topo + m, sizeof topo - m, "\"");
	}
	fprintf(f, "<?xml version='1.0'?>\n"
	    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	    "<!-- written by tr-to-ti: one host per node, a core per rank, "
	    "1 Gflop/s, so that\n     a flop is a ns -->\n"
	    "<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n");
	if (n->topo == TR_TOPO_DRAGONFLY || n->node_bw > 0)
		ti_routes(s, f, cores);
	else {
		fprintf(f, "<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
		    "radical=\"0-%ld\" speed=\"1Gf\" core=\"%ld\" "
		    "bw=\"%.17gBps\" lat=\"%.17gns\" "
		    "sharing_policy=\"SPLITDUPLEX\"", n->nodes - 1, cores,
		    n->link_bw * 1e9, n->link_lat);
		if (n->topo == TR_TOPO_CROSSBAR)
			fprintf(f, " bb_bw=\"%.17gBps\" bb_lat=\"%.17gns\" "
			    "bb_sharing_policy=\"FATPIPE\"", n->link_bw * 1e9,
			    n->sw_lat);
		fprintf(f, "%s loopback_bw=\"%.17gBps\" "
		    "loopback_lat=\"%.17gns\"/>\n", topo, n->intra_bw * 1e9,
		    n->intra_lat);
	}
	fprintf(f, "</zone>\n</platform>\n");
	xfclose(f, "platform.xml");
	f = xfopen(dir, "hostfile");
	for (r = 0; r < s->np; r++)
		fprintf(f, "n%ld\n", tr_net_node(n, r));
	xfclose(f, "hostfile");
	f = xfopen(dir, "smpirun.sh");
	/* network/optim:Full: SimGrid's default lazy update can leave a
	 * link oversubscribed when a flow's latency ends while other flows
	 * run (seen on tori); Full re-solves each change exactly.
	 * TCP-gamma:0: no TCP window bound (4 MiB / round trip), which
	 * tr-nsim does not model and which slows long-latency routes. */
	fprintf(f, "#!/bin/sh\n# Replays the trace with SMPI configured as "
	    "tr-nsim's model: no latency or\n# bandwidth correction factors, "
	    "sharing weighted by route latency, exact\n# re-solving, no TCP "
	    "window, eager below %lld bytes.\n"
	    "cd \"$(dirname \"$0\")\" && exec smpirun -np %ld -platform "
	    "platform.xml -hostfile hostfile \\\n"
	    "\t-replay index.txt --cfg=smpi/lat-factor:0:1 "
	    "--cfg=smpi/bw-factor:0:1 \\\n"
	    "\t--cfg=network/weight-S:0 --cfg=network/crosstraffic:0 "
	    "--cfg=network/optim:Full \\\n"
	    "\t--cfg=network/TCP-gamma:0 \\\n"
	    "\t--cfg=smpi/async-small-thresh:%lld "
	    "--cfg=smpi/send-is-detached-thresh:%lld \\\n",
	    (long long)eager, s->np, (long long)eager, (long long)eager);
	for (i = 0; i < TR_COLL_NOPS; i++)
		if (i != TR_COLL_SCAN && i != TR_COLL_REDSCAT)
			fprintf(f, "\t--cfg=smpi/%s:%s \\\n", tr_coll_name(i),
			    sg_coll(n, i));
	fprintf(f, "\t\"$@\"\n");
	xfclose(f, "smpirun.sh");
}

/* A request of the export; ACK: 1 if its receiver acknowledges a
 * synchronous send, 2 if it is such a send, waiting for that. */
struct tireq {
	long src, dst;
	int64_t tag;
	int recv, ack;
};

/* What stands for a file request, and for a buffered send, whose waits
 * export no wait. */
static struct tireq ti_io, ti_buf;

/* Whether request slot V holds a request of its own. */
static int
ti_own(const void *v)
{
	return v && v != &ti_io && v != &ti_buf;
}

/* The acknowledgement of synchronous sends: SimGrid sends a message
 * below its threshold at once, synchronous or not, so the export has the
 * receiver acknowledge it as Open MPI's ob1 and MPICH do, with a message
 * of no bytes on a tag of its own per tag (above those of decomposed
 * collectives). */
#define TI_ACKTAG(t) (2147483647LL - ((long long)(t) & 0xfffff))

/* What one rank's export holds back: the completions of the call being
 * written, and receives whose acknowledgement is not written yet. */
struct tihold {
	struct tireq *grp;
	size_t ngrp, grpcap;
	int64_t gseq;
	int64_t *pend;		/* req of each receive to acknowledge */
	size_t npend, pendcap;
};

/* Acknowledges the receives still to acknowledge: the rank is about to
 * block, and in MPI it would match them there at the latest. */
static void
ti_acks(struct tr_itab *reqs, struct tihold *h, FILE *f, long r)
{
	size_t i;

	for (i = 0; i < h->npend; i++) {
		void **v = tr_itab_get(reqs, r, h->pend[i], 0);
		struct tireq *q = v ? *v : NULL;

		if (!q || q->ack != 1)
			continue;
		fprintf(f, "%ld send %ld %lld 0\n", r, q->src,
		    TI_ACKTAG(q->tag));
		q->ack = 0;
	}
	h->npend = 0;
}

/* Writes the completions of one call: the waits, then the
 * acknowledgements its receives send, then those its sends wait for. */
static void
ti_group(struct tr_itab *reqs, struct tihold *h, FILE *f, long r)
{
	size_t i;

	if (!h->ngrp)
		return;
	ti_acks(reqs, h, f, r);
	for (i = 0; i < h->ngrp; i++)
		fprintf(f, "%ld wait %ld %ld %lld\n", r, h->grp[i].src,
		    h->grp[i].dst, (long long)h->grp[i].tag);
	for (i = 0; i < h->ngrp; i++)
		if (h->grp[i].ack == 1)
			fprintf(f, "%ld send %ld %lld 0\n", r, h->grp[i].src,
			    TI_ACKTAG(h->grp[i].tag));
	for (i = 0; i < h->ngrp; i++)
		if (h->grp[i].ack == 2)
			fprintf(f, "%ld recv %ld %lld 0\n", r, h->grp[i].dst,
			    TI_ACKTAG(h->grp[i].tag));
	h->ngrp = 0;
}

static void
ti_decompose(struct tr_nsim *s, FILE *f, long r, const struct item *it,
    struct rcomm *c)
{
	struct tr_coll co;
	struct tr_p2p *o;
	int op = it->coll & 0xff;
	/* TI has no communicators: the tag tells apart the collectives of
	 * different communicators as well as successive ones, so that no
	 * step takes another's message. */
	int64_t tag = 1000000 + ((int64_t)(c->gid & 1023) << 20 |
	    (c->cseq++ & 0xfffff));
	/* Each rank knows only its own total of a v-collective, and so
	 * its own share per step, not the sender's: a receive that might
	 * get more than it posts would fail in SMPI (MPI_ERR_TRUNCATE).
	 * Only the sender's size is transferred, so a bound is exact. */
	int bound = it->coll & TR_COLL_V || op == TR_COLL_REDSCAT;
	double red;
	int k, i;

	coll_setup(s, &co, r, it, c);
	tr_grow(&s->cops, &s->copscap, (size_t)tr_coll_cap(&co),
	    sizeof *s->cops);
	o = s->cops;
	while ((k = tr_coll_next(&co, o, (long)s->copscap)) > 0) {
		for (i = 0; i < k; i++)
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    o[i].send ? "isend" : "irecv",
			    coll_peer(s, c->gid, r, o[i].peer), (long long)tag,
			    (long long)(bound && !o[i].send ? s->maxbytes :
			    o[i].bytes));
		for (i = 0; i < k; i++) {
			long p = coll_peer(s, c->gid, r, o[i].peer);
			fprintf(f, "%ld wait %ld %ld %lld\n", r,
			    o[i].send ? r : p, o[i].send ? p : r,
			    (long long)tag);
		}
		red = red_time(s, o, k);
		ti_flush(f, r, &red);
	}
}

static void
ti_coll(struct tr_nsim *s, FILE *f, long r, const struct item *it, int all)
{
	struct rcomm *c = rank_comm(s, r, it->comm, it);
	int op = it->coll & 0xff;
	long n = comm_size(s, c->gid);
	int64_t b = coll_block(it, n, c->me, coll_root(s, c->gid, it->root));
	int64_t root = it->root < 0 ? 0 : it->root;

	/* SimGrid's own reductions compute only at the end: where they
	 * take time, they are its steps and each step's computation. */
	if (all || c->gid != 0 || it->coll & TR_COLL_V ||
	    op == TR_COLL_REDSCAT || op == TR_COLL_SCAN ||
	    op == TR_COLL_NEIGHBOR || (s->net->red_bw > 0 &&
	    (op == TR_COLL_REDUCE || op == TR_COLL_ALLREDUCE))) {
		ti_decompose(s, f, r, it, c);
		return;
	}
	c->cseq++;
	switch (op) {
	case TR_COLL_BARRIER:
		fprintf(f, "%ld barrier\n", r);
		break;
	case TR_COLL_BCAST:
		fprintf(f, "%ld bcast %lld %lld\n", r, (long long)b,
		    (long long)root);
		break;
	case TR_COLL_REDUCE:
		fprintf(f, "%ld reduce %lld 0 %lld\n", r, (long long)b,
		    (long long)root);
		break;
	case TR_COLL_ALLREDUCE:
		fprintf(f, "%ld allreduce %lld 0\n", r, (long long)b);
		break;
	case TR_COLL_GATHER:
	case TR_COLL_SCATTER:
		fprintf(f, "%ld %s %lld %lld %lld\n", r, tr_coll_name(op),
		    (long long)b, (long long)b, (long long)root);
		break;
	case TR_COLL_ALLGATHER:
	case TR_COLL_ALLTOALL:
		fprintf(f, "%ld %s %lld %lld\n", r, tr_coll_name(op),
		    (long long)b, (long long)b);
		break;
	}
}

/* The cost of each window or communicator made (or window freed), the
 * least duration over its ranks, by communicator and order: the k-th
 * such call of every member of a communicator is the same instance, as
 * collectives are called in one order. A communicator without its comm
 * record is left out: writing its rank's file says so, at the record. */
static void
ti_make_mins(struct tr_nsim *s)
{
	size_t i, k;

	for (i = 0; i < s->makes.cap; i++) {
		const struct tr_islot *e = &s->makes.s[i];
		const struct tmake *m = e->v;
		void **v, **w;
		long gid;

		if (!m)
			continue;
		v = tr_itab_get(&s->rc, e->a, e->b, 0);
		if (v && ((struct rcomm *)*v)->gid >= 0)
			gid = ((struct rcomm *)*v)->gid;
		else if (e->b == 0 || e->b == 1 || e->b == -1)
			gid = e->b == 1 ? 1 : 0;
		else
			continue;
		for (k = 0; k < m->n; k++) {
			w = tr_itab_get(&s->makemin, gid, (int64_t)k, 1);
			if (!*w) {
				*w = tr_malloc(sizeof(int64_t));
				*(int64_t *)*w = m->dur[k];
			} else if (m->dur[k] < *(int64_t *)*w)
				*(int64_t *)*w = m->dur[k];
		}
	}
}

/* The cost of rank R's call IT, which makes a window or communicator on
 * GID: written as computation after its barrier, as tr-nsim adds it. */
static double
ti_make_cost(struct tr_nsim *s, long r, const struct item *it, long gid)
{
	void **v = tr_itab_get(&s->makes, r, it->comm, 0), **w;
	struct tmake *m;

	if (!v)
		return 0;
	m = *v;
	w = tr_itab_get(&s->makemin, gid, (int64_t)m->next++, 0);
	return w && *(int64_t *)*w > 0 ? (double)*(int64_t *)*w : 0;
}

static void
ti_rank(struct tr_nsim *s, const char *dir, long r, int all)
{
	char name[64];
	const void *p;
	size_t n;
	double acc = 0;
	struct tr_itab reqs = {0};
	int64_t ioseq = -1;
	long mprobed = 0;	/* MPI_Mprobe exported as the receive */
	struct tihold h = {0};
	FILE *f;
	size_t i;

	snprintf(name, sizeof name, "rank%ld.txt", r);
	f = xfopen(dir, name);
	fprintf(f, "%ld init\n", r);
	while (tr_spool_next(s->sp, r, &p, &n)) {
		const struct item *it = p;
		struct tireq *q;
		void **v;
		long peer;
		long long tag, rtag, b;
		int64_t wsrc, wtag;

		peer = (long)it->peer;
		tag = (long long)it->tag;
		b = (long long)it->bytes;

		acc += (double)it->dt * s->scale;
		if (it->type == TR_REG)
			continue;
		/* A receive that took a larger message (MPI_ERR_TRUNCATE)
		 * has room for any: SMPI's replay would refuse it. */
		if (s->nfail && ((it->cls == TR_MPI_RECV && it->type ==
		    TR_FAIL) || (it->cls == TR_MPI_IRECV &&
		    tr_itab_get(&s->ticut, r, it->seq, 0))))
			b = (long long)s->maxbytes;
		if (h.ngrp && !((it->cls == TR_MPI_WAIT || it->cls ==
		    TR_MPI_TEST) && it->seq == h.gseq))
			ti_group(&reqs, &h, f, r);
		/* the MPI_Mrecv of a message exported at its MPI_Mprobe */
		if ((it->cls == TR_MPI_RECV || it->cls == TR_MPI_IRECV) &&
		    it->coll == TR_P2P_MATCHED && mprobed > 0) {
			mprobed--;
			continue;
		}
		switch (it->cls) {
		case TR_MPI_SEND:
		case TR_MPI_SSEND:
		case TR_MPI_RECV:
			if (peer < 0)	/* MPI_PROC_NULL */
				break;
			ti_flush(f, r, &acc);
			if (it->coll == TR_P2P_BUF) {
				/* buffered: nothing waits for it (smpirun
				 * does at the end) */
				fprintf(f, "%ld isend %ld %lld %lld\n", r, peer,
				    tag, b);
				acc += buf_copy(s->net, b);
				break;
			}
			ti_acks(&reqs, &h, f, r);
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    it->cls == TR_MPI_RECV ? "recv" : "send", peer, tag,
			    b);
			if (it->cls == TR_MPI_SSEND && b < s->tieager)
				fprintf(f, "%ld recv %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			else if (it->cls == TR_MPI_RECV && chan_recv(s, peer, r,
			    tag))
				fprintf(f, "%ld send %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			break;
		case TR_MPI_ISEND:
		case TR_MPI_IRECV:
			/* SMPI's replay has no MPI_ANY_TAG either: wildcard
			 * tags take the completion's too. */
			if (it->cls == TR_MPI_IRECV) {
				struct tr_wildq wq = {it->seq, it->peer,
				    it->tag, it->req};

				tr_wild_resolve(s->wild, r, &wq, &wsrc, &wtag,
				    NULL, NULL);
				peer = (long)wsrc;
				tag = wtag;
			}
			if (peer < 0)
				break;
			ti_flush(f, r, &acc);
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    it->cls == TR_MPI_IRECV ? "irecv" : "isend", peer,
			    tag, b);
			if (it->req < 0)
				break;
			v = tr_itab_get(&reqs, r, it->req, 1);
			if (it->coll == TR_P2P_BUF) {
				/* its wait waits for nothing */
				acc += buf_copy(s->net, b);
				if (ti_own(*v))
					free(*v);
				*v = &ti_buf;
				break;
			}
			if (!ti_own(*v))
				*v = tr_malloc(sizeof *q);
			q = *v;
			q->src = it->cls == TR_MPI_ISEND ? r : peer;
			q->dst = it->cls == TR_MPI_ISEND ? peer : r;
			q->tag = tag;
			q->recv = it->cls == TR_MPI_IRECV;
			q->ack = 0;
			if (q->recv && chan_recv(s, peer, r, tag)) {
				q->ack = 1;
				tr_grow(&h.pend, &h.pendcap, h.npend + 1,
				    sizeof *h.pend);
				h.pend[h.npend++] = it->req;
			} else if (!q->recv && it->coll == TR_P2P_SYNC &&
			    b < s->tieager)
				q->ack = 2;
			break;
		case TR_MPI_SENDRECV:
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			if (peer >= 0)
				fprintf(f, "%ld isend %ld %lld %lld\n", r, peer, tag,
				    b);
			/* The trace has the bytes sent, not those received.
			 * The tag received is in req; a trace without it is
			 * taken to receive with the tag it sends (SMPI's
			 * replay has no MPI_ANY_TAG). */
			rtag = it->req >= 0 ? it->req : tag;
			if (it->root >= 0)
				fprintf(f, "%ld irecv %lld %lld %lld\n", r,
				    (long long)it->root, rtag,
				    (long long)s->maxbytes);
			if (peer >= 0)
				fprintf(f, "%ld wait %ld %ld %lld\n", r, r, peer,
				    tag);
			if (it->root >= 0)
				fprintf(f, "%ld wait %lld %ld %lld\n", r,
				    (long long)it->root, r, rtag);
			if (it->root >= 0 && chan_recv(s, (long)it->root, r,
			    rtag))
				fprintf(f, "%ld send %lld %lld 0\n", r,
				    (long long)it->root, TI_ACKTAG(rtag));
			break;
		case TR_MPI_PROBE:
			/* No probe there. MPI_Mprobe takes its message out of
			 * matching: it is the receive, so that what the rank
			 * computes before its MPI_Mrecv follows the message,
			 * as in tr-nsim. After MPI_Probe, the receive waits
			 * in its place. */
			if (peer < 0 || peer >= s->np) {
				acc += (double)it->dur;
				break;
			}
			if (it->coll != TR_P2P_MATCHED)
				break;
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			fprintf(f, "%ld recv %ld %lld %lld\n", r, peer, tag, b);
			if (chan_recv(s, peer, r, tag))
				fprintf(f, "%ld send %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			mprobed++;
			break;
		case TR_MPI_CANCEL:
			/* SimGrid's replay cannot cancel: the irecv is left
			 * pending, and nothing waits for it. */
			acc += (double)it->dur;
			if (it->req < 0 || !(v = tr_itab_get(&reqs, r, it->req,
			    0)) || !ti_own(*v) || !((struct tireq *)*v)->recv)
				break;
			s->ncancel++;
			free(*v);
			tr_itab_del(&reqs, r, it->req);
			break;
		case TR_MPI_WAIT:
		case TR_MPI_TEST:
			if (found_nothing(it))
				acc += poll_time(s, it);
			if (it->req < 0 || !(v = tr_itab_get(&reqs, r, it->req, 0)))
				break;
			if (*v == &ti_buf) {
				tr_itab_del(&reqs, r, it->req);
				break;
			}
			if (*v == &ti_io) {
				/* as tr-nsim: the time the I/O took, once
				 * for the call however many it completes */
				if (it->seq != ioseq)
					acc += (double)it->dur;
				ioseq = it->seq;
				tr_itab_del(&reqs, r, it->req);
				break;
			}
			if (!h.ngrp) {
				ti_flush(f, r, &acc);
				h.gseq = it->seq;
			}
			tr_grow(&h.grp, &h.grpcap, h.ngrp + 1, sizeof *h.grp);
			h.grp[h.ngrp++] = *(struct tireq *)*v;
			free(*v);
			tr_itab_del(&reqs, r, it->req);
			break;
		case TR_MPI_COLL:
		case TR_MPI_ICOLL:
		case TR_MPI_COMMNEW:
		case TR_MPI_FENCE:
			if (gridless(s, r, it)) {
				acc += (double)it->dur;
				break;
			}
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			ti_coll(s, f, r, it, all);
			s->nicoll += it->cls == TR_MPI_ICOLL;
			if (it->cls == TR_MPI_COMMNEW)
				acc += ti_make_cost(s, r, it, rank_comm(s, r,
				    it->comm, it)->gid);
			break;
		case TR_MPI_RMA:
			s->nrma += it->peer >= 0;
			acc += (double)it->dur;
			break;
		case TR_MPI_IFILE:
			acc += (double)it->dur;
			if (it->req < 0)
				break;
			v = tr_itab_get(&reqs, r, it->req, 1);
			if (ti_own(*v))
				free(*v);
			*v = &ti_io;
			break;
		default:
			acc += found_nothing(it) ? poll_time(s, it) :
			    (double)it->dur;
		}
	}
	ti_group(&reqs, &h, f, r);
	ti_flush(f, r, &acc);
	ti_acks(&reqs, &h, f, r);
	fprintf(f, "%ld finalize\n", r);
	xfclose(f, name);
	free(h.grp);
	free(h.pend);
	for (i = 0; i < reqs.cap; i++)
		if (ti_own(reqs.s[i].v))
			free(reqs.s[i].v);
	tr_itab_free(&reqs);
}

void
tr_nsim_ti(struct tr_nsim *s, const char *dir, int all)
{
	FILE *idx;
	long r;
	int lost;

	if (!s->sp || s->np == 0)
		tr_die(TR_EXIT_DATA, "no ev records to export");
	if (s->net->sharing == TR_SHARE_FAIR && s->net->topo != TR_TOPO_CROSSBAR)
		tr_warn("SimGrid shares links by route latency, not "
		    "fairly: its times will differ from tr-nsim's");
	if (s->net->model == TR_MODEL_LOGGP || s->net->o > 0 || s->net->g > 0)
		tr_warn("LogGP is not exported (SimGrid replays the links "
		    "and no o or g): its times will differ from tr-nsim's");
	if (s->net->nitime > 1 && s->net->ppn > 1)
		tr_warn("intra-time is not exported (SimGrid's loopback has "
		    "the intra-latency and intra-bandwidth): its times will "
		    "differ from tr-nsim's within a node");
	tr_spool_seal(s->sp);
	tr_wild_seal(s->wild);
	tr_net_eager(s->net, s->src);
	tr_net_build(s->net, s->np);
	if (s->net->sw_lat > 0 && (s->net->topo == TR_TOPO_FATTREE ||
	    s->net->topo == TR_TOPO_TORUS))
		tr_warn("switch-latency is not exported (SimGrid's %s "
		    "routers have none): its times will differ from "
		    "tr-nsim's", s->net->topo == TR_TOPO_TORUS ? "TORUS" :
		    "FAT_TREE");
	s->tieager = ti_eager(s, &lost);
	if (lost)
		tr_warn("SimGrid has one eager threshold: messages within a "
		    "node are exported with eager-threshold's %lld bytes, not "
		    "intra-eager-threshold's %lld", (long long)s->net->eager,
		    (long long)s->net->intra_eager);
	ti_platform(s, dir);
	ti_make_mins(s);
	idx = xfopen(dir, "index.txt");
	for (r = 0; r < s->np; r++) {
		ti_rank(s, dir, r, all);
		fprintf(idx, "rank%ld.txt\n", r);
	}
	xfclose(idx, "index.txt");
	if (s->nrma)
		tr_warn("%s: SimGrid's replay has no one-sided communication: "
		    "%lld transfers (MPI_Put, MPI_Get, ...) are exported as "
		    "the time their calls took, without their messages",
		    s->file ? s->file : "stdin", (long long)s->nrma);
	if (s->nicoll)
		tr_warn("%s: SimGrid's replay has no nonblocking collectives: "
		    "%lld are exported as blocking ones where they start, so "
		    "no computation overlaps them, and a replay may deadlock "
		    "where ranks start them in different orders or go on "
		    "receiving while one is in flight (NBX)", s->file ? s->file :
		    "stdin", (long long)s->nicoll);
	if (s->ncancel)
		tr_warn("%s: SimGrid's replay cannot cancel: %lld receives "
		    "cancelled by MPI_Cancel are exported, and smpirun waits "
		    "for them at the end", s->file ? s->file : "stdin",
		    (long long)s->ncancel);
	if (s->nfail)
		tr_warn("%s: SimGrid's replay has no calls that fail: %lld fail "
		    "records are exported as the calls that did their work "
		    "(a truncated receive with room for the whole message, a "
		    "completion), the others as the time they took",
		    s->file ? s->file : "stdin", (long long)s->nfail);
	s->nrma = s->nicoll = s->ncancel = s->nfail = 0;
	reset(s);
}
