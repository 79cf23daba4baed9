/* conv/conv.h - the formats of other tools, read and written at the
 * edges of a pipeline: OTF2 through its own library, the trace-event
 * JSON of Chrome and Perfetto. */
#ifndef TR_CONV_H
#define TR_CONV_H

#include "../core/core.h"

/* ---- otf2in.c: an OTF2 archive as one tr stream ---- */

/* Reads the archive whose anchor file is ANCHOR and writes it to O as a
 * section of ev, reg and comm records in time order. Events it has no
 * record for are counted and said once on stderr unless QUIET. Dies
 * with "ANCHOR: ..." (TR_EXIT_DATA) on a bad archive. */
void tr_otf2_read(const char *anchor, struct tr_out *o, int quiet);

/* ---- chrome.c: trace-event JSON, for Perfetto and speedscope ---- */

struct tr_chrome;
/* Opens on O the JSON object whose events tr_chrome_rec writes, of the
 * ranks flagged in RANKS (NRANKS of them; NULL: all) and the calls,
 * computation and regions that overlap [T0, T1). Unless QUIET, says at
 * a section's end how many messages had no other end (not with RANKS,
 * which leaves ends out). */
struct tr_chrome *tr_chrome_new(struct tr_out *o, int64_t t0, int64_t t1,
    const unsigned char *ranks, size_t nranks, int quiet);
/* Every record of the stream; and a section's end (TR_END). */
void tr_chrome_rec(struct tr_chrome *c, const struct tr_in *in,
    const struct tr_rec *r);
void tr_chrome_end(struct tr_chrome *c, const struct tr_in *in);
/* Closes the object, before the reader is closed. */
void tr_chrome_close(struct tr_chrome *c);

#endif
