/* cmp/cmp.h - runs compared: statistics, predictions with measurements,
 * repeated runs, the run store. */
#ifndef TR_CMP_H
#define TR_CMP_H

#include "../expr/expr.h"
#include "../analyse/analyse.h"

/* ---- hdist.c: the distance between two histograms ---- */

/* A bin of LO to HI holding CNT values, of mean MEAN if HASMEAN. */
struct tr_hbin {
	double lo, hi, cnt, mean;
	int hasmean;
};
/* The histograms A and B as piecewise-uniform densities: the earth
 * mover's distance between them (in the value's unit) and the
 * Kolmogorov-Smirnov distance of their CDFs; 0 and 0 if one is empty. */
void tr_hdist(const struct tr_hbin *a, int na, const struct tr_hbin *b,
    int nb, double *emd, double *ks);

/* ---- acc.c: predicted and measured values paired by key (tr-accuracy) ---- */

struct tr_acc;
struct tr_acc *tr_acc_new(void);
void tr_acc_free(struct tr_acc *a);
/* Only these quantities and keys, comma-separated (NULL: all), are
 * taken by tr_acc_set from then on. */
void tr_acc_only(struct tr_acc *a, const char *quantities,
    const char *keys);
/* FV's value on SIDE (0 predicted, 1 measured), under its key
 * tr_flat_name, which keeps its index from then on. IN, where FV's
 * record was read (NULL for a summary of a section), is where an error
 * about it points. */
void tr_acc_set(struct tr_acc *a, int side, const struct tr_in *in,
    const struct tr_flatval *fv);
size_t tr_acc_len(const struct tr_acc *a);
const char *tr_acc_key(const struct tr_acc *a, long i, size_t *n);
/* Key I's values into V; the sides that have one (bit 0 predicted,
 * bit 1 measured). */
int tr_acc_get(const struct tr_acc *a, long i, double v[2]);
/* Whether key I says something when compared value by value. A bin is
 * keyed by its ordinal, and tr-hist places bins by each run's range,
 * tr-extrap between predicted quantiles: bin K of one side is compared
 * with bin K of the other only when both cover the same range;
 * histograms are otherwise compared as distributions (tr_acc_hists). A
 * hist's width and bins describe its binning, not the values. */
int tr_acc_comparable(const struct tr_acc *a, long i);
/* Calls CB with each histogram's field and key that has bins on either
 * side, and the distance between its two sides (tr_hdist), each bin's
 * values spread evenly around its mean, as tr-fit reads quantiles. */
typedef void (*tr_acc_hcb)(void *ctx, const char *field, const char *key,
    double emd, double ks);
void tr_acc_hists(const struct tr_acc *a, tr_acc_hcb cb, void *ctx);
/* Writes key NAME (LEN bytes: type, key and quantity, tab-separated)
 * with its predicted and measured values V and accuracy A, as a record
 * of TYPE, or (TYPE NULL) as a row of tr-accuracy -T's table. */
void tr_acc_row(struct tr_out *o, const char *type, const char *name,
    size_t len, const double v[2], double a);

/* ---- cmp.c: per-key values of repeated runs (tr-mean, tr-diff) ---- */

/* Each run (a repeat) gives one value per key: by default the time per
 * rank in each MPI op and in `compute` (ev), the exclusive time per
 * function (prof, profagg mean), the elapsed time per target (job), per
 * system call (sys), or a mean record as it is. KEY and VALUE name other
 * columns (NULL: the default); value `calls` counts records, `io` is
 * elapsed - user - sys and `cpu` user + sys of job records, key `class`
 * groups sys calls into metadata, data and other. The key TR_CMP_TOTAL
 * holds each run's total over its keys. */
#define TR_CMP_TOTAL "(total)"
struct tr_cmp;
struct tr_cmp *tr_cmp_new(const char *key, const char *value);
void tr_cmp_free(struct tr_cmp *c);
/* Call on TR_HDR (remembers the metadata), for each record (1 if it was
 * used), at the end of each repeat (a section, a file), and once after
 * the last (a key a run lacks counts as 0 in it). */
void tr_cmp_hdr(struct tr_cmp *c, const struct tr_in *in);
int tr_cmp_rec(struct tr_cmp *c, const struct tr_in *in,
    const struct tr_rec *r);
void tr_cmp_end(struct tr_cmp *c);
void tr_cmp_finish(struct tr_cmp *c);
/* Reads FILES (none: stdin) into C by the calls above but the last,
 * each section a repeat, checking that no rank's file is left out, then
 * tr_cmp_matched; returns tr_in_status's. */
int tr_cmp_read(struct tr_cmp *c, int nfiles, char **files);
/* Exits with the usage status, naming INPUT, if KEY or VALUE was given
 * and no record read has such columns: a misspelt -k would compare
 * nothing, and pass every check. */
void tr_cmp_matched(const struct tr_cmp *c, const char *input);
size_t tr_cmp_len(const struct tr_cmp *c);
const char *tr_cmp_key(const struct tr_cmp *c, long i, size_t *n);
const struct tr_stat *tr_cmp_stat(const struct tr_cmp *c, long i);
long tr_cmp_find(const struct tr_cmp *c, const char *key, size_t n);
long tr_cmp_reps(const struct tr_cmp *c);	/* runs read */
/* The i-th "key=value" metadata line common to every repeat, or NULL. */
const char *tr_cmp_meta(const struct tr_cmp *c, size_t i);
/* The key and value (-k, -v, or #meta mean.key and mean.value of mean
 * records) the runs read are by; NULL: the default. Runs by others are
 * bad input, and so are, after tr_cmp_like, runs by others than LIKE's. */
void tr_cmp_by(const struct tr_cmp *c, const char **key, const char **value);
void tr_cmp_like(struct tr_cmp *c, const struct tr_cmp *like);
/* "metadata", "data" or "other": the kind of a file system call; a
 * call on a pipe, socket or anonymous inode (PATH as strace -y shows
 * it) is other. */
const char *tr_sys_class(const char *call, size_t n, const char *path,
    size_t pn);

/* ---- diff.c: two conditions compared key by key (tr-diff) ---- */

/* One key of A and B: their means and runs, b - a, b / a (-1: no
 * finite ratio), PARP's metric m = (t_a/T_a) ln(t_a/t_b) of the larger
 * time t_a over the smaller, Welch's p (-1: no test) and p adjusted for
 * the keys tested. */
struct tr_diff {
	const char *key;
	size_t kn;
	double a, b, delta, ratio, m, p, na, nb, padj;
	char only;		/* 'a' or 'b': on that side only; else '-' */
	double sort[2];		/* the value ordered by, a tie-break */
};
/* The orders of tr_diff_rows: largest first (p smallest, key by key). */
enum { TR_DIFF_M, TR_DIFF_A, TR_DIFF_B, TR_DIFF_DELTA, TR_DIFF_RATIO,
	TR_DIFF_P, TR_DIFF_KEY };
/* The total time of a side: its TR_CMP_TOTAL key, else the sum of its
 * keys. */
double tr_diff_total(const struct tr_cmp *c);
/* The keys of A and B but the total, in ORDER, then by key; *N of them
 * (free() the array), *TOT the totals'. A key a side lacks is 0 in
 * each of its runs. */
struct tr_diff *tr_diff_rows(const struct tr_cmp *a, const struct tr_cmp *b,
    int order, size_t *n, struct tr_diff *tot);
/* Sets padj of ROWS and TOT, adjusted by METHOD (TR_PADJ_*); returns
 * the tests counted. */
size_t tr_diff_adjust(struct tr_diff *rows, size_t n, struct tr_diff *tot,
    int method);

/* ---- run.c, store.c: the run store of tr-runs (formats/runs.md) ---- */

/* A run's labels, in order. */
struct tr_run {
	char **key, **val;
	size_t n, cap;
};
const char *tr_run_get(const struct tr_run *r, const char *key);
void tr_run_set(struct tr_run *r, const char *key, const char *val);
void tr_run_free(struct tr_run *r);
/* A label name: a letter or _, then letters, digits, _. */
int tr_label_ok(const char *k, size_t n);
/* Adds the "key=value" items of S[0..N) separated by SEP to R; -1 on a
 * malformed item. */
int tr_run_parse(struct tr_run *r, const char *s, size_t n, int sep);
/* Reads DIR/runs/ID/meta (-1 if missing); writes RUNDIR/meta. */
int tr_run_load(struct tr_run *r, const char *dir, const char *id);
void tr_run_save(const struct tr_run *r, const char *rundir);
/* An exclusive lock on DIR/lock for writers: the descriptor. */
int tr_store_lock(const char *dir);
void tr_store_unlock(int fd);
/* Under the lock: the next free run id; the index rebuilt from the
 * meta files. */
char *tr_store_newid(const char *dir);
void tr_store_reindex(const char *dir);
/* The runs of the index (NULL, 0 if there is none yet). */
struct tr_run *tr_store_read(const char *dir, size_t *nruns);
/* A/B, to free(); FILE read whole and NUL-ended, NULL if it does not
 * exist. */
char *tr_store_path(const char *a, const char *b);
char *tr_store_slurp(const char *file, size_t *n);
/* Writes PATH whole through a temporary file, fsync and rename. */
void tr_write_atomic(const char *path, const char *data, size_t n);
/* The labels as key=value items separated by SEP (TAB: an index line,
 * LF: a meta file), ending in LF; free() it. */
char *tr_run_format(const struct tr_run *r, int sep, size_t *len);
/* Adds the data of PATH (a file, or a directory of files of one run) as
 * a new run labelled from its metadata and extent, then by LABELS
 * ("key=value"); returns its id (free() it). A failure leaves the store
 * as it was. */
char *tr_store_add(const char *dir, const char *path, int nlabels,
    char **labels);
/* Sets label enabled of runs IDS to ON; -1 (after warning) if some
 * run is missing. */
int tr_store_enable(const char *dir, int nids, char **ids, int on);

/* ---- runsel.c: runs selected by their labels, summarised (tr-runs) ---- */

struct tr_runsel;
/* EXPR over labels (NULL: every run); disabled runs only with ALL.
 * A bad expression is shown with a caret and exits TR_EXIT_USAGE. */
struct tr_runsel *tr_runsel_new(const char *expr, int all);
int tr_runsel_match(const struct tr_runsel *s, const struct tr_run *r);
void tr_runsel_free(struct tr_runsel *s);
/* The distinct values of LABEL in the selected runs of V, sorted;
 * free() the array (the strings are V's). */
const char **tr_runsel_values(const struct tr_runsel *s,
    const struct tr_run *v, size_t n, const char *label, size_t *nvals);
/* A mean record of the time label per group of the selected runs: BY
 * names the labels that make a group, comma-separated. */
void tr_runsel_summary(struct tr_out *o, const struct tr_runsel *s,
    const struct tr_run *v, size_t n, const char *by);

#endif
