/* waits-read.c - the section's records spooled per rank, and the
 * communicators they name, read as the replay needs them: when the
 * section names its ranks (#meta np), a rank whose spooled records are
 * used up has the input read on to its next one, so a trace ordered by
 * time keeps a few records per rank, not the trace. */
#include "waits-int.h"

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
void
waits_newcomm(struct tr_waits *w, size_t i, int64_t size)
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
		waits_newcomm(w, (size_t)i, size);
	*tr_itab_get(&w->rcomm, rank, id, 1) = (void *)(intptr_t)(i + 1);
}


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

void
waits_take(void *ctx, const struct tr_rec *r)
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
	if ((r->type != TR_EV || w->passev) && tr_rec_in_shard(w->in, r))
		tr_out_rec(w->out, r);
}

/* The section is read to its end. */
void
waits_end_reading(struct tr_waits *w)
{
	w->in = NULL;
	tr_spool_seal(w->spool);
	tr_wild_seal(w->wild);
}

/* Reads on in the section until a record of RANK (WILD: the source of
 * one of its wildcard receives) is spooled, or to the end (RANK < 0).
 * 0 if the section was read already. */
int
waits_more(struct tr_waits *w, int64_t rank, int wild)
{
	if (!w->in)
		return 0;
	w->got = w->gotwild = -1;
	if (!tr_feed(w->in, w->out, waits_take, w, wild ? &w->gotwild :
	    &w->got, rank))
		waits_end_reading(w);
	return 1;
}
