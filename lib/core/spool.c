/* spool.c - per-rank queues of items, in memory up to a limit, then in
 * one unlinked temporary file.
 *
 * Traces arrive rank after rank or interleaved; a simulation reads them
 * rank by rank in step, either after the whole trace was written or
 * while it is still being written (a rank that finds its queue empty
 * has the trace read further). Items are staged per rank and sealed
 * into chunks when the stage is full; a reader that has read everything
 * before the stage swaps it with its own buffer and reads it in place.
 * While the chunks in memory fit the limit they are copied into blocks
 * of memory (below); past it they go to the file, each chunk's header
 * patched to point at the rank's next one.
 * A rank with chunks in the file puts its later chunks there too, so
 * its queue is always its memory chunks followed by its file chunks.
 * Memory stays bounded by the limit plus ranks times a staging size. */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

struct chdr {
	int64_t next;		/* offset of the rank's next chunk, or -1 */
	uint32_t len;		/* bytes of items after this header */
	uint32_t pad;
};

/* Chunks kept in memory are cut from blocks mapped 4 MiB at a time and
 * asked for huge pages. On a virtual machine the first touch of each
 * 4 KiB page is a fault that costs far more than the bytes it clears:
 * tr-nsim on a 1k-rank trace took 14,000 of them, most for its spool,
 * and spent a tenth of its time there. A block whose chunks have all
 * been read is kept for reuse, a few of them, so that a spool read
 * while written cycles through the same pages. */
#define BLOCK ((size_t)4 << 20)
#define HUGE ((size_t)2 << 20)
#define SPARES 4
/* The least a rank may stage before its items become a chunk: with so
 * many ranks that the budget gives each less, every rank's stage is
 * this large at once (65,536 ranks: 16 MiB at 256 bytes, four times
 * that at 1 KiB), while a chunk costs a 32-byte header. */
#define MINSTAGE 256

struct block {
	struct block *next;
	unsigned char *base;
	size_t size, used;
	long live;		/* chunks cut and not yet read */
};

/* A chunk kept in memory; its items follow the header. */
struct mchunk {
	struct mchunk *next;
	size_t len;
	struct block *blk;
	unsigned char *data;
};

struct srank {
	struct mchunk *mfirst, *mlast, *cur;
	int64_t first, last;	/* file chunk offsets, -1 for none */
	unsigned char *buf;	/* staged items */
	size_t len, cap;
	const unsigned char *rd;	/* the chunk being read */
	size_t rlen, pos;
	unsigned char *rbuf;	/* a stage or file chunk being read */
	size_t rcap;
};

struct tr_spool {
	struct block *blocks;	/* newest first: chunks are cut from it */
	struct block *spare;	/* read to the end, for reuse */
	int nspare;
	int fd;
	int64_t end;
	size_t budget, staged, kept, keep;
	struct srank *r;
	long nr, rcap;
	int sealed;
	int packed;		/* tr_spool_packed */
};

static void
xpwrite(int fd, const void *p, size_t n, int64_t off)
{
	ssize_t w;

	while (n > 0) {
		if ((w = pwrite(fd, p, n, (off_t)off)) < 0) {
			if (errno == EINTR)
				continue;
			tr_die(TR_EXIT_SYS, "spool file: write:");
		}
		p = (const char *)p + w;
		n -= (size_t)w;
		off += w;
	}
}

static void
xpread(int fd, void *p, size_t n, int64_t off)
{
	ssize_t r;

	while (n > 0) {
		if ((r = pread(fd, p, n, (off_t)off)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			tr_die(TR_EXIT_SYS, "spool file: read:");
		}
		p = (char *)p + r;
		n -= (size_t)r;
		off += r;
	}
}

struct tr_spool *
tr_spool_new(size_t budget)
{
	struct tr_spool *s = tr_calloc(1, sizeof *s);
	const char *e = getenv("TR_SPOOL_MEM");
	int64_t v;

	s->fd = -1;
	s->budget = budget;
	s->keep = (size_t)512 << 20;
	if (e && *e) {
		if (tr_parse_i64(e, strlen(e), &v) < 0 || v < 0)
			tr_die(TR_EXIT_USAGE, "TR_SPOOL_MEM: not a number of "
			    "bytes: '%s'", e);
		s->keep = (size_t)v;
	}
	return s;
}

/* The file is made when first needed: most traces fit in memory. */
static void
need_file(struct tr_spool *s)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (s->fd >= 0)
		return;
	snprintf(path, sizeof path, "%s/tr-spool.XXXXXX",
	    dir && *dir ? dir : "/tmp");
	if ((s->fd = mkstemp(path)) < 0)
		tr_die(TR_EXIT_SYS, "%s:", path);
	unlink(path);
}

/* A mapping of N bytes starting on a huge page's boundary. */
static unsigned char *
map_huge(size_t n)
{
	unsigned char *p, *a;
	size_t pad = HUGE;

	p = mmap(NULL, n + pad, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		tr_die(TR_EXIT_SYS, "spool: out of memory:");
	a = (unsigned char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + n, (size_t)(p + n + pad - (a + n)));
#ifdef MADV_HUGEPAGE
	madvise(a, n, MADV_HUGEPAGE);	/* a hint: refused, pages stay small */
#endif
	return a;
}

static void
unmap_block(struct block *b)
{
	munmap(b->base, b->size);
	free(b);
}

static void
drop_block(struct tr_spool *s, struct block *b)
{
	struct block **pp;

	for (pp = &s->blocks; *pp != b; pp = &(*pp)->next)
		;
	*pp = b->next;
	if (b->size == BLOCK && s->nspare < SPARES) {
		b->next = s->spare;
		s->spare = b;
		s->nspare++;
	} else
		unmap_block(b);
}

static struct mchunk *
chunk_new(struct tr_spool *s, size_t len)
{
	size_t n = (sizeof(struct mchunk) + len + 15) & ~(size_t)15;
	struct block *b = s->blocks;
	struct mchunk *m;

	if (!b || b->size - b->used < n) {
		if (n <= BLOCK && s->spare) {
			b = s->spare;
			s->spare = b->next;
			s->nspare--;
			b->used = 0;
		} else {
			b = tr_calloc(1, sizeof *b);
			b->size = n > BLOCK ? (n + HUGE - 1) & ~(HUGE - 1) :
			    BLOCK;
			b->base = map_huge(b->size);
		}
		b->next = s->blocks;
		s->blocks = b;
		/* The block before is given back by its last reader, or now. */
		if (b->next && b->next->live == 0)
			drop_block(s, b->next);
	}
	m = (struct mchunk *)(void *)(b->base + b->used);
	b->used += n;
	b->live++;
	m->next = NULL;
	m->len = len;
	m->blk = b;
	m->data = (unsigned char *)(m + 1);
	return m;
}

static void
chunk_free(struct tr_spool *s, struct mchunk *m)
{
	struct block *b = m->blk;

	s->kept -= m->len;
	if (--b->live == 0 && b != s->blocks)
		drop_block(s, b);
}

static void
flush(struct tr_spool *s, struct srank *r)
{
	struct chdr h = {-1, (uint32_t)r->len, 0};

	if (r->len == 0)
		return;
	s->staged -= r->len;
	if (r->first < 0 && s->kept + r->len <= s->keep) {
		struct mchunk *m = chunk_new(s, r->len);

		memcpy(m->data, r->buf, r->len);
		if (r->mlast)
			r->mlast->next = m;
		else
			r->mfirst = m;
		r->mlast = m;
		s->kept += r->len;
		r->len = 0;
		return;
	}
	need_file(s);
	xpwrite(s->fd, &h, sizeof h, s->end);
	xpwrite(s->fd, r->buf, r->len, s->end + (int64_t)sizeof h);
	if (r->first >= 0)
		xpwrite(s->fd, &s->end, sizeof s->end, r->last);
	else
		r->first = s->end;
	r->last = s->end;
	s->end += (int64_t)(sizeof h + r->len);
	r->len = 0;
}

void
tr_spool_packed(struct tr_spool *s)
{
	s->packed = 1;
}

void *
tr_spool_reserve(struct tr_spool *s, long rank, size_t n)
{
	struct srank *r;
	size_t lim, hl, need;
	uint32_t n32 = (uint32_t)n;
	unsigned char *p;
	long i;

	/* packed: the length in 7-bit groups, low first, and the bytes */
	if (s->packed) {
		for (hl = 1; n >> (7 * hl); hl++)
			;
		need = hl + n;
	} else {
		hl = 8;
		need = 8 + ((n + 7) & ~(size_t)7);
	}
	if (rank >= s->nr) {
		if (rank >= s->rcap) {
			size_t cap = (size_t)s->rcap;
			tr_grow(&s->r, &cap, (size_t)rank + 1, sizeof *s->r);
			s->rcap = (long)cap;
		}
		for (i = s->nr; i <= rank; i++) {
			memset(&s->r[i], 0, sizeof s->r[i]);
			s->r[i].first = s->r[i].last = -1;
		}
		s->nr = rank + 1;
	}
	r = &s->r[rank];
	/* Each rank may stage its share of the budget, and at least 1 KiB. */
	lim = s->budget / (size_t)s->nr;
	if (lim < MINSTAGE)
		lim = MINSTAGE;
	if (lim > (1u << 20))
		lim = 1u << 20;
	if (r->len + need > lim && r->len > 0)
		flush(s, r);
	if (r->len + need > r->cap) {
		size_t c = r->cap ? r->cap : 256;
		while (c < r->len + need)
			c *= 2;
		r->buf = tr_realloc(r->buf, c);
		r->cap = c;
	}
	p = r->buf + r->len;
	r->len += need;
	s->staged += need;
	if (s->packed) {
		for (i = 0; i < (long)hl; i++)
			p[i] = (unsigned char)((n >> (7 * i) & 0x7f) |
			    (i + 1 < (long)hl ? 0x80 : 0));
		return p + hl;
	}
	memcpy(p, &n32, sizeof n32);
	return p + 8;
}

void
tr_spool_add(struct tr_spool *s, long rank, const void *p, size_t n)
{
	memcpy(tr_spool_reserve(s, rank, n), p, n);
}

void
tr_spool_seal(struct tr_spool *s)
{
	long i;

	for (i = 0; i < s->nr; i++) {
		flush(s, &s->r[i]);
		free(s->r[i].buf);
		s->r[i].buf = NULL;
		s->r[i].len = s->r[i].cap = 0;
	}
	s->sealed = 1;
}

int
tr_spool_next(struct tr_spool *s, long rank, const void **p, size_t *n)
{
	struct srank *r;
	struct chdr h;
	uint32_t n32;

	if (rank < 0 || rank >= s->nr)
		return 0;
	r = &s->r[rank];
	if (r->pos >= r->rlen) {
		if (r->cur) {		/* done with a memory chunk */
			chunk_free(s, r->cur);
			r->cur = NULL;
		}
		/* Read while written, by so many ranks that each has only
		 * the least stage: it is copied into a chunk of its size
		 * rather than kept in a second buffer (below), and freed,
		 * since most of the ranks' stages are empty at a time. */
		if (!r->mfirst && r->first < 0 && r->len > 0 &&
		    s->budget / (size_t)s->nr < MINSTAGE) {
			flush(s, r);
			free(r->buf);
			r->buf = NULL;
			r->cap = 0;
		}
		if (r->mfirst) {
			r->cur = r->mfirst;
			if (!(r->mfirst = r->cur->next))
				r->mlast = NULL;
			r->rd = r->cur->data;
			r->rlen = r->cur->len;
		} else if (r->first >= 0) {
			xpread(s->fd, &h, sizeof h, r->first);
			if (h.len > r->rcap) {
				r->rbuf = tr_realloc(r->rbuf, h.len);
				r->rcap = h.len;
			}
			xpread(s->fd, r->rbuf, h.len, r->first +
			    (int64_t)sizeof h);
			r->rd = r->rbuf;
			r->rlen = h.len;
			r->first = h.next;
		} else if (r->len > 0) {
			/* Read while written: the stage is next, and is
			 * read where it is, the reader's buffer becoming
			 * the stage. */
			unsigned char *t = r->buf;
			size_t c = r->cap;

			r->buf = r->rbuf;
			r->cap = r->rcap;
			r->rd = r->rbuf = t;
			r->rcap = c;
			r->rlen = r->len;
			s->staged -= r->len;
			r->len = 0;
		} else {
			if (s->sealed) {
				free(r->rbuf);
				r->rbuf = NULL;
				r->rcap = 0;
			}
			r->rd = NULL;
			r->rlen = r->pos = 0;
			return 0;
		}
		r->pos = 0;
	}
	if (s->packed) {
		size_t v = 0;
		int sh = 0;
		unsigned char c;

		do {
			c = r->rd[r->pos++];
			v |= (size_t)(c & 0x7f) << sh;
			sh += 7;
		} while (c & 0x80);
		*p = r->rd + r->pos;
		*n = v;
		r->pos += v;
		return 1;
	}
	memcpy(&n32, r->rd + r->pos, sizeof n32);
	*p = r->rd + r->pos + 8;	/* items stay 8-byte aligned */
	*n = n32;
	r->pos += 8 + ((n32 + 7) & ~(uint32_t)7);
	return 1;
}

void
tr_spool_free(struct tr_spool *s)
{
	long i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		free(s->r[i].buf);
		free(s->r[i].rbuf);
	}
	while (s->blocks) {
		struct block *b = s->blocks;
		s->blocks = b->next;
		unmap_block(b);
	}
	while (s->spare) {
		struct block *b = s->spare;
		s->spare = b->next;
		unmap_block(b);
	}
	free(s->r);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
