/* tab.c - communicator ids with their world ranks, and request ids. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"

/* Room for element N of the array at *PP of *CAP elements of SZ bytes,
 * doubling it; -1 when memory ran out (the caller records less). */
int
rec_room(void *pp, size_t *cap, size_t n, size_t sz)
{
	void **p = pp, *q;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? 2 * *cap : 16;
	if (!(q = realloc(*p, nc * sz)))
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* An element of a table with a free list (head *FREE, each element's
 * link the long NEXT bytes into it): the list's head, or a new one at
 * the end of the array at *PP (N used, CAP allocated, SZ bytes each);
 * -1 when memory ran out. */
static long
pool_take(void *pp, size_t *n, size_t *cap, size_t sz, long *free,
    size_t next)
{
	long i = *free;

	if (i >= 0) {
		memcpy(free, *(char **)pp + (size_t)i * sz + next, sizeof *free);
		return i;
	}
	if (rec_room(pp, cap, *n, sz) < 0)
		return -1;
	return (long)(*n)++;
}

struct comm {
	int id, size, inter;
	int *world;		/* world rank of each rank; NULL: identity */
	/* The members its comm record names: an intercommunicator's
	 * ranks are those of its remote group, its record names both
	 * groups, in order (their messages match within them). */
	int *memb, nmemb;
	char *members;		/* built with its comm record, not in a flush
				 * (a handler's, which must not allocate) */
	char *grid;		/* a Cartesian one's dims and periods */
	int refs;		/* windows made on it and receives in flight
				 * on it (rec_req_world), not yet done */
	int freed;		/* by the program */
	int64_t gone;		/* rec.emptied when it was let go */
	long next;		/* in the let-go queue, or the free list */
};

/* Communicators, by index, in chunks that never move once made (COMMS0
 * entries, then twice as many each): a flush, in a crash handler or in
 * a thread that seized the recorder, reads the entries its buffered
 * comm and cart records name while this thread may be adding one, and
 * a table grown by realloc would be freed under it. */
enum { COMMS0 = 16, COMMCH = 40 };
static struct comm *commch[COMMCH];
static size_t ncomm;
static int nextid = 2;

static struct comm *
comm_at(long idx)
{
	size_t q = (size_t)idx / COMMS0 + 1;
	int c = 63 - __builtin_clzll(q);

	return &commch[c][(size_t)idx - COMMS0 * (((size_t)1 << c) - 1)];
}

/* Open addressing from handle to index: handles are pointers in Open
 * MPI and small integers in MPICH; both hash fine by multiplication. */
struct slot {
	uintptr_t h;
	long v;			/* index, -1 empty, -2 deleted */
};
struct htab {
	struct slot *s;
	size_t cap, n;
};

static struct htab ctab;

static size_t
hash(uintptr_t h, size_t cap)
{
	return (size_t)((h * 0x9e3779b97f4a7c15u) >> 17) & (cap - 1);
}

static struct slot *
hfind(struct htab *t, uintptr_t h)
{
	size_t i;

	if (!t->cap)
		return NULL;
	for (i = hash(h, t->cap); t->s[i].v != -1; i = (i + 1) & (t->cap - 1))
		if (t->s[i].v >= 0 && t->s[i].h == h)
			return &t->s[i];
	return NULL;
}

/* n counts live and deleted slots: a rehash drops the deleted ones. */
static int
hput(struct htab *t, uintptr_t h, long v)
{
	struct slot *f = hfind(t, h);
	size_t i, live = 0;

	if (f) {
		f->v = v;
		return 0;
	}
	if (2 * (t->n + 1) > t->cap) {
		struct htab o = *t;
		size_t nc = 64;

		for (i = 0; i < o.cap; i++)
			live += o.s[i].v >= 0;
		while (nc < 4 * (live + 1))
			nc *= 2;
		t->s = malloc(nc * sizeof *t->s);
		if (!t->s) {
			*t = o;
			return -1;
		}
		t->cap = nc;
		t->n = 0;
		for (i = 0; i < nc; i++)
			t->s[i].v = -1;
		for (i = 0; i < o.cap; i++)
			if (o.s[i].v >= 0)
				hput(t, o.s[i].h, o.s[i].v);
		free(o.s);
	}
	for (i = hash(h, t->cap); t->s[i].v >= 0; i = (i + 1) & (t->cap - 1))
		;
	if (t->s[i].v == -1)
		t->n++;
	t->s[i].h = h;
	t->s[i].v = v;
	return 0;
}

static int
intcmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* An intercommunicator's local group joined to its remote one (WORLD,
 * N ranks), as world ranks in order; NULL if out of memory. */
static int *
bothgroups(MPI_Comm c, const int *world, int n, int *nall)
{
	MPI_Group g, wg;
	int ln, i, *all;

	PMPI_Comm_size(c, &ln);
	if (!(all = malloc((size_t)(ln + n) * 2 * sizeof *all)))
		return NULL;
	for (i = 0; i < ln; i++)
		all[ln + n + i] = i;
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	PMPI_Group_translate_ranks(g, ln, all + ln + n, wg, all);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	memcpy(all + ln, world, (size_t)n * sizeof *all);
	qsort(all, (size_t)(ln + n), sizeof *all, intcmp);
	*nall = ln + n;
	return all;
}

/* A Cartesian communicator's grid, however it was made (Cart_create,
 * Cart_sub, Comm_dup of one, ...), for the replays of its neighbourhood
 * collectives. */
static void
topology(MPI_Comm c)
{
	int t, nd, dims[16], per[16], co[16];

	if (PMPI_Topo_test(c, &t) != MPI_SUCCESS || t != MPI_CART ||
	    PMPI_Cartdim_get(c, &nd) != MPI_SUCCESS || nd <= 0 || nd > 16 ||
	    PMPI_Cart_get(c, nd, dims, per, co) != MPI_SUCCESS)
		return;
	rec_comm_cart(c, nd, dims, per);
}

/* A communicator the program freed is let go: out of the handle table
 * at once, so that no wrapper finds it again, and its members' world
 * ranks freed then unless a window or a receive in flight still reads
 * them (rec_win, rec_req_world: MPI lets both outlive it). What a
 * flush reads of it (id, members, grid) is kept until the buffer that
 * may still hold its comm or cart record has been emptied, and only
 * then is its slot reused: a flush runs in crash handlers at any point,
 * and in a thread that seized the recorder while this one holds it, so
 * neither can be kept from reading. They read only the entries that
 * records in the buffer name, and records are added to it in its
 * current emptying; an entry let go at emptying G (rec.emptied, counted
 * in buf.c's written) had all its records made before that, so once
 * rec.emptied passes G none of them is left to read. The slots are
 * reused here, by the thread holding the recorder and outside any
 * flush (a seizing thread's leaves rec.emptied as it is); the ids
 * written keep counting (nextid), as the trace has always had them. */
static long letgo = -1, *letgotail = &letgo;
static long freecomm = -1;

static void
drop_world(struct comm *k)
{
	if (k->memb != k->world)
		free(k->memb);
	free(k->world);
	k->memb = k->world = NULL;
}

static void
reclaim(void)
{
	int64_t e = __atomic_load_n(&rec.emptied, __ATOMIC_ACQUIRE);
	struct comm *k;

	while (letgo >= 0 && (k = comm_at(letgo))->gone < e) {
		long i = letgo;

		if ((letgo = k->next) < 0)
			letgotail = &letgo;
		free(k->members);
		free(k->grid);
		k->members = k->grid = NULL;
		k->next = freecomm;
		freecomm = i;
	}
}

static void
let_go(long idx)
{
	struct comm *k = comm_at(idx);

	drop_world(k);
	k->gone = __atomic_load_n(&rec.emptied, __ATOMIC_ACQUIRE);
	k->next = -1;
	*letgotail = idx;
	letgotail = &k->next;
}

/* A slot for a new entry, zeroed: a reclaimed one, or the next of the
 * chunks (made here, published before any record can name it). */
static long
comm_take(void)
{
	long i;
	struct comm *k;

	reclaim();
	if ((i = freecomm) >= 0)
		freecomm = comm_at(i)->next;
	else {
		size_t q = ncomm / COMMS0 + 1;
		int c = 63 - __builtin_clzll(q);

		if (c >= COMMCH)
			return -1;
		if (!commch[c]) {
			struct comm *ch = calloc((size_t)COMMS0 << c,
			    sizeof *ch);

			if (!ch)
				return -1;
			__atomic_store_n(&commch[c], ch, __ATOMIC_RELEASE);
		}
		i = (long)ncomm++;
	}
	k = comm_at(i);
	memset(k, 0, sizeof *k);
	k->next = -1;
	return i;
}

/* A slot taken and not kept (a failure half-way): nothing names it. */
static long
comm_back(long i)
{
	struct comm *k = comm_at(i);

	drop_world(k);
	k->next = freecomm;
	freecomm = i;
	return -1;
}

static long
addcomm(MPI_Comm c, int id)
{
	struct comm *k;
	MPI_Group g, wg;
	int *in, i;
	long idx;

	if ((idx = comm_take()) < 0)
		return -1;
	k = comm_at(idx);
	k->id = id;
	PMPI_Comm_test_inter(c, &k->inter);
	if (k->inter) {
		PMPI_Comm_remote_size(c, &k->size);
		PMPI_Comm_remote_group(c, &g);
	} else {
		PMPI_Comm_size(c, &k->size);
		PMPI_Comm_group(c, &g);
	}
	if (c != MPI_COMM_WORLD) {
		k->world = malloc(2 * k->size * sizeof *k->world);
		if (!k->world) {
			PMPI_Group_free(&g);
			return comm_back(idx);
		}
		in = k->world + k->size;
		for (i = 0; i < k->size; i++)
			in[i] = i;
		PMPI_Comm_group(MPI_COMM_WORLD, &wg);
		PMPI_Group_translate_ranks(g, k->size, in, wg, k->world);
		PMPI_Group_free(&wg);
	}
	PMPI_Group_free(&g);
	k->memb = k->world;
	k->nmemb = k->size;
	if (k->inter && !(k->memb = bothgroups(c, k->world, k->size,
	    &k->nmemb)))
		return comm_back(idx);
	/* Processes of another world (started by MPI_Comm_spawn) have no
	 * rank in this one: their peers are -1, the record leaves them
	 * out, and the trace says it lacks them. */
	for (i = 0; k->memb && i < k->nmemb && k->memb[i] != MPI_UNDEFINED;
	    i++)
		;
	if (k->memb && i < k->nmemb) {
		int *m = malloc((size_t)k->nmemb * sizeof *m), n = 0;

		if (!m)
			return comm_back(idx);
		for (i = 0; i < k->nmemb; i++)
			if (k->memb[i] != MPI_UNDEFINED)
				m[n++] = k->memb[i];
		if (k->memb != k->world)
			free(k->memb);
		k->memb = m;
		k->nmemb = n;
		rec_unrecorded(UNREC_SPAWN);
	}
	if (hput(&ctab, (uintptr_t)c, idx) < 0)
		return comm_back(idx);
	return idx;
}

static void members(struct comm *k);

static void
commrec(long idx)
{
	struct rrec *r;

	if (!rec.on || idx < 0)
		return;
	if (!comm_at(idx)->members)
		members(comm_at(idx));
	r = rec_slot();
	memset(r, 0, sizeof *r);
	r->kind = RK_COMM;
	r->req = idx;
	rec_commit();
}

void
rec_tab_init(void)
{
	addcomm(MPI_COMM_WORLD, 0);
	commrec(addcomm(MPI_COMM_SELF, 1));
}

int
rec_comm_id(MPI_Comm c)
{
	struct slot *s;
	long idx;

	if (c == MPI_COMM_WORLD)
		return 0;
	if (c == MPI_COMM_NULL)
		return -1;
	if ((s = hfind(&ctab, (uintptr_t)c)))
		return comm_at(s->v)->id;
	/* Made by a call not wrapped (MPI_Comm_connect, a library's own
	 * PMPI calls, ...): numbered at first use. */
	idx = addcomm(c, nextid++);
	commrec(idx);
	if (idx >= 0)
		topology(c);
	return idx < 0 ? -1 : comm_at(idx)->id;
}

int
rec_comm_new(MPI_Comm c)
{
	long idx;
	int id = nextid++;

	/* Every member calls the creating function, so counting calls keeps
	 * the ids of a communicator equal on all its members. */
	if (c == MPI_COMM_NULL)
		return -1;
	idx = addcomm(c, id);
	commrec(idx);
	if (idx >= 0)
		topology(c);
	return id;
}

void
rec_comm_free(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);
	long idx;

	if (!s || c == MPI_COMM_WORLD || c == MPI_COMM_SELF)
		return;
	idx = s->v;
	s->v = -2;
	comm_at(idx)->freed = 1;
	if (!comm_at(idx)->refs)
		let_go(idx);
	reclaim();
}

static void
comm_unref(long idx)
{
	struct comm *k;

	if (idx >= 0 && !--(k = comm_at(idx))->refs && k->freed)
		let_go(idx);
}

void
rec_comm_cart(MPI_Comm c, int nd, const int *dims, const int *periods)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);
	struct comm *k;
	struct rrec *r;
	size_t cap, n = 0;
	char *g, *old;
	int i, j;

	if (!rec.on || !s || s->v < 0 || nd <= 0)
		return;
	k = comm_at(s->v);
	cap = 24 * (size_t)nd + 2;
	if (!(g = malloc(cap)))
		return;
	for (j = 0; j < 2; j++)
		for (i = 0; i < nd; i++)
			n += (size_t)snprintf(g + n, cap - n, "%s%d",
			    i ? "," : j ? "\t" : "", j ? periods[i] != 0 :
			    dims[i]);
	/* whole before a flush can see it */
	old = k->grid;
	k->grid = g;
	free(old);
	r = rec_slot();
	memset(r, 0, sizeof *r);
	r->kind = RK_CART;
	r->req = s->v;
	rec_commit();
}

int
rec_comm_inter(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);

	return s && s->v >= 0 && comm_at(s->v)->inter;
}

int
rec_comm_gridded(MPI_Comm c)
{
	struct slot *s = hfind(&ctab, (uintptr_t)c);

	return s && s->v >= 0 && comm_at(s->v)->grid != NULL;
}

const char *
rec_comm_grid(int idx, int *id)
{
	const struct comm *k = comm_at(idx);

	*id = k->id;
	return k->grid ? k->grid : "0\t0";
}

static int
world_of(const struct comm *k, int r)
{
	if (r < 0 || r >= k->size)
		return -1;
	if (!k->world)
		return r;
	return k->world[r] == MPI_UNDEFINED ? -1 : k->world[r];
}

int
rec_world(MPI_Comm c, int r)
{
	struct slot *s;

	if (r < 0)
		return -1;
	if (c == MPI_COMM_WORLD)
		return r;
	if (!(s = hfind(&ctab, (uintptr_t)c))) {
		if (rec_comm_id(c) < 0 || !(s = hfind(&ctab, (uintptr_t)c)))
			return -1;
	}
	return world_of(comm_at(s->v), r);
}

/* "0-3", "0-14:2", "5,9,12": ranges and strided ranges keep big
 * communicators short. */
static void
members(struct comm *k)
{
	size_t cap, n = 0;
	char *m;
	int i, j;

	cap = 16 + 24 * (size_t)k->nmemb;
	k->members = malloc(cap);
	if (!k->members)
		return;
	k->members[0] = '\0';
	for (i = 0; i < k->nmemb; i = j) {
		int a = k->memb ? k->memb[i] : i, b, s = 0;

		j = i + 1;
		if (j < k->nmemb) {
			s = (k->memb ? k->memb[j] : j) - a;
			if (s > 0)
				while (j < k->nmemb &&
				    (k->memb ? k->memb[j] : j) ==
				    a + s * (j - i))
					j++;
		}
		if (j - i < 3 && !(s == 1 && j - i == 2))
			j = i + 1;
		b = k->memb ? k->memb[j - 1] : j - 1;
		if (n)
			k->members[n++] = ',';
		if (j - i == 1)
			n += snprintf(k->members + n, cap - n, "%d", a);
		else if (s == 1)
			n += snprintf(k->members + n, cap - n, "%d-%d", a, b);
		else
			n += snprintf(k->members + n, cap - n, "%d-%d:%d", a,
			    b, s);
	}
	if (k->nmemb == 0)
		n = (size_t)snprintf(k->members, cap, "-");
	/* its room was for the longest text: a communicator's entry
	 * outlives it until the buffer is emptied (let_go) */
	if ((m = realloc(k->members, n + 1)))
		k->members = m;
}

const char *
rec_comm_members(int idx, int *id, int *size)
{
	const struct comm *k = comm_at(idx);

	*id = k->id;
	*size = k->nmemb;
	return k->members ? k->members : "-";
}

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

/* Open files, by handle: the communicator's id. */
static struct htab ftab;

void
rec_file_new(MPI_File f, int comm)
{
	if (comm >= 0)
		hput(&ftab, (uintptr_t)f, comm);
}

int
rec_file_comm(MPI_File f)
{
	struct slot *s = hfind(&ftab, (uintptr_t)f);

	return s ? (int)s->v : -1;
}

void
rec_file_free(MPI_File f)
{
	struct slot *s = hfind(&ftab, (uintptr_t)f);

	if (s)
		s->v = -2;
}

/* Windows, by handle: the communicator they were made on (whose entry
 * is kept after it is freed until they are) and their number on this rank,
 * which is what one-sided records name a window by. */
struct win {
	int comm, num;
	long cidx, next;
};
static struct htab wtab;
static struct win *wins;
static size_t nwin, wincap;
static long winfree = -1;
static int nextwin;

int
rec_win_new(MPI_Win w, MPI_Comm c)
{
	struct slot *s;
	long i;
	int id = rec_comm_id(c);

	if (id < 0 || !(s = hfind(&ctab, (uintptr_t)c)))
		return -1;
	if ((i = pool_take(&wins, &nwin, &wincap, sizeof *wins, &winfree,
	    offsetof(struct win, next))) < 0)
		return -1;
	wins[i].comm = id;
	wins[i].cidx = s->v;
	comm_at(s->v)->refs++;
	wins[i].num = nextwin++;
	wins[i].next = -1;
	if (hput(&wtab, (uintptr_t)w, i) < 0) {
		comm_at(s->v)->refs--;
		wins[i].next = winfree;
		winfree = i;
		return -1;
	}
	return wins[i].num;
}

int
rec_win(MPI_Win w, int target, struct rwin *out)
{
	struct slot *s = hfind(&wtab, (uintptr_t)w);
	const struct win *k;
	const struct comm *c;

	if (!s)
		return 0;
	k = &wins[s->v];
	c = comm_at(k->cidx);
	out->comm = k->comm;
	out->num = k->num;
	out->world = target < 0 || target >= c->size ? -1 :
	    c->world ? c->world[target] : target;
	return 1;
}

void
rec_win_free(MPI_Win w)
{
	struct slot *s = hfind(&wtab, (uintptr_t)w);

	if (!s)
		return;
	comm_unref(wins[s->v].cidx);
	wins[s->v].next = winfree;
	winfree = s->v;
	s->v = -2;
}

/* Messages matched by a probe, by handle, until received. */
static struct htab mtab;
static struct rmsg *msgs;
static size_t nmsg, msgcap;
static long msgfree = -1;

void
rec_msg_new(MPI_Message m, const struct rrec *e, MPI_Comm c)
{
	long i;

	if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC ||
	    (i = pool_take(&msgs, &nmsg, &msgcap, sizeof *msgs, &msgfree,
	    offsetof(struct rmsg, next))) < 0)
		return;
	msgs[i].peer = e->peer;
	msgs[i].tag = e->tag;
	msgs[i].comm = e->comm;
	msgs[i].bytes = e->bytes;
	msgs[i].c = c;
	msgs[i].next = -1;
	if (hput(&mtab, (uintptr_t)m, i) < 0) {
		msgs[i].next = msgfree;
		msgfree = i;
	}
}

int
rec_msg_take(MPI_Message m, struct rmsg *out)
{
	struct slot *s = hfind(&mtab, (uintptr_t)m);

	if (!s)
		return 0;
	if (out)
		*out = msgs[s->v];
	msgs[s->v].next = msgfree;
	msgfree = s->v;
	s->v = -2;
	return 1;
}
