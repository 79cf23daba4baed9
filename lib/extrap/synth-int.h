/* extrap/synth-int.h - what the files of tr_syn share: the
 * synthesiser's state, and small helpers of several of them. */
#ifndef TR_SYNTH_INT_H
#define TR_SYNTH_INT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extrap.h"

/* Bursts of one key behind its running level: the lower median of
 * the last NLEVEL, which follows a warm-up or a drift as soon as most
 * of them do, and not one burst slowed by the scheduler. */
#define NLEVEL 5
/* Lags that followers of one template rank take: beyond them, lags
 * repeat. Each lag costs a burst per template rank and key, so a
 * 65,536-rank target grown from a small template holds 256 of them, not
 * tens of thousands. */
#define MAXLAG 256
/* Cursors open at once (struct cursor): each holds a reader's buffers,
 * about 400 kB, and a file. The template as one file per rank keeps
 * those of one receiving rank open; a merged one keeps all. */
#define MAXCURSORS 256
/* Sendrecvs per template rank whose directions are compared between
 * ranks at one kind of grid position (same_moves). */
#define NMOVES 64

struct tgt {			/* a target rank while writing */
	int64_t clock, lstart, lend;
	uint64_t rng;
	/* Its seq less the template's: off a grid, a cycle of other
	 * length than the template's writes more or fewer records. */
	int64_t seqoff;
};

struct tmpl {			/* a template rank while streaming */
	int64_t pend, pseq;
	char *psite;
	int seen;
	int pgrp;		/* the reduction of its call before, -1 none */
	/* Sends and receives so far along each 2-rank periodic dimension,
	 * whose two neighbours are one rank (see syn_sides()). */
	unsigned nsend[TR_GRID_MAXD], nrecv[TR_GRID_MAXD];
};

struct binset {			/* predicted delta bins of one interval */
	double lo[64], hi[64], cnt[64], mean[64];
	int n;
	double ratio;		/* hist mean at target / at template */
	double hn;		/* hist n predicted */
	int sane;
	/* q10, q25, q50, q75, q90 at the target and at the template's
	 * scale, when the models have them all. */
	double qt[5], qs[5];
	int hasq;
};

struct cartrec {
	int nd, dims[TR_CART_MAXD], per[TR_CART_MAXD];
};

struct tr_syn {
	struct tr_xp *xp;
	long nt, P;		/* ranks at the target and in the template */
	int64_t *carry;		/* per template rank: CPU ns of its region
				 * records since its last call (syn_carry) */
	double N, tN;		/* problem size at the target, the template's
				 * (-1 where not said) */
	double nratio;		/* halo bytes at N over those at tN */
	uint64_t seed;
	/* Pass 1: who talks to whom, how much, and the communicators. */
	struct tr_map *pmap, *cmap;
	long (*pairs)[2];
	double (*pbytes)[2];	/* bytes and messages of each pair */
	size_t npairs, paircap, pbcap;
	int64_t *csize;
	unsigned char *cworld;	/* members are the world ranks in order */
	size_t ncs, cscap, cwcap;
	unsigned char *rseen;	/* template ranks that have ev records */
	size_t rscap;
	/* The destinations of each template rank's first NMOVES
	 * Sendrecvs, in order (rank * NMOVES + k), and how many. */
	long *moves;
	int *nmoves;
	long nseen;
	char *npfile;		/* where the template's #meta np was read */
	long npline;
	/* The grid of the first Cartesian communicator of the template
	 * whose members are the world ranks in order (dimensions of extent
	 * 1 left out): the world's grid. */
	struct tr_grid cart;
	struct cartrec tcart;	/* its cart record, extents of 1 kept */
	/* Set by tr_syn_begin. */
	struct tr_grid g, tg;
	char gridrule[256];	/* how tg was chosen: #meta extrap.grid.rule */
	int strong;
	long *rep;		/* the template rank each target rank follows */
	struct tgt *tgt;
	struct tmpl *tm;
	struct tr_map *bmap;
	char *bkey;		/* syn_binset_get's key of CPU bins */
	size_t bkeycap;
	struct binset *bins;
	size_t nbins, bincap;
	char *hkey;		/* hist_push's key */
	size_t hkeycap;
	char *key;		/* of the interval at hand, as long as it is */
	size_t keycap;
	struct tr_itab side;	/* (rank, req) -> side of a pending one */
	struct tr_itab stags;	/* (rank, peer) -> struct stags */
	/* (rank, comm id) -> struct cartrec: the template's Cartesian
	 * communicators on the world's grid, as recorded (extents of 1
	 * kept), for the target's cart records. */
	struct tr_itab carts;
	/* Template compute bursts by (template rank, interval key), the
	 * last hcap of them, for the target ranks that follow one template
	 * rank to take its noise at different lags (hist_lagged). */
	long *lag;		/* target rank t takes lag[t] bursts back */
	long *nfol;		/* target ranks per template rank */
	long nlag;		/* their most */
	long hcap;		/* bursts a ring holds */
	struct tr_map *hmap;
	struct hist *hist;
	size_t nhist, histcap;
	/* comm and cart records as read, learnt once pass 1 has shown
	 * which sections are the template's: those with ev records. A
	 * model file carries the comm and cart records of every run it
	 * was fitted on, passed through (a 2-rank grid beside an 8-rank
	 * one, and comm ids that clash). */
	struct pendst *pst;
	size_t npst, pstcap;
	unsigned char *evsect;	/* sections with ev records */
	size_t evcap;
	/* Messages of the output, sent less received, per (source,
	 * destination, tag) and per pair: a trace that does not balance
	 * cannot be replayed. Wildcards, and Sendrecv for the tags, leave
	 * the check undecided. */
	struct tr_map *msgs;
	int64_t *mcount;
	/* The largest message of the template per (sender, receiver,
	 * tag), then per (tag or -1 for any, dimension, side): what a
	 * receive along that direction must hold when it cannot be paired
	 * with its message, since on the target its sender follows another
	 * template rank than its template peer. */
	struct tr_map *smap, *dmap;
	double *smax, *dmax;
	int64_t (*skey)[3];
	size_t smcap, skcap, dmcap;
	size_t mcap;
	int wild, untagged;
	/* A receive holds the message that matches it (MPI's order: the
	 * k-th from a source with a tag on a communicator), read from the
	 * template's files by a cursor over its sender's sends (struct
	 * cursor). The files and, per template rank, the span of them that
	 * holds its ev records (first + 1, last + 1; 0 for none). */
	char **files;
	int nfiles, nofile;
	const char *lastname;
	int lastfi;
	int (*fspan)[2];
	size_t fscap;
	/* Per template rank: ev records (pass 1), left (pass 2). */
	int64_t *nev;
	size_t nevcap;
	/* Template ranks whose receives cannot be paired with messages in
	 * order: wildcards, matched probes, cancels, Sendrecvs that
	 * receive another tag than they send. */
	unsigned char *nomatch;
	size_t nmcap;
	/* (rank, site) of a template Irecv -> 2 if some posted more than
	 * the message it got (a buffer), else 1 if some posted its size. */
	struct tr_map *sitemap;
	unsigned char *siterel;
	size_t srcap;
	char *rkey;
	size_t rkeycap;
	struct tr_itab pirecv;	/* pass 1: (rank, req) -> struct pirecv */
	/* Cursors by (template receiver, template sender, tag, comm,
	 * offset from receiver to sender on the target grid); those of a
	 * receiver chained from curhead, closed after its last record. */
	struct tr_map *curmap;
	struct cursor *cur;
	size_t curcap;
	/* (op, call site) of a send -> syn_site_kept's answer + 1, 0 if not
	 * asked yet: asked per message, answered by a model lookup. */
	struct tr_map *keptmap;
	unsigned char *kept;
	size_t keptcap;
	long *curhead;
	uint64_t stamp;		/* template records seen in pass 2 */
	int nopen;		/* cursors open */
	int capwarn;		/* cursors that MAXCURSORS kept closed */
	/* (target rank, req) -> the bytes of the message its pending
	 * receive holds, for the record that completes it. */
	struct tr_itab rbytes;
	struct tr_vf *vf;	/* checks what is written (tr_syn_verify) */
	/* Off a grid: the peer functions of the template's sites; per
	 * (rank, site, op) the place in its cycle of the next call; a
	 * cycle of peers and of sources at hand. */
	struct tr_pat *pat;
	/* (target rank, req) -> the peer of its pending nonblocking call
	 * at a site of the pattern, for the record that completes it. */
	struct tr_itab preq;
	/* per target rank: 1 if its template rank's cycles at the sites
	 * of nonblocking calls have its shapes (syn_peer_begin) */
	unsigned char *repx;
	int peermode;
	struct tr_map *ppmap;
	long *ppos, *pcyc, *pinv;
	size_t pposcap, npposn, pcyccap, pinvcap;
	/* A reduction's sites (tr_pat_group): the current call's group,
	 * -1 if none; per (template rank, group) the place of its next
	 * call; per (template rank, site) its last call's bytes and tag;
	 * the sites of the calls in s->pcyc. */
	int pgrp;
	struct tr_itab pgpos, pglast;
	long *psite;
	size_t psitecap;
	char *gkey;		/* syn_peer_key's */
	size_t gkeycap;
	/* Off a grid: interval key -> what its bursts are scaled by
	 * (synth-scale.c). */
	struct tr_map *smapk;
	struct bscale *bsc;
	size_t nbsc, bsccap;
	char *lkey;		/* syn_scale_loop's key */
	size_t lkeycap;
	struct tr_subs *subs;	/* sub-communicators (synth-comm.c) */
	struct tr_vcoll *vcoll;	/* Gatherv, Scatterv (synth-vcoll.c) */
};

/* The sums per rank of one interval's bursts: of wall and CPU time,
 * their largest or their total (struct bscale's max), and the ranks. */
struct bsum {
	double w, c, n;
};

/* The bursts of one interval off a grid, scaled so that the sums of
 * them per target rank, their mean or their largest, change from the
 * template's as the delta-sum model's do. */
struct bscale {
	int max;		/* the largest sum followed, else the mean */
	/* wall, cpu predicted at the target [0] and at the template's
	 * scale [1]; -1 none */
	double dw[2], dc[2];
	/* The sums of the template's bursts as the target writes them,
	 * unscaled [0], and as the template has them [1]. */
	struct bsum at[2];
	int pat;		/* some burst of it precedes a call of a cycle */
	double fw, fc;		/* the factors */
};

/* The sends of template rank a, read from its files, that target rank
 * u0, following it, makes to target rank t0 with a tag on a
 * communicator: what t0's receives from u0 match, in order. Every
 * target pair (t, u) whose t follows the same template rank, whose u
 * follows a, and whose u lies at the same offset from t, receives the
 * same messages at the same template records. */
struct cursor {
	struct tr_in *in;	/* NULL once closed */
	long a, u0, t0;
	int64_t tag, comm;
	/* a's sends along each 2-rank periodic dimension so far, as
	 * syn_sides() counts them. */
	unsigned nsend[TR_GRID_MAXD];
	uint64_t stamp;		/* the template record it last advanced at */
	int64_t bytes;		/* that message's bytes at the target, or -1 */
	long next;		/* the receiver's next cursor, or -1 */
};

struct pirecv {
	int64_t bytes;
	long site;
};

struct hist {
	int64_t n;		/* bursts seen */
	int64_t level[2];	/* of wall and cpu, at the last burst */
	int64_t (*v)[4];	/* ring: wall, cpu, their residuals */
};

/* The tags a template rank sends to one peer with, in order of first
 * use, up to two (n 3: more than two). */
struct stags {
	int64_t tag[2];
	int n;
};

struct pendst {			/* a comm or cart record of pass 1 */
	long sect;
	int cart;		/* else comm */
	int world;		/* comm: members are the world in order */
	int64_t rank, id, size;
	int64_t np;		/* of its section, -1 if not said */
	char *mem;		/* comm: its members unless the world's */
	struct cartrec c;
};

/* ---- synth-learn.c: pass 1 ---- */

/* The comm and cart records of the sections that hold ev records. */
void syn_learn_structure(struct tr_syn *s);
long syn_put_max(struct tr_map *m, double **arr, size_t *cap,
    const int64_t k[3], double v);

/* ---- synth-grid.c: the grids and the ranks that follow ---- */

int syn_template_grid(struct tr_syn *s, char *why, size_t wn);
void syn_target_grid(struct tr_syn *s, int known);
void syn_warn_flat(const struct tr_syn *s);
int syn_strong_scaling(const struct tr_grid *g, long (*pairs)[2],
    double (*pb)[2], size_t n);
void syn_map_ranks(struct tr_syn *s, int known);
int syn_direction(const struct tr_grid *g, long a, long b);
int syn_side_of(const struct tr_grid *g, long a, long b, int *dim);
long syn_mapped(const struct tr_grid *tg, const struct tr_grid *g, long rep,
    long peer, long t, int side);
int syn_pdim(const struct tr_syn *s, int64_t rank, long peer);
void syn_grid_str(const struct tr_grid *g, char *buf, size_t n);
int syn_same_grid(const struct tr_grid *a, const struct tr_grid *b);

/* ---- peer-grid.c ---- */

/* The template's grid when its pairs are neighbours across faces,
 * edges or corners: the recorded one (1), else MPI_Dims_create's in 2
 * or 3 dimensions, open then periodic (0); -1 if none. */
int syn_diag_grid(struct tr_syn *s);
/* 1 if every offset some pair shows on G joins every rank to its
 * neighbour there: a stencil, not a tree that happens to lie on G. */
int syn_stencil(const struct tr_syn *s, const struct tr_grid *g);

/* ---- synth-peer.c: off a grid, by peer functions ---- */

/* Fits the template's sites and maps the target ranks onto template
 * ranks of their classes: 0, or -1 with why not in WHY. */
int syn_peer_begin(struct tr_syn *s, char *why, size_t wn);
int syn_peer_pos(struct tr_syn *s, const struct tr_in *in,
    const struct tr_ev *e, long *j, long *m);
long syn_peer_span(struct tr_syn *s, const struct tr_in *in,
    const struct tr_ev *e, long t, long j, long m, long *lo, long *hi);
/* X, target rank T's call at place II of a reduction's cycle, made a
 * call at its own site where template call E is at another: its op,
 * site, bytes (scaled as sent) and tag those of template rank E->rank's
 * last call there. */
void syn_peer_other(struct tr_syn *s, const struct tr_ev *e, long t,
    long ii, struct tr_ev *x);
/* Back to the start of every cycle, for another pass over the
 * template. */
void syn_peer_rewind(struct tr_syn *s);
/* The interval that place II of a reduction's cycle of N, written from
 * place LO at template rank P's call, lands in at the target rank whose
 * places s->psite holds: from the site of the call written before it
 * to its own. */
const char *syn_peer_key(struct tr_syn *s, const struct tmpl *p, long lo,
    long ii, long n);
/* The tags of X, target rank T's call at the place of template call E,
 * by the tag function of its site (its peer and source set). */
void syn_peer_tags(struct tr_syn *s, const struct tr_ev *e, long t,
    struct tr_ev *x);
/* The peers of target ranks' pending requests at the pattern's sites,
 * which the records completing them name. */
void syn_peer_keep(struct tr_syn *s, long t, int64_t req, long peer,
    int64_t bytes);
int syn_peer_req(struct tr_syn *s, long t, int64_t req, long *peer,
    int64_t *bytes);

/* The template's ev records as the passes after the first read them:
 * 1 if R is one, copied to *E with the CPU time of the rank's region
 * records before it (reg, which the synthetic trace leaves out) added to
 * its cpu, as tr-delta counts it in the burst. syn_carry_reset starts a
 * pass. */
int syn_carry(struct tr_syn *s, const struct tr_rec *r, struct tr_ev *e);
void syn_carry_reset(struct tr_syn *s);

/* ---- synth-scale.c: bursts off a grid scaled by the delta sums ---- */

/* Reads the template once more, with the peer functions fitted, for
 * every interval's bursts as the target repeats them. */
void syn_scale_learn(struct tr_syn *s);
/* The scaling of interval KEY's bursts, or NULL to leave them to the
 * histograms (syn_draw): no delta-sum model, or no cycle of peers. */
const struct bscale *syn_scale_get(struct tr_syn *s, const char *key);
/* The same for the interval from E's call site to itself, which the
 * places a cycle writes beyond the template's are in. */
const struct bscale *syn_scale_loop(struct tr_syn *s, const struct tr_ev *e);

/* ---- synth-model.c: what the models predict at the target ---- */

void syn_collect_bins(struct tr_syn *s);
void syn_check_bins(struct tr_syn *s);
struct binset *syn_binset_get(struct tr_syn *s, const char *key, int cpu,
    int add);
int64_t syn_draw(const struct binset *bs, int64_t tdelta, uint64_t *rng);
double syn_byteratio(const struct tr_syn *s, const struct tr_field *op);
int syn_strong_by_models(const struct tr_syn *s);
double syn_size_ratio(const struct tr_syn *s);
int syn_site_kept(struct tr_syn *s, const struct tr_ev *e);

/* ---- synth-msg.c: the sizes and sides of messages at the target ---- */

void syn_fold_sends(struct tr_syn *s);
int syn_sides(struct tr_syn *s, const struct tr_ev *e, long peer, int cls);
int64_t syn_send_bytes(struct tr_syn *s, const struct tr_ev *e);
void syn_recv_bytes(struct tr_syn *s, const struct tr_ev *e, long t, int cls,
    struct tr_ev *x);
int64_t syn_matched(struct tr_syn *s, const struct tr_ev *e, long t, long u,
    int64_t tag);
void syn_cursor_close(struct tr_syn *s, struct cursor *c);
void syn_cursors_done(struct tr_syn *s, int64_t rank);

/* ---- synth-comm.c: sub-communicators ---- */

int syn_newcomm(const struct tr_field *op);
void syn_comm_ev(struct tr_syn *s, const struct tr_ev *e);
void syn_comm_begin(struct tr_syn *s);
/* Forgets the candidates chosen, for syn_comm_begin to choose again. */
void syn_comm_undo(struct tr_syn *s);
void syn_comm_meta(struct tr_syn *s, struct tr_out *o);
int syn_comm_carts(const struct tr_syn *s);
void syn_comm_put(struct tr_syn *s, struct tr_out *o, int64_t id, long t);
long syn_comm_rank(struct tr_syn *s, const struct tr_in *in,
    const struct tr_ev *e, long t, long w);
void syn_comm_peer(struct tr_syn *s, const struct tr_in *in,
    const struct tr_ev *e, long t, long x);
long syn_comm_place(struct tr_syn *s, int64_t id, long a, long r, int target,
    long *place, long *first, long *step);
void syn_comm_free(struct tr_syn *s);

/* ---- synth-vcoll.c: the blocks of Gatherv and Scatterv by member ---- */

/* Pass 1: template rank E->rank's bytes and root at E's call site. */
void syn_vcoll_learn(struct tr_syn *s, const struct tr_ev *e);
/* Once the communicators are grown: each site's blocks by place. */
void syn_vcoll_begin(struct tr_syn *s);
/* Target rank T's bytes of E, whose root is target rank ROOT, in
 * *BYTES: 1, or 0 to leave them to the op's ratio. */
int syn_vcoll_bytes(struct tr_syn *s, const struct tr_ev *e, long t,
    long root, int64_t *bytes);
void syn_vcoll_free(struct tr_syn *s);

/* ---- synth-check.c ---- */

/* Counts target record X (class CLS) for tr_syn_end's balance. */
void syn_count_ev(struct tr_syn *s, const struct tr_ev *x, int cls);

/* ---- small helpers of several files ---- */

static inline int
is_sendrecv(const struct tr_field *op)
{
	return op->n >= 12 && memcmp(op->p, "MPI_Sendrecv", 12) == 0;
}

/* The key of E's interval, from template rank P's call before it to
 * E, in s->key. */
static inline const char *
interval_key(struct tr_syn *s, const struct tmpl *p, const struct tr_ev *e)
{
	size_t pn = p->psite ? strlen(p->psite) : 0;

	tr_grow(&s->key, &s->keycap, pn + e->site.n + 2, 1);
	memcpy(s->key, p->psite ? p->psite : "", pn);
	s->key[pn] = '>';
	memcpy(s->key + pn + 1, e->site.p, e->site.n);
	s->key[pn + 1 + e->site.n] = '\0';
	return s->key;
}

/* Template rank P's state past E, which SHARED (a record of the call
 * before it, same seq) leaves where it was; E a call of reduction GRP
 * (tr_pat_group) or of none (-1). */
static inline void
tmpl_step(struct tmpl *p, const struct tr_ev *e, int shared, int grp)
{
	if (!shared) {
		p->pgrp = grp;
		free(p->psite);
		p->psite = tr_strndup(e->site.p, e->site.n);
		p->pend = e->end;
	}
	p->pseq = e->seq;
	p->seen = 1;
}

/* The (rank, site) of E in s->rkey; its length. */
static inline size_t
site_key(struct tr_syn *s, const struct tr_ev *e)
{
	tr_grow(&s->rkey, &s->rkeycap, sizeof e->rank + e->site.n, 1);
	memcpy(s->rkey, &e->rank, sizeof e->rank);
	memcpy(s->rkey + sizeof e->rank, e->site.p, e->site.n);
	return sizeof e->rank + e->site.n;
}

/* The index of (RANK, ID) among the comm records: ids are numbered on
 * each rank (tr-format(5)). -1 if absent and not ADD. */
static inline long
comm_index(struct tr_syn *s, int64_t rank, int64_t id, int add)
{
	int64_t k[2] = {rank, id};

	return tr_map_get(s->cmap, (const char *)k, sizeof k, add);
}

/* llround beyond int64 is unspecified (INT64_MIN on x86, a time or a
 * size below zero): values past it saturate, which the callers' checks
 * then refuse. */
static inline int64_t
rnd64(double v)
{
	if (v >= 0x1p63)
		return INT64_MAX;
	if (v <= -0x1p63)
		return INT64_MIN;
	return v == v ? (int64_t)llround(v) : 0;
}

#endif
