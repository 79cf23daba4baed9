/* otf2-int.h - what the files of the OTF2 reader share: the tables of
 * an archive's definitions and the state of each rank's calls; and
 * libotf2's messages, which the writer shares too. */
#ifndef TR_OTF2_INT_H
#define TR_OTF2_INT_H

#include <otf2/otf2.h>

#include "conv.h"

#define OTF2_MSGLEN 512		/* libotf2's last message */

/* The definitions of one kind: entries e[0..n) in the order defined,
 * found by id through ix (id -> index + 1). Ids are an archive's to
 * choose (any 32-bit value but the last, a merged archive's may start
 * anywhere): memory follows the definitions it has, not the largest id
 * it gives one. */
#define DEFS(type) struct { type *e; size_t n, cap; struct tr_itab ix; }
/* The entry of definition ID in DEFS T, or NULL. */
#define DEF_FIND(t, id) otf2_def_find((t).e, &(t).ix, sizeof *(t).e, id)
/* The same, added at the end, zeroed, when ID has none. */
#define DEF_ADD(t, id) otf2_def_add(&(t).e, &(t).n, &(t).cap, &(t).ix, \
	sizeof *(t).e, id)
#define DEFS_FREE(t) (free((t).e), tr_itab_free(&(t).ix))

struct region {
	char *name, *site;
	int mpi;
};

struct group {
	int type;
	uint64_t *m;
	uint32_t n;
};

struct comm {
	uint32_t ref;		/* its id */
	int mpi, self, world;
	size_t group;		/* its group's index */
	int32_t *id;		/* the rank's id for it, by member index */
	struct tr_itab pos;	/* world rank + 1 -> member index + 1 */
};

struct lgroup {
	uint32_t node;		/* its system tree node */
	int taken;		/* a location of it is a rank */
};

/* One ev record of a call, or one reg record, waiting to be written. */
struct item {
	struct tr_ev e;
	int reg, leave, pending;	/* pending: an MPI_Irecv's source unknown */
};

struct rank {
	int64_t seq, last;		/* last: time of its previous event */
	uint64_t nev;			/* events read, for messages */
	uint32_t *stack;		/* regions entered, by index */
	size_t depth, cap;
	int64_t start;			/* the current MPI call's enter */
	uint32_t call;			/* its region's index; UINT32_MAX:
					 * none */
	struct item *it;		/* its records */
	size_t nit, itcap;
	struct item *held;		/* records written when resolved */
	size_t h0, nheld, heldcap, npending;
};

struct send {
	int64_t peer, bytes, tag, comm;
};

struct otf2in {
	const char *anchor;
	struct tr_out *o;
	char errmsg[OTF2_MSGLEN];
	int defer;			/* an error's status, said after reading */
	char defermsg[OTF2_MSGLEN];
	uint64_t tps, offset;
	int clock;
	DEFS(char *) str;
	DEFS(struct region) reg;
	DEFS(struct group) grp;
	DEFS(struct comm) comm;
	DEFS(uint32_t) win;		/* RMA windows' communicators */
	struct tr_itab winno;		/* (rank, window) -> its number + 1 */
	int64_t *nwins;			/* windows each rank made */
	DEFS(struct lgroup) lg;		/* location groups */
	DEFS(uint32_t) node;		/* system tree nodes: their names */
	struct { uint64_t id; uint32_t group; int type; } *loc;
	size_t nloc;
	int64_t *rankof;		/* location index -> world rank, -1 */
	uint64_t *rloc;			/* world rank -> location id */
	long np;
	struct rank *rk;
	struct tr_itab locix;		/* location id + 1 -> index + 1 */
	struct tr_itab sends;		/* (rank, request) -> struct send */
	uint64_t skipped[64];
	const char *skipname[64];
	int nskip;
	uint64_t other_threads, cancelled, unwaited;
};

/* otf2def.c */
/* libotf2's error callback: UD is a buffer of OTF2_MSGLEN for the
 * message; otf2_fail dies with it, or RC's description, unless RC is
 * OTF2_SUCCESS. */
OTF2_ErrorCode otf2_on_error(void *ud, const char *file, uint64_t line,
    const char *func, OTF2_ErrorCode code, const char *fmt, va_list ap);
void otf2_fail(int status, const char *name, const char *msg,
    OTF2_ErrorCode rc, const char *what);
void otf2_check(struct otf2in *x, OTF2_ErrorCode rc, const char *what);
_Noreturn void otf2_bad_event(struct otf2in *x, uint64_t loc, const char *fmt,
    ...);
void otf2_skip(struct otf2in *x, const char *kind);
void *otf2_def_find(void *e, struct tr_itab *ix, size_t sz, uint64_t id);
void *otf2_def_add(void *pe, size_t *n, size_t *cap, struct tr_itab *ix,
    size_t sz, uint64_t id);
const char *otf2_string(struct otf2in *x, OTF2_StringRef s);
/* Reads the global definitions; dies where they cannot make a trace. */
void otf2_read_defs(struct otf2in *x, OTF2_Reader *rd);
/* World ranks of the locations, and each rank's communicator ids. */
void otf2_map_ranks(struct otf2in *x);
void otf2_map_comms(struct otf2in *x);
void otf2_free_defs(struct otf2in *x);

/* otf2in.c: the rank of an event's location (NULL: a thread left
 * out), its time in ns; a new record of the rank's current call; a
 * rank of a communicator as a world rank, a communicator as ME's id. */
struct rank *otf2_rank_of(struct otf2in *x, uint64_t loc, OTF2_TimeStamp t,
    int64_t *r, int64_t *now);
struct item *otf2_newitem(struct rank *k);
struct comm *otf2_comm(struct otf2in *x, uint64_t loc, OTF2_CommRef c);
int64_t otf2_comm_world(struct otf2in *x, uint64_t loc, OTF2_CommRef c,
    uint32_t r);
int64_t otf2_comm_id(struct otf2in *x, uint64_t loc, OTF2_CommRef c,
    int64_t me);

/* An event callback NAME of the global reader, after its fixed
 * arguments. */
#define EVT(name, ...) static OTF2_CallbackCode \
	name(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud, \
	    OTF2_AttributeList *al, __VA_ARGS__)

/* Inside an MPI call of rank R, or an error. */
#define INCALL(kind) \
	struct otf2in *x = ud; \
	int64_t r, now; \
	struct rank *k = otf2_rank_of(x, loc, t, &r, &now); \
	(void)al, (void)now; \
	if (!k) \
		return OTF2_CALLBACK_SUCCESS; \
	if (k->call == UINT32_MAX) \
		otf2_bad_event(x, loc, "%s outside an MPI call", kind)

/* otf2rma.c */
void otf2_rma_callbacks(OTF2_GlobalEvtReaderCallbacks *cb);

#endif
