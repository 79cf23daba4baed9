/* jobs.c - the jobs of a recursive make, each in the job it ran in. */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

static const struct tr_job *sorted;	/* the jobs tr_sort compares */

static int
by_pid(const void *a, const void *b)
{
	const struct tr_job *x = &sorted[*(const size_t *)a];
	const struct tr_job *y = &sorted[*(const size_t *)b];

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int
by_up(const void *a, const void *b)
{
	const struct tr_job *x = &sorted[*(const size_t *)a];
	const struct tr_job *y = &sorted[*(const size_t *)b];

	if (x->up != y->up)
		return x->up < y->up ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Is X at or before K in the order of by_pid? */
static int
not_after(const struct tr_job *x, const struct tr_job *k)
{
	if (x->host != k->host)
		return x->host < k->host;
	if (x->pid != k->pid)
		return x->pid < k->pid;
	return x->start <= k->start;
}

/* Pids are reused over a long build, but not while their process lives:
 * of the jobs of the parent's pid on the host, the one that ran when
 * this one started. */
void
tr_jobs_nest(struct tr_job *j, size_t n)
{
	size_t *ix = tr_calloc(n ? n : 1, sizeof *ix), i, lo, hi, m;

	for (i = 0; i < n; i++)
		ix[i] = i;
	sorted = j;
	tr_sort(ix, n, sizeof *ix, by_pid);
	for (i = 0; i < n; i++) {
		struct tr_job key = j[i];
		const struct tr_job *p;

		j[i].up = -1;
		if (key.parent <= 0)
			continue;
		key.pid = key.parent;
		/* The last job at or before (host, parent, start). */
		for (lo = 0, hi = n; lo < hi;) {
			m = lo + (hi - lo) / 2;
			if (not_after(&j[ix[m]], &key))
				lo = m + 1;
			else
				hi = m;
		}
		if (lo == 0)
			continue;
		p = &j[ix[lo - 1]];
		if (p->host == key.host && p->pid == key.pid && p != &j[i] &&
		    key.start <= p->end)
			j[i].up = (long)ix[lo - 1];
	}
	free(ix);
}

void
tr_jobs_inner(const struct tr_job *j, size_t n, int64_t *inner)
{
	size_t *ix = tr_calloc(n ? n : 1, sizeof *ix), i, k = 0;
	int64_t s = 0, e = 0;

	for (i = 0; i < n; i++) {
		inner[i] = 0;
		if (j[i].up >= 0)
			ix[k++] = i;
	}
	sorted = j;
	tr_sort(ix, k, sizeof *ix, by_up);
	/* The union of each parent's children, in order of start. */
	for (i = 0; i < k; i++) {
		const struct tr_job *c = &j[ix[i]];

		if (i > 0 && c->up == j[ix[i - 1]].up && c->start <= e) {
			if (c->end > e)
				e = c->end;
			continue;
		}
		if (i > 0)
			inner[j[ix[i - 1]].up] += e - s;
		s = c->start;
		e = c->end;
	}
	if (k > 0)
		inner[j[ix[k - 1]].up] += e - s;
	free(ix);
}
