/* members.c - the member lists of comm records: world ranks as a,b or
 * ranges a-b or strided ranges a-b:s, comma-separated (tr-format(5)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

int
tr_members(const char *p, size_t n, long **out, long *cnt)
{
	size_t cap = 0;
	long *m = NULL, k = 0;
	const char *e = p + n, *q;

	while (p < e) {
		int64_t a, b, st = 1;
		const char *c;

		for (q = p; q < e && *q != ','; q++)
			;
		for (c = p; c < q && *c != '-' && *c != ':'; c++)
			;
		if (tr_parse_i64(p, (size_t)(c - p), &a) || a < 0)
			goto bad;
		b = a;
		if (c < q && *c == '-') {
			const char *d;
			for (d = c + 1; d < q && *d != ':'; d++)
				;
			if (tr_parse_i64(c + 1, (size_t)(d - c - 1), &b) || b < a)
				goto bad;
			if (d < q && (tr_parse_i64(d + 1, (size_t)(q - d - 1),
			    &st) || st < 1))
				goto bad;
		} else if (c < q)
			goto bad;
		if (!out)
			k += (long)((b - a) / st + 1);
		else
			for (; a <= b; a += st) {
				tr_grow(&m, &cap, (size_t)k + 1, sizeof *m);
				m[k++] = (long)a;
			}
		p = q + 1;
	}
	if (out)
		*out = m;
	*cnt = k;
	return 0;
bad:
	free(m);
	return -1;
}

struct tr_comms {
	struct tr_map *seen;	/* "rank:members" -> index in n */
	long *n;		/* communicators made so far with these */
	size_t cap;
	struct tr_map *sets;	/* "members" -> a set */
	struct tr_itab live;	/* (set, k) -> 1 + communicator */
	struct cslot {
		long set, k;
	} *c;			/* per communicator; set -1: dropped */
	size_t nc, ccap;
	long *free;		/* dropped communicators, to give out again */
	size_t nfree, freecap;
	char *key;
	size_t keycap;
};

struct tr_comms *
tr_comms_new(void)
{
	struct tr_comms *c = tr_calloc(1, sizeof *c);

	c->seen = tr_map_new();
	c->sets = tr_map_new();
	return c;
}

long
tr_comms_get(struct tr_comms *c, int64_t rank, const struct tr_field *m,
    int *made)
{
	size_t need = m->n + 24;
	long i, k, set;
	void **v;
	int h;

	tr_grow(&c->key, &c->keycap, need, 1);
	h = snprintf(c->key, need, "%lld:", (long long)rank);
	memcpy(c->key + h, m->p, m->n);
	i = tr_map_get(c->seen, c->key, (size_t)h + m->n, 1);
	tr_growz(&c->n, &c->cap, (size_t)i + 1, sizeof *c->n);
	k = c->n[i]++;
	set = tr_map_get(c->sets, m->p, m->n, 1);
	v = tr_itab_get(&c->live, set, k, 1);
	*made = !*v;
	if (*v)
		return (long)((intptr_t)*v - 1);
	if (c->nfree)
		i = c->free[--c->nfree];
	else {
		tr_grow(&c->c, &c->ccap, c->nc + 1, sizeof *c->c);
		i = (long)c->nc++;
	}
	c->c[i].set = set;
	c->c[i].k = k;
	*v = (void *)(intptr_t)(i + 1);
	return i;
}

const char *
tr_comms_members(const struct tr_comms *c, long i, size_t *n)
{
	return tr_map_key(c->sets, c->c[i].set, n);
}

void
tr_comms_drop(struct tr_comms *c, long i)
{
	tr_itab_del(&c->live, c->c[i].set, c->c[i].k);
	c->c[i].set = -1;
	tr_grow(&c->free, &c->freecap, c->nfree + 1, sizeof *c->free);
	c->free[c->nfree++] = i;
}

void
tr_comms_free(struct tr_comms *c)
{
	if (!c)
		return;
	tr_map_free(c->seen);
	tr_map_free(c->sets);
	tr_itab_free(&c->live);
	free(c->n);
	free(c->c);
	free(c->free);
	free(c->key);
	free(c);
}
