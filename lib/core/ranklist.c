/* ranklist.c - ranks written as a members list ("3,5-7") for messages,
 * cut short where the buffer is full. */
#include <stdio.h>
#include <string.h>

#include "core.h"

void
tr_ranklist_init(struct tr_ranklist *l, char *buf, size_t sz)
{
	l->buf = buf;
	l->sz = sz;
	l->len = 0;
	l->lo = l->hi = -1;
	l->n = 0;
	l->cut = 0;
	buf[0] = '\0';
}

/* Writes the range held, unless the buffer is too full for it and the
 * ",..." that would follow. */
static void
ranklist_put(struct tr_ranklist *l)
{
	char tmp[48];
	int k;

	if (l->lo < 0 || l->cut)
		return;
	if (l->hi > l->lo)
		k = snprintf(tmp, sizeof tmp, "%s%lld-%lld", l->len ? "," : "",
		    (long long)l->lo, (long long)l->hi);
	else
		k = snprintf(tmp, sizeof tmp, "%s%lld", l->len ? "," : "",
		    (long long)l->lo);
	if (l->len + (size_t)k + 5 > l->sz) {
		memcpy(l->buf + l->len, ",...", 5);
		l->len += 4;
		l->cut = 1;
		return;
	}
	memcpy(l->buf + l->len, tmp, (size_t)k + 1);
	l->len += (size_t)k;
}

void
tr_ranklist_add(struct tr_ranklist *l, int64_t rank)
{
	l->n++;
	if (l->lo >= 0 && rank == l->hi + 1) {
		l->hi = rank;
		return;
	}
	ranklist_put(l);
	l->lo = l->hi = rank;
}

const char *
tr_ranklist_end(struct tr_ranklist *l)
{
	ranklist_put(l);
	l->lo = -1;
	return l->buf;
}
