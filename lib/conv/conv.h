/* conv/conv.h - the formats of other tools, read and written at the
 * edges of a pipeline: OTF2 through its own library, Extra-P's text
 * input, the trace-event JSON of Chrome and Perfetto. */
#ifndef TR_CONV_H
#define TR_CONV_H

#include "../mpi/mpi.h"

/* ---- otf2in.c: an OTF2 archive as one tr stream ---- */

/* Reads the archive whose anchor file is ANCHOR and writes it to O as a
 * section of ev, reg and comm records in time order. Events it has no
 * record for are counted and said once on stderr unless QUIET. Dies
 * with "ANCHOR: ..." (TR_EXIT_DATA) on a bad archive. */
void tr_otf2_read(const char *anchor, struct tr_out *o, int quiet);

/* ---- extrap-text.c: Extra-P's text input format ---- */

/* An experiment of Extra-P: values of series (a region's metric) at
 * points (a process count n and a problem size N), several per point,
 * one per repetition. */
struct tr_expt_vals {
	double *v;
	size_t n, cap;
};
struct tr_expt_series {
	char *region, *metric;
	char *type;		/* the record type it came from, or NULL */
	struct tr_expt_vals *at;	/* by point, nat of them */
	size_t nat;
};
struct tr_expt {
	char *param[2];		/* the names of n and of N (NULL: no N) */
	int nparam;
	struct tr_expt_point {
		double n, N;	/* N 0 without a problem size */
	} *pt;
	size_t npt, ptcap;
	struct tr_expt_series *ser;
	size_t nser, sercap;
	struct tr_map *smap;
};
struct tr_expt *tr_expt_new(void);
void tr_expt_free(struct tr_expt *e);
/* The index of point (n, N), added if ADD, else -1 if new. */
long tr_expt_point(struct tr_expt *e, double n, double N, int add);
/* The index of the series of REGION and METRIC, added if new. */
long tr_expt_series(struct tr_expt *e, const char *region,
    const char *metric);
void tr_expt_add(struct tr_expt *e, long s, long p, double v);
size_t tr_expt_nvals(const struct tr_expt *e, long s, long p);
/* Reads Extra-P's text format from IN: parameter nname (or, when NULL,
 * the one named p, P, np, nprocs, procs or ranks) is n, Nname (or, when
 * NULL, the other of two) N. A bad line dies with FILE:LINE
 * (TR_EXIT_DATA), an option naming no parameter with TR_EXIT_USAGE. */
struct tr_expt *tr_expt_read(struct tr_in *in, const char *nname,
    const char *Nname);
/* As tr sections of metric records, one section per point. */
void tr_expt_write_tr(const struct tr_expt *e, struct tr_out *o);
/* As Extra-P's text format; every series has a value at every point. */
void tr_expt_write_text(const struct tr_expt *e, struct tr_out *o);

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
