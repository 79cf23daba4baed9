/* req.c - request ids, and what persistent requests were made for. */
#include <stddef.h>

#include "tab-int.h"

/* Requests. Open MPI hands out one shared handle for every request
 * that completed at once (a small Isend, anything to MPI_PROC_NULL), so
 * the handle alone is ambiguous: each handle keeps a FIFO of pending
 * requests, and the address the handle was stored at picks the entry
 * when it still matches (arrays waited on in any order). */
static struct htab rtab;
static struct rreq *reqs;
static size_t nreq, reqcap;
static long freehead = -1;
static int64_t nextreq;

/* CIDX: the entry of a receive's communicator, a reference on it taken
 * here, -1 if none. */
static int64_t
req_start(MPI_Request h, const void *slot, int peer, int64_t bytes,
    int tag, int comm, MPI_Comm c, int recv, long cidx)
{
	long i, *tail;
	struct slot *s;

	if (h == MPI_REQUEST_NULL || (i = pool_take(&reqs, &nreq, &reqcap,
	    sizeof *reqs, &freehead, offsetof(struct rreq, next))) < 0)
		return -1;
	reqs[i].id = nextreq;
	reqs[i].peer = peer;
	reqs[i].bytes = bytes;
	reqs[i].tag = tag;
	reqs[i].comm = comm;
	reqs[i].c = c;
	reqs[i].recv = recv;
	reqs[i].slot = slot;
	reqs[i].next = -1;
	if ((reqs[i].cidx = cidx) >= 0)
		comm_at(cidx)->refs++;
	if ((s = hfind(&rtab, (uintptr_t)h))) {
		for (tail = &s->v; *tail >= 0; tail = &reqs[*tail].next)
			;
		*tail = i;
	} else if (hput(&rtab, (uintptr_t)h, i) < 0) {
		comm_unref(reqs[i].cidx);
		reqs[i].next = freehead;
		freehead = i;
		return -1;
	}
	return nextreq++;
}

int64_t
rec_req_start(MPI_Request h, const void *slot, int peer, int64_t bytes,
    int tag, int comm, MPI_Comm c, int recv)
{
	struct slot *s;

	/* A receive's source is known only once it is done, perhaps after
	 * its communicator was freed: the entry stays until then. */
	return req_start(h, slot, peer, bytes, tag, comm, c, recv,
	    recv == 1 && (s = hfind(&ctab, (uintptr_t)c)) ? s->v : -1);
}

/* Where the index of H's entry for SLOT is kept, its first if none is
 * for SLOT; NULL if H has none. *SP: H's slot in the table. */
static long *
req_find(MPI_Request h, const void *slot, struct slot **sp)
{
	struct slot *s = *sp = hfind(&rtab, (uintptr_t)h);
	long *p;

	if (!s)
		return NULL;
	for (p = &s->v; *p >= 0; p = &reqs[*p].next)
		if (reqs[*p].slot == slot)
			return p;
	return &s->v;
}

int64_t
rec_req_id(MPI_Request h, const void *slot)
{
	struct slot *s;
	long *p = req_find(h, slot, &s);

	return p ? reqs[*p].id : -1;
}

int
rec_req_done(MPI_Request h, const void *slot, struct rreq *out)
{
	struct slot *s;
	long *p = req_find(h, slot, &s), i;

	if (!p)
		return 0;
	i = *p;
	*out = reqs[i];
	*p = reqs[i].next;
	reqs[i].next = freehead;
	freehead = i;
	if (s->v < 0)
		s->v = -2;
	return 1;
}

int
rec_req_world(const struct rreq *q, int r)
{
	return q->cidx < 0 || r < 0 || q->c == MPI_COMM_WORLD ?
	    rec_world(q->c, r) :
	    world_of(comm_at(q->cidx), r);
}

void
rec_req_forget(const struct rreq *q)
{
	comm_unref(q->cidx);
}

/* Persistent requests, by handle: what MPI_*_init said, for every
 * MPI_Start of the request until MPI_Request_free. */
static struct htab ptab;
static struct rpers *pers;
static size_t npers, perscap;
static long persfree = -1;

void
rec_pers_new(MPI_Request h, int op, const struct rrec *e, MPI_Comm c,
    int shown)
{
	struct slot *s, *k;
	long i;

	if (h == MPI_REQUEST_NULL)
		return;
	if ((s = hfind(&ptab, (uintptr_t)h))) {
		i = s->v;
		comm_unref(pers[i].cidx);
	}
	else if ((i = pool_take(&pers, &npers, &perscap, sizeof *pers,
	    &persfree, offsetof(struct rpers, next))) < 0)
		return;
	/* A receive may be started after its communicator is freed: the
	 * entry stays until the request is freed. */
	pers[i].cidx = op == OP_Recv_init &&
	    (k = hfind(&ctab, (uintptr_t)c)) ? k->v : -1;
	if (pers[i].cidx >= 0)
		comm_at(pers[i].cidx)->refs++;
	pers[i].op = op;
	pers[i].peer = e->peer;
	pers[i].tag = e->tag;
	pers[i].comm = e->comm;
	pers[i].bytes = e->bytes;
	pers[i].c = c;
	pers[i].next = -1;
	pers[i].shown = shown;
	if (!s && hput(&ptab, (uintptr_t)h, i) < 0) {
		comm_unref(pers[i].cidx);
		pers[i].next = persfree;
		persfree = i;
	}
}

const struct rpers *
rec_pers_find(MPI_Request h)
{
	struct slot *s = hfind(&ptab, (uintptr_t)h);

	return s ? &pers[s->v] : NULL;
}

int64_t
rec_pers_start(MPI_Request h, const void *slot, const struct rpers *p)
{
	return req_start(h, slot, p->peer, p->bytes, p->tag, p->comm, p->c,
	    p->op == OP_Recv_init, p->cidx);
}

void
rec_req_free(MPI_Request h, const void *slot)
{
	struct slot *s = hfind(&ptab, (uintptr_t)h);
	struct rreq q;

	if (s) {
		comm_unref(pers[s->v].cidx);
		pers[s->v].next = persfree;
		persfree = s->v;
		s->v = -2;
	}
	if (rec_req_done(h, slot, &q))
		rec_req_forget(&q);
}

