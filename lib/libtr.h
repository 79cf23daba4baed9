/* libtr.h - libtr, the shared core of the tr tools.
 *
 * Sections follow the source files of lib/. Every public name starts
 * with tr_ (functions, types) or TR_ (constants). */
#ifndef LIBTR_H
#define LIBTR_H

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
/* Called by tr_die before exiting (the output's flush); NULL for none. */
extern void (*tr_atdie)(void);

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

/* ---- utf8.c: UTF-8 checked, for JSON, SVG and HTML ---- */

/* The length of the UTF-8 sequence at S (N bytes left), 0 if there is
 * none: a stray continuation byte, a sequence cut short, an overlong
 * form, a surrogate or a code point past U+10FFFF. */
size_t tr_utf8_len(const char *s, size_t n);

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
	TR_ACC, TR_HDIST, TR_ACCSUM,	/* tr-accuracy */
	TR_DELTA, TR_DSUM, TR_DMAX, TR_HIST, TR_BIN, TR_PROF, TR_PROFAGG,
	TR_OPSTAT, TR_CMAT, TR_MSIZE, TR_IMBAL, TR_WAIT, TR_BLAME, /* issue 4 */
	TR_JOB, TR_SYS, TR_MEAN, TR_DIFF,	/* issue 7 */
	TR_CART,		/* tr-record: a Cartesian communicator's grid */
	TR_MSITE,		/* tr-stat -s: messages per call site */
	TR_FAIL,		/* tr-record: a call that returned an error */
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
/* The columns of S's earlier revision, which readers still accept (a
 * prefix of its fields), or NULL. */
const char *tr_schema_older(const struct tr_schema *s);
/* The column (1 after the type) of field NAME (N bytes) in S; -1 if S has
 * none. */
int tr_schema_col(const struct tr_schema *s, const char *name, size_t n);

/* ---- in.c: reading a stream ---- */

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

/* Region tr.flush is tr-record writing its buffer: time the program
 * spent, but not its own work, which tools that measure that work
 * leave out. */
int tr_reg_flush(const struct tr_reg *g);

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

/* Where the reader is, for messages. */
const char *tr_in_file(const struct tr_in *in);
long tr_in_line(const struct tr_in *in);
/* "tr-x: FILE:LINE: MSG" and exit TR_EXIT_DATA. */
_Noreturn void tr_in_die(const struct tr_in *in, const char *fmt, ...);
/* a + b, for sums over records (bytes, times over ranks), which each
 * fit 64 bits but together may not: beyond, an error at the line. */
int64_t tr_in_add(const struct tr_in *in, int64_t a, int64_t b,
    const char *what);
/* A rank's place in tr-record's flushes (zeroed: in none). */
struct tr_flushing {
	int64_t start;
	int in;
};
/* G, tr.flush's enter or leave on F's rank: at its leave the flush's ns,
 * else -1; a leave without its enter is bad input. */
int64_t tr_flush_step(const struct tr_in *in, struct tr_flushing *f,
    const struct tr_reg *g);

/* Metadata of the current section: the value, or NULL. */
const char *tr_meta(const struct tr_in *in, const char *key);
/* Says on stderr what #meta unrecorded.KIND says the recording left out:
 * for the tools whose results need every message (replays, waits). */
void tr_meta_unrecorded(const struct tr_in *in);
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

/* Typed access to fields of any record, dying with file:line. */
int64_t tr_get_i64(const struct tr_in *in, const struct tr_rec *r, int col);
double tr_get_f64(const struct tr_in *in, const struct tr_rec *r, int col);

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

/* ---- net.c: network descriptions for tr-nsim, tr-to-ti (tr-net(5)) ---- */

enum { TR_TOPO_CROSSBAR, TR_TOPO_FATTREE, TR_TOPO_TORUS, TR_TOPO_DRAGONFLY };
enum { TR_MAP_BLOCK, TR_MAP_RR, TR_MAP_FILE };
enum { TR_MODEL_FLOW, TR_MODEL_LOGGP };
enum { TR_SHARE_LATENCY, TR_SHARE_FAIR };
/* When a nonblocking collective takes its next step: once its owner is
 * in an MPI call, or at once. */
enum { TR_PROGRESS_CALLS, TR_PROGRESS_BACKGROUND };
/* Collective operations and the algorithms that decompose them. */
enum { TR_COLL_BARRIER, TR_COLL_BCAST, TR_COLL_REDUCE, TR_COLL_ALLREDUCE,
	TR_COLL_GATHER, TR_COLL_SCATTER, TR_COLL_ALLGATHER, TR_COLL_ALLTOALL,
	TR_COLL_REDSCAT, TR_COLL_SCAN, TR_COLL_NOPS };
enum { TR_ALG_BINOMIAL, TR_ALG_LINEAR, TR_ALG_RDB, TR_ALG_RING,
	TR_ALG_DISSEM, TR_ALG_PAIRWISE, TR_ALG_N };
#define TR_COLL_V 0x100	/* or-ed in by tr_mpi_class for v-variants */
/* or-ed in for the calls collective over the communicator they make
 * (MPI_Comm_create_group, MPI_Intercomm_create); see tr_ev_class */
#define TR_COLL_NEWC 0x200
/* Neighborhood collectives: every rank exchanges a block with each
 * neighbour of its Cartesian grid (outside the network's algorithms). */
#define TR_COLL_NEIGHBOR TR_COLL_NOPS

/* Times in ns, bandwidths in bytes per ns. */
#define TR_NET_ITIME 32
struct tr_net {
	int topo, dim[4];	/* fattree K N; torus X Y Z; dragonfly G A P H */
	long xnodes;		/* a crossbar's nodes; 0: as the ranks need */
	long nline;		/* the line that set the nodes, for errors */
	int ppn, map, model, sharing, progress;
	char *mapfile;
	double link_bw, link_lat, sw_lat, intra_bw, intra_lat;
	/* intra-time: a message within a node takes the time interpolated
	 * between these (bytes, ns) points, sorted by size, the first at
	 * 0 bytes; none: intra_lat + bytes / intra_bw */
	double itime[TR_NET_ITIME][2];
	int nitime;
	double o, g, G, L;	/* LogGP */
	double red_bw;		/* bytes per ns a rank reduces into its own
				 * in a reduction; 0: no time */
	double node_bw;		/* bytes per ns a node's messages within it
				 * share; 0: they do not contend */
	double rma_o;		/* ns of CPU each one-sided call costs */
	double rma_bw;		/* bytes per ns an origin copies a one-sided
				 * transfer within a node in its call; 0: a
				 * transfer there moves as between nodes */
	/* eager-threshold [0], intra-eager-threshold [1] as the file gives
	 * them: messages below so many bytes, between nodes and within one,
	 * are eager; TR_NET_TRACE: the trace's, else efall (-1: none);
	 * eline: their line, 0 for the intra one not given */
	int64_t efile[2], efall[2];
	long eline[2];
	char *path;
	int64_t eager, intra_eager;	/* the section's, by tr_net_eager */
	int coll[TR_COLL_NOPS];
	/* Set by tr_net_build. */
	long nodes, np, nlinks, sw, base_up, base_down, *rank_node;
};

struct tr_net *tr_net_default(void);
/* Parses FILE; a bad line dies with "FILE:LINE: msg" (TR_EXIT_DATA). */
struct tr_net *tr_net_load(const char *file);
#define TR_NET_TRACE (-1)
/* Sets eager and intra_eager for the section IN is reading (NULL: none),
 * from its #meta eager.net and eager.shm where the file says "trace";
 * dies at the file's line if the trace lacks them. */
void tr_net_eager(struct tr_net *n, const struct tr_in *in);
/* Sizes the network for NP ranks (dies if they do not fit). */
void tr_net_build(struct tr_net *n, long np);
void tr_net_free(struct tr_net *n);
long tr_net_node(const struct tr_net *n, long rank);
/* The links from node A to node B (at most tr_net_maxroute) and the
 * latency of the route; 0 links within a node. */
int tr_net_route(const struct tr_net *n, long a, long b, long *links,
    double *lat);
int tr_net_maxroute(const struct tr_net *n);
/* The time of a message of BYTES between two ranks of one node. */
double tr_net_intra(const struct tr_net *n, int64_t bytes);
const char *tr_net_linkname(const struct tr_net *n, long link, char *buf,
    size_t sz);
const char *tr_coll_name(int op);
const char *tr_alg_name(int alg);

/* ---- coll.c: MPI calls classified, collectives as point-to-point ---- */

enum { TR_MPI_LOCAL, TR_MPI_SEND, TR_MPI_SSEND, TR_MPI_ISEND, TR_MPI_RECV,
	TR_MPI_IRECV, TR_MPI_SENDRECV, TR_MPI_WAIT, TR_MPI_TEST, TR_MPI_COLL,
	TR_MPI_ICOLL, TR_MPI_COMMNEW, TR_MPI_RMA, TR_MPI_RMASYNC,
	TR_MPI_FENCE, TR_MPI_IFILE, TR_MPI_CANCEL, TR_MPI_PROBE };
/* One-sided transfers (TR_MPI_RMA): a put or accumulate sends, a get
 * fetches, the fetching atomics do both. Completions (TR_MPI_RMASYNC) of
 * the transfers to one target, or to all of the window. */
enum { TR_RMA_PUT, TR_RMA_GET, TR_RMA_FETCH };
enum { TR_RMA_TARGET, TR_RMA_ALL };
/* A TR_MPI_ISEND that completes only once matched (MPI_Issend, a
 * started MPI_Ssend_init). */
#define TR_P2P_SYNC 1
/* A TR_MPI_PROBE that takes the message out of matching (MPI_Mprobe), and
 * the TR_MPI_RECV or TR_MPI_IRECV of such a message (MPI_Mrecv). */
#define TR_P2P_MATCHED 2
/* A TR_MPI_SEND or TR_MPI_ISEND that is done once its message is copied
 * into the buffer the program attached (MPI_Bsend, MPI_Ibsend, a started
 * MPI_Bsend_init): the library sends it from there, whenever its
 * receive is posted. */
#define TR_P2P_BUF 3
/* A TR_MPI_LOCAL call that runs the library's progress engine
 * (MPI_Iprobe, MPI_Improbe). */
#define TR_LOCAL_PROGRESS 1
/* The class of MPI function NAME; *coll gets the collective (TR_COLL_*)
 * for TR_MPI_COLL, TR_MPI_ICOLL, TR_MPI_COMMNEW and TR_MPI_FENCE (a
 * barrier), TR_RMA_* for TR_MPI_RMA and TR_MPI_RMASYNC, TR_P2P_* or 0 for
 * point-to-point calls. */
int tr_mpi_class(const char *name, size_t n, int *coll);
/* tr_mpi_class of E's op, and in *comm the communicator whose members
 * the call synchronises: E's own, or the one it makes (TR_COLL_NEWC,
 * cleared in *coll); without that one (req -1) it is TR_MPI_LOCAL. */
int tr_ev_class(const struct tr_ev *e, int *coll, int64_t *comm);
/* Whether fail record R, of class CLS (tr_ev_class), is replayed as the
 * call it records (a truncated receive, a request a failed completion
 * completed), rather than as a local call. */
int tr_fail_replayed(const struct tr_rec *r, int cls);
/* Whether E is an MPI_Comm_free (its comm the one freed). */
int tr_is_comm_free(const struct tr_ev *e);
/* Whether E makes a persistent point-to-point request (MPI_Send_init,
 * MPI_Recv_init and the like). */
int tr_is_pers_init(const struct tr_ev *e);
/* Whether E is an MPI_Request_free, which tr-record writes for a
 * persistent request only, its comm the one the request was made on. */
int tr_is_req_free(const struct tr_ev *e);

/* One step of a collective on one rank: its transfers, posted together
 * and all awaited; at most two, but the root of a linear broadcast posts
 * every send at once. Peers are ranks in the communicator. */
struct tr_p2p {
	long peer;
	int64_t bytes;
	int send;
	int red;		/* a receive whose bytes are then reduced into
				 * the rank's own (MPI_Reduce_local's work) */
};
struct tr_coll {
	int op, alg;
	int phase, redalg, bcalg;	/* a ring allreduce's reduce + bcast */
	long n, me, root;	/* communicator ranks */
	int64_t bytes;		/* as recorded for this rank, per block */
	long step, mask, aux;
	int nd;			/* TR_COLL_NEIGHBOR: the grid */
	const int *dims, *periods;
};
/* ALGS: the algorithm of every operation (struct tr_net's coll). */
void tr_coll_begin(struct tr_coll *c, int op, const int *algs, long n,
    long me, long root, int64_t bytes);
/* TR_COLL_NEIGHBOR: the Cartesian grid of ND dimensions (kept, not
 * copied); BYTES is then the block of one neighbour. */
void tr_coll_grid(struct tr_coll *c, int nd, const int *dims,
    const int *periods);
/* The room tr_coll_next needs. */
long tr_coll_cap(const struct tr_coll *c);
/* Fills ops (room for tr_coll_cap) with the next step; 0 when the
 * collective is over. */
int tr_coll_next(struct tr_coll *c, struct tr_p2p *ops, long cap);

/* ---- callops.c: the ops one MPI call's records name ---- */
struct tr_callops {		/* zero-initialised; free(op) */
	long *op;
	size_t n, cap;
};
/* 1 if OP (an index of the tool's own) is new to the call, which
 * NEWCALL starts: the call then counts under OP. */
int tr_callops_first(struct tr_callops *c, int newcall, long op);

/* ---- spool.c: per-rank record queues, in memory then in a file ---- */

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

struct tr_spool;
/* BUDGET bytes of memory at most for staging, about; sealed chunks stay
 * in memory up to $TR_SPOOL_MEM bytes (default 512 MiB), then go to a
 * temporary file in $TMPDIR. */
struct tr_spool *tr_spool_new(size_t budget);
void tr_spool_add(struct tr_spool *s, long rank, const void *p, size_t n);
/* Room for an item of N bytes at the end of RANK's queue, 8-byte
 * aligned, valid until the next call: to build an item in place. */
void *tr_spool_reserve(struct tr_spool *s, long rank, size_t n);
/* Ends writing. Reading may begin before: a queue read to its end
 * gives 0 until more is written. */
void tr_spool_seal(struct tr_spool *s);
/* The next item of RANK, valid until the next call for RANK; 0 at end. */
int tr_spool_next(struct tr_spool *s, long rank, const void **p, size_t *n);
void tr_spool_free(struct tr_spool *s);

/* ---- members.c: member lists of comm records ---- */

/* Parses "0-3,8,10-20:2" into world ranks, in *OUT (malloc'd) unless OUT
 * is NULL, their number in *CNT; -1 if malformed. */
int tr_members(const char *p, size_t n, long **out, long *cnt);
/* The inverse, for messages: ranks added in ascending order, written
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

/* Communicator ids are numbered on each rank, in its order of creation
 * (tr-format(5)), so ranks that create different numbers of
 * communicators (MPI_Comm_create and MPI_UNDEFINED colours give some
 * ranks none) give one communicator different ids. It is the same
 * communicator on every member that created it k-th among those with
 * these members. tr_comms_get gives that communicator's index for a
 * comm record of rank RANK listing MEMBERS, in the order of the rank's
 * records, and sets *MADE when no other rank's record gave it before:
 * indexes are 0, 1, 2, ... in that order while none is dropped.
 * tr_comms_drop forgets a communicator its members have all freed (the
 * index is given out again, to the next one made). */
struct tr_comms;
struct tr_comms *tr_comms_new(void);
long tr_comms_get(struct tr_comms *c, int64_t rank,
    const struct tr_field *members, int *made);
/* The members list of communicator I as its comm records give it. */
const char *tr_comms_members(const struct tr_comms *c, long i, size_t *n);
void tr_comms_drop(struct tr_comms *c, long i);
void tr_comms_free(struct tr_comms *c);

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

/* ---- feed.c: a section read as a replay needs it (tr-nsim, tr-waits) ---- */

typedef void (*tr_feed_fn)(void *ctx, const struct tr_rec *r);
/* Reads IN's section on, giving each record to TAKE and header changes
 * to OUT, until *GOT equals WANT after a record (1), or to the
 * section's end (0; WANT < 0 reads to the end). */
int tr_feed(struct tr_in *in, struct tr_out *out, tr_feed_fn take, void *ctx,
    const int64_t *got, int64_t want);

/* ---- wild.c: sources of MPI_ANY_SOURCE receives, from completions ---- */

struct tr_wild;
struct tr_wild *tr_wild_new(void);
/* Every ev record of the section, in each rank's order; CLS from
 * tr_mpi_class. 1 if it resolved a wildcard receive of its rank. */
int tr_wild_read(struct tr_wild *w, const struct tr_ev *e, int cls);
/* Ends reading. */
void tr_wild_seal(struct tr_wild *w);
/* The source and tag that rank RANK's Irecv SEQ (peer -1) got; 0 if none
 * (never completed, or MPI_PROC_NULL); -1 if not known yet: before
 * tr_wild_seal, the rank's records read so far do not tell. */
int tr_wild_get(struct tr_wild *w, long rank, int64_t seq, int64_t *src,
    int64_t *tag);
/* The source and tag an MPI_Irecv takes: its own, or, with a wildcard
 * and a request, those of its completion when they are known, MORE(CTX,
 * RANK) reading on until they are (0 at the end; MORE may be NULL). One
 * from any source never completed keeps peer -1 and receives nothing. */
struct tr_wildq {
	int64_t seq, peer, tag, req;
};
void tr_wild_resolve(struct tr_wild *w, long rank, const struct tr_wildq *q,
    int64_t *src, int64_t *tag, int (*more)(void *, long), void *ctx);
void tr_wild_free(struct tr_wild *w);

/* ---- nsim.c: trace-driven simulation (tr-nsim) ---- */

struct tr_nsim;
/* Compute bursts are scaled by SCALE; WALL takes them from wall-clock
 * gaps instead of the cpu field. NET is used, not owned. */
struct tr_nsim *tr_nsim_new(struct tr_net *net, double scale, int wall);
/* Whether tests and probes that found nothing keep their recorded time
 * (default: they take none). */
void tr_nsim_pollwork(struct tr_nsim *s, int on);
/* The sections will be exported by tr_nsim_ti, not simulated: it counts
 * the sends between each pair as they are read, to find the receives of
 * synchronous sends. */
void tr_nsim_for_ti(struct tr_nsim *s);
/* 1 for the records a replay takes: ev, reg, comm and cart. */
int tr_nsim_takes(int type);
/* Takes such a record of the current section (tr-to-ti). */
void tr_nsim_add(struct tr_nsim *s, const struct tr_in *in,
    const struct tr_rec *r);
/* Simulates the section of IN from REC, a record it takes, just read, to
 * the section's end, reading on as the replay needs records
 * (all of them first when the section has no #meta np). Writes the ev
 * and reg records with simulated times, passes through the others, then
 * writes simrank, simlink and simrun records; returns the count of
 * records simulated. Dies (TR_EXIT_DATA) on deadlock or inconsistency. */
int64_t tr_nsim_section(struct tr_nsim *s, struct tr_in *in,
    const struct tr_rec *rec, struct tr_out *out);
/* With ON, each tr_nsim_section prints counts and cpu times to stderr. */
void tr_nsim_stats(struct tr_nsim *s, int on);
void tr_nsim_free(struct tr_nsim *s);
/* Writes the section to directory DIR as SimGrid time-independent traces
 * (rankR.txt, index.txt), platform.xml, hostfile and smpirun.sh;
 * collectives become point-to-point when ALL is set (else only those
 * SimGrid cannot replay: sub-communicators, v-variants, scans). */
void tr_nsim_ti(struct tr_nsim *s, const char *dir, int all);

/* ---- expr.c: the expression language of tr-filter, tr-runs, tr-fit, tr-model ---- */

struct tr_val { int isstr; double num; const char *s; size_t n; };
struct tr_expr;
/* Resolves a variable name to a slot index >= 0, or -1 if unknown. */
typedef int (*tr_expr_lookup)(void *ctx, const char *name, size_t n);
/* NULL on error: err gets a one-line message, *errcol the 0-based column. */
struct tr_expr *tr_expr_parse(const char *src, tr_expr_lookup lookup, void *ctx,
    char *err, size_t errsz, int *errcol);
/* 0 ok, -1 runtime error (type mismatch): out undefined. slots indexed by slot number. */
int tr_expr_eval(const struct tr_expr *e, const struct tr_val *slots, struct tr_val *out);
/* Whether E is one comparison of a slot with a number, "rank == 0":
 * its slot, the relation (0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=) and the
 * number, so that a caller may test a record without evaluating E. */
int tr_expr_cmpnum(const struct tr_expr *e, int *slot, int *rel, double *num);
double tr_expr_num(const struct tr_expr *e, const struct tr_val *slots); /* NaN if not numeric */
int tr_expr_true(const struct tr_expr *e, const struct tr_val *slots);  /* nonzero number or nonempty string */
void tr_expr_free(struct tr_expr *e);
/* Prints a caret diagnostic for a parse error: "tr-x: bad expression: MSG\n  EXPR\n     ^" */
void tr_expr_perror(const char *src, const char *err, int errcol);
/* The slots the expression reads: calls fn(ctx, slot) once per distinct slot. */
void tr_expr_slots(const struct tr_expr *e, void (*fn)(void *ctx, int slot), void *ctx);
/* Where a slot's value is in a record: an int64_t at byte OFF of struct
 * tr_rec (one of the parsed integers), or the text of field COL. */
enum { TR_SRC_NONE, TR_SRC_I64, TR_SRC_STR };
struct tr_slotsrc { int kind; long off; int col; };
struct tr_expr_bound;
/* E bound to a record layout, SRC per slot, for tr_expr_test: the same
 * results as tr_expr_true without filling slots. NULL when a part of E
 * needs tr_expr_eval (an operand of unknown kind, a string where a
 * number goes, a regex built at run time). */
struct tr_expr_bound *tr_expr_bind(const struct tr_expr *e, const struct tr_slotsrc *src);
int tr_expr_test(const struct tr_expr_bound *b, const struct tr_rec *r);
void tr_expr_unbind(struct tr_expr_bound *b);

/* ---- svg.c: the pieces of SVG charts ---- */

#define TR_MAXTICKS 32
enum { TR_AXIS_X, TR_AXIS_Y };
enum { TR_UNIT_NONE, TR_UNIT_NS, TR_UNIT_BYTES };

/* Maps the domain [d0, d1] to the range [r0, r1] (pixels), linearly or
 * by log10 (log: the domain must be positive). */
struct tr_scale {
	double d0, d1, r0, r1;
	int log;
};
void tr_scale_set(struct tr_scale *s, double d0, double d1, double r0,
    double r1, int log);
double tr_scale_map(const struct tr_scale *s, double v);
/* Widens the domain to round values for about max ticks. */
void tr_scale_nice(struct tr_scale *s, int max);
/* Up to max (at most TR_MAXTICKS) round values in the domain, into t. */
int tr_scale_ticks(const struct tr_scale *s, int max, double *t);
/* The divisor and unit name (ns..s, B..TB) that suit values of size
 * step; 1 and NULL for TR_UNIT_NONE. */
double tr_svg_unit(int unit, double step, const char **name);
/* A short label for a tick value, in a buffer of 32 bytes. */
char *tr_svg_num(char *buf, double v);
/* Colour of series i; i < 0 is the neutral grey of compute time. */
const char *tr_svg_color(int i);
/* Writes s with XML's special characters escaped. */
void tr_svg_esc(struct tr_out *o, const char *s, size_t n);
void tr_svg_escs(struct tr_out *o, const char *s);
void tr_svg_begin(struct tr_out *o, double w, double h, const char *id);
void tr_svg_end(struct tr_out *o);
void tr_svg_text(struct tr_out *o, double x, double y, const char *anchor,
    const char *attr, const char *s);
void tr_svg_title(struct tr_out *o, double w, const char *title);
void tr_svg_axis(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label);
/* The same with ticks at the n values t (e.g. the process counts). */
void tr_svg_axis_at(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label,
    const double *t, int n);
double tr_svg_legend(struct tr_out *o, double x, double y, double w, int n,
    const char *const *names, const char *const *colors,
    const char *const *classes);

/* ---- timeline.c: the timeline chart of ev records ---- */

struct tr_tl;
/* Up to limit events are drawn one by one (with messages and
 * collective waits); beyond it, lanes become time bins. */
struct tr_tl *tr_tl_new(long limit);
void tr_tl_np(struct tr_tl *t, int64_t np);
void tr_tl_add(struct tr_tl *t, const struct tr_ev *e);
void tr_tl_reg(struct tr_tl *t, const struct tr_reg *g);
/* A comm record: which communicator RANK's id ID is. */
void tr_tl_comm(struct tr_tl *t, int64_t rank, int64_t id,
    const char *members, size_t n);
long tr_tl_events(const struct tr_tl *t);
void tr_tl_draw(struct tr_tl *t, struct tr_out *o, const char *id,
    const char *title, double width);
void tr_tl_free(struct tr_tl *t);

/* ---- plot.c: charts of tr records (tr-plot, tr-report) ---- */

enum { TR_PLOT_AUTO, TR_PLOT_TIMELINE, TR_PLOT_HIST, TR_PLOT_SCALING,
	TR_PLOT_DIFF, TR_PLOT_JOBS, TR_PLOT_BAR, TR_PLOT_NKIND };

struct tr_plotopt {
	const char *title;
	double width;		/* pixels; 0: 1000 */
	long limit;		/* timeline events drawn one by one; 0: 20000 */
	int topn;		/* panels, bars; 0: 12 */
	int logx, logy;
	int unit;		/* TR_UNIT_*, or -1 for each chart's own */
	const char *type, *x, *y, *key;	/* record type, columns, a key */
	double target;		/* np of the extrapolation target; 0: guess */
	const char *id;		/* prefix of element ids */
};

struct tr_plot;
struct tr_plot *tr_plot_new(const struct tr_plotopt *opt);
/* Reads FILES ("-": stdin) as one stream (e.g. the per-rank files of a
 * run); its sections become series named LABEL (NULL: the first file's
 * name). Returns 0, or TR_EXIT_SYS if some file could not be read. */
int tr_plot_read(struct tr_plot *p, int nfiles, char **files,
    const char *label);
/* The charts the records read allow, most telling first, into kinds
 * (TR_PLOT_NKIND entries); returns how many. */
int tr_plot_kinds(struct tr_plot *p, int *kinds);
/* Writes one standalone <svg> element; -1 (nothing written) if the
 * records read hold nothing for that kind. */
int tr_plot_draw(struct tr_plot *p, int kind, struct tr_out *o);
const char *tr_plot_kindname(int kind);
int tr_plot_kindnum(const char *name);	/* -1 if unknown */
/* The records kept, per declared type (every type but ev, comm and the
 * trace-sized delta, reg and sys), as lines with their series. */
struct tr_plottab {
	const char *type;
	int nf;
	const char *const *names;
	size_t n;
	const char *const *rows;
	const int *ser;
};
int tr_plot_table(const struct tr_plot *p, size_t i, struct tr_plottab *t);
/* Series s's label and np (NaN if unknown); NULL past the last. */
const char *tr_plot_series(const struct tr_plot *p, int s, double *np);
/* How series s's diff p-values are adjusted for the keys tested
 * (#meta diff.correction; Holm, tr-diff's default, when unsaid). */
int tr_plot_padj(const struct tr_plot *p, int s);
void tr_plot_free(struct tr_plot *p);

/* ---- stats.c: running statistics, Welch's t-test ---- */

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
/* The range [*a, *z] over which a bin's values are read as spread
 * evenly: the widest inside the bin [LO, HI) and the histogram's range
 * [HMIN, HMAX] that keeps the bin's MEAN (a bin of one value: that
 * value). */
void tr_hist_binspan(double lo, double hi, double mean, double hmin,
    double hmax, double *a, double *z);
const char *const *tr_flat_rankstats(int *n);
/* The value of NAME in KEY ("name=value;..."), unescaped, to free; NULL
 * if absent. */
char *tr_flat_keyval(const char *key, const char *name);

/* ---- grid.c: Cartesian process grids (row-major, as MPI_Cart_create) ---- */

#define TR_GRID_MAXD 3
struct tr_grid {
	int nd, dims[TR_GRID_MAXD], periodic[TR_GRID_MAXD];
	long np;
};
/* The grid of a cart record: up to MAX dimensions into DIMS and
 * PERIODS, their number in ND; -1 with what is wrong in ERR. */
#define TR_CART_MAXD 16
int tr_cart_read(const struct tr_rec *r, int max, int *nd, int *dims,
    int *periods, char *err, size_t errsz);
/* MPI_Dims_create's balanced factors of NP, non-increasing. */
void tr_grid_dims(long np, int nd, int *dims);
/* The grid of NP ranks in ND dimensions that the application chooses
 * whose grids at its recorded rank counts are REC (N of them, ND extents
 * each): MPI_Dims_create's extents over the dimensions that grow, in the
 * order of dimensions that REC shows (the lowest first where it shows
 * none), the dimensions of one extent in every grid of REC kept when
 * REC has two rank counts or more and a rule without them explains it
 * not. ORDER gets the dimensions that grow, the one of most ranks first,
 * then -1s; KEPT the mask of those kept. -1 if no such rule gives every
 * grid of REC, -2 if the kept extents do not divide NP. */
int tr_grid_learn(long np, int nd, const int (*rec)[TR_GRID_MAXD], size_t n,
    int *dims, int *order, unsigned *kept);
/* The grid of NP ranks (fewest dimensions, fewest periodic ones, most
 * balanced) in which every pair is a pair of neighbours; -1 if none. */
int tr_grid_infer(long np, const long (*pairs)[2], size_t n,
    struct tr_grid *g);
/* 1 if every pair is a nearest-neighbour pair on g. */
int tr_grid_explains(const struct tr_grid *g, const long (*pairs)[2],
    size_t n);
/* The index of the first pair that is not, -1 if none. */
long tr_grid_stray(const struct tr_grid *g, const long (*pairs)[2],
    size_t n);
void tr_grid_coords(const struct tr_grid *g, long rank, int *c);
/* The rank at coordinates C (wrapped where periodic), -1 outside. */
long tr_grid_rank(const struct tr_grid *g, const int *c);
/* Position class: per dimension low 0, interior 1, high 2, alone 3,
 * in base 4 (periodic dimensions are interior everywhere). */
int tr_grid_class(const struct tr_grid *g, long rank);

/* ---- fitexpr.c: user models, fitted by least squares ---- */

/* SRC is an expression in n, N and coefficients (any other names);
 * the fitted model has the coefficients substituted into the text. */
int tr_fit_expr(const char *src, struct tr_fitpt *p, int m, int red,
    struct tr_fit *f, char *err, size_t errsz);

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

/* ---- store.c: the run store of tr-runs (formats/runs.md) ---- */

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
void tr_corr_finish(struct tr_corr *c, struct tr_out *out);
void tr_corr_free(struct tr_corr *c);

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
/* Also evaluates every model at NP2 (as v2 below). */
void tr_xp_eval2(struct tr_xp *x, double np2);
/* The (type, key) groups of models, in order of first appearance: group
 * G's type and key; the group of TYPE and KEY, or -1; quantity Q of
 * group G at np and at np2: 0, or -1 if G has no model of Q. */
size_t tr_xp_ngroups(const struct tr_xp *x);
const char *tr_xp_group(const struct tr_xp *x, size_t g, const char **key);
long tr_xp_find(const struct tr_xp *x, const char *type, const char *key);
int tr_xp_get(const struct tr_xp *x, long g, const char *q, double *v,
    double *v2);

/* ---- synth.c: a whole trace synthesised at a target scale (tr-extrap -T) ---- */

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
/* Pass 2: each ev record of the template, written for every target rank
 * that follows its rank. */
void tr_syn_ev(struct tr_syn *s, const struct tr_in *in,
    const struct tr_rec *r, struct tr_out *o);
/* After pass 2: TR_EXIT_DATA, said on stderr, if the messages written
 * do not balance (some sent are never received), else 0. */
int tr_syn_end(struct tr_syn *s);
void tr_syn_free(struct tr_syn *s);

#endif
