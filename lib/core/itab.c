/* itab.c - a hash table from pairs of integers to pointers, with
 * deletion, for what is in flight: requests, wildcard receives,
 * collective instances. Open addressing, linear probing; a deleted
 * slot's run is shifted back, so no tombstones pile up. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* Keys are (owner, number) and an owner's numbers are mostly
 * consecutive (a rank's requests, a communicator's collectives): within
 * each block of 16 numbers the number is added, not mixed, so an
 * owner's keys in flight share a few cache lines instead of one line
 * each. Blocks are mixed, so that numbers with a stride (handles that
 * are addresses) still spread. */
static size_t
hash2(int64_t a, int64_t b)
{
	uint64_t h = ((uint64_t)a + 0x632be59bd9b4e019u) * 0x9e3779b97f4a7c15u;

	h ^= ((uint64_t)b >> 4) * 0xbf58476d1ce4e5b9u;
	return (size_t)((h ^ (h >> 29)) + ((uint64_t)b & 15));
}

static void
growto(struct tr_itab *h, size_t cap)
{
	struct tr_islot *old = h->s;
	size_t i, oc = h->cap;

	h->s = tr_calloc(cap, sizeof *h->s);
	h->cap = cap;
	h->n = 0;
	for (i = 0; i < oc; i++)
		if (old[i].v)
			*tr_itab_get(h, old[i].a, old[i].b, 1) = old[i].v;
	free(old);
}

void **
tr_itab_get(struct tr_itab *h, int64_t a, int64_t b, int add)
{
	size_t i;

	if (add && (h->n + 1) * 2 > h->cap)
		growto(h, h->cap ? h->cap * 2 : 64);
	if (!h->cap)
		return NULL;
	for (i = hash2(a, b) & (h->cap - 1); h->s[i].v;
	    i = (i + 1) & (h->cap - 1))
		if (h->s[i].a == a && h->s[i].b == b)
			return &h->s[i].v;
	if (!add)
		return NULL;
	h->s[i].a = a;
	h->s[i].b = b;
	h->n++;
	return &h->s[i].v;
}

void
tr_itab_del(struct tr_itab *h, int64_t a, int64_t b)
{
	void **v = tr_itab_get(h, a, b, 0);
	size_t i, j, k;

	if (!v)
		return;
	i = (size_t)((struct tr_islot *)((char *)v -
	    offsetof(struct tr_islot, v)) - h->s);
	h->s[i].v = NULL;
	h->n--;
	for (j = (i + 1) & (h->cap - 1); h->s[j].v; j = (j + 1) & (h->cap - 1)) {
		k = hash2(h->s[j].a, h->s[j].b) & (h->cap - 1);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			h->s[i] = h->s[j];
			h->s[j].v = NULL;
			i = j;
		}
	}
}

void
tr_itab_free(struct tr_itab *h)
{
	free(h->s);
	memset(h, 0, sizeof *h);
}
