/* bytes.c - the bytes of one input file, plain or gzip, and a second
 * thread that reads them ahead.
 *
 * A reader on one core spends a tenth of its time in read(), and most
 * of it in inflate() when the file is gzip. With the file's bytes
 * coming from a second thread into blocks the parser reads in place,
 * that time overlaps the parsing. Only regular files are read ahead:
 * a pipe's writer already runs beside us, and a thread blocked on a
 * pipe could not be stopped when a tool closes its input early. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tr-int.h"

long
tr_src_read(struct tr_src *s, char *p, size_t room)
{
	ssize_t r;
	size_t got;
	int z;

	for (;;) {
		if (!s->gz || (s->z.avail_in == 0 && !s->zdone)) {
			do
				r = read(s->fd, s->gz ? (char *)s->zbuf : p,
				    s->gz ? s->zcap : room);
			while (r < 0 && errno == EINTR);
			if (r < 0) {
				s->err = errno;
				return -1;
			}
			if (!s->gz)
				return (long)r;
			if (r == 0) {
				s->trunc = 1;
				return 0;
			}
			s->z.next_in = s->zbuf;
			s->z.avail_in = (uInt)r;
		}
		if (s->zdone) {
			/* After a member: another member, or the end. */
			if (s->z.avail_in == 0) {
				do
					r = read(s->fd, s->zbuf, s->zcap);
				while (r < 0 && errno == EINTR);
				if (r < 0) {
					s->err = errno;
					return -1;
				}
				if (r == 0)
					return 0;
				s->z.next_in = s->zbuf;
				s->z.avail_in = (uInt)r;
			}
			if (s->z.next_in[0] != 0x1f) {
				snprintf(s->msg, sizeof s->msg, "junk after "
				    "the end of the gzip data");
				return -1;
			}
			inflateReset(&s->z);
			s->zdone = 0;
		}
		s->z.next_out = (unsigned char *)p;
		s->z.avail_out = (uInt)room;
		z = inflate(&s->z, Z_NO_FLUSH);
		got = room - s->z.avail_out;
		if (z == Z_STREAM_END)
			s->zdone = 1;
		else if (z != Z_OK && z != Z_BUF_ERROR) {
			snprintf(s->msg, sizeof s->msg, "corrupt gzip data "
			    "(%s)", s->z.msg ? s->z.msg : "inflate failed");
			return -1;
		}
		if (got)
			return (long)got;
	}
}

/* ---- reading ahead ---- */

#define NBLK 4
#define BLKSZ (1 << 20)
/* Readers read ahead at once: a merge of a thousand per-rank files
 * gets two threads and 8 MiB of blocks, not a thousand and 4 GiB. */
#define MAXAHEAD 2
/* Line ends a block's index holds: a line of 16 bytes on average. Past
 * them the reader looks for the rest itself. */
#define MAXLF (BLKSZ / 16)

static int nahead;	/* started and not stopped; atomic, for a merge
			 * reads its files on a thread of its own */

struct blk {
	char *mem;		/* TR_CARRY, then the data, then 64 bytes */
	size_t n;
	int full;		/* filled, not yet given back */
	int nul;		/* the data holds a NUL byte */
	int last;		/* nothing follows: the end, or an error */
	int bad;		/* the error, after the data */
	uint32_t *lf;		/* offsets of the first nlf LFs of the data */
	size_t nlf;
};

struct tr_ahead {
	struct tr_src *src;	/* the thread's alone until it stops */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct blk b[NBLK];
	int stop;
	int next;		/* the block the reader takes next */
	int held[2];		/* blocks the reader may still point into */
	int done;		/* the last block was taken: 1 end, -1 error */
};

static void
lock(struct tr_ahead *a)
{
	if (pthread_mutex_lock(&a->mu) != 0)
		tr_die(TR_EXIT_SYS, "pthread_mutex_lock:");
}

static void
unlock(struct tr_ahead *a)
{
	pthread_mutex_unlock(&a->mu);
}

/* The LFs of the block: the reader's search for each line's end, done
 * on this core instead. */
static size_t
index_lf(const char *d, size_t n, uint32_t *lf)
{
	const char *p = d, *e = d + n;
	size_t k = 0;

	while (k < MAXLF && (p = memchr(p, '\n', (size_t)(e - p)))) {
		lf[k++] = (uint32_t)(p - d);
		p++;
	}
	return k;
}

static void *
run(void *arg)
{
	struct tr_ahead *a = arg;
	struct blk *b;
	long r = 0;
	int i = 0, stop;
	size_t n;

	for (;;) {
		b = &a->b[i];
		lock(a);
		while (b->full && !a->stop)
			pthread_cond_wait(&a->cv, &a->mu);
		stop = a->stop;
		unlock(a);
		if (stop)
			return NULL;
		/* Full blocks: fewer hand-overs, and lines seldom cut. */
		for (n = 0; n < BLKSZ; n += (size_t)r)
			if ((r = tr_src_read(a->src, b->mem + TR_CARRY + n,
			    BLKSZ - n)) <= 0)
				break;
		b->nlf = index_lf(b->mem + TR_CARRY, n, b->lf);
		lock(a);
		b->n = n;
		b->nul = memchr(b->mem + TR_CARRY, '\0', n) != NULL;
		b->last = r <= 0;
		b->bad = r < 0;
		b->full = 1;
		pthread_cond_broadcast(&a->cv);
		unlock(a);
		if (r <= 0)
			return NULL;
		i = (i + 1) % NBLK;
	}
}

struct tr_ahead *
tr_ahead_start(struct tr_src *s)
{
	struct tr_ahead *a;
	int i;

	if (__atomic_add_fetch(&nahead, 1, __ATOMIC_RELAXED) > MAXAHEAD) {
		__atomic_sub_fetch(&nahead, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	a = tr_calloc(1, sizeof *a);
	a->src = s;
	a->held[0] = a->held[1] = -1;
	for (i = 0; i < NBLK; i++) {
		a->b[i].mem = tr_calloc(1, TR_CARRY + BLKSZ + 64);
		a->b[i].lf = tr_malloc(MAXLF * sizeof *a->b[i].lf);
	}
	if (pthread_mutex_init(&a->mu, NULL) != 0 ||
	    pthread_cond_init(&a->cv, NULL) != 0 ||
	    pthread_create(&a->th, NULL, run, a) != 0) {
		for (i = 0; i < NBLK; i++) {
			free(a->b[i].mem);
			free(a->b[i].lf);
		}
		free(a);
		__atomic_sub_fetch(&nahead, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	return a;
}

int
tr_ahead_next(struct tr_ahead *a, char **p, size_t *n, int *nul,
    const uint32_t **lf, size_t *nlf)
{
	struct blk *b = &a->b[a->next];

	if (a->done)
		return a->done > 0 ? 0 : -1;
	lock(a);
	/* The block before the previous one: the reader has copied what it
	 * needed of the previous one into this one's carry by now. */
	if (a->held[0] >= 0) {
		a->b[a->held[0]].full = 0;
		pthread_cond_broadcast(&a->cv);
	}
	a->held[0] = a->held[1];
	a->held[1] = a->next;
	while (!b->full)
		pthread_cond_wait(&a->cv, &a->mu);
	unlock(a);
	if (b->last)
		a->done = b->bad ? -1 : 1;
	a->next = (a->next + 1) % NBLK;
	*p = b->mem + TR_CARRY;
	*n = b->n;
	*nul = b->nul;
	*lf = b->lf;
	*nlf = b->nlf;
	if (b->n == 0)
		return a->done > 0 ? 0 : -1;
	return 1;
}

void
tr_ahead_stop(struct tr_ahead *a)
{
	int i;

	if (!a)
		return;
	lock(a);
	a->stop = 1;
	pthread_cond_broadcast(&a->cv);
	unlock(a);
	pthread_join(a->th, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	for (i = 0; i < NBLK; i++) {
		free(a->b[i].mem);
		free(a->b[i].lf);
	}
	free(a);
	__atomic_sub_fetch(&nahead, 1, __ATOMIC_RELAXED);
}
