/* tr-extrap - evaluate fitted models at a target scale: predicted delta
 * statistics, histograms, counts and bytes, or (-T) a whole trace. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

struct model {
	char *type, *key, *quantity, *expr;
	double v;		/* predicted */
	double vt;		/* at the template's np (-T) */
};

struct group {			/* the models of one (type, key) */
	char *type, *key;
	int *m, nm;
	size_t mcap;
	int done;
};

static struct model *mods;
static size_t nmod, modcap;
static struct group *grps;
static size_t ngrp, grpcap;
static struct tr_map *gmap;
static double tnp = -1, tN = -1;
static uint64_t seed = 1;
static int tflag;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-extrap [-T] [-n np] [-N size] [-s seed] "
	    "[np=NP] [N=SIZE] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

static int
lookup(void *ctx, const char *name, size_t n)
{
	(void)ctx;
	if (n == 1 && name[0] == 'n')
		return 0;
	if (n == 1 && name[0] == 'N')
		return 1;
	return -1;
}

static void
useslot(void *ctx, int slot)
{
	if (slot == 1)
		*(int *)ctx = 1;
}

static double
evalexpr(const char *src, double n, double N)
{
	struct tr_val sl[2];
	struct tr_expr *e;
	char err[128];
	double v;
	int col;

	e = tr_expr_parse(src, lookup, NULL, err, sizeof err, &col);
	if (!e)
		return NAN;
	memset(sl, 0, sizeof sl);
	sl[0].num = n;
	sl[1].num = N;
	v = tr_expr_num(e, sl);
	tr_expr_free(e);
	return v;
}

static long nneg;	/* predictions below zero */

static void
addmodel(const struct tr_in *in, const struct tr_rec *r)
{
	struct model *m;
	struct group *g;
	struct tr_expr *e;
	struct tr_val sl[2];
	char err[128], *gk;
	int col, usesN = 0;
	long gi;

	tr_grow(&mods, &modcap, nmod + 1, sizeof *mods);
	m = &mods[nmod];
	memset(m, 0, sizeof *m);
	m->type = tr_strndup(r->f[1].p, r->f[1].n);
	m->key = tr_strndup(r->f[2].p, r->f[2].n);
	m->quantity = tr_strndup(r->f[3].p, r->f[3].n);
	m->expr = tr_strndup(r->f[5].p, r->f[5].n);
	e = tr_expr_parse(m->expr, lookup, NULL, err, sizeof err, &col);
	if (!e)
		tr_in_die(in, "%s %s %s: bad model expression: %s", m->type,
		    m->key, m->quantity, err);
	tr_expr_slots(e, useslot, &usesN);
	if (usesN && tN < 0) {
		tr_expr_free(e);
		tr_in_die(in, "%s %s %s: the model depends on N: give N=SIZE",
		    m->type, m->key, m->quantity);
	}
	memset(sl, 0, sizeof sl);
	sl[0].num = tnp;
	sl[1].num = tN;
	m->v = tr_expr_num(e, sl);
	tr_expr_free(e);
	if (!isfinite(m->v))
		tr_in_die(in, "%s %s %s: the model is not finite at np=%g",
		    m->type, m->key, m->quantity, tnp);
	/* Times, counts and sizes are never negative: such a model was
	 * extrapolated past where it holds. Say so: columns that cannot be
	 * negative get 0. */
	if (m->v < 0 && ++nneg <= 3)
		tr_warn("%s %s %s: the model predicts %g at np=%g, below zero",
		    m->type, m->key, m->quantity, m->v, tnp);
	gk = tr_malloc(strlen(m->type) + strlen(m->key) + 2);
	sprintf(gk, "%s\t%s", m->type, m->key);
	gi = tr_map_get(gmap, gk, strlen(gk), 1);
	free(gk);
	if ((size_t)gi >= ngrp) {
		tr_grow(&grps, &grpcap, (size_t)gi + 1, sizeof *grps);
		g = &grps[gi];
		memset(g, 0, sizeof *g);
		g->type = m->type;
		g->key = m->key;
		ngrp = (size_t)gi + 1;
	}
	g = &grps[gi];
	tr_grow(&g->m, &g->mcap, (size_t)g->nm + 1, sizeof *g->m);
	g->m[g->nm++] = (int)nmod;
	nmod++;
}

static const struct model *
findq(const struct group *g, const char *q)
{
	int i;

	for (i = 0; i < g->nm; i++)
		if (strcmp(mods[g->m[i]].quantity, q) == 0)
			return &mods[g->m[i]];
	return NULL;
}

static void
putnum(struct tr_out *o, double v, int kind)
{
	if (kind == TR_FLT) {
		tr_out_f64(o, v);
		return;
	}
	v = round(v);
	if (kind == TR_NNEG && v < 0)
		v = 0;
	tr_out_i64(o, (int64_t)v);
}

/* Per-rank types: the predicted quantiles over ranks spread back over
 * np ranks, in increasing order. */
static double
rankval(const struct group *g, const char *col, double u, int *found)
{
	static const char *st[] = {"min", "q25", "med", "q75", "max"};
	static const double at[] = {0, 0.25, 0.5, 0.75, 1};
	double v[5];
	char q[256];
	int i, have = 0;

	for (i = 0; i < 5; i++) {
		const struct model *m;

		snprintf(q, sizeof q, "%s:%s", col, st[i]);
		m = findq(g, q);
		v[i] = m ? m->v : NAN;
		have += m != NULL;
	}
	*found = have > 0;
	if (!have)
		return 0;
	/* Quantiles of an extrapolation may cross: keep them monotone. */
	for (i = 1; i < 5; i++)
		if (isnan(v[i]) || v[i] < v[i - 1])
			v[i] = isnan(v[i - 1]) ? v[i] : v[i - 1];
	for (i = 3; i >= 0; i--)
		if (isnan(v[i]))
			v[i] = v[i + 1];
	for (i = 0; i < 4; i++)
		if (u <= at[i + 1])
			return v[i] + (u - at[i]) / (at[i + 1] - at[i]) *
			    (v[i + 1] - v[i]);
	return v[4];
}

static int
perrank(const struct group *g)
{
	int i;

	for (i = 0; i < g->nm; i++)
		if (strchr(mods[g->m[i]].quantity, ':'))
			return 1;
	return 0;
}

static void
emit(struct tr_out *o, struct group *g)
{
	const struct tr_schema *s = tr_schema_find(g->type, strlen(g->type));
	char buf[1024];
	long r, nr = perrank(g) ? (long)tnp : 1;

	g->done = 1;
	for (r = 0; r < nr; r++) {
		const char *f = s->fields, *e;
		int c = 0;

		tr_out_str(o, g->type);
		for (; f; f = e ? e + 1 : NULL, c++) {
			const struct model *m;
			char name[64];
			size_t len;
			int found;
			double v;

			e = strchr(f, '\t');
			len = e ? (size_t)(e - f) : strlen(f);
			snprintf(name, sizeof name, "%.*s", (int)len, f);
			tr_out_c(o, '\t');
			if (nr > 1 && c == 0) {
				tr_out_i64(o, r);
				continue;
			}
			if (tr_flat_keyval(g->key, name, buf, sizeof buf)) {
				tr_out_str(o, buf);
				continue;
			}
			if (nr > 1) {
				v = rankval(g, name, nr > 1 ? (double)r /
				    (double)(nr - 1) : 0, &found);
				if (found) {
					putnum(o, v, s->kinds[c]);
					continue;
				}
			} else if ((m = findq(g, name)) != NULL) {
				putnum(o, m->v, s->kinds[c]);
				continue;
			}
			if (strcmp(name, "scale") == 0)
				tr_out_str(o, "lin");
			else if (s->kinds[c] == TR_STR)
				tr_out_c(o, '-');
			else if (s->kinds[c] == TR_NNEG)
				tr_out_c(o, '0');
			else
				tr_out_str(o, "-1");
		}
		tr_out_c(o, '\n');
	}
}

/* A bin group's ordinal within its histogram, or -1 if G is not a bin
 * of HIST. */
static long
binof(const struct group *g, const struct group *hist)
{
	size_t hl = strlen(hist->key);
	char *end;
	long k;

	if (strcmp(g->type, "bin") != 0 || strncmp(g->key, hist->key, hl) ||
	    strncmp(g->key + hl, ";bin=", 5))
		return -1;
	k = strtol(g->key + hl + 5, &end, 10);
	return *end ? -1 : k;
}

static void
predict(struct tr_out *o)
{
	size_t i, j;
	char buf[32];

	tr_out_begin(o);
	tr_out_printf(o, "#meta np=%s\n", tr_f64str(buf, tnp));
	if (tN >= 0)
		tr_out_printf(o, "#meta N=%s\n", tr_f64str(buf, tN));
	tr_out_printf(o, "#meta tool=tr-extrap %s\n#meta extrap=predicted\n",
	    TR_VERSION);
	for (i = 0; i < ngrp; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(grps[j].type, grps[i].type) == 0)
				break;
		if (j < i)
			continue;
		if (!tr_schema_find(grps[i].type, strlen(grps[i].type)))
			tr_die(TR_EXIT_DATA, "%s: models of a type tr-extrap "
			    "does not know", grps[i].type);
		tr_out_fields(o, tr_schema_find(grps[i].type,
		    strlen(grps[i].type))->type);
	}
	for (i = 0; i < ngrp; i++) {
		if (grps[i].done)
			continue;
		/* Bins of a histogram wait for it. */
		for (j = 0; j < ngrp; j++)
			if (strcmp(grps[j].type, "hist") == 0 &&
			    binof(&grps[i], &grps[j]) >= 0)
				break;
		if (j < ngrp)
			continue;
		emit(o, &grps[i]);
		if (strcmp(grps[i].type, "hist") != 0)
			continue;
		for (;;) {
			long best = -1, bk = -1;

			for (j = 0; j < ngrp; j++) {
				long k = grps[j].done ? -1 :
				    binof(&grps[j], &grps[i]);

				if (k >= 0 && (bk < 0 || k < bk)) {
					bk = k;
					best = (long)j;
				}
			}
			if (best < 0)
				break;
			emit(o, &grps[best]);
		}
	}
}

/* ---- -T: a synthetic trace at the target scale ---- */

struct tgt {
	int64_t clock, lstart, lend;
	uint64_t rng;
};

struct tmpl {			/* a template rank while streaming */
	int64_t pend, pseq;
	char *psite;
	int seen;
};

struct binset {			/* predicted delta bins of one interval */
	double lo[64], hi[64], cnt[64], mean[64];
	int n;
	double ratio;		/* hist mean at target / at template */
	double hn;		/* hist n predicted */
	int sane;
};

static struct tr_map *bmap;
static struct binset *bins;
static size_t nbins, bincap;

static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static struct binset *
binset_get(const char *key, int add)
{
	long i = tr_map_get(bmap, key, strlen(key), add);

	if (i < 0)
		return NULL;
	if ((size_t)i >= nbins) {
		tr_grow(&bins, &bincap, (size_t)i + 1, sizeof *bins);
		memset(bins + nbins, 0, ((size_t)i + 1 - nbins) * sizeof *bins);
		nbins = (size_t)i + 1;
	}
	return &bins[i];
}

/* Gathers the predicted wall-time histograms by interval key. */
static void
collect_bins(void)
{
	char f[64], k[4096], b[32];
	size_t i;

	bmap = tr_map_new();
	for (i = 0; i < ngrp; i++) {
		const struct group *g = &grps[i];
		const struct model *lo, *hi, *cnt, *mean;
		struct binset *bs;
		long bi;

		if (!tr_flat_keyval(g->key, "field", f, sizeof f) ||
		    strcmp(f, "wall") != 0 ||
		    !tr_flat_keyval(g->key, "key", k, sizeof k))
			continue;
		if (strcmp(g->type, "hist") == 0) {
			mean = findq(g, "mean");
			cnt = findq(g, "n");
			bs = binset_get(k, 1);
			/* A noisy fit must not turn into a wild scaling. */
			if (mean && mean->vt > 0 && mean->v >= 0 &&
			    mean->v / mean->vt <= 10 && mean->v / mean->vt >= 0.1)
				bs->ratio = mean->v / mean->vt;
			bs->hn = cnt ? cnt->v : -1;
			continue;
		}
		if (strcmp(g->type, "bin") != 0 ||
		    !tr_flat_keyval(g->key, "bin", b, sizeof b))
			continue;
		bi = strtol(b, NULL, 10);
		lo = findq(g, "lo");
		hi = findq(g, "hi");
		cnt = findq(g, "count");
		mean = findq(g, "mean");
		if (!lo || !hi || !cnt || !mean || bi < 0 || bi >= 64)
			continue;
		bs = binset_get(k, 1);
		bs->lo[bi] = lo->v;
		bs->hi[bi] = hi->v;
		bs->cnt[bi] = cnt->v > 0 ? round(cnt->v) : 0;
		bs->mean[bi] = mean->v;
		if (bi + 1 > bs->n)
			bs->n = (int)bi + 1;
	}
}

/* Predicted bins are drawn from only when they form a histogram: bounds
 * in order, means inside, counts adding up to the predicted n. */
static void
check_bins(void)
{
	size_t k;
	int i;

	for (k = 0; k < nbins; k++) {
		struct binset *bs = &bins[k];
		double tot = 0;

		bs->sane = bs->n > 0;
		for (i = 0; i < bs->n; i++) {
			tot += bs->cnt[i];
			if (bs->hi[i] < bs->lo[i] || (i > 0 && bs->lo[i] <
			    bs->hi[i - 1] - 1e-9 * fabs(bs->hi[i - 1])) ||
			    (bs->cnt[i] > 0 && (bs->mean[i] < bs->lo[i] ||
			    bs->mean[i] > bs->hi[i])))
				bs->sane = 0;
		}
		if (bs->hn > 0 && fabs(tot - bs->hn) > 0.1 * bs->hn)
			bs->sane = 0;
	}
}

/* A delta for interval KEY: drawn from its predicted bins, else the
 * template's scaled by the predicted change of the mean. */
static int64_t
draw(const char *key, int64_t tdelta, uint64_t *rng)
{
	struct binset *bs = binset_get(key, 0);
	double tot = 0, u, v;
	int i;

	if (!bs)
		return tdelta;
	for (i = 0; i < bs->n; i++)
		tot += bs->cnt[i];
	if (!bs->sane)
		tot = 0;
	if (tot <= 0)
		return bs->ratio > 0 ? (int64_t)llround(tdelta * bs->ratio) :
		    tdelta;
	u = (double)(splitmix(rng) >> 11) / 9007199254740992.0 * tot;
	for (i = 0; i < bs->n - 1 && u >= bs->cnt[i]; i++)
		u -= bs->cnt[i];
	v = bs->mean[i];
	if (v < bs->lo[i])
		v = bs->lo[i];
	if (bs->hi[i] > bs->lo[i] && v > bs->hi[i])
		v = bs->hi[i];
	return v > 0 ? (int64_t)llround(v) : 0;
}

static int
is_p2p_peer(const struct tr_ev *e)
{
	return e->peer >= 0;
}

static int
is_sendrecv(const struct tr_field *op)
{
	return op->n >= 12 && memcmp(op->p, "MPI_Sendrecv", 12) == 0;
}

static int
is_newcomm(const struct tr_field *op)
{
	static const char *ops[] = {"MPI_Comm_dup", "MPI_Comm_split",
		"MPI_Comm_create", "MPI_Cart_create", "MPI_Cart_sub", NULL};
	int i;

	for (i = 0; ops[i]; i++)
		if (strlen(ops[i]) == op->n && memcmp(ops[i], op->p, op->n) == 0)
			return 1;
	return 0;
}

/* Bytes per call of OP predicted at the target over those at the
 * template's scale, from opstat models (1 without them). */
static double
byteratio(const struct tr_field *op)
{
	char key[256];
	long gi;
	const struct model *b, *c;

	snprintf(key, sizeof key, "opstat\top=%.*s", (int)op->n, op->p);
	gi = tr_map_get(gmap, key, strlen(key), 0);
	if (gi < 0)
		return 1;
	b = findq(&grps[gi], "bytes");
	c = findq(&grps[gi], "calls");
	if (!b || !c || b->vt <= 0 || c->vt <= 0 || c->v <= 0 || b->v < 0)
		return 1;
	return (b->v / c->v) / (b->vt / c->vt);
}

static long
mapped(const struct tr_grid *tg, const struct tr_grid *g, long rep,
    long peer, long t)
{
	int a[TR_GRID_MAXD], b[TR_GRID_MAXD], c[TR_GRID_MAXD], i;

	tr_grid_coords(g, rep, a);
	tr_grid_coords(g, peer, b);
	tr_grid_coords(tg, t, c);
	for (i = 0; i < g->nd; i++) {
		int d = b[i] - a[i];

		if (g->periodic[i] && d > g->dims[i] / 2)
			d -= g->dims[i];
		else if (g->periodic[i] && d < -g->dims[i] / 2)
			d += g->dims[i];
		c[i] += d;
	}
	return tr_grid_rank(tg, c);
}

/* The dimension along which neighbours A and B of grid G lie. */
static int
direction(const struct tr_grid *g, long a, long b)
{
	int x[TR_GRID_MAXD], y[TR_GRID_MAXD], i;

	tr_grid_coords(g, a, x);
	tr_grid_coords(g, b, y);
	for (i = 0; i < g->nd; i++)
		if (x[i] != y[i])
			return i;
	return 0;
}

/* Under strong scaling a halo message along dimension i carries the
 * local extent of the other dimensions, N / dims[k]: its size changes by
 * the product of dims[k] at the template over dims[k] at the target. */
static double
surface(const struct tr_grid *g, const struct tr_grid *tg, long a, long b)
{
	int i = direction(g, a, b), k;
	double f = 1;

	for (k = 0; k < g->nd; k++)
		if (k != i)
			f *= (double)g->dims[k] / tg->dims[k];
	return f;
}

/* Strong scaling (a global domain cut into the grid) shows in the
 * template as halo sizes in inverse proportion to the other dimensions'
 * extents; the same sizes in every direction mean a fixed local domain
 * (weak scaling). Only a grid with unequal dimensions tells them apart. */
static int
strong_scaling(const struct tr_grid *g, long (*pairs)[2],
    double (*pb)[2], size_t n)
{
	double sum[TR_GRID_MAXD] = {0}, cnt[TR_GRID_MAXD] = {0}, m[TR_GRID_MAXD];
	int i, j, k, uneq = 0;
	size_t p;

	for (p = 0; p < n; p++) {
		i = direction(g, pairs[p][0], pairs[p][1]);
		sum[i] += pb[p][0];
		cnt[i] += pb[p][1];
	}
	for (i = 0; i < g->nd; i++) {
		if (cnt[i] == 0)
			return 0;
		m[i] = sum[i] / cnt[i];
		if (g->dims[i] != g->dims[0])
			uneq = 1;
	}
	if (!uneq)
		return 0;
	for (i = 0; i < g->nd; i++)
		for (j = 0; j < g->nd; j++) {
			double want = 1;

			/* m[i] / m[j] = prod_{k != i} 1/d_k / prod_{k != j}
			 * 1/d_k = d_i / d_j */
			for (k = 0; k < 1; k++)
				want = (double)g->dims[i] / g->dims[j];
			if (fabs(m[i] / m[j] - want) > 0.01 * want)
				return 0;
		}
	return 1;
}

static int
synth(int nf, char **files, struct tr_out *o)
{
	struct tr_in *in;
	struct tr_rec r;
	struct tr_map *pmap = tr_map_new(), *cmap = tr_map_new();
	long (*pairs)[2] = NULL, *rep, *cls, t, nt = (long)tnp, P = -1, pi;
	double (*pbytes)[2] = NULL;
	size_t npairs = 0, paircap = 0, pbcap = 0, i;
	int strong;
	struct tr_grid g, tg;
	struct tgt *tgt;
	struct tmpl *tm;
	int64_t *csize = NULL;
	size_t ncs = 0, cscap = 0;
	int c, status, k;
	char buf[64], dims[64];

	if (nf == 0)
		tr_die(TR_EXIT_USAGE, "-T needs the template trace as files");
	/* Pass 1: models, and who talks to whom in the template run. */
	in = tr_open(nf, files);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c != TR_REC)
			continue;
		if (r.type == TR_MODEL) {
			addmodel(in, &r);
		} else if (r.type == TR_EV) {
			const struct tr_ev *e = &r.u.ev;
			int64_t np;

			if (tr_meta_i64(in, "np", &np) < 0)
				tr_in_die(in, "no np in the template's header");
			if (P >= 0 && np != P)
				tr_in_die(in, "the template holds runs at np=%ld "
				    "and np=%ld: give the files of one run",
				    P, (long)np);
			P = (long)np;
			if (e->rank >= P || e->peer >= P)
				tr_in_die(in, "rank beyond np=%ld", P);
			for (k = 0; k < 2; k++) {
				long a = (long)e->rank, b = k ? (long)e->root :
				    (long)e->peer;
				int n;

				if (k && !is_sendrecv(&e->op))
					continue;
				if (!k && !is_p2p_peer(e))
					continue;
				if (b < 0 || a == b)
					continue;
				n = snprintf(buf, sizeof buf, "%ld,%ld",
				    a < b ? a : b, a < b ? b : a);
				pi = tr_map_get(pmap, buf, (size_t)n, 1);
				if ((size_t)pi == npairs) {
					tr_grow(&pairs, &paircap, npairs + 1,
					    sizeof *pairs);
					tr_grow(&pbytes, &pbcap, npairs + 1,
					    sizeof *pbytes);
					pairs[npairs][0] = a;
					pairs[npairs][1] = b;
					pbytes[npairs][0] = 0;
					pbytes[npairs++][1] = 0;
				}
				if (!k && e->bytes > 0) {
					pbytes[pi][0] += (double)e->bytes;
					pbytes[pi][1]++;
				}
			}
		} else if (r.type == TR_COMM) {
			int64_t id = tr_get_i64(in, &r, 2);
			int64_t size = tr_get_i64(in, &r, 3);
			int n = snprintf(buf, sizeof buf, "%lld", (long long)id);
			long ci = tr_map_get(cmap, buf, (size_t)n, 1);

			if ((size_t)ci >= ncs) {
				tr_grow(&csize, &cscap, (size_t)ci + 1,
				    sizeof *csize);
				ncs = (size_t)ci + 1;
			}
			csize[ci] = size;
		}
	}
	status = tr_in_status(in);
	tr_close(in);
	if (P < 0)
		tr_die(TR_EXIT_DATA, "-T: no ev records: give the trace of a "
		    "run as the template");
	if (tr_grid_infer(P, (const long (*)[2])pairs, npairs, &g) < 0)
		tr_die(TR_EXIT_DATA, "-T: the template's point-to-point "
		    "messages are not nearest-neighbour on a 1-D, 2-D or 3-D "
		    "grid of %ld ranks", P);
	tg = g;
	tg.np = nt;
	tr_grid_dims(nt, g.nd, tg.dims);
	strong = strong_scaling(&g, pairs, pbytes, npairs);
	for (i = 0; i < nmod; i++)
		mods[i].vt = evalexpr(mods[i].expr, (double)P, tN);
	collect_bins();
	check_bins();
	/* Every target rank follows the template rank at the same kind of
	 * grid position. */
	rep = tr_calloc((size_t)nt, sizeof *rep);
	cls = tr_calloc((size_t)nt, sizeof *cls);
	for (t = 0; t < nt; t++) {
		long q;

		cls[t] = tr_grid_class(&tg, t);
		rep[t] = -1;
		for (q = 0; q < P && rep[t] < 0; q++)
			if (tr_grid_class(&g, q) == cls[t])
				rep[t] = q;
		if (rep[t] < 0)
			tr_die(TR_EXIT_DATA, "-T: no rank of the template grid "
			    "has the position of target rank %ld: the template "
			    "run is too small", t);
	}
	tgt = tr_calloc((size_t)nt, sizeof *tgt);
	for (t = 0; t < nt; t++)
		tgt[t].rng = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t;
	tm = tr_calloc((size_t)P, sizeof *tm);

	tr_out_begin(o);
	dims[0] = '\0';
	for (k = 0; k < tg.nd; k++)
		snprintf(dims + strlen(dims), sizeof dims - strlen(dims),
		    "%s%d%s", k ? "x" : "", tg.dims[k],
		    tg.periodic[k] ? "p" : "");
	tr_out_printf(o, "#meta np=%ld\n", nt);
	if (tN >= 0)
		tr_out_printf(o, "#meta N=%s\n", tr_f64str(buf, tN));
	tr_out_printf(o, "#meta tool=tr-extrap %s\n#meta extrap=synthetic\n"
	    "#meta extrap.template.np=%ld\n#meta extrap.grid=%s\n"
	    "#meta extrap.seed=%llu\n#meta extrap.bytes=%s\n", TR_VERSION, P,
	    dims, (unsigned long long)seed, strong ? "strong" : "weak");
	tr_out_fields(o, TR_EV);
	tr_out_fields(o, TR_COMM);

	/* Pass 2: each template event of a representative, for every target
	 * rank it represents. */
	in = tr_open(nf, files);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		struct tr_ev e, x;
		struct tmpl *p;
		char key[1024];
		int shared;
		int64_t tdelta;
		double br;

		if (c != TR_REC || r.type != TR_EV)
			continue;
		e = r.u.ev;
		p = &tm[e.rank];
		shared = p->seen && e.seq == p->pseq;
		tdelta = e.start - (p->seen ? p->pend : 0);
		snprintf(key, sizeof key, "%s>%.*s", p->psite ? p->psite : "",
		    (int)e.site.n, e.site.p);
		br = e.bytes > 0 ? byteratio(&e.op) : 1;
		for (t = 0; t < nt; t++) {
			struct tgt *q = &tgt[t];

			if (rep[t] != e.rank)
				continue;
			x = e;
			x.rank = t;
			if (shared) {
				x.start = q->lstart;
				x.end = q->lend;
			} else {
				int64_t d = p->seen ? draw(key, tdelta,
				    &q->rng) : tdelta;

				x.start = q->clock + d;
				x.end = x.start + (e.end - e.start);
				if (e.cpu >= 0 && tdelta > 0 && d != tdelta) {
					x.cpu = (int64_t)llround((double)e.cpu *
					    d / tdelta);
					if (x.cpu > d && d >= e.cpu)
						x.cpu = d;
				}
				q->clock = x.end;
				q->lstart = x.start;
				q->lend = x.end;
			}
			if (e.peer >= 0)
				x.peer = mapped(&tg, &g, e.rank, e.peer, t);
			if (e.root >= 0 && is_sendrecv(&e.op))
				x.root = mapped(&tg, &g, e.rank, e.root, t);
			if ((e.peer >= 0 && x.peer < 0) ||
			    (e.root >= 0 && is_sendrecv(&e.op) && x.root < 0))
				tr_in_die(in, "-T: a peer of template rank "
				    "%lld falls outside the target grid",
				    (long long)e.rank);
			if (e.bytes > 0 && e.peer >= 0)
				x.bytes = strong ? (int64_t)llround((double)
				    e.bytes * surface(&g, &tg, e.rank,
				    e.peer)) : e.bytes;
			else if (e.bytes > 0)
				x.bytes = (int64_t)llround((double)e.bytes * br);
			tr_out_ev(o, &x);
			if (is_newcomm(&e.op) && e.req >= 0) {
				int n = snprintf(buf, sizeof buf, "%lld",
				    (long long)e.req);
				long ci = tr_map_get(cmap, buf, (size_t)n, 0);

				if (ci >= 0 && csize[ci] != P)
					tr_in_die(in, "-T: communicator %lld "
					    "is not the whole world: "
					    "sub-communicators are not "
					    "extrapolated", (long long)e.req);
				tr_out_printf(o, "comm\t%ld\t%lld\t%ld\t0-%ld\n",
				    t, (long long)e.req, nt, nt - 1);
			}
		}
		if (!shared) {
			free(p->psite);
			p->psite = tr_strndup(e.site.p, e.site.n);
			p->pend = e.end;
		}
		p->pseq = e.seq;
		p->seen = 1;
	}
	if (tr_in_status(in))
		status = tr_in_status(in);
	tr_close(in);
	for (t = 0; t < P; t++)
		free(tm[t].psite);
	free(tm);
	free(tgt);
	free(rep);
	free(cls);
	free(pairs);
	free(pbytes);
	free(csize);
	free(bins);
	tr_map_free(bmap);
	tr_map_free(pmap);
	tr_map_free(cmap);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct option lopt[] = {
		{"trace", no_argument, NULL, 'T'},
		{NULL, 0, NULL, 0}
	};
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	char **files;
	int c, nf = 0, i, status;
	size_t k;

	tr_init(argv[0]);
	while ((c = getopt_long(argc, argv, "n:N:s:T", lopt, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (tr_parse_f64(optarg, strlen(optarg), &tnp) < 0)
				usage();
			break;
		case 'N':
			if (tr_parse_f64(optarg, strlen(optarg), &tN) < 0)
				usage();
			break;
		case 's': {
			int64_t v;

			if (tr_parse_i64(optarg, strlen(optarg), &v) < 0)
				usage();
			seed = (uint64_t)v;
			break;
		}
		case 'T': tflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	files = tr_calloc((size_t)argc + 1, sizeof *files);
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "np=", 3) == 0) {
			if (tr_parse_f64(argv[i] + 3, strlen(argv[i] + 3),
			    &tnp) < 0)
				usage();
		} else if (strncmp(argv[i], "N=", 2) == 0) {
			if (tr_parse_f64(argv[i] + 2, strlen(argv[i] + 2),
			    &tN) < 0)
				usage();
		} else {
			files[nf++] = argv[i];
		}
	}
	if (tnp < 1 || tnp != floor(tnp) || tnp > 1e7 ||
	    (tN != -1 && !(tN > 0)))
		usage();
	gmap = tr_map_new();
	o = tr_out_open(1, 0);
	in = tr_open(nf, files);
	if (tflag) {
		tr_close(in);
		in = NULL;
		status = synth(nf, files, o);
	} else {
		int pend = 0;

		while ((c = tr_next(in, &r)) != TR_EOF) {
			if (c == TR_HDR) {
				pend = 1;
			} else if (c == TR_REC && r.type == TR_MODEL) {
				addmodel(in, &r);
			} else if (c == TR_REC) {
				if (pend)
					tr_out_sync(o, in);
				pend = 0;
				tr_out_rec(o, &r);
			}
		}
		if (nmod == 0)
			tr_die(TR_EXIT_DATA, "no model records in the input");
		predict(o);
		status = tr_in_status(in);
	}
	if (in)
		tr_close(in);
	tr_out_close(o);
	if (nneg > 3)
		tr_warn("%ld more predictions below zero", nneg - 3);
	for (k = 0; k < nmod; k++) {
		free(mods[k].type);
		free(mods[k].key);
		free(mods[k].quantity);
		free(mods[k].expr);
	}
	for (k = 0; k < ngrp; k++)
		free(grps[k].m);
	free(mods);
	free(grps);
	free(files);
	tr_map_free(gmap);
	return status;
}
