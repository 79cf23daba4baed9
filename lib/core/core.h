/* core/core.h - errors, options, memory, numbers, maps, reading and writing the format. */
#ifndef TR_CORE_H
#define TR_CORE_H


#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TR_VERSION "0.1"
#define TR_FORMAT 1		/* the number after #tr */
#define TR_MAXF 64		/* fields per record, type included */
#define TR_MAXLINE 65536	/* bytes per line, newline excluded */
/* Ranks of a run (#meta np, a record's rank below it): above any machine
 * today, and low enough that tables of np entries fit in memory. */
#define TR_MAXNP (1 << 24)

/* Exit statuses, documented in tr(7). */
enum {
	TR_EXIT_OK = 0,
	TR_EXIT_CHECK = 1,	/* ran fine, but a check asked for failed */
	TR_EXIT_USAGE = 2,	/* bad options or operands */
	TR_EXIT_DATA = 3,	/* bad input: file:line says where */
	TR_EXIT_SYS = 4,	/* system failure: open, read, write, memory */
};

/* ---- err.c: messages and dying ---- */

extern const char *tr_argv0;
/* Sets the program name used in messages and restores SIGPIPE's default
 * action, so a closed pipe ends the tool quietly. */
void tr_init(const char *argv0);
/* "tr-x: MSG\n" on stderr; a format ending in ':' appends ": strerror". */
void tr_warn(const char *fmt, ...);
_Noreturn void tr_die(int status, const char *fmt, ...);
/* Exit 3 with "FILE:LINE: message" (LINE 0: "FILE: message"). */
_Noreturn void tr_vdie_at(const char *file, long line, const char *fmt,
    va_list ap);
_Noreturn void tr_die_at(const char *file, long line, const char *fmt, ...);
/* For an error about the inputs as a whole, not one line of them (tr(7)):
 * FILES as messages name them: "stdin" for none or "-", one to three
 * names joined by ", ", more as "FIRST ... LAST (N files)"; in BUF
 * (CAP bytes) if need be. */
const char *tr_files_str(char *buf, size_t cap, int nfiles,
    char *const *files);
/* Exit 3 with "FILES: message". */
_Noreturn void tr_die_files(int nfiles, char *const *files,
    const char *fmt, ...);
_Noreturn void tr_vdie_files(int nfiles, char *const *files,
    const char *fmt, va_list ap);
/* Called by tr_die before exiting (the output's flush); NULL for none. */
extern void (*tr_atdie)(void);
/* What a loader holds, freed by F(ARG) at an error exit before
 * tr_atdie, until popped: a caller that the exit returns to (a fuzzing
 * harness's longjmp) would lose it. Pushes nest; ARG must live until
 * the pop. */
void tr_undo_push(void (*f)(void *), void *arg);
void tr_undo_pop(void);

/* ---- opt.c: options, as tr(7) has them ---- */

struct option;
/* A program's synopsis (after "usage: "; more lines indented to match),
 * one "-x arg\twhat it does" line per option, and its long options (or
 * NULL; --help is added). */
struct tr_opts {
	const char *usage;
	const char *help;
	const struct option *longopts;
};
/* "usage: ..." on stderr, exit 2. */
_Noreturn void tr_usage(const struct tr_opts *o);
/* The synopsis and the option lines on stdout, exit 0. */
_Noreturn void tr_help(const struct tr_opts *o);
/* getopt_long(3) with -h and --help answered by tr_help and an unknown
 * option or a missing value by tr_usage. */
int tr_getopt(int argc, char **argv, const char *optstring,
    const struct tr_opts *o);
/* "tr-x: -o: 'VAL': WHAT", exit 2: the one message for a bad value. */
_Noreturn void tr_opt_bad(int opt, const char *val, const char *what);
/* Option values checked, or tr_opt_bad: an integer from LO to HI (1 to
 * INT64_MAX: positive); a number from LO to HI (HI may be INFINITY); a
 * positive number; a duration in ns of LO or more; a size in bytes from
 * LO to HI; one of the words V (NULL-terminated), as its index. */
int64_t tr_opt_int(int opt, const char *s, int64_t lo, int64_t hi);
double tr_opt_num(int opt, const char *s, double lo, double hi);
double tr_opt_pos(int opt, const char *s);
int64_t tr_opt_dur(int opt, const char *s, int64_t lo);
int64_t tr_opt_size(int opt, const char *s, int64_t lo, int64_t hi);
int tr_opt_oneof(int opt, const char *s, const char *const *v);
/* A rank list such as "0-7,12", as ranges in *V (malloc'd), *N of them. */
struct tr_range {
	int64_t lo, hi;
};
void tr_opt_ranks(int opt, const char *s, struct tr_range **v, size_t *n);

/* ---- mem.c: allocation that dies with TR_EXIT_SYS ---- */

void *tr_malloc(size_t n);
void *tr_calloc(size_t n, size_t size);
void *tr_realloc(void *p, size_t n);
/* Grows *p (of *cap elements of size sz) to hold at least need. The
 * test is inline: the engine's queues ask at every push. */
void tr_grow_to(void *pp, size_t *cap, size_t need, size_t sz);
static inline void
tr_grow(void *pp, size_t *cap, size_t need, size_t sz)
{
	if (need > *cap)
		tr_grow_to(pp, cap, need, sz);
}
/* The same, the elements added zeroed: for tables indexed by rank or
 * key, where *cap is also the count. */
void tr_growz(void *pp, size_t *cap, size_t need, size_t sz);
/* qsort() that takes an empty array as NULL. */
void tr_sort(void *base, size_t n, size_t sz, int (*cmp)(const void *,
    const void *));
/* Its comparisons of int64_t and of double, ascending. */
int tr_cmp_i64(const void *a, const void *b);
int tr_cmp_f64(const void *a, const void *b);
char *tr_strdup(const char *s);
char *tr_strndup(const char *s, size_t n);

/* ---- num.c: numbers, parsed by hand and formatted ---- */

/* 0 on success; -1 empty or junk; -2 out of range; -3 a leading zero
 * ("007") or "-0", which the format does not allow. */
int tr_parse_i64(const char *s, size_t n, int64_t *v);
int tr_parse_f64(const char *s, size_t n, double *v);
/* Values with a unit suffix, as in options and network files:
 * durations ns us ms s (or none: ns) to ns; sizes (or none: bytes) to
 * bytes, k K KiB m M MiB g G GiB in powers of 1024, KB kB MB GB in
 * powers of 1000. 0 on success, -1 on junk. */
int tr_parse_dur(const char *s, int64_t *ns);
int tr_parse_size(const char *s, int64_t *bytes);
/* A time window T0:T1 of durations, as tr-filter -w takes it; a side
 * left empty keeps *T0 or *T1 as it was. -1 on junk or T1 < T0. */
int tr_parse_window(const char *s, int64_t *t0, int64_t *t1);
/* Their units, each with what it multiplies by; a NULL name ends them. */
struct tr_unit {
	const char *name;
	double mul;
};
extern const struct tr_unit tr_dur_units[], tr_size_units[];
/* Write v at p, return the end. Buffers of 24 bytes are enough. */
char *tr_fmt_i64(char *p, int64_t v);
/* Shortest text that reads back as the same double; never nan or inf
 * (callers check isfinite). Buffers of 32 bytes are enough. */
char *tr_fmt_f64(char *p, double v);
/* Same, NUL-terminated, in a caller-supplied buffer of 32 bytes. */
const char *tr_f64str(char *buf, double v);
/* For people: six significant digits, integers whole, no exponent
 * below 1e15 (4605713.497426471 reads 4605713). Buffers of 32 bytes. */
const char *tr_f64text(char *buf, double v);

/* ---- utf8.c: UTF-8 checked, for JSON, SVG and HTML ---- */

/* The length of the UTF-8 sequence at S (N bytes left), 0 if there is
 * none: a stray continuation byte, a sequence cut short, an overlong
 * form, a surrogate or a code point past U+10FFFF. */
size_t tr_utf8_len(const char *s, size_t n);

/* ---- json.c: JSON strings ---- */

/* Writes S (N bytes) at P as a JSON string, quotes included, escaping
 * what JSON requires (P has room for 6 * N + 2 bytes); returns the end,
 * or NULL if S is not UTF-8, which JSON text cannot carry. */
char *tr_json_str(char *p, const char *s, size_t n);

/* ---- schema.c: the record types the format defines ---- */

enum tr_kind { TR_INT = 'i', TR_NNEG = 'n', TR_FLT = 'f', TR_STR = 's' };

enum tr_type {
	TR_OTHER = 0,		/* declared in the stream, unknown here */
	TR_EV,
	TR_REG,
	TR_COMM,
	/* Types added by later tools go here and in schema.c. */
	TR_SIMRUN, TR_SIMRANK, TR_SIMLINK,	/* tr-nsim */
	TR_PARAM, TR_PHASE, TR_PHASECMP, TR_OVERHEAD,	/* tr-bench, tr-model */
	TR_MODEL,		/* tr-fit */
	TR_ACC, TR_HDIST, TR_ACCSUM, TR_ACCWORST,	/* tr-accuracy */
	TR_DELTA, TR_DSUM, TR_DMAX, TR_HIST, TR_BIN, TR_PROF, TR_PROFAGG,
	TR_OPSTAT, TR_CMAT, TR_MSIZE, TR_IMBAL, TR_WAIT, TR_BLAME, /* analysis */
	TR_JOB, TR_SYS, TR_MEAN, TR_DIFF,	/* jobs, system calls, comparisons */
	TR_CART,		/* tr-record: a Cartesian communicator's grid */
	TR_MSITE,		/* tr-stat -s: messages per call site */
	TR_FAIL,		/* tr-record: a call that returned an error */
	TR_METRIC,		/* tr-from-extrap: a metric of a region */
	TR_PEER,		/* tr-pattern: the peers of a call site */
	TR_NTYPES
};

struct tr_schema {
	enum tr_type type;
	const char *name;
	const char *fields;	/* names after the type, TAB-separated */
	const char *kinds;	/* one enum tr_kind letter per field */
};

const struct tr_schema *tr_schema_find(const char *name, size_t n);
const struct tr_schema *tr_schema_get(enum tr_type t);
/* The columns of S's K-th earlier revision (0 the oldest), which
 * readers still accept (a prefix of its fields), or NULL past the
 * last. */
const char *tr_schema_older(const struct tr_schema *s, int k);
/* The column (1 after the type) of field NAME (N bytes) in S; -1 if S has
 * none. */
int tr_schema_col(const struct tr_schema *s, const char *name, size_t n);

/* ---- in.c, in-file.c: reading a stream, its files in turn ---- */

struct tr_field {
	const char *p;
	size_t n;
};

/* A record type as declared by a #fields line of the current section. */
struct tr_decl {
	char *name;
	size_t namelen;
	int nf;			/* fields, type included */
	char **names;		/* names[0] is the type */
	const struct tr_schema *schema;	/* NULL for unknown types */
};

/* Column indexes of ev, reg and comm (0 is the type). */
enum { TR_EV_RANK = 1, TR_EV_SEQ, TR_EV_OP, TR_EV_START, TR_EV_END,
	TR_EV_CPU, TR_EV_SITE, TR_EV_PEER, TR_EV_BYTES, TR_EV_TAG,
	TR_EV_COMM, TR_EV_REQ, TR_EV_ROOT, TR_EV_NF };
enum { TR_REG_RANK = 1, TR_REG_SEQ, TR_REG_KIND, TR_REG_NAME,
	TR_REG_TIME, TR_REG_CPU, TR_REG_WTIME, TR_REG_NF };

struct tr_ev {
	int64_t rank, seq, start, end, cpu, peer, bytes, tag, comm, req,
	    root;
	struct tr_field op, site;
};

struct tr_reg {
	int64_t rank, seq, time, cpu, wtime;
	int leave;		/* 0 enter, 1 leave */
	struct tr_field name;
};

struct tr_rec {
	enum tr_type type;
	const struct tr_decl *decl;
	int nf;
	struct tr_field f[TR_MAXF];	/* f[0] is the type name */
	const char *line;		/* the whole line, without LF */
	size_t len;
	union {			/* parsed and checked, for known types */
		struct tr_ev ev;	/* of an ev or a fail record */
		struct tr_reg reg;
	} u;
};

/* What tr_next returns. */
enum {
	TR_EOF = 0,	/* no more input */
	TR_REC,		/* *rec holds a record */
	TR_HDR,		/* header lines were read: call tr_out_sync */
	TR_END,		/* a section ended (a new one, or EOF, follows) */
};

struct tr_in;

/* A reader over FILES ("-" or none: stdin), read one after the other as
 * one stream. A file that cannot be opened is reported and skipped; the
 * failure shows in tr_in_status. */
struct tr_in *tr_open(int nfiles, char **files);
/* Exits 2 when NFILES is 0 and stdin is a terminal (tr(7)): for tools
 * that read stdin as "-" themselves. tr_open checks it. */
void tr_need_input(int nfiles);
int tr_next(struct tr_in *in, struct tr_rec *rec);
/* Buffers of a few KiB, grown as long lines need, and no thread
 * reading ahead: for one of many inputs read at once, as a merge of
 * files per rank reads them. Before the first read. */
void tr_in_small(struct tr_in *in);
/* The ev columns (bits 1 << TR_EV_x) the tool reads from struct tr_ev
 * besides rank, seq, start and end, which are always set; default all.
 * Columns left out are checked as strictly but not converted, and read
 * as INT64_MIN: converting eleven integers per record is most of the
 * reader's time, and a filter may need only one. */
void tr_in_want(struct tr_in *in, unsigned cols);
/* The same reader for text that is not in the tr format (strace output,
 * tables): tr_next_line hands out each line without its LF, 0 at the end,
 * with gzip, file and line numbers, and the checks of line length, NUL
 * bytes and a missing last newline. Do not mix with tr_next. */
struct tr_in *tr_open_text(int nfiles, char **files);
int tr_next_line(struct tr_in *in, const char **line, size_t *n);
/* Takes a last line without its LF as a line, not as a file cut short:
 * for the text that other tools and editors write. */
void tr_in_lastlf(struct tr_in *in);
/* One text file the tool cannot do without (a network description, a
 * model): as tr_open_text, but a FILE that cannot be opened ends the
 * program (TR_EXIT_SYS). Keep FILE until tr_close. */
struct tr_in *tr_open_conf(const char *file);
/* Its next line, as a string of its own in *BUF (which grows); 0 at the
 * end. */
int tr_conf_line(struct tr_in *in, char **buf, size_t *cap);
/* TR_EXIT_SYS if some file could not be opened, TR_EXIT_DATA if one was
 * cut short (TR_CHECK_TRUNC), whichever came first; else 0. */
int tr_in_status(const struct tr_in *in);
/* How many files were found cut short so far (TR_CHECK_TRUNC). */
long tr_in_ncut(const struct tr_in *in);
void tr_close(struct tr_in *in);
/* Closes every reader still open: for a caller that an error exit
 * returns to (tr_atdie's longjmp, as a fuzzing harness has), since the
 * parser that opened one never reached its tr_close. */
void tr_close_all(void);

/* Where the reader is, for messages. */
const char *tr_in_file(const struct tr_in *in);
long tr_in_line(const struct tr_in *in);
/* "tr-x: FILE:LINE: MSG" and exit TR_EXIT_DATA. */
_Noreturn void tr_in_die(const struct tr_in *in, const char *fmt, ...);
/* "tr-x: FILES: MSG" (tr_files_str) naming all of IN's files, exit
 * TR_EXIT_DATA: for what the input as a whole lacks. */
_Noreturn void tr_in_die_all(const struct tr_in *in, const char *fmt, ...);
/* a + b, for sums over records (bytes, times over ranks), which each
 * fit 64 bits but together may not: beyond, an error at the line. */
int64_t tr_in_add(const struct tr_in *in, int64_t a, int64_t b,
    const char *what);

/* ---- progress.c: how far a long run has read, on a terminal ---- */

struct tr_progress;
/* NULL, and every call a no-op, unless stderr is a terminal. */
struct tr_progress *tr_progress_new(void);
/* DONE of TOTAL bytes read (TOTAL < 0: not known), RECORDS so far;
 * written twice a second at most, after the first second. */
void tr_progress_tick(struct tr_progress *p, int64_t done, int64_t total,
    int64_t records);
/* The same for work counted in items (WHAT, a plural noun). */
void tr_progress_items(struct tr_progress *p, long done, long total,
    const char *what);
/* Erases the line. */
void tr_progress_end(struct tr_progress *p);
/* The reader shows it for its files: for long runs (tr-nsim, tr-to-ti,
 * tr-extrap -T, tr-cat -m, tr-fit), whose -Q leaves it off. */
void tr_in_progress(struct tr_in *in);
/* Bytes of its files read (-1 of a pipe), and in *LINES the lines. */
int64_t tr_in_pos(const struct tr_in *in, int64_t *lines);

/* ---- in-header.c: the section's header ---- */

/* Metadata of the current section: the value, or NULL. */
const char *tr_meta(const struct tr_in *in, const char *key);
/* Says on stderr what #meta unrecorded.KIND says the recording left out:
 * for the tools whose results need every message (replays, waits). */
void tr_meta_unrecorded(const struct tr_in *in);
/* Where the section's #meta KEY was read (*FILE, the line returned), or
 * where the reader is if it has none: for messages about what the key
 * says, as np's ranks. */
long tr_meta_where(const struct tr_in *in, const char *key,
    const char **file);
/* As an integer or a number; 0 found, -1 missing, dies if malformed. */
int tr_meta_i64(const struct tr_in *in, const char *key, int64_t *v);
int tr_meta_f64(const struct tr_in *in, const char *key, double *v);
/* The section's metadata in order of appearance: key i of n. */
size_t tr_meta_count(const struct tr_in *in);
const char *tr_meta_at(const struct tr_in *in, size_t i, const char **val);
/* Counts sections started so far (1 in the first). */
long tr_in_section(const struct tr_in *in);
/* The declaration of TYPE in the current section, or NULL; and the
 * index of column NAME in it, or -1. */
const struct tr_decl *tr_decl_find(const struct tr_in *in, const char *type);
/* The section's declaration I in order, or NULL past the last. */
const struct tr_decl *tr_decl_at(const struct tr_in *in, size_t i);
int tr_decl_col(const struct tr_decl *d, const char *name);

/* Adds the header of SRC's current section to DST's, as a continued
 * section would; -1 (and nothing added) if some metadata conflicts.
 * Used by tr-cat -m to give merged inputs one header. */
int tr_in_merge_header(struct tr_in *dst, const struct tr_in *src);

/* ---- ranks.c: is a section the whole run? ---- */

/* Whether a section is the whole run (tr-format(5), "Ranks"): what
 * tr_next checks as a section ends, for the tools whose results need
 * every rank. A rank below np (or, without np, below the highest rank
 * seen) with no ev or reg records means a rank's file was left out,
 * unless #meta subset says the section is a selection or #meta end.R
 * that the rank's recording ended early. */
enum {
	TR_CHECK_RANKS = 1,	/* such a rank: exit TR_EXIT_DATA */
	TR_CHECK_RANKS_WARN = 2,	/* such a rank: a warning */
	TR_CHECK_ENDED = 4,	/* warn of ranks whose recording ended early */
	/* A truncated gzip file (a writer killed, as SIGKILL does): said at
	 * its last complete line, the next file read, and tr_in_status
	 * TR_EXIT_DATA; without it the program ends there. */
	TR_CHECK_TRUNC = 8,
};
void tr_in_check(struct tr_in *in, unsigned checks);
/* The same check of ranks for one section read by several readers V
 * (tr-cat -m, a reader per file) whose merged header HDR holds: a
 * warning, or (DIE) the error that ends the program. */
void tr_ranks_check_merged(struct tr_in *hdr, struct tr_in *const *v,
    int n, int die);
/* Ranks whose recording ended early (#meta end.R: tr-record's mark of a
 * rank that died): 0 if none. Otherwise says so in one line at the mark
 * of the rank that most likely ended first (by itself, not by the
 * SIGTERM or SIGINT that mpirun and batch systems send to every rank),
 * naming the others, then ": WHAT"; as a warning, or (DIE) as the error
 * that ends the program. */
int tr_meta_ended(const struct tr_in *in, int die, const char *what);
/* How many #meta end.R marks the section has, saying nothing. */
size_t tr_meta_nended(const struct tr_in *in);
/* The input is a shard of its run (-G, tr(7)): the ranks of V, N
 * ranges (ARG, of option OPT, that gave them). The check of ranks then
 * wants records of each of them below np, whether or not #meta subset is
 * there, and none of another rank, which a shard beside it holds (KIND
 * TR_SHARD_OWN); or other ranks are there as the partners of the
 * shard's (TR_SHARD_PEERS); or the input is whole and the shard is of
 * the ranks written (TR_SHARD_WRITES: tr-extrap -T). */
enum { TR_SHARD_OWN, TR_SHARD_PEERS, TR_SHARD_WRITES };
void tr_shard(int opt, const char *arg, const struct tr_range *v,
    size_t n, int kind);
/* Whether RANK is in the shard (every rank is without one); whether
 * record R is one of the shard's ranks' (or of no rank, its type's first
 * column not "rank"): a tool that reads its shard's partners too writes
 * only the shard's records. */
int tr_in_shard(int64_t rank);
/* Whether the input is a shard, given with tr_shard. */
int tr_sharded(void);
int tr_rec_in_shard(const struct tr_in *in, const struct tr_rec *r);
/* Whether the header line "#meta KEY=VAL" (N bytes) is of the shard:
 * KEY.R, a rank's own (host.R, end.R), of a rank R in it, or another key;
 * tr_out_sync writes only these. */
int tr_meta_in_shard(const char *line, size_t n);

/* ---- in-field.c: typed access to fields ---- */

/* Fields of any record, dying with file:line. */
int64_t tr_get_i64(const struct tr_in *in, const struct tr_rec *r, int col);
double tr_get_f64(const struct tr_in *in, const struct tr_rec *r, int col);
/* Where column COL (TR_EV_*) of an ev record is kept in struct tr_ev,
 * if it is one of its integers; -1 if not. */
long tr_ev_offset(int col);

/* ---- flush.c: tr-record's flushes ---- */

/* Region tr.flush is tr-record writing its buffer: time the program
 * spent, but not its own work, which tools that measure that work
 * leave out. */
int tr_reg_flush(const struct tr_reg *g);

/* A rank's place in tr-record's flushes (zeroed: in none). */
struct tr_flushing {
	int64_t start;
	int in;
};
/* G, tr.flush's enter or leave on F's rank: at its leave the flush's ns,
 * else -1; a leave without its enter is bad input. */
int64_t tr_flush_step(const struct tr_in *in, struct tr_flushing *f,
    const struct tr_reg *g);

/* ---- out.c: writing a stream ---- */

struct tr_out;

/* Writes to FD through a large buffer, gzip-compressed if gz. A write
 * error is fatal (TR_EXIT_SYS); EPIPE ends the tool quietly. The first
 * output opened is flushed by tr_die, so records already validated are
 * not lost when a later line is bad. */
struct tr_out *tr_out_open(int fd, int gz);
/* Writes out all that was given, and ends a gzip stream; nothing may
 * be written after it but tr_out_close (for fsync before the close). */
void tr_out_finish(struct tr_out *o);
/* Flushes, checks, frees; returns 0 or dies. */
int tr_out_close(struct tr_out *o);

/* Header handling. tr_out_sync writes the header lines of IN's current
 * section that have not been written yet (the whole header when a new
 * section began), followed by the #fields lines of types declared with
 * tr_out_declare, and leaves out the #fields of types given to
 * tr_out_drop. Call it whenever tr_next returns TR_HDR. */
void tr_out_sync(struct tr_out *o, const struct tr_in *in);
void tr_out_declare(struct tr_out *o, enum tr_type t);
void tr_out_drop(struct tr_out *o, const char *type);
/* Gives the sections synced from now on #meta KEY=VAL, in place of the
 * input's value of KEY, written once each after the input's header
 * lines; VAL NULL ends that. */
void tr_out_meta(struct tr_out *o, const char *key, const char *val);
/* Writes "#tr 1" (for tools that start a stream of their own). */
void tr_out_begin(struct tr_out *o);
/* Writes "#fields ..." of a known type now. */
void tr_out_fields(struct tr_out *o, enum tr_type t);

/* Raw output. */
void tr_out_write(struct tr_out *o, const void *p, size_t n);
void tr_out_str(struct tr_out *o, const char *s);
void tr_out_field(struct tr_out *o, struct tr_field f);
void tr_out_i64(struct tr_out *o, int64_t v);
void tr_out_f64(struct tr_out *o, double v);
void tr_out_c(struct tr_out *o, int c);
/* A TAB, then the number: the next column. */
void tr_out_ti64(struct tr_out *o, int64_t v);
void tr_out_tf64(struct tr_out *o, double v);
void tr_out_printf(struct tr_out *o, const char *fmt, ...);
/* A line built in place: tr_out_room gives room for N bytes (at most
 * TR_MAXLINE + 1024) at the end of the buffer, tr_out_put takes what
 * was written there up to END. */
char *tr_out_room(struct tr_out *o, size_t n);
void tr_out_put(struct tr_out *o, const char *end);
/* The record's line as read, with its LF. */
void tr_out_rec(struct tr_out *o, const struct tr_rec *r);
void tr_out_ev(struct tr_out *o, const struct tr_ev *e);
void tr_out_reg(struct tr_out *o, const struct tr_reg *g);

/* ---- loop.c: the record loop of a filter ---- */

/* What a tool does with a stream, for tr_loop; a callback left NULL
 * does nothing. O is tr_loop's output (NULL if it has none). */
struct tr_loop {
	/* Header lines were read: called before they are synced to O, so
	 * that tr_out_meta still applies (a callback that writes lines
	 * after the header calls tr_out_sync first). */
	void (*hdr)(struct tr_in *in, struct tr_out *o);
	/* A record: 1 to have it written to O as read, 0 if the tool took
	 * it. NULL: every record is written. The callback may read IN on
	 * (a replay reads its section to the end). */
	int (*rec)(struct tr_in *in, const struct tr_rec *r, struct tr_out *o);
	/* A section ended. */
	void (*end)(struct tr_in *in, struct tr_out *o);
	/* The input ended, the reader still open (tr_in_status) and O not
	 * yet closed: for what a tool writes after all its input. */
	void (*done)(struct tr_in *in, struct tr_out *o);
	unsigned want;		/* tr_in_want's columns; 0: all */
	unsigned checks;	/* tr_in_check's */
	int lazy;		/* headers go out only with a record written */
	int progress;		/* tr_in_progress: the tool runs long */
};

/* Reads FILES as tr_open does (none: stdin), hands L the headers,
 * records and section ends, writes to O the header lines and the
 * records L does not take, and closes the reader and O (a write error
 * ends the program). Returns the exit status, tr_in_status's. */
int tr_loop(int nfiles, char **files, struct tr_out *o,
    const struct tr_loop *l);

/* ---- merge.c: the files of one run merged by time ---- */

/* Writes FILES (none: stdin), the per-rank files of one run, to O as
 * one section in time order, their headers merged, with PROGRESS on a
 * terminal (tr_progress_new); returns the exit status. A rank's file cut short keeps the records before the cut
 * and gets its mark (tr_merge_mark). */
int tr_merge(int nfiles, char **files, struct tr_out *o, int progress);
/* tr_merge of FILES on a thread of its own, without progress; the
 * descriptor its merged stream is read from. The thread's errors end
 * the tool, naming the file and line at fault. */
int tr_merge_start(int nfiles, char **files);
/* After the stream's end: the merge's exit status. */
int tr_merge_wait(void);
/* Notes R's rank in *RANK: -1 none yet, -2 several (a merged file,
 * whose cut names no one rank). Inline: tr-cat asks at every record. */
static inline void
tr_merge_note(int64_t *rank, const struct tr_rec *r)
{
	int64_t rk;

	if (r->type != TR_EV && r->type != TR_REG)
		return;
	rk = r->type == TR_EV ? r->u.ev.rank : r->u.reg.rank;
	if (*rank == -1)
		*rank = rk;
	else if (*rank != rk)
		*rank = -2;
}
/* Writes the mark tr-record writes when RANK ends early, for a rank's
 * file cut short (#meta end.RANK=truncated, in a section of its own). */
void tr_merge_mark(struct tr_out *o, int64_t rank);

/* ---- map.c: a hash map from byte strings to dense indexes ---- */

struct tr_map;
struct tr_map *tr_map_new(void);
void tr_map_free(struct tr_map *m);
/* The index of KEY (0, 1, 2, ... in order of first insertion); a new
 * key is added when add is set, else -1 is returned for it. */
long tr_map_get(struct tr_map *m, const char *key, size_t n, int add);
size_t tr_map_len(const struct tr_map *m);
const char *tr_map_key(const struct tr_map *m, long i, size_t *n);
void tr_map_clear(struct tr_map *m);
/* The indexes of all keys in byte order of the keys; free() it. Reports
 * sorted this way do not depend on the order records came in. */
long *tr_map_order(const struct tr_map *m);

/* ---- hash.c: hashing byte strings ---- */

/* Mixes every byte into every bit; not for maps facing hostile keys. */
uint64_t tr_hash(const void *p, size_t n);

/* ---- spool.c: per-rank record queues, in memory then in a file ---- */

struct tr_spool;
/* BUDGET bytes of memory at most for staging, about; sealed chunks stay
 * in memory up to $TR_SPOOL_MEM bytes (default 512 MiB), then go to a
 * temporary file in $TMPDIR. */
struct tr_spool *tr_spool_new(size_t budget);
void tr_spool_add(struct tr_spool *s, long rank, const void *p, size_t n);
/* Room for an item of N bytes at the end of RANK's queue, 8-byte
 * aligned, valid until the next call: to build an item in place. */
void *tr_spool_reserve(struct tr_spool *s, long rank, size_t n);
/* Items not aligned, each after its length in a byte or two rather than
 * eight: for a reader that decodes them out of the spool. Set before
 * the first item. */
void tr_spool_packed(struct tr_spool *s);
/* Ends writing. Reading may begin before: a queue read to its end
 * gives 0 until more is written. */
void tr_spool_seal(struct tr_spool *s);
/* The next item of RANK, valid until the next call for RANK; 0 at end. */
int tr_spool_next(struct tr_spool *s, long rank, const void **p, size_t *n);
void tr_spool_free(struct tr_spool *s);

/* ---- stats.c: running statistics, Welch's t-test, accuracy ---- */

/* Count, mean, sum of squared deviations (Welford), min and max; zero it
 * to start. */
struct tr_stat {
	double n, mean, m2, min, max;
};
void tr_stat_add(struct tr_stat *s, double v);
void tr_stat_merge(struct tr_stat *s, const struct tr_stat *t);
double tr_stat_sd(const struct tr_stat *s);	/* n-1; 0 if n < 2 */
/* The regularized incomplete beta function I_x(a,b). */
double tr_incbeta(double a, double b, double x);
/* Two-sided p-value of Student's t with df degrees of freedom. */
double tr_t_p2(double t, double df);
/* Welch's unequal-variance t-test of two means: the two-sided p-value,
 * or -1 when a side has fewer than 2 values. */
double tr_welch(const struct tr_stat *a, const struct tr_stat *b);
/* P-values of N tests adjusted for their number (-1, no test, is left
 * as it is): Holm's step-down, which bounds the chance of any false
 * rejection, Benjamini-Hochberg's step-up, which bounds their expected
 * share, or none. Returns the tests counted. */
enum { TR_PADJ_NONE, TR_PADJ_HOLM, TR_PADJ_BH };
size_t tr_padjust(const double *p, double *adj, size_t n, int method);

/* 100 % less the difference relative to the larger magnitude:
 * symmetric in PRED and MEAS, 100 when equal (both 0 too), 10 when one
 * is ten times the other, 0 when one is 0, -100 at opposite signs. */
double tr_accuracy(double pred, double meas);
/* A summary that no single key can move far: the median and the shares
 * (percent) within 5, 10 and 25 % (scores of 95, 90, 75 and more), and
 * the indices into SCORE of the TR_ACC_WORST lowest, lowest first. */
#define TR_ACC_WORST 3
struct tr_accsum {
	int n, nworst;
	double median, min, in5, in10, in25;
	int worst[TR_ACC_WORST];
};
void tr_acc_summary(const double *score, int n, struct tr_accsum *s);

/* ---- ranklist.c: ranks as a members list, for messages ---- */

/* Ranks added in ascending order, written
 * as such a list ("3,5-7") into BUF of SZ bytes (64 or more), cut short
 * with ",..." where it is full; n counts the ranks added. */
struct tr_ranklist {
	char *buf;
	size_t sz, len;
	int64_t lo, hi;		/* the range not yet written */
	long n;
	int cut;
};
void tr_ranklist_init(struct tr_ranklist *l, char *buf, size_t sz);
void tr_ranklist_add(struct tr_ranklist *l, int64_t rank);
const char *tr_ranklist_end(struct tr_ranklist *l);

/* ---- itab.c: pairs of integers to pointers, with deletion ---- */

struct tr_islot {
	int64_t a, b;
	void *v;		/* NULL: free slot */
};
struct tr_itab {		/* zero-initialised: empty */
	struct tr_islot *s;
	size_t cap, n;
};
/* The value slot of (a, b); NULL if absent and !add. A stored value
 * must not be NULL. */
void **tr_itab_get(struct tr_itab *h, int64_t a, int64_t b, int add);
void tr_itab_del(struct tr_itab *h, int64_t a, int64_t b);
void tr_itab_free(struct tr_itab *h);

#endif
