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

/* ---- otf2out.c: a tr stream as an OTF2 archive ---- */

struct tr_otf2out;
/* Makes directory DIR (an error if it exists) and the archive
 * DIR/traces.otf2 in it; dies with "DIR: ..." (TR_EXIT_SYS). */
struct tr_otf2out *tr_otf2out_open(const char *dir);
/* Writes the ev, reg and comm records of one section, as IN reads them;
 * a record it cannot place is an error at IN's line. */
void tr_otf2out_add(struct tr_otf2out *x, struct tr_in *in,
    const struct tr_rec *r);
/* Writes the definitions (hosts from IN's header, which may be NULL),
 * closes the archive and frees X; says, unless QUIET, what readers
 * will number otherwise. */
void tr_otf2out_close(struct tr_otf2out *x, struct tr_in *in, int quiet);

#endif
