/* analyse/analyse.h - analyses of one run: deltas, counts, profiles,
 * histograms, selections, waits, derived records, system calls. */
#ifndef TR_ANALYSE_H
#define TR_ANALYSE_H

#include "../expr/expr.h"
#include "../mpi/mpi.h"

/* ---- regwin.c: a time window that keeps regions whole ---- */

/* A time window [t0, t1) that keeps regions whole (regwin.c): a reg
 * record's window test by its region's span, an enter that starts
 * before t0 held until that is known; a record of RANK kept in the
 * window writes the enters held around it first. */
struct tr_regwin;
struct tr_regwin *tr_regwin_new(int64_t t0, int64_t t1, int invert);
int tr_regwin_test(struct tr_regwin *w, struct tr_out *o,
    const struct tr_rec *r, int ok);
void tr_regwin_kept(struct tr_regwin *w, struct tr_out *o, int64_t rank);
void tr_regwin_reset(struct tr_regwin *w);
void tr_regwin_free(struct tr_regwin *w);

/* ---- select.c: which records tr-filter keeps ---- */

struct tr_selopt {
	const char *expr;		/* NULL: none */
	const struct tr_range *ranks;	/* of the records kept */
	size_t nranks;			/* 0: any */
	int window;			/* [t0, t1): tr_regwin's */
	int64_t t0, t1;
	int invert;			/* the tests that apply */
};
struct tr_select;
/* A syntax error in the expression is said and ends the program
 * (TR_EXIT_USAGE). */
struct tr_select *tr_select_new(const struct tr_selopt *opt);
/* The ev columns the expression names, for tr_in_want. */
unsigned tr_select_want(const struct tr_select *s);
/* At each header: binds the tests to the section's record types. */
void tr_select_hdr(struct tr_select *s, const struct tr_in *in);
void tr_select_end(struct tr_select *s);
/* Whether R is kept; the window may write region enters it held to O
 * first. A record no test applies to (no such field) is kept. */
int tr_select_rec(struct tr_select *s, const struct tr_in *in,
    const struct tr_rec *r, struct tr_out *o);
/* A name in the expression that no section's record types have, or
 * NULL. */
const char *tr_select_undeclared(const struct tr_select *s);
void tr_select_free(struct tr_select *s);

/* ---- delta.c: the computation between MPI calls (tr-delta) ---- */

/* What keys an interval: the call sites at its ends "a>b", their ops,
 * or the innermost region open. */
enum { TR_DELTA_SITE, TR_DELTA_OP, TR_DELTA_REGION };
struct tr_delta;
/* SUMS: sums per rank and key (dsum) and their max over ranks (dmax)
 * at each section's end, in place of a delta record per interval. */
struct tr_delta *tr_delta_new(int by, int sums);
/* Takes R if it is an ev record (cpu wanted), the delta since the
 * rank's last call written to O or summed, or a reg record (regions,
 * and tr-record's flushes, which are not the program's computation):
 * 1; else 0. */
int tr_delta_rec(struct tr_delta *d, const struct tr_in *in,
    struct tr_out *o, const struct tr_rec *r);
/* The section ended: its sums are written, and D is readied. */
void tr_delta_end(struct tr_delta *d, struct tr_out *o);
/* Takes R if it is a dsum or dmax record, the output of shards (-s): the
 * section's report is then that of the shards' ranks together. */
int tr_delta_merge(struct tr_delta *d, const struct tr_in *in,
    const struct tr_rec *r);
void tr_delta_free(struct tr_delta *d);

/* ---- opstat.c: counts, bytes, messages and imbalance (tr-stat) ---- */

struct tr_opstat;
/* SITES: also messages per op and call site (msite). PERRANK: an imbal
 * record per rank (a shard's, for tr_opstat_merge). */
struct tr_opstat *tr_opstat_new(int sites, int perrank);
/* Takes R if it is an opstat, msite, cmat, msize or imbal record of a
 * shard (imbal per rank): the report is then that of the shards
 * together. */
int tr_opstat_merge(struct tr_opstat *s, const struct tr_in *in,
    const struct tr_rec *r);
/* Reads R: an ev record (peer, bytes and root wanted), which it takes
 * (1), or a reg record, for tr-record's flushes, which are not compute
 * (0, as for other types). */
int tr_opstat_rec(struct tr_opstat *s, const struct tr_in *in,
    const struct tr_rec *r);
/* The communication matrix so far: CB(CTX, src, dst, msgs, bytes) for
 * each pair that exchanged messages, in no set order. */
void tr_opstat_cmat(const struct tr_opstat *s, void (*cb)(void *, int64_t,
    int64_t, int64_t, int64_t), void *ctx);
/* The section ended: its opstat, msite, cmat, msize and imbal records
 * are written, and S is readied. */
void tr_opstat_end(struct tr_opstat *s, struct tr_out *o);
void tr_opstat_free(struct tr_opstat *s);

/* ---- profile.c: a flat profile per rank and function (tr-profile) ---- */

struct tr_profile;
/* The names of the statistics over ranks, in the order of STATS. */
extern const char *const tr_profile_stats[3];
/* PERRANK: prof records per rank and function; STATS[i] set: profagg
 * records of statistic tr_profile_stats[i] over ranks. */
struct tr_profile *tr_profile_new(int perrank, const int stats[3]);
/* Takes R if it is an ev record (bytes wanted) or a reg record: 1;
 * else 0. */
int tr_profile_rec(struct tr_profile *p, const struct tr_in *in,
    const struct tr_rec *r);
/* The section ended: its profile is written, and P is readied. */
void tr_profile_end(struct tr_profile *p, struct tr_out *o);
/* Takes R if it is a prof or profagg record of a shard: the report is
 * then that of the shards' ranks together. */
int tr_profile_merge(struct tr_profile *p, const struct tr_in *in,
    const struct tr_rec *r);
void tr_profile_free(struct tr_profile *p);

/* ---- symbolize.c: call sites as functions and lines (tr-symbolize) ---- */

struct tr_symbolize;
/* PATHS: source files with their whole path, not only the last part. */
struct tr_symbolize *tr_symbolize_new(int paths);
/* SITE, MODULE+0xOFFSET with the module named by IN's #meta
 * module.MODULE, as FUNCTION@FILE:LINE (FUNCTION@SITE without line
 * information); NULL if it does not resolve. Valid until
 * tr_symbolize_free. */
const char *tr_symbolize_site(struct tr_symbolize *y, const struct tr_in *in,
    struct tr_field site);
/* Says what was kept as offsets and why, and ends the lookups. */
void tr_symbolize_free(struct tr_symbolize *y);

/* ---- hist.c: histograms of values by key that merge exactly ---- */

#define TR_HIST_MAXBINS (1 << 20)
struct tr_hists;
/* Histograms keyed by a field and a key, binned as tr-hist(1) says:
 * SCALE 0 linear, bins WIDTH wide (NBINS > 0: doubled until those in
 * use fit in NBINS); SCALE 1 logarithmic, WIDTH bins per decade. */
struct tr_hists *tr_hist_new(int scale, double width, int nbins);
/* Adds the number in F, FIELD's value (FN bytes) in a record of KEY. */
void tr_hist_add(struct tr_hists *h, const struct tr_in *in,
    const char *field, size_t fn, const char *key, size_t kn,
    const struct tr_field *f);
/* Merges R, a hist or bin record of tr-hist's output: 1; 0 if it is
 * of another type. */
int tr_hist_merge(struct tr_hists *h, const struct tr_in *in,
    const struct tr_rec *r);
/* The hist record and bins of each histogram, in key order, so that
 * merging parts in any order gives the same. */
void tr_hist_write(struct tr_hists *h, struct tr_out *o);
void tr_hist_clear(struct tr_hists *h);
void tr_hist_free(struct tr_hists *h);
/* The range [*a, *z] over which a bin's values are read as spread
 * evenly: the widest inside the bin [LO, HI) and the histogram's range
 * [HMIN, HMAX] that keeps the bin's MEAN (a bin of one value: that
 * value). */
void tr_hist_binspan(double lo, double hi, double mean, double hmin,
    double hmax, double *a, double *z);

/* ---- flat.c: derived records as (type, key, quantity, value) ---- */

/* Key columns (string fields, "NAME=VALUE" joined by ';' with ';' '%' '='
 * escaped as %XX; "-" if none) and quantities (numeric fields). Types
 * whose first column is rank are summarised over the ranks of a section
 * into quantities "Q:min" "Q:q25" "Q:med" "Q:mean" "Q:q75" "Q:max" when
 * the section ends; bin records get an ordinal "bin=K" key part. */
struct tr_flatval {
	const char *type, *key, *quantity;
	double v;
	int isint;
	const char *unit;	/* the scale column (hist), or NULL */
	size_t unitn;
};
typedef void (*tr_flat_cb)(void *ctx, const struct tr_flatval *fv);
struct tr_flat;
/* TYPES, KEYCOLS, QCOLS: comma-separated lists, NULL for the defaults. */
struct tr_flat *tr_flat_new(const char *types, const char *keycols,
    const char *qcols);
void tr_flat_free(struct tr_flat *f);
int tr_flat_wants(const struct tr_flat *f, const char *type, size_t n);
/* 1 if R was consumed (CB called now, or at tr_flat_end), else 0. */
int tr_flat_add(struct tr_flat *f, const struct tr_in *in,
    const struct tr_rec *r, tr_flat_cb cb, void *ctx);
void tr_flat_end(struct tr_flat *f, tr_flat_cb cb, void *ctx);
/* With ON, a hist record followed by its bins also gives quantities
 * "q10" "q25" "q50" "q75" "q90" of the hist: its quantiles, read off
 * the bins (a bin's values spread evenly around its mean). */
void tr_flat_quantiles(struct tr_flat *f, int on);
const char *const *tr_flat_rankstats(int *n);
/* The value of NAME in KEY ("name=value;..."), unescaped, to free; NULL
 * if absent. */
char *tr_flat_keyval(const char *key, const char *name);
/* "TYPE TAB KEY TAB QUANTITY" of FV, its length in *N; free() it. */
char *tr_flat_name(const struct tr_flatval *fv, size_t *n);

/* ---- jobs.c: the jobs of a recursive make, each in the job it ran in ---- */

struct tr_job {
	long host;		/* the host, as an index the caller keeps */
	int64_t pid;		/* of the job's shell */
	int64_t parent;		/* pid of the job it ran in, -1 if none */
	int64_t start, end;
	long up;		/* set by tr_jobs_nest: that job, -1 if none */
};
/* Finds the job each of N jobs ran in: its parent, on its host, running
 * when it started. A job whose parent is not among them has none. */
void tr_jobs_nest(struct tr_job *j, size_t n);
/* Into INNER[i], the wall time during which some job nested directly in
 * job i ran (the union of their spans), after tr_jobs_nest. */
void tr_jobs_inner(const struct tr_job *j, size_t n, int64_t *inner);

/* ---- jobrec.c: a make job recorded (tr-jobsh) ---- */

/* The run the job belongs to: $TR_JOB_RUN if a tr-jobsh above us (the
 * recipe of a recursive make) or the user set it, else the make that
 * started us, by host, pid and start time, as pids are reused; free()
 * it. */
char *tr_jobrec_run(void);
/* The job this one runs in (a recipe that ran a sub-make): the pid of
 * its shell, which tr-jobsh exports to it as TR_JOB_PARENT; -1 if none. */
int64_t tr_jobrec_parent(void);
/* Whether this is make's $(shell ...) rather than a recipe. */
int tr_jobrec_shellcall(void);
struct rusage;
struct tr_jobrec {
	const char *run, *target, *cmd;	/* target NULL: none */
	int64_t pid, start, elapsed, parent;	/* ns; parent -1: none */
	const struct rusage *ru;
	int status;		/* the exit status, or -signal */
};
/* Appends J's record to FILE, after a header of its run if the file's
 * last is another's; a failure is a warning. */
void tr_jobrec_append(const char *file, const struct tr_jobrec *j);

/* ---- reaped.c: wait4 while the reaped children were in calls (sys) ---- */
struct tr_reaped;
/* The spans of calls a process keeps exact, past which they are summed. */
#define TR_REAPED_SPANS 131072
/* The waits a process keeps uncounted while its children may add. */
#define TR_REAPED_WAITS 4096
/* Called with each wait's KEY and the ns of it during which some
 * process was in a call that its process reaped (by any of its waits),
 * or that one of those reaped, and so on down: as soon as no process
 * can still add to it, else at tr_reaped_end. */
typedef void (*tr_reaped_cb)(void *ctx, long key, double ns);
struct tr_reaped *tr_reaped_new(tr_reaped_cb cb, void *ctx);
void tr_reaped_free(struct tr_reaped *r);
/* Every call of PID, from S to E, in the log's order. */
void tr_reaped_call(struct tr_reaped *r, int64_t pid, int64_t s, int64_t e);
/* PID's clone, fork or vfork made CHILD. */
void tr_reaped_fork(struct tr_reaped *r, int64_t pid, int64_t child);
/* PID called exit_group (GROUP) or exit (a thread ends). */
void tr_reaped_exit(struct tr_reaped *r, int64_t pid, int group);
/* PID's wait from S to E that reaped CHILD, its value under KEY. */
void tr_reaped_wait(struct tr_reaped *r, int64_t pid, int64_t child, int64_t s,
    int64_t e, long key);
/* Counts the waits left; then forgets the run. */
void tr_reaped_end(struct tr_reaped *r);
/* Waits counted so far whose children's calls past SETMAX spans at once
 * were summed and so estimated (two such children taken as independent,
 * or a sum split by the wait's start). */
size_t tr_reaped_guessed(const struct tr_reaped *r);
/* Waits counted before all their children's calls could be seen: a
 * process past TR_REAPED_WAITS uncounted waits counts its oldest. */
size_t tr_reaped_early(const struct tr_reaped *r);

/* ---- fdtab.c: the descriptor tables of processes (tr-from-strace) ---- */

/* A process's descriptors, each with the path it is open on and whether
 * execve closes it. Several processes may share one (clone with
 * CLONE_FILES: threads); it goes with the last of its users. */
struct tr_fdtab;
struct tr_fdtabs {		/* zero-initialised: no tables */
	struct tr_itab fds;	/* (table's id, fd) -> descriptor */
	int64_t ntab;
};
struct tr_fdtab *tr_fdtab_new(struct tr_fdtabs *s);
/* One user more of TB; one fewer, the last freeing it (TB NULL: none). */
void tr_fdtab_share(struct tr_fdtab *tb);
void tr_fdtab_release(struct tr_fdtabs *s, struct tr_fdtab *tb);
/* Descriptor FD of TB is open on P (N bytes), or closed (P NULL). */
void tr_fdtab_set(struct tr_fdtabs *s, struct tr_fdtab *tb, int64_t fd,
    const char *p, size_t n, int cloexec);
/* What FD is open on; NULL if closed or not known. */
const char *tr_fdtab_path(struct tr_fdtabs *s, struct tr_fdtab *tb,
    int64_t fd);
/* Copies FROM's descriptors to TO, but those TO has already opened or
 * closed: the open ones (TR_FDCOPY_OPEN), or the closed too (_ALL), or
 * those marked close-on-exec as closed (_EXEC). */
enum { TR_FDCOPY_OPEN, TR_FDCOPY_ALL, TR_FDCOPY_EXEC };
void tr_fdtab_copy(struct tr_fdtabs *s, struct tr_fdtab *from,
    struct tr_fdtab *to, int how);
/* Closes TB's descriptors LO to HI, or marks them close-on-exec. */
void tr_fdtab_close_range(struct tr_fdtabs *s, struct tr_fdtab *tb,
    int64_t lo, int64_t hi, int mark);
/* After the last table is released. */
void tr_fdtabs_free(struct tr_fdtabs *s);

/* ---- strace.c: strace -f -tt -T logs as sys records (tr-from-strace) ---- */

struct tr_strace;
/* A conversion of the lines IN hands out into sys records on O: calls
 * left unfinished are joined with their resumption, and each process's
 * descriptors followed through fork, clone, execve and close, so that a
 * call on one is given its path. Bad lines end the program with IN's
 * file and line. */
struct tr_strace *tr_strace_new(struct tr_in *in, struct tr_out *o);
/* One line, without its LF; empty ones are skipped. */
void tr_strace_line(struct tr_strace *st, const char *s, size_t n);
/* After the last line: the header, if no line had a time stamp. */
void tr_strace_end(struct tr_strace *st);
void tr_strace_free(struct tr_strace *st);

/* ---- waits.c: wait states of MPI calls (tr-waits) ---- */

/* Charges the time a call waited for another rank: late senders and
 * receivers (messages matched per channel in MPI's non-overtaking order,
 * negative tags as wildcards), waits at barriers and N x N collectives,
 * late broadcasts and early reduces; and blames the rank waited for. */
struct tr_waits;
/* Sends of EAGER bytes or more wait for their receiver (0: none do);
 * EAGER -1: those larger than the section's #meta eager.shm (between
 * ranks of one host) or eager.net, else those of 64 KiB or more. */
struct tr_waits *tr_waits_new(int64_t eager);
/* Replays IN's section from REC, an ev or comm record just read, to the
 * section's end, in start-time order, reading on as the replay needs
 * records (all of them first when the section has no #meta np); passes
 * the records read to OUT (ev records only if PASSEV); writes the
 * section's wait and blame records, sorted, and readies W for the next
 * section. REC NULL: the section, just ended, had no such record. */
void tr_waits_section(struct tr_waits *w, struct tr_in *in,
    const struct tr_rec *rec, struct tr_out *out, int passev);
void tr_waits_free(struct tr_waits *w);
/* Takes R if it is a wait or blame record of a shard (tr_shard: the
 * waits of its ranks); at the section's end tr_waits_merged writes the
 * report of the shards together. */
int tr_waits_merge(struct tr_waits *w, const struct tr_in *in,
    const struct tr_rec *r);
void tr_waits_merged(struct tr_waits *w, struct tr_out *o);

#endif
