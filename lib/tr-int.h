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
};

struct tr_meta {
	char *val;		/* points into the #meta line; keys are in mmap */
};

/* What tr_next has learnt of each rank, to check ordering. */
struct tr_rankst {
	int64_t seq, start, end;
};

struct tr_in {
	char **files;
	int nfiles, fi;
	const char *name;	/* file being read */
	int fd, gz, zdone, trunc, status;
	z_stream z;
	unsigned char *zbuf;
	long line;
	char *buf;
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
};

#endif
