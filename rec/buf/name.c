/* name.c - region names, by index: the op of a region's records. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* Chunk C holds NAMES0 << C names; the 11 of them, the 65536 that a
 * record's op can name. */
enum { NAMES0 = 64, NAMEMAX = 65536 };

/* Names in chunks that never move once made (name_slot): a thread that
 * seized the recorder (crash/take.c) writes the names of records while
 * their owner may be adding one, and would read a table that grew by
 * realloc as it was freed. */
static struct {
	char **namech[11];
	size_t nname;
	char spare[1024];	/* names made in handlers */
	size_t nspare;
} N;

/* Name K's place, its chunk made if MAKE (outside handlers: calloc)
 * and published whole; NULL if it has none. */
static char **
name_slot(size_t k, int make)
{
	size_t c = 0, base = 0;
	char **ch;

	while (k - base >= (size_t)NAMES0 << c) {
		base += (size_t)NAMES0 << c;
		if (++c == sizeof N.namech / sizeof N.namech[0])
			return NULL;
	}
	ch = __atomic_load_n(&N.namech[c], __ATOMIC_ACQUIRE);
	if (!ch && make && !rec_insig &&
	    (ch = calloc((size_t)NAMES0 << c, sizeof *ch)) != NULL)
		__atomic_store_n(&N.namech[c], ch, __ATOMIC_RELEASE);
	return ch ? &ch[k - base] : NULL;
}

long
rec_name_index(const char *name)
{
	size_t i, n;
	char *s, **slot;

	if (!name || !*name)
		name = "-";
	for (i = 0; i < N.nname; i++)
		if (strcmp(*name_slot(i, 0), name) == 0)
			return i;
	if (N.nname >= NAMEMAX || !(slot = name_slot(N.nname, 1)))
		return -1;
	/* In a handler, in the room kept for it; else a region left out */
	n = strlen(name) + 1;
	if (rec_insig) {
		if (n > sizeof N.spare - N.nspare)
			return -1;
		s = memcpy(N.spare + N.nspare, name, n);
		N.nspare += n;
	} else if (!(s = strdup(name)))
		return -1;
	rec_clean(s);
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = '_';
	*slot = s;
	__atomic_store_n(&N.nname, N.nname + 1, __ATOMIC_RELEASE);
	return N.nname - 1;
}

const char *
rec_name(size_t k)
{
	return *name_slot(k, 0);
}
