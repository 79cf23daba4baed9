/* map.c - byte-string keys to dense indexes (open addressing). */
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct ent {
	uint64_t hash;
	size_t off, n;
};

struct tr_map {
	long *slot;		/* -1 or an index into ent */
	size_t nslot;
	struct ent *ent;
	size_t nent, entcap;
	char *keys;
	size_t klen, kcap;
};

struct tr_map *
tr_map_new(void)
{
	struct tr_map *m = tr_calloc(1, sizeof *m);

	m->nslot = 64;
	m->slot = tr_malloc(m->nslot * sizeof *m->slot);
	memset(m->slot, 0xff, m->nslot * sizeof *m->slot);
	return m;
}

void
tr_map_free(struct tr_map *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m->ent);
	free(m->keys);
	free(m);
}

void
tr_map_clear(struct tr_map *m)
{
	memset(m->slot, 0xff, m->nslot * sizeof *m->slot);
	m->nent = 0;
	m->klen = 0;
}

static void
rehash(struct tr_map *m)
{
	size_t i, mask;

	free(m->slot);
	m->nslot *= 2;
	mask = m->nslot - 1;
	m->slot = tr_malloc(m->nslot * sizeof *m->slot);
	memset(m->slot, 0xff, m->nslot * sizeof *m->slot);
	for (i = 0; i < m->nent; i++) {
		size_t j = m->ent[i].hash & mask;

		while (m->slot[j] >= 0)
			j = (j + 1) & mask;
		m->slot[j] = (long)i;
	}
}

long
tr_map_get(struct tr_map *m, const char *key, size_t n, int add)
{
	uint64_t h = tr_hash(key, n);
	size_t mask = m->nslot - 1, j = h & mask;
	struct ent *e;

	for (; m->slot[j] >= 0; j = (j + 1) & mask) {
		e = &m->ent[m->slot[j]];
		if (e->hash == h && e->n == n &&
		    memcmp(m->keys + e->off, key, n) == 0)
			return m->slot[j];
	}
	if (!add)
		return -1;
	tr_grow(&m->ent, &m->entcap, m->nent + 1, sizeof *m->ent);
	tr_grow(&m->keys, &m->kcap, m->klen + n + 1, 1);
	memcpy(m->keys + m->klen, key, n);
	m->keys[m->klen + n] = '\0';
	e = &m->ent[m->nent];
	e->hash = h;
	e->off = m->klen;
	e->n = n;
	m->klen += n + 1;
	m->slot[j] = (long)m->nent++;
	if (m->nent * 2 > m->nslot)
		rehash(m);
	return (long)m->nent - 1;
}

size_t
tr_map_len(const struct tr_map *m)
{
	return m->nent;
}

const char *
tr_map_key(const struct tr_map *m, long i, size_t *n)
{
	if (n)
		*n = m->ent[i].n;
	return m->keys + m->ent[i].off;
}

/* qsort has no context argument; the tools are single-threaded. */
static const struct tr_map *sorting;

static int
bykey(const void *a, const void *b)
{
	size_t na, nb;
	const char *ka = tr_map_key(sorting, *(const long *)a, &na);
	const char *kb = tr_map_key(sorting, *(const long *)b, &nb);
	int c = memcmp(ka, kb, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

long *
tr_map_order(const struct tr_map *m)
{
	size_t i, n = m->nent;
	long *ord = tr_calloc(n + 1, sizeof *ord);

	for (i = 0; i < n; i++)
		ord[i] = (long)i;
	sorting = m;
	tr_sort(ord, n, sizeof *ord, bykey);
	sorting = NULL;
	return ord;
}
