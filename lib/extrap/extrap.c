/* extrap.c - fitted models (tr-fit's model records) evaluated at a
 * target scale, and the records they predict: statistics, histograms,
 * counts and bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extrap.h"

struct model {
	char *type, *key, *quantity;
	struct tr_expr *e;
	double v;		/* at the target */
	double v2;		/* at a second scale (tr_xp_eval2) */
	double cv;		/* its cross-validation error, % (cvsmape) */
	double points;		/* the (n, N) it was fitted on */
	const char *file;	/* where it was read, for errors */
	long line;
};

struct group {			/* the models of one (type, key) */
	char *type, *key;
	int *m, nm;
	size_t mcap;
	int done;
};

struct tr_xp {
	double np, N;
	struct model *mods;
	size_t nmod, modcap;
	struct group *grps;
	size_t ngrp, grpcap;
	struct tr_map *gmap;	/* "type TAB key" to group */
	long nneg;		/* predictions below zero */
	long scales;		/* distinct process counts fitted, -1: unsaid */
};

static int
nN(void *ctx, const char *name, size_t n)
{
	(void)ctx;
	if (n != 1 || (name[0] != 'n' && name[0] != 'N'))
		return -1;
	return name[0] == 'N';
}

struct tr_expr *
tr_xp_parse(const char *src, char *err, size_t errsz, int *col)
{
	return tr_expr_parse(src, nN, NULL, err, errsz, col);
}

double
tr_xp_eval(const struct tr_expr *e, double n, double N)
{
	struct tr_val sl[2];

	memset(sl, 0, sizeof sl);
	sl[0].num = n;
	sl[1].num = N;
	return tr_expr_num(e, sl);
}

/* The key of the group of TYPE and KEY in gmap; free() it. */
static char *
gkey(const char *type, const char *key, size_t *n)
{
	char *k;

	*n = strlen(type) + strlen(key) + 1;
	k = tr_malloc(*n + 1);
	sprintf(k, "%s\t%s", type, key);
	return k;
}

static void
useslot(void *ctx, int slot)
{
	if (slot == 1)
		*(int *)ctx = 1;
}

/* The kind of the column a quantity ("wall", "wall:max", "q50") of a
 * record of schema s predicts; TR_FLT where it names no column. */
static int
qkind(const struct tr_schema *s, const char *q)
{
	int c = tr_schema_col(s, q, strcspn(q, ":"));

	return c < 0 ? TR_FLT : s->kinds[c - 1];
}

struct tr_xp *
tr_xp_new(double np, double N)
{
	struct tr_xp *x = tr_calloc(1, sizeof *x);

	x->np = np;
	x->N = N;
	x->gmap = tr_map_new();
	return x;
}

void
tr_xp_add(struct tr_xp *x, const struct tr_in *in, const struct tr_rec *r)
{
	const struct tr_schema *sc;
	struct model *m;
	struct group *g;
	char err[128], *gk;
	int col, usesN = 0;
	size_t n;
	long gi;

	tr_grow(&x->mods, &x->modcap, x->nmod + 1, sizeof *x->mods);
	m = &x->mods[x->nmod];
	memset(m, 0, sizeof *m);
	/* Checked here, where the line is known: the predictions are
	 * records of the model's type. */
	if (!(sc = tr_schema_find(r->f[1].p, r->f[1].n)))
		tr_in_die(in, "model type '%.*s' is not a record type tr-extrap "
		    "knows", (int)(r->f[1].n > 40 ? 40 : r->f[1].n), r->f[1].p);
	m->type = tr_strndup(r->f[1].p, r->f[1].n);
	m->key = tr_strndup(r->f[2].p, r->f[2].n);
	m->file = tr_in_file(in);
	m->line = tr_in_line(in);
	m->quantity = tr_strndup(r->f[3].p, r->f[3].n);
	gk = tr_strndup(r->f[5].p, r->f[5].n);
	m->e = tr_xp_parse(gk, err, sizeof err, &col);
	free(gk);
	if (!m->e)
		tr_in_die(in, "%s %s %s: bad model expression: %s", m->type,
		    m->key, m->quantity, err);
	tr_expr_slots(m->e, useslot, &usesN);
	if (!x->scales) {
		int64_t k;

		x->scales = tr_meta_i64(in, "fit.scales", &k) == 0 && k > 0 ?
		    (long)k : -1;
	}
	if (usesN && x->N < 0)
		tr_in_die(in, "%s %s %s: the model depends on N: give N=SIZE",
		    m->type, m->key, m->quantity);
	m->v = tr_xp_eval(m->e, x->np, x->N);
	if (r->nf <= 9 || tr_parse_f64(r->f[9].p, r->f[9].n, &m->cv) < 0 ||
	    !isfinite(m->cv) || m->cv < 0)
		m->cv = 0;
	if (r->nf <= 10 || tr_parse_f64(r->f[10].p, r->f[10].n,
	    &m->points) < 0)
		m->points = 0;
	if (!isfinite(m->v))
		tr_in_die(in, "%s %s %s: the model is not finite at np=%g",
		    m->type, m->key, m->quantity, x->np);
	/* An integer column cannot hold it: the conversion is undefined,
	 * and wrapped to -2^63 (a count below zero) in practice. */
	if (fabs(m->v) >= 0x1p63 && qkind(sc, m->quantity) != TR_FLT)
		tr_in_die(in, "%s %s %s: the model predicts %g at np=%g, beyond "
		    "a 64-bit integer", m->type, m->key, m->quantity, m->v,
		    x->np);
	/* Times, counts and sizes are never negative: such a model was
	 * extrapolated past where it holds. Say so: columns that cannot be
	 * negative get 0. */
	if (m->v < 0 && ++x->nneg <= 3)
		tr_warn("%s %s %s: the model predicts %g at np=%g, below zero",
		    m->type, m->key, m->quantity, m->v, x->np);
	gk = gkey(m->type, m->key, &n);
	gi = tr_map_get(x->gmap, gk, n, 1);
	free(gk);
	if ((size_t)gi >= x->ngrp) {
		tr_grow(&x->grps, &x->grpcap, (size_t)gi + 1, sizeof *x->grps);
		g = &x->grps[gi];
		memset(g, 0, sizeof *g);
		g->type = m->type;
		g->key = m->key;
		x->ngrp = (size_t)gi + 1;
	}
	g = &x->grps[gi];
	tr_grow(&g->m, &g->mcap, (size_t)g->nm + 1, sizeof *g->m);
	g->m[g->nm++] = (int)x->nmod;
	x->nmod++;
}

size_t
tr_xp_count(const struct tr_xp *x)
{
	return x->nmod;
}

void
tr_xp_eval2(struct tr_xp *x, double np2, double N2)
{
	size_t i;

	if (N2 < 0)
		N2 = x->N;
	for (i = 0; i < x->nmod; i++)
		x->mods[i].v2 = tr_xp_eval(x->mods[i].e, np2, N2);
}

size_t
tr_xp_ngroups(const struct tr_xp *x)
{
	return x->ngrp;
}

const char *
tr_xp_group(const struct tr_xp *x, size_t g, const char **key)
{
	*key = x->grps[g].key;
	return x->grps[g].type;
}

long
tr_xp_find(const struct tr_xp *x, const char *type, const char *key)
{
	size_t n;
	char *k = gkey(type, key, &n);
	long g = tr_map_get(x->gmap, k, n, 0);

	free(k);
	return g;
}

static const struct model *
findq(const struct tr_xp *x, const struct group *g, const char *q)
{
	int i;

	for (i = 0; i < g->nm; i++)
		if (strcmp(x->mods[g->m[i]].quantity, q) == 0)
			return &x->mods[g->m[i]];
	return NULL;
}

int
tr_xp_get(const struct tr_xp *x, long g, const char *q, double *v,
    double *v2)
{
	const struct model *m = findq(x, &x->grps[g], q);

	if (!m)
		return -1;
	*v = m->v;
	*v2 = m->v2;
	return 0;
}

int
tr_xp_at(const struct tr_xp *x, long g, const char *q, double np, double N,
    double *v)
{
	const struct model *m = findq(x, &x->grps[g], q);

	if (!m)
		return -1;
	*v = tr_xp_eval(m->e, np, N);
	return 0;
}

double
tr_xp_cv(const struct tr_xp *x, long g, const char *q, double *points)
{
	const struct model *m = findq(x, &x->grps[g], q);

	*points = m ? m->points : 0;
	/* points in (n, N) at few counts: the form in n is that of few */
	if (x->scales > 0 && *points > x->scales)
		*points = (double)x->scales;
	return m ? m->cv : 0;
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
rankval(const struct tr_xp *x, const struct group *g, const char *col,
    double u, int *found)
{
	static const char *st[] = {"min", "q25", "med", "q75", "max"};
	static const double at[] = {0, 0.25, 0.5, 0.75, 1};
	double v[5];
	char q[256];
	int i, have = 0;

	for (i = 0; i < 5; i++) {
		const struct model *m;

		snprintf(q, sizeof q, "%s:%s", col, st[i]);
		m = findq(x, g, q);
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
perrank(const struct tr_xp *x, const struct group *g)
{
	int i;

	for (i = 0; i < g->nm; i++)
		if (strchr(x->mods[g->m[i]].quantity, ':'))
			return 1;
	return 0;
}

/* Columns of a record written as given, not from their models. */
struct override {
	const char *name;
	double v;
};

static void
emit(struct tr_xp *x, struct tr_out *o, struct group *g,
    const struct override *ov, int nov)
{
	const struct tr_schema *s = tr_schema_find(g->type, strlen(g->type));
	char *kv;
	long r, nr = perrank(x, g) ? (long)x->np : 1;

	g->done = 1;
	for (r = 0; r < nr; r++) {
		const char *f = s->fields, *e;
		int c = 0;

		tr_out_str(o, g->type);
		for (; f; f = e ? e + 1 : NULL, c++) {
			const struct model *m;
			char name[64];
			size_t len;
			int found, i;
			double v;

			e = strchr(f, '\t');
			len = e ? (size_t)(e - f) : strlen(f);
			snprintf(name, sizeof name, "%.*s", (int)len, f);
			tr_out_c(o, '\t');
			if (nr > 1 && c == 0) {
				tr_out_i64(o, r);
				continue;
			}
			if ((kv = tr_flat_keyval(g->key, name))) {
				tr_out_str(o, kv);
				free(kv);
				continue;
			}
			for (i = 0; i < nov; i++)
				if (strcmp(ov[i].name, name) == 0)
					break;
			if (i < nov) {
				putnum(o, ov[i].v, s->kinds[c]);
				continue;
			}
			if (nov && strcmp(name, "scale") == 0) {
				tr_out_str(o, "quant");
				continue;
			}
			if (nr > 1) {
				v = rankval(x, g, name, (double)r / (double)(nr - 1),
				    &found);
				if (found) {
					putnum(o, v, s->kinds[c]);
					continue;
				}
			} else if ((m = findq(x, g, name)) != NULL) {
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

/* A quantile's value and its model; the value first, as tr_cmp_f64
 * compares. */
struct qv {
	double v;
	const struct model *m;
};

/* Names the model of the quantile furthest out of the bin's two, Q: a
 * count is below 2^63, so the values, not it, took the sum past a
 * double. */
static _Noreturn void
qhist_die(const struct tr_xp *x, const struct group *g, const struct qv *q)
{
	const struct model *m = fabs(q[0].v) > fabs(q[1].v) ? q[0].m : q[1].m;

	tr_die_at(m->file, m->line, "hist %s: the predicted quantiles at "
	    "np=%g give bins beyond a double (%g to %g)", g->key, x->np,
	    q[0].v, q[1].v);
}

/* A histogram from its quantile models: six bins between the predicted
 * min, q10, q25, q50, q75, q90 and max, holding 10, 15, 25, 25, 15 and
 * 10 % of the predicted n. The ordinal bin models cannot give one:
 * tr-hist places bin K by each run's range, so their fits describe no
 * fixed range and cross at the target. Values are taken as uniform
 * inside a bin, so tr-fit and tr-accuracy read the predicted quantiles
 * back off these bins. Returns 0, writing nothing, without the models. */
static int
qhist(struct tr_xp *x, struct tr_out *o, struct group *g)
{
	static const char *qn[] = {"min", "q10", "q25", "q50", "q75", "q90",
	    "max"};
	static const double at[] = {0, 0.10, 0.25, 0.50, 0.75, 0.90, 1};
	struct override ov[6];
	const struct model *m;
	struct qv q[7];
	double e[7], cnt[6], n, mean;
	char *fld, *key;
	int i, nb = 0;

	for (i = 1; i < 6; i++) {
		if (!(m = findq(x, g, qn[i])))
			return 0;
		q[i].v = m->v;
		q[i].m = m;
	}
	if (!(m = findq(x, g, "n")) || (n = round(m->v)) < 1)
		return 0;
	q[0] = q[1];
	q[6] = q[5];
	for (i = 0; i < 7; i += 6)
		if ((m = findq(x, g, qn[i]))) {
			q[i].v = m->v;
			q[i].m = m;
		}
	/* Fits of neighbouring quantiles may cross at the target: sorted,
	 * they keep the predicted spread. */
	tr_sort(q, 7, sizeof *q, tr_cmp_f64);
	for (i = 0; i < 7; i++)
		e[i] = q[i].v;
	/* Cumulative counts rounded, so that the bins add up to n. */
	for (i = 0; i < 6; i++) {
		cnt[i] = round(at[i + 1] * n) - round(at[i] * n);
		nb += cnt[i] > 0;
	}
	/* Quantiles near a double's limits give a bin's sum (or midpoint)
	 * no double holds, written as inf: a model that is not finite. */
	for (i = 0; i < 6; i++)
		if (!isfinite((e[i] + e[i + 1]) / 2 * cnt[i]))
			qhist_die(x, g, q + i);
	mean = (m = findq(x, g, "mean")) ? m->v : (e[0] + e[6]) / 2;
	mean = mean < e[0] ? e[0] : mean > e[6] ? e[6] : mean;
	ov[0].name = "n";
	ov[0].v = n;
	ov[1].name = "min";
	ov[1].v = e[0];
	ov[2].name = "mean";
	ov[2].v = mean;
	ov[3].name = "max";
	ov[3].v = e[6];
	/* Bins of unequal widths: no single width describes them. */
	ov[4].name = "width";
	ov[4].v = 0;
	ov[5].name = "bins";
	ov[5].v = nb;
	emit(x, o, g, ov, 6);
	fld = tr_flat_keyval(g->key, "field");
	key = tr_flat_keyval(g->key, "key");
	for (i = 0; i < 6; i++) {
		double mid = (e[i] + e[i + 1]) / 2;

		if (cnt[i] <= 0)
			continue;
		tr_out_printf(o, "bin\t%s\t%s\t", fld ? fld : "-",
		    key ? key : "-");
		tr_out_f64(o, e[i]);
		tr_out_c(o, '\t');
		tr_out_f64(o, e[i + 1]);
		tr_out_c(o, '\t');
		tr_out_i64(o, (int64_t)cnt[i]);
		tr_out_c(o, '\t');
		tr_out_f64(o, mid);
		tr_out_c(o, '\t');
		tr_out_f64(o, mid * cnt[i]);
		tr_out_c(o, '\n');
	}
	free(fld);
	free(key);
	return 1;
}

void
tr_xp_write(struct tr_xp *x, struct tr_out *o)
{
	struct group *gr = x->grps;
	size_t i, j, n = x->ngrp;
	char buf[32];
	int hist = 0, bins = 0;

	tr_out_begin(o);
	tr_out_printf(o, "#meta np=%s\n", tr_f64str(buf, x->np));
	if (x->N >= 0)
		tr_out_printf(o, "#meta N=%s\n", tr_f64str(buf, x->N));
	tr_out_printf(o, "#meta tool=tr-extrap %s\n#meta extrap=predicted\n",
	    TR_VERSION);
	for (i = 0; i < n; i++) {
		const struct tr_schema *s;

		for (j = 0; j < i; j++)
			if (strcmp(gr[j].type, gr[i].type) == 0)
				break;
		if (j < i)
			continue;
		/* Known: tr_xp_add checked it. */
		s = tr_schema_find(gr[i].type, strlen(gr[i].type));
		tr_out_fields(o, s->type);
		hist |= s->type == TR_HIST;
		bins |= s->type == TR_BIN;
	}
	/* qhist writes bins without models of ordinal bins. */
	if (hist && !bins)
		tr_out_fields(o, TR_BIN);
	for (i = 0; i < n; i++) {
		if (gr[i].done)
			continue;
		/* Bins of a histogram wait for it. */
		for (j = 0; j < n; j++)
			if (strcmp(gr[j].type, "hist") == 0 &&
			    binof(&gr[i], &gr[j]) >= 0)
				break;
		if (j < n)
			continue;
		if (strcmp(gr[i].type, "hist") != 0) {
			emit(x, o, &gr[i], NULL, 0);
			continue;
		}
		if (qhist(x, o, &gr[i])) {
			for (j = 0; j < n; j++)
				if (binof(&gr[j], &gr[i]) >= 0)
					gr[j].done = 1;
			continue;
		}
		emit(x, o, &gr[i], NULL, 0);
		for (;;) {
			long best = -1, bk = -1;

			for (j = 0; j < n; j++) {
				long k = gr[j].done ? -1 : binof(&gr[j], &gr[i]);

				if (k >= 0 && (bk < 0 || k < bk)) {
					bk = k;
					best = (long)j;
				}
			}
			if (best < 0)
				break;
			emit(x, o, &gr[best], NULL, 0);
		}
	}
}

void
tr_xp_report(const struct tr_xp *x)
{
	if (x->nneg > 3)
		tr_warn("%ld more predictions below zero", x->nneg - 3);
}

void
tr_xp_free(struct tr_xp *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->nmod; i++) {
		free(x->mods[i].type);
		free(x->mods[i].key);
		free(x->mods[i].quantity);
		tr_expr_free(x->mods[i].e);
	}
	for (i = 0; i < x->ngrp; i++)
		free(x->grps[i].m);
	free(x->mods);
	free(x->grps);
	tr_map_free(x->gmap);
	free(x);
}
