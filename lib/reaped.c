/* reaped.c - the time a process's wait4 spent while the children it
 * reaped were in system calls, when an strace log shows those children
 * too: their calls are that time already, and a sum over the log's
 * calls would count it again in the parent (the make that waits for
 * its compilers' reads). Only their calls: the time they ran between
 * calls (a compiler computing) is in no call of theirs, and the wait is
 * all the log has of it. */
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

struct proc {
	long up;		/* the process that reaped it, or -1 */
	int waits;
};

struct call {
	long proc;
	int64_t s, e;
};

struct wait {
	long proc, key;
	int64_t s, e;
};

struct span {
	int64_t lo, hi;
};

struct tr_reaped {
	struct tr_map *pids;
	struct proc *p;
	size_t cap;
	struct wait *w;
	size_t nw, wcap;
	struct call *c;
	size_t nc, ccap;
	int64_t lastpid;	/* a process's calls come in runs */
	long last;
};

struct tr_reaped *
tr_reaped_new(void)
{
	struct tr_reaped *r = tr_calloc(1, sizeof *r);

	r->pids = tr_map_new();
	r->last = -1;
	return r;
}

void
tr_reaped_free(struct tr_reaped *r)
{
	if (!r)
		return;
	tr_map_free(r->pids);
	free(r->p);
	free(r->w);
	free(r->c);
	free(r);
}

static long
proc(struct tr_reaped *r, int64_t pid)
{
	char k[24];
	size_t had;
	long i;

	if (r->last >= 0 && pid == r->lastpid)
		return r->last;
	had = tr_map_len(r->pids);
	i = tr_map_get(r->pids, k, (size_t)(tr_fmt_i64(k, pid) - k), 1);
	r->lastpid = pid;
	r->last = i;
	if ((size_t)i == had) {
		tr_grow(&r->p, &r->cap, (size_t)i + 1, sizeof *r->p);
		r->p[i].up = -1;
		r->p[i].waits = 0;
	}
	return i;
}

void
tr_reaped_call(struct tr_reaped *r, int64_t pid, int64_t s, int64_t e)
{
	long i = proc(r, pid);
	struct call *c = r->nc ? &r->c[r->nc - 1] : NULL;

	if (e <= s)		/* no time shown (no -T, or no return) */
		return;
	/* a process's calls come in order: one that overlaps the last is
	 * kept with it */
	if (c && c->proc == i && s <= c->e && s >= c->s) {
		if (e > c->e)
			c->e = e;
		return;
	}
	tr_grow(&r->c, &r->ccap, r->nc + 1, sizeof *r->c);
	c = &r->c[r->nc++];
	c->proc = i;
	c->s = s;
	c->e = e;
}

void
tr_reaped_wait(struct tr_reaped *r, int64_t pid, int64_t child, int64_t s,
    int64_t e, long key)
{
	long w = proc(r, pid), c = proc(r, child);
	struct wait *x;

	r->p[c].up = w;
	r->p[w].waits = 1;
	tr_grow(&r->w, &r->wcap, r->nw + 1, sizeof *r->w);
	x = &r->w[r->nw++];
	x->proc = w;
	x->key = key;
	x->s = s;
	x->e = e;
}

static int
by_lo(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts N spans by start. A process's calls come in the log's order,
 * which is time's but for the calls resumed after others: the few out
 * of place move by insertion, and more than that goes to tr_sort. */
static void
sort_spans(struct span *sp, size_t n)
{
	size_t i, j, moves = 0;
	struct span x;

	for (i = 1; i < n; i++) {
		x = sp[i];
		for (j = i; j > 0 && sp[j - 1].lo > x.lo; j--) {
			sp[j] = sp[j - 1];
			if (++moves > 8 * n) {
				sp[j - 1] = x;
				tr_sort(sp, n, sizeof *sp, by_lo);
				return;
			}
		}
		sp[j] = x;
	}
}

/* Calls C's span to each process above its own that waits (reaped it
 * or one of its ancestors): counted in CNT when SP is NULL, else put at
 * AT[owner]++ in SP. A chain longer than the processes is a pid reused
 * in a loop, and stops. */
static void
owners(const struct tr_reaped *r, size_t n, const struct call *c,
    size_t *at, struct span *sp)
{
	long a = r->p[c->proc].up;
	size_t j;

	for (j = 0; a >= 0 && j < n; j++, a = r->p[a].up) {
		if (!r->p[a].waits)
			continue;
		if (sp) {
			sp[at[a]].lo = c->s;
			sp[at[a]++].hi = c->e;
		} else
			at[a]++;
	}
}

void
tr_reaped_end(struct tr_reaped *r, tr_reaped_cb cb, void *ctx)
{
	size_t n = tr_map_len(r->pids), i, j, k, ns, lo, hi, m;
	struct span *sp;
	size_t *first = tr_calloc(n + 1, sizeof *first), *at;

	/* Each waiting process's spans in a bucket of its own, in the
	 * log's order: counted, then placed. */
	for (i = 0; i < r->nc; i++)
		owners(r, n, &r->c[i], first + 1, NULL);
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	ns = first[n];
	sp = tr_malloc((ns ? ns : 1) * sizeof *sp);
	at = tr_malloc((n ? n : 1) * sizeof *at);
	memcpy(at, first, n * sizeof *at);
	for (i = 0; i < r->nc; i++)
		owners(r, n, &r->c[i], at, sp);
	/* The union per owner: overlapping calls merged, the buckets
	 * moved down over what merged. */
	for (i = k = 0; i < n; i++) {
		size_t b = first[i], e = first[i + 1];

		sort_spans(sp + b, e - b);
		first[i] = k;
		for (j = b; j < e; j++) {
			if (k > first[i] && sp[j].lo <= sp[k - 1].hi) {
				if (sp[j].hi > sp[k - 1].hi)
					sp[k - 1].hi = sp[j].hi;
				continue;
			}
			sp[k++] = sp[j];
		}
	}
	first[n] = k;
	for (i = 0; i < r->nw; i++) {
		const struct wait *w = &r->w[i];
		int64_t in = 0;

		/* The first of the owner's spans that ends after s. */
		for (lo = first[w->proc], hi = first[w->proc + 1]; lo < hi;) {
			m = lo + (hi - lo) / 2;
			if (sp[m].hi <= w->s)
				lo = m + 1;
			else
				hi = m;
		}
		for (m = lo; m < first[w->proc + 1] && sp[m].lo < w->e; m++)
			in += (sp[m].hi < w->e ? sp[m].hi : w->e) -
			    (sp[m].lo > w->s ? sp[m].lo : w->s);
		if (in > 0)
			cb(ctx, w->key, (double)in);
	}
	free(at);
	free(first);
	free(sp);
	tr_map_clear(r->pids);
	r->nw = 0;
	r->nc = 0;
	r->last = -1;
}
