/* opstat.c - counts and bytes per operation, the communication matrix,
 * message sizes and the load imbalance of compute, per section
 * (tr-stat). */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

struct opst {
	int64_t calls, bytes, time;
};

struct rank {
	int seen;
	int64_t seq, end, compute;
	int64_t flush;		/* tr-record's flushes since end */
	struct tr_flushing fl;
	struct tr_callops ops;	/* those of the call at seq */
};

struct cell {
	int64_t src, dst, msgs, bytes;
};

struct tr_opstat {
	int sflag, perrank;
	struct tr_map *ops, *cells, *sites;
	struct opst *opst, *sitest;	/* sitest: calls are messages */
	size_t nopst, nsitest;
	struct cell *cellv;
	size_t ncell, capcell;
	struct rank *ranks;
	size_t nranks;
	int64_t sizes[65][2];	/* messages and bytes by log2 size + 1 */
	char *k;		/* addsite's key */
	size_t kcap;
};

static long
getcell(struct tr_opstat *s, int64_t src, int64_t dst)
{
	int64_t kv[2] = {src, dst};
	long i = tr_map_get(s->cells, (const char *)kv, sizeof kv, 1);

	if ((size_t)i == s->ncell) {
		tr_grow(&s->cellv, &s->capcell, s->ncell + 1, sizeof *s->cellv);
		memset(&s->cellv[s->ncell], 0, sizeof *s->cellv);
		s->cellv[s->ncell].src = src;
		s->cellv[s->ncell].dst = dst;
		s->ncell++;
	}
	return i;
}

static void
addmsg(struct tr_opstat *s, const struct tr_in *in, int64_t src, int64_t dst,
    int64_t bytes)
{
	long i;
	int b = 0;

	if (dst < 0)
		return;
	i = getcell(s, src, dst);
	s->cellv[i].msgs++;
	s->cellv[i].bytes = tr_in_add(in, s->cellv[i].bytes, bytes, "bytes");
	while (b < 64 && (bytes >> b) > 0)
		b++;
	s->sizes[b][0]++;
	s->sizes[b][1] = tr_in_add(in, s->sizes[b][1], bytes, "bytes");
}

/* Messages by op and call site: tr-extrap -T keeps the size of a site
 * whose messages keep theirs at every scale (a count sent before each
 * halo), where it scales the halos. */
static void
addsite(struct tr_opstat *s, const struct tr_in *in, const struct tr_ev *e)
{
	size_t n = e->op.n + 1 + e->site.n;
	char *k;
	long i;

	tr_grow(&s->k, &s->kcap, n, 1);
	k = s->k;
	memcpy(k, e->op.p, e->op.n);
	k[e->op.n] = '\t';
	memcpy(k + e->op.n + 1, e->site.p, e->site.n);
	i = tr_map_get(s->sites, k, n, 1);
	tr_growz(&s->sitest, &s->nsitest, (size_t)i + 1, sizeof *s->sitest);
	s->sitest[i].calls++;
	s->sitest[i].bytes = tr_in_add(in, s->sitest[i].bytes, e->bytes,
	    "bytes");
}

static void
call(struct tr_opstat *s, const struct tr_in *in, const struct tr_ev *e)
{
	struct rank *rk;
	long i = tr_map_get(s->ops, e->op.p, e->op.n, 1);
	int cls, coll, newcall;

	tr_growz(&s->opst, &s->nopst, (size_t)i + 1, sizeof *s->opst);
	tr_growz(&s->ranks, &s->nranks, (size_t)e->rank + 1, sizeof *s->ranks);
	rk = &s->ranks[e->rank];
	s->opst[i].bytes = tr_in_add(in, s->opst[i].bytes, e->bytes, "bytes");
	/* Each op of a call counts it once (tr_callops); every send
	 * record is a message. */
	newcall = !rk->seen || rk->seq != e->seq;
	if (newcall) {
		if (rk->seen)
			rk->compute += e->start - rk->end - rk->flush;
		rk->flush = 0;
		rk->seen = 1;
		rk->seq = e->seq;
		rk->end = e->end;
	}
	if (tr_callops_first(&rk->ops, newcall, i)) {
		s->opst[i].calls++;
		/* over s->ranks: each rank's times fit, their sum may not */
		s->opst[i].time = tr_in_add(in, s->opst[i].time,
		    e->end - e->start, "time");
	}
	cls = tr_mpi_class(e->op.p, e->op.n, &coll);
	if (cls == TR_MPI_SEND || cls == TR_MPI_SSEND || cls == TR_MPI_ISEND ||
	    cls == TR_MPI_SENDRECV) {
		addmsg(s, in, e->rank, e->peer, e->bytes);
		if (s->sflag && e->peer >= 0)
			addsite(s, in, e);
	}
	/* One-sided: data goes to the target, comes from it, or both. */
	if (cls == TR_MPI_RMA && e->peer >= 0) {
		if (coll == TR_RMA_PUT)
			addmsg(s, in, e->rank, e->peer, e->bytes);
		if (coll == TR_RMA_FETCH && e->root > 0)
			addmsg(s, in, e->rank, e->peer, e->root);
		if (coll != TR_RMA_PUT)
			addmsg(s, in, e->peer, e->rank, e->bytes);
	}
}

/* tr-record's buffer flushes are not the program's compute (as in
 * tr-delta and tr-profile): a flush of 55 ms made the rank that flushed
 * the slowest. */
static void
region(struct tr_opstat *s, const struct tr_in *in, const struct tr_reg *g)
{
	struct rank *rk;
	int64_t d;

	if (!tr_reg_flush(g))
		return;
	tr_growz(&s->ranks, &s->nranks, (size_t)g->rank + 1, sizeof *s->ranks);
	rk = &s->ranks[g->rank];
	if ((d = tr_flush_step(in, &rk->fl, g)) >= 0 && rk->seen)
		rk->flush = tr_in_add(in, rk->flush, d, "time");
}

static int
bycell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x->dst > y->dst) - (x->dst < y->dst);
}

/* The records of map M's keys in byte order, from ST. */
static void
put_opst(struct tr_out *o, const char *type, struct tr_map *m,
    const struct opst *st, int time)
{
	size_t i, n = tr_map_len(m), kn;
	long *ord = n ? tr_map_order(m) : NULL;
	const char *k;

	for (i = 0; i < n; i++) {
		k = tr_map_key(m, ord[i], &kn);
		tr_out_str(o, type);
		tr_out_write(o, k, kn);
		tr_out_ti64(o, st[ord[i]].calls);
		tr_out_ti64(o, st[ord[i]].bytes);
		if (time)
			tr_out_ti64(o, st[ord[i]].time);
		tr_out_c(o, '\n');
	}
	free(ord);
}

static void
put_imbal(struct tr_out *o, int64_t nr, int64_t min, double mean,
    int64_t max, int64_t arg)
{
	tr_out_str(o, "imbal");
	tr_out_ti64(o, nr);
	tr_out_ti64(o, min);
	tr_out_c(o, '\t');
	tr_out_f64(o, mean);
	tr_out_ti64(o, max);
	tr_out_c(o, '\t');
	tr_out_f64(o, mean > 0 ? (double)max / mean : 0);
	tr_out_ti64(o, arg);
	tr_out_c(o, '\n');
}

static void
report(struct tr_opstat *s, struct tr_out *o)
{
	size_t i;
	int64_t nr = 0, min = 0, max = -1, arg = 0;
	double tot = 0;

	put_opst(o, "opstat\t", s->ops, s->opst, 1);
	if (s->sflag)
		put_opst(o, "msite\t", s->sites, s->sitest, 0);
	tr_sort(s->cellv, s->ncell, sizeof *s->cellv, bycell);
	for (i = 0; i < s->ncell; i++) {
		tr_out_str(o, "cmat");
		tr_out_ti64(o, s->cellv[i].src);
		tr_out_ti64(o, s->cellv[i].dst);
		tr_out_ti64(o, s->cellv[i].msgs);
		tr_out_ti64(o, s->cellv[i].bytes);
		tr_out_c(o, '\n');
	}
	for (i = 0; i < 65; i++) {
		if (!s->sizes[i][0])
			continue;
		tr_out_str(o, "msize");
		tr_out_ti64(o, i == 0 ? 0 : (int64_t)1 << (i - 1));
		tr_out_ti64(o, i == 0 ? 1 : i == 64 ? INT64_MAX : (int64_t)1 << i);
		tr_out_ti64(o, s->sizes[i][0]);
		tr_out_ti64(o, s->sizes[i][1]);
		tr_out_c(o, '\n');
	}
	for (i = 0; i < s->nranks && s->perrank; i++)
		if (s->ranks[i].seen)
			put_imbal(o, 1, s->ranks[i].compute, (double)
			    s->ranks[i].compute, s->ranks[i].compute, (int64_t)i);
	for (i = 0; i < s->nranks && !s->perrank; i++) {
		if (!s->ranks[i].seen)
			continue;
		if (nr == 0 || s->ranks[i].compute < min)
			min = s->ranks[i].compute;
		if (s->ranks[i].compute > max) {
			max = s->ranks[i].compute;
			arg = (int64_t)i;
		}
		tot += (double)s->ranks[i].compute;
		nr++;
	}
	if (nr)
		put_imbal(o, nr, min, tot / (double)nr, max, arg);
}

static void
reset(struct tr_opstat *s)
{
	size_t i;

	tr_map_clear(s->ops);
	tr_map_clear(s->cells);
	tr_map_clear(s->sites);
	free(s->opst);
	free(s->sitest);
	s->opst = s->sitest = NULL;
	s->nopst = s->nsitest = 0;
	s->ncell = 0;
	for (i = 0; i < s->nranks; i++)
		free(s->ranks[i].ops.op);
	free(s->ranks);
	s->ranks = NULL;
	s->nranks = 0;
	memset(s->sizes, 0, sizeof s->sizes);
}

int
tr_opstat_rec(struct tr_opstat *s, const struct tr_in *in,
    const struct tr_rec *r)
{
	if (r->type == TR_EV)
		call(s, in, &r->u.ev);
	else if (r->type == TR_REG)
		region(s, in, &r->u.reg);
	return r->type == TR_EV;
}

static struct opst *
getst(struct tr_map *m, struct opst **v, size_t *n, const char *k,
    size_t kn)
{
	long i = tr_map_get(m, k, kn, 1);

	tr_growz(v, n, (size_t)i + 1, sizeof **v);
	return &(*v)[i];
}

/* Sums of shards add up; a rank's compute comes whole from the shard
 * that held the rank, as -G writes it. */
int
tr_opstat_merge(struct tr_opstat *s, const struct tr_in *in,
    const struct tr_rec *r)
{
	struct opst *st;
	struct rank *rk;
	int64_t a, lo;
	long i;
	int b = 0;

	switch (r->type) {
	case TR_OPSTAT:
		st = getst(s->ops, &s->opst, &s->nopst, r->f[1].p, r->f[1].n);
		st->time = tr_in_add(in, st->time, tr_get_i64(in, r, 4), "time");
		break;
	case TR_MSITE:
		/* op and site, as addsite keys them */
		st = getst(s->sites, &s->sitest, &s->nsitest, r->f[1].p,
		    (size_t)(r->f[2].p + r->f[2].n - r->f[1].p));
		break;
	case TR_CMAT:
		i = getcell(s, tr_get_i64(in, r, 1), tr_get_i64(in, r, 2));
		s->cellv[i].msgs += tr_get_i64(in, r, 3);
		s->cellv[i].bytes = tr_in_add(in, s->cellv[i].bytes,
		    tr_get_i64(in, r, 4), "bytes");
		return 1;
	case TR_MSIZE:
		lo = tr_get_i64(in, r, 1);
		while (b < 64 && (lo >> b) > 0)
			b++;
		s->sizes[b][0] += tr_get_i64(in, r, 3);
		s->sizes[b][1] = tr_in_add(in, s->sizes[b][1],
		    tr_get_i64(in, r, 4), "bytes");
		return 1;
	case TR_IMBAL:
		if (tr_get_i64(in, r, 1) != 1)
			tr_in_die(in, "imbal of %lld ranks: shards merge the "
			    "imbal of each rank, as tr-stat -G writes it",
			    (long long)tr_get_i64(in, r, 1));
		a = tr_get_i64(in, r, 6);
		tr_growz(&s->ranks, &s->nranks, (size_t)a + 1,
		    sizeof *s->ranks);
		rk = &s->ranks[a];
		if (rk->seen)
			tr_in_die(in, "rank %lld in two shards", (long long)a);
		rk->seen = 1;
		rk->compute = tr_get_i64(in, r, 2);
		return 1;
	default:
		return 0;
	}
	st->calls += tr_get_i64(in, r, r->type == TR_MSITE ? 3 : 2);
	st->bytes = tr_in_add(in, st->bytes, tr_get_i64(in, r,
	    r->type == TR_MSITE ? 4 : 3), "bytes");
	return 1;
}

struct tr_opstat *
tr_opstat_new(int sites, int perrank)
{
	struct tr_opstat *s = tr_calloc(1, sizeof *s);

	s->sflag = sites;
	s->perrank = perrank;
	s->ops = tr_map_new();
	s->cells = tr_map_new();
	s->sites = tr_map_new();
	return s;
}

void
tr_opstat_cmat(const struct tr_opstat *s, void (*cb)(void *, int64_t,
    int64_t, int64_t, int64_t), void *ctx)
{
	size_t i;

	for (i = 0; i < s->ncell; i++)
		cb(ctx, s->cellv[i].src, s->cellv[i].dst, s->cellv[i].msgs,
		    s->cellv[i].bytes);
}

void
tr_opstat_end(struct tr_opstat *s, struct tr_out *o)
{
	report(s, o);
	reset(s);
}

void
tr_opstat_free(struct tr_opstat *s)
{
	if (!s)
		return;
	reset(s);
	free(s->cellv);
	free(s->k);
	tr_map_free(s->ops);
	tr_map_free(s->cells);
	tr_map_free(s->sites);
	free(s);
}
