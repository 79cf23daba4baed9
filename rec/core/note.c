/* note.c - calls whose messages the trace will not hold (MPI-4
 * persistent requests, intercommunicators, ...): said once each, on
 * stderr by rank 0 and in a #meta unrecorded.KIND line of the trace,
 * so that a replay can say so. */
#include <string.h>

#include "core.h"

static struct rec_note notes[8];
static int nnote;

void
rec_unrecorded(const char *kind, const char *what, const char *note)
{
	int i;

	if (!rec.on)
		return;
	for (i = 0; i < nnote; i++)
		if (strcmp(notes[i].kind, kind) == 0)
			return;
	if (nnote == (int)(sizeof notes / sizeof notes[0]))
		return;
	notes[nnote].kind = kind;
	notes[nnote++].what = what;
	if (rec.rank == 0)
		rec_warn("%s: %s", what, note);
}

struct rec_note *
rec_notes(int *n)
{
	*n = nnote;
	return notes;
}
