/* otf2in.c - an OTF2 archive (Score-P, Scalasca, TAU) read through
 * libotf2's global event reader and written as a tr stream.
 *
 * An MPI call is an OTF2 Enter and Leave of an MPI region with the
 * communication events between them; it becomes an ev record at its
 * Leave. OTF2 says where a nonblocking receive came from only at its
 * completion, so a rank's records from an MPI_Irecv on are held until
 * the completion names its source: what is held is the rank's calls
 * between a receive's post and its wait, not the trace. */
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "otf2-int.h"

/* ---- writing ---- */

static void
members_out(struct tr_out *o, const uint64_t *m, uint32_t n)
{
	uint32_t i = 0, j;

	while (i < n) {
		for (j = i + 1; j < n && m[j] == m[j - 1] + 1; j++)
			;
		if (i)
			tr_out_c(o, ',');
		tr_out_i64(o, (int64_t)m[i]);
		if (j - i > 1) {
			tr_out_c(o, '-');
			tr_out_i64(o, (int64_t)m[j - 1]);
		}
		i = j;
	}
}

static void
header(struct otf2in *x)
{
	struct tr_out *o = x->o;
	long r;
	size_t c;
	uint32_t j;

	tr_out_begin(o);
	tr_out_printf(o, "#meta np=%ld\n", x->np);
	tr_out_str(o, "#meta tool=tr-from-otf2\n#meta clock=otf2\n");
	for (r = 0; r < x->np; r++) {
		void **v = tr_itab_get(&x->locix, (int64_t)x->rloc[r] + 1, 0,
		    0);
		size_t i = (size_t)(intptr_t)*v - 1;
		struct lgroup *g = DEF_FIND(x->lg, x->loc[i].group);
		uint32_t *node = g ? DEF_FIND(x->node, g->node) : NULL;
		const char *h;

		if (!node)
			continue;
		h = otf2_string(x, *node);
		if (h && *h && !strpbrk(h, "\t\n\r"))
			tr_out_printf(o, "#meta host.%ld=%s\n", r, h);
	}
	tr_out_fields(o, TR_EV);
	tr_out_fields(o, TR_REG);
	tr_out_fields(o, TR_COMM);
	for (r = 0; r < x->np; r++)
		tr_out_printf(o, "comm\t%ld\t1\t1\t%ld\n", r, r);
	for (c = 0; c < x->comm.n; c++) {
		struct comm *cm = &x->comm.e[c];
		struct group *g = &x->grp.e[cm->group];

		if (!cm->mpi || cm->self || cm->world)
			continue;
		for (j = 0; j < g->n; j++) {
			tr_out_printf(o, "comm\t%llu\t%d\t%u\t",
			    (unsigned long long)g->m[j], cm->id[j], g->n);
			members_out(o, g->m, g->n);
			tr_out_c(o, '\n');
		}
	}
}

static int64_t
ns(struct otf2in *x, uint64_t loc, OTF2_TimeStamp t)
{
	unsigned __int128 d;

	if (t < x->offset)
		otf2_bad_event(x, loc, "time %llu is before the clock's offset %llu",
		    (unsigned long long)t, (unsigned long long)x->offset);
	d = (unsigned __int128)(t - x->offset) * 1000000000u / x->tps;
	if (d > INT64_MAX)
		otf2_bad_event(x, loc, "time %llu is past 2^63 ns",
		    (unsigned long long)t);
	return (int64_t)d;
}

static void
put(struct otf2in *x, const struct item *it)
{
	if (it->reg) {
		struct tr_reg g = {0};

		g.rank = it->e.rank;
		g.seq = it->e.seq;
		g.time = it->e.start;
		g.cpu = -1;
		g.leave = it->leave;
		g.name = it->e.op;
		tr_out_reg(x->o, &g);
	} else {
		tr_out_ev(x->o, &it->e);
	}
}

/* Writes ITEM, or holds it behind the rank's unresolved receives. */
static void
emit(struct otf2in *x, struct rank *k, const struct item *it)
{
	if (k->nheld == k->h0 && !it->pending) {
		put(x, it);
		return;
	}
	if (k->h0 && k->nheld == k->heldcap) {
		memmove(k->held, k->held + k->h0, (k->nheld - k->h0) *
		    sizeof *k->held);
		k->nheld -= k->h0;
		k->h0 = 0;
	}
	tr_grow(&k->held, &k->heldcap, k->nheld + 1, sizeof *k->held);
	k->held[k->nheld++] = *it;
	k->npending += it->pending;
}

static void
release(struct otf2in *x, struct rank *k)
{
	while (k->h0 < k->nheld && !k->held[k->h0].pending)
		put(x, &k->held[k->h0++]);
	if (k->h0 == k->nheld)
		k->h0 = k->nheld = 0;
}

/* The held MPI_Irecv of request REQ learns its source. */
static void
resolve(struct otf2in *x, struct rank *k, int64_t req, int64_t peer,
    int64_t bytes, int64_t tag, int64_t comm)
{
	size_t i;

	for (i = k->h0; i < k->nheld; i++) {
		struct item *h = &k->held[i];

		if (h->pending && h->e.req == req) {
			h->pending = 0;
			h->e.peer = peer;
			h->e.bytes = bytes;
			h->e.tag = tag;
			h->e.comm = comm;
			k->npending--;
			release(x, k);
			return;
		}
	}
}

/* ---- events ---- */

struct rank *
otf2_rank_of(struct otf2in *x, uint64_t loc, OTF2_TimeStamp t, int64_t *r,
    int64_t *now)
{
	void **v = tr_itab_get(&x->locix, (int64_t)loc + 1, 0, 0);
	struct rank *k;

	if (!v)
		otf2_bad_event(x, loc, "an event of a location not defined");
	*r = x->rankof[(intptr_t)*v - 1];
	if (*r < 0) {
		x->other_threads++;
		return NULL;
	}
	k = &x->rk[*r];
	k->nev++;
	*now = ns(x, loc, t);
	if (*now < k->last)
		otf2_bad_event(x, loc, "time goes back (%lld ns after %lld ns)",
		    (long long)*now, (long long)k->last);
	k->last = *now;
	return k;
}

struct item *
otf2_newitem(struct rank *k)
{
	struct item *it;

	tr_grow(&k->it, &k->itcap, k->nit + 1, sizeof *k->it);
	it = &k->it[k->nit++];
	memset(it, 0, sizeof *it);
	it->e.peer = it->e.tag = it->e.comm = it->e.req = it->e.root = -1;
	return it;
}

struct comm *
otf2_comm(struct otf2in *x, uint64_t loc, OTF2_CommRef c)
{
	struct comm *cm = DEF_FIND(x->comm, c);

	if (!cm)
		otf2_bad_event(x, loc, "communicator %u is not defined", c);
	return cm;
}

/* The world rank of rank R of communicator C, and C's id on rank ME. */
int64_t
otf2_comm_world(struct otf2in *x, uint64_t loc, OTF2_CommRef c, uint32_t r)
{
	struct comm *cm;
	struct group *g;

	if (r == OTF2_UNDEFINED_UINT32)
		return -1;
	cm = otf2_comm(x, loc, c);
	g = &x->grp.e[cm->group];
	if (cm->self)
		return x->rankof[(intptr_t)*tr_itab_get(&x->locix,
		    (int64_t)loc + 1, 0, 0) - 1];
	if (r >= g->n)
		otf2_bad_event(x, loc, "rank %u of communicator %u, which has %u",
		    r, c, g->n);
	return (int64_t)g->m[r];
}

int64_t
otf2_comm_id(struct otf2in *x, uint64_t loc, OTF2_CommRef c, int64_t me)
{
	struct comm *cm = otf2_comm(x, loc, c);
	void **v;

	if (cm->self)
		return 1;
	if (!cm->mpi)
		return -1;
	v = tr_itab_get(&cm->pos, me + 1, 0, 0);
	if (!v)
		otf2_bad_event(x, loc, "rank %lld uses communicator %u, which it "
		    "is not a member of", (long long)me, c);
	return cm->id[(intptr_t)*v - 1];
}

EVT(on_enter, OTF2_RegionRef region)
{
	struct otf2in *x = ud;
	int64_t r, now;
	struct rank *k = otf2_rank_of(x, loc, t, &r, &now);
	struct region *g;

	(void)al;
	if (!k)
		return OTF2_CALLBACK_SUCCESS;
	if (!(g = DEF_FIND(x->reg, region)))
		otf2_bad_event(x, loc, "enters region %u, which is not defined",
		    region);
	tr_grow(&k->stack, &k->cap, k->depth + 1, sizeof *k->stack);
	k->stack[k->depth++] = (uint32_t)(g - x->reg.e);
	if (k->call != UINT32_MAX)
		return OTF2_CALLBACK_SUCCESS;	/* inside an MPI call */
	if (g->mpi) {
		k->call = (uint32_t)(g - x->reg.e);
		k->start = now;
		k->nit = 0;
		return OTF2_CALLBACK_SUCCESS;
	}
	{
		struct item it = {0};

		it.reg = 1;
		it.e.rank = r;
		it.e.seq = k->seq++;
		it.e.start = now;
		it.e.op.p = g->name;
		it.e.op.n = strlen(g->name);
		emit(x, k, &it);
	}
	return OTF2_CALLBACK_SUCCESS;
}

/* The call site of rank K's current call: its innermost region that is
 * not MPI's. */
static const char *
site_of(struct otf2in *x, struct rank *k)
{
	size_t i = k->depth;

	while (i-- > 0)
		if (!x->reg.e[k->stack[i]].mpi)
			return x->reg.e[k->stack[i]].site;
	return "-";
}

static void
end_call(struct otf2in *x, struct rank *k, int64_t r, int64_t now)
{
	struct region *g = &x->reg.e[k->call];
	const char *site = site_of(x, k);
	int64_t seq = k->seq++;
	size_t i;

	if (k->nit == 0)
		otf2_newitem(k);
	for (i = 0; i < k->nit; i++) {
		struct item *it = &k->it[i];

		it->e.rank = r;
		it->e.seq = seq;
		it->e.start = k->start;
		it->e.end = now;
		it->e.cpu = -1;
		if (!it->e.op.p) {
			it->e.op.p = g->name;
			it->e.op.n = strlen(g->name);
		}
		it->e.site.p = site;
		it->e.site.n = strlen(site);
		emit(x, k, it);
	}
	k->nit = 0;
	k->call = UINT32_MAX;
}

EVT(on_leave, OTF2_RegionRef region)
{
	struct otf2in *x = ud;
	int64_t r, now;
	struct rank *k = otf2_rank_of(x, loc, t, &r, &now);
	struct region *g;
	uint32_t i;

	(void)al;
	if (!k)
		return OTF2_CALLBACK_SUCCESS;
	g = DEF_FIND(x->reg, region);
	i = g ? (uint32_t)(g - x->reg.e) : UINT32_MAX;
	if (k->depth == 0 || k->stack[k->depth - 1] != i)
		otf2_bad_event(x, loc, "leaves region %u, which it is not in",
		    region);
	k->depth--;
	if (k->call == i && (k->depth == 0 ||
	    !x->reg.e[k->stack[k->depth - 1]].mpi)) {
		end_call(x, k, r, now);
	} else if (k->call == UINT32_MAX) {
		struct item it = {0};

		it.reg = 1;
		it.leave = 1;
		it.e.rank = r;
		it.e.seq = k->seq++;
		it.e.start = now;
		it.e.op.p = g->name;
		it.e.op.n = strlen(g->name);
		emit(x, k, &it);
	}
	return OTF2_CALLBACK_SUCCESS;
}

/* A point-to-point event of the call: a send, or a receive (RECV). A
 * send and a receive in one call are MPI_Sendrecv's one record: the
 * source in root, the tag received in req. */
static void
p2p(struct otf2in *x, struct rank *k, uint64_t loc, int64_t me, int recv,
    uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	int64_t w = otf2_comm_world(x, loc, comm, peer), id = otf2_comm_id(x, loc, comm,
	    me);
	struct item *it;

	if (len > INT64_MAX)
		otf2_bad_event(x, loc, "a message of %llu bytes",
		    (unsigned long long)len);
	if (k->nit == 1 && k->it[0].e.root == -1 && k->it[0].e.req == -1 &&
	    k->it[0].e.peer >= 0 && !k->it[0].pending) {
		it = &k->it[0];
		if (recv) {
			it->e.root = w;
			it->e.req = tag;
		} else {
			it->e.root = it->e.peer;
			it->e.req = it->e.tag;
			it->e.peer = w;
			it->e.bytes = (int64_t)len;
			it->e.tag = tag;
		}
		return;
	}
	it = otf2_newitem(k);
	it->e.peer = w;
	it->e.bytes = (int64_t)len;
	it->e.tag = tag;
	it->e.comm = id;
}

EVT(on_send, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	INCALL("MpiSend");
	p2p(x, k, loc, r, 0, peer, comm, tag, len);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_recv, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	INCALL("MpiRecv");
	p2p(x, k, loc, r, 1, peer, comm, tag, len);
	return OTF2_CALLBACK_SUCCESS;
}

static int64_t
request(struct otf2in *x, uint64_t loc, uint64_t req)
{
	if (req > INT64_MAX)
		otf2_bad_event(x, loc, "request id %llu", (unsigned long long)req);
	return (int64_t)req;
}

/* MPI_Start and MPI_Startall name the call that made the request. */
static void
started(struct otf2in *x, struct rank *k, struct item *it, const char *as)
{
	const char *nm = x->reg.e[k->call].name;

	if (strcmp(nm, "MPI_Start") == 0)
		it->e.op.p = strcmp(as, "Send_init") == 0 ?
		    "MPI_Start:Send_init" : "MPI_Start:Recv_init";
	else if (strcmp(nm, "MPI_Startall") == 0)
		it->e.op.p = strcmp(as, "Send_init") == 0 ?
		    "MPI_Startall:Send_init" : "MPI_Startall:Recv_init";
	if (it->e.op.p)
		it->e.op.n = strlen(it->e.op.p);
}

EVT(on_isend, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
    uint64_t req)
{
	struct item *it;
	struct send *s;
	void **v;

	INCALL("MpiIsend");
	it = otf2_newitem(k);
	it->e.peer = otf2_comm_world(x, loc, comm, peer);
	it->e.comm = otf2_comm_id(x, loc, comm, r);
	it->e.bytes = len > INT64_MAX ? INT64_MAX : (int64_t)len;
	it->e.tag = tag;
	it->e.req = request(x, loc, req);
	started(x, k, it, "Send_init");
	v = tr_itab_get(&x->sends, r, it->e.req, 1);
	if (!*v)
		*v = tr_malloc(sizeof *s);
	s = *v;
	s->peer = it->e.peer;
	s->bytes = it->e.bytes;
	s->tag = it->e.tag;
	s->comm = it->e.comm;
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_isend_done, uint64_t req)
{
	struct item *it;
	void **v;

	INCALL("MpiIsendComplete");
	it = otf2_newitem(k);
	it->e.req = request(x, loc, req);
	it->e.bytes = 0;
	v = tr_itab_get(&x->sends, r, it->e.req, 0);
	if (v) {
		struct send *s = *v;

		it->e.peer = s->peer;
		it->e.bytes = s->bytes;
		it->e.tag = s->tag;
		it->e.comm = s->comm;
		free(s);
		tr_itab_del(&x->sends, r, it->e.req);
	}
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_irecv_post, uint64_t req)
{
	struct item *it;

	INCALL("MpiIrecvRequest");
	it = otf2_newitem(k);
	it->e.req = request(x, loc, req);
	it->pending = 1;
	started(x, k, it, "Recv_init");
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_irecv_done, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
    uint64_t len, uint64_t req)
{
	struct item *it;
	size_t i;

	INCALL("MpiIrecv");
	it = otf2_newitem(k);
	it->e.req = request(x, loc, req);
	it->e.peer = otf2_comm_world(x, loc, comm, peer);
	it->e.comm = otf2_comm_id(x, loc, comm, r);
	it->e.bytes = len > INT64_MAX ? INT64_MAX : (int64_t)len;
	it->e.tag = tag;
	/* posted in this very call (MPI_Sendrecv's halves as requests) */
	for (i = 0; i + 1 < k->nit; i++)
		if (k->it[i].pending && k->it[i].e.req == it->e.req) {
			k->it[i].pending = 0;
			k->it[i].e.peer = it->e.peer;
			k->it[i].e.comm = it->e.comm;
			k->it[i].e.bytes = it->e.bytes;
			k->it[i].e.tag = it->e.tag;
		}
	resolve(x, k, it->e.req, it->e.peer, it->e.bytes, it->e.tag,
	    it->e.comm);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_test, uint64_t req)
{
	INCALL("MpiRequestTest");
	(void)req;
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_cancelled, uint64_t req)
{
	struct item *it;
	size_t i;

	INCALL("MpiRequestCancelled");
	it = otf2_newitem(k);
	it->e.req = request(x, loc, req);
	it->e.bytes = 0;
	for (i = k->h0; i < k->nheld; i++)
		if (k->held[i].pending && k->held[i].e.req == it->e.req)
			x->cancelled++;
	resolve(x, k, it->e.req, -1, 0, -1, -1);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
    OTF2_AttributeList *al)
{
	INCALL("MpiCollectiveBegin");
	return OTF2_CALLBACK_SUCCESS;
}

/* tr's bytes of a collective, from Score-P's sent and received bytes
 * (Score-P counts what every peer gets: an MPI_Allreduce of b bytes on
 * n ranks sends n b); tr-record writes b, the buffer's size. */
static int64_t
coll_bytes(OTF2_CollectiveOp op, uint64_t n, uint64_t me, int root,
    uint64_t s, uint64_t rv)
{
	if (n == 0)
		n = 1;
	switch (op) {
	case OTF2_COLLECTIVE_OP_BCAST:
	case OTF2_COLLECTIVE_OP_SCATTER:
		return (int64_t)(rv ? rv : s / n);
	case OTF2_COLLECTIVE_OP_GATHER:
		return (int64_t)(s ? s : n > 1 ? rv / (n - 1) : rv);
	case OTF2_COLLECTIVE_OP_GATHERV:
		return (int64_t)(root ? rv : s);
	case OTF2_COLLECTIVE_OP_SCATTERV:
		return (int64_t)(root ? s : rv);
	case OTF2_COLLECTIVE_OP_REDUCE:
	case OTF2_COLLECTIVE_OP_ALLTOALLV:
	case OTF2_COLLECTIVE_OP_ALLTOALLW:
	case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
		return (int64_t)s;
	case OTF2_COLLECTIVE_OP_ALLGATHERV:
		return (int64_t)rv;
	case OTF2_COLLECTIVE_OP_ALLGATHER:
	case OTF2_COLLECTIVE_OP_ALLTOALL:
	case OTF2_COLLECTIVE_OP_ALLREDUCE:
	case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
		/* in place, a rank sends to the others only */
		return (int64_t)(s % n == 0 ? s / n : n > 1 ? s / (n - 1) : s);
	case OTF2_COLLECTIVE_OP_SCAN:
		return (int64_t)(rv / (me + 1));
	case OTF2_COLLECTIVE_OP_EXSCAN:
		return (int64_t)(me ? rv / me : n > 1 ? s / (n - 1) : 0);
	default:
		return (int64_t)(s > rv ? s : rv);
	}
}

EVT(on_coll_end, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
    uint64_t sent, uint64_t recvd)
{
	struct item *it;
	struct comm *cm;
	void **v;
	uint64_t me = 0;

	INCALL("MpiCollectiveEnd");
	it = otf2_newitem(k);
	it->e.comm = otf2_comm_id(x, loc, comm, r);
	it->e.root = otf2_comm_world(x, loc, comm, root);
	cm = otf2_comm(x, loc, comm);
	v = cm->self ? NULL : tr_itab_get(&cm->pos, r + 1, 0, 0);
	if (v)
		me = (uint64_t)(intptr_t)*v - 1;
	it->e.bytes = coll_bytes(op, cm->self ? 1 : x->grp.e[cm->group].n, me,
	    it->e.root == r, sent, recvd);
	if (it->e.bytes < 0)
		it->e.bytes = INT64_MAX;
	return OTF2_CALLBACK_SUCCESS;
}

/* The communicator a call made (its req) or freed (its comm). */
static void
comm_event(struct otf2in *x, struct rank *k, uint64_t loc, int64_t r,
    OTF2_CommRef comm, int made)
{
	struct item *it = k->nit ? &k->it[k->nit - 1] : otf2_newitem(k);

	*(made ? &it->e.req : &it->e.comm) = otf2_comm_id(x, loc, comm, r);
}

EVT(on_comm_create, OTF2_CommRef comm)
{
	INCALL("CommCreate");
	comm_event(x, k, loc, r, comm, 1);
	return OTF2_CALLBACK_SUCCESS;
}

EVT(on_comm_destroy, OTF2_CommRef comm)
{
	INCALL("CommDestroy");
	comm_event(x, k, loc, r, comm, 0);
	return OTF2_CALLBACK_SUCCESS;
}

/* Event kinds that carry nothing tr records, counted; their values
 * are not read. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define SKIP(fn, kind, ...) EVT(fn, __VA_ARGS__) \
{ \
	(void)loc, (void)t, (void)al; \
	otf2_skip(ud, kind); \
	return OTF2_CALLBACK_SUCCESS; \
}
SKIP(sk_flush, "BufferFlush", OTF2_TimeStamp a)
SKIP(sk_onoff, "MeasurementOnOff", OTF2_MeasurementMode a)
SKIP(sk_metric, "Metric", OTF2_MetricRef a, uint8_t b,
    const OTF2_Type *c, const OTF2_MetricValue *d)
SKIP(sk_pstr, "ParameterString", OTF2_ParameterRef a, OTF2_StringRef b)
SKIP(sk_pint, "ParameterInt", OTF2_ParameterRef a, int64_t b)
SKIP(sk_puint, "ParameterUnsignedInt", OTF2_ParameterRef a, uint64_t b)
SKIP(sk_ompfork, "OmpFork", uint32_t a)
SKIP(sk_thfork, "ThreadFork", OTF2_Paradigm a, uint32_t b)
SKIP(sk_ccenter, "CallingContextEnter", OTF2_CallingContextRef a,
    uint32_t b)
SKIP(sk_ccsample, "CallingContextSample", OTF2_CallingContextRef a,
    uint32_t b, OTF2_InterruptGeneratorRef c)
SKIP(sk_iobegin, "IoOperationBegin", OTF2_IoHandleRef a,
    OTF2_IoOperationMode b, OTF2_IoOperationFlag c, uint64_t d,
    uint64_t e)

#pragma GCC diagnostic pop

/* Every other event kind the reader has no callback for. */
static OTF2_CallbackCode
sk_unknown(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
    OTF2_AttributeList *al)
{
	(void)loc, (void)t, (void)al;
	otf2_skip(ud, "unknown to this reader");
	return OTF2_CALLBACK_SUCCESS;
}

static void
register_events(struct otf2in *x, OTF2_Reader *rd, OTF2_GlobalEvtReader *ge)
{
	OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
	OTF2_ErrorCode rc;

	OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb,
	    on_isend_done);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb,
	    on_irecv_post);
	OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv_done);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_test);
	OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb,
	    on_cancelled);
	OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb,
	    on_coll_begin);
	OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb,
	    on_coll_end);
	OTF2_GlobalEvtReaderCallbacks_SetCommCreateCallback(cb,
	    on_comm_create);
	OTF2_GlobalEvtReaderCallbacks_SetCommDestroyCallback(cb,
	    on_comm_destroy);
	OTF2_GlobalEvtReaderCallbacks_SetBufferFlushCallback(cb, sk_flush);
	OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(cb,
	    sk_onoff);
	OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cb, sk_metric);
	OTF2_GlobalEvtReaderCallbacks_SetParameterStringCallback(cb, sk_pstr);
	OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(cb, sk_pint);
	OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(cb,
	    sk_puint);
	otf2_rma_callbacks(cb);
	OTF2_GlobalEvtReaderCallbacks_SetOmpForkCallback(cb, sk_ompfork);
	OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, sk_thfork);
	OTF2_GlobalEvtReaderCallbacks_SetCallingContextEnterCallback(cb,
	    sk_ccenter);
	OTF2_GlobalEvtReaderCallbacks_SetCallingContextSampleCallback(cb,
	    sk_ccsample);
	OTF2_GlobalEvtReaderCallbacks_SetIoOperationBeginCallback(cb,
	    sk_iobegin);
	OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(cb, sk_unknown);
	rc = OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ge, cb, x);
	OTF2_GlobalEvtReaderCallbacks_Delete(cb);
	otf2_check(x, rc, "events");
}

static void
open_events(struct otf2in *x, OTF2_Reader *rd)
{
	size_t i;
	int defs;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < x->nloc + 16)
		tr_die(TR_EXIT_SYS, "%s: %zu locations need %zu open files, "
		    "more than the limit of %llu (ulimit -n)", x->anchor, x->nloc,
		    x->nloc + 16, (unsigned long long)rl.rlim_cur);
	for (i = 0; i < x->nloc; i++)
		otf2_check(x, OTF2_Reader_SelectLocation(rd, x->loc[i].id),
		    "selecting a location");
	defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	otf2_check(x, OTF2_Reader_OpenEvtFiles(rd), "opening the event files");
	for (i = 0; i < x->nloc; i++) {
		if (defs) {
			OTF2_DefReader *d = OTF2_Reader_GetDefReader(rd,
			    x->loc[i].id);
			uint64_t n;

			if (d) {
				otf2_check(x, OTF2_Reader_ReadAllLocalDefinitions(rd,
				    d, &n), "local definitions");
				OTF2_Reader_CloseDefReader(rd, d);
			}
		}
		if (!OTF2_Reader_GetEvtReader(rd, x->loc[i].id))
			tr_die(TR_EXIT_DATA, "%s: location %llu: no events: "
			    "%s", x->anchor,
			    (unsigned long long)x->loc[i].id, x->errmsg);
	}
	if (defs)
		OTF2_Reader_CloseDefFiles(rd);
}

static void
finish(struct otf2in *x, int quiet)
{
	long r;
	int i;

	for (r = 0; r < x->np; r++) {
		struct rank *k = &x->rk[r];
		size_t j;

		if (k->call != UINT32_MAX)
			end_call(x, k, r, k->last);
		for (j = k->h0; j < k->nheld; j++)
			if (k->held[j].pending) {
				k->held[j].pending = 0;
				k->held[j].e.bytes = 0;
				x->unwaited++;
			}
		release(x, k);
	}
	if (quiet)
		return;
	for (i = 0; i < x->nskip; i++)
		tr_warn("%s: %llu %s events have no tr record: left out",
		    x->anchor, (unsigned long long)x->skipped[i],
		    x->skipname[i]);
	if (x->other_threads)
		tr_warn("%s: %llu events of threads other than each rank's "
		    "first: left out", x->anchor,
		    (unsigned long long)x->other_threads);
	if (x->cancelled + x->unwaited)
		tr_warn("%s: %llu nonblocking receives cancelled or never "
		    "completed: OTF2 does not say their source (written as "
		    "-1)", x->anchor,
		    (unsigned long long)(x->cancelled + x->unwaited));
}

static void
free_ranks(struct otf2in *x)
{
	size_t i;

	for (i = 0; x->rk && i < (size_t)x->np; i++) {
		free(x->rk[i].stack);
		free(x->rk[i].it);
		free(x->rk[i].held);
	}
	for (i = 0; i < x->sends.cap; i++)
		if (x->sends.s[i].v)
			free(x->sends.s[i].v);
	tr_itab_free(&x->sends);
	free(x->rk);
}

/* What tr_otf2_read holds, for an error exit (tr_undo_push): the
 * tables, and libotf2's reader with its open files, closed from inside
 * its callback, which is not returned to. */
struct reading {
	struct otf2in *x;
	OTF2_Reader *rd;
};

static void
unread(void *arg)
{
	struct reading *r = arg;

	OTF2_Reader_Close(r->rd);
	OTF2_Error_RegisterCallback(NULL, NULL);
	free_ranks(r->x);
	otf2_free_defs(r->x);
}

void
tr_otf2_read(const char *anchor, struct tr_out *o, int quiet)
{
	struct otf2in x;
	struct reading rg;
	OTF2_Reader *rd;
	OTF2_GlobalEvtReader *ge;
	uint64_t n;
	FILE *f;
	struct rlimit rl;

	memset(&x, 0, sizeof x);
	x.anchor = anchor;
	x.o = o;
	/* libotf2 says little of a missing file; say it first */
	if (!(f = fopen(anchor, "r")))
		tr_die(TR_EXIT_SYS, "%s:", anchor);
	fclose(f);
	OTF2_Error_RegisterCallback(otf2_on_error, x.errmsg);
	/* libotf2 keeps a file open per location: an archive of thousands
	 * of ranks needs the hard limit, not the soft one. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	rd = OTF2_Reader_Open(anchor);
	if (!rd)
		tr_die(TR_EXIT_DATA, "%s: not an OTF2 archive: %s", anchor,
		    x.errmsg[0] ? x.errmsg : "its anchor file is unreadable");
	rg.x = &x;
	rg.rd = rd;
	tr_undo_push(unread, &rg);
	otf2_check(&x, OTF2_Reader_SetSerialCollectiveCallbacks(rd), "opening");
	otf2_read_defs(&x, rd);
	otf2_map_ranks(&x);
	otf2_map_comms(&x);
	header(&x);
	open_events(&x, rd);
	ge = OTF2_Reader_GetGlobalEvtReader(rd);
	if (!ge)
		tr_die(TR_EXIT_DATA, "%s: events cannot be read: %s", anchor,
		    x.errmsg);
	register_events(&x, rd, ge);
	otf2_check(&x, OTF2_Reader_ReadAllGlobalEvents(rd, ge, &n),
	    "reading events");
	finish(&x, quiet);
	tr_undo_pop();
	OTF2_Reader_CloseGlobalEvtReader(rd, ge);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);
	OTF2_Error_RegisterCallback(NULL, NULL);
	free_ranks(&x);
	otf2_free_defs(&x);
}
