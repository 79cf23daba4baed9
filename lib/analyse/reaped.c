/* reaped.c - the time a process's wait4 spent while the children it
 * reaped were in system calls, when an strace log shows those children
 * too: their calls are that time already, and a sum over the log's
 * calls would count it again in the parent (the make that waits for
 * its compilers' reads). Only their calls: the time they ran between
 * calls (a compiler computing) is in no call of theirs, and the wait is
 * all the log has of it.
 *
 * Memory follows the processes alive, not the log's length. A process
 * keeps its calls' spans, and the union of those of the children it
 * reaped, only as far back as a wait of its parent, grandparent, ...
 * (the clone that made it says which) could still reach: that
 * ancestor's oldest wait not yet counted, else the start of its last
 * call, after which its next wait begins. A reaped child's spans join
 * its reaper's and are dropped with it; a wait is counted once no
 * process below its own can still bring it a call. A process whose
 * parent is not in the log (the first, or one whose clone record is
 * still to come) keeps its spans, and a set of spans that grows past
 * SETMAX (one child's million reads under its parent's one wait4, whose
 * start the records do not give before it ends) keeps its first and
 * last spans exact and sums those between into one span of known
 * length: exact for a wait that covers it whole, as one that began
 * before those calls does. */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

enum {
	SETMAX = TR_REAPED_SPANS,	/* spans a set keeps exact */
	WAITMAX = TR_REAPED_WAITS	/* waits a process keeps uncounted */
};

/* Spans from lo to hi, of which m ns were in calls: m = hi - lo for a
 * span as it was, less for the sum of those between a set's first and
 * last. */
struct item {
	int64_t lo, hi, m;
	int guess;		/* m took an overlap of sums as independent */
};

/* Sorted by lo, disjoint, not touching: v[a] to v[a + n - 1]. */
struct set {
	struct item *v;
	size_t a, n, cap;
};

struct wait {
	int64_t s, e;
	long key;
};

struct proc {
	int64_t pid;
	long parent;		/* the process whose clone made it, or -1 */
	long kid, next;		/* its first live child; its next sibling */
	int orphan;		/* its parent was reaped first: no reaper of
				 * it is in the log */
	int done;		/* called exit_group: no call follows */
	int64_t last;		/* start of its last call */
	struct set own, got;	/* its calls; those of what it reaped */
	struct wait *w;		/* its waits not yet counted, in order */
	size_t nw, wcap;
};

struct tr_reaped {
	tr_reaped_cb cb;
	void *ctx;
	struct proc *p;
	size_t np, pcap;
	long *freep;		/* slots of reaped processes */
	size_t nfree, fcap;
	long *tab;		/* pid -> slot, open addressing: -1 empty,
				 * -2 removed */
	size_t tcap, tused;
	long last;		/* a process's calls come in runs */
	long *stack;
	size_t scap;
	struct item *tmp;
	size_t tmpcap;
	size_t guessed;		/* waits counted with an estimate */
	size_t early;		/* waits counted past WAITMAX, maybe short */
};

#define EMPTY (-1)
#define GONE (-2)

struct tr_reaped *
tr_reaped_new(tr_reaped_cb cb, void *ctx)
{
	struct tr_reaped *r = tr_calloc(1, sizeof *r);

	r->cb = cb;
	r->ctx = ctx;
	r->last = -1;
	return r;
}

static void
set_free(struct set *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* Forgets the run: every process, its spans and waits. */
static void
clear(struct tr_reaped *r)
{
	size_t i;

	for (i = 0; i < r->np; i++) {
		set_free(&r->p[i].own);
		set_free(&r->p[i].got);
		free(r->p[i].w);
	}
	r->np = 0;
	r->nfree = 0;
	if (r->tab)
		memset(r->tab, 0xff, r->tcap * sizeof *r->tab);
	r->tused = 0;
	r->last = -1;
}

void
tr_reaped_free(struct tr_reaped *r)
{
	if (!r)
		return;
	clear(r);
	free(r->p);
	free(r->freep);
	free(r->tab);
	free(r->stack);
	free(r->tmp);
	free(r);
}

/* ---- sets of spans ---- */

static int
exact(const struct item *x)
{
	return x->m == x->hi - x->lo;
}

/* Y, which starts at or before X's end, taken into X: two exact spans
 * that meet are one. Where a sum of spans is involved, which of its
 * parts the other overlaps is not known: the overlap is taken as their
 * densities' product over the time they share, as if independent. */
static void
item_merge(struct item *x, const struct item *y)
{
	int64_t lo = x->lo < y->lo ? x->lo : y->lo;
	int64_t hi = x->hi > y->hi ? x->hi : y->hi;
	int64_t a = x->lo > y->lo ? x->lo : y->lo;
	int64_t b = x->hi < y->hi ? x->hi : y->hi;
	double both;

	if (exact(x) && exact(y)) {
		x->m = hi - lo;
		x->guess |= y->guess;
	}
	else {
		both = b <= a ? 0 : (double)(b - a) * ((double)x->m /
		    (double)(x->hi - x->lo)) * ((double)y->m /
		    (double)(y->hi - y->lo));
		x->m = x->m + y->m - (int64_t)both;
		x->guess |= both > 0 || y->guess;
		if (x->m < y->m)
			x->m = y->m;
		if (x->m > hi - lo)
			x->m = hi - lo;
	}
	x->lo = lo;
	x->hi = hi;
}

/* Past SETMAX spans, those after the first SETMAX / 2 become one sum
 * until a quarter of the room is free again: the first stay exact for
 * a wait that starts among them, the last for the spans to come. */
static void
set_bound(struct set *s)
{
	struct item *v = s->v + s->a, *b;
	size_t h = SETMAX / 2, k, n;

	if (s->n <= SETMAX)
		return;
	n = s->n - SETMAX * 3 / 4 + 1;
	b = &v[h];
	for (k = h + 1; k < h + n; k++) {
		b->hi = v[k].hi;
		b->m += v[k].m;
		b->guess |= v[k].guess;
	}
	memmove(&v[h + 1], &v[h + n], (s->n - h - n) * sizeof *v);
	s->n -= n - 1;
}

/* Makes room for one more span at the end. */
static void
set_room(struct set *s)
{
	if (s->a + s->n < s->cap)
		return;
	if (s->a > s->cap / 2) {
		memmove(s->v, s->v + s->a, s->n * sizeof *s->v);
		s->a = 0;
		return;
	}
	tr_grow(&s->v, &s->cap, s->a + s->n + 1, sizeof *s->v);
}

/* The first of S's spans that ends after t. */
static size_t
set_find(const struct set *s, int64_t t)
{
	const struct item *v = s->v + s->a;
	size_t lo = 0, hi = s->n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m].hi <= t)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static void
set_add(struct set *s, const struct item *x)
{
	struct item *v;
	size_t j, k;

	set_room(s);
	v = s->v + s->a;
	/* Calls come in time order but for those resumed after others. */
	if (s->n == 0 || v[s->n - 1].hi < x->lo) {
		v[s->n++] = *x;
		set_bound(s);
		return;
	}
	/* The first span that ends at or after x's start: x is before
	 * it, or meets it and maybe those after it. */
	k = set_find(s, x->lo - 1);
	if (v[k].lo > x->hi) {
		memmove(&v[k + 1], &v[k], (s->n - k) * sizeof *v);
		v[k] = *x;
		s->n++;
		set_bound(s);
		return;
	}
	item_merge(&v[k], x);
	for (j = k + 1; j < s->n && v[j].lo <= v[k].hi; j++)
		item_merge(&v[k], &v[j]);
	memmove(&v[k + 1], &v[j], (s->n - j) * sizeof *v);
	s->n -= j - k - 1;
}

/* Adds the spans of Y to S: merged in one pass. */
static void
set_union(struct tr_reaped *r, struct set *s, const struct set *y)
{
	const struct item *a = s->v + s->a, *b = y->v + y->a, *x;
	size_t i = 0, j = 0, n = 0;
	struct item *o;

	if (y->n == 0)
		return;
	if (s->n == 0 || a[s->n - 1].hi < b[0].lo) {
		tr_grow(&s->v, &s->cap, s->a + s->n + y->n, sizeof *s->v);
		memcpy(s->v + s->a + s->n, b, y->n * sizeof *b);
		s->n += y->n;
		set_bound(s);
		return;
	}
	tr_grow(&r->tmp, &r->tmpcap, s->n + y->n, sizeof *r->tmp);
	o = r->tmp;
	while (i < s->n || j < y->n) {
		if (j >= y->n || (i < s->n && a[i].lo <= b[j].lo))
			x = &a[i++];
		else
			x = &b[j++];
		if (n > 0 && x->lo <= o[n - 1].hi)
			item_merge(&o[n - 1], x);
		else
			o[n++] = *x;
	}
	/* The merged spans are the set's, its old room the next merge's. */
	r->tmp = s->v;
	s->v = o;
	j = r->tmpcap;
	r->tmpcap = s->cap;
	s->cap = j;
	s->a = 0;
	s->n = n;
	set_bound(s);
}

/* Drops the spans that end by t. */
static void
set_trim(struct set *s, int64_t t)
{
	size_t k;

	if (s->n == 0 || s->v[s->a].hi > t)
		return;
	k = set_find(s, t);
	s->a += k;
	s->n -= k;
	if (s->n == 0)
		s->a = 0;
}

/* The ns from lo to hi in S's spans; a sum's share of a part of it is
 * taken in proportion. */
static int64_t
set_in(const struct set *s, int64_t lo, int64_t hi, int *guess)
{
	const struct item *v = s->v + s->a;
	size_t k;
	int64_t in = 0, a, b;

	for (k = set_find(s, lo); k < s->n && v[k].lo < hi; k++) {
		a = v[k].lo > lo ? v[k].lo : lo;
		b = v[k].hi < hi ? v[k].hi : hi;
		*guess |= v[k].guess;
		if (exact(&v[k]) || (a == v[k].lo && b == v[k].hi))
			in += exact(&v[k]) ? b - a : v[k].m;
		else {
			in += (int64_t)((double)v[k].m * (double)(b - a) /
			    (double)(v[k].hi - v[k].lo));
			*guess = 1;
		}
	}
	return in;
}

static int
set_meets(const struct set *s, int64_t lo, int64_t hi)
{
	size_t k = set_find(s, lo);

	return k < s->n && s->v[s->a + k].lo < hi;
}

/* ---- processes ---- */

static size_t
slot_of(const struct tr_reaped *r, int64_t pid)
{
	return (size_t)(((uint64_t)pid * 0x9e3779b97f4a7c15ULL) >> 20) &
	    (r->tcap - 1);
}

static void
tab_put(struct tr_reaped *r, long i)
{
	size_t h = slot_of(r, r->p[i].pid);

	while (r->tab[h] >= 0)
		h = (h + 1) & (r->tcap - 1);
	if (r->tab[h] == EMPTY)
		r->tused++;
	r->tab[h] = i;
}

/* The table anew, at twice the room of the live processes. */
static void
tab_rebuild(struct tr_reaped *r, size_t live)
{
	size_t i, cap = 64;

	while (cap < 4 * (live + 1))
		cap *= 2;
	r->tab = tr_realloc(r->tab, cap * sizeof *r->tab);
	r->tcap = cap;
	r->tused = 0;
	memset(r->tab, 0xff, cap * sizeof *r->tab);
	for (i = 0; i < r->np; i++)
		if (r->p[i].pid >= 0)
			tab_put(r, (long)i);
}

static long
lookup(const struct tr_reaped *r, int64_t pid, size_t *at)
{
	size_t h;

	if (!r->tcap)
		return -1;
	for (h = slot_of(r, pid); r->tab[h] != EMPTY; h = (h + 1) & (r->tcap -
	    1))
		if (r->tab[h] >= 0 && r->p[r->tab[h]].pid == pid) {
			if (at)
				*at = h;
			return r->tab[h];
		}
	return -1;
}

static long
proc(struct tr_reaped *r, int64_t pid)
{
	struct proc *p;
	long i;

	if (r->last >= 0 && r->p[r->last].pid == pid)
		return r->last;
	if ((i = lookup(r, pid, NULL)) < 0) {
		if (r->nfree)
			i = r->freep[--r->nfree];
		else {
			tr_grow(&r->p, &r->pcap, r->np + 1, sizeof *r->p);
			i = (long)r->np++;
		}
		p = &r->p[i];
		memset(p, 0, sizeof *p);
		p->pid = pid;
		p->parent = p->kid = p->next = -1;
		p->last = INT64_MIN;
		if (2 * (r->tused + 1) > r->tcap)
			tab_rebuild(r, r->np - r->nfree);
		else
			tab_put(r, i);
	}
	r->last = i;
	return i;
}

/* Takes I out of its parent's children. */
static void
unlink_kid(struct tr_reaped *r, long i)
{
	long *l;

	if (r->p[i].parent < 0)
		return;
	for (l = &r->p[r->p[i].parent].kid; *l >= 0; l = &r->p[*l].next)
		if (*l == i) {
			*l = r->p[i].next;
			break;
		}
	r->p[i].parent = -1;
	r->p[i].next = -1;
}

/* Forgets process I: its slot is free for another. */
static void
forget(struct tr_reaped *r, long i)
{
	struct proc *p = &r->p[i];
	size_t h;

	unlink_kid(r, i);
	while (p->kid >= 0) {
		long k = p->kid;

		unlink_kid(r, k);
		r->p[k].orphan = 1;
	}
	if (lookup(r, p->pid, &h) == i)
		r->tab[h] = GONE;
	set_free(&p->own);
	set_free(&p->got);
	free(p->w);
	p->w = NULL;
	p->nw = p->wcap = 0;
	p->pid = -1;
	if (r->last == i)
		r->last = -1;
	tr_grow(&r->freep, &r->fcap, r->nfree + 1, sizeof *r->freep);
	r->freep[r->nfree++] = i;
}

/* The earliest time a wait of I or of the processes above it that has
 * not been counted can reach: the oldest of those seen, else the start
 * of their last call. */
static int64_t
reach(const struct tr_reaped *r, long i)
{
	int64_t t = INT64_MAX;
	size_t n;

	for (n = 0; n <= r->np; n++) {
		const struct proc *p = &r->p[i];

		if (p->last < t)
			t = p->last;
		if (p->nw && p->w[0].s < t)
			t = p->w[0].s;
		/* One whose parent is not in the log is taken as reaped
		 * by none there. */
		if (p->parent < 0)
			return t;
		i = p->parent;
	}
	return INT64_MIN;	/* a loop: pids reused out of order */
}

/* Drops the spans of I that no wait can still reach. */
static void
trim(struct tr_reaped *r, long i)
{
	struct proc *p = &r->p[i];
	int64_t up = p->parent >= 0 ? reach(r, p->parent) : INT64_MAX, t;

	/* The calls of one whose clone record is still to come are kept
	 * for its parent: it is taken as reaped by none there only for the
	 * spans of those it reaped. */
	set_trim(&p->own, p->parent >= 0 || p->orphan ? up : INT64_MIN);
	t = p->last < up ? p->last : up;
	if (p->nw && p->w[0].s < t)
		t = p->w[0].s;
	set_trim(&p->got, t);
}

static void
count(struct tr_reaped *r, struct proc *p, const struct wait *w)
{
	int guess = 0;
	int64_t in = set_in(&p->got, w->s, w->e, &guess);

	if (in > 0)
		r->cb(r->ctx, w->key, (double)in);
	if (in > 0 && guess)
		r->guessed++;
}

/* Counts I's waits, oldest first, that no process below it can still
 * bring a call: one still to call (its last call started before the
 * wait's end), or one with a span in it that will be I's when I reaps
 * it. */
static void
settle(struct tr_reaped *r, long i)
{
	struct proc *p = &r->p[i];
	size_t n = 0, m, k, d = 0;

	if (p->nw == 0)
		return;
	if (p->kid >= 0) {
		tr_grow(&r->stack, &r->scap, 1, sizeof *r->stack);
		r->stack[n++] = p->kid;
		/* Below I, each process once: its children and next
		 * sibling. */
		for (m = 0; m < n; m++) {
			const struct proc *q = &r->p[r->stack[m]];

			tr_grow(&r->stack, &r->scap, n + 2, sizeof *r->stack);
			if (q->kid >= 0)
				r->stack[n++] = q->kid;
			if (q->next >= 0)
				r->stack[n++] = q->next;
		}
	}
	for (d = 0; d < p->nw; d++) {
		const struct wait *w = &p->w[d];

		for (k = 0; k < n; k++) {
			const struct proc *q = &r->p[r->stack[k]];

			if ((!q->done && q->last < w->e) ||
			    set_meets(&q->own, w->s, w->e) ||
			    set_meets(&q->got, w->s, w->e))
				break;
		}
		if (k < n)
			break;
		count(r, p, w);
	}
	if (d) {
		memmove(p->w, p->w + d, (p->nw - d) * sizeof *p->w);
		p->nw -= d;
	}
}

void
tr_reaped_call(struct tr_reaped *r, int64_t pid, int64_t s, int64_t e)
{
	long i = proc(r, pid);
	struct proc *p = &r->p[i];
	struct item x;

	p->last = s;
	if (e > s) {		/* no time shown: no -T, or no return */
		x.lo = s;
		x.hi = e;
		x.m = e - s;
		x.guess = 0;
		set_add(&p->own, &x);
	}
	trim(r, i);
	settle(r, i);
}

void
tr_reaped_fork(struct tr_reaped *r, int64_t pid, int64_t child)
{
	long i = proc(r, pid), c;

	if (child == pid)
		return;
	c = proc(r, child);
	if (r->p[c].parent >= 0 || r->p[c].orphan)
		return;
	/* A chain back to C is a pid reused out of order. */
	{
		long a = i;
		size_t n;

		for (n = 0; a >= 0 && n <= r->np; n++, a = r->p[a].parent)
			if (a == c)
				return;
	}
	r->p[c].parent = i;
	r->p[c].next = r->p[i].kid;
	r->p[i].kid = c;
	trim(r, c);
}

void
tr_reaped_exit(struct tr_reaped *r, int64_t pid, int group)
{
	long i = proc(r, pid);

	if (group)
		r->p[i].done = 1;
	else if (r->p[i].kid < 0 && r->p[i].nw == 0)
		forget(r, i);	/* a thread: no wait reaps it */
}

void
tr_reaped_wait(struct tr_reaped *r, int64_t pid, int64_t child, int64_t s,
    int64_t e, long key)
{
	long i = proc(r, pid), c = lookup(r, child, NULL);
	struct proc *p = &r->p[i], *q;

	if (e > s) {
		if (p->nw >= WAITMAX) {
			/* a process below may still bring it calls */
			r->early++;
			count(r, p, &p->w[0]);
			memmove(p->w, p->w + 1, --p->nw * sizeof *p->w);
		}
		tr_grow(&p->w, &p->wcap, p->nw + 1, sizeof *p->w);
		p->w[p->nw].s = s;
		p->w[p->nw].e = e;
		p->w[p->nw++].key = key;
	}
	if (c >= 0 && c != i) {
		q = &r->p[c];
		/* Its own waits are all it will have. */
		while (q->kid >= 0) {
			long k = q->kid;

			unlink_kid(r, k);
			r->p[k].orphan = 1;
		}
		settle(r, c);
		set_union(r, &r->p[i].got, &r->p[c].own);
		set_union(r, &r->p[i].got, &r->p[c].got);
		forget(r, c);
	}
	trim(r, i);
	settle(r, i);
}

size_t
tr_reaped_guessed(const struct tr_reaped *r)
{
	return r->guessed;
}

size_t
tr_reaped_early(const struct tr_reaped *r)
{
	return r->early;
}

void
tr_reaped_end(struct tr_reaped *r)
{
	size_t i, d;

	for (i = 0; i < r->np; i++)
		for (d = 0; d < r->p[i].nw; d++)
			count(r, &r->p[i], &r->p[i].w[d]);
	clear(r);
}
