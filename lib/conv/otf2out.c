/* otf2out.c - a tr stream written as an OTF2 archive through libotf2's
 * writer, in the mapping tr-from-otf2 reads back.
 *
 * Events go to each rank's event writer as their records come, in any
 * interleaving of ranks; libotf2 flushes its buffers to disk. What the
 * global definitions need (strings, regions, communicators, the clock)
 * is kept until the end, when they are written: memory grows with the
 * ranks and the definitions, not with the trace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "otf2-int.h"

#define NONE UINT32_MAX

enum { REQ_SEND = 1, REQ_RECV, REQ_OTHER };

struct oreq {
	int kind;
	int64_t peer, bytes, tag, comm;
};

struct orank {
	OTF2_EvtWriter *w;
	uint32_t call;		/* the open MPI call's region; NONE: none */
	int64_t seq, end, last;	/* its seq and end; the last time written */
	int64_t nextid;		/* the id readers will give its next comm */
	long lastcomm;		/* the index of its last comm record */
	int renumbered;
};

struct ocomm {
	long *m, n;
};

struct tr_otf2out {
	const char *dir;
	OTF2_Archive *ar;
	char errmsg[OTF2_MSGLEN];
	long np;
	struct orank *rk;
	struct tr_map *str;		/* strings: index is the StringRef */
	struct tr_map *reg;		/* kind byte + name: the RegionRef */
	struct { uint32_t name; OTF2_RegionRole role; OTF2_Paradigm pd; } *rg;
	size_t nrg, rgcap;
	struct tr_comms *comms;
	struct ocomm *cm;		/* by tr_comms index */
	size_t ncm;
	struct tr_itab cid;		/* (rank, id) -> comm index + 1 */
	struct tr_itab cpos;		/* (comm index, rank) -> position + 1 */
	struct tr_itab req;		/* (rank, req) -> struct oreq */
	int64_t tmin, tmax;
	int any;
};

/* ---- messages ---- */

static void
check(struct tr_otf2out *x, OTF2_ErrorCode rc, const char *what)
{
	otf2_fail(TR_EXIT_SYS, x->dir, x->errmsg, rc, what);
}

static OTF2_FlushType
pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cd,
    bool final)
{
	(void)ud, (void)ft, (void)loc, (void)cd, (void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cb = { pre_flush, NULL };

/* ---- definitions kept ---- */

static uint32_t
string(struct tr_otf2out *x, const char *s, size_t n)
{
	return (uint32_t)tr_map_get(x->str, s, n, 1);
}

/* The role Score-P gives MPI function NAME. */
static OTF2_RegionRole
mpi_role(const char *name, size_t n)
{
	int sub, cls = tr_mpi_class(name, n, &sub);

	switch (cls) {
	case TR_MPI_SEND: case TR_MPI_SSEND: case TR_MPI_ISEND:
	case TR_MPI_RECV: case TR_MPI_IRECV: case TR_MPI_SENDRECV:
		return OTF2_REGION_ROLE_POINT2POINT;
	case TR_MPI_COLL:
		switch (sub & 0xff) {
		case TR_COLL_BARRIER:
			return OTF2_REGION_ROLE_BARRIER;
		case TR_COLL_BCAST: case TR_COLL_SCATTER:
			return OTF2_REGION_ROLE_COLL_ONE2ALL;
		case TR_COLL_REDUCE: case TR_COLL_GATHER:
			return OTF2_REGION_ROLE_COLL_ALL2ONE;
		case TR_COLL_SCAN:
			return OTF2_REGION_ROLE_COLL_OTHER;
		default:
			return OTF2_REGION_ROLE_COLL_ALL2ALL;
		}
	case TR_MPI_RMA:
		return OTF2_REGION_ROLE_RMA;
	case TR_MPI_IFILE:
		return OTF2_REGION_ROLE_FILE_IO;
	default:
		return OTF2_REGION_ROLE_FUNCTION;
	}
}

/* The region of an ev's op (MPI) or a reg's name (a user region). */
static uint32_t
region(struct tr_otf2out *x, int mpi, struct tr_field name)
{
	char key[TR_MAXLINE + 2];
	size_t n = name.n;
	long i;

	if (mpi && memchr(name.p, ':', n))	/* MPI_Start:Send_init */
		n = (size_t)((const char *)memchr(name.p, ':', n) - name.p);
	key[0] = mpi ? 'M' : 'U';
	memcpy(key + 1, name.p, n);
	i = tr_map_get(x->reg, key, n + 1, 1);
	if ((size_t)i == x->nrg) {
		tr_grow(&x->rg, &x->rgcap, ++x->nrg, sizeof *x->rg);
		x->rg[i].name = string(x, name.p, n);
		x->rg[i].role = mpi ? mpi_role(name.p, n) :
		    OTF2_REGION_ROLE_FUNCTION;
		x->rg[i].pd = mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER;
	}
	return (uint32_t)i;
}

static void
comm_rec(struct tr_otf2out *x, struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank = tr_get_i64(in, r, 1), id = tr_get_i64(in, r, 2);
	struct orank *k;
	long i, j;
	int made;

	if (rank < 0 || rank >= x->np)
		tr_in_die(in, "comm record of rank %lld, but np=%ld",
		    (long long)rank, x->np);
	if (id < 2)		/* MPI_COMM_WORLD, MPI_COMM_SELF */
		return;
	k = &x->rk[rank];
	i = tr_comms_get(x->comms, rank, &r->f[4], &made);
	if (made) {
		struct ocomm *c;

		tr_growz(&x->cm, &x->ncm, (size_t)i + 1, sizeof *x->cm);
		c = &x->cm[i];
		if (tr_members(r->f[4].p, r->f[4].n, &c->m, &c->n) < 0)
			tr_in_die(in, "comm record: bad members list");
		for (j = 0; j < c->n; j++) {
			if (c->m[j] < 0 || c->m[j] >= x->np)
				tr_in_die(in, "comm record: member %ld is no "
				    "rank of np=%ld", c->m[j], x->np);
			*tr_itab_get(&x->cpos, i, c->m[j], 1) =
			    (void *)(intptr_t)(j + 1);
		}
	}
	/* Readers number a rank's communicators in order of definition. */
	if (id != k->nextid++ || i < k->lastcomm)
		k->renumbered = 1;
	k->lastcomm = i;
	*tr_itab_get(&x->cid, rank, id, 1) = (void *)(intptr_t)(i + 1);
}

/* The CommRef of communicator ID of RANK: 0 the world, 1 itself. */
static uint32_t
comm_ref(struct tr_otf2out *x, struct tr_in *in, int64_t rank, int64_t id)
{
	void **v;

	if (id == 0 || id == 1)
		return (uint32_t)id;
	v = id > 0 ? tr_itab_get(&x->cid, rank, id, 0) : NULL;
	if (!v)
		tr_in_die(in, "communicator %lld of rank %lld has no comm "
		    "record before it", (long long)id, (long long)rank);
	return (uint32_t)((intptr_t)*v - 1 + 2);
}

static long
comm_size(struct tr_otf2out *x, uint32_t c)
{
	return c == 0 ? x->np : c == 1 ? 1 : x->cm[c - 2].n;
}

/* World rank W's rank in communicator C, NONE for -1. */
static uint32_t
comm_rank(struct tr_otf2out *x, struct tr_in *in, uint32_t c, int64_t me,
    int64_t w)
{
	void **v;

	if (w < 0)
		return NONE;
	if (c == 0 && w < x->np)
		return (uint32_t)w;
	if (c == 1 && w == me)
		return 0;
	v = c >= 2 ? tr_itab_get(&x->cpos, c - 2, w, 0) : NULL;
	if (!v)
		tr_in_die(in, "rank %lld is not a member of rank %lld's "
		    "communicator", (long long)w, (long long)me);
	return (uint32_t)((intptr_t)*v - 1);
}

/* ---- events ---- */

/* The reader has checked that a rank's records do not go back; the
 * events of one call's records are written in order all the same. */
static OTF2_TimeStamp
at(struct orank *k, int64_t t)
{
	if (t > k->last)
		k->last = t;
	return (OTF2_TimeStamp)k->last;
}

static struct orank *
rank_of(struct tr_otf2out *x, struct tr_in *in, int64_t r, int64_t t)
{
	struct orank *k;

	if (r < 0 || r >= x->np)
		tr_in_die(in, "a record of rank %lld, but np=%ld",
		    (long long)r, x->np);
	k = &x->rk[r];
	if (!k->w && !(k->w = OTF2_Archive_GetEvtWriter(x->ar,
	    (OTF2_LocationRef)r)))
		check(x, OTF2_ERROR_MEM_ALLOC_FAILED, "an event writer");
	if (!x->any || t < x->tmin)
		x->tmin = t;
	x->any = 1;
	return k;
}

static void
end_call(struct tr_otf2out *x, struct orank *k)
{
	if (k->call == NONE)
		return;
	check(x, OTF2_EvtWriter_Leave(k->w, NULL, at(k, k->end), k->call),
	    "writing events");
	if (k->end > x->tmax)
		x->tmax = k->end;
	k->call = NONE;
}

static void
reg_rec(struct tr_otf2out *x, struct tr_in *in, const struct tr_reg *g)
{
	struct orank *k = rank_of(x, in, g->rank, g->time);
	uint32_t reg = region(x, 0, g->name);

	end_call(x, k);
	check(x, (g->leave ? OTF2_EvtWriter_Leave : OTF2_EvtWriter_Enter)(
	    k->w, NULL, at(k, g->time), reg), "writing events");
	if (g->time > x->tmax)
		x->tmax = g->time;
}

static uint32_t
tag32(int64_t t)
{
	return t < 0 || t > INT32_MAX ? NONE : (uint32_t)t;
}

static OTF2_CollectiveOp
coll_op(const char *op, size_t n)
{
	static const struct { const char *name; OTF2_CollectiveOp op; } t[] = {
		{ "Barrier", OTF2_COLLECTIVE_OP_BARRIER },
		{ "Bcast", OTF2_COLLECTIVE_OP_BCAST },
		{ "Gather", OTF2_COLLECTIVE_OP_GATHER },
		{ "Gatherv", OTF2_COLLECTIVE_OP_GATHERV },
		{ "Scatter", OTF2_COLLECTIVE_OP_SCATTER },
		{ "Scatterv", OTF2_COLLECTIVE_OP_SCATTERV },
		{ "Allgather", OTF2_COLLECTIVE_OP_ALLGATHER },
		{ "Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV },
		{ "Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL },
		{ "Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV },
		{ "Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW },
		{ "Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE },
		{ "Reduce", OTF2_COLLECTIVE_OP_REDUCE },
		{ "Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER },
		{ "Reduce_scatter_block",
		    OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK },
		{ "Scan", OTF2_COLLECTIVE_OP_SCAN },
		{ "Exscan", OTF2_COLLECTIVE_OP_EXSCAN },
	};
	size_t i;

	if (n > 4 && memcmp(op, "MPI_", 4) == 0)
		for (i = 0; i < sizeof t / sizeof t[0]; i++)
			if (strlen(t[i].name) == n - 4 &&
			    memcmp(t[i].name, op + 4, n - 4) == 0)
				return t[i].op;
	return NONE & 0xff;
}

/* Score-P's sent and received bytes of a collective of B bytes (tr's:
 * the buffer of one peer) on rank ME of N: what tr-from-otf2 turns back
 * into B. */
static void
coll_bytes(OTF2_CollectiveOp op, uint64_t n, uint64_t me, int root,
    uint64_t b, uint64_t *s, uint64_t *rv)
{
	*s = *rv = b;
	switch (op) {
	case OTF2_COLLECTIVE_OP_BARRIER:
		*s = *rv = 0;
		break;
	case OTF2_COLLECTIVE_OP_BCAST:
	case OTF2_COLLECTIVE_OP_SCATTER:
		*s = root ? n * b : 0;
		break;
	case OTF2_COLLECTIVE_OP_GATHER:
		*rv = root ? n * b : 0;
		break;
	case OTF2_COLLECTIVE_OP_GATHERV:
		*s = root ? 0 : b;
		*rv = root ? b : 0;
		break;
	case OTF2_COLLECTIVE_OP_SCATTERV:
		*s = root ? b : 0;
		*rv = root ? 0 : b;
		break;
	case OTF2_COLLECTIVE_OP_REDUCE:
		*rv = root ? n * b : 0;
		break;
	case OTF2_COLLECTIVE_OP_ALLGATHER:
	case OTF2_COLLECTIVE_OP_ALLTOALL:
	case OTF2_COLLECTIVE_OP_ALLREDUCE:
	case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
		*s = *rv = n * b;
		break;
	case OTF2_COLLECTIVE_OP_SCAN:
		*s = (n - me) * b;
		*rv = (me + 1) * b;
		break;
	case OTF2_COLLECTIVE_OP_EXSCAN:
		*s = (n - 1 - me) * b;
		*rv = me * b;
		break;
	default:
		break;
	}
}

static void
collective(struct tr_otf2out *x, struct tr_in *in, struct orank *k,
    const struct tr_ev *e, OTF2_CollectiveOp op)
{
	uint32_t c = comm_ref(x, in, e->rank, e->comm);
	uint32_t root = comm_rank(x, in, c, e->rank, e->root);
	uint32_t me = comm_rank(x, in, c, e->rank, e->rank);
	uint64_t s, rv;

	coll_bytes(op, (uint64_t)comm_size(x, c), me, e->root == e->rank,
	    (uint64_t)e->bytes, &s, &rv);
	check(x, OTF2_EvtWriter_MpiCollectiveBegin(k->w, NULL, at(k,
	    e->start)), "writing events");
	check(x, OTF2_EvtWriter_MpiCollectiveEnd(k->w, NULL, at(k, e->end),
	    op, c, root, s, rv), "writing events");
}

static void
newreq(struct tr_otf2out *x, const struct tr_ev *e, int kind)
{
	void **v = tr_itab_get(&x->req, e->rank, e->req, 1);
	struct oreq *q;

	if (!*v)
		*v = tr_malloc(sizeof *q);
	q = *v;
	q->kind = kind;
	q->peer = e->peer;
	q->bytes = e->bytes;
	q->tag = e->tag;
	q->comm = e->comm;
}

/* A record of a completion call for request E->req. */
static void
complete(struct tr_otf2out *x, struct tr_in *in, struct orank *k,
    const struct tr_ev *e)
{
	void **v = tr_itab_get(&x->req, e->rank, e->req, 0);
	struct oreq *q;

	if (!v)
		tr_in_die(in, "rank %lld completes request %lld, which it "
		    "never started", (long long)e->rank, (long long)e->req);
	q = *v;
	if (q->kind == REQ_SEND) {
		check(x, OTF2_EvtWriter_MpiIsendComplete(k->w, NULL, at(k,
		    e->end), (uint64_t)e->req), "writing events");
	} else if (q->kind == REQ_RECV) {
		/* what the status said, or else what the post asked */
		const struct oreq *st = e->peer >= 0 ? &(struct oreq){ 0,
		    e->peer, e->bytes, e->tag, e->comm } : q;
		uint32_t c = comm_ref(x, in, e->rank, st->comm >= 0 ?
		    st->comm : q->comm);

		check(x, OTF2_EvtWriter_MpiIrecv(k->w, NULL, at(k, e->end),
		    comm_rank(x, in, c, e->rank, st->peer), c, tag32(st->tag),
		    (uint64_t)st->bytes, (uint64_t)e->req), "writing events");
	}
	free(q);
	tr_itab_del(&x->req, e->rank, e->req);
}

static void
ev_rec(struct tr_otf2out *x, struct tr_in *in, const struct tr_ev *e)
{
	struct orank *k = rank_of(x, in, e->rank, e->start);
	int cls, sub;
	uint32_t c;

	if (k->call != NONE && k->seq != e->seq)
		end_call(x, k);
	if (k->call == NONE) {
		k->call = region(x, 1, e->op);
		k->seq = e->seq;
		k->end = e->end;
		check(x, OTF2_EvtWriter_Enter(k->w, NULL, at(k, e->start),
		    k->call), "writing events");
	}
	if (e->end > k->end)
		k->end = e->end;
	cls = tr_mpi_class(e->op.p, e->op.n, &sub);
	switch (cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_SENDRECV:
		c = comm_ref(x, in, e->rank, e->comm);
		if (e->peer >= 0)
			check(x, OTF2_EvtWriter_MpiSend(k->w, NULL, at(k,
			    e->start), comm_rank(x, in, c, e->rank, e->peer),
			    c, tag32(e->tag), (uint64_t)e->bytes),
			    "writing events");
		if (cls == TR_MPI_SENDRECV && e->root >= 0)
			check(x, OTF2_EvtWriter_MpiRecv(k->w, NULL, at(k,
			    e->end), comm_rank(x, in, c, e->rank, e->root),
			    c, tag32(e->req >= 0 ? e->req : e->tag),
			    (uint64_t)e->bytes), "writing events");
		break;
	case TR_MPI_ISEND:
		c = comm_ref(x, in, e->rank, e->comm);
		newreq(x, e, REQ_SEND);
		check(x, OTF2_EvtWriter_MpiIsend(k->w, NULL, at(k, e->start),
		    comm_rank(x, in, c, e->rank, e->peer), c, tag32(e->tag),
		    (uint64_t)e->bytes, (uint64_t)e->req), "writing events");
		break;
	case TR_MPI_RECV:
		c = comm_ref(x, in, e->rank, e->comm);
		if (e->peer >= 0)
			check(x, OTF2_EvtWriter_MpiRecv(k->w, NULL, at(k,
			    e->end), comm_rank(x, in, c, e->rank, e->peer),
			    c, tag32(e->tag), (uint64_t)e->bytes),
			    "writing events");
		break;
	case TR_MPI_IRECV:
		newreq(x, e, REQ_RECV);
		check(x, OTF2_EvtWriter_MpiIrecvRequest(k->w, NULL, at(k,
		    e->start), (uint64_t)e->req), "writing events");
		break;
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (e->req >= 0)
			complete(x, in, k, e);
		break;
	case TR_MPI_COLL:
		if (coll_op(e->op.p, e->op.n) != (NONE & 0xff))
			collective(x, in, k, e, coll_op(e->op.p, e->op.n));
		break;
	case TR_MPI_COMMNEW:
		if (e->comm >= 0)
			collective(x, in, k, e,
			    OTF2_COLLECTIVE_OP_CREATE_HANDLE);
		if (e->req >= 2 && tr_itab_get(&x->cid, e->rank, e->req, 0))
			check(x, OTF2_EvtWriter_CommCreate(k->w, NULL, at(k,
			    e->end), comm_ref(x, in, e->rank, e->req)),
			    "writing events");
		break;
	default:
		if (tr_is_comm_free(e) && e->comm >= 2 &&
		    tr_itab_get(&x->cid, e->rank, e->comm, 0)) {
			check(x, OTF2_EvtWriter_CommDestroy(k->w, NULL, at(k,
			    e->start), comm_ref(x, in, e->rank, e->comm)),
			    "writing events");
			break;
		}
		if (e->req >= 0)
			newreq(x, e, REQ_OTHER);
	}
}

/* ---- the archive ---- */

struct tr_otf2out *
tr_otf2out_open(const char *dir)
{
	struct tr_otf2out *x;

	if (mkdir(dir, 0777) < 0)
		tr_die(TR_EXIT_SYS, "%s:", dir);
	x = tr_calloc(1, sizeof *x);
	x->dir = dir;
	x->str = tr_map_new();
	x->reg = tr_map_new();
	x->comms = tr_comms_new();
	x->np = -1;
	return x;
}

/* The archive, once the ranks are known: a definition chunk holds the
 * largest definition, a group of every rank, and each rank's local
 * definitions take one, so it is no larger than that needs. */
static void
archive(struct tr_otf2out *x, long np)
{
	uint64_t chunk = 256 * 1024;
	long i;

	while (chunk < 16u * 1024 * 1024 && chunk < (uint64_t)np * 8 + 4096)
		chunk *= 2;
	x->np = np;
	x->rk = tr_calloc((size_t)(np ? np : 1), sizeof *x->rk);
	for (i = 0; i < np; i++) {
		x->rk[i].call = NONE;
		x->rk[i].nextid = 2;
	}
	OTF2_Error_RegisterCallback(otf2_on_error, x->errmsg);
	x->ar = OTF2_Archive_Open(x->dir, "traces", OTF2_FILEMODE_WRITE,
	    256 * 1024, chunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!x->ar)
		tr_die(TR_EXIT_SYS, "%s: cannot make an OTF2 archive: %s",
		    x->dir, x->errmsg);
	check(x, OTF2_Archive_SetFlushCallbacks(x->ar, &flush_cb, NULL),
	    "opening");
	check(x, OTF2_Archive_SetSerialCollectiveCallbacks(x->ar), "opening");
	check(x, OTF2_Archive_SetCreator(x->ar, "tr-to-otf2 " TR_VERSION),
	    "opening");
	check(x, OTF2_Archive_OpenEvtFiles(x->ar), "opening the event files");
}

void
tr_otf2out_add(struct tr_otf2out *x, struct tr_in *in, const struct tr_rec *r)
{
	if (x->np < 0) {
		int64_t np;

		if (tr_meta_i64(in, "np", &np) < 0)
			tr_in_die(in, "no #meta np: the ranks are not known");
		archive(x, (long)np);
	}
	if (r->type == TR_EV)
		ev_rec(x, in, &r->u.ev);
	else if (r->type == TR_REG)
		reg_rec(x, in, &r->u.reg);
	else if (r->type == TR_COMM)
		comm_rec(x, in, r);
}

static void
write_group(struct tr_otf2out *x, OTF2_GlobalDefWriter *d, uint32_t self,
    OTF2_GroupType type, const long *m, long n)
{
	uint64_t *u = tr_malloc((size_t)(n ? n : 1) * sizeof *u);
	long i;

	for (i = 0; i < n; i++)
		u[i] = m ? (uint64_t)m[i] : (uint64_t)i;
	check(x, OTF2_GlobalDefWriter_WriteGroup(d, self, string(x, "", 0),
	    type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)n, u),
	    "writing definitions");
	free(u);
}

static void
write_defs(struct tr_otf2out *x, struct tr_in *in, OTF2_GlobalDefWriter *d,
    const uint64_t *nev)
{
	uint32_t *node = tr_malloc((size_t)(x->np ? x->np : 1) *
	    sizeof *node), *lname = tr_malloc((size_t)(x->np ? x->np : 1) *
	    sizeof *lname);
	struct tr_map *hosts = tr_map_new();
	char key[48];
	size_t i, n;
	long r;

	check(x, OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000,
	    (uint64_t)x->tmin, (uint64_t)(x->tmax - x->tmin),
	    OTF2_UNDEFINED_TIMESTAMP), "writing definitions");
	/* Strings first: the others refer to them. */
	string(x, "", 0);
	string(x, "machine", 7);
	string(x, "node", 4);
	string(x, "MPI_COMM_WORLD", 14);
	string(x, "MPI_COMM_SELF", 13);
	for (r = 0; r < x->np; r++) {
		const char *h;

		snprintf(key, sizeof key, "host.%ld", r);
		h = in ? tr_meta(in, key) : NULL;
		node[r] = 0;
		if (h && *h) {
			long j = tr_map_get(hosts, h, strlen(h), 1);

			node[r] = (uint32_t)j + 1;
			string(x, h, strlen(h));
		}
		snprintf(key, sizeof key, "rank %ld", r);
		lname[r] = string(x, key, strlen(key));
	}
	for (i = 0; i < x->ncm; i++) {
		snprintf(key, sizeof key, "comm %zu", i);
		string(x, key, strlen(key));
	}
	for (i = 0; i < tr_map_len(x->str); i++) {
		const char *s = tr_map_key(x->str, (long)i, &n);
		char *z = tr_strndup(s, n);

		check(x, OTF2_GlobalDefWriter_WriteString(d, (uint32_t)i, z),
		    "writing definitions");
		free(z);
	}
	check(x, OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0,
	    string(x, "", 0), string(x, "machine", 7),
	    OTF2_UNDEFINED_SYSTEM_TREE_NODE), "writing definitions");
	for (i = 0; i < tr_map_len(hosts); i++) {
		const char *h = tr_map_key(hosts, (long)i, &n);

		check(x, OTF2_GlobalDefWriter_WriteSystemTreeNode(d,
		    (uint32_t)i + 1, string(x, h, n), string(x, "node", 4), 0),
		    "writing definitions");
	}
	for (r = 0; r < x->np; r++)
		check(x, OTF2_GlobalDefWriter_WriteLocationGroup(d, (uint32_t)r,
		    lname[r], OTF2_LOCATION_GROUP_TYPE_PROCESS, node[r],
		    OTF2_UNDEFINED_LOCATION_GROUP), "writing definitions");
	for (r = 0; r < x->np; r++)
		check(x, OTF2_GlobalDefWriter_WriteLocation(d,
		    (OTF2_LocationRef)r, lname[r], OTF2_LOCATION_TYPE_CPU_THREAD,
		    nev[r], (uint32_t)r), "writing definitions");
	for (i = 0; i < tr_map_len(x->reg); i++)
		check(x, OTF2_GlobalDefWriter_WriteRegion(d, (uint32_t)i,
		    x->rg[i].name, x->rg[i].name, string(x, "", 0),
		    x->rg[i].role, x->rg[i].pd, OTF2_REGION_FLAG_NONE, string(x, "", 0), 0, 0),
		    "writing definitions");
	write_group(x, d, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, NULL, x->np);
	write_group(x, d, 1, OTF2_GROUP_TYPE_COMM_GROUP, NULL, x->np);
	write_group(x, d, 2, OTF2_GROUP_TYPE_COMM_SELF, NULL, 0);
	for (i = 0; i < x->ncm; i++)
		write_group(x, d, (uint32_t)i + 3, OTF2_GROUP_TYPE_COMM_GROUP,
		    x->cm[i].m, x->cm[i].n);
	check(x, OTF2_GlobalDefWriter_WriteComm(d, 0, string(x,
	    "MPI_COMM_WORLD", 14), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
	    "writing definitions");
	check(x, OTF2_GlobalDefWriter_WriteComm(d, 1, string(x,
	    "MPI_COMM_SELF", 13), 2, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
	    "writing definitions");
	for (i = 0; i < x->ncm; i++) {
		snprintf(key, sizeof key, "comm %zu", i);
		check(x, OTF2_GlobalDefWriter_WriteComm(d, (uint32_t)i + 2,
		    string(x, key, strlen(key)), (uint32_t)i + 3, 0,
		    OTF2_COMM_FLAG_NONE), "writing definitions");
	}
	tr_map_free(hosts);
	free(node);
	free(lname);
}

/* Writes the definitions and closes the archive; IN (NULL: none) gives
 * the section's hosts. Warns, unless QUIET, of what readers will number
 * otherwise. */
void
tr_otf2out_close(struct tr_otf2out *x, struct tr_in *in, int quiet)
{
	OTF2_GlobalDefWriter *d;
	uint64_t *nev;
	long r, ren = 0;
	size_t i;

	if (x->np < 0)
		archive(x, 0);
	nev = tr_calloc((size_t)(x->np ? x->np : 1), sizeof *nev);
	for (r = 0; r < x->np; r++) {
		struct orank *k = &x->rk[r];

		if (!k->w && !(k->w = OTF2_Archive_GetEvtWriter(x->ar,
		    (OTF2_LocationRef)r)))
			check(x, OTF2_ERROR_MEM_ALLOC_FAILED, "an event writer");
		end_call(x, k);
		check(x, OTF2_EvtWriter_GetNumberOfEvents(k->w, &nev[r]),
		    "writing events");
		check(x, OTF2_Archive_CloseEvtWriter(x->ar, k->w),
		    "writing events");
		ren += k->renumbered;
	}
	check(x, OTF2_Archive_CloseEvtFiles(x->ar), "closing the event files");
	check(x, OTF2_Archive_OpenDefFiles(x->ar), "opening definitions");
	for (r = 0; r < x->np; r++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(x->ar,
		    (OTF2_LocationRef)r);

		if (!dw)
			check(x, OTF2_ERROR_MEM_ALLOC_FAILED, "definitions");
		check(x, OTF2_Archive_CloseDefWriter(x->ar, dw), "definitions");
	}
	check(x, OTF2_Archive_CloseDefFiles(x->ar), "closing definitions");
	if (!(d = OTF2_Archive_GetGlobalDefWriter(x->ar)))
		check(x, OTF2_ERROR_MEM_ALLOC_FAILED, "definitions");
	write_defs(x, in, d, nev);
	check(x, OTF2_Archive_CloseGlobalDefWriter(x->ar, d), "definitions");
	check(x, OTF2_Archive_Close(x->ar), "closing the archive");
	OTF2_Error_RegisterCallback(NULL, NULL);
	if (ren && !quiet) {
		struct tr_ranklist l;
		char buf[256];

		tr_ranklist_init(&l, buf, sizeof buf);
		for (r = 0; r < x->np; r++)
			if (x->rk[r].renumbered)
				tr_ranklist_add(&l, r);
		tr_warn("%s: %s %s made communicators in another order than "
		    "the archive defines them: readers give them other ids",
		    x->dir, ren > 1 ? "ranks" : "rank", tr_ranklist_end(&l));
	}
	for (i = 0; i < x->req.cap; i++)
		free(x->req.s[i].v);
	tr_itab_free(&x->req);
	tr_itab_free(&x->cid);
	tr_itab_free(&x->cpos);
	for (i = 0; i < x->ncm; i++)
		free(x->cm[i].m);
	free(x->cm);
	tr_comms_free(x->comms);
	tr_map_free(x->str);
	tr_map_free(x->reg);
	free(x->rg);
	free(x->rk);
	free(nev);
	free(x);
}
