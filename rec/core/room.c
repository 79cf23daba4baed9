/* room.c - growing the recorder's arrays. */
#include <stdlib.h>

#include "core.h"

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
