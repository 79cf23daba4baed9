/* tr-int.h - libtr internals shared by the reader (in*.c, ranks.c) and
 * out.c. */
#ifndef TR_INT_H
#define TR_INT_H

#include <zlib.h>
#include "core.h"

/* One header line of a section, kept as read (without LF). */
struct tr_hline {
	char *s;
	size_t n;
	int kind;		/* 't' #tr, 'm' #meta, 'f' #fields, 'c' comment */
	const char *file;	/* where it was read, for messages */
	long line;
};

struct tr_meta {
	char *val;		/* points into the #meta line; keys are in mmap */
	const char *file;	/* where the line was read */
	long line;
};

/* The bytes of one input file, plain or gzip (bytes.c). */
struct tr_src {
	int fd, gz, zdone;
	int trunc;		/* the gzip data stopped short */
	z_stream z;
	unsigned char *zbuf;	/* zcap bytes of gzip data */
	size_t zcap;
	int err;		/* errno of a read that failed */
	char msg[128];		/* what is wrong with the data */
};
#define TR_RDSZ (1 << 16)
/* Up to ROOM bytes at P, read or inflated; 0 at the end of the file;
 * -1 on an error, err or msg set. */
long tr_src_read(struct tr_src *s, char *p, size_t room);

/* A thread reading a source ahead into blocks (bytes.c). Before each
 * block are TR_CARRY bytes for the caller to put the start of the line
 * it continues; after it, 64 readable bytes. */
#define TR_CARRY (TR_MAXLINE + 2)
struct tr_ahead;
/* NULL if no thread could be started, or two already read ahead; S is
 * the thread's until stopped. */
struct tr_ahead *tr_ahead_start(struct tr_src *s);
/* The next block at *p, *n bytes, *nul if it holds a NUL byte, the
 * offsets of its first *nlf LFs at *lf: 1; 0 at the end, -1 on an error
 * of the source. Blocks taken before the previous one are given back. */
int tr_ahead_next(struct tr_ahead *a, char **p, size_t *n, int *nul,
    const uint32_t **lf, size_t *nlf);
void tr_ahead_stop(struct tr_ahead *a);

/* What tr_next has learnt of each rank, to check ordering. */
struct tr_rankst {
	int64_t seq, start, end;
};

/* The readers open, most recent first. */
extern struct tr_in *tr_in_open;

struct tr_in {
	struct tr_in *prev, *next;	/* the readers open (tr_close_all) */
	char **files;
	int nfiles, fi;
	char *one;		/* the file of tr_open_conf */
	int must;		/* a file that cannot be opened is fatal */
	const char *name;	/* file being read */
	struct tr_src src;
	struct tr_ahead *ah;	/* reading the file ahead, or NULL */
	int status;
	long ncut;		/* files found cut short */
	long line;
	char *buf;		/* own, or a block of ah */
	const uint32_t *lf, *lfe;	/* LFs ahead in a block of ah, as */
	char *lfbase;			/* offsets from lfbase */
	char *own;
	size_t cap, beg, end;
	int eof, text;		/* text: not the tr format */
	int lastlf;		/* a text file's last line may lack its LF */
	unsigned want;		/* see tr_in_want */
	int nul;		/* a NUL was read: every line takes the careful path */
	int small;		/* tr_in_small */

	/* The current section. */
	long section;
	int open;		/* a section has begun and not ended */
	struct tr_hline *hdr;
	size_t nhdr, hdrcap;
	struct tr_meta *meta;
	size_t nmeta, metacap;
	struct tr_decl **decls;
	size_t ndecl, declcap;
	struct tr_map *hmap;	/* header lines of the section, to drop repeats */
	struct tr_map *mmap;	/* meta keys to indexes in meta */
	struct tr_rankst *ranks;
	size_t nranks;
	size_t lastdecl;	/* the type of the previous record, to look up fast */
	int64_t np;		/* from #meta np, or -1 */
	struct tr_progress *prog;	/* NULL: none shown */
	int64_t prog_done, prog_total;	/* bytes of the files finished, all */
	int64_t prog_lines;		/* lines of the files finished */

	/* A header block read ahead and not yet applied. */
	struct tr_hline *blk;
	size_t nblk, blkcap;
	const char *held;	/* the line that ended the block */
	size_t heldn;
	long heldline;

	int q[4];		/* events to return before reading on */
	int nq;
	unsigned checks;	/* TR_CHECK_* */
	/* Called as a section ends, before TR_END is returned: the checks
	 * of the whole run that tr_in_check asked for. */
	void (*atend)(struct tr_in *in);
};

/* A queued step: the new section's header is installed only after the
 * old section's end has been reported, so tools still see its metadata. */
#define TR_INSTALL (-1)

/* ---- in-file.c: the files in turn ---- */

/* Opens the next file; 0 when there is none. */
int tr_file_next(struct tr_in *in);
/* More bytes after in->end, those from in->beg kept; 0 at the end of
 * the file. */
size_t tr_file_fill(struct tr_in *in);
void tr_file_close(struct tr_in *in);

/* ---- in-header.c: the section's header ---- */

/* Checks one header line and tells its kind ('t', 'm', 'f', 'c'). */
int tr_hdr_kind(const struct tr_in *in, const char *s, size_t n);
_Noreturn void tr_in_die_cr(const struct tr_in *in);
/* Header lines of a known type must name its columns exactly (those of
 * this revision or of the earlier one). */
void tr_hdr_check_fields(const struct tr_in *in, const char *s, size_t n);
/* Adds a line to the header block being read. */
void tr_hdr_add(struct tr_in *in, const char *s, size_t n, int kind,
    const char *file, long line);
/* Applies the header block just read: it starts the first section, a
 * new section, or continues the current one. */
void tr_hdr_apply(struct tr_in *in);
void tr_hdr_new_section(struct tr_in *in);
void tr_hdr_free(struct tr_in *in);

/* ---- in-field.c: typed access to fields ---- */

_Noreturn void tr_bad_field(const struct tr_in *in, const struct tr_rec *r,
    int col, const char *what);
int64_t tr_getint_slow(const struct tr_in *in, const struct tr_rec *r,
    int col, int nneg);
/* Checks the fields of a known type that has no parser of its own. */
void tr_check_kinds(const struct tr_in *in, const struct tr_rec *r);

/* Up to 18 digits cannot overflow: the common case, inline; negative
 * numbers, long ones and junk take the careful path. */
static inline int64_t
tr_getint(const struct tr_in *in, const struct tr_rec *r, int col, int nneg)
{
	const char *p = r->f[col].p;
	size_t n = r->f[col].n, i = 0;
	uint64_t x = 0;
	int neg = n > 1 && *p == '-' && !nneg;

	if (n - 1 < 18) {
		for (i = (size_t)neg; i < n; i++) {
			unsigned d = (unsigned char)p[i] - '0';

			if (d > 9)
				return tr_getint_slow(in, r, col, nneg);
			x = x * 10 + d;
		}
		return neg ? -(int64_t)x : (int64_t)x;
	}
	return tr_getint_slow(in, r, col, nneg);
}

#endif
