/* mpi/mpi.h - MPI semantics: calls, collectives, communicators, grids. */
#ifndef TR_MPI_H
#define TR_MPI_H

#include "../core/core.h"

/* ---- coll.c: MPI calls classified, collectives as point-to-point ---- */

/* Collective operations and the algorithms that decompose them. */
enum { TR_COLL_BARRIER, TR_COLL_BCAST, TR_COLL_REDUCE, TR_COLL_ALLREDUCE,
	TR_COLL_GATHER, TR_COLL_SCATTER, TR_COLL_ALLGATHER, TR_COLL_ALLTOALL,
	TR_COLL_REDSCAT, TR_COLL_SCAN, TR_COLL_NOPS };
enum { TR_ALG_BINOMIAL, TR_ALG_LINEAR, TR_ALG_RDB, TR_ALG_RING,
	TR_ALG_DISSEM, TR_ALG_PAIRWISE, TR_ALG_N };
#define TR_COLL_V 0x100	/* or-ed in by tr_mpi_class for v-variants */
/* or-ed in for the calls collective over the communicator they make
 * (MPI_Comm_create_group, MPI_Intercomm_create); see tr_ev_class */
#define TR_COLL_NEWC 0x200
/* Neighborhood collectives: every rank exchanges a block with each
 * neighbour of its Cartesian grid (outside the network's algorithms). */
#define TR_COLL_NEIGHBOR TR_COLL_NOPS

enum { TR_MPI_LOCAL, TR_MPI_SEND, TR_MPI_SSEND, TR_MPI_ISEND, TR_MPI_RECV,
	TR_MPI_IRECV, TR_MPI_SENDRECV, TR_MPI_WAIT, TR_MPI_TEST, TR_MPI_COLL,
	TR_MPI_ICOLL, TR_MPI_COMMNEW, TR_MPI_RMA, TR_MPI_RMASYNC,
	TR_MPI_FENCE, TR_MPI_IFILE, TR_MPI_CANCEL, TR_MPI_PROBE };
/* One-sided transfers (TR_MPI_RMA): a put or accumulate sends, a get
 * fetches, the fetching atomics do both. Completions (TR_MPI_RMASYNC) of
 * the transfers to one target, or to all of the window. */
enum { TR_RMA_PUT, TR_RMA_GET, TR_RMA_FETCH };
enum { TR_RMA_TARGET, TR_RMA_ALL };
/* A TR_MPI_ISEND that completes only once matched (MPI_Issend, a
 * started MPI_Ssend_init). */
#define TR_P2P_SYNC 1
/* A TR_MPI_PROBE that takes the message out of matching (MPI_Mprobe), and
 * the TR_MPI_RECV or TR_MPI_IRECV of such a message (MPI_Mrecv). */
#define TR_P2P_MATCHED 2
/* A TR_MPI_SEND or TR_MPI_ISEND that is done once its message is copied
 * into the buffer the program attached (MPI_Bsend, MPI_Ibsend, a started
 * MPI_Bsend_init): the library sends it from there, whenever its
 * receive is posted. */
#define TR_P2P_BUF 3
/* A TR_MPI_LOCAL call that runs the library's progress engine
 * (MPI_Iprobe, MPI_Improbe). */
#define TR_LOCAL_PROGRESS 1
/* The class of MPI function NAME; *coll gets the collective (TR_COLL_*)
 * for TR_MPI_COLL, TR_MPI_ICOLL, TR_MPI_COMMNEW and TR_MPI_FENCE (a
 * barrier), TR_RMA_* for TR_MPI_RMA and TR_MPI_RMASYNC, TR_P2P_* or 0 for
 * point-to-point calls. */
int tr_mpi_class(const char *name, size_t n, int *coll);
/* tr_mpi_class of E's op, and in *comm the communicator whose members
 * the call synchronises: E's own, or the one it makes (TR_COLL_NEWC,
 * cleared in *coll); without that one (req -1) it is TR_MPI_LOCAL. */
int tr_ev_class(const struct tr_ev *e, int *coll, int64_t *comm);
/* Whether fail record R, of class CLS (tr_ev_class), is replayed as the
 * call it records (a truncated receive, a request a failed completion
 * completed), rather than as a local call. */
int tr_fail_replayed(const struct tr_rec *r, int cls);
/* Whether E is an MPI_Comm_free (its comm the one freed). */
int tr_is_comm_free(const struct tr_ev *e);
/* Whether E makes a persistent point-to-point request (MPI_Send_init,
 * MPI_Recv_init and the like). */
int tr_is_pers_init(const struct tr_ev *e);
/* Whether E is an MPI_Request_free, which tr-record writes for a
 * persistent request only, its comm the one the request was made on. */
int tr_is_req_free(const struct tr_ev *e);

/* One step of a collective on one rank: its transfers, posted together
 * and all awaited; at most two, but the root of a linear broadcast posts
 * every send at once. Peers are ranks in the communicator. */
struct tr_p2p {
	long peer;
	int64_t bytes;
	int send;
	int red;		/* a receive whose bytes are then reduced into
				 * the rank's own (MPI_Reduce_local's work) */
};
struct tr_coll {
	int op, alg;
	int phase, redalg, bcalg;	/* a ring allreduce's reduce + bcast */
	long n, me, root;	/* communicator ranks */
	int64_t bytes;		/* as recorded for this rank, per block */
	long step, mask, aux;
	int nd;			/* TR_COLL_NEIGHBOR: the grid */
	const int *dims, *periods;
};
/* ALGS: the algorithm of every operation (struct tr_net's coll). */
void tr_coll_begin(struct tr_coll *c, int op, const int *algs, long n,
    long me, long root, int64_t bytes);
/* TR_COLL_NEIGHBOR: the Cartesian grid of ND dimensions (kept, not
 * copied); BYTES is then the block of one neighbour. */
void tr_coll_grid(struct tr_coll *c, int nd, const int *dims,
    const int *periods);
/* The room tr_coll_next needs. */
long tr_coll_cap(const struct tr_coll *c);
/* Fills ops (room for tr_coll_cap) with the next step; 0 when the
 * collective is over. */
int tr_coll_next(struct tr_coll *c, struct tr_p2p *ops, long cap);

/* ---- callops.c: the ops one MPI call's records name ---- */
struct tr_callops {		/* zero-initialised; free(op) */
	long *op;
	size_t n, cap;
};
/* 1 if OP (an index of the tool's own) is new to the call, which
 * NEWCALL starts: the call then counts under OP. */
int tr_callops_first(struct tr_callops *c, int newcall, long op);

/* ---- members.c: member lists of comm records ---- */

/* Parses "0-3,8,10-20:2" into world ranks, in *OUT (malloc'd) unless OUT
 * is NULL, their number in *CNT; -1 if malformed. */
int tr_members(const char *p, size_t n, long **out, long *cnt);

/* Communicator ids are numbered on each rank, in its order of creation
 * (tr-format(5)), so ranks that create different numbers of
 * communicators (MPI_Comm_create and MPI_UNDEFINED colours give some
 * ranks none) give one communicator different ids. It is the same
 * communicator on every member that created it k-th among those with
 * these members. tr_comms_get gives that communicator's index for a
 * comm record of rank RANK listing MEMBERS, in the order of the rank's
 * records, and sets *MADE when no other rank's record gave it before:
 * indexes are 0, 1, 2, ... in that order while none is dropped.
 * tr_comms_drop forgets a communicator its members have all freed (the
 * index is given out again, to the next one made). */
struct tr_comms;
struct tr_comms *tr_comms_new(void);
long tr_comms_get(struct tr_comms *c, int64_t rank,
    const struct tr_field *members, int *made);
/* The members list of communicator I as its comm records give it. */
const char *tr_comms_members(const struct tr_comms *c, long i, size_t *n);
void tr_comms_drop(struct tr_comms *c, long i);
void tr_comms_free(struct tr_comms *c);

/* ---- feed.c: a section read as a replay needs it (tr-nsim, tr-waits) ---- */

typedef void (*tr_feed_fn)(void *ctx, const struct tr_rec *r);
/* Reads IN's section on, giving each record to TAKE and header changes
 * to OUT, until *GOT equals WANT after a record (1), or to the
 * section's end (0; WANT < 0 reads to the end). */
int tr_feed(struct tr_in *in, struct tr_out *out, tr_feed_fn take, void *ctx,
    const int64_t *got, int64_t want);

/* ---- wild.c: sources of MPI_ANY_SOURCE receives, from completions ---- */

struct tr_wild;
struct tr_wild *tr_wild_new(void);
/* Every ev record of the section, in each rank's order; CLS from
 * tr_mpi_class. 1 if it resolved a wildcard receive of its rank. */
int tr_wild_read(struct tr_wild *w, const struct tr_ev *e, int cls);
/* Ends reading. */
void tr_wild_seal(struct tr_wild *w);
/* The source and tag that rank RANK's Irecv SEQ (peer -1) got; 0 if none
 * (never completed, or MPI_PROC_NULL); -1 if not known yet: before
 * tr_wild_seal, the rank's records read so far do not tell. */
int tr_wild_get(struct tr_wild *w, long rank, int64_t seq, int64_t *src,
    int64_t *tag);
/* The source and tag an MPI_Irecv takes: its own, or, with a wildcard
 * and a request, those of its completion when they are known, MORE(CTX,
 * RANK) reading on until they are (0 at the end; MORE may be NULL). One
 * from any source never completed keeps peer -1 and receives nothing. */
struct tr_wildq {
	int64_t seq, peer, tag, req;
};
void tr_wild_resolve(struct tr_wild *w, long rank, const struct tr_wildq *q,
    int64_t *src, int64_t *tag, int (*more)(void *, long), void *ctx);
void tr_wild_free(struct tr_wild *w);

/* ---- match.c: messages, each send matched to its receive ---- */

/* One end of a message: AT and FLAG are the caller's, given with the
 * record that makes the end (the send, the receive's completion). */
struct tr_msgend {
	int64_t rank, at, bytes, tag;
	int flag;
};
typedef void (*tr_match_fn)(void *ctx, const struct tr_msgend *send,
    const struct tr_msgend *recv);
struct tr_match;
/* FN is called for each message once both its ends are read. */
struct tr_match *tr_match_new(tr_match_fn fn, void *ctx);
/* Every comm record, and every ev record (CLS from tr_ev_class) in each
 * rank's order, of the section. */
void tr_match_comm(struct tr_match *m, const struct tr_in *in,
    const struct tr_rec *r);
void tr_match_ev(struct tr_match *m, const struct tr_ev *e, int cls,
    int64_t at, int flag);
/* At the section's end: the sends and the receives left unmatched,
 * which are forgotten. */
void tr_match_reset(struct tr_match *m, int64_t *sends, int64_t *recvs);
void tr_match_free(struct tr_match *m);

/* ---- grid.c: Cartesian process grids (row-major, as MPI_Cart_create) ---- */

#define TR_GRID_MAXD 3
struct tr_grid {
	int nd, dims[TR_GRID_MAXD], periodic[TR_GRID_MAXD];
	long np;
};
/* The grid of a cart record: up to MAX dimensions into DIMS and
 * PERIODS, their number in ND; -1 with what is wrong in ERR. */
#define TR_CART_MAXD 16
int tr_cart_read(const struct tr_rec *r, int max, int *nd, int *dims,
    int *periods, char *err, size_t errsz);
/* MPI_Dims_create's balanced factors of NP, non-increasing. */
void tr_grid_dims(long np, int nd, int *dims);
/* The grid of NP ranks in ND dimensions that the application chooses
 * whose grids at its recorded rank counts are REC (N of them, ND extents
 * each): MPI_Dims_create's extents over the dimensions that grow, in the
 * order of dimensions that REC shows (the lowest first where it shows
 * none), the dimensions of one extent in every grid of REC kept when
 * REC has two rank counts or more and a rule without them explains it
 * not. ORDER gets the dimensions that grow, the one of most ranks first,
 * then -1s; KEPT the mask of those kept. -1 if no such rule gives every
 * grid of REC, -2 if the kept extents do not divide NP. */
int tr_grid_learn(long np, int nd, const int (*rec)[TR_GRID_MAXD], size_t n,
    int *dims, int *order, unsigned *kept);
/* The grid of NP ranks (fewest dimensions, fewest periodic ones, most
 * balanced) in which every pair is a pair of neighbours; -1 if none. */
int tr_grid_infer(long np, const long (*pairs)[2], size_t n,
    struct tr_grid *g);
/* 1 if every pair is a nearest-neighbour pair on g. */
int tr_grid_explains(const struct tr_grid *g, const long (*pairs)[2],
    size_t n);
/* The index of the first pair that is not, -1 if none. */
long tr_grid_stray(const struct tr_grid *g, const long (*pairs)[2],
    size_t n);
void tr_grid_coords(const struct tr_grid *g, long rank, int *c);
/* The rank at coordinates C (wrapped where periodic), -1 outside. */
long tr_grid_rank(const struct tr_grid *g, const int *c);
/* Position class: per dimension low 0, interior 1, high 2, alone 3,
 * in base 4 (periodic dimensions are interior everywhere). */
int tr_grid_class(const struct tr_grid *g, long rank);

#endif
