/*
 * wild.c - the sources of wildcard receives.
 *
 * An MPI_Irecv from MPI_ANY_SOURCE is recorded with peer -1 (with
 * MPI_ANY_TAG, tag -1); the source and tag it got are in the record of
 * the Wait or Test that completed it, later in the rank's stream. A replay that matches messages as the
 * recorded run did needs that source when the Irecv is posted. So while
 * reading, each completion of a pending wildcard Irecv adds (Irecv seq,
 * source, tag) to a spool, in completion order; the replay reads it
 * ahead as far as the Irecv it posts, keeping what it passes. Both the
 * pending requests and the read-ahead are bounded by the wildcard
 * receives in flight. An Irecv never completed in the trace resolves to
 * no source (-1), as does one from MPI_PROC_NULL. A replay that runs
 * while the trace is still read asks again after reading further when
 * told the answer is not known yet.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

struct wres {
	int64_t seq, src, tag;
};

struct tr_wild {
	struct tr_spool *sp;	/* per rank: struct wres */
	struct tr_itab pend;	/* (rank, req) -> int64 seq of the Irecv */
	struct tr_itab ahead;	/* (rank, seq) -> struct wres read ahead */
	int sealed;
};

struct tr_wild *
tr_wild_new(void)
{
	return tr_calloc(1, sizeof(struct tr_wild));
}

static void
put(struct tr_wild *w, long rank, int64_t seq, int64_t src, int64_t tag)
{
	struct wres x = {seq, src, tag};

	if (!w->sp)
		w->sp = tr_spool_new((size_t)1 << 20);
	tr_spool_add(w->sp, rank, &x, sizeof x);
}

int
tr_wild_read(struct tr_wild *w, const struct tr_ev *e, int cls)
{
	void **v;
	int done = 0;

	if (e->req < 0)
		return 0;
	if (cls == TR_MPI_IRECV && (e->peer < 0 || e->tag < 0)) {
		v = tr_itab_get(&w->pend, e->rank, e->req, 1);
		if (*v) {	/* started again: the first never completed */
			put(w, (long)e->rank, *(int64_t *)*v, -1, -1);
			done = 1;
		} else
			*v = tr_malloc(sizeof(int64_t));
		*(int64_t *)*v = e->seq;
	} else if ((cls == TR_MPI_WAIT || cls == TR_MPI_TEST) &&
	    (v = tr_itab_get(&w->pend, e->rank, e->req, 0))) {
		put(w, (long)e->rank, *(int64_t *)*v, e->peer, e->tag);
		free(*v);
		tr_itab_del(&w->pend, e->rank, e->req);
		done = 1;
	}
	return done;
}

void
tr_wild_seal(struct tr_wild *w)
{
	size_t i;

	for (i = 0; i < w->pend.cap; i++)
		if (w->pend.s[i].v) {
			put(w, (long)w->pend.s[i].a,
			    *(int64_t *)w->pend.s[i].v, -1, -1);
			free(w->pend.s[i].v);
		}
	tr_itab_free(&w->pend);
	if (w->sp)
		tr_spool_seal(w->sp);
	w->sealed = 1;
}

int
tr_wild_get(struct tr_wild *w, long rank, int64_t seq, int64_t *src,
    int64_t *tag)
{
	const void *p;
	size_t n;
	void **v;
	struct wres x;

	if ((v = tr_itab_get(&w->ahead, rank, seq, 0))) {
		x = *(struct wres *)*v;
		free(*v);
		tr_itab_del(&w->ahead, rank, seq);
	} else
		for (;;) {
			if (!w->sp || !tr_spool_next(w->sp, rank, &p, &n))
				return w->sealed ? 0 : -1;
			memcpy(&x, p, sizeof x);
			if (x.seq == seq)
				break;
			v = tr_itab_get(&w->ahead, rank, x.seq, 1);
			if (!*v)
				*v = tr_malloc(sizeof x);
			memcpy(*v, &x, sizeof x);
		}
	*src = x.src;
	*tag = x.tag;
	return x.src >= 0;
}

void
tr_wild_free(struct tr_wild *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->pend.cap; i++)
		free(w->pend.s[i].v);
	tr_itab_free(&w->pend);
	for (i = 0; i < w->ahead.cap; i++)
		free(w->ahead.s[i].v);
	tr_itab_free(&w->ahead);
	tr_spool_free(w->sp);
	free(w);
}

void
tr_wild_resolve(struct tr_wild *w, long rank, const struct tr_wildq *q,
    int64_t *src, int64_t *tag, int (*more)(void *, long), void *ctx)
{
	int64_t ws, wt;
	int k;

	*src = q->peer;
	*tag = q->tag;
	if ((q->peer >= 0 && q->tag >= 0) || q->req < 0)
		return;
	while ((k = tr_wild_get(w, rank, q->seq, &ws, &wt)) < 0 && more &&
	    more(ctx, rank))
		;
	if (k > 0) {
		*src = ws;
		*tag = wt;
	}
}
