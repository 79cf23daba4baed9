/* waits-int.h - tr-waits' state and the internals its files share. */
#ifndef TR_WAITS_INT_H
#define TR_WAITS_INT_H

#include <stdlib.h>
#include <string.h>

#include "analyse.h"

/* The kinds of wait, in the order of the records. */
enum { LATE_SENDER, LATE_RECEIVER, WAIT_BARRIER, WAIT_NXN, LATE_BCAST,
	EARLY_REDUCE, NKINDS };

/* One ev record as spooled. */
struct item {
	int64_t seq, start, end, peer, bytes, tag, req, root;
	int32_t cls, coll, comm, site, op;	/* op: of collectives, in ops */
	int32_t unhold;		/* an MPI_Win_free: its window lets go */
};

#define SELF (-2)		/* MPI_COMM_SELF: nobody to wait for */
#define FREE (-1)		/* cls: MPI_Comm_free, or a hold let go */

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

static inline int64_t
clamp(int64_t t, int64_t max)
{
	return t < 0 ? 0 : t > max ? max : t;
}

/* ---- waits-read.c: the section, spooled as the replay needs it ---- */

void waits_newcomm(struct tr_waits *w, size_t i, int64_t size);
void waits_take(void *ctx, const struct tr_rec *r);
void waits_end_reading(struct tr_waits *w);
int waits_more(struct tr_waits *w, int64_t rank, int wild);

/* ---- waits-p2p.c: messages matched, late senders and receivers ---- */

int64_t waits_post(struct tr_waits *w, int64_t rank, int64_t peer,
    int32_t comm, int64_t tag, int64_t start, int send, int64_t bytes);
void waits_cancel(struct tr_waits *w, int64_t i);
void waits_complete(struct tr_waits *w, int64_t i, const struct item *it);
void waits_setreq(struct tr_waits *w, int64_t rank, int64_t req, int64_t pop);
int64_t waits_takereq(struct tr_waits *w, int64_t rank, int64_t req);
void waits_unmatched(struct tr_waits *w, struct tr_in *in);

/* ---- waits-coll.c: collectives, and those some rank never entered ---- */

void waits_coll(struct tr_waits *w, int64_t rank, const struct item *it);
void waits_cinst_free(struct cinst *c);
void waits_comm_freed(struct tr_waits *w, int32_t c);
void waits_unfinished(struct tr_waits *w, struct tr_in *in);

/* ---- waits-out.c: the waits and blames counted, and their records ---- */

void waits_charge(struct tr_waits *w, int kind, int64_t rank, int32_t site,
    int64_t t, int64_t culprit);
void waits_report(struct tr_waits *w, struct tr_out *o);

#endif
