/* extrap/extrap.h - models evaluated and traces synthesised at a target scale. */
#ifndef TR_EXTRAP_H
#define TR_EXTRAP_H

#include "../fit/fit.h"
#include "../mpi/mpi.h"

/* ---- extrap.c: fitted models evaluated at a target scale (tr-extrap) ---- */

/* An expression in n (slot 0) and N (slot 1), as tr-fit writes models;
 * NULL on error as tr_expr_parse. */
struct tr_expr *tr_xp_parse(const char *src, char *err, size_t errsz,
    int *col);
double tr_xp_eval(const struct tr_expr *e, double n, double N);
struct tr_xp;
/* Models are evaluated at NP processes and size N (-1: none given). */
struct tr_xp *tr_xp_new(double np, double N);
/* Takes a model record; dies (file:line) on a bad expression, one in N
 * without N, or one not finite at np. The first three predictions below
 * zero are reported. */
void tr_xp_add(struct tr_xp *x, const struct tr_in *in,
    const struct tr_rec *r);
size_t tr_xp_count(const struct tr_xp *x);
/* Writes the predicted records as a stream: one record per (type, key),
 * per-rank types over np ranks, a histogram's bins after it. */
void tr_xp_write(struct tr_xp *x, struct tr_out *o);
/* Reports how many more predictions fell below zero. */
void tr_xp_report(const struct tr_xp *x);
void tr_xp_free(struct tr_xp *x);
/* Also evaluates every model at NP2 and problem size N2, the target's
 * if N2 < 0 (as v2 below). */
void tr_xp_eval2(struct tr_xp *x, double np2, double N2);
/* The (type, key) groups of models, in order of first appearance: group
 * G's type and key; the group of TYPE and KEY, or -1; quantity Q of
 * group G at np and at np2: 0, or -1 if G has no model of Q. */
size_t tr_xp_ngroups(const struct tr_xp *x);
const char *tr_xp_group(const struct tr_xp *x, size_t g, const char **key);
long tr_xp_find(const struct tr_xp *x, const char *type, const char *key);
int tr_xp_get(const struct tr_xp *x, long g, const char *q, double *v,
    double *v2);
/* Quantity Q of group G evaluated at (NP, N) in *V: 0, or -1. */
int tr_xp_at(const struct tr_xp *x, long g, const char *q, double np,
    double N, double *v);
/* The cross-validation error (cvsmape, %) of that model, 0 if none,
 * and in *POINTS the points it was fitted on, at most the distinct
 * process counts of a fit in (n, N) (#meta fit.scales). */
double tr_xp_cv(const struct tr_xp *x, long g, const char *q,
    double *points);

/* ---- synth*.c: a whole trace synthesised at a target scale (tr-extrap -T) ---- */

/* From a template run's trace read twice: its nearest-neighbour grid
 * mapped onto NP ranks, peers and bytes scaled (strong or weak scaling),
 * delta times drawn with SEED from the histograms of the models in XP
 * (used, not owned) at NP and N (-1: none). */
struct tr_syn;
struct tr_syn *tr_syn_new(struct tr_xp *xp, long np, double N,
    uint64_t seed);
/* The files pass 1 and 2 read (kept, not copied): a receive is given
 * the size of the message that matches it, read from its sender's. */
void tr_syn_files(struct tr_syn *s, int nfiles, char **files);
/* Pass 1: every record of the template (ev, comm) and the models. */
void tr_syn_add(struct tr_syn *s, const struct tr_in *in,
    const struct tr_rec *r);
/* Between the passes: infers the grids, writes the header; dies
 * (TR_EXIT_DATA) if the template does not fit. */
void tr_syn_begin(struct tr_syn *s, struct tr_out *o);
/* Pass 2: each record of the template; an ev is written for every
 * target rank that follows its rank. */
void tr_syn_ev(struct tr_syn *s, const struct tr_in *in,
    const struct tr_rec *r, struct tr_out *o);
/* After pass 2: TR_EXIT_DATA, said on stderr, if the messages written
 * do not balance (some sent are never received), else 0. */
int tr_syn_end(struct tr_syn *s);
void tr_syn_free(struct tr_syn *s);
struct tr_vf;
/* Every record written is also given to VF (tr_vf_ev), and the target
 * grid (tr_vf_grid) at tr_syn_begin. */
void tr_syn_verify(struct tr_syn *s, struct tr_vf *vf);

/* ---- verify*.c: a trace checked against the models it came from ---- */

/* Checks a trace of NP ranks against the models of XP (used, not
 * owned), evaluated there: a value disagrees beyond TOL (a fraction)
 * plus three times its model's cross-validation error, that times the
 * doublings from the largest scale fitted to NP (tr_vf_from). */
struct tr_vf *tr_vf_new(const struct tr_xp *xp, double np, double tol);
/* The largest process count the models were fitted at (a grown
 * trace's template's). */
void tr_vf_from(struct tr_vf *v, double np);
/* The grid whose position classes are the rank classes (tr_grid_class):
 * ranks of one class make the same calls. */
void tr_vf_grid(struct tr_vf *v, const struct tr_grid *g);
/* The same from a grid as #meta extrap.grid writes it (4x4p; none: no
 * grid, no classes); -1 if S is not one. */
int tr_vf_grid_str(struct tr_vf *v, const char *s);
/* An ev record of the trace; or any record (ev and reg taken: 1). */
void tr_vf_ev(struct tr_vf *v, const struct tr_in *in, const struct tr_ev *e);
int tr_vf_rec(struct tr_vf *v, const struct tr_in *in,
    const struct tr_rec *r);
/* Compares what was taken with the models: each value as an acc record
 * to O (NULL: none) with their accsum; each disagreement beyond the
 * tolerance said on stderr (the first ten, then their number), each
 * beginning with WHAT. Returns how many there were; *WORST is the
 * largest, relative to its tolerance (1: at it). V is readied. */
long tr_vf_end(struct tr_vf *v, struct tr_out *o, const char *what,
    double *worst);
/* After tr_vf_end: its largest disagreement as said ("" for none). */
const char *tr_vf_worst(const struct tr_vf *v);
void tr_vf_free(struct tr_vf *v);

/* ---- peer-*.c: the peers of point-to-point call sites as functions of
 * (rank, P), learnt from traces at several scales (tr-pattern) ---- */

struct tr_pat;
struct tr_pat *tr_pat_new(void);
/* Takes an ev record (1), keeping the peer of a point-to-point call on
 * the world at the scale of the section's #meta np; other records are
 * left to the caller (0). */
int tr_pat_add(struct tr_pat *p, const struct tr_in *in,
    const struct tr_rec *r);
/* Writes a peer record per (op, site, class of ranks); dies
 * (TR_EXIT_DATA) naming the first site no candidate explains, the
 * pairs seen at each scale and the candidates tried. */
void tr_pat_write(struct tr_pat *p, const struct tr_in *in,
    struct tr_out *o);
void tr_pat_free(struct tr_pat *p);
/* Fits every site: 0, or -1 with the refusal tr_pat_write would die
 * with in WHY. */
int tr_pat_fit(struct tr_pat *p, char *why, size_t wn);
/* The peers of rank R of P in one cycle at E's (op, site), by the
 * function of R's class, into OUT (room for P + 64): their number, -1
 * if no function explains the site or has a meaning at P. With INVERSE,
 * the ranks whose peer R is at each place of their cycles (the sources
 * of a Sendrecv), -1 if the function has no inverse of that kind. */
long tr_pat_peers(struct tr_pat *p, const struct tr_ev *e, long r, long P,
    long *out, int inverse);
/* 1 if E's site is a Sendrecv that receives from the rank it sends to
 * at every call (tr_pat_peers gives its sources as its peers). */
int tr_pat_pairwise(struct tr_pat *p, const struct tr_ev *e);
/* The tag of a message from world rank SND to RCV of P at E's site, by
 * the site's tag function; -1 where the template's tags are kept. */
int64_t tr_pat_tag(struct tr_pat *p, const struct tr_ev *e, long snd,
    long rcv, long P);
/* The reduction by levels E's site is one of, or -1: sites whose
 * peers are rank XOR 2^k at the levels k whose bit of the rank is set
 * (sends) and at those where it is clear (receives), on one
 * communicator, which one loop over k calls in turn. */
int tr_pat_group(struct tr_pat *p, const struct tr_ev *e);
/* The calls of rank R of P in one cycle of the reduction of E's site,
 * in the order of its levels: each one's peer into PEERS and site
 * (tr_pat_site_index) into SITES, room for P + 64; their number, -1 if
 * E's site is in none. */
long tr_pat_gseq(struct tr_pat *p, const struct tr_ev *e, long r, long P,
    long *peers, long *sites);
/* 1 if site I is one of a reduction's. */
int tr_pat_site_grouped(struct tr_pat *p, size_t i);
/* The index of E's site, -1 if none; and site I's op and call site,
 * with the bytes and tag of its first call. */
long tr_pat_site_index(struct tr_pat *p, const struct tr_ev *e);
void tr_pat_site_call(const struct tr_pat *p, long i, struct tr_field *op,
    struct tr_field *site, int64_t *bytes, int64_t *tag);
/* Per site (in order of first appearance), the class R of P falls in
 * and the length of its cycle (-1: none fits), and with SHAPE its shape
 * (tr_pat_shape). */
size_t tr_pat_nsites(const struct tr_pat *p);
void tr_pat_class(struct tr_pat *p, long r, long P, int *cls, long *len,
    long *shape);
/* What tells the cycle of rank R of P at E's site from another's of its
 * length: which of its offsets R has on a grid or a line (bit i for
 * offset i), else its length; -1 as tr_pat_peers. */
long tr_pat_shape(struct tr_pat *p, const struct tr_ev *e, long r, long P);
/* 0 if at P ranks each site's function gives every rank the peers the
 * next function that explains the recorded scales as well would give;
 * else -1, with the site, both functions and the first rank they part
 * at in WHY. */
int tr_pat_parted(struct tr_pat *p, long P, char *why, size_t wn);
/* The call (MPI_Isend, ...) of site I, in that order. */
const char *tr_pat_site_op(const struct tr_pat *p, size_t i);
/* Calls on communicators that are not the world in rank order, and
 * whose members no comm record gave (all of them without
 * tr_pat_subcomms). */
long tr_pat_othercomm(const struct tr_pat *p);
/* Learns the peers of calls on sub-communicators whose comm records
 * come before them in their ranks, in the communicator's ranks; called
 * before any tr_pat_add. */
void tr_pat_subcomms(struct tr_pat *p);
/* Rank R of P's place in communicator ID into *PLACE, its first member
 * and the step between members into *FIRST and *STEP: the number of
 * members, 0 if R has no place in one. */
typedef long (*tr_pat_place_fn)(void *ctx, int64_t id, long r, long P,
    long *place, long *first, long *step);
/* How tr_pat_peers and tr_pat_class place a rank in a site's
 * sub-communicator; without it such a site has no peers. */
void tr_pat_places(struct tr_pat *p, tr_pat_place_fn fn, void *ctx);
/* The sites on sub-communicators. */
size_t tr_pat_nsub(const struct tr_pat *p);

#endif
