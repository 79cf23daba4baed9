/* extrap/verify-int.h - what the files of tr_vf share. */
#ifndef TR_VERIFY_INT_H
#define TR_VERIFY_INT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extrap.h"

/* Disagreements said one by one; the rest are counted. */
#define VF_SAY 10
/* A model's cross-validation error is how far it strays from a scale
 * it was not fitted on: three of them is where the trace, not the
 * model, is wrong. */
#define VF_CVS 3
/* The error taken, at least, of a model fitted on 3 points or fewer,
 * percent: its form was chosen on them all, so leaving one out only
 * refits a coefficient and tells nothing (1e-14 % for LAMMPS's calls at
 * 2, 4 and 8 ranks, n log2 n, 25 % too many at 16, where a fourth
 * dimension is no longer added). */
#define VF_CV3 20

struct vrank {			/* one rank of the trace */
	int64_t *calls, *bytes;	/* per op (tr_vf.ops) */
	size_t nops, cap;
	double wall, cpu;	/* its delta sums over every key */
	int seen, hasdsum;
};

struct tr_vf {
	const struct tr_xp *xp;
	double tol;
	double doublings;	/* of the error, past the scales fitted */
	double np;
	struct tr_delta *d;
	struct tr_opstat *st;
	struct tr_grid g;
	int hasgrid;
	struct tr_map *ops;
	struct vrank *rk;
	size_t nrk, rkcap;
	/* the comparisons so far */
	struct tr_out *o;
	const char *what;
	unsigned char *gseen;	/* model groups the trace has */
	long ncmp, nbad, nmiss;
	double worst;
	double *score;		/* each comparison's accuracy, for O */
	size_t nscore, scap;
	char wdesc[320];	/* the largest disagreement, said */
	double tfloor;		/* ns: a time difference below is noise */
	double sent, recvd;	/* bytes of point-to-point messages */
};

/* Compares MEAS with PRED, a value of TYPE KEY QUANTITY, within TOL (a
 * fraction) plus FLOOR; says it if beyond (WHO: the rank and class it
 * is of, or NULL); writes its acc record. */
void vf_compare(struct tr_vf *v, const char *type, const char *key,
    const char *q, double pred, double meas, double tol, double floor,
    const char *who);
/* The tolerance of model G's quantity Q. */
double vf_tol(const struct tr_vf *v, long g, const char *q);
/* The ranks of each class against the class's median. */
void vf_classes(struct tr_vf *v);

#endif
