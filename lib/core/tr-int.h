/* tr-int.h - libtr internals shared by in.c and out.c. */
#ifndef TR_INT_H
#define TR_INT_H

#include <zlib.h>
#include "libtr.h"

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
	unsigned char *zbuf;	/* TR_RDSZ bytes of gzip data */
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

struct tr_in {
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
	unsigned want;		/* see tr_in_want */
	int nul;		/* a NUL was read: every line takes the careful path */

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

	/* A header block read ahead and not yet applied. */
	struct tr_hline *blk;
	size_t nblk, blkcap;
	const char *held;	/* the line that ended the block */
	size_t heldn;
	long heldline;

	int q[4];		/* events to return before reading on */
	int nq;
	unsigned checks;	/* TR_CHECK_*, made as a section ends */
};

/* The checks of tr_in_check, on the section that just ended (ranks.c). */
void tr_ranks_end(struct tr_in *in);

#endif
