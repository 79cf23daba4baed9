/* fit/fit.h - models fitted to measurements. */
#ifndef TR_FIT_H
#define TR_FIT_H

#include "../expr/expr.h"
#include "../analyse/analyse.h"

/* ---- fit.c: models of a quantity over process count n and size N ---- */

enum { TR_RED_MEDIAN, TR_RED_MEAN, TR_RED_MIN, TR_RED_MAX };

/* One measurement: value t at n processes and problem size N (0: none). */
struct tr_fitpt {
	double n, N, t;
};

/* A term c * n^i * log2(n)^j * N^k * log2(N)^l. */
struct tr_fitterm {
	double c, i, j, k, l;
};

struct tr_fit {
	const char *family;	/* "pmnf", "scalaextrap-linear", "expr" ... */
	char expr[512];		/* the model in n and N, for tr_expr_parse */
	double rss, adjr2, smape, cvsmape;	/* smapes in percent */
	int points, reps;	/* distinct (n, N); fewest repetitions */
	double c0;		/* c0 + terms; nterm -1: only expr is valid */
	int nterm, noconst;	/* noconst: c0 is 0, not fitted */
	struct tr_fitterm t[3];
};

/* Sorts P, checks it (finite, n > 0), reduces repetitions of one (n, N)
 * with RED; returns the number of points left, or -1 with ERR set.
 * *noise gets the mean relative sd of the repetitions, in percent. */
int tr_fit_reduce(struct tr_fitpt *p, int m, int red, int *reps,
    double *noise, char *err, size_t errsz);
/* Fit the M measurements in P (reordered and reduced in place); 0, or
 * -1 with ERR set (too few points, non-finite values, ...). */
int tr_fit_pmnf(struct tr_fitpt *p, int m, int red, struct tr_fit *f,
    char *err, size_t errsz);
int tr_fit_scalaextrap(struct tr_fitpt *p, int m, int red, struct tr_fit *f,
    char *err, size_t errsz);
double tr_fit_eval(const struct tr_fit *f, double n, double N);
/* Writes f->expr from its terms. */
void tr_fit_format(struct tr_fit *f);
/* C with the rounding residue of exact data removed (99.99999999999999
 * is 100); 0 if below 1e-12 * scale. */
double tr_fit_snap(double c, double scale);

/* ---- fitexpr.c: user models, fitted by least squares ---- */

/* SRC is an expression in n, N and coefficients (any other names);
 * the fitted model has the coefficients substituted into the text. */
int tr_fit_expr(const char *src, struct tr_fitpt *p, int m, int red,
    struct tr_fit *f, char *err, size_t errsz);

/* ---- series.c: a model per key and quantity over runs (tr-fit) ---- */

/* The values of each (type, key, quantity) over runs, each a series of
 * points fitted by EXPR (tr_fit_expr), or else by FAMILY ("pmnf" or
 * "scalaextrap"), repetitions reduced by RED (TR_RED_*). */
struct tr_series;
struct tr_series *tr_series_new(const char *expr, const char *family,
    int red);
void tr_series_free(struct tr_series *s);
/* A run at n processes and problem size N (0: none) begins: the values
 * added from now on are its. */
void tr_series_run(struct tr_series *s, double n, double N);
/* FV's value, a point of the series of its type, key and quantity. */
void tr_series_add(struct tr_series *s, const struct tr_flatval *fv);
size_t tr_series_len(const struct tr_series *s);
/* Series I's "type TAB key TAB quantity". */
const char *tr_series_key(const struct tr_series *s, size_t i, size_t *len);
/* Fits series I (its points reordered and reduced) into F: 0, or -1
 * with the reason kept for tr_series_warn. */
int tr_series_fit(struct tr_series *s, size_t i, struct tr_fit *f);
/* Why series could not be fitted, on stderr: each reason once, with
 * the first series it failed and how many more, after FILES, the
 * inputs the series were read from (tr_files_str). */
void tr_series_warn(const struct tr_series *s, const char *files);

/* ---- model.c: phase models (formats/model.md) and tr-bench parameters ---- */

struct tr_model;
struct tr_params;
struct tr_phase_pred { double compute, comm; };	/* ns */
/* Reads a model file; defs are NAME=VALUE (-D) overriding its sets.
 * Dies with "tr-x: FILE:LINE: msg" on a bad model. */
struct tr_model *tr_model_load(const char *path, int ndef, char **defs);
void tr_model_free(struct tr_model *m);
size_t tr_model_nphase(const struct tr_model *m);
/* Name of phase i; *measured is set when its compute is taken from a
 * measurement. */
const char *tr_model_phase(const struct tr_model *m, size_t i, int *measured);
/* Predicts every phase at (N, P) into out[nphase]; meas[i] is phase i's
 * measured compute (NaN if none). 0, or -1 with a message in err. */
int tr_model_eval(const struct tr_model *m, const struct tr_params *p,
    double N, double P, const double *meas, struct tr_phase_pred *out,
    char *err, size_t errsz);
/* The param records of FILES (dies on bad ones). */
struct tr_params *tr_params_load(int nfiles, char **files);
void tr_params_free(struct tr_params *p);
/* alpha (ns) and beta (ns/B) of OP on COMM (world, row, col) of SIZE
 * ranks: measured, or interpolated in log2(size); 0 for size 1. 0, or
 * -1 with a message in err. */
int tr_params_get(const struct tr_params *p, const char *op,
    const char *comm, int64_t size, double *alpha, double *beta, char *err,
    size_t errsz);
/* The operations tr-bench measures, in its order: tr-model's hints say
 * which of them a model needs. */
#define TR_BENCH_OPS "MPI_Send", "MPI_Bcast", "MPI_Allreduce", \
	"MPI_Allgather", "MPI_Alltoall", "MPI_Barrier", "MPI_Reduce_local"
/* The rows x cols process grid tr-bench and tr-model use for np ranks:
 * rows the largest divisor of np not above sqrt(np). */
void tr_grid(int64_t np, int64_t *rows, int64_t *cols);

/* ---- phases.c: a phase model's predictions and measured phases (tr-model) ---- */

/* Phase and phasecmp records of model M (read from PATH, named in
 * messages) with parameters P: predictions at (np, N), or at each
 * (np, N) of a section's phase records WHAT ("measured" or
 * "corrected"; measured ones where a phase has none), compared. A
 * phase of the model not measured, or measured and not in the model,
 * is bad input; a warning if LENIENT. */
struct tr_phases;
struct tr_phases *tr_phases_new(const struct tr_model *m, const char *path,
    const struct tr_params *p, const char *what, int lenient);
void tr_phases_free(struct tr_phases *ph);
void tr_phases_predict(const struct tr_phases *ph, struct tr_out *o,
    int64_t np, double N);
/* A phase record of IN's section. */
void tr_phases_add(struct tr_phases *ph, const struct tr_in *in,
    const struct tr_rec *r);
/* At the section's end: the predictions compared; how many (np, N). */
size_t tr_phases_end(struct tr_phases *ph, const struct tr_in *in,
    struct tr_out *o);

/* ---- correct.c: measurement overhead taken out of phase times ---- */

/* Per phase and run: compute and MPI time per rank, from the reg and ev
 * records of a trace, tr-profile's prof records of user regions, or phase
 * records "measured" (tables, earlier output); then the same less the
 * timer reads and barriers counted in it times their unit costs
 * (tr-barrier-correct). With several configurations (#meta instr) of one
 * np and N, overhead records compare them with a baseline. */
struct tr_corr;
struct tr_corrcount;
struct tr_corropt {
	double timer, barrier;	/* unit costs in ns; -1: params, header */
	double N;		/* problem size; -1: #meta N */
	const char *config;	/* instr of sections without one, or NULL */
	const char *baseline;	/* instr compared with; NULL: the first */
	const char *params;	/* tr-bench param records of unit costs */
	int cpu;		/* compute from the cpu fields */
	struct tr_corrcount *count;	/* -k: added by tr_corr_count, */
	size_t ncount, capcount;	/* freed by tr_corr_free */
};
/* A unit cost of option -OPT, with an optional unit (ns us ms s), in ns
 * (fractional); dies (TR_EXIT_USAGE) on junk and likely mix-ups. */
double tr_corr_cost(int opt, const char *s);
/* Adds "[phase:]timers:barriers" (counts per rank that replace those
 * found) to O; dies (TR_EXIT_USAGE) if malformed. */
void tr_corr_count(struct tr_corropt *o, char *s);
/* Reads o->params, if set. */
struct tr_corr *tr_corr_new(const struct tr_corropt *o);
/* Call on TR_HDR after tr_out_sync: writes "#meta instr=" if needed. */
void tr_corr_hdr(struct tr_corr *c, const struct tr_in *in,
    struct tr_out *out);
/* 1 if R was consumed (ev, reg, prof, phase measured or corrected,
 * overhead), else 0: the caller passes it through. */
int tr_corr_add(struct tr_corr *c, const struct tr_in *in,
    const struct tr_rec *r);
/* Writes the phase records of the section's runs. */
void tr_corr_end(struct tr_corr *c, const struct tr_in *in,
    struct tr_out *out);
/* After the last section: the overhead records. */
void tr_corr_finish(struct tr_corr *c, const struct tr_in *in,
    struct tr_out *out);
void tr_corr_free(struct tr_corr *c);

#endif
