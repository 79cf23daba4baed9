/* conv/conv.h - the formats of other tools, read and written at the
 * edges of a pipeline: OTF2 through its own library. */
#ifndef TR_CONV_H
#define TR_CONV_H

#include "../core/core.h"

/* ---- otf2in.c: an OTF2 archive as one tr stream ---- */

/* Reads the archive whose anchor file is ANCHOR and writes it to O as a
 * section of ev, reg and comm records in time order. Events it has no
 * record for are counted and said once on stderr unless QUIET. Dies
 * with "ANCHOR: ..." (TR_EXIT_DATA) on a bad archive. */
void tr_otf2_read(const char *anchor, struct tr_out *o, int quiet);

#endif
