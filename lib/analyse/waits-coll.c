/* waits-coll.c - collectives matched across their communicator's
 * members, charged as waits at barriers and N x N collectives, late
 * broadcasts and early reduces. */
#include "waits-int.h"

static void
coll_done(struct tr_waits *w, struct cinst *c)
{
	int64_t last = -1, lastrank = 0, rootstart = -1, d;
	int i, kind;

	for (i = 0; i < c->n; i++) {
		if (c->e[i].start > last) {
			last = c->e[i].start;
			lastrank = c->e[i].rank;
		}
		if (c->e[i].rank == c->root)
			rootstart = c->e[i].start;
	}
	switch (c->coll & ~TR_COLL_V) {
	case TR_COLL_BCAST:
	case TR_COLL_SCATTER:
		if (rootstart < 0)
			break;
		for (i = 0; i < c->n; i++) {
			d = c->e[i].end - c->e[i].start;
			if (c->e[i].rank != c->root)
				waits_charge(w, LATE_BCAST, c->e[i].rank,
				    c->e[i].site, clamp(rootstart -
				    c->e[i].start, d), c->root);
		}
		break;
	case TR_COLL_REDUCE:
	case TR_COLL_GATHER:
		if (rootstart < 0)
			break;
		last = -1;
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank != c->root && c->e[i].start > last) {
				last = c->e[i].start;
				lastrank = c->e[i].rank;
			}
		for (i = 0; i < c->n; i++)
			if (c->e[i].rank == c->root)
				waits_charge(w, EARLY_REDUCE, c->root,
				    c->e[i].site, clamp(last - rootstart,
				    c->e[i].end - c->e[i].start), lastrank);
		break;
	case TR_COLL_NEIGHBOR:
		/* A rank waits for its neighbours only, not for all. */
		break;
	default:
		kind = c->coll == TR_COLL_BARRIER ? WAIT_BARRIER : WAIT_NXN;
		for (i = 0; i < c->n; i++)
			waits_charge(w, kind, c->e[i].rank, c->e[i].site,
			    clamp(last - c->e[i].start, c->e[i].end -
			    c->e[i].start), lastrank);
	}
}

void
waits_cinst_free(struct cinst *c)
{
	free(c->e);
	free(c);
}

void
waits_coll(struct tr_waits *w, int64_t rank, const struct item *it)
{
	struct comm *cm;
	struct cinst *c, **pp;
	int64_t idx;
	size_t n;

	if (it->comm == SELF)
		return;
	if (it->comm < 0) {
		if (!w->warned++)
			tr_warn("collectives on communicators without a comm "
			    "record are left out");
		return;
	}
	cm = &w->commv[it->comm];
	if (it->comm == 0)
		cm->size = w->nranks;
	if (cm->size < 2)
		return;
	if ((size_t)rank >= cm->ncount) {
		n = cm->ncount;
		tr_grow(&cm->count, &n, (size_t)rank + 1, sizeof *cm->count);
		memset(cm->count + cm->ncount, 0, (n - cm->ncount) *
		    sizeof *cm->count);
		cm->ncount = n;
	}
	idx = cm->count[rank]++;
	for (pp = &cm->open; *pp && (*pp)->index != idx; pp = &(*pp)->next)
		;
	if (!(c = *pp)) {
		c = tr_calloc(1, sizeof *c);
		c->index = idx;
		c->n = (int)cm->size;
		c->coll = it->coll;
		c->op = it->op;
		c->root = it->root;
		c->e = tr_calloc((size_t)c->n, sizeof *c->e);
		*pp = c;
	}
	if (c->got < c->n) {
		c->e[c->got].rank = rank;
		c->e[c->got].start = it->start;
		c->e[c->got].end = it->end;
		c->e[c->got].site = it->site;
		c->got++;
	}
	if (c->got == c->n) {
		coll_done(w, c);
		*pp = c->next;
		waits_cinst_free(c);
	}
}

/* A member of communicator C freed it: once all have, and its
 * collectives are complete, it is forgotten, so that a communicator
 * made every iteration takes no more memory the longer the run. */
void
waits_comm_freed(struct tr_waits *w, int32_t c)
{
	struct comm *cm = &w->commv[c];

	if (cm->live <= 0 || --cm->live > 0 || cm->open)
		return;
	free(cm->count);
	memset(cm, 0, sizeof *cm);
	tr_comms_drop(w->cids, c - 1);
}

/* ---- collectives some rank never entered ---- */

/* Whether the header explains ranks missing from collectives: a rank's
 * recording ended early, or the section is a selection. */
static int
excused(const struct tr_in *in)
{
	return tr_meta(in, "subset") || tr_meta_nended(in);
}

/* The members list of communicator C, but the world's. */
static const char *
members_of(struct tr_waits *w, int32_t c, size_t *n)
{
	return c > 0 ? tr_comms_members(w->cids, c - 1, n) : NULL;
}

/* The members of communicator C that did not enter collective I. */
static void
absent(struct tr_waits *w, int32_t c, const struct cinst *i, char *buf,
    size_t sz)
{
	struct tr_ranklist l;
	const char *k;
	long *m = NULL, n = 0, j;
	int64_t *v;
	size_t kn, nv = 0;
	int e, in;

	if (c == 0)
		n = (long)w->nranks;
	else if ((k = members_of(w, c, &kn)) && tr_members(k, kn, &m, &n) < 0)
		n = 0;
	v = tr_calloc((size_t)n + 1, sizeof *v);
	for (j = 0; j < n; j++) {
		int64_t r = m ? m[j] : j;

		for (e = 0, in = 0; e < i->got && !in; e++)
			in = i->e[e].rank == r;
		if (!in)
			v[nv++] = r;
	}
	tr_sort(v, nv, sizeof *v, tr_cmp_i64);
	tr_ranklist_init(&l, buf, sz);
	for (kn = 0; kn < nv; kn++)
		tr_ranklist_add(&l, v[kn]);
	tr_ranklist_end(&l);
	free(v);
	free(m);
}

/* Collectives that never completed are left out of the waits: said in
 * one line, the first (by its earliest entry) named; an error when
 * nothing in the header says why some rank did not enter them. */
void
waits_unfinished(struct tr_waits *w, struct tr_in *in)
{
	const struct cinst *c, *first = NULL;
	int64_t count = 0, t0 = 0, t;
	int32_t fc = 0;
	int64_t made = 0;
	size_t i, kn;
	char miss[128], comm[80], msg[512];
	const char *k, *op, *file;
	long line;
	int e, why;

	for (i = 0; i < w->ncommv; i++)
		for (c = w->commv[i].open; c; c = c->next) {
			count++;
			for (e = 0, t = INT64_MAX; e < c->got; e++)
				if (c->e[e].start < t)
					t = c->e[e].start;
			if (!first || t < t0 || (t == t0 &&
			    w->commv[i].made < made)) {
				first = c;
				t0 = t;
				fc = (int32_t)i;
				made = w->commv[i].made;
			}
		}
	if (!first)
		return;
	absent(w, fc, first, miss, sizeof miss);
	if (fc == 0)
		snprintf(comm, sizeof comm, "MPI_COMM_WORLD");
	else if ((k = members_of(w, fc, &kn)) != NULL)
		snprintf(comm, sizeof comm, "the communicator of ranks %.*s",
		    (int)(kn > 40 ? 40 : kn), k);
	else
		snprintf(comm, sizeof comm, "a communicator");
	op = first->op >= 0 ? tr_map_key(w->ops, first->op, NULL) : "?";
	/* At np, as ranks without records are: the ranks are its. */
	line = tr_meta_where(in, "np", &file);
	snprintf(msg, sizeof msg, "%s:%ld: %lld collective%s never completed, "
	    "left out of the waits: the first, %s on %s, lacks rank%s %s",
	    file, line, (long long)count, count > 1 ?
	    "s" : "", op, comm, strchr(miss, ',') || strchr(miss, '-') ?
	    "s" : "", miss);
	/* The ranks that ended early were said as the section ended. */
	why = excused(in);
	if (!why)
		tr_die(TR_EXIT_DATA, "%s, and no rank's recording ended early "
		    "(#meta end.R): a trace cut short?", msg);
	tr_warn("%s", msg);
}
