/* reaped.c - the time a process's wait4 spent while the children it
 * reaped ran, when an strace log shows those children too: their calls
 * are that time already, and a sum over the log's calls would count it
 * again in the parent (the make that waits for its compilers). */
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

struct proc {
	int64_t lo, hi;		/* first call's start, last call's end */
	long up;		/* the process that reaped it, or -1 */
	int waits;
};

struct wait {
	long proc, key;
	int64_t s, e;
};

struct span {
	long owner;
	int64_t lo, hi;
};

struct tr_reaped {
	struct tr_map *pids;
	struct proc *p;
	size_t cap;
	struct wait *w;
	size_t nw, wcap;
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
		r->p[i].lo = INT64_MAX;
		r->p[i].hi = INT64_MIN;
		r->p[i].up = -1;
		r->p[i].waits = 0;
	}
	return i;
}

void
tr_reaped_call(struct tr_reaped *r, int64_t pid, int64_t s, int64_t e)
{
	long i = proc(r, pid);
	struct proc *p = &r->p[i];

	if (s < p->lo)
		p->lo = s;
	if (e > p->hi)
		p->hi = e;
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
by_owner(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

void
tr_reaped_end(struct tr_reaped *r, tr_reaped_cb cb, void *ctx)
{
	size_t n = tr_map_len(r->pids), i, j, ns = 0, cap = 0, lo, hi, m;
	struct span *sp = NULL;
	size_t *first;

	/* Each process's life is waited for by every process above it
	 * that reaped it or one of its ancestors; a chain longer than the
	 * processes is a pid reused in a loop, and stops. */
	for (i = 0; i < n; i++) {
		long a = r->p[i].up;

		if (r->p[i].lo > r->p[i].hi)
			continue;
		for (j = 0; a >= 0 && j < n; j++, a = r->p[a].up) {
			if (!r->p[a].waits)
				continue;
			tr_grow(&sp, &cap, ns + 1, sizeof *sp);
			sp[ns].owner = a;
			sp[ns].lo = r->p[i].lo;
			sp[ns++].hi = r->p[i].hi;
		}
	}
	tr_sort(sp, ns, sizeof *sp, by_owner);
	/* The union per owner: overlapping lives merged. */
	for (i = j = 0; i < ns; i++) {
		if (j > 0 && sp[j - 1].owner == sp[i].owner &&
		    sp[i].lo <= sp[j - 1].hi) {
			if (sp[i].hi > sp[j - 1].hi)
				sp[j - 1].hi = sp[i].hi;
			continue;
		}
		sp[j++] = sp[i];
	}
	ns = j;
	first = tr_calloc(n + 1, sizeof *first);
	for (i = 0, j = 0; i <= n; i++) {
		while (j < ns && (size_t)sp[j].owner < i)
			j++;
		first[i] = j;
	}
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
	free(first);
	free(sp);
	tr_map_clear(r->pids);
	r->nw = 0;
	r->last = -1;
}
