/* profile.c - a flat profile per rank and function, with TAU's
 * definitions of calls, subroutine calls, exclusive and inclusive time
 * (tr-profile). */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

struct fn {
	int64_t calls, subrs, incl, child, bytes;
};

struct open {
	long fn;
	int64_t enter, child;
};

struct rank {
	int seen;
	int64_t seq;
	int64_t end;	/* of the last call, or region left, outside regions */
	struct fn *fns;
	size_t nfns;
	struct open *stk;
	size_t nstk, capstk;
	struct tr_callops ops;	/* those of the call at seq */
};

struct tr_profile {
	int perrank;		/* prof records */
	int stats[3];		/* profagg records: mean, min, max */
	struct tr_map *names;
	struct rank *ranks;
	size_t nranks;
};

const char *const tr_profile_stats[3] = {"mean", "min", "max"};

static struct rank *
getrank(struct tr_profile *p, int64_t r)
{
	tr_growz(&p->ranks, &p->nranks, (size_t)r + 1, sizeof *p->ranks);
	return &p->ranks[r];
}

static struct fn *
getfn(struct tr_profile *p, struct rank *rk, const char *s, size_t n,
    long *idx)
{
	long i = tr_map_get(p->names, s, n, 1);

	tr_growz(&rk->fns, &rk->nfns, (size_t)i + 1, sizeof *rk->fns);
	if (idx)
		*idx = i;
	return &rk->fns[i];
}

/* A call or region of duration d ends inside the innermost open region. */
static void
child(struct rank *rk, int64_t d)
{
	if (rk->nstk)
		rk->stk[rk->nstk - 1].child += d;
}

/* Time outside MPI calls is computation, function "compute", where no
 * region is open; inside one it is the region's exclusive time, as in
 * TAU, and is not counted twice. */
static void
compute(struct tr_profile *p, struct rank *rk, int64_t t)
{
	struct fn *c;

	if (!rk->seen || rk->nstk)
		return;
	c = getfn(p, rk, "compute", 7, NULL);
	c->calls++;
	c->incl += t - rk->end;
}

static void
call(struct tr_profile *p, const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *rk = getrank(p, e->rank);
	long i;
	struct fn *f = getfn(p, rk, e->op.p, e->op.n, &i);
	int64_t d = e->end - e->start;
	int newcall = !rk->seen || rk->seq != e->seq;

	f->bytes = tr_in_add(in, f->bytes, e->bytes, "bytes");
	/* Each op of a call counts it (tr_callops); its time goes to the
	 * first, so that a rank's times still add up to its span. */
	if (tr_callops_first(&rk->ops, newcall, i))
		f->calls++;
	if (!newcall)
		return;
	f->incl += d;
	compute(p, rk, e->start);
	if (rk->nstk)
		rk->fns[rk->stk[rk->nstk - 1].fn].subrs++;
	child(rk, d);
	rk->seen = 1;
	rk->seq = e->seq;
	rk->end = e->end;
}

static void
region(struct tr_profile *p, const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk = getrank(p, g->rank);
	struct open *op;
	struct fn *f;
	long i;
	int64_t d;

	f = getfn(p, rk, g->name.p, g->name.n, &i);
	if (!g->leave) {
		compute(p, rk, g->time);
		if (rk->nstk)
			rk->fns[rk->stk[rk->nstk - 1].fn].subrs++;
		tr_grow(&rk->stk, &rk->capstk, rk->nstk + 1, sizeof *rk->stk);
		op = &rk->stk[rk->nstk++];
		op->fn = i;
		op->enter = g->time;
		op->child = 0;
		f->calls++;
		return;
	}
	if (rk->nstk == 0 || rk->stk[rk->nstk - 1].fn != i)
		tr_in_die(in, "rank %lld leaves region '%.*s' that it is not "
		    "in", (long long)g->rank, (int)g->name.n, g->name.p);
	op = &rk->stk[--rk->nstk];
	d = g->time - op->enter;
	f->incl += d;
	f->child += op->child;
	child(rk, d);
	if (!rk->nstk)
		rk->end = g->time;
}

static void
report(struct tr_profile *p, struct tr_out *o)
{
	size_t n = tr_map_len(p->names), i, r, kn;
	long *ord = tr_map_order(p->names);
	const char *k;
	int s;

	for (r = 0; r < p->nranks && p->perrank; r++) {
		for (i = 0; i < n; i++) {
			struct fn *f;

			if ((size_t)ord[i] >= p->ranks[r].nfns)
				continue;
			f = &p->ranks[r].fns[ord[i]];
			if (f->calls == 0)
				continue;
			k = tr_map_key(p->names, ord[i], &kn);
			tr_out_str(o, "prof");
			tr_out_ti64(o, (int64_t)r);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_ti64(o, f->calls);
			tr_out_ti64(o, f->subrs);
			tr_out_ti64(o, f->incl - f->child);
			tr_out_ti64(o, f->incl);
			tr_out_ti64(o, f->bytes);
			tr_out_c(o, '\n');
		}
	}
	for (s = 0; s < 3; s++) {
		if (!p->stats[s])
			continue;
		for (i = 0; i < n; i++) {
			double v[5] = {0}, x[5];
			int64_t nr = 0;
			int j;

			for (r = 0; r < p->nranks; r++) {
				struct fn *f;

				if ((size_t)ord[i] >= p->ranks[r].nfns ||
				    p->ranks[r].fns[ord[i]].calls == 0)
					continue;
				f = &p->ranks[r].fns[ord[i]];
				x[0] = (double)f->calls;
				x[1] = (double)f->subrs;
				x[2] = (double)(f->incl - f->child);
				x[3] = (double)f->incl;
				x[4] = (double)f->bytes;
				for (j = 0; j < 5; j++) {
					if (s == 0 || nr == 0)
						v[j] = s == 0 ? v[j] + x[j] : x[j];
					else if (s == 1 ? x[j] < v[j] : x[j] > v[j])
						v[j] = x[j];
				}
				nr++;
			}
			if (nr == 0)
				continue;
			k = tr_map_key(p->names, ord[i], &kn);
			tr_out_str(o, "profagg\t");
			tr_out_str(o, tr_profile_stats[s]);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_ti64(o, nr);
			for (j = 0; j < 5; j++)
				tr_out_tf64(o, s == 0 ? v[j] / (double)nr : v[j]);
			tr_out_c(o, '\n');
		}
	}
	free(ord);
}

static void
reset(struct tr_profile *p)
{
	size_t r;

	for (r = 0; r < p->nranks; r++) {
		free(p->ranks[r].fns);
		free(p->ranks[r].stk);
		free(p->ranks[r].ops.op);
	}
	free(p->ranks);
	p->ranks = NULL;
	p->nranks = 0;
	tr_map_clear(p->names);
}

int
tr_profile_rec(struct tr_profile *p, const struct tr_in *in,
    const struct tr_rec *r)
{
	if (r->type == TR_EV)
		call(p, in, &r->u.ev);
	else if (r->type == TR_REG)
		region(p, in, &r->u.reg);
	else
		return 0;
	return 1;
}

/* A shard's profile of rank R and a function, as it was counted: the
 * statistics over ranks are then the run's. */
int
tr_profile_merge(struct tr_profile *p, const struct tr_in *in,
    const struct tr_rec *r)
{
	struct fn *f;
	int64_t rank;

	if (r->type == TR_PROFAGG)
		return 1;	/* the report's, from the ranks' */
	if (r->type != TR_PROF)
		return 0;
	rank = tr_get_i64(in, r, 1);
	f = getfn(p, getrank(p, rank), r->f[2].p, r->f[2].n, NULL);
	if (f->calls)
		tr_in_die(in, "rank %lld's profile of '%.*s' in two shards",
		    (long long)rank, (int)r->f[2].n, r->f[2].p);
	f->calls = tr_get_i64(in, r, 3);
	f->subrs = tr_get_i64(in, r, 4);
	f->incl = tr_get_i64(in, r, 6);
	f->child = f->incl - tr_get_i64(in, r, 5);
	f->bytes = tr_get_i64(in, r, 7);
	if (f->calls <= 0)
		tr_in_die(in, "prof of no calls");
	return 1;
}

struct tr_profile *
tr_profile_new(int perrank, const int stats[3])
{
	struct tr_profile *p = tr_calloc(1, sizeof *p);

	p->perrank = perrank;
	memcpy(p->stats, stats, sizeof p->stats);
	p->names = tr_map_new();
	return p;
}

void
tr_profile_end(struct tr_profile *p, struct tr_out *o)
{
	report(p, o);
	reset(p);
}

void
tr_profile_free(struct tr_profile *p)
{
	if (!p)
		return;
	reset(p);
	tr_map_free(p->names);
	free(p);
}
