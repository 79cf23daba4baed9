/* tab/tab-int.h - what the tables' files share: the handle hash, the
 * pools of entries, and the communicators' entries. Inline, since the
 * wrappers' hot path looks communicators up on every call. */
#ifndef REC_TAB_INT_H
#define REC_TAB_INT_H

#include <string.h>

#include "tab.h"

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


static inline size_t
hash(uintptr_t h, size_t cap)
{
	return (size_t)((h * 0x9e3779b97f4a7c15u) >> 17) & (cap - 1);
}

static inline struct slot *
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


/* hash.c */
int hput(struct htab *t, uintptr_t h, long v);

/* An element of a table with a free list (head *FREE, each element's
 * link the long NEXT bytes into it): the list's head, or a new one at
 * the end of the array at *PP (N used, CAP allocated, SZ bytes each);
 * -1 when memory ran out. */
static inline long
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
extern struct comm *commch[COMMCH];
extern struct htab ctab;	/* communicators, by handle */

static inline struct comm *
comm_at(long idx)
{
	size_t q = (size_t)idx / COMMS0 + 1;
	int c = 63 - __builtin_clzll(q);

	return &commch[c][(size_t)idx - COMMS0 * (((size_t)1 << c) - 1)];
}

static inline int
world_of(const struct comm *k, int r)
{
	if (r < 0 || r >= k->size)
		return -1;
	if (!k->world)
		return r;
	return k->world[r] == MPI_UNDEFINED ? -1 : k->world[r];
}

/* A reference to the entry of index IDX let go; -1 none. */
void comm_unref(long idx);

#endif
