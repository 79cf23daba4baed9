/* clean.c - text made fit for a field of the trace. */
#include "core.h"

void
rec_clean(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}
