/* hash.c - the tables' open addressing from handle to index. */
#include <stdlib.h>

#include "tab-int.h"

/* n counts live and deleted slots: a rehash drops the deleted ones. */
int
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

