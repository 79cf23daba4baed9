/* delta.c - the computation between MPI calls: per rank, the time from
 * the end of one call to the start of the next (ScalaExtrap's delta),
 * keyed by the interval (tr-delta). */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

/* Sums stay integer ns: one past 2^63 comes of times no run has. */
#define SUM "a sum of deltas"

struct sum {
	int64_t n, wall, cpu;	/* cpu -1 once a part was not measured */
};

struct rank {
	int seen;
	int64_t seq, end, cpu;	/* cpu since the last call, -1 unknown */
	int64_t flush;		/* tr-record's flushes since */
	struct tr_flushing fl;
	char *prev;		/* key part of the last call */
	size_t prevn, prevcap;
	char **reg;		/* open regions, innermost last */
	size_t nreg, regcap;
	struct sum *sums;	/* per key, with -s */
	size_t nsums;
};

struct tr_delta {
	int oflag, rflag, sflag;
	struct rank *ranks;
	size_t nranks;
	struct tr_map *keys;	/* of the intervals, "*" first */
	char *kbuf;
	size_t kcap;
};

static struct rank *
getrank(struct tr_delta *d, int64_t r)
{
	tr_growz(&d->ranks, &d->nranks, (size_t)r + 1, sizeof *d->ranks);
	return &d->ranks[r];
}

static void
add(const struct tr_in *in, struct rank *rk, long k, int64_t wall,
    int64_t cpu)
{
	struct sum *s;

	tr_growz(&rk->sums, &rk->nsums, (size_t)k + 1, sizeof *rk->sums);
	s = &rk->sums[k];
	s->n++;
	s->wall = tr_in_add(in, s->wall, wall, SUM);
	s->cpu = s->cpu < 0 || cpu < 0 ? -1 : tr_in_add(in, s->cpu, cpu, SUM);
}

static void
call(struct tr_delta *d, const struct tr_in *in, struct tr_out *o,
    const struct tr_ev *e)
{
	struct rank *rk = getrank(d, e->rank);
	struct tr_field part = d->oflag ? e->op : e->site;
	const char *k;
	size_t kn;
	int64_t cpu, wall;

	if (rk->seen && e->seq == rk->seq)
		return;		/* another request of the same completion */
	cpu = rk->cpu < 0 || e->cpu < 0 ? -1 : tr_in_add(in, rk->cpu, e->cpu,
	    SUM);
	if (rk->seen) {
		if (d->rflag) {
			k = rk->nreg ? rk->reg[rk->nreg - 1] : "-";
			kn = strlen(k);
		} else {
			kn = rk->prevn + 1 + part.n;
			tr_grow(&d->kbuf, &d->kcap, kn, 1);
			memcpy(d->kbuf, rk->prev, rk->prevn);
			d->kbuf[rk->prevn] = '>';
			memcpy(d->kbuf + rk->prevn + 1, part.p, part.n);
			k = d->kbuf;
		}
		wall = e->start - rk->end - rk->flush;
		if (d->sflag) {
			add(in, rk, 0, wall, cpu);
			add(in, rk, tr_map_get(d->keys, k, kn, 1), wall, cpu);
		} else {
			tr_out_str(o, "delta\t");
			tr_out_i64(o, e->rank);
			tr_out_ti64(o, e->seq);
			tr_out_c(o, '\t');
			tr_out_write(o, k, kn);
			tr_out_ti64(o, rk->end);
			tr_out_ti64(o, wall);
			tr_out_ti64(o, cpu);
			tr_out_c(o, '\n');
		}
	}
	rk->seen = 1;
	rk->seq = e->seq;
	rk->end = e->end;
	rk->cpu = 0;
	rk->flush = 0;
	if (!d->rflag) {
		/* + 1: an empty site must not leave prev NULL, which the
		 * memcpy of the next key may not take even for 0 bytes */
		tr_grow(&rk->prev, &rk->prevcap, part.n + 1, 1);
		memcpy(rk->prev, part.p, part.n);
		rk->prevn = part.n;
	}
}

static void
region(struct tr_delta *d, const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk = getrank(d, g->rank);
	int flush = tr_reg_flush(g);
	int64_t ns;

	/* tr-record's flush is not the program's: out of the delta */
	if (flush && (ns = tr_flush_step(in, &rk->fl, g)) >= 0) {
		if (rk->seen)
			rk->flush = tr_in_add(in, rk->flush, ns, SUM);
		return;
	}
	rk->cpu = rk->cpu < 0 || g->cpu < 0 ? -1 : tr_in_add(in, rk->cpu,
	    g->cpu, SUM);
	if (!d->rflag || flush)
		return;
	if (!g->leave) {
		tr_grow(&rk->reg, &rk->regcap, rk->nreg + 1, sizeof *rk->reg);
		rk->reg[rk->nreg++] = tr_strndup(g->name.p, g->name.n);
	} else {
		if (rk->nreg == 0 || strlen(rk->reg[rk->nreg - 1]) !=
		    g->name.n || memcmp(rk->reg[rk->nreg - 1], g->name.p,
		    g->name.n) != 0)
			tr_in_die(in, "rank %lld leaves region '%.*s' that it "
			    "is not in", (long long)g->rank, (int)g->name.n,
			    g->name.p);
		free(rk->reg[--rk->nreg]);
	}
}

static void
putsum(struct tr_out *o, const char *type, int64_t a, const char *k,
    size_t kn)
{
	tr_out_str(o, type);
	tr_out_ti64(o, a);
	tr_out_c(o, '\t');
	tr_out_write(o, k, kn);
}

/* The sums of the section: per rank, then the max over ranks. */
static void
report(struct tr_delta *d, struct tr_out *o)
{
	size_t r, nk = tr_map_len(d->keys), kn;
	const char *k;
	long i;

	for (r = 0; r < d->nranks; r++) {
		for (i = 0; (size_t)i < d->ranks[r].nsums; i++) {
			struct sum *s = &d->ranks[r].sums[i];

			if (s->n == 0)
				continue;
			k = tr_map_key(d->keys, i, &kn);
			putsum(o, "dsum", (int64_t)r, k, kn);
			tr_out_ti64(o, s->n);
			tr_out_ti64(o, s->wall);
			tr_out_ti64(o, s->cpu);
			tr_out_c(o, '\n');
		}
	}
	for (i = 0; (size_t)i < nk; i++) {
		int64_t nr = 0, n = 0, wall = -1, cpu = 0, arg = 0;
		double tot = 0;

		for (r = 0; r < d->nranks; r++) {
			struct sum *s;

			if ((size_t)i >= d->ranks[r].nsums ||
			    d->ranks[r].sums[i].n == 0)
				continue;
			s = &d->ranks[r].sums[i];
			nr++;
			n += s->n;
			tot += (double)s->wall;
			if (s->wall > wall) {
				wall = s->wall;
				arg = (int64_t)r;
			}
			if (s->cpu < 0 || cpu < 0)
				cpu = -1;
			else if (s->cpu > cpu)
				cpu = s->cpu;
		}
		if (nr == 0)
			continue;
		k = tr_map_key(d->keys, i, &kn);
		tr_out_str(o, "dmax\t");
		tr_out_write(o, k, kn);
		tr_out_ti64(o, nr);
		tr_out_ti64(o, n);
		tr_out_ti64(o, wall);
		tr_out_ti64(o, cpu);
		tr_out_tf64(o, tot / (double)nr);
		tr_out_ti64(o, arg);
		tr_out_c(o, '\n');
	}
}

static void
reset(struct tr_delta *d)
{
	size_t r;

	for (r = 0; r < d->nranks; r++) {
		free(d->ranks[r].prev);
		while (d->ranks[r].nreg)
			free(d->ranks[r].reg[--d->ranks[r].nreg]);
		free(d->ranks[r].reg);
		free(d->ranks[r].sums);
	}
	free(d->ranks);
	d->ranks = NULL;
	d->nranks = 0;
	tr_map_clear(d->keys);
	tr_map_get(d->keys, "*", 1, 1);
}

int
tr_delta_rec(struct tr_delta *d, const struct tr_in *in, struct tr_out *o,
    const struct tr_rec *r)
{
	if (r->type == TR_EV)
		call(d, in, o, &r->u.ev);
	else if (r->type == TR_REG)
		region(d, in, &r->u.reg);
	else
		return 0;
	return 1;
}

/* A shard's sum of rank R and key K, as it was counted: the report is
 * then the run's, dmax over every shard's ranks. */
int
tr_delta_merge(struct tr_delta *d, const struct tr_in *in,
    const struct tr_rec *r)
{
	struct rank *rk;
	struct sum *s;
	long k;

	if (r->type == TR_DMAX)
		return 1;	/* the report's, from the sums */
	if (r->type != TR_DSUM)
		return 0;
	rk = getrank(d, tr_get_i64(in, r, 1));
	k = tr_map_get(d->keys, r->f[2].p, r->f[2].n, 1);
	tr_growz(&rk->sums, &rk->nsums, (size_t)k + 1, sizeof *rk->sums);
	s = &rk->sums[k];
	if (s->n)
		tr_in_die(in, "rank %lld's sum of '%.*s' in two shards",
		    (long long)tr_get_i64(in, r, 1), (int)r->f[2].n,
		    r->f[2].p);
	s->n = tr_get_i64(in, r, 3);
	s->wall = tr_get_i64(in, r, 4);
	s->cpu = tr_get_i64(in, r, 5);
	if (s->n <= 0)
		tr_in_die(in, "dsum of no deltas");
	return 1;
}

struct tr_delta *
tr_delta_new(int by, int sums)
{
	struct tr_delta *d = tr_calloc(1, sizeof *d);

	d->oflag = by == TR_DELTA_OP;
	d->rflag = by == TR_DELTA_REGION;
	d->sflag = sums;
	d->keys = tr_map_new();
	reset(d);
	return d;
}

void
tr_delta_end(struct tr_delta *d, struct tr_out *o)
{
	if (d->sflag)
		report(d, o);
	reset(d);
}

void
tr_delta_free(struct tr_delta *d)
{
	if (!d)
		return;
	reset(d);
	tr_map_free(d->keys);
	free(d->kbuf);
	free(d);
}
