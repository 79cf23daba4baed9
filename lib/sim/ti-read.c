/* ti-read.c - what the SimGrid export notes of the records as they are
 * read: sends per channel, failed receives, calls that make communicators. */
#include "nsim-int.h"

/* The messages from one rank to another with one tag, as SimGrid's
 * replay matches them (it has no communicators): how many were sent and
 * received, and which of the sends were synchronous, by number. */
struct chan {
	int64_t nsend, nrecv;
	struct { int64_t n, bytes; } *sy;
	size_t head, len, cap;
};

static struct chan *
chan(struct tr_nsim *s, int64_t src, int64_t dst, int64_t tag, int add)
{
	void **v = tr_itab_get(&s->chans, src, (int64_t)((uint64_t)dst << 32 |
	    (uint32_t)tag), add);

	if (!v)
		return NULL;
	if (!*v)
		*v = tr_calloc(1, sizeof(struct chan));
	return *v;
}

static void
chans_free(struct tr_nsim *s)
{
	size_t i;

	for (i = 0; i < s->chans.cap; i++)
		if (s->chans.s[i].v) {
			free(((struct chan *)s->chans.s[i].v)->sy);
			free(s->chans.s[i].v);
		}
	tr_itab_free(&s->chans);
	memset(&s->chans, 0, sizeof s->chans);
}

/* Counts send IT of rank R on its channel. */
void
ti_chan_send(struct tr_nsim *s, int64_t r, const struct item *it)
{
	struct chan *c;

	if (it->cls != TR_MPI_SEND && it->cls != TR_MPI_SSEND &&
	    it->cls != TR_MPI_ISEND && it->cls != TR_MPI_SENDRECV)
		return;
	if (it->peer < 0)
		return;
	c = chan(s, r, it->peer, it->tag, 1);
	if (it->cls == TR_MPI_SSEND || (it->cls == TR_MPI_ISEND &&
	    it->coll == TR_P2P_SYNC)) {
		tr_grow(&c->sy, &c->cap, c->len + 1, sizeof *c->sy);
		c->sy[c->len].n = c->nsend;
		c->sy[c->len++].bytes = it->bytes;
	}
	c->nsend++;
}

/* Whether the next receive from SRC to DST with TAG takes a synchronous
 * send that SimGrid sends eagerly, which the export acknowledges. */
int
ti_chan_recv(struct tr_nsim *s, long src, long dst, int64_t tag)
{
	struct chan *c = chan(s, src, dst, tag, 0);
	int64_t k;

	if (!c)
		return 0;
	k = c->nrecv++;
	if (c->head == c->len || c->sy[c->head].n != k)
		return 0;
	return c->sy[c->head++].bytes < s->tieager;
}

/* For the export: a request whose completion failed took a message
 * larger than its receive (MPI_ERR_TRUNCATE), which SMPI's replay
 * refuses; the Irecv of each is noted, to be given room for any. */
void
ti_note(struct tr_nsim *s, int64_t r, const struct item *it)
{
	void **v;

	s->nfail += it->type == TR_FAIL;
	if (it->req < 0 || it->type == TR_REG)
		return;
	if (it->cls == TR_MPI_IRECV)
		*tr_itab_get(&s->tiopen, r, it->req, 1) =
		    (void *)(intptr_t)(it->seq + 1);
	else if (!(v = tr_itab_get(&s->tiopen, r, it->req, 0)))
		return;
	else if (it->cls == TR_MPI_WAIT || it->cls == TR_MPI_TEST) {
		if (it->type == TR_FAIL)
			*tr_itab_get(&s->ticut, r, (intptr_t)*v - 1, 1) = s;
		tr_itab_del(&s->tiopen, r, it->req);
	} else	/* its id taken by another request */
		tr_itab_del(&s->tiopen, r, it->req);
}

/* The calls of one rank that make a window or communicator (or free a
 * window) on one of its communicators, in order: their durations, for
 * the least over the ranks of each (tr-to-ti writes a rank's file
 * before it reads the next), and how many the export has written. */
struct tmake {
	int64_t *dur;
	size_t n, cap, next;
};

void
ti_make_add(struct tr_nsim *s, int64_t r, const struct item *it)
{
	void **v = tr_itab_get(&s->makes, r, it->comm, 1);
	struct tmake *m;

	if (!*v)
		*v = tr_calloc(1, sizeof(struct tmake));
	m = *v;
	tr_grow(&m->dur, &m->cap, m->n + 1, sizeof *m->dur);
	m->dur[m->n++] = it->dur;
}

static void
makes_free(struct tr_nsim *s)
{
	size_t i;

	for (i = 0; i < s->makes.cap; i++)
		if (s->makes.s[i].v) {
			free(((struct tmake *)s->makes.s[i].v)->dur);
			free(s->makes.s[i].v);
		}
	tr_itab_free(&s->makes);
	memset(&s->makes, 0, sizeof s->makes);
	for (i = 0; i < s->makemin.cap; i++)
		free(s->makemin.s[i].v);
	tr_itab_free(&s->makemin);
	memset(&s->makemin, 0, sizeof s->makemin);
}

/* The cost of each window or communicator made (or window freed), the
 * least duration over its ranks, by communicator and order: the k-th
 * such call of every member of a communicator is the same instance, as
 * collectives are called in one order. A communicator without its comm
 * record is left out: writing its rank's file says so, at the record. */
void
ti_make_mins(struct tr_nsim *s)
{
	size_t i, k;

	for (i = 0; i < s->makes.cap; i++) {
		const struct tr_islot *e = &s->makes.s[i];
		const struct tmake *m = e->v;
		void **v, **w;
		long gid;

		if (!m)
			continue;
		v = tr_itab_get(&s->rc, e->a, e->b, 0);
		if (v && ((struct rcomm *)*v)->gid >= 0)
			gid = ((struct rcomm *)*v)->gid;
		else if (e->b == 0 || e->b == 1 || e->b == -1)
			gid = e->b == 1 ? 1 : 0;
		else
			continue;
		for (k = 0; k < m->n; k++) {
			w = tr_itab_get(&s->makemin, gid, (int64_t)k, 1);
			if (!*w) {
				*w = tr_malloc(sizeof(int64_t));
				*(int64_t *)*w = m->dur[k];
			} else if (m->dur[k] < *(int64_t *)*w)
				*(int64_t *)*w = m->dur[k];
		}
	}
}

/* The cost of rank R's call IT, which makes a window or communicator on
 * GID: written as computation after its barrier, as tr-nsim adds it. */
double
ti_make_cost(struct tr_nsim *s, long r, const struct item *it, long gid)
{
	void **v = tr_itab_get(&s->makes, r, it->comm, 0), **w;
	struct tmake *m;

	if (!v)
		return 0;
	m = *v;
	w = tr_itab_get(&s->makemin, gid, (int64_t)m->next++, 0);
	return w && *(int64_t *)*w > 0 ? (double)*(int64_t *)*w : 0;
}

void
ti_read_free(struct tr_nsim *s)
{
	chans_free(s);
	makes_free(s);
}
