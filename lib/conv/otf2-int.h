/* otf2-int.h - what the files of the OTF2 reader share: the tables of
 * an archive's definitions and the state of each rank's calls; and
 * libotf2's messages, which the writer shares too. */
#ifndef TR_OTF2_INT_H
#define TR_OTF2_INT_H

#include <otf2/otf2.h>

#include "conv.h"

#define MAXID (1u << 24)	/* definitions of one kind, as TR_MAXNP */
#define OTF2_MSGLEN 512		/* libotf2's last message */

struct region {
	char *name, *site;	/* NULL: not defined */
	int mpi;
};

struct group {
	int type;
	uint64_t *m;
	uint32_t n;
};

struct comm {
	int defined, mpi, self, world;
	uint32_t group;
	int32_t *id;		/* the rank's id for it, by member index */
	struct tr_itab pos;	/* world rank + 1 -> member index + 1 */
};

/* One ev record of a call, or one reg record, waiting to be written. */
struct item {
	struct tr_ev e;
	int reg, leave, pending;	/* pending: an MPI_Irecv's source unknown */
};

struct rank {
	int64_t seq, last;		/* last: time of its previous event */
	uint64_t nev;			/* events read, for messages */
	uint32_t *stack;		/* regions entered */
	size_t depth, cap;
	int64_t start;			/* the current MPI call's enter */
	uint32_t call;			/* its region; UINT32_MAX: none */
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
	char **str;
	size_t nstr;
	struct region *reg;
	size_t nreg;
	struct group *grp;
	size_t ngrp;
	struct comm *comm;
	size_t ncomm;
	struct { uint32_t comm; int defined; } *win;	/* RMA windows */
	size_t nwin;
	struct tr_itab winno;		/* (rank, window) -> its number + 1 */
	int64_t *nwins;			/* windows each rank made */
	struct { uint32_t node; int defined, taken; } *lg;
	size_t nlg;			/* location groups */
	struct { uint32_t name, parent; } *node;
	size_t nnode;
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
