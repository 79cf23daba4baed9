/* mem.c - allocation that cannot return NULL. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

void *
tr_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		tr_die(TR_EXIT_SYS, "out of memory");
	return p;
}

void *
tr_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		tr_die(TR_EXIT_SYS, "out of memory");
	return p;
}

void *
tr_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		tr_die(TR_EXIT_SYS, "out of memory");
	return p;
}

void
tr_grow_to(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **p = pp;
	size_t c = *cap;

	if (need <= c)
		return;
	c = c ? c : 16;
	while (c < need) {
		if (c > ((size_t)-1) / 2 / sz)
			tr_die(TR_EXIT_SYS, "out of memory");
		c *= 2;
	}
	*p = tr_realloc(*p, c * sz);
	*cap = c;
}

void
tr_growz(void *pp, size_t *cap, size_t need, size_t sz)
{
	size_t old = *cap;

	if (need <= old)
		return;
	tr_grow(pp, cap, need, sz);
	memset(*(char **)pp + old * sz, 0, (*cap - old) * sz);
}

char *
tr_strndup(const char *s, size_t n)
{
	char *p = tr_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
tr_strdup(const char *s)
{
	return tr_strndup(s, strlen(s));
}

/* qsort(), for arrays that may be empty and never allocated: qsort()
 * must not be given NULL even with no elements. */
void
tr_sort(void *base, size_t n, size_t sz, int (*cmp)(const void *,
    const void *))
{
	if (n > 1)
		qsort(base, n, sz, cmp);
}

int
tr_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
tr_cmp_f64(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}
