/* gen/gen.h - synthetic traces of common MPI patterns. */
#ifndef TR_GEN_H
#define TR_GEN_H

#include "../core/core.h"

/* ---- gen.c: ranks in lock step under a simple timing model (tr-gen) ---- */

/* Ranks advance one iteration at a time under latency LAT, bandwidth
 * BW and per-call overhead OVH, so that waits, late senders and
 * collective skew come out as they would in a real run: a slow rank
 * delays its neighbours and everybody at an allreduce. */
enum { TR_GEN_RING, TR_GEN_STENCIL, TR_GEN_ALLTOALL, TR_GEN_MASTER,
	TR_GEN_BUTTERFLY, TR_GEN_TRANSPOSE, TR_GEN_TREE, TR_GEN_GRID2D,
	TR_GEN_PAIRWISE, TR_GEN_REDUCE };
struct tr_genopt {
	int kind;		/* TR_GEN_* */
	int ndims;		/* of a stencil's grid: 1 to 3 */
	int diag;		/* a 3-D stencil's 26 neighbours, not 6 */
	const char *name;	/* the call sites' prefix */
	int np, iters;
	int every;		/* a stencil's allreduce every EVERY iterations */
	int onlyrank;		/* the records of that rank only; -1 all */
	int64_t bytes, comp, lat, ovh;	/* message, compute burst, ns */
	double bw, noise;	/* bytes/s; bursts vary by +-NOISE */
	int slowrank;		/* its bursts SLOWF times longer; -1 none */
	double slowf;
	uint64_t seed;
};
/* The stencil's grid: balanced factors of NP, largest first. */
void tr_gen_dims(int np, int nd, int *dims);
/* Writes the ev records of the run, and the comm records of the
 * communicators it makes (the header is the caller's). */
void tr_gen_run(const struct tr_genopt *g, struct tr_out *o);

#endif
